import { describe, expect, it } from 'vitest'
import type { RunCapabilities, SeriesAnswer } from '../../../../src/shared/ipc'
import { GiB, MiB } from '../../../../src/shared/units'
import { bucketAt, buildLanes, flaggedStretches, hasBudgetSeries, laneSeries, type LaneRun } from '../../../../src/renderer/src/lib/lanes'
import { LANE_ROWS } from '../../../../src/renderer/src/lib/palette'
import { summary } from '../fakeHost'

function answer(buckets: { start: number[]; width: number; series: Record<string, { mean: number[]; max?: number[]; min?: number[] }> }): SeriesAnswer {
  const series: SeriesAnswer['series'] = {}
  for (const [name, v] of Object.entries(buckets.series)) {
    series[name] = { mean: Float64Array.from(v.mean), max: Float64Array.from(v.max ?? v.mean), min: Float64Array.from(v.min ?? v.mean) }
  }
  return { runId: 'r', start: Float64Array.from(buckets.start), frame: Float64Array.from(buckets.start), width: buckets.width, series }
}

/** A run with exactly the answer's series, offering `capabilities`. */
function runOf(a: SeriesAnswer, capabilities: RunCapabilities = { whatIf: true, residency: true, transients: true }, vulkan?: LaneRun['vulkan']): LaneRun {
  return { series: Object.keys(a.series).map((name) => ({ name })), capabilities, ...(vulkan ? { vulkan } : {}) }
}

describe('lanes from a series answer', () => {
  const a = answer({
    start: [0, 1],
    width: 1,
    series: {
      'heap.DEFAULT.heapBytes': { mean: [100 * MiB, 110 * MiB] },
      'heap.DEFAULT.requestedBytes': { mean: [80 * MiB, 80 * MiB] },
      'placement.TextureReadOnlyPool.heapBytes': { mean: [64 * MiB, 64 * MiB] },
      'placement.SharedBufferPool.heapBytes': { mean: [32 * MiB, 32 * MiB] },
      'manual.DEFAULT.heapBytes': { mean: [0, 0] },
      'residency.residentBytes': { mean: [90 * MiB, 90 * MiB] },
      'residency.budgetBytes': { mean: [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] },
    },
  })

  it('stacks a heap by placement, Committed being what the heap holds beyond its own pools', () => {
    const lanes = buildLanes(a, 'heapBytes', runOf(a))
    const dflt = lanes.heaps.find((h) => h.id === 'DEFAULT')!
    expect(dflt.words).toEqual({ held: 'tip.held', requested: 'tip.requested', waste: 'tip.waste' })
    // the application layer holds nothing and is dropped; order is the model's placement order
    expect(dflt.layers.map((l) => l.key)).toEqual(['Committed', 'SharedBufferPool', 'TextureReadOnlyPool'])
    // 100 − 64 − 32 = 4 MiB, then 110 − 96 = 14 MiB
    expect(Array.from(dflt.layers[0].values)).toEqual([4 * MiB, 14 * MiB])
    expect(Array.from(dflt.stackTop)).toEqual([100 * MiB, 110 * MiB])
    // held − requested: 20 and 30 MiB of waste
    expect(Array.from(dflt.held).map((h, i) => h - dflt.requested[i])).toEqual([20 * MiB, 30 * MiB])
    expect(dflt.max).toBe(110 * MiB)
    // an unlimited budget is no budget, on the residency lane nor on DEFAULT's
    expect(lanes.residency!.hasBudget).toBe(false)
    expect(Number.isNaN(lanes.residency!.budget[0])).toBe(true)
    expect(dflt.budget).toBeNull()
    // no transient series, no transient lane; no checks series, no checks lane
    expect([lanes.transient, lanes.checks]).toEqual([null, null])
  })

  it('stacks a Vulkan memory heap by memory type, allocated against in use, with its budget and memory count', () => {
    const vulkan = {
      heaps: [
        { index: 0, name: 'Heap 0', size: 8 * GiB, flags: ['DEVICE_LOCAL'] },
        { index: 1, name: 'Heap 1', size: 16 * GiB, flags: [] },
      ],
      types: [
        { index: 0, name: 'Type 0', heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] },
        { index: 1, name: 'Type 1', heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
        { index: 2, name: 'Type 2', heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_CACHED'] },
        { index: 3, name: 'Type 3', heapIndex: 0, propertyFlags: ['DEVICE_LOCAL', 'HOST_VISIBLE'] },
      ],
      maxMemoryAllocationCount: 4096,
      bufferImageGranularity: 1024,
      nonCoherentAtomSize: 64,
      defaulted: false,
      problems: [],
      diagnostics: {},
    }
    const v = answer({
      start: [0, 1],
      width: 1,
      series: {
        'vkheap.0.allocatedBytes': { mean: [256 * MiB, 512 * MiB] },
        'vkheap.0.usedBytes': { mean: [200 * MiB, 300 * MiB] },
        'vkheap.0.memoryCount': { mean: [1, 2] },
        'vkheap.0.budgetBytes': { mean: [GiB, GiB] },
        'vktype.0.allocatedBytes': { mean: [192 * MiB, 384 * MiB] },
        'vktype.3.allocatedBytes': { mean: [64 * MiB, 128 * MiB] },
        'vkheap.1.allocatedBytes': { mean: [32 * MiB, 32 * MiB] },
        'vkheap.1.usedBytes': { mean: [8 * MiB, 8 * MiB] },
        'vktype.1.allocatedBytes': { mean: [32 * MiB, 32 * MiB] },
        'vktype.2.allocatedBytes': { mean: [0, 0] },
        'check.hazards': { mean: [0, 1] },
        'check.warnings': { mean: [1, 0] },
      },
    })
    const lanes = buildLanes(v, 'heapBytes', runOf(v, { whatIf: true }, vulkan))
    expect(lanes.heaps.map((h) => [h.id, h.title])).toEqual([
      ['vk.0', 'Heap 0 · DEVICE_LOCAL'],
      ['vk.1', 'Heap 1'],
    ])
    const [h0, h1] = lanes.heaps
    // heap 0 holds types 0 and 3 in type order; type 2 holds nothing and is dropped from heap 1
    expect(h0.layers.map((l) => l.key)).toEqual(['Type 0', 'Type 3'])
    expect(h1.layers.map((l) => l.key)).toEqual(['Type 1'])
    // free in memory objects: 256 − 200 = 56 MiB, then 512 − 300 = 212 MiB
    expect(Array.from(h0.held).map((held, i) => held - h0.requested[i])).toEqual([56 * MiB, 212 * MiB])
    expect(Array.from(h0.budget!)).toEqual([GiB, GiB])
    expect(h1.budget).toBeNull()
    expect(Array.from(h0.memoryCount!)).toEqual([1, 2])
    expect([h0.memoryLimit, h0.words.held, h0.alignment, h0.poolFree]).toEqual([4096, 'tip.vkAllocated', null, null])
    // no residency, no transients in a Vulkan run; the checks per frame
    expect([lanes.residency, lanes.transient]).toEqual([null, null])
    expect([Array.from(lanes.checks!.hazards), Array.from(lanes.checks!.warnings)]).toEqual([
      [0, 1],
      [1, 0],
    ])
    const names = laneSeries({ series: ['vkheap.0.usedBytes', 'vktype.0.usedBytes', 'vktype.0.allocatedBytes', 'check.hazards'].map((name) => ({ name })), capabilities: {}, vulkan }, 'occupiedBytes')
    expect(names).toEqual(['vkheap.0.usedBytes', 'vktype.0.usedBytes', 'check.hazards'])
  })

  it("builds the lanes of a backend it has never heard of from its series' descriptions and what the run offers", () => {
    // a source that writes heap, application-heap, residency and check series, and offers residency only
    const other = answer({
      start: [0, 1],
      width: 1,
      series: {
        'heap.UPLOAD.heapBytes': { mean: [8 * MiB, 8 * MiB] },
        'heap.UPLOAD.requestedBytes': { mean: [6 * MiB, 2 * MiB] },
        'manual.UPLOAD.heapBytes': { mean: [2 * MiB, 2 * MiB] },
        'manual.UPLOAD.placedBytes': { mean: [MiB, MiB] },
        'heap.DEFAULT.heapBytes': { mean: [32 * MiB, 64 * MiB] },
        'residency.residentBytes': { mean: [30 * MiB, 60 * MiB] },
        'residency.budgetBytes': { mean: [48 * MiB, 48 * MiB] },
        'transient.heapBytes': { mean: [4 * MiB, 4 * MiB] },
        'check.hazards': { mean: [2, 0] },
        'metal.private.heapBytes': { mean: [MiB, MiB] },
      },
    })
    const run = { ...runOf(other, { residency: true }), backend: 'metal' }
    const lanes = buildLanes(other, 'heapBytes', run)
    // lanes in their order whatever the order of the series; a name nothing describes is drawn nowhere
    expect(lanes.heaps.map((h) => h.id)).toEqual(['DEFAULT', 'UPLOAD'])
    const upload = lanes.heaps[1]
    // Committed = 8 − 0 MiB of own layers; the application's 2 MiB on top, outside the heap's total
    expect(upload.layers.map((l) => [l.key, l.values[0]])).toEqual([
      ['Committed', 8 * MiB],
      ['Application', 2 * MiB],
    ])
    // held: 8 + 2 MiB; requested: 6 + 1, then 2 + 1 MiB
    expect([Array.from(upload.held), Array.from(upload.requested)]).toEqual([
      [10 * MiB, 10 * MiB],
      [7 * MiB, 3 * MiB],
    ])
    // residency is offered: its lane, and its budget drawn on DEFAULT; transients are not: no lane for their series
    expect(Array.from(lanes.residency!.resident)).toEqual([30 * MiB, 60 * MiB])
    expect(Array.from(lanes.heaps[0].budget!)).toEqual([48 * MiB, 48 * MiB])
    expect(lanes.transient).toBeNull()
    expect(Array.from(lanes.checks!.hazards)).toEqual([2, 0])
    // what it asks for: only the series drawn in a lane it offers
    expect(laneSeries(run, 'heapBytes')).not.toContain('transient.heapBytes')
    expect(laneSeries(run, 'heapBytes')).not.toContain('metal.private.heapBytes')
    // the same series offering nothing: no residency lane, and DEFAULT has no budget
    const bare = buildLanes(other, 'heapBytes', runOf(other, {}))
    expect([bare.residency, bare.heaps[0].budget]).toEqual([null, null])
  })

  it("draws an observed trace's memories as lanes of their own, in the order of the run's series, with no model's words", () => {
    const observed = answer({
      start: [0, 1],
      width: 1,
      series: {
        'memory.system.heapBytes': { mean: [4 * MiB, 4 * MiB] },
        'memory.system.placedBytes': { mean: [MiB, 3 * MiB] },
        'memory.type 3 DEVICE_LOCAL.heapBytes': { mean: [64 * MiB, 0] },
        'memory.type 3 DEVICE_LOCAL.placedBytes': { mean: [60 * MiB, 0] },
        'total.heapBytes': { mean: [68 * MiB, 4 * MiB] },
      },
    })
    const lanes = buildLanes(observed, 'occupiedBytes', runOf(observed, {}))
    expect(lanes.heaps.map((h) => [h.id, h.title, h.note, h.weight])).toEqual([
      ['memory.system', 'system', 'memoryKind.system', undefined],
      ['memory.type 3 DEVICE_LOCAL', 'type 3 DEVICE_LOCAL', 'memoryKind.type 3 DEVICE_LOCAL', undefined],
    ])
    const [system] = lanes.heaps
    // occupied: the placed bytes stacked; held 4 MiB against 1 then 3 MiB placed
    expect(system.layers.map((l) => [l.key, Array.from(l.values)])).toEqual([['system', [MiB, 3 * MiB]]])
    expect(Array.from(system.held).map((h, i) => h - system.requested[i])).toEqual([3 * MiB, MiB])
    expect([system.words.requested, system.alignment, system.poolFree, system.budget]).toEqual(['tip.placed', null, null, null])
    expect([lanes.residency, lanes.transient, lanes.checks]).toEqual([null, null, null])
  })

  it('gives a capture of one frame (a memory dump) two points a frame apart, so its areas have a width', () => {
    const one = answer({ start: [0], width: 1, series: { 'heap.DEFAULT.heapBytes': { mean: [10 * MiB] }, 'placement.SharedBufferPool.heapBytes': { mean: [4 * MiB] } } })
    const lanes = buildLanes(one, 'heapBytes', runOf(one))
    expect(Array.from(lanes.x)).toEqual([0, 1])
    // Committed 10 − 4 = 6 MiB at both points
    expect(Array.from(lanes.heaps[0].layers[0].values)).toEqual([6 * MiB, 6 * MiB])
  })

  it('never makes Committed negative when the pools add up to more than the heap', () => {
    const over = answer({ start: [0], width: 1, series: { 'heap.DEFAULT.heapBytes': { mean: [10] }, 'placement.SharedBufferPool.heapBytes': { mean: [12] } } })
    const dflt = buildLanes(over, 'heapBytes', runOf(over)).heaps[0]
    expect(dflt.layers.map((l) => l.key)).toEqual(['SharedBufferPool'])
  })

  it('finds over-budget stretches and the bucket of a frame', () => {
    const flag = Float64Array.from([0, 0, 0, 1, 1, 1, 0, 0, 1, 0])
    const start = Float64Array.from({ length: 10 }, (_, i) => i)
    expect(flaggedStretches(start, 1, flag)).toEqual([
      [3, 5],
      [8, 8],
    ])
    // buckets of 10 frames: the stretch runs from the first frame of bucket 1 to the last of bucket 2
    expect(flaggedStretches(Float64Array.of(0, 10, 20), 10, Float64Array.of(0, 1, 1))).toEqual([[10, 29]])
    expect(bucketAt({ start: Float64Array.of(0, 10, 20), width: 10 }, 15)).toBe(1)
    expect(bucketAt({ start: Float64Array.of(0, 10, 20), width: 10 }, 35)).toBe(2)
    expect(bucketAt({ start: Float64Array.of(0, 10, 20), width: 10 }, -3)).toBe(0)
  })

  it('asks for the series the run has, in one query within the 64 the host takes', () => {
    const run = summary('r')
    const available = new Set(run.series.map((s) => s.name))
    const names = laneSeries(run, 'occupiedBytes')
    expect(names).toContain('placement.TextureReadOnlyPool.occupiedBytes')
    expect(names).not.toContain('placement.TextureReadOnlyPool.heapBytes')
    expect(names).not.toContain('placement.Committed.heapBytes')
    expect(names).toContain('heap.DEFAULT.requestedBytes')
    expect(names).toContain('residency.overBudget')
    expect(names.every((n) => available.has(n))).toBe(true)
    // every series a run could have: heap fields 18, placement rows 14, application 6, residency 3, transients 3
    const everything = new Set<string>()
    for (const heap of ['DEFAULT', 'UPLOAD', 'READBACK']) {
      for (const f of ['heapBytes', 'occupiedBytes', 'requestedBytes', 'alignmentWasteBytes', 'poolFreeBytes', 'pendingFreeBytes']) everything.add(`heap.${heap}.${f}`)
      everything.add(`manual.${heap}.heapBytes`).add(`manual.${heap}.placedBytes`)
    }
    for (const row of LANE_ROWS) for (const f of ['heapBytes', 'occupiedBytes', 'requestedBytes']) everything.add(`placement.${row}.${f}`)
    for (const n of ['residency.residentBytes', 'residency.budgetBytes', 'residency.overBudget', 'transient.heapBytes', 'transient.requestedBytes', 'transient.savingBytes']) everything.add(n)
    // in heapBytes mode: a heap's held, requested, alignment, pool-free and pending-free bytes (15), the placement
    // rows of their heaps (14, Committed being derived), application 6, residency 3, transients 3
    const every = { series: [...everything].map((name) => ({ name })), capabilities: { residency: true as const, transients: true as const } }
    expect(laneSeries(every, 'heapBytes')).toHaveLength(15 + 14 + 6 + 3 + 3)
    // a run that offers no residency nor transients asks for none of their series
    expect(laneSeries({ ...every, capabilities: {} }, 'heapBytes')).toHaveLength(15 + 14 + 6)
  })

  it("gives each D3D12 heap lane its share of the height from the heap's description", () => {
    const a = answer({ start: [0], width: 1, series: { 'heap.READBACK.heapBytes': { mean: [1] }, 'heap.DEFAULT.heapBytes': { mean: [1] }, 'heap.UPLOAD.heapBytes': { mean: [1] } } })
    expect(buildLanes(a, 'heapBytes', runOf(a)).heaps.map((h) => [h.id, h.weight, h.note])).toEqual([
      ['DEFAULT', 3.2, undefined],
      ['UPLOAD', 1.5, undefined],
      ['READBACK', 1, undefined],
    ])
  })

  it("keeps the checks' total and each rule's findings beside hazards and warnings, a bucket's findings summed over its frames", () => {
    const a = answer({
      start: [0, 2],
      width: 2,
      series: {
        'check.misalignedBind': { mean: [0.5, 0.5] },
        'heap.DEFAULT.heapBytes': { mean: [MiB, MiB] },
        'check.total': { mean: [1.5, 0.5] },
        'check.hazards': { mean: [1, 0] },
        'check.warnings': { mean: [0.5, 0.5] },
        'check.access-inactive': { mean: [1, 0] },
      },
    })
    const run = { ...runOf(a), series: Object.keys(a.series).map((name) => ({ name, label: name === 'check.misalignedBind' ? 'misaligned bind' : name })) }
    const c = buildLanes(a, 'heapBytes', run).checks!
    // two frames a bucket: a mean of 1.5 findings a frame is 3 findings
    expect([Array.from(c.hazards), Array.from(c.warnings), Array.from(c.total!)]).toEqual([
      [2, 0],
      [1, 1],
      [3, 1],
    ])
    expect(c.rules.map((r) => [r.rule, r.label, Array.from(r.values)])).toEqual([
      ['misalignedBind', 'misaligned bind', [1, 1]],
      ['access-inactive', 'check.access-inactive', [2, 0]],
    ])
    // the rules are asked for last: the lanes' own series come first within the host's 64
    expect(laneSeries(run, 'heapBytes')).toEqual(['heap.DEFAULT.heapBytes', 'check.total', 'check.hazards', 'check.warnings', 'check.misalignedBind', 'check.access-inactive'])
  })

  it('knows whether a run has a budget to draw: residency where offered, a memory heap of its own', () => {
    const run = (names: string[], capabilities: RunCapabilities = {}, vulkan?: LaneRun['vulkan']): LaneRun => ({ series: names.map((name) => ({ name })), capabilities, ...(vulkan ? { vulkan } : {}) })
    expect(hasBudgetSeries(run(['heap.DEFAULT.heapBytes', 'residency.budgetBytes'], { residency: true }))).toBe(true)
    // residency not offered: its budget is drawn nowhere
    expect(hasBudgetSeries(run(['heap.DEFAULT.heapBytes', 'residency.budgetBytes']))).toBe(false)
    // an observed trace: its memories, resident bytes, no budget
    expect(hasBudgetSeries(run(['memory.local.heapBytes', 'memory.local.placedBytes', 'residency.residentBytes'], { residency: true }))).toBe(false)
    const vulkan = { heaps: [{ index: 0, name: 'Heap 0', flags: [] }], types: [], maxMemoryAllocationCount: 4096 }
    expect(hasBudgetSeries(run(['vkheap.0.allocatedBytes', 'vkheap.0.budgetBytes'], {}, vulkan))).toBe(true)
  })
})
