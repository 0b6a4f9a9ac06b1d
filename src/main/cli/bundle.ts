/**
 * The command line as one CommonJS file (out/main/cli.cjs, scripts/buildCli.mjs), which bin/heapscope.js loads
 * with V8's code cache: `start` runs it; `main` runs one command and resolves to its status (the cache's warm-up).
 */
export { main } from './index'
export { start } from './start'
