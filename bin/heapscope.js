#!/usr/bin/env node
// The installed command: the command line `npm run build` makes, as one CommonJS file loaded with V8's code cache
// (bin/cliBundle.cjs), or as the ES module out/main/cli.js where only electron-vite's build has run. This file is
// CommonJS (bin/package.json): node starts a CommonJS entry without its ES module loader, about 10 to 25 ms sooner.
'use strict'
const { loadCliBundle } = require('./cliBundle.cjs')
const { runWithHugePages } = require('./hugePages.cjs')

const args = process.argv.slice(2)
function run() {
  const bundle = loadCliBundle()
  if (bundle) bundle.exports.start(args)
  else
    import('../out/main/cli.js').catch((err) => {
      console.error(`heapscope: cannot start (${err.message}); run npm run build first`)
      process.exitCode = 1
    })
}
// a large capture's command runs again with huge pages (bin/hugePages.cjs), or here
if (!runWithHugePages(__filename, args, run)) run()
