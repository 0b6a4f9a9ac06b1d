/**
 * The timeline's lanes as plain arrays, from one series answer: per heap a stack of layers (the mode's field:
 * placements, memory types), the heap's requested and held totals around them (their gap is the waste), residency
 * against the budget with the over-budget stretches, transient heaps against the sum of transient requests, and
 * the checks' findings. Each series goes where its description in src/shared/series.ts places it; residency and
 * transients are drawn only where the run offers them.
 *
 * Stacked layers use each bucket's mean: means add up (the mean of a sum is the sum of the means), so a layer
 * derived by subtraction (Committed on a heap) stays exact when a bucket holds many frames. The bucket's peak of
 * the heap's total is kept beside them, drawn as a line, so a short spike is never hidden by averaging.
 */
import type { RunCapabilities, SeriesAnswer, SeriesBuckets } from '../../../shared/ipc'
import { describeSeries, HEAP_MODES, placeSeries, type HeapLaneInfo, type HeapLaneWords, type HeapMode, type SeriesPlace, type SeriesRunInfo } from '../../../shared/series'

export { HEAP_MODES, type HeapMode }

/** What the lanes read of a run: its series, what it offers, and the device data its series' places depend on. */
export interface LaneRun extends SeriesRunInfo {
  /** Its series, with the labels the run gives them. */
  series: readonly { name: string; label?: string }[]
  capabilities: RunCapabilities
}

/** A budget this large means "none": the model's stand-in for an unlimited budget. */
export const NO_BUDGET = Number.MAX_SAFE_INTEGER / 2

/** Most series one query may name (the host's limit). */
export const MAX_SERIES = 64

/** Whether a lane of this kind is drawn for the run: residency and transients only where the run offers them. */
function offered(place: SeriesPlace, capabilities: RunCapabilities): boolean {
  if (place.lane === 'residency') return capabilities.residency === true
  if (place.lane === 'transient') return capabilities.transients === true
  return true
}

/** The places of a run's series, worked out once per run summary (a zoom asks again, the run is the same). */
const placesOf = new WeakMap<LaneRun, { name: string; place: SeriesPlace | null }[]>()

function places(run: LaneRun): { name: string; place: SeriesPlace | null }[] {
  let out = placesOf.get(run)
  if (!out) {
    out = run.series.map(({ name }) => ({ name, place: placeSeries(name, run) }))
    placesOf.set(run, out)
  }
  return out
}

/** Each series of the run drawn in a lane in this mode, with its place there, in the run's order. */
function placedSeries(run: LaneRun, mode: HeapMode): { name: string; place: SeriesPlace }[] {
  const out: { name: string; place: SeriesPlace }[] = []
  for (const { name, place } of places(run)) {
    if (!place || !offered(place, run.capabilities)) continue
    if (place.heapRoles && !place.heapRoles.some((r) => !r.modes || r.modes.includes(mode))) continue
    out.push({ name, place })
  }
  return out
}

/** The heap lanes of a run, in their order: every lane one of its series is placed in. */
export function heapLanesOf(run: LaneRun): HeapLaneInfo[] {
  const lanes = new Map<string, HeapLaneInfo>()
  for (const { place } of places(run)) {
    const heap = place?.heap
    if (heap && !lanes.has(heap.key)) lanes.set(heap.key, heap)
  }
  return [...lanes.values()].sort((a, b) => a.order - b.order)
}

/**
 * The series the timeline asks for, in one query (at most 64): those of the run drawn in a lane in this mode, the
 * checks' rules last (the lane's tooltip lists them; the lanes themselves come first).
 */
export function laneSeries(run: LaneRun, mode: HeapMode): string[] {
  const placed = placedSeries(run, mode)
  const rule = (p: SeriesPlace) => p.checks === 'rule'
  return [...placed.filter((s) => !rule(s.place)), ...placed.filter((s) => rule(s.place))]
    .map((s) => s.name)
    .slice(0, MAX_SERIES)
}

/** Whether the run has a budget series drawn in its lanes (a heap's own budget, or residency's where offered). */
export function hasBudgetSeries(run: LaneRun): boolean {
  return places(run).some(({ place }) => place && offered(place, run.capabilities) && (place.residency === 'budget' || place.heapRoles?.some((r) => r.part === 'budget')))
}

export interface StackLayer {
  /** Placement (or Application). */
  key: string
  values: Float64Array
}

export interface HeapLane {
  /** DEFAULT, UPLOAD, READBACK; or "vk.0" for a Vulkan run's memory heap 0. */
  id: string
  /** What the lane is called: the heap type, the memory heap's name and flags, or the memory kind's name. */
  title: string
  /** What the memory is (an i18n key the renderer may have words for), from the lane's description. */
  note?: string
  /** Its share of the timeline's height, from the lane's description; absent: by its place among the lanes. */
  weight?: number
  /** Its words for held, in use and the gap (i18n keys). */
  words: HeapLaneWords
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
  /** Null where the lane's series say nothing of it. */
  alignment: Float64Array | null
  poolFree: Float64Array | null
  pending: Float64Array
  /** The budget drawn on this lane (NaN where there is none), or null. */
  budget: Float64Array | null
  /** The live memory objects (a Vulkan heap's VkDeviceMemory), and the most the device allows. */
  memoryCount?: Float64Array
  memoryLimit?: number
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
  /** The findings of all rules, where the run writes their total. */
  total: Float64Array | null
  /** Each rule's own findings (`check.<rule>`), by the rule's name, in the run's order. */
  rules: { rule: string; series: string; label?: string; values: Float64Array }[]
  max: number
}

export interface LaneSet {
  /** Frame index of each point (the bucket's centre), the bucket's first frame, and its capture frame number. */
  x: Float64Array
  start: Float64Array
  frame: Float64Array
  /** Frames per bucket. */
  width: number
  heaps: HeapLane[]
  /** Absent where the run does not offer them or has no such series. */
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

/** Sums of the series placed in one part of a lane. */
function sumOf(s: Record<string, SeriesBuckets>, names: string[], pick: 'mean' | 'max' | 'min', n: number): Float64Array {
  const out = new Float64Array(n)
  for (const name of names) {
    const values = s[name]?.[pick]
    if (values) for (let i = 0; i < n; i++) out[i] += values[i]
  }
  return out
}

/**
 * A heap lane: its layers stacked in their order (the remainder of the stack's total below them, when the lane
 * has one), what its requests asked for against what it holds (the gap is the waste), and its figures.
 */
function heapLane(answer: SeriesAnswer, info: HeapLaneInfo, placed: { name: string; place: SeriesPlace }[], mode: HeapMode, residencyBudget: Float64Array | null): HeapLane {
  const n = answer.start.length
  const s = answer.series
  const part = (p: string) => placed.filter(({ place }) => place.heapRoles!.some((r) => r.part === p && (!r.modes || r.modes.includes(mode)))).map((x) => x.name)
  const own = placed
    .filter(({ place }) => place.layer && place.heapRoles!.some((r) => r.part === 'layer' && (!r.modes || r.modes.includes(mode))))
    .sort((a, b) => a.place.layer!.order - b.place.layer!.order)
    .map(({ name, place }) => ({ key: place.layer!.key, values: column(s, name, 'mean', n), outsideTotal: place.layer!.outsideTotal === true }))
  const layers: StackLayer[] = []
  const totals = part('total')
  if (info.remainder && totals.length) {
    // the remainder: what the lane's total holds beyond its own layers (the application's heaps are outside it)
    const total = sumOf(s, totals, 'mean', n)
    const othersSum = new Float64Array(n)
    for (const l of own) if (!l.outsideTotal) for (let i = 0; i < n; i++) othersSum[i] += l.values[i]
    const remainder = new Float64Array(n)
    for (let i = 0; i < n; i++) remainder[i] = Math.max(0, total[i] - othersSum[i])
    layers.push({ key: info.remainder, values: remainder })
  }
  for (const l of own) layers.push({ key: l.key, values: l.values })
  const shown = layers.filter((l) => anyAbove(l.values, 0))
  const stackTop = new Float64Array(n)
  for (const l of shown) for (let i = 0; i < n; i++) stackTop[i] += l.values[i]

  const held = sumOf(s, part('held'), 'mean', n)
  const peak = sumOf(s, part('held'), 'max', n)
  const alignment = part('alignment')
  const poolFree = part('poolFree')
  const memoryCount = part('memoryCount')
  let budget = residencyBudget
  const ownBudget = part('budget')
  if (ownBudget.length) {
    const raw = sumOf(s, ownBudget, 'min', n)
    budget = null
    if (anyAbove(raw, 0)) {
      budget = new Float64Array(n)
      for (let i = 0; i < n; i++) budget[i] = raw[i] > 0 && raw[i] < NO_BUDGET ? raw[i] : NaN
    }
  }
  return {
    id: info.key,
    title: info.title,
    ...(info.note !== undefined ? { note: info.note } : {}),
    ...(info.weight !== undefined ? { weight: info.weight } : {}),
    words: info.words,
    mode,
    layers: shown,
    stackTop,
    requested: sumOf(s, part('requested'), 'mean', n),
    held,
    peak,
    alignment: alignment.length ? sumOf(s, alignment, 'mean', n) : null,
    poolFree: poolFree.length ? sumOf(s, poolFree, 'mean', n) : null,
    pending: sumOf(s, part('pending'), 'mean', n),
    budget,
    ...(memoryCount.length ? { memoryCount: sumOf(s, memoryCount, 'max', n) } : {}),
    ...(info.memoryLimit !== undefined ? { memoryLimit: info.memoryLimit } : {}),
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

/**
 * The lanes of one series answer for `run`: each series goes where its description places it, so a source whose
 * series are described gets its lanes here without a change.
 */
export function buildLanes(raw: SeriesAnswer, mode: HeapMode, run: LaneRun): LaneSet {
  const answer = widened(raw)
  const n = answer.start.length
  const s = answer.series
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) x[i] = answer.start[i] + (answer.width - 1) / 2
  const placed = placedSeries(run, mode).filter(({ name }) => s[name])
  const named = <K extends 'residency' | 'transient' | 'checks'>(key: K, part: NonNullable<SeriesPlace[K]>) =>
    placed.filter(({ place }) => place[key] === part).map((p) => p.name)

  let residency: ResidencyLane | null = null
  const residentNames = named('residency', 'resident')
  if (residentNames.length) {
    const resident = sumOf(s, residentNames, 'max', n)
    const budgetNames = named('residency', 'budget')
    const rawBudget = budgetNames.length ? sumOf(s, budgetNames, 'min', n) : new Float64Array(n)
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
    const flag = named('residency', 'overBudget')
    residency = {
      resident,
      budget,
      hasBudget,
      overBudget: flaggedStretches(answer.start, answer.width, flag.length ? sumOf(s, flag, 'max', n) : undefined),
      max: Math.max(peakOf(resident), budgetMax),
    }
  }
  let transient: TransientLane | null = null
  const transientHeapNames = named('transient', 'heap')
  if (transientHeapNames.length) {
    const transientHeap = sumOf(s, transientHeapNames, 'max', n)
    const transientRequested = sumOf(s, named('transient', 'requested'), 'max', n)
    transient = {
      heap: transientHeap,
      requested: transientRequested,
      saving: sumOf(s, named('transient', 'saving'), 'max', n),
      max: Math.max(peakOf(transientHeap), peakOf(transientRequested)),
    }
  }
  let checks: ChecksLane | null = null
  const hazardNames = named('checks', 'hazards')
  const warningNames = named('checks', 'warnings')
  if (hazardNames.length || warningNames.length) {
    // findings in a bucket: the sum over its frames (mean × frames)
    const sum = (names: string[]) => {
      const out = new Float64Array(n)
      const mean = sumOf(s, names, 'mean', n)
      for (let i = 0; i < n; i++) out[i] = Math.round(mean[i] * Math.min(answer.width, Math.max(1, (i + 1 < n ? answer.start[i + 1] : answer.start[i] + answer.width) - answer.start[i])))
      return out
    }
    const hazards = sum(hazardNames)
    const warnings = sum(warningNames)
    const totalNames = named('checks', 'total')
    const given = new Map(run.series.map((x) => [x.name, x.label]))
    const rules = named('checks', 'rule').map((name) => ({ rule: describeSeries(name)?.parts.rule ?? name, series: name, label: given.get(name), values: sum([name]) }))
    checks = { hazards, warnings, total: totalNames.length ? sum(totalNames) : null, rules, max: Math.max(1, peakOf(hazards), peakOf(warnings)) }
  }
  const residencyBudget = residency?.hasBudget ? residency.budget : null
  const heaps = heapLanesOf(run).map((info) =>
    heapLane(answer, info, placed.filter(({ place }) => place.heap?.key === info.key), mode, info.residencyBudget ? residencyBudget : null),
  )
  return { x, start: answer.start, frame: answer.frame, width: answer.width, heaps, residency, transient, checks }
}

/** The bucket holding frame index `frame` (the nearest one when the frame is outside the answer). */
export function bucketAt(lanes: Pick<LaneSet, 'start' | 'width'>, frame: number): number {
  const n = lanes.start.length
  if (n === 0) return -1
  const i = Math.floor((frame - lanes.start[0]) / lanes.width)
  return Math.max(0, Math.min(n - 1, i))
}
