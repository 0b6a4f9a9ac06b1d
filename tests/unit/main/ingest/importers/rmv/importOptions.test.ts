/**
 * How a trace's time becomes frames, through every layer of the load path: the payload schemas, the handlers, the
 * engine (a file and a stream), the importers' dispatcher, and the command line's `--bucket-ms`.
 *
 * Frame counts of the RX 6600 sample: it lasts 33658.8576 ms and has no present marker, so a bucket of B ms makes
 * floor(33658.8576 / B) + 1 frames: 2028 for 16.6 ms (the default), 337 for 100 ms, 34 for 1000 ms.
 * The GPGMM sample's events run from ts 46 to 89601 µs: 16.666 ms frames make floor(89555 / 16666) + 1 = 6, 10 ms
 * frames floor(89555 / 10000) + 1 = 9.
 */
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../../../../src/main/cli'
import { LocalEngine, type LoadSource } from '../../../../../../src/main/engine/engine'
import { createHandlers } from '../../../../../../src/main/host/handlers'
import { parsePayload, PayloadError } from '../../../../../../src/main/host/schemas'
import { importCapture, ImportError, importOptionsOf } from '../../../../../../src/main/ingest/importers'
import { importRmv } from '../../../../../../src/main/ingest/importers/rmv'
import type { LoadOutcome } from '../../../../../../src/shared/ipc'
import { testContext } from '../../../host/stubs'

const RMV = new URL('../../../../../fixtures/real/rmv-sample-trace-rx6600.rmv', import.meta.url).pathname
const GPGMM = new URL('../../../../../fixtures/real/gpgmm-dawn-queuewritebuffer.json', import.meta.url).pathname
const rmvBytes = new Uint8Array(readFileSync(RMV))
const loadId = 'load-1'

const framesOf = (outcome: LoadOutcome): number => {
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.summary.frames
}

describe('payload schemas', () => {
  it('take import options on open and upload', () => {
    expect(parsePayload('openCapture', { fileId: 'f-1', loadId, import: { bucketMs: 100, frameMarkers: false } })).toEqual({
      fileId: 'f-1',
      loadId,
      import: { bucketMs: 100, frameMarkers: false },
    })
    expect(parsePayload('beginUpload', { loadId, name: 'a.rmv', bytes: 10, import: { bucketMs: 0.1 } }).import).toEqual({ bucketMs: 0.1 })
    expect(parsePayload('openCapture', { fileId: 'f-1', loadId, import: {} }).import).toEqual({})
    expect(parsePayload('openCapture', { fileId: 'f-1', loadId }).import).toBeUndefined()
    expect(parsePayload('openCapture', { fileId: 'f-1', loadId, import: { model: 'd3d12' } }).import).toEqual({ model: 'd3d12' })
  })

  const bad: [string, unknown][] = [
    ['a zero bucket', { bucketMs: 0 }],
    ['a negative bucket', { bucketMs: -16.6 }],
    ['a bucket under a tenth of a millisecond', { bucketMs: 0.05 }],
    ['a bucket over an hour', { bucketMs: 3_600_001 }],
    ['an infinite bucket', { bucketMs: Infinity }],
    ['NaN', { bucketMs: NaN }],
    ['a string bucket', { bucketMs: '100' }],
    ['a string for frameMarkers', { frameMarkers: 'no' }],
    ['a model there is none of', { model: 'metal' }],
    ['a model that is not a string', { model: 1 }],
    ['an unknown key', { bucketMs: 100, path: '/etc/passwd' }],
    ['an array', [100]],
    ['a number', 100],
  ]
  for (const [why, options] of bad) {
    it(`refuse ${why}`, () => {
      expect(() => parsePayload('openCapture', { fileId: 'f-1', loadId, import: options })).toThrow(PayloadError)
      expect(() => parsePayload('beginUpload', { loadId, name: 'a.rmv', bytes: 10, import: options })).toThrow(PayloadError)
    })
  }
})

describe('handlers', () => {
  it('pass the import options to the engine with the file or the stream, and nothing when there are none', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    await handlers.openCapture({ fileId: t.offeredId, loadId: 'a', import: { bucketMs: 100 } })
    await handlers.openCapture({ fileId: t.offeredId, loadId: 'b' })
    await handlers.beginUpload({ loadId: 'c', name: 'x.rmv', bytes: 5, import: { frameMarkers: false } })
    await handlers.beginUpload({ loadId: 'd', name: 'y.rmv', bytes: 5 })
    const sources = t.calls.filter((c) => c.method === 'load').map((c) => c.args[1])
    expect(sources[0]).toStrictEqual({ kind: 'file', path: t.offeredPath, import: { bucketMs: 100 } })
    expect(sources[1]).toStrictEqual({ kind: 'file', path: t.offeredPath })
    expect(sources[2]).toStrictEqual({ kind: 'stream', name: 'x.rmv', bytes: 5, import: { frameMarkers: false } })
    expect(sources[3]).toStrictEqual({ kind: 'stream', name: 'y.rmv', bytes: 5 })
  })

  it('refuse bad options before the engine hears of them', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    await expect(handlers.openCapture({ fileId: t.offeredId, loadId, import: { bucketMs: 0 } })).rejects.toThrow(PayloadError)
    await expect(handlers.beginUpload({ loadId, name: 'x.rmv', bytes: 5, import: { bucketMs: -1 } })).rejects.toThrow(PayloadError)
    expect(t.calls).toEqual([])
  })
})

describe('the importers’ options', () => {
  it('map the user’s frame options onto each time-based importer', () => {
    expect(importOptionsOf(undefined)).toEqual({})
    expect(importOptionsOf({ bucketMs: 10 })).toEqual({ rmv: { bucketMs: 10 }, gpgmm: { frameMicros: 10_000 } })
    expect(importOptionsOf({ frameMarkers: false })).toEqual({ rmv: { frameMarkers: false }, gpgmm: { frames: 'time' } })
    // markers wanted is what both do anyway
    expect(importOptionsOf({ frameMarkers: true })).toEqual({ rmv: { frameMarkers: true }, gpgmm: {} })
    // d3d12 is the GPGMM importer's (RMV traces hold no requests), vulkan the VMA dump importer's; each other
    // importer is told the model, to refuse one its traces do not fit
    expect(importOptionsOf({ model: 'd3d12' })).toEqual({ rmv: {}, gpgmm: { requests: true }, model: 'd3d12' })
    expect(importOptionsOf({ model: 'vulkan' })).toEqual({ rmv: {}, gpgmm: {}, vma: { model: true }, model: 'vulkan' })
  })

  it('reach the RMV importer through the dispatcher', () => {
    const frames = (bucketMs?: number) =>
      importCapture({ name: 'sample.rmv', bytes: rmvBytes }, importOptionsOf(bucketMs ? { bucketMs } : undefined))!.records.filter(
        (r) => r.e === 'frame',
      ).length
    expect([frames(), frames(100), frames(1000)]).toEqual([2028, 337, 34])
  })

  it('refuse buckets too short for the trace, saying so, not blaming the trace', () => {
    // 0.01 ms buckets: floor(33658.8576 / 0.01) + 1 = 3365886 frames, more than 2^21 = 2097152
    const cut = () => importRmv({ name: 'sample.rmv', bytes: rmvBytes }, { bucketMs: 0.01 })
    expect(cut).toThrow(ImportError)
    expect(cut).toThrow(/^sample\.rmv: 0\.01 ms buckets would cut this 33658\.9 ms trace into 3365886 frames, more than 2097152: choose longer buckets$/)
  })
})

describe('the engine', () => {
  it('cuts a file into the buckets the source asks for', async () => {
    const engine = new LocalEngine()
    const load = (id: string, source: LoadSource) => engine.load(id, source).then(framesOf)
    expect(await load('a', { kind: 'file', path: RMV })).toBe(2028)
    expect(await load('b', { kind: 'file', path: RMV, import: { bucketMs: 100 } })).toBe(337)
    expect(await load('c', { kind: 'file', path: GPGMM })).toBe(6)
    expect(await load('d', { kind: 'file', path: GPGMM, import: { bucketMs: 10 } })).toBe(9)
    const outcome = await engine.load('e', { kind: 'file', path: RMV, import: { bucketMs: 1000, frameMarkers: false } })
    expect(framesOf(outcome)).toBe(34)
    expect(outcome.ok && outcome.summary.notes).toContain('frames are 1000 ms time buckets')
  })

  it('cuts a stream into them too', async () => {
    const engine = new LocalEngine()
    const outcome = engine.load('s', { kind: 'stream', name: 'sample.rmv', bytes: rmvBytes.length, import: { bucketMs: 1000 } })
    // in pieces of 64 KiB, as an upload sends them
    for (let at = 0; at < rmvBytes.length; at += 65536) await engine.feed('s', rmvBytes.slice(at, at + 65536))
    await engine.feed('s', null)
    const done = await outcome
    expect(framesOf(done)).toBe(34)
    expect(done.ok && done.summary.adapter).toBe('AMD Radeon RX 6600')
  })
})

describe('heapscope --bucket-ms', () => {
  let out = ''
  let err = ''
  beforeEach(() => {
    out = ''
    err = ''
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true))
  })
  afterEach(() => vi.restoreAllMocks())

  it('report: frames of the bucket asked for, residency unchanged', async () => {
    expect(await main(['report', RMV, '--json', '--bucket-ms', '100'])).toBe(0)
    const report = JSON.parse(out)
    expect(report.frames).toBe(337)
    expect(report.residency).toMatchObject({ evictions: 468, makeResident: 476 })
    out = ''
    expect(await main(['report', RMV, '--json'])).toBe(0)
    expect(JSON.parse(out).frames).toBe(2028)
  })

  it('diff: both runs cut alike', async () => {
    expect(await main(['diff', RMV, RMV, '--json', '--bucket-ms', '1000'])).toBe(0)
    const diff = JSON.parse(out)
    expect([diff.a.frames, diff.b.frames]).toEqual([34, 34])
    expect(diff.delta.frames).toBe(0)
  })

  it('check and route take it as well', async () => {
    expect(await main(['check', RMV, '--json', '--bucket-ms', '1000', '--no-frame-markers'])).toBe(0)
    expect(JSON.parse(out)).toEqual({ hazards: [], warnings: {}, warningList: [] })
    // route places requests; an RMV trace has none, only the driver's own placements: it says so, exit 2
    out = ''
    err = ''
    expect(await main(['route', RMV, '--bucket-ms', '1000'])).toBe(2)
    expect(out).toBe('')
    expect(err).toBe(
      'heapscope: rmv-sample-trace-rx6600.rmv: no requests to route: no buffer, texture or transient records (the rmv import records what the allocator did, not what was asked of it: try report)\n',
    )
  })

  it('refuses a bucket that is not a length in range, as bad usage', async () => {
    for (const value of ['0', '-5', 'abc', '0.05', '3600001']) {
      err = ''
      expect(await main(['report', RMV, '--bucket-ms', value])).toBe(1)
      expect(err).toContain(`--bucket-ms expects milliseconds from 0.1 to 3600000, got "${value}"`)
    }
  })
})
