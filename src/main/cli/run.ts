/** The heapscope executable: run the command line and exit with its status. */
import { main } from './index'

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
