/** The heapscope executable: run the command line and exit with its status. */
import { main } from './index'

// A reader that stops early (`route … | head`) closes the pipe: end quietly, as the tools a pipe joins do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0)
  throw err
})

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
