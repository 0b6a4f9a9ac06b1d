// The command line's CommonJS bundle (out/main/cli.cjs, made by scripts/buildCli.mjs), loaded with V8's code
// cache: the bytecode of every function a warm-up run of `report` compiled, written by the same build beside the
// bundle (out/main/cli.cjs.cache). Without it, each start parses and compiles about a megabyte of script again.
// The cache opens with the build id the bundle ends with: one from another build is not used. V8 refuses one made
// by another Node.js or under other V8 flags; either way the bundle then compiles as it would without a cache.
'use strict'
const { readFileSync, renameSync, writeFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { dirname, join } = require('node:path')
const vm = require('node:vm')

const BUNDLE = join(__dirname, '../out/main/cli.cjs')
const CACHE = `${BUNDLE}.cache`
/**
 * The bundle is written inside the function Node.js wraps a CommonJS module in, so it compiles as it is read, and
 * in ASCII, so it is read as Latin-1: a one-byte string outside V8's heap, neither decoded nor copied.
 */
const MODULE_WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})\n']
/** The bundle's last line is this and its build id: 32 hex digits, which also open the cache. */
const BUILD_ID_MARK = '//# heapscope-build='
const BUILD_ID_LENGTH = 32

function buildIdOf(source) {
  const at = source.lastIndexOf(BUILD_ID_MARK)
  if (at < 0) return null
  const id = source.slice(at + BUILD_ID_MARK.length, at + BUILD_ID_MARK.length + BUILD_ID_LENGTH)
  return /^[0-9a-f]{32}$/.test(id) ? id : null
}

/**
 * Load and run the bundle. Returns null where it was not built; else its exports (`start`, `main`), the script,
 * its build id, and what became of the cache: 'used', 'rejected' (by V8), 'stale' (another build's) or 'none'.
 */
function loadCliBundle({ useCache = true } = {}) {
  let source
  try {
    source = readFileSync(BUNDLE, 'latin1')
  } catch (err) {
    if (err.code === 'ENOENT') return null
    throw err
  }
  const id = buildIdOf(source)
  let cachedData
  let cache = 'none'
  if (useCache && id) {
    let file = null
    try {
      file = readFileSync(CACHE)
    } catch {
      // no cache: compile
    }
    if (file && file.toString('latin1', 0, BUILD_ID_LENGTH) === id) cachedData = file.subarray(BUILD_ID_LENGTH)
    else if (file) cache = 'stale'
  }
  const script = new vm.Script(source, { filename: BUNDLE, cachedData })
  if (cachedData) cache = script.cachedDataRejected ? 'rejected' : 'used'
  const bundle = { exports: {} }
  script.runInThisContext()(bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, dirname(BUNDLE))
  return { exports: bundle.exports, script, id, cache }
}

/** Write the code cache of a loaded bundle: its build id, then what V8 has compiled of it so far. */
function writeCliCache(bundle) {
  writeFileSync(`${CACHE}.part`, Buffer.concat([Buffer.from(bundle.id, 'latin1'), bundle.script.createCachedData()]))
  renameSync(`${CACHE}.part`, CACHE)
}

module.exports = { BUNDLE, CACHE, MODULE_WRAPPER, BUILD_ID_MARK, BUILD_ID_LENGTH, loadCliBundle, writeCliCache }
