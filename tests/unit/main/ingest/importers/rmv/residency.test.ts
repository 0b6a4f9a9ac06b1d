/**
 * The sample trace's residency as the app gets it: `resident` and `evict` records in the record stream, and the
 * replay's residency figures and events from them, under the buckets the user chooses.
 *
 * Expected numbers come from a separate walk of the sample (a throwaway Python script that reads the RDF index and
 * both RmtData streams bit by bit, tracks VIRTUAL_ALLOCATE / VIRTUAL_FREE by address and finds the allocation each
 * RESOURCE_REFERENCE names), not from this reader:
 *   944 RESOURCE_REFERENCE tokens, every one at the base address of a live allocation: 476 adds, 468 removes.
 *   Bytes of the allocations they name: adds 4 030 799 872, removes 4 029 153 280.
 *   After the last token 8 allocations are still made resident (added, not removed, not freed): 1 646 592 bytes.
 *   The trace lasts 33 658.8576 ms (336 588 576 ticks at 10 MHz) and has no present marker.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RESIDENCY_EVENT, RESIDENCY_SERIES, Replay } from '../../../../../../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../../../../../../src/main/analysis/d3d12/report'
import { importRmv, parseRmv, rmvToObserved } from '../../../../../../src/main/ingest/importers/rmv'
import { loadCaptureFile } from '../../../../../../src/main/ingest/read'
import { resolveConfig } from '../../../../../../src/shared/model'

const PATH = new URL('../../../../../fixtures/real/rmv-sample-trace-rx6600.rmv', import.meta.url).pathname
const bytes = new Uint8Array(readFileSync(PATH))
const trace = parseRmv(bytes)

const MADE = 476
const EVICTED = 468
const MADE_BYTES = 4_030_799_872
const EVICTED_BYTES = 4_029_153_280
const RESIDENT_AT_END = 1_646_592

/**
 * Frames by bucket: floor(33658.8576 / bucket) + 1. The walk puts the first evict at 10065.536 ms and the last at
 * 33265.1776 ms; their frames are floor(time / bucket).
 */
const BUCKETS = [
  // floor(2027.64) + 1 frames; 10065.536 / 16.6 = 606.4, 33265.1776 / 16.6 = 2003.9
  { bucketMs: 16.6, frames: 2028, firstEvict: 606, lastEvict: 2003 },
  // floor(336.59) + 1; 100.7, 332.7
  { bucketMs: 100, frames: 337, firstEvict: 100, lastEvict: 332 },
  // floor(33.66) + 1; 10.1, 33.3
  { bucketMs: 1000, frames: 34, firstEvict: 10, lastEvict: 33 },
]

describe('residency of the RX 6600 sample', () => {
  it('writes one resident or evict record per residency request, each naming a live heap', () => {
    const observed = rmvToObserved(trace)
    expect(observed.header.minor).toBe(5)
    const sizes = new Map<number, number>()
    const live = new Set<number>()
    let made = 0
    let evicted = 0
    let madeBytes = 0
    let evictedBytes = 0
    let frame = 0
    let k = 0
    for (const r of observed.records) {
      if (r.e === 'frame') frame = r.n
      else if (r.e === 'heap') {
        sizes.set(r.id, r.size)
        live.add(r.id)
      } else if (r.e === 'free') live.delete(r.id)
      else if (r.e === 'resident' || r.e === 'evict') {
        expect(live.has(r.heap)).toBe(true)
        // whole allocations: RMV's reference tokens carry no size
        expect(r.bytes).toBeUndefined()
        const size = sizes.get(r.heap)!
        if (r.e === 'resident') {
          made++
          madeBytes += size
        } else {
          evicted++
          evictedBytes += size
        }
        // the side table says the same, in the same order and frame
        expect(observed.residency[k++]).toEqual({ frame, kind: r.e === 'resident' ? 'makeResident' : 'evict', heapId: r.heap, bytes: size })
      }
    }
    expect([made, evicted, madeBytes, evictedBytes]).toEqual([MADE, EVICTED, MADE_BYTES, EVICTED_BYTES])
    expect(k).toBe(observed.residency.length)
  })

  it('notes the requests when imported', () => {
    const imported = importRmv({ name: 'sample.rmv', bytes })
    expect(imported?.notes).toContain(`residency: ${MADE} make-resident and ${EVICTED} evict requests`)
  })

  for (const b of BUCKETS) {
    it(`replays the driver's residency in ${b.bucketMs} ms frames`, async () => {
      const result = await loadCaptureFile(PATH, { import: { rmv: { bucketMs: b.bucketMs } } })
      expect(result.format).toBe('rmv')
      expect(result.store.frames.length).toBe(b.frames)
      const replay = await Replay.run(result.store, { config: resolveConfig(undefined, {}) })
      const report = buildRunReport(result, replay)
      expect(report.frames).toBe(b.frames)
      expect(report.residency).toMatchObject({ evictions: EVICTED, evictedBytes: EVICTED_BYTES, makeResident: MADE, overBudgetFrames: 0 })

      const events = replay.residencyEvents
      expect(events.length).toBe(MADE + EVICTED)
      let firstEvict = -1
      let lastEvict = -1
      for (let i = 0; i < events.length; i++) {
        if (i > 0) expect(events.frame.data[i]).toBeGreaterThanOrEqual(events.frame.data[i - 1])
        if (events.kind.data[i] === RESIDENCY_EVENT.evict) {
          if (firstEvict < 0) firstEvict = events.frame.data[i]
          lastEvict = events.frame.data[i]
        }
      }
      expect([firstEvict, lastEvict]).toEqual([b.firstEvict, b.lastEvict])

      // the per-frame series sum to the same counts, and resident bytes end where the walk ends
      const sum = (name: string) => replay.series.get(name)!.reduce((a, v) => a + v, 0)
      expect(sum(RESIDENCY_SERIES.evictions)).toBe(EVICTED)
      expect(sum(RESIDENCY_SERIES.makeResident)).toBe(MADE)
      expect(sum(RESIDENCY_SERIES.evictedBytes)).toBe(EVICTED_BYTES)
      expect(sum(RESIDENCY_SERIES.madeResidentBytes)).toBe(MADE_BYTES)
      const resident = replay.series.get(RESIDENCY_SERIES.resident)!
      expect(resident[b.frames - 1]).toBe(RESIDENT_AT_END)
      // every allocation is made resident before the first eviction: the peak is all the make-resident bytes
      expect(Math.max(...resident)).toBe(MADE_BYTES)
    })
  }

  it('peaks in the frame of the last make-resident', async () => {
    const result = await loadCaptureFile(PATH)
    const replay = await Replay.run(result.store, { config: resolveConfig(undefined, {}) })
    const resident = replay.series.get(RESIDENCY_SERIES.resident)!
    // by the walk: the last add is at 6075.1744 ms; 6075.1744 / 16.6 = 365.97 → frame 365
    expect(resident.indexOf(MADE_BYTES)).toBe(365)
    expect(resident[364]).toBeLessThan(MADE_BYTES)
  })
})
