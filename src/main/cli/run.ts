/** The heapscope executable as an ES module (out/main/cli.js): run the command line and exit with its status. */
import { start } from './start'

start(process.argv.slice(2))
