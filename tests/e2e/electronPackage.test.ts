/**
 * The package electron-builder makes from the build: its configuration passes electron-builder's own
 * validation, and the app it packs holds only the built output — no sources, tests, maps or node_modules but
 * DuckDB's, outside the archive — and is whole: everything the entry and the engine worker import is in it, and
 * the engine's DuckDB loads from it. Packed for Linux as a folder, with a
 * stand-in for Electron's binary (this needs no download; the real installers do).
 */
import { listPackage } from '@electron/asar'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, posix } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RESULTS, ROOT } from './browser'

const require = createRequire(import.meta.url)
const OUT = join(RESULTS, 'electron-package')
const UNPACKED = join(OUT, 'dist', 'linux-unpacked')
/** Where Electron's binary keeps its fuse wire (@electron/fuses). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/** The packages the engine worker imports at run time (history databases), unpacked beside the archive. */
const NATIVE_PACKAGES = ['@duckdb/node-api', '@duckdb/node-bindings', `@duckdb/node-bindings-${process.platform}-${process.arch}`, 'detect-libc']
const NATIVE_FILE = /^\/node_modules\/(@duckdb\/[^/]+|detect-libc)\/.+$/

/** Every module specifier a built file imports, statically or not. */
function specifiers(code: string): string[] {
  const found = new Set<string>()
  for (const re of [/\bfrom\s*"([^"]+)"/g, /\bimport\s*\(\s*"([^"]+)"\s*\)/g, /\brequire\s*\(\s*"([^"]+)"\s*\)/g, /^import\s+"([^"]+)"/gm]) {
    for (const m of code.matchAll(re)) found.add(m[1])
  }
  return [...found]
}

describe('the package', () => {
  let files: string[] = []

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('out/ is missing: run npx electron-vite build first')
    rmSync(OUT, { recursive: true, force: true })
    const fake = join(OUT, 'electron')
    mkdirSync(join(fake, 'resources'), { recursive: true })
    // a binary with Electron's fuse wire as Electron 40 ships it: the sentinel, version 1, 8 fuses as ASCII 0/1
    // (run as node on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity off, only from asar off,
    // browser V8 snapshot off, file:// privileges on)
    writeFileSync(join(fake, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n'), Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001')]))
    chmodSync(join(fake, 'electron'), 0o755)
    for (const f of ['chrome-sandbox', 'LICENSE', 'LICENSES.chromium.html']) writeFileSync(join(fake, f), '')
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/electron-builder/cli.js'),
        '--linux',
        'dir',
        `-c.electronDist=${fake}`,
        `-c.directories.output=${join(OUT, 'dist')}`,
      ],
      { cwd: ROOT, stdio: 'pipe', env: { ...process.env, ELECTRON_BUILDER_OFFLINE: 'true' } },
    )
    files = listPackage(join(UNPACKED, 'resources/app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'))
  })

  it('passes electron-builder’s validation', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(dir: string, path: null, options: null): Promise<Record<string, unknown>>
      validateConfiguration(config: unknown, logger: unknown): Promise<void>
    }
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown }
    const config = await getConfig(ROOT, null, null)
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    expect(config.fileAssociations).toEqual([expect.objectContaining({ ext: 'hscap', mimeType: 'application/x-heapscope-capture' })])
    expect((config.linux as { fileAssociations: unknown[] }).fileAssociations).toEqual([
      expect.objectContaining({ ext: 'hscap.gz', mimeType: 'application/x-heapscope-capture+gzip' }),
    ])
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb'])
    expect((config.win as { target: string[] }).target).toEqual(['nsis'])
    expect((config.mac as { target: string[] }).target).toEqual(['dmg'])
  })

  it('has the packed binary’s fuses set: no run-as-node, NODE_OPTIONS or --inspect, the app only from its archive', async () => {
    const { getCurrentFuseWire, FuseV1Options } = require('@electron/fuses') as typeof import('@electron/fuses')
    const wire = (await getCurrentFuseWire(join(UNPACKED, 'heapscope'))) as unknown as Record<string, number | string>
    // ASCII '0' (48) off, '1' (49) on; the two fuses not set keep what the binary shipped with
    expect(wire.version).toBe('1')
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => String.fromCharCode(Number(wire[i])))).toEqual(['0', '1', '0', '0', '0', '1', '0', '0'])
    expect(wire[FuseV1Options.RunAsNode]).toBe(48)
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(49)
  })

  it('holds the built output and nothing else', () => {
    const leaves = files.filter((f) => /\.[a-z0-9]+$/i.test(posix.basename(f)))
    expect(leaves.length).toBeGreaterThan(5)
    for (const f of leaves) {
      if (NATIVE_FILE.test(f) || /^\/node_modules\/@duckdb\/node-bindings\/node_modules\/@duckdb\/[^/]+\/.+$/.test(f)) {
        expect(f, f).not.toMatch(/\.map$|\.d\.ts$/)
        continue
      }
      expect(f, f).toMatch(/^\/(package\.json|out\/(main|preload|renderer)\/.+)$/)
      expect(f, f).not.toMatch(/\.map$|node_modules|\/src\/|\/tests?\//)
    }
    expect(files).toContain('/out/main/index.js')
    expect(files).toContain('/out/main/engineWorker.js')
    expect(files).toContain('/out/preload/index.cjs')
    expect(files).toContain('/out/renderer/index.html')
    // the browser host and the CLI are a checkout's, not the app's
    expect(files).not.toContain('/out/main/host.js')
    expect(files).not.toContain('/out/main/cli.js')
    expect(files).not.toContain('/out/main/cli.cjs')
    expect(files).not.toContain('/out/main/cli.cjs.cache')
    // the engine worker is read from disk, beside the archive
    expect(existsSync(join(UNPACKED, 'resources/app.asar.unpacked/out/main/engineWorker.js'))).toBe(true)
    expect(existsSync(join(UNPACKED, 'resources/demo/demo.hscap.gz'))).toBe(true)
    expect(files.filter((f) => /\.node$/.test(f)).length).toBeGreaterThan(0)
    expect(existsSync(join(UNPACKED, 'heapscope'))).toBe(true)
  })

  it('ships the Vulkan capture layer beside the archive where it was built, with manifests that find it', (context) => {
    const built = join(ROOT, 'out/vulkan-layer/VkLayer_heapscope_capture.json')
    if (!existsSync(built)) {
      console.warn('electron-package: the Vulkan capture layer is not built (npm run build:layer); its resource is not checked')
      context.skip()
    }
    const layer = join(UNPACKED, 'resources/vulkan-layer')
    for (const manifest of ['VkLayer_heapscope_capture.json', 'implicit/VkLayer_heapscope_capture.json']) {
      const json = JSON.parse(readFileSync(join(layer, manifest), 'utf8')) as { layer: { name: string; library_path: string } }
      expect(json.layer.name).toBe('VK_LAYER_HEAPSCOPE_capture')
      // a relative path, from the manifest's own folder, so the installed app can live anywhere
      expect(json.layer.library_path).toMatch(/^\.\.?\//)
      expect(existsSync(join(layer, posix.dirname(manifest), json.layer.library_path))).toBe(true)
    }
    expect(existsSync(join(layer, 'tests'))).toBe(false)
  })

  it('is whole: the entry and the engine import only Node, Electron and files it holds', () => {
    const seen = new Set<string>()
    const missing: string[] = []
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const code = readFileSync(join(UNPACKED, 'resources/app.asar.unpacked', file), 'utf8')
      for (const spec of specifiers(code)) {
        if (spec.startsWith('node:') || spec === 'electron') continue
        if (spec === '@duckdb/node-api') {
          if (!files.includes('/node_modules/@duckdb/node-api/package.json')) missing.push(`${file} imports ${spec}, not in the package`)
          continue
        }
        if (!spec.startsWith('.')) {
          missing.push(`${file} imports ${spec}`)
          continue
        }
        const target = posix.join(posix.dirname(file), spec)
        if (!files.includes(`/${target}`)) missing.push(`${file} imports ${target}, not in the package`)
        else visit(target)
      }
    }
    visit('out/main/index.js')
    visit('out/main/engineWorker.js')
    expect(missing).toEqual([])
    expect(seen.size).toBeGreaterThan(2)
    // DuckDB's binary (a native module the OS loads) lies outside the archive, beside the engine
    for (const pkg of NATIVE_PACKAGES) expect(files.some((f) => f.includes(`/node_modules/${pkg}/package.json`)), pkg).toBe(true)
    // the native module is the engine's and the CLI's: neither the renderer nor the preload reaches it
    for (const f of files.filter((f) => /^\/out\/(renderer|preload)\/.+\.(c?js)$/.test(f))) {
      expect(readFileSync(join(ROOT, f), 'utf8'), f).not.toMatch(/@duckdb|duckdb\.node/)
    }
    // the preload is one self-contained CommonJS file
    const preload = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8')
    expect(specifiers(preload).filter((s) => s !== 'electron')).toEqual([])
  })

  it('loads DuckDB beside the engine worker, from the unpacked package alone, and answers a query', () => {
    const main = join(UNPACKED, 'resources/app.asar.unpacked/out/main')
    const probe = join(main, 'duckdb-probe.mjs')
    writeFileSync(
      probe,
      `import { createRequire } from 'node:module'
       import { DuckDBInstance } from '@duckdb/node-api'
       const c = await (await DuckDBInstance.create(':memory:')).connect()
       const api = import.meta.resolve('@duckdb/node-api')
       const bindings = createRequire(api).resolve('@duckdb/node-bindings')
       const binary = createRequire(bindings).resolve('@duckdb/node-bindings-${process.platform}-${process.arch}/duckdb.node')
       const rows = (await c.runAndReadAll('SELECT 6 * 7 AS answer')).getRowObjectsJson()
       console.log(JSON.stringify({ rows, from: [new URL(api).pathname, bindings, binary] }))`,
    )
    try {
      const out = JSON.parse(execFileSync(process.execPath, [probe], { cwd: main, env: { PATH: process.env.PATH ?? '' } }).toString()) as {
        rows: unknown
        from: string[]
      }
      expect(out.rows).toEqual([{ answer: 42 }])
      // the package's own copies answered, not the checkout's node_modules further up
      for (const path of out.from) expect(path.startsWith(join(UNPACKED, 'resources/app.asar.unpacked/node_modules/')), path).toBe(true)
    } finally {
      rmSync(probe)
    }
  })
})
