/** Run the command line in this process and leave its status as the exit code. */
import { main } from './index'
import { enableShortRunTuning } from './shortRun'

export function start(argv: string[]): void {
  // A reader that stops early (`route … | head`) closes the pipe: end quietly, as the tools a pipe joins do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
  // A process of its own, run once: the first capture it replays may set the compiler's budget (shortRun.ts).
  enableShortRunTuning()
  main(argv).then((code) => {
    process.exitCode = code
  })
}
