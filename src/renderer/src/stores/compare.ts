/**
 * Compare: run A and run B side by side on one frame window and one cursor (B aligned by frame index), the delta
 * of a chosen series, the `heapscope report` figures with their deltas, and the resource diff at the cursor.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type { CompareSeriesAnswer, ResourceDiffAnswer, RunReport, RunSummary } from '../../../shared/ipc'
import { totalPartOf } from '../../../shared/series'
import { useApi } from '../api'
import { reportDeltas, type DeltaRow } from '../lib/compare'
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
import { Latest } from '../lib/latest'
import { useRunsStore } from './runs'

export const DELTA_SERIES = [
  'total.heapBytes',
  'heap.DEFAULT.heapBytes',
  'heap.UPLOAD.heapBytes',
  'heap.READBACK.heapBytes',
  'total.requestedBytes',
  'residency.residentBytes',
  'transient.heapBytes',
  'resources.live',
] as const
export type DeltaSeries = (typeof DELTA_SERIES)[number]

/** Diff entries fetched at once (the engine's page limit); the rest are counted, and exported on demand. */
export const DIFF_ROWS = 5000

export type DiffStatus = 'onlyA' | 'onlyB' | 'changed'

export interface CompareSide {
  layers: { key: string; values: Float64Array }[]
  total: Float64Array
}

export interface CompareLanes {
  x: Float64Array
  start: Float64Array
  width: number
  a: CompareSide
  b: CompareSide
  /** B − A of the chosen series' bucket maxima (NaN where B has no frame). */
  delta: Float64Array
  deltaSeries: string
  /** One scale for both sides. */
  max: number
  deltaMin: number
  deltaMax: number
}

/** A layer of the sides: its name and the series it reads (a placement's heap bytes, a memory type's allocation). */
export interface CompareLayer {
  key: string
  series: string
}

function side(answer: CompareSeriesAnswer['a'], layerList: CompareLayer[], n: number): CompareSide {
  const layers: CompareSide['layers'] = []
  for (const { key: p, series } of layerList) {
    const s = answer.series[series]
    if (!s) continue
    const values = new Float64Array(n)
    let any = false
    for (let i = 0; i < n; i++) {
      const v = i < s.mean.length ? s.mean[i] : NaN
      values[i] = v
      if (v > 0) any = true
    }
    if (any) layers.push({ key: p, values })
  }
  const t = answer.series['total.heapBytes']
  const total = new Float64Array(n)
  for (let i = 0; i < n; i++) total[i] = t && i < t.max.length ? t.max[i] : NaN
  return { layers, total }
}

export function buildCompareLanes(answer: CompareSeriesAnswer, placements: CompareLayer[], deltaSeries: string): CompareLanes {
  const n = answer.a.start.length
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) x[i] = answer.a.start[i] + (answer.a.width - 1) / 2
  const a = side(answer.a, placements, n)
  const b = side(answer.b, placements, n)
  let max = 0
  for (const s of [a, b]) {
    for (let i = 0; i < n; i++) {
      let stack = 0
      for (const l of s.layers) stack += Number.isNaN(l.values[i]) ? 0 : l.values[i]
      max = Math.max(max, stack, Number.isNaN(s.total[i]) ? 0 : s.total[i])
    }
  }
  const delta = answer.delta[deltaSeries] ?? new Float64Array(n).fill(NaN)
  let deltaMin = 0
  let deltaMax = 0
  for (let i = 0; i < delta.length; i++) {
    if (Number.isNaN(delta[i])) continue
    deltaMin = Math.min(deltaMin, delta[i])
    deltaMax = Math.max(deltaMax, delta[i])
  }
  return { x, start: answer.a.start, width: answer.a.width, a, b, delta, deltaSeries, max, deltaMin, deltaMax }
}

export const useCompareStore = defineStore('compare', () => {
  const runs = useRunsStore()
  const a = computed<RunSummary | null>(() => runs.current)
  const b = computed<RunSummary | null>(() => runs.other)
  const ready = computed(() => a.value !== null && b.value !== null)
  const frames = computed(() => a.value?.frames ?? 0)

  const view = shallowRef<FrameWindow>({ from: 0, to: 1 })
  const plotWidth = ref(600)
  const cursor = ref<number | null>(null)
  const deltaSeries = ref<DeltaSeries>('total.heapBytes')
  const lanes = shallowRef<CompareLanes | null>(null)
  const lanesSeq = ref(0)
  const reports = shallowRef<{ a: RunReport; b: RunReport } | null>(null)
  const diff = shallowRef<ResourceDiffAnswer | null>(null)
  const diffStatus = ref<DiffStatus | 'all'>('all')
  const diffFrame = ref<number | null>(null)
  const error = ref<string | null>(null)
  const active = ref(false)
  /**
   * B's frames against A's on the shared axis: B's frame index = A's + offsetB. By default the runs line up by frame
   * number (a capture that started at frame 100 beside one from frame 0); the user may shift B by any offset.
   */
  const offsetB = ref(0)
  /** A and B as two lanes (each stacked by placement) or overlaid in one lane, the delta beneath either way. */
  const layout = ref<'stacked' | 'overlaid'>('stacked')
  const alignedOffset = computed(() => (a.value && b.value ? a.value.firstFrame - b.value.firstFrame : 0))

  /** What the sides stack: the parts of either run's total (placements, memory types by name), in their order. */
  const placements = computed<CompareLayer[]>(() => {
    const parts = new Map<string, { key: string; series: string; order: number }>()
    for (const run of [a.value, b.value]) {
      for (const { name } of run?.series ?? []) {
        const part = totalPartOf(name, run!)
        if (part && !parts.has(part.key)) parts.set(part.key, { key: part.key, series: name, order: part.order })
      }
    }
    return [...parts.values()].sort((x, y) => x.order - y.order).map(({ key, series }) => ({ key, series }))
  })
  /** The delta series both runs have. */
  const deltaChoices = computed(() => {
    const inA = new Set(a.value?.series.map((s) => s.name) ?? [])
    const inB = new Set(b.value?.series.map((s) => s.name) ?? [])
    return DELTA_SERIES.filter((name) => inA.has(name) && inB.has(name))
  })

  const deltas = computed<DeltaRow[]>(() => (reports.value ? reportDeltas(reports.value.a, reports.value.b) : []))

  const failed = (err: unknown) => {
    error.value = err instanceof Error ? err.message : String(err)
  }

  const seriesQuery = new Latest<{ runA: string; runB: string; view: FrameWindow; width: number; delta: string; offsetB: number }, CompareSeriesAnswer>(
    (r) => {
      const series = [...new Set([...placements.value.map((p) => p.series), ...DELTA_SERIES])].slice(0, 64)
      const { from, to } = queryRange(r.view, frames.value)
      return useApi().compareSeries({ runA: r.runA, runB: r.runB, series, from, to, resolution: Math.max(1, Math.floor(r.width)), offsetB: r.offsetB })
    },
    (answer, r) => {
      lanes.value = markRaw(buildCompareLanes(answer, placements.value, r.delta))
      lanesSeq.value++
    },
    failed,
  )

  const diffQuery = new Latest<{ runA: string; runB: string; frame: number | null; status: DiffStatus | 'all' }, ResourceDiffAnswer>(
    (r) => {
      const framesB = b.value?.frames ?? 0
      const frame = r.frame
      return useApi().resourceDiff({
        runA: r.runA,
        runB: r.runB,
        ...(frame === null ? {} : { frameA: frame, frameB: Math.max(0, Math.min(frame + offsetB.value, framesB - 1)) }),
        ...(r.status === 'all' ? {} : { status: [r.status] }),
        offset: 0,
        limit: DIFF_ROWS,
      })
    },
    (answer, r) => {
      diff.value = markRaw(answer)
      diffFrame.value = r.frame
    },
    failed,
  )

  function refresh(): Promise<void> {
    if (!a.value || !b.value) return Promise.resolve()
    return seriesQuery.request({
      runA: a.value.runId,
      runB: b.value.runId,
      view: view.value,
      width: plotWidth.value,
      delta: deltaSeries.value,
      offsetB: offsetB.value,
    })
  }

  /** Shift B against A (frames); the lanes and the diff at the cursor follow. */
  function setOffset(next: number): Promise<void> {
    offsetB.value = Number.isFinite(next) ? Math.trunc(next) : 0
    void refreshDiff()
    return refresh()
  }

  function refreshDiff(): Promise<void> {
    if (!a.value || !b.value) return Promise.resolve()
    return diffQuery.request({ runA: a.value.runId, runB: b.value.runId, frame: cursor.value, status: diffStatus.value })
  }

  async function load(): Promise<void> {
    seriesQuery.reset()
    diffQuery.reset()
    lanes.value = null
    reports.value = null
    diff.value = null
    error.value = null
    const runA = a.value
    const runB = b.value
    if (!runA || !runB) return
    view.value = fullWindow(runA.frames)
    cursor.value = null
    // line the runs up by frame number until the user shifts them
    offsetB.value = alignedOffset.value
    try {
      const api = useApi()
      const [ra, rb] = await Promise.all([api.report(runA.runId), api.report(runB.runId), refresh(), refreshDiff()])
      if (a.value?.runId === runA.runId && b.value?.runId === runB.runId) reports.value = markRaw({ a: ra, b: rb })
    } catch (err) {
      failed(err)
    }
  }

  watch(
    () => `${a.value?.runId ?? ''}|${b.value?.runId ?? ''}`,
    () => {
      if (active.value || !ready.value) void load()
    },
  )

  function setActive(on: boolean): void {
    const was = active.value
    active.value = on
    if (on && !was && ready.value && !lanes.value) void load()
  }

  function setWindow(next: FrameWindow): Promise<void> {
    const w = clampWindow(next, frames.value)
    if (sameWindow(w, view.value)) return Promise.resolve()
    view.value = w
    return refresh()
  }

  function zoom(factor: number, around?: number): Promise<void> {
    const w = view.value
    const at = around ?? zoomAnchor(w, cursor.value)
    return setWindow(zoomWindow(w, factor, at, frames.value))
  }

  function pan(delta: number): Promise<void> {
    return setWindow(panWindow(view.value, delta, frames.value))
  }

  function resetZoom(): Promise<void> {
    return setWindow(fullWindow(frames.value))
  }

  function setPlotWidth(px: number): Promise<void> {
    const width = Math.max(1, Math.round(px))
    if (Math.abs(width - plotWidth.value) < 2) return Promise.resolve()
    plotWidth.value = width
    return refresh()
  }

  function setCursor(index: number | null): Promise<void> {
    cursor.value = index === null ? null : Math.max(0, Math.min(frames.value - 1, Math.round(index)))
    return refreshDiff()
  }

  function stepCursor(delta: number): Promise<void> {
    const next = (cursor.value ?? Math.round(view.value.from)) + delta
    const done = setCursor(next)
    const c = cursor.value
    if (c !== null && (c < view.value.from || c > view.value.to)) void setWindow(centreWindow(view.value, c, frames.value))
    return done
  }

  function setDeltaSeries(name: DeltaSeries): Promise<void> {
    deltaSeries.value = name
    return refresh()
  }

  function setDiffStatus(status: DiffStatus | 'all'): Promise<void> {
    diffStatus.value = status
    return refreshDiff()
  }

  /** Every diff entry of the current status (for CSV), beyond the first page. */
  async function allDiffEntries(): Promise<ResourceDiffAnswer['entries']> {
    const runA = a.value
    const runB = b.value
    if (!runA || !runB) return []
    const out: ResourceDiffAnswer['entries'] = []
    const frame = diffFrame.value
    for (let offset = 0; ; offset += DIFF_ROWS) {
      const page = await useApi().resourceDiff({
        runA: runA.runId,
        runB: runB.runId,
        ...(frame === null ? {} : { frameA: frame, frameB: Math.min(frame, Math.max(0, runB.frames - 1)) }),
        ...(diffStatus.value === 'all' ? {} : { status: [diffStatus.value] }),
        offset,
        limit: DIFF_ROWS,
      })
      out.push(...page.entries)
      if (page.entries.length < DIFF_ROWS || out.length >= page.total) break
    }
    return out
  }

  return {
    a,
    b,
    layout,
    ready,
    frames,
    view,
    plotWidth,
    cursor,
    deltaSeries,
    lanes,
    lanesSeq,
    reports,
    deltas,
    diff,
    diffStatus,
    diffFrame,
    error,
    active,
    placements,
    deltaChoices,
    load,
    refresh,
    setActive,
    setWindow,
    zoom,
    pan,
    resetZoom,
    setPlotWidth,
    setCursor,
    stepCursor,
    setDeltaSeries,
    setDiffStatus,
    allDiffEntries,
    offsetB,
    alignedOffset,
    setOffset,
  }
})
