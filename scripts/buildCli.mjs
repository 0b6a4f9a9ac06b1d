#!/usr/bin/env node
// `npm run build`, after electron-vite's build: the command line again as one CommonJS file, out/main/cli.cjs
// (src/main/cli/bundle.ts, every module it imports inlined but DuckDB's client; in ASCII and in its module
// wrapper, as bin/cliBundle.cjs compiles it), ending with a fresh build id; then V8's code cache for it,
// out/main/cli.cjs.cache: a process of its own loads the bundle without a cache, runs `report` on the shipped
// demo capture (D3D12) and on a small Vulkan capture from `heapscope gen`, and writes what V8 compiled.
// bin/heapscope.js loads the bundle with the cache (bin/cliBundle.cjs).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILD_ID_MARK, BUNDLE, MODULE_WRAPPER, loadCliBundle, writeCliCache } from '../bin/cliBundle.cjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DEMO = join(root, 'resources', 'demo', 'demo.hscap.gz')
const DUCKDB = '@duckdb/node-api'

/**
 * DuckDB's client (CommonJS) is required instead of imported: a script compiled from a code cache has no import()
 * (Node.js keeps no loader for it), so the bundle may import() nothing else.
 */
function requireDuckDb() {
  return {
    name: 'heapscope-require-duckdb',
    renderChunk(code, chunk) {
      const external = chunk.dynamicImports.filter((id) => id !== chunk.fileName)
      const others = external.filter((id) => id !== DUCKDB)
      if (others.length > 0) throw new Error(`the command line's bundle would import() ${others.join(', ')}`)
      const call = `import("${DUCKDB}")`
      if (external.length > 0 && !code.includes(call)) throw new Error(`no ${call} in the bundle to replace`)
      return { code: code.replaceAll(call, `Promise.resolve().then(() => require("${DUCKDB}"))`), map: null }
    },
  }
}

/**
 * Node.js modules a `report` of a plain capture never calls, loaded on first use instead of as the bundle starts:
 * child_process (symbolized stacks, recording, and commander's executable subcommands), worker_threads (a
 * pipelined load of a capture of 64 MiB or more), zlib (a gzip capture) and fs/promises (a followed capture, the
 * writers, the hosts; a load reads through node:fs's callbacks). Each is a module of getters, one per export, that
 * loads the real one when one of them is first read. At the bundle's start the first three cost sixteen internal
 * modules (net, dgram, the worker's messaging) and about 3 ms: `heapscope report` of a two-line capture took 161 and
 * 163 ms against 163 and 167 ms (40 and 60 alternating runs); fs/promises and its readline interface about 2 ms.
 */
const LAZY_BUILTINS = ['node:child_process', 'node:worker_threads', 'node:zlib', 'node:fs/promises']
const LAZY_PREFIX = '\0heapscope-lazy:'

function lazyBuiltins() {
  const requireHere = createRequire(import.meta.url)
  return {
    name: 'heapscope-lazy-builtins',
    enforce: 'pre',
    resolveId(id) {
      return LAZY_BUILTINS.includes(id) ? LAZY_PREFIX + id : null
    },
    load(id) {
      if (!id.startsWith(LAZY_PREFIX)) return null
      const builtin = id.slice(LAZY_PREFIX.length)
      const keys = Object.keys(requireHere(builtin))
      // process.getBuiltinModule is a plain call the bundler leaves alone (a require would be hoisted to the top)
      return [
        'let loaded',
        `const load = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(builtin)}))`,
        `for (const key of ${JSON.stringify(keys)}) Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] })`,
      ].join('\n')
    },
  }
}

async function warm(captures) {
  const bundle = loadCliBundle({ useCache: false })
  for (const file of captures) {
    const status = await bundle.exports.main(['report', file, '--json'])
    if (status !== 0) throw new Error(`heapscope report ${file} exited with ${status}`)
  }
  writeCliCache(bundle)
}

async function build() {
  const { build: viteBuild } = await import('vite')
  // built aside, then put in place whole: a command started meanwhile reads the last bundle or this one
  const staging = join(dirname(BUNDLE), '.cli-build')
  await viteBuild({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: join(root, 'src/main/cli/bundle.ts'),
      outDir: staging,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: {
        external: [DUCKDB],
        output: { format: 'cjs', entryFileNames: 'cli.cjs', codeSplitting: false, comments: false },
      },
    },
    ssr: { noExternal: true, external: [DUCKDB] },
    plugins: [lazyBuiltins(), requireDuckDb()],
  })
  // Pure ASCII (vite's output has other characters in strings and templates only, which take their \u escape), so
  // the loader reads it as Latin-1: a one-byte string Node.js keeps outside V8's heap, with no UTF-8 decoding. And
  // wrapped as Node.js wraps a CommonJS module, so that string is the script V8 compiles, with no copy made.
  const code = readFileSync(join(staging, 'cli.cjs'), 'utf8').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  writeFileSync(`${BUNDLE}.part`, `${MODULE_WRAPPER[0]}${code}${MODULE_WRAPPER[1]}${BUILD_ID_MARK}${randomBytes(16).toString('hex')}\n`)
  renameSync(`${BUNDLE}.part`, BUNDLE)
  rmSync(staging, { recursive: true, force: true })
  const node = (args, stdout) => {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', stdout, 'inherit'] })
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed (status ${result.status})`)
  }
  const work = mkdtempSync(join(tmpdir(), 'heapscope-cli-'))
  try {
    const vulkan = join(work, 'vulkan.hscap')
    node([join(root, 'bin/heapscope.js'), 'gen', 'vulkan', '--frames', '60', '--seed', '1', '-o', vulkan], 'inherit')
    node([fileURLToPath(import.meta.url), '--warm', DEMO, vulkan], 'ignore')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const at = process.argv.indexOf('--warm')
if (at >= 0) await warm(process.argv.slice(at + 1))
else await build()
