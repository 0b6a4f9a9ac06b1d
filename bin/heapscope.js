#!/usr/bin/env node
// The installed command: the built command line (npm run build makes out/main/cli.js).
import('../out/main/cli.js').catch((err) => {
  console.error(`heapscope: cannot start (${err.message}); run npm run build first`)
  process.exitCode = 1
})
