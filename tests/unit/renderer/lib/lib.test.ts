import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RunCapabilities, SeriesAnswer } from '../../../../src/shared/ipc'
import { GiB, KiB, MiB } from '../../../../src/shared/units'
import { aliasingFigures, layoutAliasing, rectAt } from '../../../../src/renderer/src/lib/aliasingLayout'
import { reportDeltas } from '../../../../src/renderer/src/lib/compare'
import { splitArguments } from '../../../../src/renderer/src/lib/commandLine'
import { csvField, toCsv } from '../../../../src/renderer/src/lib/csv'
import {
  clampWindow,
  frameAtX,
  fullWindow,
  MIN_SPAN,
  panWindow,
  queryRange,
  xAtFrame,
  zoomAnchor,
  zoomWindow,
} from '../../../../src/renderer/src/lib/frameWindow'
import {
  budgetVisible,
  countAxis,
  edgeRuns,
  heapLaneOption,
  markerSize,
  mix,
  residencyMarkers,
  shapeElements,
  stackedAreas,
} from '../../../../src/renderer/src/lib/laneOptions'
import { bucketAt, buildLanes, flaggedStretches, laneSeries, type LaneRun } from '../../../../src/renderer/src/lib/lanes'
import { Latest } from '../../../../src/renderer/src/lib/latest'
import { LANE_ROWS, PLACEMENT_COLORS, tagColor } from '../../../../src/renderer/src/lib/palette'
import { blockAt, blockAtPixel, largestFree, sortPools } from '../../../../src/renderer/src/lib/poolLayout'
import { byteAxis, formatAxisBytes, frameTicks, niceStep } from '../../../../src/renderer/src/lib/ticks'
import { execution, FakeHost, report, summary } from '../fakeHost'

describe('byte axes step in powers of two', () => {
  it('picks the smallest power of two giving at most the ticks asked, and rounds the top to it', () => {
    // 2000 MiB / 4 ticks = 500 MiB → 512 MiB; ceil(2000 / 512) = 4 → top 2048 MiB
    expect(byteAxis(2000 * MiB, 4)).toEqual({ max: 2 * GiB, interval: 512 * MiB })
    // 3 MiB / 6 = 512 KiB exactly
    expect(byteAxis(3 * MiB, 6)).toEqual({ max: 3 * MiB, interval: 512 * KiB })
    expect(byteAxis(0, 4)).toEqual({ max: KiB, interval: KiB })
  })

  it('every tick of any axis is a whole number of bytes and a power-of-two multiple', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 2 ** 50, noNaN: true }), fc.integer({ min: 1, max: 10 }), (v, ticks) => {
        const axis = byteAxis(v, ticks)
        expect(Math.log2(axis.interval) % 1).toBe(0)
        expect(axis.max).toBeGreaterThanOrEqual(v)
        // no more intervals than asked, plus the one the rounding up may add
        expect(axis.max / axis.interval).toBeLessThanOrEqual(ticks + 1)
      }),
    )
  })

  it('labels binary sizes without trailing zeros', () => {
    expect(formatAxisBytes(1.5 * GiB)).toBe('1.5 GiB')
    expect(formatAxisBytes(768 * MiB)).toBe('768 MiB')
    // 1152 MiB = 1.125 GiB: a 128 MiB step's label keeps its three decimals
    expect(formatAxisBytes(1152 * MiB)).toBe('1.125 GiB')
    expect(formatAxisBytes(0)).toBe('0')
    expect(formatAxisBytes(512)).toBe('512 B')
    expect(formatAxisBytes(-2 * MiB)).toBe('-2 MiB')
  })
})

describe('frame axes step in 1, 2, 5 × 10^k', () => {
  it('finds the step and the ticks', () => {
    expect(niceStep(3)).toBe(5)
    expect(niceStep(12)).toBe(20)
    expect(niceStep(100)).toBe(100)
    expect(niceStep(0.3)).toBe(1)
    // 300 frames on 1200 px, 80 px apart: at least 20 frames a step → 0, 20, …, 300
    const ticks = frameTicks(0, 300, 1200, 80)
    expect(ticks).toHaveLength(16)
    expect(ticks[1]).toBe(20)
    expect(frameTicks(1, 300, 1200, 80)[0]).toBe(20)
  })
})

describe('the frame window', () => {
  it('zooms around a frame, keeping it where it was on screen', () => {
    // around 100 in [0, 299] by half: 100 − 100 × 0.5 = 50, 100 + 199 × 0.5 = 199.5
    expect(zoomWindow(fullWindow(300), 0.5, 100, 300)).toEqual({ from: 50, to: 199.5 })
    // a zoom keeps the cursor in place while it is in the window, else the window's centre
    expect(zoomAnchor({ from: 10, to: 50 }, 20)).toBe(20)
    expect(zoomAnchor({ from: 10, to: 50 }, 60)).toBe(30)
    expect(zoomAnchor({ from: 10, to: 50 }, null)).toBe(30)
    // below the narrowest span: [104.5, 105.5] widens to MIN_SPAN frames with 105 at the middle, as it was
    expect(zoomWindow({ from: 100, to: 110 }, 0.1, 105, 300)).toEqual({ from: 105 - MIN_SPAN / 2, to: 105 + MIN_SPAN / 2 })
  })

  it('stays inside the capture when panned or clamped', () => {
    expect(clampWindow({ from: -10, to: 40 }, 300)).toEqual({ from: 0, to: 50 })
    // the window [0, 50] moved by 500 stops at the end: from = 299 − 50
    expect(panWindow({ from: 0, to: 50 }, 500, 300)).toEqual({ from: 249, to: 299 })
    expect(fullWindow(1)).toEqual({ from: 0, to: 1 })
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1e6 }), fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: 0.01, max: 100, noNaN: true }), (frames, at, factor) => {
        const w = zoomWindow(fullWindow(frames), factor, at, frames)
        expect(w.from).toBeGreaterThanOrEqual(0)
        expect(w.to).toBeLessThanOrEqual(frames - 1 + 1e-9)
        expect(w.to - w.from).toBeGreaterThanOrEqual(Math.min(MIN_SPAN, frames - 1) - 1e-9)
      }),
    )
  })

  it('maps pixels to frames both ways and asks for whole frames covering both ends', () => {
    const w = { from: 100, to: 200 }
    expect(xAtFrame(w, 150, 1000)).toBe(500)
    expect(frameAtX(w, 250, 1000)).toBe(125)
    expect(queryRange({ from: 50, to: 199.5 }, 300)).toEqual({ from: 50, to: 201 })
    expect(queryRange({ from: 0, to: 299 }, 300)).toEqual({ from: 0, to: 300 })
  })
})

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
    expect(lanes.heaps.map((h) => [h.id, h.title])).toEqual([
      ['memory.system', 'system'],
      ['memory.type 3 DEVICE_LOCAL', 'type 3 DEVICE_LOCAL'],
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
})

describe('lane options', () => {
  it('sizes markers by the square root of bytes, 5 to 18 px', () => {
    expect(markerSize(0, 10)).toBe(5)
    expect(markerSize(10, 10)).toBe(18)
    // a quarter of the largest: 5 + 13 × √0.25 = 11.5
    expect(markerSize(2.5, 10)).toBe(11.5)
  })

  it('stacks layers as running totals drawn top first, opaque colours that look translucent', () => {
    const x = Float64Array.of(0, 1, 2)
    const shapes = stackedAreas(
      x,
      [
        { key: 'Committed', values: Float64Array.of(1, 2, NaN) },
        { key: 'SharedBufferPool', values: Float64Array.of(10, 20, NaN) },
      ],
      { background: '#000000' },
    ) as { kind: 'area'; top: Float64Array; fill: string }[]
    // the top layer's edge is 1 + 10 and 2 + 20; where no layer has a value, a gap
    expect(shapes.map((s) => Array.from(s.top))).toEqual([
      [11, 22, NaN],
      [1, 2, NaN],
    ])
    // #9b7bf0 (Committed) at 85% over black: 155 × 0.85 = 131.75 → 0x84, 123 × 0.85 = 104.55 → 0x69, 240 × 0.85 = 204 → 0xcc
    expect(shapes[1].fill).toBe('#8469cc')
    expect(mix('#ffffff', '#000000', 0.5)).toBe('#808080')
  })

  it('draws an edge with the ends of its level runs only, split at gaps, with risers for steps', () => {
    const x = Float64Array.of(0, 1, 2, 3, 4, 5, 6)
    const y = Float64Array.of(5, 5, 5, 7, 7, NaN, 9)
    const id = (v: number) => v
    // 5 at 0–2 (ends 0 and 2), 7 at 3–4, a gap, then 9 alone
    expect(edgeRuns(x, y, id, id)).toEqual([
      [
        [0, 5],
        [2, 5],
        [3, 7],
        [4, 7],
      ],
      [[6, 9]],
    ])
    // as steps: 5 holds until frame 3, then rises to 7
    expect(edgeRuns(x, y, id, id, true)[0]).toEqual([
      [0, 5],
      [2, 5],
      [3, 5],
      [3, 7],
      [4, 7],
    ])
  })

  it('turns shapes into pixels: areas down to zero, bands between two edges, spans over the height', () => {
    const box = { x: 10, y: 0, width: 100, height: 50 }
    const view = { from: 0, to: 10 }
    // y from 0 to 100 over 50 px: 2 units a pixel, y = 0 at pixel 50
    const elements = shapeElements(
      [
        { kind: 'area', x: Float64Array.of(0, 10), top: Float64Array.of(50, 50), fill: '#111111' },
        { kind: 'band', x: Float64Array.of(0, 10), top: Float64Array.of(80, 80), bottom: Float64Array.of(60, 60), fill: '#222222' },
        { kind: 'span', from: 5, to: 20, fill: '#333333' },
      ],
      box,
      view,
      0,
      100,
    ) as { type: string; shape: { points?: number[][]; x?: number; width?: number } }[]
    expect(elements.map((e) => e.type)).toEqual(['polygon', 'polygon', 'rect'])
    expect(elements[0].shape.points).toEqual([
      [10, 25],
      [110, 25],
      [110, 50],
      [10, 50],
    ])
    // 80 → 50 × (1 − 0.8) = 10 px, 60 → 20 px (to a micropixel: floating point)
    expect(elements[1].shape.points!.flat().map((v) => Math.round(v * 1e6) / 1e6)).toEqual([10, 10, 110, 10, 110, 20, 10, 20])
    // frames 5 to 20 clipped to the plot: x from 60 to 110
    expect([elements[2].shape.x, elements[2].shape.width]).toEqual([60, 50])
  })

  it('draws areas, bands and lines as steps: a value holds until the next frame’s', () => {
    const box = { x: 0, y: 0, width: 50, height: 100 }
    const view = { from: 0, to: 5 }
    // a resource of 50 made in frame 3: 0 at frames 0–2, 50 from frame 3; 10 px a frame, y = 50 at pixel 50
    const x = Float64Array.of(0, 1, 2, 3, 4)
    const top = Float64Array.of(0, 0, 0, 50, 50)
    const [area, line] = shapeElements(
      [
        { kind: 'area', x, top, fill: '#111111' },
        { kind: 'line', x, y: top, stroke: { color: '#222222', width: 1 } },
      ],
      box,
      view,
      0,
      100,
    ) as { shape: { points: number[][] } }[]
    // level at 0 to frame 3 (pixel 30), a riser there, 50 after: no slope between frames 2 and 3
    expect(area.shape.points).toEqual([
      [0, 100],
      [20, 100],
      [30, 100],
      [30, 50],
      [40, 50],
      [40, 100],
      [0, 100],
    ])
    expect(line.shape.points).toEqual(area.shape.points.slice(0, 5))
  })

  it('draws markers on the same pixel once, the largest, and every marker on a pixel of its own', () => {
    const box = { x: 0, y: 0, width: 100, height: 50 }
    // 1000 frames over 100 px: frames 10 to 14 all land on pixel 1; frame 500 on pixel 50; y 0 → pixel 50
    const x = [10, 11, 12, 13, 14, 500]
    const markers = shapeElements(
      [{ kind: 'markers', x, y: x.map(() => 0), size: [6, 10, 8, 6, 6, 4], down: true, fill: '#ff0000', stroke: '#000000' }],
      box,
      { from: 0, to: 1000 },
      0,
      100,
    ) as { shape: { pathData: string } }[]
    expect(markers).toHaveLength(1)
    // down triangles: the base 2h above the tip; pixel 1 keeps the 10 px one (h 5), pixel 50 its own 4 px one
    expect(markers[0].shape.pathData).toBe('M-4.0 40.0L6.0 40.0L1.0 50.0ZM48.0 46.0L52.0 46.0L50.0 50.0Z')
  })

  it('draws a budget only near the data', () => {
    expect(budgetVisible(100, 250)).toBe(true)
    expect(budgetVisible(100, 251)).toBe(false)
    expect(budgetVisible(0, 10)).toBe(false)
    // 95 over 4 ticks: 23.75 a tick → 50; top 100
    expect(countAxis(95, 4)).toEqual({ max: 100, interval: 50 })
  })

  it('places residency events of the window on the resident curve, and tallies them per bucket', async () => {
    const host = new FakeHost()
    const run = summary('r')
    const lanes = buildLanes(await host.series({ runId: 'r', series: run.series.map((s) => s.name), from: 0, to: 100, resolution: 100 }), 'heapBytes', run)
    const events = await host.residencyEvents({ runId: 'r', from: 0, to: 100, limit: 10 })
    const all = residencyMarkers(lanes, events, { from: 0, to: 99 }, { evict: 1, make: 0 })
    // evictions at frames 10, 41, 42; make-resident at 5 and 60
    expect(all.evict.map((e) => e[0])).toEqual([10, 41, 42])
    expect(all.make.map((e) => e[0])).toEqual([5, 60])
    expect(all.maxBytes).toBe(12 * MiB)
    expect(all.evict[0][1]).toBe(90 * MiB)
    expect(all.perBucket.get(41)).toEqual({ evictions: 1, evictedBytes: 8 * MiB, made: 0, madeBytes: 0 })
    const early = residencyMarkers(lanes, events, { from: 0, to: 30 }, { evict: 1, make: 0 })
    expect([early.evict.length, early.make.length]).toEqual([1, 1])
  })

  it('builds a heap lane: its layers, the waste band and the budget in one drawing, and a tooltip of the frame', async () => {
    const host = new FakeHost()
    const run = summary('r')
    const lanes = buildLanes(await host.series({ runId: 'r', series: run.series.map((s) => s.name), from: 0, to: 100, resolution: 100 }), 'heapBytes', run)
    const dflt = lanes.heaps[0]
    const option = heapLaneOption(dflt, lanes, {
      theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark,
      view: { from: 0, to: 99 },
      height: 150,
      t: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
      frameNumber: (i) => i + 1,
    })
    const series = option.series as { id: string; renderItem?: (p: unknown) => { children: { type: string; shape: { points: number[][] } }[] } | null }[]
    expect(series.map((s) => s.id)).toEqual(['drawing'])
    const drawn = series[0].renderItem!({ coordSys: { x: 0, y: 0, width: 990, height: 100 } })!.children
    // three layers, the waste band and its edge, the requested line, the budget (128 MiB, under 2.5 × the lane's top)
    expect(drawn.map((e) => e.type)).toEqual(['polygon', 'polygon', 'polygon', 'polygon', 'polyline', 'polyline', 'polyline'])
    // the budget is level all along: two points, whatever the frames
    expect(drawn[6].shape.points).toHaveLength(2)
    const formatter = (option.tooltip as { formatter: (p: unknown) => HTMLElement }).formatter
    // the mouse at frame 10.3 (the axis value, with no pane noting the pointer): the nearest frame's bucket, 10
    const tip = formatter([{ axisValue: 10.3 }])
    expect(tip.querySelector('.hs-tip-title')!.textContent).toBe('tip.frame {"n":11}')
    // Committed at frame 10: 4 MiB + 10 KiB = 4.01 MiB
    const committed = [...tip.querySelectorAll('.hs-tip-row')].find((r) => r.textContent?.includes('placement.Committed'))
    expect(committed?.querySelector('.hs-tip-value')?.textContent).toBe('4.01 MiB')
    // with the pane's note of the pointer, the note wins over the axis value the single drawing item snaps to
    const hover = { at: 40.2 }
    const noted = heapLaneOption(dflt, lanes, { theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark, view: { from: 0, to: 99 }, height: 150, t: (k, p) => (p ? `${k} ${JSON.stringify(p)}` : k), frameNumber: (i) => i + 1, hover })
    const tip40 = (noted.tooltip as { formatter: (p: unknown) => HTMLElement }).formatter([{ axisValue: 0 }])
    expect(tip40.querySelector('.hs-tip-title')!.textContent).toBe('tip.frame {"n":41}')
  })
})

describe('csv', () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    const csv = toCsv<{ a: string; b: number }>(
      [
        { header: 'a', value: (r) => r.a },
        { header: 'b,c', value: (r) => r.b },
      ],
      [
        { a: 'x"y', b: 1 },
        { a: 'line\nbreak', b: NaN },
      ],
    )
    expect(csv).toBe('a,"b,c"\r\n"x""y",1\r\n"line\nbreak",\r\n')
    expect(csvField(null)).toBe('')
    expect(csvField(false)).toBe('false')
  })
})

describe('latest-wins queries', () => {
  it('runs the first request at once and only the last of those made meanwhile', async () => {
    const runs: number[] = []
    const applied: number[] = []
    const release: (() => void)[] = []
    const q = new Latest<number, number>(
      (r) => {
        runs.push(r)
        return new Promise((resolve) => release.push(() => resolve(r)))
      },
      (a) => applied.push(a),
    )
    const done = q.request(1)
    void q.request(2)
    void q.request(3)
    release.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    release.shift()!()
    await done
    // 1 ran and was superseded before it returned; 2 was replaced while waiting; 3 ran and applied
    expect(runs).toEqual([1, 3])
    expect(applied).toEqual([3])
  })

  it('drops the answer in flight after a reset, and runs what comes after', async () => {
    const applied: number[] = []
    const release: (() => void)[] = []
    const q = new Latest<number, number>(
      (r) => new Promise((resolve) => release.push(() => resolve(r))),
      (a) => applied.push(a),
    )
    const done = q.request(1)
    q.reset()
    void q.request(2)
    release.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    release.shift()!()
    await done
    expect(applied).toEqual([2])
  })
})

describe('report deltas', () => {
  it('gives B − A and the relative change of each figure', () => {
    const rows = reportDeltas(
      report(),
      report({
        peak: { frame: 5, bytes: 512 * MiB },
        residency: { budgetBytes: 128 * MiB, evictions: 5, evictedBytes: 30 * MiB, makeResident: 5, overBudgetFrames: 10 },
        byPlacement: {
          TextureReadOnlyPool: { peakBytes: 64 * MiB, endBytes: 64 * MiB, count: 20 },
          Committed: { peakBytes: 8 * MiB, endBytes: 8 * MiB, count: 2 },
        },
      }),
    )
    const peak = rows.find((r) => r.id === 'peak')!
    expect([peak.a, peak.b, peak.delta, peak.relative]).toEqual([1024 * MiB, 512 * MiB, -512 * MiB, -0.5])
    const evictions = rows.find((r) => r.id === 'evictions')!
    expect([evictions.delta, evictions.relative]).toEqual([2, 2 / 3])
    // Committed is only in B: from nothing, no relative change
    const committed = rows.find((r) => r.id === 'placementPeak' && r.params?.placement === 'Committed')!
    expect([committed.a, committed.b, committed.relative]).toEqual([0, 8 * MiB, null])
    // placements in the model's order: Committed before TextureReadOnlyPool
    const placements = rows.filter((r) => r.id === 'placementPeak').map((r) => r.params?.placement)
    expect(placements).toEqual(['Committed', 'TextureReadOnlyPool'])
    expect(rows.find((r) => r.id === 'cacheHitRate')!.unit).toBe('ratio')
  })

  it('lists the heaps the reports name: the memory heaps of a Vulkan run by name', () => {
    const vk = (bytes: number) => report({ heaps: { 'Heap 0': { peakBytes: bytes, endBytes: bytes }, 'Heap 1': { peakBytes: 1, endBytes: 1 } } as never })
    const rows = reportDeltas(vk(2 * GiB), vk(GiB)).filter((r) => r.id === 'heapPeak')
    expect(rows.map((r) => [r.params?.heap, r.delta])).toEqual([
      ['Heap 0', -GiB],
      ['Heap 1', 0],
    ])
  })
})

describe('pool maps', () => {
  const pool = {
    offset: Float64Array.of(0, 8 * MiB, 12 * MiB),
    size: Float64Array.of(8 * MiB, 4 * MiB, 52 * MiB),
    state: Uint8Array.of(1, 2, 0),
    bytes: 64 * MiB,
  }

  it('finds the block at a byte and at a pixel', () => {
    expect(blockAt(pool, 0)).toBe(0)
    expect(blockAt(pool, 9 * MiB)).toBe(1)
    expect(blockAt(pool, 64 * MiB)).toBe(-1)
    // 64 px for 64 MiB: pixel 10 is byte 10 MiB, in block 1
    expect(blockAtPixel(pool, 10, 64)).toBe(1)
    // 500 bytes a pixel: pixel 0 covers blocks of 100, 100 and 400 bytes; the widest is what shows there
    const tiny = { offset: Float64Array.of(0, 100, 200, 600), size: Float64Array.of(100, 100, 400, 400), bytes: 1000 }
    expect(blockAtPixel(tiny, 0.5, 2)).toBe(2)
    expect(largestFree({ size: Float64Array.of(5, 7, 3, 9), state: Uint8Array.of(1, 0, 2, 0) })).toBe(9)
  })

  it('orders pools by heap, then placement, then name with numbers in order', () => {
    const make = (name: string, heap: string, placement: string) => ({ ...pool, id: new Float64Array(3), pool: 0, name, heap, placement, used: 0, pending: 0, free: 0, spare: false })
    const sorted = sortPools([
      make('UPLOAD/Big/0', 'UPLOAD', 'UploadBigBlock'),
      make('DEFAULT/ReadOnly/10', 'DEFAULT', 'TextureReadOnlyPool'),
      make('DEFAULT/ReadOnly/2', 'DEFAULT', 'TextureReadOnlyPool'),
      make('DEFAULT/SingleState/0', 'DEFAULT', 'SharedBufferPool'),
    ])
    expect(sorted.map((p) => p.name)).toEqual(['DEFAULT/SingleState/0', 'DEFAULT/ReadOnly/2', 'DEFAULT/ReadOnly/10', 'UPLOAD/Big/0'])
  })
})

describe('aliasing layout', () => {
  // 700 × 340 px, 100 px of offset labels, 20 px of pass labels: 600 px for 6 passes (100 px each), and
  // 340 − 20 − 6 = 314 px for the 16 MiB heap (19.625 px a MiB)
  const layout = layoutAliasing(execution(), { width: 700, height: 340, left: 100, bottom: 20, gap: 10, right: 0 })

  it('draws each resource from its first pass to the end of its last over its bytes', () => {
    expect(layout.panels).toHaveLength(1)
    expect(layout.panels[0]).toMatchObject({ x: 100, y: 6, w: 600, h: 314, extent: 16 * MiB })
    const [a, b, c] = layout.rects
    expect(a).toMatchObject({ index: 0, x: 100, w: 300, y: 6, h: 78.5 })
    expect(b).toMatchObject({ index: 1, x: 400, w: 300, y: 6 + 2 * 19.625, h: 78.5 })
    expect(c).toMatchObject({ index: 2, x: 100, w: 600, y: 6 + 8 * 19.625, h: 2 * 19.625 })
  })

  it('marks the shared bytes on both resources of an overlapping pair', () => {
    // A [0, 4 MiB) and B [2, 6 MiB) share [2, 4 MiB): 39.25 px from y = 45.25, on A's passes and on B's
    expect(layout.bands).toEqual([
      { on: 0, with: 1, x: 100, w: 300, y: 45.25, h: 39.25 },
      { on: 1, with: 0, x: 400, w: 300, y: 45.25, h: 39.25 },
    ])
    expect(rectAt(layout, 150, 50)).toBe(0)
    expect(rectAt(layout, 450, 100)).toBe(1)
    expect(rectAt(layout, 150, 170)).toBe(2)
    expect(rectAt(layout, 50, 50)).toBe(-1)
    expect(aliasingFigures(execution())).toEqual({ requested: 10 * MiB, aliased: 2, heapBytes: 16 * MiB })
  })

  it('fits a heap to the bytes it uses: past the 10 MiB reached, to a round 12 MiB', () => {
    const fitted = layoutAliasing(execution(), { width: 700, height: 340, left: 100, bottom: 20, gap: 10, right: 0, fit: true })
    // 10 MiB × 1.04 over 8 ticks: 2 MiB steps → top 12 MiB
    expect(fitted.panels[0].extent).toBe(12 * MiB)
    expect(fitted.rects[2].y + fitted.rects[2].h).toBeCloseTo(6 + (10 / 12) * 314, 9)
  })
})

describe('palette', () => {
  it('has a colour for every row a lane stacks, all different', () => {
    for (const row of LANE_ROWS) expect(PLACEMENT_COLORS[row]).toMatch(/^#[0-9a-f]{6}$/)
    expect(new Set(LANE_ROWS.map((r) => PLACEMENT_COLORS[r])).size).toBe(LANE_ROWS.length)
    // the common tags each their own colour; any other tag a stable one
    const common = ['Textures', 'Meshes', 'RenderTargets', 'UniformBuffers', 'Nanite', 'Lumen', 'Shadows', 'Landscape', 'Particles', 'UI', 'RayTracing', 'SceneRender', 'RHIMisc', 'DistanceFields']
    expect(new Set(common.map(tagColor)).size).toBe(common.length)
    expect(tagColor('MyGame.Props')).toBe(tagColor('MyGame.Props'))
    expect(tagColor('MyGame.Props')).toMatch(/^#[0-9a-f]{6}$/)
  })
})

describe('a program’s arguments typed on one line', () => {
  it('splits as a shell does, quotes and backslashes kept out of the words', () => {
    expect(splitArguments('--c 400')).toEqual(['--c', '400'])
    expect(splitArguments('  -s 640x480   -b "build:duration=1" ')).toEqual(['-s', '640x480', '-b', 'build:duration=1'])
    expect(splitArguments(`--scene 'C:\\Games\\My Game\\level 1.map' --name "say \\"hi\\""`)).toEqual([
      '--scene',
      'C:\\Games\\My Game\\level 1.map',
      '--name',
      'say "hi"',
    ])
    expect(splitArguments('a\\ b c""d \'\'')).toEqual(['a b', 'cd', ''])
    expect(splitArguments('')).toEqual([])
  })

  it('says when a quote is not closed', () => {
    expect(splitArguments('--name "open')).toBeNull()
    expect(splitArguments("--name 'open")).toBeNull()
  })

  it('words without quotes, backslashes or spaces come back as they were joined (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_=:.,/-]{1,12}$/)
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        expect(splitArguments(words.join(' '))).toEqual(words)
      }),
      { seed: 13, numRuns: 200 },
    )
  })
})
