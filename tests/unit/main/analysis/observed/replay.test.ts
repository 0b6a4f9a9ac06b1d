/**
 * The observed backend on a hand-made trace (format 1.5), worked out by hand. Frame 0: heap 1 (1 MiB, local) and
 * heap 2 (4 MiB, invisible) made, buffer 10 (1 MiB) placed in heap 2 at 0, heap 2 made resident. Frame 1: heap 3
 * (2 MiB, system) made, buffer 11 (512 KiB) placed in heap 2 at 1 MiB, buffer 10 released, heap 2 evicted. Frame 2:
 * heap 2 freed (taking buffer 11 along), heap 1 freed. Frame 3: heap 3 freed.
 *
 * Heaps per frame: local 1, 1, 0, 0 MiB; invisible 4, 4, 0, 0; system 0, 2, 2, 0; in all 5, 7, 2, 0: the peak is
 * 7 MiB at frame 1 and nothing is left at the end. Placed: 1 MiB, 512 KiB, 0, 0, all in invisible memory.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { capabilitiesOf } from '../../../../../src/main/analysis/backend'
import { backendFor } from '../../../../../src/main/analysis/backends'
import { RESIDENCY_SERIES } from '../../../../../src/shared/series'
import { observedBackend } from '../../../../../src/main/analysis/observed/backend'
import { OBSERVED_SERIES, ObservedReplay, observedSeriesName, PlacedChanges } from '../../../../../src/main/analysis/observed/replay'
import { buildObservedReport } from '../../../../../src/main/analysis/observed/report'
import { ObservedSnapshots } from '../../../../../src/main/analysis/observed/snapshot'
import { recordAt } from '../../../../../src/main/ingest/records'
import { exportOf } from '../../../../../src/main/ingest/writer'
import { RECORD_KIND } from '../../../../../src/main/ingest/store'
import type { PlaybackFrame } from '../../../../../src/shared/ipc'
import { MiB, KiB } from '../../../../../src/shared/units'
import { loaded, storeOf } from '../vulkan/helpers'
import { onFakeClock } from '../../fakeClock'
import { runs } from '../../../../properties'

const HEADER = { format: 'heapscope-capture', version: 1, minor: 5, api: 'd3d12', observed: 'rmv' }
const buffer = (id: number, heap: number, offset: number, size: number) => ({ e: 'placed', id, heap, offset, kind: 'buffer', size, name: `buffer ${id}` })
const RECORDS = [
  { e: 'frame', n: 0 },
  { e: 'heap', id: 1, size: MiB, type: 'upload', memory: 'local' },
  { e: 'heap', id: 2, size: 4 * MiB, memory: 'invisible', name: 'Render targets' },
  buffer(10, 2, 0, MiB),
  { e: 'resident', heap: 2 },
  { e: 'frame', n: 1 },
  { e: 'heap', id: 3, size: 2 * MiB, type: 'readback', memory: 'system' },
  buffer(11, 2, MiB, 512 * KiB),
  { e: 'release', id: 10 },
  { e: 'evict', heap: 2 },
  { e: 'frame', n: 2 },
  { e: 'free', id: 2 },
  { e: 'free', id: 1 },
  { e: 'frame', n: 3 },
  { e: 'free', id: 3 },
]

const column = (replay: ObservedReplay, name: string) => Array.from(replay.series.get(name) ?? [])

describe('the observed replay of a hand-made trace', () => {
  it('keeps a heap’s memory (1.5) in the store and gives it back; a bad one is ignored with a warning', () => {
    const store = storeOf(HEADER, [
      ...RECORDS.slice(0, 3),
      { e: 'heap', id: 4, size: MiB, memory: 7 },
      { e: 'heap', id: 5, size: MiB, memory: 'x'.repeat(65) },
      { e: 'heap', id: 6, size: MiB, memory: '' },
    ])
    const heaps = []
    for (let i = 0; i < store.records.length; i++) if (store.records.kind[i] === RECORD_KIND.heap) heaps.push(recordAt(store, i))
    expect(heaps).toEqual([
      { e: 'heap', id: 1, size: MiB, type: 'upload', memory: 'local' },
      { e: 'heap', id: 2, size: 4 * MiB, type: 'default', name: 'Render targets', memory: 'invisible' },
      { e: 'heap', id: 4, size: MiB, type: 'default' },
      { e: 'heap', id: 5, size: MiB, type: 'default' },
      { e: 'heap', id: 6, size: MiB, type: 'default' },
    ])
    expect(store.warnings.counts.badField).toBe(3)
    expect(store.warnings.samples.map((s) => s.message)).toEqual([
      'heap 4: memory is not a string; ignored',
      'heap 5: memory is 65 characters long, expected 1 to 64; ignored',
      'heap 6: memory is 0 characters long, expected 1 to 64; ignored',
    ])
  })

  it('exports as it was read: the header marks the trace observed and each heap keeps its memory, so it reopens as observed', async () => {
    const store = storeOf(HEADER, RECORDS)
    const exported = exportOf(store, 1, 3)
    const again = storeOf(exported.header, [...exported.records])
    expect(again.header.observed).toBe('rmv')
    expect(backendFor(again.header)).toBe(observedBackend)
    // from frame 1: the heaps live at its start come first, with their memory
    const replay = await ObservedReplay.run(again)
    expect(replay.memories).toEqual(['local', 'invisible', 'system'])
    expect(column(replay, OBSERVED_SERIES.heapBytes)).toEqual([7 * MiB, 2 * MiB])
  })

  it('draws the trace’s heaps per memory kind and in all, what is placed in them, and its residency', async () => {
    const replay = await ObservedReplay.run(storeOf(HEADER, RECORDS))
    expect(replay.memories).toEqual(['local', 'invisible', 'system'])
    expect(column(replay, observedSeriesName.memory('local', 'heapBytes'))).toEqual([MiB, MiB, 0, 0])
    expect(column(replay, observedSeriesName.memory('invisible', 'heapBytes'))).toEqual([4 * MiB, 4 * MiB, 0, 0])
    expect(column(replay, observedSeriesName.memory('system', 'heapBytes'))).toEqual([0, 2 * MiB, 2 * MiB, 0])
    expect(column(replay, OBSERVED_SERIES.heapBytes)).toEqual([5 * MiB, 7 * MiB, 2 * MiB, 0])
    expect(column(replay, observedSeriesName.memory('invisible', 'placedBytes'))).toEqual([MiB, 512 * KiB, 0, 0])
    expect(column(replay, observedSeriesName.memory('local', 'placedBytes'))).toEqual([0, 0, 0, 0])
    expect(column(replay, OBSERVED_SERIES.placedBytes)).toEqual([MiB, 512 * KiB, 0, 0])
    expect(column(replay, 'resources.live')).toEqual([1, 1, 0, 0])
    expect(column(replay, RESIDENCY_SERIES.resident)).toEqual([4 * MiB, 0, 0, 0])
    expect(column(replay, RESIDENCY_SERIES.evictedBytes)).toEqual([0, 4 * MiB, 0, 0])
    // no model: no placement, no tag or transient series
    expect(replay.series.list().some((s) => /^(placement|tag|transient|heap)\./.test(s.name))).toBe(false)
  })

  it('reports the trace’s own figures: the peak of its live heaps and nothing at the end', async () => {
    const store = storeOf(HEADER, RECORDS)
    const report = buildObservedReport(loaded(store), await ObservedReplay.run(store))
    expect(report.peak).toEqual({ frame: 1, bytes: 7 * MiB })
    expect(report.heaps).toEqual({
      local: { peakBytes: MiB, endBytes: 0 },
      invisible: { peakBytes: 4 * MiB, endBytes: 0 },
      system: { peakBytes: 2 * MiB, endBytes: 0 },
    })
    // no model ran: what only a model gives is absent, not zero
    expect(report.byPlacement).toBeUndefined()
    expect(report.transient).toBeUndefined()
    expect(Object.keys(report.waste)).toEqual(['poolFreeBytes'])
    expect(report.resources).toMatchObject({ created: 2, liveAtEnd: 1 })
    expect(report.residency).toMatchObject({ evictions: 1, evictedBytes: 4 * MiB, makeResident: 1 })
  })

  it('snapshots each live heap as a pool of what is placed in it, from any checkpoint', async () => {
    for (const checkpointRecords of [1, 3, 1000]) {
      const replay = await ObservedReplay.run(storeOf(HEADER, RECORDS), { checkpointRecords })
      const snapshots = new ObservedSnapshots(replay)
      const at1 = snapshots.snapshot('r', 1)
      expect(at1.pools.map((p) => [p.name, p.heap, p.bytes, p.used, p.free])).toEqual([
        ['local/1', 'local', MiB, 0, MiB],
        ['Render targets', 'invisible', 4 * MiB, 512 * KiB, 3.5 * MiB],
        ['system/3', 'system', 2 * MiB, 0, 2 * MiB],
      ])
      const targets = at1.pools[1]
      expect(Array.from(targets.offset)).toEqual([0, MiB, 1.5 * MiB])
      expect(Array.from(targets.state)).toEqual([0, 1, 0])
      expect(Array.from(targets.id)).toEqual([NaN, 11, NaN])
      expect(at1.residency).toEqual({ residentBytes: 0, budgetBytes: 0, objects: 3, residentObjects: 0 })
      expect(snapshots.snapshot('r', 0).residency).toMatchObject({ residentBytes: 4 * MiB, objects: 2, residentObjects: 1 })
      expect(snapshots.snapshot('r', 3).pools).toEqual([])
      const page = snapshots.resources({ runId: 'r', frame: 1, offset: 0, limit: 10 })
      expect(page.rows.map((r) => [r.id, r.name, r.placement, r.heap, r.pool, r.offset, r.occupied, r.waste])).toEqual([
        [11, 'buffer 11', 'Observed', 'invisible', 'Render targets', MiB, 512 * KiB, 0],
      ])
      const details = snapshots.details('r', 1, 11)
      expect(details?.route).toEqual([`placed by the trace in heap Render targets (invisible, ${4 * MiB} bytes) at offset ${MiB}: observed, no model chose it`])
      expect(details?.releasedFrame).toBe(2)
    }
  })

  it('plays the trace back: what each step placed and released, heap bytes per memory, resident bytes', async () => {
    const store = storeOf(HEADER, RECORDS)
    const { run, done } = observedBackend.replay(store)
    await done
    const frames: PlaybackFrame[] = []
    // one period a step: a frame each tick
    let ended = false
    await onFakeClock(() => {
      const playback = run.playback({ runId: 'r', playbackId: 'p', from: 0, to: 4, fps: 10 }, (f) => {
        frames.push(f)
        playback.ack(f.frame)
      }, () => (ended = true))
      playback.start()
      for (let step = 0; step < 10 && !ended; step++) vi.advanceTimersByTime(100)
    })
    expect(ended).toBe(true)
    expect(frames.map((f) => [f.frame, f.skipped])).toEqual([[1, 0], [2, 0], [3, 0]])
    // frame 1: buffer 11 placed, buffer 10 (placed at frame 0, where the playback starts) released
    expect(frames[0].created.map((r) => [r.id, r.heap, r.pool, r.offset, r.occupied])).toEqual([[11, 'invisible', 'Render targets', MiB, 512 * KiB]])
    expect(frames[0].released).toEqual([10])
    expect(frames[0].heapBytes).toEqual({ local: MiB, invisible: 4 * MiB, system: 2 * MiB })
    expect(frames[0].residentBytes).toBe(0)
    // frame 2: heap 2 freed with buffer 11 in it, heap 1 freed
    expect(frames[1].released).toEqual([11])
    expect(frames[1].heapBytes).toEqual({ local: 0, invisible: 0, system: 2 * MiB })
    expect(frames[2].heapBytes).toEqual({ local: 0, invisible: 0, system: 0 })
    expect(frames[2].liveCount).toBe(0)
  })

  it('is the first backend for an observed trace, with residency, no config and so no what-if', async () => {
    const store = storeOf(HEADER, RECORDS)
    expect(backendFor(store.header)).toBe(observedBackend)
    const { run, done } = observedBackend.replay(store)
    await done
    expect(capabilitiesOf(observedBackend, run)).toEqual({ residency: true })
    expect(run.config).toBeUndefined()
    expect(run.report(loaded(store)).peak).toEqual({ frame: 1, bytes: 7 * MiB })
    const rows = run.resourceRows!()
    expect(rows.id).toEqual([10, 11])
    expect(rows.heap).toEqual(['invisible', 'invisible'])
    expect(rows.pool).toEqual(['Render targets', 'Render targets'])
    // buffer 10 released in frame 1; buffer 11 goes with its heap in frame 2
    expect(rows.releasedFrame).toEqual([1, 2])
    // the same records without `observed` are requests for the D3D12 model
    expect(backendFor(storeOf({ ...HEADER, observed: undefined }, RECORDS).header).id).toBe('d3d12')
  })
})

describe('a playback step’s created and released resources, from what the frame touched', () => {
  it('are those a comparison of every live resource before and after each frame gives (random traces)', async () => {
    const op = fc.oneof(
      fc.record({ e: fc.constant('placed' as const), id: fc.integer({ min: 10, max: 20 }), heap: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ e: fc.constant('release' as const), id: fc.integer({ min: 10, max: 20 }) }),
      fc.record({ e: fc.constant('free' as const), id: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ e: fc.constant('heap' as const), id: fc.integer({ min: 1, max: 3 }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 8 }), { minLength: 1, maxLength: 12 }), async (frames) => {
        const records: object[] = []
        frames.forEach((ops, n) => {
          records.push({ e: 'frame', n })
          if (n === 0) for (const id of [1, 2, 3]) records.push({ e: 'heap', id, size: MiB, memory: 'local' })
          for (const o of ops) {
            if (o.e === 'placed') records.push(buffer(o.id, o.heap, 0, KiB))
            else if (o.e === 'heap') records.push({ e: 'heap', id: o.id, size: MiB, memory: 'local' })
            else records.push({ e: o.e, id: o.id })
          }
        })
        const replay = await ObservedReplay.run(storeOf(HEADER, records))
        const state = replay.stateAt(0)
        const changes = new PlacedChanges()
        for (let f = 1; f < frames.length; f++) {
          const before = new Set(state.placed.keys())
          replay.advance(state, f, changes)
          const created: number[] = []
          const released: number[] = []
          changes.take(state, (id) => created.push(id), (id) => released.push(id))
          const after = new Set(state.placed.keys())
          expect(created.sort()).toEqual([...after].filter((id) => !before.has(id)).sort())
          expect(released.sort()).toEqual([...before].filter((id) => !after.has(id)).sort())
        }
      }),
      { numRuns: runs(100) },
    )
  })
})
