/**
 * The installed command as `npm run build` leaves it: the command line's CommonJS bundle (out/main/cli.cjs), loaded
 * with V8's code cache from the same build (bin/cliBundle.cjs). It answers as the ES module build does, the cache
 * is taken, and a cache from another build or one V8 refuses is left aside without changing an answer.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ROOT } from './browser'

const run = promisify(execFile)
const BUNDLE = join(ROOT, 'out/main/cli.cjs')
const DEMO = join(ROOT, 'resources/demo/demo.hscap.gz')

/**
 * In a fresh process, what bin/cliBundle.cjs of `root` gave when it loaded its bundle: what became of the cache,
 * or 'no bundle'.
 */
async function cacheOutcome(root: string): Promise<string> {
  const loader = join(root, 'bin/cliBundle.cjs')
  const script = `import(${JSON.stringify(loader)}).then((m) => process.stdout.write(m.loadCliBundle()?.cache ?? 'no bundle'))`
  return (await run(process.execPath, ['-e', script], { cwd: root })).stdout
}

async function report(cli: string, capture: string, cwd = ROOT): Promise<string> {
  return (await run(process.execPath, [cli, 'report', capture, '--json'], { cwd, maxBuffer: 1 << 24 })).stdout
}

describe('the command line bundle and its code cache', () => {
  let work = ''
  let vulkan = ''

  beforeAll(async () => {
    if (!existsSync(BUNDLE)) throw new Error('out/main/cli.cjs is missing: run npm run build first')
    work = mkdtempSync(join(tmpdir(), 'heapscope-cli-bundle-'))
    vulkan = join(work, 'vulkan.hscap')
    await run(process.execPath, [CLI, 'gen', 'vulkan', '--frames', '40', '--seed', '3', '-o', vulkan], { cwd: ROOT })
  })
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('loads with the cache its build wrote', async () => {
    expect(await cacheOutcome(ROOT)).toBe('used')
  })

  it('reports what the ES module build reports, on D3D12 and Vulkan captures', async () => {
    for (const capture of [DEMO, vulkan]) {
      const bundled = await report(CLI, capture)
      expect(JSON.parse(bundled)).toMatchObject({ records: expect.any(Number), frames: expect.any(Number) })
      expect(bundled).toBe(await report(join(ROOT, 'out/main/cli.js'), capture))
    }
  })

  it('loads child_process, worker_threads, zlib and fs/promises only where a command uses them', async () => {
    // the Node.js modules a process has loaded, listed as it exits
    const preload = join(work, 'modules.cjs')
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(JSON.stringify(process.moduleLoadList)))\n")
    const loaded = async (capture: string) => {
      const { stdout, stderr } = await run(process.execPath, ['-r', preload, CLI, 'report', capture, '--json'], { cwd: ROOT, maxBuffer: 1 << 24 })
      const modules = (JSON.parse(stderr) as string[]).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))
      return { report: JSON.parse(stdout) as { records: number }, modules }
    }
    const plain = await loaded(vulkan)
    expect(plain.report.records).toBeGreaterThan(0)
    expect(plain.modules).toContain('fs')
    const lazy = ['child_process', 'worker_threads', 'zlib', 'fs/promises', 'internal/fs/promises']
    expect(plain.modules.filter((m) => lazy.includes(m))).toEqual([])
    const gzip = await loaded(DEMO)
    expect(gzip.report.records).toBe(12201)
    expect(gzip.modules).toContain('zlib')
    expect(gzip.modules).not.toContain('child_process')
  })

  it('opens DuckDB from the bundle (history, export): the client is required, not imported', async () => {
    const db = join(work, 'history.duckdb')
    await run(process.execPath, [CLI, 'history', 'add', db, DEMO], { cwd: ROOT })
    const { stdout } = await run(process.execPath, [CLI, 'history', 'query', db, 'select count(*) as runs from runs'], { cwd: ROOT })
    expect(stdout).toMatch(/runs\s+1\s/)
  })

  it('leaves aside a cache from another build, and one V8 refuses, with the same answers', async () => {
    // a checkout of the built command line alone: bin/ and out/main/cli.cjs with its cache
    const tree = join(work, 'tree')
    mkdirSync(join(tree, 'bin'), { recursive: true })
    mkdirSync(join(tree, 'out/main'), { recursive: true })
    for (const f of ['bin/heapscope.js', 'bin/cliBundle.cjs', 'bin/hugePages.cjs', 'bin/package.json', 'out/main/cli.cjs', 'out/main/cli.cjs.cache', 'package.json']) {
      copyFileSync(join(ROOT, f), join(tree, f))
    }
    const cache = join(tree, 'out/main/cli.cjs.cache')
    const cli = join(tree, 'bin/heapscope.js')
    const expected = await report(CLI, DEMO)
    expect(await cacheOutcome(tree)).toBe('used')

    const built = readFileSync(cache)
    const other = Buffer.from(built)
    other.write('0'.repeat(32), 0, 'latin1')
    writeFileSync(cache, other)
    expect(await cacheOutcome(tree)).toBe('stale')
    expect(await report(cli, DEMO, tree)).toBe(expected)

    // the right build id over bytes V8 cannot take
    const damaged = Buffer.from(built)
    damaged.fill(0x5a, 32, 96)
    writeFileSync(cache, damaged)
    expect(await cacheOutcome(tree)).toBe('rejected')
    expect(await report(cli, DEMO, tree)).toBe(expected)

    rmSync(cache)
    expect(await cacheOutcome(tree)).toBe('none')
    expect(await report(cli, DEMO, tree)).toBe(expected)
  })

  it('runs the ES module build where only electron-vite built the command line', async () => {
    const tree = join(work, 'modules')
    mkdirSync(join(tree, 'bin'), { recursive: true })
    for (const f of ['bin/heapscope.js', 'bin/cliBundle.cjs', 'bin/hugePages.cjs', 'bin/package.json', 'package.json']) copyFileSync(join(ROOT, f), join(tree, f))
    cpSync(join(ROOT, 'out/main'), join(tree, 'out/main'), { recursive: true, filter: (f) => !/cli\.cjs/.test(f) })
    expect(await cacheOutcome(tree)).toBe('no bundle')
    expect(await report(join(tree, 'bin/heapscope.js'), DEMO, tree)).toBe(await report(CLI, DEMO))
  })
})
