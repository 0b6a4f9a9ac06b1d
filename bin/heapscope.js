#!/usr/bin/env node
// The installed command: the command line `npm run build` makes, as one CommonJS file loaded with V8's code cache
// (bin/cliBundle.mjs), or as the ES module out/main/cli.js where only electron-vite's build has run.
import { loadCliBundle } from './cliBundle.mjs'

const bundle = loadCliBundle()
if (bundle) bundle.exports.start(process.argv.slice(2))
else
  import('../out/main/cli.js').catch((err) => {
    console.error(`heapscope: cannot start (${err.message}); run npm run build first`)
    process.exitCode = 1
  })
