/**
 * ECharts options of the lanes, from plain lane data: stacked placements per heap with the waste band and the
 * budget, residency with eviction and make-resident markers and over-budget shading, transient heaps against
 * their requests, and the compare view's sides and delta. Every lane has the same grid margins and a hidden
 * value x axis over the frame window, so one pixel mapping (frameWindow.ts) serves all of them and the overlays.
 */
import type { EChartsOption, SeriesOption } from 'echarts'
import { formatBytes, formatCount } from '../../../shared/units'
import type { FrameWindow } from './frameWindow'
import type { HeapLane, LaneSet } from './lanes'
import { bucketAt } from './lanes'
import { placementColor, type ChartTheme } from './palette'
import { byteAxis, formatAxisBytes, formatAxisCount } from './ticks'
import { tooltipElement, type TipLine } from './tooltip'

/** Plot margins inside every lane chart, in pixels: the y labels live in `left`. */
export const GRID = { left: 62, right: 14, top: 8, bottom: 6 } as const

/** One lane of a LanePane: its chart's option is built for the height the lane gets. */
export interface LaneSpec {
  id: string
  title: string
  /** Share of the pane's height. */
  weight: number
  minHeight?: number
  testid?: string
  /** Data attributes on the lane's chart (what it draws, for tests and benchmarks). */
  attrs?: Record<string, string | number>
  build: (height: number) => EChartsOption
}

export type Translate = (key: string, params?: Record<string, unknown>) => string

export interface LaneContext {
  theme: ChartTheme
  view: FrameWindow
  /** Chart height in pixels (how many y ticks fit). */
  height: number
  t: Translate
  /** The capture's number of a frame index. */
  frameNumber: (index: number) => number
}

const hatches = new Map<string, unknown>()

/** A diagonal hatch in `color` as an ECharts image pattern (plain colour where canvas is unavailable). */
export function hatch(color: string): unknown {
  const cached = hatches.get(color)
  if (cached) return cached
  let pattern: unknown = color
  if (typeof document !== 'undefined') {
    const canvas = document.createElement('canvas')
    canvas.width = 6
    canvas.height = 6
    const g = canvas.getContext?.('2d')
    if (g) {
      g.strokeStyle = color
      g.lineWidth = 1.2
      g.beginPath()
      g.moveTo(-1, 7)
      g.lineTo(7, -1)
      g.moveTo(-1, 1)
      g.lineTo(1, -1)
      g.moveTo(5, 7)
      g.lineTo(7, 5)
      g.stroke()
      pattern = { image: canvas, repeat: 'repeat' }
    }
  }
  hatches.set(color, pattern)
  return pattern
}

function pairs(x: Float64Array, values: Float64Array): [number, number][] {
  const out = new Array<[number, number]>(x.length)
  for (let i = 0; i < x.length; i++) out[i] = [x[i], values[i]]
  return out
}

function positive(values: Float64Array, minus?: Float64Array): Float64Array {
  const out = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = Math.max(0, values[i] - (minus ? minus[i] : 0))
  return out
}

/** "Frame 120", or "Frame 120–127 (8 frames)" for a bucket of many frames. */
export function bucketTitle(ctx: LaneContext, start: number, width: number): string {
  const a = ctx.frameNumber(start)
  if (width <= 1) return ctx.t('tip.frame', { n: a })
  return ctx.t('tip.frames', { a, b: ctx.frameNumber(start + width - 1), n: width })
}

function ticksFor(height: number): number {
  return Math.max(1, Math.min(6, Math.floor((height - GRID.top - GRID.bottom) / 24)))
}

function base(ctx: LaneContext, max: number, unit: 'bytes' | 'count', formatter: (params: unknown) => HTMLElement | string): EChartsOption {
  const { theme } = ctx
  const axis = unit === 'bytes' ? byteAxis(max, ticksFor(ctx.height)) : countAxis(max, ticksFor(ctx.height))
  return {
    animation: false,
    backgroundColor: 'transparent',
    grid: { ...GRID },
    xAxis: { type: 'value', min: ctx.view.from, max: ctx.view.to, show: false },
    yAxis: {
      type: 'value',
      min: 0,
      max: axis.max,
      interval: axis.interval,
      axisLabel: {
        color: theme.muted,
        fontSize: 10,
        margin: 6,
        formatter: (v: number) => (unit === 'bytes' ? formatAxisBytes(v) : formatAxisCount(v)),
      },
      splitLine: { lineStyle: { color: theme.grid, width: 1 } },
      axisLine: { show: false },
      axisTick: { show: false },
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      transitionDuration: 0,
      backgroundColor: theme.tooltipBg,
      borderColor: theme.tooltipBorder,
      borderWidth: 1,
      padding: [6, 9],
      className: 'hs-echarts-tip',
      textStyle: { color: theme.text, fontSize: 12 },
      axisPointer: { type: 'line', lineStyle: { color: theme.hover, width: 1 }, animation: false },
      formatter: formatter as never,
    },
  }
}

/** A 1-2-5 interval for a count axis. */
export function countAxis(max: number, ticks: number): { max: number; interval: number } {
  if (!(max > 0)) return { max: 1, interval: 1 }
  const raw = max / Math.max(1, ticks)
  const power = 10 ** Math.floor(Math.log10(raw))
  const interval = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power
  const step = Math.max(1, interval)
  return { max: Math.ceil(max / step) * step, interval: step }
}

function dataIndexOf(params: unknown): number {
  const list = Array.isArray(params) ? params : [params]
  const first = list[0] as { dataIndex?: number } | undefined
  return first?.dataIndex ?? -1
}

const line = (name: string, data: [number, number][], color: string, extra: Record<string, unknown> = {}): SeriesOption =>
  ({
    name,
    type: 'line',
    data,
    symbol: 'none',
    showSymbol: false,
    silent: true,
    emphasis: { disabled: true },
    color,
    lineStyle: { color, width: 1 },
    ...extra,
  }) as SeriesOption

/** Budget drawn on a lane only when it is near the data; a far budget would flatten everything under it. */
export function budgetVisible(dataMax: number, budgetMax: number): boolean {
  return budgetMax > 0 && budgetMax <= Math.max(dataMax * 2.5, 1)
}

export function heapLaneOption(lane: HeapLane, lanes: LaneSet, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const { x } = lanes
  const budget = lane.heap === 'DEFAULT' && lanes.residency.hasBudget ? lanes.residency.budget : null
  let budgetMax = 0
  if (budget) for (let i = 0; i < budget.length; i++) if (budget[i] > budgetMax) budgetMax = budget[i]
  const showBudget = budget !== null && budgetVisible(lane.max, budgetMax)
  const series: SeriesOption[] = lane.layers.map(
    (layer) =>
      ({
        name: layer.key,
        type: 'line',
        stack: 'layers',
        data: pairs(x, layer.values),
        symbol: 'none',
        showSymbol: false,
        silent: true,
        emphasis: { disabled: true },
        color: placementColor(layer.key),
        lineStyle: { width: 0.6, color: placementColor(layer.key) },
        areaStyle: { color: placementColor(layer.key), opacity: 0.82 },
      }) as SeriesOption,
  )
  // the waste band: from what requests asked for up to what the heap holds
  series.push(line('requested', pairs(x, lane.requested), theme.waste, { stack: 'waste', lineStyle: { color: theme.waste, width: 1, type: 'dotted' } }))
  series.push(
    line('waste', pairs(x, positive(lane.held, lane.requested)), theme.waste, {
      stack: 'waste',
      lineStyle: { color: theme.text, width: 1, opacity: 0.7 },
      areaStyle: { color: hatch(theme.waste), opacity: 1 },
    }),
  )
  if (lanes.width > 1) series.push(line('peak', pairs(x, lane.peak), theme.text, { lineStyle: { color: theme.text, width: 1, opacity: 0.45, type: 'dashed' } }))
  if (showBudget && budget) series.push(line('budget', pairs(x, budget), theme.budget, { step: 'end', lineStyle: { color: theme.budget, width: 1.3, type: 'dashed' } }))
  const max = Math.max(lane.max, showBudget ? budgetMax : 0)
  const option = base(ctx, max, 'bytes', (params) => {
    const i = dataIndexOf(params)
    if (i < 0) return ''
    const lines: TipLine[] = []
    for (let k = lane.layers.length - 1; k >= 0; k--) {
      const layer = lane.layers[k]
      const v = layer.values[i]
      if (v > 0) lines.push({ label: t(`placement.${layer.key}`), value: formatBytes(v), color: placementColor(layer.key) })
    }
    lines.push('separator')
    lines.push({ label: t('tip.held'), value: formatBytes(lane.held[i]), strong: true })
    lines.push({ label: t('tip.requested'), value: formatBytes(lane.requested[i]) })
    lines.push({ label: t('tip.waste'), value: formatBytes(Math.max(0, lane.held[i] - lane.requested[i])), color: theme.waste, hatched: true })
    lines.push({ label: t('tip.alignment'), value: formatBytes(lane.alignment[i]), muted: true })
    lines.push({ label: t('tip.poolFree'), value: formatBytes(lane.poolFree[i]), muted: true })
    lines.push({ label: t('tip.pending'), value: formatBytes(lane.pending[i]), muted: true })
    if (lanes.width > 1) lines.push({ label: t('tip.peak'), value: formatBytes(lane.peak[i]) })
    if (budget && !Number.isNaN(budget[i])) lines.push({ label: t('tip.budget'), value: formatBytes(budget[i]), color: theme.budget })
    return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines, lanes.width > 1 ? t('tip.meanNote') : undefined)
  })
  option.series = series
  return option
}

export interface ResidencyMarkers {
  /** [frame index, y, bytes] of each event in the window. */
  evict: [number, number, number][]
  make: [number, number, number][]
  /** Largest event in the window: marker sizes scale to it. */
  maxBytes: number
  /** Events per bucket index, for the tooltip. */
  perBucket: Map<number, { evictions: number; evictedBytes: number; made: number; madeBytes: number }>
}

/** Marker size in pixels: by the square root of bytes (area ∝ bytes), 5 to 18 px. */
export function markerSize(bytes: number, maxBytes: number): number {
  if (!(maxBytes > 0)) return 6
  return 5 + 13 * Math.sqrt(Math.max(0, bytes) / maxBytes)
}

export function residencyLaneOption(lanes: LaneSet, markers: ResidencyMarkers, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const r = lanes.residency
  const series: SeriesOption[] = [
    line('resident', pairs(lanes.x, r.resident), theme.resident, {
      lineStyle: { color: theme.resident, width: 1.4 },
      areaStyle: { color: theme.resident, opacity: 0.22 },
      markArea: r.overBudget.length
        ? {
            silent: true,
            itemStyle: { color: theme.overBudget },
            data: r.overBudget.map(([a, b]) => [{ xAxis: a - 0.5 }, { xAxis: b + 0.5 }]),
          }
        : undefined,
    }),
  ]
  if (r.hasBudget) {
    series.push(line('budget', pairs(lanes.x, r.budget), theme.budget, { step: 'end', lineStyle: { color: theme.budget, width: 1.3, type: 'dashed' } }))
  }
  const scatter = (name: string, data: [number, number, number][], color: string, rotate: number): SeriesOption =>
    ({
      name,
      type: 'scatter',
      data,
      symbol: 'triangle',
      symbolRotate: rotate,
      symbolSize: (value: number[]) => markerSize(value[2], markers.maxBytes),
      itemStyle: { color, opacity: 0.9, borderColor: theme.background, borderWidth: 0.6 },
      silent: true,
      emphasis: { disabled: true },
      z: 5,
      large: data.length > 5000,
    }) as SeriesOption
  series.push(scatter('makeResident', markers.make, theme.makeResident, 0))
  series.push(scatter('evict', markers.evict, theme.evict, 180))
  const option = base(ctx, r.max, 'bytes', (params) => {
    const list = (Array.isArray(params) ? params : [params]) as { seriesName?: string; dataIndex: number }[]
    const i = list.find((p) => p.seriesName === 'resident')?.dataIndex ?? -1
    if (i < 0) return ''
    const lines: TipLine[] = [{ label: t('tip.resident'), value: formatBytes(r.resident[i]), color: theme.resident, strong: true }]
    if (r.hasBudget && !Number.isNaN(r.budget[i])) lines.push({ label: t('tip.budget'), value: formatBytes(r.budget[i]), color: theme.budget })
    const events = markers.perBucket.get(i)
    if (events?.evictions) {
      lines.push({ label: t('tip.evicted', { n: events.evictions }), value: formatBytes(events.evictedBytes), color: theme.evict })
    }
    if (events?.made) lines.push({ label: t('tip.madeResident', { n: events.made }), value: formatBytes(events.madeBytes), color: theme.makeResident })
    return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines)
  })
  option.series = series
  return option
}

/** Markers for the residency events in the window, placed on the resident curve. */
export function residencyMarkers(
  lanes: LaneSet,
  events: { frame: Float64Array; kind: Uint8Array; bytes: Float64Array } | null,
  view: FrameWindow,
  kinds: { evict: number; make: number },
): ResidencyMarkers {
  const out: ResidencyMarkers = { evict: [], make: [], maxBytes: 0, perBucket: new Map() }
  if (!events) return out
  for (let k = 0; k < events.frame.length; k++) {
    const f = events.frame[k]
    if (f < view.from - 0.5 || f > view.to + 0.5) continue
    const kind = events.kind[k]
    if (kind !== kinds.evict && kind !== kinds.make) continue
    const i = bucketAt(lanes, f)
    const y = i >= 0 ? lanes.residency.resident[i] : 0
    const bytes = events.bytes[k]
    out.maxBytes = Math.max(out.maxBytes, bytes)
    let tally = out.perBucket.get(i)
    if (!tally) {
      tally = { evictions: 0, evictedBytes: 0, made: 0, madeBytes: 0 }
      out.perBucket.set(i, tally)
    }
    if (kind === kinds.evict) {
      out.evict.push([f, y, bytes])
      tally.evictions++
      tally.evictedBytes += bytes
    } else {
      out.make.push([f, y, bytes])
      tally.made++
      tally.madeBytes += bytes
    }
  }
  return out
}

export function transientLaneOption(lanes: LaneSet, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const tr = lanes.transient
  const series: SeriesOption[] = [
    line('transientHeap', pairs(lanes.x, tr.heap), theme.transientHeap, {
      stack: 'transient',
      lineStyle: { color: theme.transientHeap, width: 1.2 },
      areaStyle: { color: theme.transientHeap, opacity: 0.55 },
    }),
    line('saving', pairs(lanes.x, positive(tr.requested, tr.heap)), theme.saving, {
      stack: 'transient',
      lineStyle: { width: 0 },
      areaStyle: { color: hatch(theme.saving), opacity: 1 },
    }),
    // the sum of requests, also where it stays under the heaps (small graphs in a minimum-size heap)
    line('requested', pairs(lanes.x, tr.requested), theme.transientRequested, {
      lineStyle: { color: theme.transientRequested, width: 1.2, type: 'dashed' },
    }),
  ]
  const option = base(ctx, tr.max, 'bytes', (params) => {
    const i = dataIndexOf(params)
    if (i < 0) return ''
    const lines: TipLine[] = [
      { label: t('tip.transientHeap'), value: formatBytes(tr.heap[i]), color: theme.transientHeap, strong: true },
      { label: t('tip.transientRequested'), value: formatBytes(tr.requested[i]), color: theme.transientRequested },
      { label: t('tip.saving'), value: formatBytes(tr.saving[i]), color: theme.saving, hatched: true },
    ]
    return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines)
  })
  option.series = series
  return option
}

export interface CompareSideData {
  x: Float64Array
  start: Float64Array
  width: number
  layers: { key: string; values: Float64Array }[]
  total: Float64Array
  max: number
}

export function compareSideOption(side: CompareSideData, ctx: LaneContext, accent: string): EChartsOption {
  const { t } = ctx
  const series: SeriesOption[] = side.layers.map(
    (layer) =>
      ({
        name: layer.key,
        type: 'line',
        stack: 'layers',
        data: pairs(side.x, layer.values),
        symbol: 'none',
        showSymbol: false,
        silent: true,
        emphasis: { disabled: true },
        color: placementColor(layer.key),
        lineStyle: { width: 0.6, color: placementColor(layer.key) },
        areaStyle: { color: placementColor(layer.key), opacity: 0.82 },
      }) as SeriesOption,
  )
  series.push(line('total', pairs(side.x, side.total), accent, { lineStyle: { color: accent, width: 1.4 } }))
  const option = base(ctx, side.max, 'bytes', (params) => {
    const i = dataIndexOf(params)
    if (i < 0 || Number.isNaN(side.total[i])) return ''
    const lines: TipLine[] = []
    for (let k = side.layers.length - 1; k >= 0; k--) {
      const v = side.layers[k].values[i]
      if (v > 0) lines.push({ label: t(`placement.${side.layers[k].key}`), value: formatBytes(v), color: placementColor(side.layers[k].key) })
    }
    lines.push('separator')
    lines.push({ label: t('tip.heldPeak'), value: formatBytes(side.total[i]), color: accent, strong: true })
    return tooltipElement(bucketTitle(ctx, side.start[i], side.width), lines)
  })
  option.series = series
  return option
}

export interface DeltaData {
  x: Float64Array
  start: Float64Array
  width: number
  delta: Float64Array
  min: number
  max: number
  unit: 'bytes' | 'count'
  label: string
}

export function deltaLaneOption(d: DeltaData, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const up = new Float64Array(d.delta.length)
  const down = new Float64Array(d.delta.length)
  for (let i = 0; i < d.delta.length; i++) {
    const v = d.delta[i]
    up[i] = Number.isNaN(v) ? NaN : Math.max(0, v)
    down[i] = Number.isNaN(v) ? NaN : Math.min(0, v)
  }
  const span = Math.max(Math.abs(d.min), Math.abs(d.max))
  const axis = d.unit === 'bytes' ? byteAxis(span, Math.max(1, Math.floor(ticksFor(ctx.height) / 2))) : countAxis(span, 2)
  const fmt = (v: number) => (d.unit === 'bytes' ? formatAxisBytes(v) : formatAxisCount(v))
  const option = base(ctx, axis.max, d.unit, (params) => {
    const i = dataIndexOf(params)
    if (i < 0 || Number.isNaN(d.delta[i])) return ''
    const v = d.delta[i]
    const text = d.unit === 'bytes' ? formatBytes(v) : formatCount(v)
    return tooltipElement(bucketTitle(ctx, d.start[i], d.width), [
      { label: `${d.label} ${t('compare.bMinusA')}`, value: v > 0 ? `+${text}` : text, color: v > 0 ? theme.deltaUp : theme.deltaDown, strong: true },
    ])
  })
  option.yAxis = {
    ...(option.yAxis as object),
    min: -axis.max,
    max: axis.max,
    interval: axis.interval,
    axisLabel: { color: theme.muted, fontSize: 10, margin: 6, formatter: (v: number) => (v > 0 ? `+${fmt(v)}` : fmt(v)) },
  }
  option.series = [
    line('up', pairs(d.x, up), theme.deltaUp, {
      lineStyle: { color: theme.deltaUp, width: 1 },
      areaStyle: { color: theme.deltaUp, opacity: 0.35 },
      markLine: { silent: true, symbol: 'none', label: { show: false }, lineStyle: { color: theme.axis, type: 'solid', width: 1 }, data: [{ yAxis: 0 }] },
    }),
    line('down', pairs(d.x, down), theme.deltaDown, { lineStyle: { color: theme.deltaDown, width: 1 }, areaStyle: { color: theme.deltaDown, opacity: 0.35 } }),
  ]
  return option
}
