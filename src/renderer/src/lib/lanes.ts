/**
 * The timeline's lanes as plain arrays, from one series answer: per heap type a stack of placement layers (the
 * mode's field), the heap's requested and held totals around them (their gap is the waste), residency against
 * the budget with the over-budget stretches, and transient heaps against the sum of transient requests.
 *
 * Stacked layers use each bucket's mean: means add up (the mean of a sum is the sum of the means), so a layer
 * derived by subtraction (Committed on a heap) stays exact when a bucket holds many frames. The bucket's peak of
 * the heap's total is kept beside them, drawn as a line, so a short spike is never hidden by averaging.
 */
import { HEAP_TYPES, type HeapType } from '../../../shared/model'
import type { SeriesAnswer, SeriesBuckets, VulkanRunInfo } from '../../../shared/ipc'
import { APPLICATION, laneRows } from './palette'

export const HEAP_MODES = ['heapBytes', 'occupiedBytes', 'requestedBytes'] as const
export type HeapMode = (typeof HEAP_MODES)[number]

export const RESIDENCY = {
  resident: 'residency.residentBytes',
  budget: 'residency.budgetBytes',
  overBudget: 'residency.overBudget',
} as const

export const TRANSIENT = {
  heapBytes: 'transient.heapBytes',
  requestedBytes: 'transient.requestedBytes',
  savingBytes: 'transient.savingBytes',
} as const

/** The checks' findings per frame: aliasing hazards, and a Vulkan run's API-usage warnings. */
export const CHECKS = { hazards: 'check.hazards', warnings: 'check.warnings' } as const

/** A Vulkan run's series per memory heap and per memory type. */
export const vkHeapSeries = (heap: number, field: string) => `vkheap.${heap}.${field}`
export const vkTypeSeries = (type: number, field: string) => `vktype.${type}.${field}`
const VK_HEAP_FIELDS = ['allocatedBytes', 'usedBytes', 'freeBytes', 'pendingFreeBytes', 'memoryCount', 'budgetBytes'] as const

/** What a Vulkan heap lane stacks per memory type in each mode: the memory it allocated, or the part in use. */
function vkTypeField(mode: HeapMode): string {
  return mode === 'heapBytes' ? 'allocatedBytes' : 'usedBytes'
}

const HEAP_FIELDS = ['heapBytes', 'occupiedBytes', 'requestedBytes', 'alignmentWasteBytes', 'poolFreeBytes', 'pendingFreeBytes'] as const

export const heapSeries = (heap: string, field: string) => `heap.${heap}.${field}`
export const placementSeries = (placement: string, field: string) => `placement.${placement}.${field}`
const manualSeries = (heap: string, field: 'heapBytes' | 'placedBytes') => `manual.${heap}.${field}`

/** A budget this large means "none": the model's stand-in for an unlimited budget. */
export const NO_BUDGET = Number.MAX_SAFE_INTEGER / 2

/** Most series one query may name (the host's limit). */
export const MAX_SERIES = 64

/** The series the timeline asks for, in one query (at most 64): only those the run has. */
export function laneSeries(available: ReadonlySet<string>, mode: HeapMode, vulkan?: VulkanRunInfo): string[] {
  const out: string[] = []
  if (vulkan) {
    for (const heap of vulkan.heaps) for (const field of VK_HEAP_FIELDS) out.push(vkHeapSeries(heap.index, field))
    for (const type of vulkan.types) out.push(vkTypeSeries(type.index, vkTypeField(mode)))
  } else {
    for (const heap of HEAP_TYPES) {
      for (const field of HEAP_FIELDS) out.push(heapSeries(heap, field))
      for (const row of laneRows(heap)) {
        if (row === APPLICATION) {
          out.push(manualSeries(heap, 'heapBytes'), manualSeries(heap, 'placedBytes'))
        } else if (row !== 'Committed') out.push(placementSeries(row, mode))
      }
    }
  }
  out.push(RESIDENCY.resident, RESIDENCY.budget, RESIDENCY.overBudget)
  out.push(TRANSIENT.heapBytes, TRANSIENT.requestedBytes, TRANSIENT.savingBytes)
  out.push(CHECKS.hazards, CHECKS.warnings)
  return [...new Set(out)].filter((name) => available.has(name)).slice(0, MAX_SERIES)
}

export interface StackLayer {
  /** Placement (or Application). */
  key: string
  values: Float64Array
}

export interface HeapLane {
  /** DEFAULT, UPLOAD, READBACK; or "vk.0" for a Vulkan run's memory heap 0. */
  id: string
  /** What the lane is called: the heap type, or the memory heap's name and flags. */
  title: string
  mode: HeapMode
  /** Bottom to top; only layers that hold something in the window. */
  layers: StackLayer[]
  /** Sum of the layers (the stack's top). */
  stackTop: Float64Array
  /** What live requests asked for (a Vulkan heap: the memory in use), and what the heap holds (the gap is waste). */
  requested: Float64Array
  held: Float64Array
  /** The bucket's peak of `held`. */
  peak: Float64Array
  alignment: Float64Array
  poolFree: Float64Array
  pending: Float64Array
  /** The budget drawn on this lane (NaN where there is none), or null. */
  budget: Float64Array | null
  /** A Vulkan heap's live VkDeviceMemory objects. */
  memoryCount?: Float64Array
  /** Largest value drawn (for the y axis). */
  max: number
}

export interface ResidencyLane {
  resident: Float64Array
  /** NaN where there is no budget. */
  budget: Float64Array
  hasBudget: boolean
  /** [first, last] frame index of each over-budget stretch. */
  overBudget: [number, number][]
  max: number
}

export interface TransientLane {
  heap: Float64Array
  requested: Float64Array
  saving: Float64Array
  max: number
}

export interface ChecksLane {
  hazards: Float64Array
  warnings: Float64Array
  max: number
}

export interface LaneSet {
  api: 'd3d12' | 'vulkan'
  /** Frame index of each point (the bucket's centre), the bucket's first frame, and its capture frame number. */
  x: Float64Array
  start: Float64Array
  frame: Float64Array
  /** Frames per bucket. */
  width: number
  heaps: HeapLane[]
  /** Absent where the run has no such series (a Vulkan run has no residency, no transient heaps). */
  residency: ResidencyLane | null
  transient: TransientLane | null
  /** Present when the run's checks found something. */
  checks: ChecksLane | null
}

function column(series: Record<string, SeriesBuckets>, name: string, pick: 'mean' | 'max' | 'min', n: number): Float64Array {
  const s = series[name]
  return s ? s[pick] : new Float64Array(n)
}

function peakOf(values: Float64Array): number {
  let max = 0
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i]
  return max
}

function anyAbove(values: Float64Array, threshold: number): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] > threshold) return true
  return false
}

function heapLane(answer: SeriesAnswer, heap: HeapType, mode: HeapMode, budget: Float64Array | null): HeapLane {
  const n = answer.start.length
  const s = answer.series
  const total = column(s, heapSeries(heap, mode), 'mean', n)
  const rows = laneRows(heap)
  const own: StackLayer[] = []
  const othersSum = new Float64Array(n)
  for (const row of rows) {
    if (row === 'Committed' || row === APPLICATION) continue
    const values = column(s, placementSeries(row, mode), 'mean', n)
    for (let i = 0; i < n; i++) othersSum[i] += values[i]
    own.push({ key: row, values })
  }
  // Committed is on every heap type: what the heap's total holds beyond its own placements
  const committed = new Float64Array(n)
  for (let i = 0; i < n; i++) committed[i] = Math.max(0, total[i] - othersSum[i])
  const appField = mode === 'heapBytes' ? 'heapBytes' : 'placedBytes'
  const application = column(s, manualSeries(heap, appField), 'mean', n)
  const layers = [{ key: 'Committed', values: committed }, ...own, { key: APPLICATION, values: application }].filter((l) =>
    anyAbove(l.values, 0),
  )
  const stackTop = new Float64Array(n)
  for (const l of layers) for (let i = 0; i < n; i++) stackTop[i] += l.values[i]

  const manualHeld = column(s, manualSeries(heap, 'heapBytes'), 'mean', n)
  const manualPlaced = column(s, manualSeries(heap, 'placedBytes'), 'mean', n)
  const manualPeak = column(s, manualSeries(heap, 'heapBytes'), 'max', n)
  const requested = new Float64Array(n)
  const held = new Float64Array(n)
  const peak = new Float64Array(n)
  const req = column(s, heapSeries(heap, 'requestedBytes'), 'mean', n)
  const hb = column(s, heapSeries(heap, 'heapBytes'), 'mean', n)
  const hbPeak = column(s, heapSeries(heap, 'heapBytes'), 'max', n)
  for (let i = 0; i < n; i++) {
    requested[i] = req[i] + manualPlaced[i]
    held[i] = hb[i] + manualHeld[i]
    peak[i] = hbPeak[i] + manualPeak[i]
  }
  return {
    id: heap,
    title: heap,
    mode,
    layers,
    stackTop,
    requested,
    held,
    peak,
    alignment: column(s, heapSeries(heap, 'alignmentWasteBytes'), 'mean', n),
    poolFree: column(s, heapSeries(heap, 'poolFreeBytes'), 'mean', n),
    pending: column(s, heapSeries(heap, 'pendingFreeBytes'), 'mean', n),
    budget,
    max: Math.max(peakOf(stackTop), peakOf(peak), peakOf(held)),
  }
}

/** A Vulkan memory heap: its memory types stacked, allocated against in use (free bytes are the waste). */
function vulkanHeapLane(answer: SeriesAnswer, vulkan: VulkanRunInfo, heapIndex: number, mode: HeapMode): HeapLane {
  const n = answer.start.length
  const s = answer.series
  const info = vulkan.heaps.find((h) => h.index === heapIndex)!
  const layers: StackLayer[] = []
  for (const type of vulkan.types) {
    if (type.heapIndex !== heapIndex) continue
    const values = column(s, vkTypeSeries(type.index, vkTypeField(mode)), 'mean', n)
    if (anyAbove(values, 0)) layers.push({ key: type.name, values })
  }
  const stackTop = new Float64Array(n)
  for (const l of layers) for (let i = 0; i < n; i++) stackTop[i] += l.values[i]
  const held = column(s, vkHeapSeries(heapIndex, 'allocatedBytes'), 'mean', n)
  const peak = column(s, vkHeapSeries(heapIndex, 'allocatedBytes'), 'max', n)
  const rawBudget = s[vkHeapSeries(heapIndex, 'budgetBytes')]?.min
  let budget: Float64Array | null = null
  if (rawBudget && anyAbove(rawBudget, 0)) {
    budget = new Float64Array(n)
    for (let i = 0; i < n; i++) budget[i] = rawBudget[i] > 0 && rawBudget[i] < NO_BUDGET ? rawBudget[i] : NaN
  }
  return {
    id: `vk.${heapIndex}`,
    title: info.flags.length ? `${info.name} · ${info.flags.join('|')}` : info.name,
    mode,
    layers,
    stackTop,
    requested: column(s, vkHeapSeries(heapIndex, 'usedBytes'), 'mean', n),
    held,
    peak,
    alignment: new Float64Array(n),
    poolFree: column(s, vkHeapSeries(heapIndex, 'freeBytes'), 'mean', n),
    pending: column(s, vkHeapSeries(heapIndex, 'pendingFreeBytes'), 'mean', n),
    budget,
    memoryCount: column(s, vkHeapSeries(heapIndex, 'memoryCount'), 'max', n),
    max: Math.max(peakOf(stackTop), peakOf(peak), peakOf(held)),
  }
}

/** Stretches of buckets whose flag is set, as [first frame, last frame] of the buckets. */
export function flaggedStretches(start: Float64Array, width: number, flag: Float64Array | undefined): [number, number][] {
  const out: [number, number][] = []
  if (!flag) return out
  let open = -1
  for (let i = 0; i <= flag.length; i++) {
    const on = i < flag.length && flag[i] > 0
    if (on && open < 0) open = i
    else if (!on && open >= 0) {
      out.push([start[open], start[i - 1] + width - 1])
      open = -1
    }
  }
  return out
}

/** A capture of one frame (a memory dump) as two points a frame apart: an area needs a width to be seen. */
function widened(answer: SeriesAnswer): SeriesAnswer {
  if (answer.start.length !== 1) return answer
  const two = (a: Float64Array) => Float64Array.of(a[0], a[0])
  const series: SeriesAnswer['series'] = {}
  for (const [name, b] of Object.entries(answer.series)) series[name] = { min: two(b.min), max: two(b.max), mean: two(b.mean) }
  return { ...answer, start: Float64Array.of(answer.start[0], answer.start[0] + 1), frame: two(answer.frame), series }
}

export function buildLanes(raw: SeriesAnswer, mode: HeapMode, vulkan?: VulkanRunInfo): LaneSet {
  const answer = widened(raw)
  const n = answer.start.length
  const s = answer.series
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) x[i] = answer.start[i] + (answer.width - 1) / 2

  let residency: ResidencyLane | null = null
  if (s[RESIDENCY.resident]) {
    const resident = column(s, RESIDENCY.resident, 'max', n)
    const rawBudget = column(s, RESIDENCY.budget, 'min', n)
    const budget = new Float64Array(n)
    let hasBudget = false
    let budgetMax = 0
    for (let i = 0; i < n; i++) {
      const b = rawBudget[i]
      if (b > 0 && b < NO_BUDGET) {
        budget[i] = b
        hasBudget = true
        budgetMax = Math.max(budgetMax, b)
      } else budget[i] = NaN
    }
    residency = {
      resident,
      budget,
      hasBudget,
      overBudget: flaggedStretches(answer.start, answer.width, s[RESIDENCY.overBudget]?.max),
      max: Math.max(peakOf(resident), budgetMax),
    }
  }
  let transient: TransientLane | null = null
  if (s[TRANSIENT.heapBytes]) {
    const transientHeap = column(s, TRANSIENT.heapBytes, 'max', n)
    const transientRequested = column(s, TRANSIENT.requestedBytes, 'max', n)
    transient = {
      heap: transientHeap,
      requested: transientRequested,
      saving: column(s, TRANSIENT.savingBytes, 'max', n),
      max: Math.max(peakOf(transientHeap), peakOf(transientRequested)),
    }
  }
  let checks: ChecksLane | null = null
  if (s[CHECKS.hazards] || s[CHECKS.warnings]) {
    // findings in a bucket: the sum over its frames (mean × frames)
    const sum = (name: string) => {
      const out = new Float64Array(n)
      const mean = s[name]?.mean
      if (mean) for (let i = 0; i < n; i++) out[i] = Math.round(mean[i] * Math.min(answer.width, Math.max(1, (i + 1 < n ? answer.start[i + 1] : answer.start[i] + answer.width) - answer.start[i])))
      return out
    }
    const hazards = sum(CHECKS.hazards)
    const warnings = sum(CHECKS.warnings)
    checks = { hazards, warnings, max: Math.max(1, peakOf(hazards), peakOf(warnings)) }
  }
  const heaps = vulkan
    ? vulkan.heaps.map((h) => vulkanHeapLane(answer, vulkan, h.index, mode))
    : HEAP_TYPES.map((heap) => heapLane(answer, heap, mode, heap === 'DEFAULT' && residency?.hasBudget ? residency.budget : null))
  return { api: vulkan ? 'vulkan' : 'd3d12', x, start: answer.start, frame: answer.frame, width: answer.width, heaps, residency, transient, checks }
}

/** The bucket holding frame index `frame` (the nearest one when the frame is outside the answer). */
export function bucketAt(lanes: Pick<LaneSet, 'start' | 'width'>, frame: number): number {
  const n = lanes.start.length
  if (n === 0) return -1
  const i = Math.floor((frame - lanes.start[0]) / lanes.width)
  return Math.max(0, Math.min(n - 1, i))
}
