/**
 * A capture loaded in a worker thread and replayed as it grows (loadAndReplay) against the one-thread path (the
 * load, then the replay): the same report byte for byte, every series, the checks' list and snapshots, on the
 * golden captures, the demo, a generated stress capture, captures with bad lines and with a fatal fault part way,
 * one whose first `gpu` and `use` records come late (the replay starts again), and the same errors where the file
 * cannot be read. Files the worker does not take (an importer's format) and a worker that cannot start fall back
 * to the one-thread path.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import {
  loadAndReplay,
  PIPELINE_MIN_BYTES,
  PIPELINE_MIN_BYTES_TWO_CORES,
  pipelineWorthIt,
  type LoadAndReplayOptions,
  type ReplayedCapture,
} from '../../../../src/main/analysis/run'
import { CaptureError, TruncatedGzipError } from '../../../../src/main/ingest/errors'
import { PipedStore } from '../../../../src/main/ingest/increments'
import type { LoadResult } from '../../../../src/main/ingest/read'
import { dumpStore, generated } from '../ingest/helpers'

const GOLDEN = join(__dirname, '__golden__')
const DEMO = join(__dirname, '../../../../resources/demo/demo.hscap.gz')
const VMA = join(__dirname, '../../../fixtures/real/vma-dump-rx6600xt.json')
const dir = mkdtempSync(join(tmpdir(), 'heapscope-pipe-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Small chunks and an increment after each: many increments even from a small capture. */
const EAGER: LoadAndReplayOptions = { load: { chunkSize: 4096 }, oneThread: false, pipe: { eager: true } }

function write(name: string, bytes: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

/** What a replay shows: its report, every series, the checks' list and snapshots at a few frames. */
function figures(replayed: ReplayedCapture, snapshots: boolean) {
  const run = replayed.replay
  const frames = run.store.frames.length
  const at = [0, Math.floor(frames / 3), frames - 1].filter((f, i, all) => f >= 0 && all.indexOf(f) === i)
  return {
    report: JSON.stringify(replayed.report),
    series: run.series.list().map((info) => [info.name, Array.from(run.series.get(info.name)!)]),
    checks: JSON.stringify(run.checks.entries),
    snapshots: snapshots ? at.map((frame) => replayed.snapshots.snapshot('run', frame)) : [],
  }
}

function outcome(result: LoadResult) {
  const e = result.error
  return {
    store: dumpStore(result.store),
    format: result.format,
    error: e && { name: e.name, message: e.message, line: e.line, byteOffset: e.byteOffset, expected: e.expected, detail: e.detail, decompressed: e.decompressed },
  }
}

/** The capture both ways; the pipelined one must have gone through the worker unless `piped` is false. */
async function bothWays(path: string, options: LoadAndReplayOptions = EAGER, { piped = true, snapshots = true, pairs = [] as string[] } = {}) {
  // the same chunks: where a cut gzip stream breaks off depends on them
  const one = loadAndReplay(path, pairs, { oneThread: true, checkpoints: options.checkpoints, load: options.load })
  const oneResult = await one.loaded
  const oneFigures = figures(await one.replayed, snapshots)
  const two = loadAndReplay(path, pairs, options)
  const twoResult = await two.loaded
  expect(twoResult.store instanceof PipedStore).toBe(piped)
  expect(outcome(twoResult)).toEqual(outcome(oneResult))
  const twoFigures = figures(await two.replayed, snapshots)
  expect(twoFigures.report).toBe(oneFigures.report)
  expect(twoFigures.series).toEqual(oneFigures.series)
  expect(twoFigures.checks).toBe(oneFigures.checks)
  expect(twoFigures.snapshots).toEqual(oneFigures.snapshots)
  return { result: twoResult, report: JSON.parse(twoFigures.report) as { frames: number; partial: boolean; warnings: Record<string, number> } }
}

describe('a capture replayed as it is read, in a worker thread', () => {
  for (const file of ['deferred-60', 'raytracing-60', 'streaming-150', 'vulkan-120', 'vulkan-hazards-120', 'demo']) {
    it(`gives the one-thread figures on ${file}.hscap.gz`, async () => {
      await bothWays(join(GOLDEN, `${file}.hscap.gz`))
    }, 60_000)
  }

  it('gives the one-thread figures on the demo with checkpoints kept, and with a config', async () => {
    await bothWays(DEMO, { ...EAGER, checkpoints: true })
    await bothWays(DEMO, EAGER, { pairs: ['transient.gcLatency=1'] })
  }, 60_000)

  const stress = (async () => write('stress.hscap', await generated('stress', 120, 3)))()

  it('gives the one-thread figures on a generated stress capture, in increments of its own size too', async () => {
    const path = await stress
    const { result } = await bothWays(path)
    expect(result.store.records.length).toBeGreaterThan(10_000)
    await bothWays(path, { oneThread: false }, { snapshots: false })
  }, 60_000)

  it('gives the one-thread report when it keeps only the series the report reads', async () => {
    for (const path of [await stress, join(GOLDEN, 'vulkan-120.hscap.gz')]) {
      const one = loadAndReplay(path, [], { oneThread: true })
      const two = loadAndReplay(path, [], { ...EAGER, series: 'report' })
      expect((await two.loaded).store instanceof PipedStore).toBe(true)
      const [all, some] = [await one.replayed, await two.replayed]
      expect(JSON.stringify(some.report)).toBe(JSON.stringify(all.report))
      expect(some.replay.series.list().length).toBeLessThan(all.replay.series.list().length / 2)
    }
  }, 60_000)

  it('keeps bad lines as the one-thread load does: the same warnings, the same figures', async () => {
    const lines = (await generated('deferred', 20, 2)).trimEnd().split('\n')
    for (const [at, line] of [
      [900, '{"e":"release","id":987654321}'],
      [700, '{"e":"bogus"}'],
      [500, '{"e":"texture","id":77777777,"dim":"9d","width":4}'],
      [300, '{"e":"submit","note":"kept"}'],
    ] as const) {
      lines.splice(at, 0, line)
    }
    const { report } = await bothWays(write('warnings.hscap', `${lines.join('\n')}\n`))
    expect(Object.values(report.warnings).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3)
  }, 60_000)

  it('stops where the one-thread load stops at a fatal fault, keeping what came before it', async () => {
    const lines = (await generated('streaming', 40, 6)).trimEnd().split('\n')
    const at = Math.floor(lines.length * 0.6)
    lines.splice(at, 0, '{"e":"buffer","id":12,"size":')
    const { result, report } = await bothWays(write('fatal.hscap', `${lines.join('\n')}\n`))
    expect(result.error).toBeInstanceOf(CaptureError)
    expect(result.error!.line).toBe(at + 1)
    expect(report.partial).toBe(true)
    expect(report.frames).toBeGreaterThan(2)
  }, 60_000)

  it('stops where the one-thread load stops in a gzip stream cut short', async () => {
    const whole = gzipSync(readFileSync(await stress))
    const { result } = await bothWays(write('cut.hscap.gz', whole.subarray(0, Math.floor(whole.length * 0.7))))
    expect(result.error).toBeInstanceOf(TruncatedGzipError)
    expect(result.store.partial).toBe(true)
  }, 60_000)

  it('starts its replay again when the first gpu or use record comes after it began', async () => {
    const lines = gunzipSync(readFileSync(join(GOLDEN, 'deferred-60.hscap.gz'))).toString('utf8').trimEnd().split('\n')
    expect(lines.some((l) => l.includes('"e":"gpu"') || l.includes('"e":"use"'))).toBe(false)
    lines.splice(Math.floor(lines.length * 0.8), 0, '{"e":"use","ids":[1,2,3]}')
    lines.splice(Math.floor(lines.length * 0.5), 0, '{"e":"gpu","n":2}')
    const { result } = await bothWays(write('late.hscap', `${lines.join('\n')}\n`))
    expect(result.store.hasGpuRecords && result.store.hasUseRecords).toBe(true)
  }, 60_000)

  it('fails as the one-thread load fails where nothing can be read', async () => {
    for (const [name, bytes] of [
      ['empty.hscap', ''],
      ['header-only-broken.hscap', '{"format":"heapscope-capture","version":1}\n{"e":\n{"e":"frame","n":1}\n'],
      ['header-only.hscap', '{"format":"heapscope-capture","version":1}\n'],
      ['missing.hscap', undefined],
    ] as const) {
      const path = bytes === undefined ? join(dir, name) : write(name, bytes)
      const one = loadAndReplay(path, [], { oneThread: true })
      const two = loadAndReplay(path, [], EAGER)
      const replayOutcome = (r: Promise<ReplayedCapture>) => r.then((x) => JSON.stringify(x.report), (err: Error) => `${err.name}: ${err.message}`)
      const a = await one.loaded.then(outcome, (err: Error) => ({ thrown: err.constructor.name, message: err.message }))
      const b = await two.loaded.then(outcome, (err: Error) => ({ thrown: err.constructor.name, message: err.message }))
      expect(b, name).toEqual(a)
      expect(await replayOutcome(two.replayed), name).toBe(await replayOutcome(one.replayed))
    }
  }, 60_000)

  it('says a bad config once the capture is read, as the one-thread path does', async () => {
    const two = loadAndReplay(join(GOLDEN, 'deferred-60.hscap.gz'), ['nonsense.key=1'], EAGER)
    expect((await two.loaded).store).toBeInstanceOf(PipedStore)
    await expect(two.replayed).rejects.toThrow(/nonsense\.key/)
  }, 60_000)

  it('loads a file an importer reads, or with no worker, on one thread', async () => {
    await bothWays(VMA, EAGER, { piped: false, snapshots: false })
    await bothWays(join(GOLDEN, 'deferred-60.hscap.gz'), { oneThread: false, pipe: { worker: () => undefined } }, { piped: false })
    // a worker that fails as it starts
    const broken = { oneThread: false, pipe: { worker: () => new Worker('throw new Error("no ingest here")', { eval: true }) } }
    await bothWays(join(GOLDEN, 'vulkan-120.hscap.gz'), broken, { piped: false })
  }, 60_000)
})

describe('where a load runs in a worker', () => {
  it('pipelines a capture of 64 MiB or more on three cores or more, of 128 MiB or more on two, the rest on one thread', () => {
    const big = PIPELINE_MIN_BYTES
    expect(PIPELINE_MIN_BYTES).toBe(64 * 1024 * 1024)
    expect(pipelineWorthIt(big, 1)).toBe(false)
    expect(pipelineWorthIt(big, 2)).toBe(false)
    expect(PIPELINE_MIN_BYTES_TWO_CORES).toBe(128 * 1024 * 1024)
    expect(pipelineWorthIt(PIPELINE_MIN_BYTES_TWO_CORES - 1, 2)).toBe(false)
    expect(pipelineWorthIt(PIPELINE_MIN_BYTES_TWO_CORES, 2)).toBe(true)
    expect(pipelineWorthIt(PIPELINE_MIN_BYTES_TWO_CORES, 1)).toBe(false)
    expect(pipelineWorthIt(big, 3)).toBe(true)
    expect(pipelineWorthIt(big, 16)).toBe(true)
    expect(pipelineWorthIt(big - 1, 16)).toBe(false)
    expect(pipelineWorthIt(-1, 16)).toBe(false)
  })

  it('loads a small capture on one thread when the caller does not say, on any machine', async () => {
    const loading = loadAndReplay(join(GOLDEN, 'deferred-60.hscap.gz'), [])
    const result = await loading.loaded
    await loading.replayed
    expect(result.store instanceof PipedStore).toBe(false)
  })
})
