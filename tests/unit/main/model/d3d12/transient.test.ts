import { describe, expect, it } from 'vitest'
import { GiB, KiB, MiB } from '../../../../../src/shared/units'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import { TransientAllocator } from '../../../../../src/main/model/d3d12/transient'
import type { TransientOptions, TransientRequest } from '../../../../../src/main/model/d3d12/transient'
import type { ModelSink } from '../../../../../src/main/model/events'

function setup(options: Partial<TransientOptions> = {}) {
  const log: string[] = []
  const warnings: string[] = []
  const sink: ModelSink = {
    transientHeapCreated: (h, b, f) => log.push(`heap+ ${h} ${b / MiB}MiB @${f}`),
    transientHeapDestroyed: (h, f) => log.push(`heap- ${h} @${f}`),
    transientPlaced: (p, f) => log.push(`place ${p.id} heap ${p.heap} +${p.offset / MiB}MiB @${f}`),
    residencyObjectCreated: (o, b, p, l) => log.push(`res+ ${o} ${b / MiB}MiB ${p} ${l}`),
    residencyObjectDestroyed: (o) => log.push(`res- ${o}`),
    warning: (k, m, f) => warnings.push(`${k}@${f}: ${m}`),
  }
  const residency = new ResidencyManager({ enabled: true, startResident: false, budget: 16 * GiB }, sink)
  let nextId = 100
  const ta = new TransientAllocator(
    { minimumHeapSize: 128 * MiB, gcLatency: 16, resourceHeapTier: 2, ...options },
    sink,
    residency,
    () => nextId++,
  )
  return { ta, residency, log, warnings }
}

function texture(id: number, size: number, first: number, last: number, more: Partial<TransientRequest> = {}): TransientRequest {
  return { id, kind: 'texture', size, alignment: 64 * KiB, first, last, desc: id, rtds: false, msaa: false, ...more }
}

function buffer(id: number, size: number, first: number, last: number, more: Partial<TransientRequest> = {}): TransientRequest {
  return { id, kind: 'buffer', size, alignment: 64 * KiB, first, last, desc: id, rtds: false, msaa: false, ...more }
}

function graph(ta: TransientAllocator, passes: number, frame: number, requests: TransientRequest[], name = 'Scene') {
  ta.beginGraph(name, frame)
  for (const r of requests) ta.add(r)
  return ta.endGraph(passes, frame)
}

describe('TransientAllocator: placement and aliasing', () => {
  it('places two 64 MiB textures with disjoint lifetimes at offset 0 of one 128 MiB heap', () => {
    const { ta, log } = setup()
    const placed = graph(ta, 2, 5, [texture(1, 64 * MiB, 0, 0), texture(2, 64 * MiB, 1, 1)])
    // Heap: max(roundUpPow2(64 MiB) = 64 MiB, minimum 128 MiB) = 128 MiB, 4 MiB aligned.
    expect(log.slice(0, 2)).toEqual(['heap+ 100 128MiB @5', 'res+ 100 128MiB high Transient/all/100'])
    expect(placed.map((p) => [p.id, p.heap, p.offset, p.cacheHit])).toEqual([
      [1, 100, 0, false],
      [2, 100, 0, false], // texture 1 is discarded after pass 0, before texture 2 is acquired at pass 1
    ])
    const layout = ta.lastLayout()!
    expect(layout.execution).toBe(0)
    expect(layout.name).toBe('Scene')
    expect([...layout.heaps.id]).toEqual([100])
    expect([...layout.heaps.size]).toEqual([128 * MiB])
    expect([...layout.heaps.highWater]).toEqual([64 * MiB])
    expect([...layout.overlaps]).toEqual([0, 1])
    // Σ sizes 64 + 64 = 128 MiB; Σ high-water marks 64 MiB; saving 128 − 64 = 64 MiB.
    expect(layout.requestedBytes).toBe(128 * MiB)
    expect(layout.highWaterBytes).toBe(64 * MiB)
    expect(layout.saving).toBe(64 * MiB)
  })

  it('lays out resources with overlapping lifetimes first-fit, reusing the lowest hole that fits', () => {
    const { ta } = setup()
    const placed = graph(ta, 6, 0, [
      texture(1, 32 * MiB, 0, 1), // A
      texture(2, 16 * MiB, 1, 3), // B
      texture(3, 24 * MiB, 2, 4), // C
      texture(4, 16 * MiB, 4, 5), // D
    ])
    // Pass 0: A at 0; free [32, 128).
    // Pass 1: B at 32 (A still live); free [48, 128).
    // Pass 2: A discarded (last 1 < 2): free [0, 32) [48, 128); C (24) fits the first range → 0; free [24, 32) [48, 128).
    // Pass 4: B discarded (last 3 < 4): [24, 32) + [32, 48) + [48, 128) coalesce to [24, 128); D (16) → 24.
    expect(placed.map((p) => p.offset / MiB)).toEqual([0, 32, 0, 24])
    const layout = ta.lastLayout()!
    // Byte overlaps in the one heap: A [0,32)∩C [0,24), A [0,32)∩D [24,40), B [32,48)∩D [24,40).
    expect([...layout.overlaps]).toEqual([0, 2, 0, 3, 1, 3])
    expect(layout.overlapCount).toBe(3)
    // High-water mark: B ends at 48 MiB. Saving: (32 + 16 + 24 + 16) − 48 = 40 MiB.
    expect(layout.highWaterBytes).toBe(48 * MiB)
    expect(layout.saving).toBe(40 * MiB)
  })

  it('coalesces a freed range with the free range after it', () => {
    const { ta } = setup()
    const placed = graph(ta, 4, 0, [
      texture(1, 16 * MiB, 0, 2), // A
      texture(2, 16 * MiB, 0, 1), // B
      texture(3, 96 * MiB, 0, 3), // C: the 128 MiB heap is now full
      texture(4, 32 * MiB, 3, 3), // D
    ])
    // Pass 0: A [0, 16), B [16, 32), C [32, 128).
    // Pass 2: B discarded → free [16, 32). Pass 3: A discarded → [0, 16) joins [16, 32): free [0, 32).
    // D (32 MiB) fits there only because the two ranges merged; otherwise it would need a second heap.
    expect(placed.map((p) => [p.heap, p.offset / MiB])).toEqual([
      [100, 0],
      [100, 16],
      [100, 32],
      [100, 0],
    ])
  })

  it('takes the alignment padding with the resource and counts it in the occupied bytes', () => {
    const { ta } = setup()
    const placed = graph(ta, 1, 0, [
      buffer(1, 1 * MiB, 0, 0),
      texture(2, 8 * MiB, 0, 0, { alignment: 4 * MiB, msaa: true, rtds: true }),
    ])
    // The buffer takes [0, 1 MiB); the MSAA texture aligns up from 1 MiB to 4 MiB: 3 MiB of padding.
    expect(placed.map((p) => p.offset / MiB)).toEqual([0, 4])
    const layout = ta.lastLayout()!
    expect([...layout.resources.padding].map((b) => b / MiB)).toEqual([0, 3])
    expect([...layout.resources.msaa]).toEqual([0, 1])
    expect(layout.requestedBytes).toBe(9 * MiB) // 1 + 8
    expect(layout.occupiedBytes).toBe(12 * MiB) // 1 + (3 + 8)
    expect(layout.highWaterBytes).toBe(12 * MiB) // 4 + 8
    expect(layout.saving).toBe(0)
  })

  it('acquires in pass order, in the order added within a pass, and discards before acquiring', () => {
    const { ta, log } = setup()
    const placed = graph(ta, 4, 0, [
      texture(1, 8 * MiB, 2, 3), // X
      texture(2, 16 * MiB, 0, 1), // Y
      texture(3, 4 * MiB, 0, 2), // Z
      texture(4, 16 * MiB, 2, 2), // W
    ])
    // Pass 0: Y at 0, then Z at 16 (same pass, order added). Free [20, 128).
    // Pass 2: Y discarded (last 1 < 2): free [0, 16) [20, 128). X (8) → 0; W (16) no longer fits [8, 16) → 20.
    expect(placed.map((p) => p.offset / MiB)).toEqual([0, 0, 16, 20])
    // The sink hears the placements in acquisition order; endGraph returns them in the order added.
    expect(log.filter((l) => l.startsWith('place')).map((l) => Number(l.split(' ')[1]))).toEqual([2, 3, 1, 4])
    // A resource whose last pass is the pass being acquired is still live: no reuse.
    const again = graph(ta, 3, 1, [texture(5, 16 * MiB, 0, 1), texture(6, 16 * MiB, 1, 2)])
    expect(again.map((p) => p.offset / MiB)).toEqual([0, 16])
  })

  it('sizes a heap for a 200 MiB request at 256 MiB, and rounds small heaps up to 4 MiB', () => {
    const { ta, log } = setup()
    graph(ta, 1, 0, [texture(1, 200 * MiB, 0, 0)])
    // roundUpPow2(200 MiB) = 256 MiB > 128 MiB.
    expect(log[0]).toBe('heap+ 100 256MiB @0')

    const small = setup({ minimumHeapSize: 6 * MiB })
    graph(small.ta, 1, 0, [buffer(1, 64 * KiB, 0, 0)])
    // max(roundUpPow2(64 KiB) = 64 KiB, 6 MiB) = 6 MiB → rounded up to 4 MiB: 8 MiB.
    expect(small.log[0]).toBe('heap+ 100 8MiB @0')
    graph(small.ta, 1, 1, [texture(2, 9 * MiB, 0, 0)])
    // The 8 MiB heap cannot hold 9 MiB: roundUpPow2(9 MiB) = 16 MiB.
    expect(small.log.filter((l) => l.startsWith('heap+'))).toEqual(['heap+ 100 8MiB @0', 'heap+ 101 16MiB @1'])
  })

  it('opens a second heap when the first is full, and tries the heaps in the order they were acquired', () => {
    const { ta } = setup()
    const placed = graph(ta, 1, 0, [
      texture(1, 100 * MiB, 0, 0),
      texture(2, 64 * MiB, 0, 0), // 100 + 64 > 128: a second 128 MiB heap
      texture(3, 20 * MiB, 0, 0), // fits the first heap's [100, 128)
      texture(4, 40 * MiB, 0, 0), // fits the second heap's [64, 128)
    ])
    expect(placed.map((p) => [p.heap, p.offset / MiB])).toEqual([
      [100, 0],
      [101, 0],
      [100, 100],
      [101, 64],
    ])
    const layout = ta.lastLayout()!
    expect([...layout.heaps.id]).toEqual([100, 101])
    expect([...layout.heaps.highWater].map((b) => b / MiB)).toEqual([120, 104])
    expect([...layout.heaps.created]).toEqual([1, 1])
    // Nothing aliases: saving (100 + 64 + 20 + 40) − (120 + 104) = 0.
    expect(layout.saving).toBe(0)
    expect(layout.overlapCount).toBe(0)
  })

  it('returns heaps to the cache, the acquired ones first, and reuses a cached heap large enough', () => {
    const { ta, log } = setup()
    graph(ta, 1, 0, [texture(1, 64 * MiB, 0, 0)]) // heap 100, 128 MiB
    graph(ta, 1, 1, [texture(2, 300 * MiB, 0, 0)]) // 100 too small → heap 101, 512 MiB
    expect(ta.heaps().map((h) => h.id)).toEqual([101, 100])
    // A 100 MiB request takes the first cached heap that holds it: 101, the one used last.
    const placed = graph(ta, 1, 2, [texture(3, 100 * MiB, 0, 0)])
    expect(placed[0].heap).toBe(101)
    expect(log.filter((l) => l.startsWith('heap+'))).toEqual(['heap+ 100 128MiB @0', 'heap+ 101 512MiB @1'])
    expect(ta.lastLayout()!.heaps.created[0]).toBe(0)
  })
})

describe('TransientAllocator: resource heap tiers', () => {
  const requests = () => [
    buffer(1, 1 * MiB, 0, 0),
    texture(2, 2 * MiB, 0, 0),
    texture(3, 4 * MiB, 0, 0, { rtds: true }),
    buffer(4, 1 * MiB, 0, 0),
  ]

  it('mixes buffers, textures and render targets in one heap on tier 2', () => {
    const { ta } = setup({ resourceHeapTier: 2 })
    const placed = graph(ta, 1, 0, requests())
    // 0 + 1 = 1, 1 + 2 = 3, 3 + 4 = 7 MiB: one heap.
    expect(placed.map((p) => [p.heap, p.offset / MiB])).toEqual([
      [100, 0],
      [100, 1],
      [100, 3],
      [100, 7],
    ])
    expect(ta.heaps().map((h) => h.kind)).toEqual(['all'])
  })

  it('keeps buffers, textures and RT/DS textures in separate heaps on tier 1', () => {
    const { ta } = setup({ resourceHeapTier: 1 })
    const placed = graph(ta, 1, 0, requests())
    expect(placed.map((p) => [p.heap, p.offset / MiB])).toEqual([
      [100, 0], // buffers heap
      [101, 0], // textures heap
      [102, 0], // render-target heap
      [100, 1], // the second buffer joins the buffers heap
    ])
    expect(ta.heaps().map((h) => [h.id, h.kind, h.label])).toEqual([
      [100, 'buffers', 'Transient/buffers/100'],
      [101, 'textures', 'Transient/textures/101'],
      [102, 'renderTargets', 'Transient/renderTargets/102'],
    ])
    // A cached heap of another kind is never taken: a texture in a later graph reuses 101, not 100.
    expect(graph(ta, 1, 1, [texture(5, 1 * MiB, 0, 0)])[0].heap).toBe(101)
  })
})

describe('TransientAllocator: heap garbage collection', () => {
  it('destroys a heap at the end of the 16th execution that does not use it, not before', () => {
    const { ta, log, residency } = setup({ gcLatency: 16 })
    graph(ta, 1, 0, [texture(1, 64 * MiB, 0, 0)]) // execution 0 uses heap 100
    // Executions 1..15 use no heap: at the end of execution e the last 16 executions are e − 15 .. e, and
    // execution 0 is among them for e ≤ 15 (0 + 16 > 15).
    for (let e = 1; e <= 15; e++) graph(ta, 1, e, [])
    expect(ta.heaps().map((h) => h.id)).toEqual([100])
    expect(residency.has(100)).toBe(true)
    expect(log.some((l) => l.startsWith('heap-'))).toBe(false)
    // Execution 16, the 17th counting execution 0 and the 16th idle one: 0 + 16 <= 16 → destroyed.
    graph(ta, 1, 16, [])
    expect(ta.heaps()).toEqual([])
    expect(log.slice(-2)).toEqual(['heap- 100 @16', 'res- 100'])
    expect(residency.has(100)).toBe(false)
    expect(ta.stats()).toMatchObject({ executions: 17, liveHeaps: 0, liveHeapBytes: 0, heapsCreated: 1, heapsDestroyed: 1 })
  })

  it('restarts the count when the heap is used again', () => {
    const { ta } = setup({ gcLatency: 16 })
    graph(ta, 1, 0, [texture(1, 64 * MiB, 0, 0)])
    for (let e = 1; e <= 9; e++) graph(ta, 1, e, [])
    graph(ta, 1, 10, [texture(2, 64 * MiB, 0, 0)]) // execution 10 uses heap 100 again
    for (let e = 11; e <= 25; e++) graph(ta, 1, e, [])
    expect(ta.heaps().map((h) => h.id)).toEqual([100]) // 10 + 16 > 25
    graph(ta, 1, 26, [])
    expect(ta.heaps()).toEqual([]) // 10 + 16 <= 26
  })

  it('with a latency of 0 destroys every heap at the end of its own execution', () => {
    const { ta, log } = setup({ gcLatency: 0 })
    graph(ta, 1, 0, [texture(1, 64 * MiB, 0, 0)])
    graph(ta, 1, 1, [texture(1, 64 * MiB, 0, 0)])
    expect(log.filter((l) => l.startsWith('heap'))).toEqual([
      'heap+ 100 128MiB @0',
      'heap- 100 @0',
      'heap+ 101 128MiB @1',
      'heap- 101 @1',
    ])
  })
})

describe('TransientAllocator: placed-resource cache', () => {
  it('misses on the first execution and hits every resource of an identical second one', () => {
    const { ta } = setup()
    const [SceneColor, LightGrid] = [10, 11]
    const requests = () => [
      texture(1, 32 * MiB, 0, 1, { desc: SceneColor }),
      buffer(2, 1 * MiB, 1, 2, { desc: LightGrid }),
      texture(3, 32 * MiB, 2, 3, { desc: SceneColor }), // same desc, same offset 0 as texture 1
    ]
    const first = graph(ta, 4, 0, requests())
    // Texture 3 lands where texture 1 was (offset 0), same desc — but texture 1's placed resource stays acquired
    // until the end of the execution, so it is a second miss.
    expect(first.map((p) => [p.offset / MiB, p.cacheHit])).toEqual([
      [0, false],
      [32, false],
      [0, false],
    ])
    expect(ta.lastLayout()!.cacheMisses).toBe(3)
    const second = graph(ta, 4, 1, requests())
    expect(second.map((p) => p.cacheHit)).toEqual([true, true, true])
    expect(ta.lastLayout()).toMatchObject({ cacheHits: 3, cacheMisses: 0 })
    // Over both executions: 3 hits of 6 lookups.
    expect(ta.stats()).toMatchObject({ cacheHits: 3, cacheMisses: 3, cacheHitRate: 0.5 })
    expect(ta.heaps()[0]).toMatchObject({ cachedTextures: 2, cachedBuffers: 1 })
  })

  it('misses when the desc or the offset differs', () => {
    const { ta } = setup()
    const [A, B] = [20, 21]
    graph(ta, 1, 0, [texture(1, 16 * MiB, 0, 0, { desc: A }), texture(2, 16 * MiB, 0, 0, { desc: B })])
    // Swapped order: A now at 16 MiB, B at 0 — neither (desc, offset) pair was cached.
    const swapped = graph(ta, 1, 1, [texture(2, 16 * MiB, 0, 0, { desc: B }), texture(1, 16 * MiB, 0, 0, { desc: A })])
    expect(swapped.map((p) => p.cacheHit)).toEqual([false, false])
    // A texture never matches a cached buffer of the same desc number.
    graph(ta, 1, 2, [buffer(3, 16 * MiB, 0, 0, { desc: B })])
    expect(ta.lastLayout()!.resources.cacheHit[0]).toBe(0)
  })

  it('keeps the 64 most recently used placed textures per heap', () => {
    const { ta } = setup()
    // 70 textures with disjoint lifetimes, all at offset 0, each its own desc.
    const requests = () => Array.from({ length: 70 }, (_, i) => texture(i, 1 * MiB, i, i, { desc: 1000 + i }))
    graph(ta, 70, 0, requests())
    // 70 created; trimmed to 64 at the end of the execution: T0..T5 (the least recently used) are destroyed.
    expect(ta.stats()).toMatchObject({ cacheMisses: 70, cacheEvictions: 6 })
    expect(ta.heaps()[0].cachedTextures).toBe(64)
    const second = graph(ta, 70, 1, requests())
    // T0..T5 miss, T6..T69 hit; the trim then drops the 6 oldest uses of this execution, T0..T5 again.
    expect(second.filter((p) => !p.cacheHit).map((p) => p.id)).toEqual([0, 1, 2, 3, 4, 5])
    expect(ta.lastLayout()).toMatchObject({ cacheHits: 64, cacheMisses: 6 })
    expect(ta.stats().cacheEvictions).toBe(12)
  })
})

describe('TransientAllocator: residency and graph protocol', () => {
  it('registers heaps as high-priority residency objects used in the frames that place into them', () => {
    const { ta, residency } = setup()
    graph(ta, 1, 3, [texture(1, 64 * MiB, 0, 0)])
    expect(residency.objectInfo(100)).toMatchObject({ bytes: 128 * MiB, priority: 'high', resident: false })
    residency.endFrame(3)
    expect(residency.objectInfo(100)).toMatchObject({ resident: true, lastUsedFrame: 3 })
    graph(ta, 1, 4, []) // frame 4 places nothing
    residency.endFrame(4)
    expect(residency.objectInfo(100)!.lastUsedFrame).toBe(3)
  })

  it('clamps pass ranges outside the graph or reversed, with a warning', () => {
    const { ta, warnings } = setup()
    const placed = graph(ta, 4, 7, [
      texture(1, 8 * MiB, -2, 1, { name: 'Early' }), // first < 0 → 0..1
      texture(2, 8 * MiB, 3, 9), // last ≥ 4 passes → 3..3
      texture(3, 8 * MiB, 2, 1), // first > last → last raised to first: 2..2
      texture(4, 8 * MiB, 1, 2), // valid
    ])
    expect(placed.map((p) => [p.first, p.last])).toEqual([
      [0, 1],
      [3, 3],
      [2, 2],
      [1, 2],
    ])
    expect(warnings).toHaveLength(3)
    expect(warnings[0]).toMatch(/^transientPassRange@7: transient 1 \(Early\) .* passes -2\.\.1, .* clamped to 0\.\.1$/)
  })

  it('warns about a transient outside a graph, an endgraph without a graph and a bad size', () => {
    const { ta, warnings } = setup()
    expect(ta.endGraph(3, 0)).toEqual([])
    expect(ta.executions()).toBe(0)
    ta.add(buffer(1, 0, 0, 0))
    const placed = ta.endGraph(1, 0)
    expect(placed.map((p) => p.size)).toEqual([64 * KiB])
    expect(warnings.map((w) => w.split(':')[0])).toEqual(['transientGraph@0', 'transientGraph@0', 'transientSize@0'])
    expect(ta.executions()).toBe(1)
  })

  it('counts an empty graph as an execution and gives it an empty layout', () => {
    const { ta } = setup()
    expect(ta.lastLayout()).toBeNull()
    graph(ta, 10, 0, [])
    expect(ta.lastLayout()).toMatchObject({ execution: 0, overlapCount: 0, saving: 0, heapBytes: 0 })
    expect(ta.lastLayout()!.resources.length).toBe(0)
  })
})
