import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { GiB, KiB, MiB, roundUp, roundUpPow2 } from '../../../../../src/shared/units'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import { TRANSIENT_HEAP_ALIGNMENT, TransientAllocator } from '../../../../../src/main/model/d3d12/transient'
import type { TransientOptions, TransientRequest } from '../../../../../src/main/model/d3d12/transient'
import type { ModelSink, TransientPlacementInfo } from '../../../../../src/main/model/events'
import { runs } from '../../../../properties'
import { transientLog, transientRequest } from './helpers'

interface Graph {
  passes: number
  requests: TransientRequest[]
}

const optionsArb: fc.Arbitrary<TransientOptions> = fc.record({
  minimumHeapSize: fc.constantFrom(4 * MiB, 16 * MiB, 128 * MiB),
  gcLatency: fc.integer({ min: 0, max: 4 }),
  resourceHeapTier: fc.constantFrom(1 as const, 2 as const),
})

function graphArb(maxRequests: number): fc.Arbitrary<Graph> {
  return fc.integer({ min: 1, max: 12 }).chain((passes) =>
    fc.record({
      passes: fc.constant(passes),
      requests: fc.array(
        fc.record({
          kind: fc.constantFrom('buffer' as const, 'texture' as const),
          // Sizes in 64 KiB units, with an odd texture size now and then so padding happens.
          units: fc.integer({ min: 1, max: 600 }),
          extra: fc.constantFrom(0, 0, 0, 4 * KiB),
          alignment: fc.constantFrom(64 * KiB, 64 * KiB, 128 * KiB, 4 * MiB),
          a: fc.integer({ min: 0, max: passes - 1 }),
          b: fc.integer({ min: 0, max: passes - 1 }),
          desc: fc.integer({ min: 0, max: 5 }),
          rtds: fc.boolean(),
        }),
        { maxLength: maxRequests },
      ),
    }).map(({ passes, requests }) => ({
      passes,
      requests: requests.map((r, i) => transientRequest(r, i + 1)),
    })),
  )
}

function build(options: TransientOptions, sink: ModelSink, budget = 1 * GiB) {
  const residency = new ResidencyManager({ enabled: true, startResident: false, budget }, sink)
  const ids = { next: 0 }
  const ta = new TransientAllocator(options, sink, residency, () => ids.next++)
  return { ta, residency, ids }
}

function run(ta: TransientAllocator, residency: ResidencyManager, g: Graph, frame: number): TransientPlacementInfo[] {
  ta.beginGraph(`G${frame}`, frame)
  for (const r of g.requests) ta.add(r)
  const placed = ta.endGraph(g.passes, frame)
  residency.endFrame(frame)
  return placed
}

/**
 * §6 placement written the slow, obvious way: a heap's free space is the gaps between the allocations live at
 * that moment (so free ranges are always maximal), recomputed for every request.
 */
class ReferenceTransient {
  cache: { id: number; size: number; mask: number; lastUsed: number }[] = []
  nextId = 0
  execution = 0
  constructor(private readonly options: TransientOptions) {}

  run(g: Graph): [number, number][] {
    const mask = (r: TransientRequest) => (r.kind === 'buffer' ? 1 : r.rtds ? 4 : 2)
    const acquired: typeof this.cache = []
    const live: { heap: number; start: number; end: number; last: number }[] = []
    const out: [number, number][] = new Array(g.requests.length)
    const order = g.requests.map((_, i) => i).sort((a, b) => g.requests[a].first - g.requests[b].first || a - b)
    for (const i of order) {
      const r = g.requests[i]
      for (let k = live.length - 1; k >= 0; k--) if (live[k].last < r.first) live.splice(k, 1)
      const fit = (heap: (typeof acquired)[number]): number => {
        const taken = live.filter((a) => a.heap === heap.id).sort((a, b) => a.start - b.start)
        let cursor = 0
        for (const gapEnd of [...taken.map((a) => a.start), heap.size]) {
          const aligned = roundUp(cursor, r.alignment)
          if (aligned + r.size <= gapEnd) {
            live.push({ heap: heap.id, start: cursor, end: aligned + r.size, last: r.last })
            return aligned
          }
          const next = taken.find((a) => a.start === gapEnd)
          if (next) cursor = next.end
        }
        return -1
      }
      let placed = false
      for (const heap of acquired) {
        if ((heap.mask & mask(r)) === 0) continue
        const offset = fit(heap)
        if (offset >= 0) {
          out[i] = [heap.id, offset]
          placed = true
          break
        }
      }
      if (placed) continue
      let heap = this.cache.find((h) => (h.mask & mask(r)) !== 0 && r.size <= h.size)
      if (heap) this.cache.splice(this.cache.indexOf(heap), 1)
      else {
        const size = roundUp(Math.max(roundUpPow2(r.size), this.options.minimumHeapSize), 4 * MiB)
        heap = { id: this.nextId++, size, mask: this.options.resourceHeapTier === 2 ? 7 : mask(r), lastUsed: 0 }
      }
      acquired.push(heap)
      out[i] = [heap.id, fit(heap)]
    }
    for (const heap of acquired) heap.lastUsed = this.execution
    this.cache = [...acquired, ...this.cache].filter((h) => h.lastUsed + this.options.gcLatency > this.execution)
    this.execution++
    return out
  }
}

describe('TransientAllocator properties over random graphs', () => {
  it('never lets live resources share bytes; aligned, inside their heap; overlaps exact; saving ≥ 0', () => {
    fc.assert(
      fc.property(optionsArb, fc.array(graphArb(24), { minLength: 1, maxLength: 6 }), (options, graphs) => {
        const { sink } = transientLog()
        const { ta, residency } = build(options, sink)
        const heapSize = new Map<number, number>()
        const heapKind = new Map<number, string>()
        sink.transientHeapCreated = (h, bytes) => {
          heapSize.set(h, bytes)
          expect(bytes % TRANSIENT_HEAP_ALIGNMENT).toBe(0)
          expect(bytes).toBeGreaterThanOrEqual(options.minimumHeapSize)
        }
        graphs.forEach((g, frame) => {
          const placed = run(ta, residency, g, frame)
          const layout = ta.lastLayout()!
          expect(placed).toHaveLength(g.requests.length)
          // From the layout: with gcLatency 0 the heaps are already gone from the cache.
          for (let h = 0; h < layout.heaps.length; h++) heapKind.set(layout.heaps.id[h], layout.heaps.kind[h])
          const n = placed.length
          const brute: number[] = []
          for (let i = 0; i < n; i++) {
            const p = placed[i]
            const r = g.requests[i]
            expect(p.id).toBe(r.id)
            expect(p.offset % r.alignment).toBe(0)
            expect(p.offset).toBeGreaterThanOrEqual(0)
            expect(p.offset + p.size).toBeLessThanOrEqual(heapSize.get(p.heap)!)
            // A heap of one kind (tier 1) only holds that kind.
            const kind = heapKind.get(p.heap)
            if (options.resourceHeapTier === 2) expect(kind).toBe('all')
            else expect(kind).toBe(r.kind === 'buffer' ? 'buffers' : r.rtds ? 'renderTargets' : 'textures')
            for (let j = i + 1; j < n; j++) {
              const q = placed[j]
              const shareBytes = p.heap === q.heap && p.offset < q.offset + q.size && q.offset < p.offset + p.size
              const sharePasses = p.first <= q.last && q.first <= p.last
              expect(shareBytes && sharePasses).toBe(false)
              if (shareBytes) brute.push(i, j)
            }
          }
          expect([...layout.overlaps]).toEqual(brute)
          expect(layout.saving).toBeGreaterThanOrEqual(0)
          // The summary counts the same pairs without listing them, and carries the layout's figures.
          const summary = ta.lastSummary()!
          expect(summary.overlapCount).toBe(brute.length / 2)
          expect(summary).toMatchObject({
            execution: layout.execution,
            passes: layout.passes,
            resources: layout.resources.length,
            heaps: layout.heaps.length,
            requestedBytes: layout.requestedBytes,
            occupiedBytes: layout.occupiedBytes,
            highWaterBytes: layout.highWaterBytes,
            heapBytes: layout.heapBytes,
            saving: layout.saving,
            cacheHits: layout.cacheHits,
            cacheMisses: layout.cacheMisses,
          })
          expect([...summary.heapId.subarray(0, summary.heaps)]).toEqual([...layout.heaps.id])
          expect([...summary.heapSize.subarray(0, summary.heaps)]).toEqual([...layout.heaps.size])
          // The layout agrees with the placements.
          expect([...layout.resources.offset]).toEqual(placed.map((p) => p.offset))
          expect([...layout.resources.heap]).toEqual(placed.map((p) => p.heap))
          expect([...layout.resources.cacheHit]).toEqual(placed.map((p) => (p.cacheHit ? 1 : 0)))
          // Each heap's high-water mark is its highest resource end.
          for (let h = 0; h < layout.heaps.length; h++) {
            const ends = placed.filter((p) => p.heap === layout.heaps.id[h]).map((p) => p.offset + p.size)
            expect(layout.heaps.highWater[h]).toBe(Math.max(...ends))
          }
        })
      }),
      { numRuns: runs(300) },
    )
  })

  it('places exactly as the slow reference does', () => {
    fc.assert(
      fc.property(optionsArb, fc.array(graphArb(24), { minLength: 1, maxLength: 6 }), (options, graphs) => {
        const { sink } = transientLog()
        const { ta, residency } = build(options, sink)
        const reference = new ReferenceTransient(options)
        graphs.forEach((g, frame) => {
          const placed = run(ta, residency, g, frame)
          expect(placed.map((p) => [p.heap, p.offset])).toEqual(reference.run(g))
          expect(ta.heaps().map((h) => h.id)).toEqual(reference.cache.map((h) => h.id))
        })
      }),
      { numRuns: runs(300) },
    )
  })

  it('places a lone resource at offset 0 of a heap of max(roundUpPow2(size), minimum), 4 MiB aligned', () => {
    fc.assert(
      fc.property(optionsArb, fc.integer({ min: 1, max: 2 ** 33 }), (options, size) => {
        const { sink, log } = transientLog()
        const { ta, residency } = build(options, sink)
        const placed = run(ta, residency, { passes: 1, requests: [{ id: 1, kind: 'buffer', size, alignment: 64 * KiB, first: 0, last: 0, desc: 0, rtds: false, msaa: false }] }, 0)
        expect(placed[0].offset).toBe(0)
        const raw = Math.max(roundUpPow2(size), options.minimumHeapSize)
        const expected = Math.ceil(raw / (4 * MiB)) * 4 * MiB
        expect(log[0]).toBe(`heap+ 0 ${expected} @0`)
      }),
    )
  })

  it('hits the placed-resource cache for every resource of a repeated graph (≤ 64 per heap and kind)', () => {
    fc.assert(
      fc.property(optionsArb, graphArb(24), (options, g) => {
        const { sink } = transientLog()
        const { ta, residency } = build({ ...options, gcLatency: 4 }, sink)
        const first = run(ta, residency, g, 0)
        const second = run(ta, residency, g, 1)
        // The same heaps in the same order give the same layout, and every (desc, offset) is cached.
        expect(second.map((p) => [p.heap, p.offset])).toEqual(first.map((p) => [p.heap, p.offset]))
        expect(second.every((p) => p.cacheHit)).toBe(true)
      }),
      { numRuns: runs(200) },
    )
  })

  it('clone() continues identically', () => {
    fc.assert(
      fc.property(
        optionsArb,
        fc.array(graphArb(16), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.integer({ min: 0, max: 600 * MiB }),
        (options, graphs, cut, budget) => {
          const a = transientLog()
          const original = build(options, a.sink, budget)
          const at = cut % (graphs.length + 1)
          for (let f = 0; f < at; f++) run(original.ta, original.residency, graphs[f], f)
          const b = transientLog()
          const residency = original.residency.clone(b.sink)
          const ids = { next: original.ids.next }
          const copy = original.ta.clone(b.sink, residency, () => ids.next++)
          const before = a.log.length
          for (let f = at; f < graphs.length; f++) {
            const pa = run(original.ta, original.residency, graphs[f], f)
            const pb = run(copy, residency, graphs[f], f)
            expect(pb).toEqual(pa)
            expect(copy.lastLayout()).toEqual(original.ta.lastLayout())
          }
          expect(b.log).toEqual(a.log.slice(before))
          expect(copy.stats()).toEqual(original.ta.stats())
          expect(copy.heaps()).toEqual(original.ta.heaps())
          expect(residency.objects()).toEqual(original.residency.objects())
        },
      ),
      { numRuns: runs(200) },
    )
  })

  it('clone() in the middle of a graph continues identically', () => {
    fc.assert(
      fc.property(optionsArb, graphArb(16), graphArb(16), fc.nat(), (options, g0, g1, cut) => {
        const a = transientLog()
        const original = build(options, a.sink)
        run(original.ta, original.residency, g0, 0)
        original.ta.beginGraph('G1', 1)
        const at = cut % (g1.requests.length + 1)
        for (const r of g1.requests.slice(0, at)) original.ta.add(r)
        const b = transientLog()
        const residency = original.residency.clone(b.sink)
        const ids = { next: original.ids.next }
        const copy = original.ta.clone(b.sink, residency, () => ids.next++)
        for (const r of g1.requests.slice(at)) {
          original.ta.add(r)
          copy.add(r)
        }
        expect(copy.endGraph(g1.passes, 1)).toEqual(original.ta.endGraph(g1.passes, 1))
        expect(copy.lastLayout()).toEqual(original.ta.lastLayout())
      }),
      { numRuns: runs(200) },
    )
  })
})
