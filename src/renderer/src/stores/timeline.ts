/**
 * The timeline of run A: the frame window on screen (zoom and pan), the lanes' series for that window at the
 * width the lanes have, the whole-capture overview, residency events, the cursor frame, and the A/B range with
 * its growth and leak candidates. Frames here are frame indices; `frameNumber` gives the capture's numbering.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import {
  RESIDENCY_EVENT_KINDS,
  type LeakAnswer,
  type ResourceRow,
  type ResidencyEventsAnswer,
  type RunSummary,
  type SeriesAnswer,
} from '../../../shared/ipc'
import { lowerBound } from '../../../shared/search'
import { useApi } from '../api'
import {
  centreWindow,
  clampWindow,
  fullWindow,
  panWindow,
  queryRange,
  sameWindow,
  zoomAnchor,
  zoomWindow,
  type FrameWindow,
} from '../lib/frameWindow'
import { LIVE_SERIES, placeSeries, TOTAL_SERIES } from '../../../shared/series'
import { buildLanes, laneSeries, type HeapMode, type LaneSet } from '../lib/lanes'
import { Latest } from '../lib/latest'
import { useRunsStore } from './runs'

/** Buckets of the whole-capture overview strip. */
export const OVERVIEW_RESOLUTION = 1600
/** Residency events fetched per run (the lane draws those in the window). */
export const EVENT_LIMIT = 500_000

/** The residency events of a run without residency: none. */
function noEvents(runId: string): ResidencyEventsAnswer {
  return { runId, frame: new Float64Array(0), kind: new Uint8Array(0), object: new Float64Array(0), bytes: new Float64Array(0), truncated: false }
}
/** Leak candidates listed for an A/B range. */
export const LEAK_ROWS = 500
/** Rows per page when an export reads every candidate (the engine's page limit). */
const LEAK_EXPORT_PAGE = 5000
/**
 * How long a zoom or pan waits for its window's data before redrawing with the data on hand: a fast answer
 * then costs one redraw, not two, and a slow one still moves the lanes at once.
 */
export const INTERIM_MS = 70
/**
 * Pixels per bucket the lanes ask for. One bucket a pixel redraws some 70 000 path points across the lanes on
 * every zoom; two pixels halve that and an area chart two pixels wide a step looks the same.
 */
export const BUCKET_PX = 2
/** Most frame numbers fetched to map indices to the capture's numbering (the schema's resolution limit). */
const FRAME_MAP_LIMIT = 100_000

export const EVICT = RESIDENCY_EVENT_KINDS.indexOf('evict')
export const MAKE_RESIDENT = RESIDENCY_EVENT_KINDS.indexOf('makeResident')

export interface Overview {
  x: Float64Array
  total: Float64Array
}

export interface FrameRange {
  a: number
  b: number
}

interface LaneRequest {
  runId: string
  window: FrameWindow
  mode: HeapMode
  width: number
}

export interface EventTally {
  evictions: number
  evictedBytes: number
  makeResident: number
  madeResidentBytes: number
}

/** Evictions and make-resident events with frame index in [from, to]. */
export function tallyEvents(events: ResidencyEventsAnswer | null, from: number, to: number): EventTally {
  const out = { evictions: 0, evictedBytes: 0, makeResident: 0, madeResidentBytes: 0 }
  if (!events) return out
  const end = lowerBound(events.frame, Math.floor(to) + 1)
  for (let i = lowerBound(events.frame, Math.ceil(from)); i < end; i++) {
    if (events.kind[i] === EVICT) {
      out.evictions++
      out.evictedBytes += events.bytes[i]
    } else if (events.kind[i] === MAKE_RESIDENT) {
      out.makeResident++
      out.madeResidentBytes += events.bytes[i]
    }
  }
  return out
}

/** The index of the first largest value (0 for none). */
function indexOfMost(values: ArrayLike<number>): number {
  let most = 0
  for (let i = 1; i < values.length; i++) if (values[i] > values[most]) most = i
  return most
}

export const useTimelineStore = defineStore('timeline', () => {
  const runs = useRunsStore()
  const run = computed<RunSummary | null>(() => runs.current)
  const frames = computed(() => run.value?.frames ?? 0)

  /** The window asked for (zoom and pan move it), and the window the lanes are drawn at, which follows it. */
  const view = shallowRef<FrameWindow>({ from: 0, to: 1 })
  const shown = shallowRef<FrameWindow>({ from: 0, to: 1 })
  let interim: ReturnType<typeof setTimeout> | undefined
  const plotWidth = ref(1000)
  const mode = ref<HeapMode>('heapBytes')
  const lanes = shallowRef<LaneSet | null>(null)
  /** The window the lanes' data was asked for, and a count of answers applied (views and benchmarks watch it). */
  const lanesWindow = shallowRef<FrameWindow | null>(null)
  const lanesSeq = ref(0)
  const overview = shallowRef<Overview | null>(null)
  const frameNumbers = shallowRef<Float64Array | null>(null)
  const events = shallowRef<ResidencyEventsAnswer | null>(null)
  const cursor = ref<number | null>(null)
  const range = shallowRef<FrameRange | null>(null)
  const leaks = shallowRef<LeakAnswer | null>(null)
  /** Lanes with nothing in them over the whole capture: drawn as a thin row. */
  const emptyLanes = shallowRef<ReadonlySet<string>>(new Set())
  const leaksLoading = ref(false)
  const queryError = ref<string | null>(null)

  const failed = (err: unknown) => {
    queryError.value = err instanceof Error ? err.message : String(err)
  }

  const laneQuery = new Latest<LaneRequest, SeriesAnswer>(
    (r) => {
      // marks for the benchmark's breakdown: asked, answered, (the view marks drawn)
      performance.mark('hs:lanes:asked')
      const series = run.value ? laneSeries(run.value, r.mode) : []
      const { from, to } = queryRange(r.window, frames.value)
      return useApi().series({ runId: r.runId, series, from, to, resolution: Math.max(1, Math.floor(r.width / BUCKET_PX)) })
    },
    (answer, r) => {
      performance.mark('hs:lanes:answered')
      if (!run.value) return
      lanes.value = markRaw(buildLanes(answer, r.mode, run.value))
      lanesWindow.value = r.window
      if (sameWindow(r.window, view.value)) {
        clearTimeout(interim)
        shown.value = view.value
      }
      lanesSeq.value++
      queryError.value = null
    },
    failed,
  )

  const leakQuery = new Latest<{ runId: string; range: FrameRange }, LeakAnswer>(
    (r) => useApi().leaks({ runId: r.runId, from: r.range.a, to: r.range.b, offset: 0, limit: LEAK_ROWS }),
    (answer) => {
      leaks.value = markRaw(answer)
      leaksLoading.value = false
    },
    (err) => {
      leaksLoading.value = false
      failed(err)
    },
  )

  function refresh(): Promise<void> {
    const r = run.value
    if (!r || r.frames === 0) return Promise.resolve()
    return laneQuery.request({ runId: r.runId, window: view.value, mode: mode.value, width: plotWidth.value })
  }

  async function load(r: RunSummary | null): Promise<void> {
    laneQuery.reset()
    leakQuery.reset()
    lanes.value = null
    lanesWindow.value = null
    overview.value = null
    frameNumbers.value = null
    events.value = null
    cursor.value = null
    range.value = null
    leaks.value = null
    queryError.value = null
    emptyLanes.value = new Set()
    if (!r || r.frames === 0) return
    view.value = fullWindow(r.frames)
    shown.value = view.value
    await whole(r)
  }

  /** What covers the whole run: the frame numbers, the overview, the residency events; and the lanes. */
  async function whole(r: RunSummary): Promise<void> {
    const api = useApi()
    const runId = r.runId
    try {
      const [map, over, ev] = await Promise.all([
        api.series({ runId, series: [LIVE_SERIES.count], from: 0, to: r.frames, resolution: Math.min(r.frames, FRAME_MAP_LIMIT) }),
        api.series({ runId, series: [TOTAL_SERIES.heapBytes], from: 0, to: r.frames, resolution: OVERVIEW_RESOLUTION }),
        // residency events only where the run offers residency
        r.capabilities.residency ? api.residencyEvents({ runId, from: 0, to: r.frames, limit: EVENT_LIMIT }) : Promise.resolve(noEvents(runId)),
        refresh(),
      ])
      if (run.value?.runId !== runId) return
      frameNumbers.value = map.width === 1 ? markRaw(map.frame) : null
      void findEmptyLanes(r)
      const total = over.series[TOTAL_SERIES.heapBytes]?.max ?? new Float64Array(over.start.length)
      const x = new Float64Array(over.start.length)
      for (let i = 0; i < x.length; i++) x[i] = over.start[i] + (over.width - 1) / 2
      overview.value = markRaw({ x, total })
      events.value = markRaw(ev)
      // the cursor starts on the frame the heaps held the most: where a person looks first
      let at = over.start[indexOfMost(total)] ?? 0
      if (cursor.value === null && over.width > 1 && total.length > 0) {
        // the overview's bucket holds several frames: its frame of the most, from the bucket at one frame a bucket
        const to = Math.min(r.frames, at + over.width)
        const fine = await api.series({ runId, series: [TOTAL_SERIES.heapBytes], from: at, to, resolution: to - at })
        if (run.value?.runId !== runId) return
        const held = fine.series[TOTAL_SERIES.heapBytes]?.max
        if (held && held.length > 0) at = fine.start[indexOfMost(held)]
      }
      if (cursor.value === null) cursor.value = Math.min(r.frames - 1, at)
    } catch (err) {
      failed(err)
    }
  }

  /**
   * A run followed as it is written has more frames: a window that showed every frame goes on showing every frame
   * (the timeline grows); a window zoomed in stays where it is. The cursor stays on its frame.
   */
  async function grow(r: RunSummary, before: number): Promise<void> {
    if (r.frames === 0) return
    if (before === 0) return load(r)
    const all = view.value.from === 0 && view.value.to >= before - 1
    if (all) {
      view.value = fullWindow(r.frames)
      shown.value = view.value
    }
    await whole(r)
  }

  // immediate: a store first used after a run opened loads it at once
  watch(
    run,
    (r, previous) => {
      if (r?.runId !== previous?.runId) void load(r)
      else if (r && previous && r.frames !== previous.frames) void grow(r, previous.frames)
    },
    { immediate: true },
  )

  /**
   * The lanes with nothing in them over the whole capture (a READBACK heap never used, no render graph), to draw
   * folded: the peak of each lane's series, one bucket over every frame.
   */
  async function findEmptyLanes(r: RunSummary): Promise<void> {
    // a heap lane folds by the bytes it held; the transient lane by its heaps; residency by the bytes resident
    const lanesOf = new Map<string, string[]>()
    const laneOf = (place: ReturnType<typeof placeSeries>): string | null => {
      if (place?.heap?.foldsEmpty && place.heapRoles?.some((role) => role.part === 'held')) return place.heap.key
      if (place?.transient === 'heap' && r.capabilities.transients) return 'transient'
      if (place?.residency === 'resident' && r.capabilities.residency) return 'residency'
      return null
    }
    for (const { name } of r.series) {
      const key = laneOf(placeSeries(name, r))
      if (key) lanesOf.set(key, [...(lanesOf.get(key) ?? []), name])
    }
    const names = new Set(r.series.map((s) => s.name))
    const wanted = [...lanesOf.values()].flat().filter((n) => names.has(n))
    if (!wanted.length) return
    const answer = await useApi().series({ runId: r.runId, series: wanted, from: 0, to: r.frames, resolution: 1 })
    if (run.value?.runId !== r.runId) return
    const empty = new Set<string>()
    for (const [lane, series] of lanesOf) {
      const present = series.filter((n) => names.has(n))
      if (present.length && present.every((n) => (answer.series[n]?.max[0] ?? 0) === 0)) empty.add(lane)
    }
    emptyLanes.value = empty
  }

  function frameNumber(index: number): number {
    const map = frameNumbers.value
    const i = Math.round(index)
    if (map && i >= 0 && i < map.length) return map[i]
    return (run.value?.firstFrame ?? 0) + i
  }

  /** The capture numbers its frames without gaps: frame number = first frame + index. */
  const contiguous = computed(() => {
    const r = run.value
    return r ? r.lastFrame - r.firstFrame === r.frames - 1 : true
  })

  const cursorFrameNumber = computed(() => (cursor.value === null ? null : frameNumber(cursor.value)))
  const viewTally = computed(() => tallyEvents(events.value, view.value.from, view.value.to))
  const totalTally = computed(() => tallyEvents(events.value, 0, frames.value))

  function setWindow(next: FrameWindow): Promise<void> {
    const w = clampWindow(next, frames.value)
    if (sameWindow(w, view.value)) return Promise.resolve()
    view.value = w
    clearTimeout(interim)
    interim = setTimeout(() => (shown.value = view.value), INTERIM_MS)
    return refresh()
  }

  /** Zoom by `factor` (below 1 zooms in) around a frame (the cursor, or the window's centre). */
  function zoom(factor: number, around?: number): Promise<void> {
    const w = view.value
    const at = around ?? zoomAnchor(w, cursor.value)
    return setWindow(zoomWindow(w, factor, at, frames.value))
  }

  function pan(deltaFrames: number): Promise<void> {
    return setWindow(panWindow(view.value, deltaFrames, frames.value))
  }

  function resetZoom(): Promise<void> {
    return setWindow(fullWindow(frames.value))
  }

  function zoomToRange(): Promise<void> {
    const r = range.value
    if (!r) return Promise.resolve()
    return setWindow({ from: r.a, to: r.b })
  }

  function setMode(next: HeapMode): Promise<void> {
    if (mode.value === next) return Promise.resolve()
    mode.value = next
    return refresh()
  }

  function setPlotWidth(px: number): Promise<void> {
    const width = Math.max(1, Math.round(px))
    if (Math.abs(width - plotWidth.value) < 2) return Promise.resolve()
    plotWidth.value = width
    return refresh()
  }

  function setCursor(index: number | null): void {
    if (index === null || frames.value === 0) {
      cursor.value = null
      return
    }
    cursor.value = Math.max(0, Math.min(frames.value - 1, Math.round(index)))
  }

  /** The frame index of a frame number of the capture, or null when it has no such frame. */
  function indexOfFrameNumber(n: number): number | null {
    const map = frameNumbers.value
    if (map) {
      const i = lowerBound(map, n)
      return i < map.length && map[i] === n ? i : null
    }
    const r = run.value
    if (!r || !contiguous.value) return null
    const i = n - r.firstFrame
    return Number.isInteger(i) && i >= 0 && i < r.frames ? i : null
  }

  /** Put the cursor on a frame number, the window moved to show it; false when the capture has no such frame. */
  function goToFrame(n: number): boolean {
    const i = indexOfFrameNumber(n)
    if (i === null) return false
    setCursor(i)
    if (i < view.value.from || i > view.value.to) void setWindow(centreWindow(view.value, i, frames.value))
    return true
  }

  /** Move the cursor by `delta` frames, keeping it in view. */
  function stepCursor(delta: number): void {
    const from = cursor.value ?? Math.round(view.value.from)
    setCursor(from + delta)
    const c = cursor.value
    if (c !== null && (c < view.value.from || c > view.value.to)) void setWindow(centreWindow(view.value, c, frames.value))
  }

  function setRange(a: number, b: number): Promise<void> {
    const r = run.value
    if (!r) return Promise.resolve()
    const lo = Math.max(0, Math.min(r.frames - 1, Math.round(Math.min(a, b))))
    const hi = Math.max(0, Math.min(r.frames - 1, Math.round(Math.max(a, b))))
    if (hi <= lo) return Promise.resolve()
    range.value = { a: lo, b: hi }
    leaksLoading.value = true
    return leakQuery.request({ runId: r.runId, range: range.value })
  }

  /** Every leak candidate of the range, page by page (the table holds the largest LEAK_ROWS; an export all of them). */
  async function allLeakRows(): Promise<ResourceRow[]> {
    const r = run.value
    const at = range.value
    if (!r || !at) return []
    const out: ResourceRow[] = []
    for (;;) {
      const page = await useApi().leaks({ runId: r.runId, from: at.a, to: at.b, offset: out.length, limit: LEAK_EXPORT_PAGE, groups: false })
      out.push(...page.rows)
      if (page.rows.length === 0 || out.length >= page.total) return out
    }
  }

  function clearRange(): void {
    leakQuery.reset()
    range.value = null
    leaks.value = null
    leaksLoading.value = false
  }

  return {
    run,
    frames,
    view,
    shown,
    plotWidth,
    mode,
    lanes,
    lanesWindow,
    lanesSeq,
    overview,
    frameNumbers,
    events,
    cursor,
    range,
    leaks,
    leaksLoading,
    emptyLanes,
    queryError,
    contiguous,
    cursorFrameNumber,
    viewTally,
    totalTally,
    load,
    refresh,
    frameNumber,
    setWindow,
    zoom,
    pan,
    resetZoom,
    zoomToRange,
    setMode,
    setPlotWidth,
    setCursor,
    goToFrame,
    indexOfFrameNumber,
    stepCursor,
    setRange,
    allLeakRows,
    clearRange,
  }
})
