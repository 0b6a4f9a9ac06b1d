/** Run the command line in this process and leave its status as the exit code. */
import { main } from './index'

export function start(argv: string[]): void {
  // A reader that stops early (`route … | head`) closes the pipe: end quietly, as the tools a pipe joins do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0)
    throw err
  })
  main(argv).then((code) => {
    process.exitCode = code
  })
}
