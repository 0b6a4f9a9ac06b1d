/**
 * ECharts options of the lanes, from plain lane data: stacked placements per heap with the waste band and the
 * budget, residency with eviction and make-resident markers and over-budget shading, transient heaps against
 * their requests, and the compare view's sides and delta. Every lane has the same grid margins and a hidden
 * value x axis over the frame window, so one pixel mapping (frameWindow.ts) serves all of them and the overlays.
 *
 * What a lane draws is one custom series that turns its shapes (areas, bands, lines, spans) into a few polygons
 * and polylines in pixels, level runs reduced to their ends. The lanes redraw on every zoom: one series a lane
 * instead of a line series per layer keeps ECharts' own work per redraw (models, stacking, data stores, a view
 * per series) out of the way, and the paths hold a fraction of the points.
 */
import type { EChartsOption, SeriesOption } from 'echarts'
import { formatBytes, formatCount } from '../../../shared/units'
import type { FrameWindow } from './frameWindow'
import { hatchTile } from './hatch'
import type { ChecksLane, HeapLane, LaneSet, ResidencyLane, TransientLane } from './lanes'
import { bucketAt } from './lanes'
import { placementColor, type ChartTheme } from './palette'
import { seriesLabel } from './seriesLabel'
import { byteAxis, formatAxisBytes, formatAxisCount } from './ticks'
import { tooltipElement, tooltipFrame, type TipLine } from './tooltip'

/** Plot margins inside every lane chart, in pixels: the y labels live in `left`. */
export const GRID = { left: 62, right: 14, top: 8, bottom: 6 } as const

/** One lane of a LanePane: its chart's option is built for the height the lane gets. */
export interface LaneSpec {
  id: string
  title: string
  /** What the lane holds, in words, under its title (a memory kind: "video memory the CPU cannot see"). */
  note?: string
  /** Share of the pane's height. */
  weight: number
  minHeight?: number
  testid?: string
  /** Data attributes on the lane's chart (what it draws, for tests and benchmarks). */
  attrs?: Record<string, string | number>
  /** Said across the lane's plot, where the header has no room for it (a lane folded for holding nothing). */
  empty?: string
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
  /** The frame under the pointer, when the lane's pane tracks it (the tooltip names its bucket). */
  hover?: { at: number | null }
}

/** A fill: a colour, or an image pattern (ECharts' { image, repeat }). */
type Fill = string | object

export interface Stroke {
  color: string
  width: number
  dash?: number[]
  opacity?: number
}

/** What a lane draws, in data units: x in frame indices, y in the lane's unit. */
export type Shape =
  /** From the axis' zero up to `top`. */
  | { kind: 'area'; x: Float64Array; top: Float64Array; fill: Fill }
  /** Between `bottom` and `top`, its top edge stroked when `edge` is given. */
  | { kind: 'band'; x: Float64Array; top: Float64Array; bottom: Float64Array; fill: Fill; edge?: Stroke }
  /** A line; each value holds until the next point (a step) unless `step` is false. */
  | { kind: 'line'; x: Float64Array; y: Float64Array; stroke: Stroke; step?: boolean }
  /** Frames [from, to] shaded over the lane's height. */
  | { kind: 'span'; from: number; to: number; fill: Fill }
  /** Triangles with their base on (x, y), `size` pixels wide, pointing down or up: all of them one path. */
  | { kind: 'markers'; x: number[]; y: number[]; size: number[]; down: boolean; fill: string; stroke: string }

const hatches = new Map<string, object | string>()

/** A diagonal hatch in `color` as an image pattern (plain colour where canvas is unavailable). */
export function hatch(color: string): object | string {
  let pattern = hatches.get(color)
  if (pattern === undefined) {
    const tile = hatchTile(color, 6, 1.2)
    pattern = tile ? { image: tile, repeat: 'repeat' } : color
    hatches.set(color, pattern)
  }
  return pattern
}

const same = (a: number, b: number) => a === b || (a !== a && b !== b)

/**
 * The vertices of an edge, in pixels, in runs without NaN: a point inside a run of equal values adds nothing
 * to the line and is left out (memory stays level for long stretches); `step` turns each change into a riser.
 */
export function edgeRuns(
  x: Float64Array,
  y: Float64Array,
  px: (v: number) => number,
  py: (v: number) => number,
  step = false,
): number[][][] {
  const runs: number[][][] = []
  let run: number[][] | null = null
  const n = x.length
  for (let i = 0; i < n; i++) {
    const v = y[i]
    if (v !== v) {
      run = null
      continue
    }
    if (run && i + 1 < n && same(v, y[i - 1]) && same(v, y[i + 1])) continue
    if (!run) {
      run = []
      runs.push(run)
    } else if (step && !same(v, y[i - 1])) run.push([px(x[i]), py(y[i - 1])])
    run.push([px(x[i]), py(v)])
  }
  return runs
}

/**
 * The element options (zrender shapes) of a lane's shapes, for the custom series' renderItem. Memory changes at
 * records, not between frames: every edge is drawn as steps, a value holding until the next point, so a resource
 * made in frame 3 reads 0 up to frame 3 and its bytes from there, never a ramp from frame 2.
 */
export function shapeElements(shapes: Shape[], box: { x: number; y: number; width: number; height: number }, view: FrameWindow, yMin: number, yMax: number): object[] {
  const span = Math.max(1e-9, view.to - view.from)
  const range = Math.max(1e-9, yMax - yMin)
  const px = (v: number) => box.x + ((v - view.from) / span) * box.width
  const py = (v: number) => box.y + box.height * (1 - (v - yMin) / range)
  const base = py(Math.max(yMin, Math.min(yMax, 0)))
  const out: object[] = []
  const stroke = (s: Stroke) => ({ fill: null, stroke: s.color, lineWidth: s.width, lineDash: s.dash ?? null, opacity: s.opacity ?? 1 })
  for (const shape of shapes) {
    if (shape.kind === 'span') {
      const x0 = Math.max(box.x, px(shape.from))
      const x1 = Math.min(box.x + box.width, px(shape.to))
      if (x1 > x0) out.push({ type: 'rect', silent: true, shape: { x: x0, y: box.y, width: x1 - x0, height: box.height }, style: { fill: shape.fill } })
    } else if (shape.kind === 'markers') {
      if (shape.x.length === 0) continue
      // Markers on the same pixel are drawn once, the largest: the smaller lie inside it (a whole capture in
      // view puts thousands of events on a lane a thousand pixels wide, and each is a subpath to parse and fill).
      const largest = new Map<number, number>()
      for (let i = 0; i < shape.x.length; i++) {
        const cx = Math.round(px(shape.x[i]))
        if (cx < box.x - 20 || cx > box.x + box.width + 20) continue
        const key = cx * 65536 + Math.round(py(shape.y[i]))
        if (!(shape.size[i] <= (largest.get(key) ?? 0))) largest.set(key, shape.size[i])
      }
      const parts: string[] = []
      const top = box.y
      const bottom = box.y + box.height
      for (const [key, size] of largest) {
        const cx = Math.floor(key / 65536 + 0.5)
        const cy = key - cx * 65536
        const h = size / 2
        // Base on the curve: an up triangle stands on it, a down one hangs under it, so the two kinds of one
        // frame lie apart. Kept inside the plot, which clips: a curve at the lane's top (a run held at its
        // budget, evicting every frame) would otherwise take its markers out of sight.
        let foot = cy
        let tip = shape.down ? cy + 2 * h : cy - 2 * h
        const shift = Math.min(tip, foot) < top ? top - Math.min(tip, foot) : Math.max(tip, foot) > bottom ? bottom - Math.max(tip, foot) : 0
        foot += shift
        tip += shift
        parts.push(`M${(cx - h).toFixed(1)} ${foot.toFixed(1)}L${(cx + h).toFixed(1)} ${foot.toFixed(1)}L${cx.toFixed(1)} ${tip.toFixed(1)}Z`)
      }
      if (parts.length) {
        out.push({ type: 'path', silent: true, z2: 10, shape: { pathData: parts.join('') }, style: { fill: shape.fill, stroke: shape.stroke, lineWidth: 0.6, opacity: 0.92 } })
      }
    } else if (shape.kind === 'area') {
      for (const run of edgeRuns(shape.x, shape.top, px, py, true)) {
        run.push([run[run.length - 1][0], base], [run[0][0], base])
        out.push({ type: 'polygon', silent: true, shape: { points: run }, style: { fill: shape.fill } })
      }
    } else if (shape.kind === 'band') {
      const top = edgeRuns(shape.x, shape.top, px, py, true)
      const bottom = edgeRuns(shape.x, shape.bottom, px, py, true)
      // bands are drawn where both edges have values; the runs match when the gaps do
      for (let r = 0; r < Math.min(top.length, bottom.length); r++) {
        out.push({ type: 'polygon', silent: true, shape: { points: [...top[r], ...bottom[r].reverse()] }, style: { fill: shape.fill } })
        if (shape.edge) out.push({ type: 'polyline', silent: true, shape: { points: top[r] }, style: stroke(shape.edge) })
      }
    } else {
      for (const run of edgeRuns(shape.x, shape.y, px, py, shape.step ?? true)) {
        out.push({ type: 'polyline', silent: true, shape: { points: run }, style: stroke(shape.stroke) })
      }
    }
  }
  return out
}

/** The custom series that draws a lane's shapes, clipped to the plot: one data item, drawing everything. */
function drawing(shapes: Shape[], view: FrameWindow, yMin: number, yMax: number): SeriesOption {
  return {
    id: 'drawing',
    type: 'custom',
    data: [[view.from]],
    dimensions: ['x'],
    encode: { x: 0 },
    clip: true,
    silent: true,
    z: 2,
    renderItem: (params: { coordSys: unknown }) => {
      const box = params.coordSys as { x: number; y: number; width: number; height: number }
      return { type: 'group', children: shapeElements(shapes, box, view, yMin, yMax) }
    },
  } as unknown as SeriesOption
}

/** `color` seen through `alpha` over `background` (#rrggbb both): an opaque colour that looks translucent. */
export function mix(color: string, background: string, alpha: number): string {
  const c = (hex: string, i: number) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16)
  const out = [0, 1, 2].map((i) => Math.round(c(color, i) * alpha + c(background, i) * (1 - alpha)))
  return `#${out.map((v) => v.toString(16).padStart(2, '0')).join('')}`
}

/**
 * Layers stacked bottom to top, as opaque areas of their running totals, the top one first and each lower one
 * over it: each area has only its top edge to draw.
 */
export function stackedAreas(x: Float64Array, layers: { key: string; values: Float64Array }[], theme: Pick<ChartTheme, 'background'>): Shape[] {
  const tops: Float64Array[] = []
  const running = new Float64Array(x.length)
  // a point no layer has a value at (run B shorter than A) stays a gap
  const seen = new Uint8Array(x.length)
  for (const layer of layers) {
    const top = new Float64Array(x.length)
    for (let i = 0; i < x.length; i++) {
      const v = layer.values[i]
      if (!Number.isNaN(v)) {
        running[i] += v
        seen[i] = 1
      }
      top[i] = seen[i] ? running[i] : NaN
    }
    tops.push(top)
  }
  const out: Shape[] = []
  for (let k = layers.length - 1; k >= 0; k--) {
    out.push({ kind: 'area', x, top: tops[k], fill: mix(placementColor(layers[k].key), theme.background, 0.85) })
  }
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

/** A 1-2-5 interval for a count axis. */
export function countAxis(max: number, ticks: number): { max: number; interval: number } {
  if (!(max > 0)) return { max: 1, interval: 1 }
  const raw = max / Math.max(1, ticks)
  const power = 10 ** Math.floor(Math.log10(raw))
  const interval = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power
  const step = Math.max(1, interval)
  return { max: Math.ceil(max / step) * step, interval: step }
}

/** The bucket of a frame axis value, in buckets starting at `start` of `width` frames. */
function locator(start: Float64Array, width: number): (x: number) => number {
  // the nearest whole frame, then its bucket
  return (x) => (start.length ? bucketAt({ start, width }, x + 0.5) : -1)
}

interface LaneDraw {
  ctx: LaneContext
  unit: 'bytes' | 'count'
  /** Largest value drawn; the axis rounds it up. */
  max: number
  /** Draw from −max to max (a delta), rather than from 0. */
  symmetric?: boolean
  shapes: Shape[]
  /** Extra series over the drawing (markers). */
  series?: SeriesOption[]
  locate: (x: number) => number
  tip: (bucket: number) => HTMLElement | string
}

/** A lane's option: the grid, the hidden frame axis, the y axis, its drawing, and the tooltip of the bucket under the mouse. */
function lane(d: LaneDraw): EChartsOption {
  const { ctx, unit } = d
  const { theme } = ctx
  const ticks = d.symmetric ? Math.max(1, Math.floor(ticksFor(ctx.height) / 2)) : ticksFor(ctx.height)
  const axis = unit === 'bytes' ? byteAxis(d.max, ticks) : countAxis(d.max, ticks)
  const min = d.symmetric ? -axis.max : 0
  const label = (v: number) => {
    const text = unit === 'bytes' ? formatAxisBytes(v) : formatAxisCount(v)
    return d.symmetric && v > 0 ? `+${text}` : text
  }
  const formatter = (params: unknown) => {
    // the pane's note of the frame under the pointer; the axis value otherwise (it snaps to the drawing's one item)
    const first = (Array.isArray(params) ? params[0] : params) as { axisValue?: number } | undefined
    const x = ctx.hover ? ctx.hover.at : Number(first?.axisValue)
    if (x === null || !Number.isFinite(x)) return ''
    const i = d.locate(x)
    return i < 0 ? '' : d.tip(i)
  }
  return {
    animation: false,
    backgroundColor: 'transparent',
    grid: { ...GRID },
    xAxis: { type: 'value', min: ctx.view.from, max: ctx.view.to, show: false },
    yAxis: {
      type: 'value',
      min,
      max: axis.max,
      interval: axis.interval,
      axisLabel: { color: theme.muted, fontSize: 10, margin: 6, formatter: label },
      splitLine: { lineStyle: { color: theme.grid, width: 1 } },
      axisLine: { show: false },
      axisTick: { show: false },
    },
    tooltip: {
      ...tooltipFrame(theme),
      // the pane draws the hover line across all lanes; the chart draws none of its own
      axisPointer: { type: 'none', snap: false, animation: false },
      formatter: formatter as never,
    },
    series: [drawing(d.shapes, ctx.view, min, axis.max), ...(d.series ?? [])],
  }
}

/** Budget drawn on a lane only when it is near the data; a far budget would flatten everything under it. */
export function budgetVisible(dataMax: number, budgetMax: number): boolean {
  return budgetMax > 0 && budgetMax <= Math.max(dataMax * 2.5, 1)
}

/**
 * A heap's lane, in the lane's own words (a Vulkan heap: memory allocated, the part in use, the free bytes of its
 * memory objects), with the device's limit of memory objects beside their count where the lane has one.
 */
export function heapLaneOption(heap: HeapLane, lanes: LaneSet, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const { x } = lanes
  const budget = heap.budget
  const { words, memoryLimit } = heap
  let budgetMax = 0
  if (budget) for (let i = 0; i < budget.length; i++) if (budget[i] > budgetMax) budgetMax = budget[i]
  const showBudget = budget !== null && budgetVisible(heap.max, budgetMax)
  const shapes = stackedAreas(x, heap.layers, theme)
  // the waste band: from what requests asked for up to what the heap holds, hatched over the layers
  shapes.push({ kind: 'band', x, top: heap.held, bottom: heap.requested, fill: hatch(theme.waste), edge: { color: theme.text, width: 1, opacity: 0.7 } })
  shapes.push({ kind: 'line', x, y: heap.requested, stroke: { color: theme.waste, width: 1, dash: [2, 2] } })
  if (lanes.width > 1) shapes.push({ kind: 'line', x, y: heap.peak, stroke: { color: theme.text, width: 1, opacity: 0.45, dash: [4, 3] } })
  if (showBudget && budget) shapes.push({ kind: 'line', x, y: budget, step: true, stroke: { color: theme.budget, width: 1.3, dash: [5, 3] } })
  return lane({
    ctx,
    unit: 'bytes',
    max: Math.max(heap.max, showBudget ? budgetMax : 0),
    shapes,
    locate: locator(lanes.start, lanes.width),
    tip: (i) => {
      const lines: TipLine[] = []
      for (let k = heap.layers.length - 1; k >= 0; k--) {
        const layer = heap.layers[k]
        const v = layer.values[i]
        if (v > 0) lines.push({ label: t(`placement.${layer.key}`), value: formatBytes(v), color: placementColor(layer.key) })
      }
      lines.push('separator')
      lines.push({ label: t(words.held), value: formatBytes(heap.held[i]), strong: true })
      lines.push({ label: t(words.requested), value: formatBytes(heap.requested[i]) })
      lines.push({ label: t(words.waste), value: formatBytes(Math.max(0, heap.held[i] - heap.requested[i])), color: theme.waste, hatched: true })
      if (heap.alignment) lines.push({ label: t('tip.alignment'), value: formatBytes(heap.alignment[i]), muted: true })
      if (heap.poolFree) lines.push({ label: t('tip.poolFree'), value: formatBytes(heap.poolFree[i]), muted: true })
      lines.push({ label: t('tip.pending'), value: formatBytes(heap.pending[i]), muted: true })
      if (heap.memoryCount) {
        const count = formatCount(heap.memoryCount[i])
        lines.push({ label: t('tip.vkMemoryCount'), value: memoryLimit ? `${count} / ${formatCount(memoryLimit)}` : count })
      }
      if (lanes.width > 1) lines.push({ label: t('tip.peak'), value: formatBytes(heap.peak[i]) })
      if (budget && !Number.isNaN(budget[i])) lines.push({ label: t('tip.budget'), value: formatBytes(budget[i]), color: theme.budget })
      return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines, lanes.width > 1 ? t('tip.meanNote') : undefined)
    },
  })
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

/** The largest marker, in pixels (markerSize). */
export const MARKER_MAX = 18

/** Marker size in pixels: by the square root of bytes (area ∝ bytes), 5 to MARKER_MAX px. */
export function markerSize(bytes: number, maxBytes: number): number {
  if (!(maxBytes > 0)) return 6
  return 5 + (MARKER_MAX - 5) * Math.sqrt(Math.max(0, bytes) / maxBytes)
}

/**
 * A lane's top value: `max`, or higher where an up triangle standing at value `y[i]`, `size[i]` pixels tall, would
 * reach past the top of a chart `height` pixels tall (a run held at its budget makes resources resident at the
 * lane's peak). Where the plot is too short to give a marker its room, `max`: shapeElements keeps markers inside.
 */
export function withMarkerRoom(max: number, height: number, y: number[], size: number[]): number {
  const plot = height - GRID.top - GRID.bottom
  if (!(plot > 3 * MARKER_MAX)) return max
  let top = max
  for (let i = 0; i < y.length; i++) top = Math.max(top, (y[i] * plot) / (plot - size[i]))
  return top
}

export function residencyLaneOption(lanes: LaneSet, r: ResidencyLane, markers: ResidencyMarkers, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const shapes: Shape[] = r.overBudget.map(([a, b]) => ({ kind: 'span' as const, from: a - 0.5, to: b + 0.5, fill: theme.overBudget }))
  shapes.push({ kind: 'area', x: lanes.x, top: r.resident, fill: mix(theme.resident, theme.background, 0.22) })
  shapes.push({ kind: 'line', x: lanes.x, y: r.resident, stroke: { color: theme.resident, width: 1.4 } })
  if (r.hasBudget) shapes.push({ kind: 'line', x: lanes.x, y: r.budget, step: true, stroke: { color: theme.budget, width: 1.3, dash: [5, 3] } })
  const triangles = (events: [number, number, number][], down: boolean, fill: string) => ({
    kind: 'markers' as const,
    x: events.map((e) => e[0]),
    y: events.map((e) => e[1]),
    size: events.map((e) => markerSize(e[2], markers.maxBytes)),
    down,
    fill,
    stroke: theme.background,
  })
  const make = triangles(markers.make, false, theme.makeResident)
  shapes.push(make, triangles(markers.evict, true, theme.evict))
  return lane({
    ctx,
    unit: 'bytes',
    // the evictions hang under the curve; the make-resident markers stand on it, with room over the peak
    max: withMarkerRoom(r.max, ctx.height, make.y, make.size),
    shapes,
    locate: locator(lanes.start, lanes.width),
    tip: (i) => {
      const lines: TipLine[] = [{ label: t('tip.resident'), value: formatBytes(r.resident[i]), color: theme.resident, strong: true }]
      if (r.hasBudget && !Number.isNaN(r.budget[i])) lines.push({ label: t('tip.budget'), value: formatBytes(r.budget[i]), color: theme.budget })
      const events = markers.perBucket.get(i)
      if (events?.evictions) {
        lines.push({ label: t('tip.evicted', { n: events.evictions }), value: formatBytes(events.evictedBytes), color: theme.evict })
      }
      if (events?.made) lines.push({ label: t('tip.madeResident', { n: events.made }), value: formatBytes(events.madeBytes), color: theme.makeResident })
      return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines)
    },
  })
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
    const y = i >= 0 && lanes.residency ? lanes.residency.resident[i] : 0
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

export function transientLaneOption(lanes: LaneSet, tr: TransientLane, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const x = lanes.x
  // the heaps, and above them, hatched, the requests they did not need bytes of their own for
  const shapes: Shape[] = [
    { kind: 'area', x, top: tr.heap, fill: mix(theme.transientHeap, theme.background, 0.6) },
    { kind: 'line', x, y: tr.heap, stroke: { color: theme.transientHeap, width: 1.2 } },
    { kind: 'band', x, top: positiveOr(tr.requested, tr.heap), bottom: tr.heap, fill: hatch(theme.saving) },
    // the sum of requests, also where it stays under the heaps (small graphs in a minimum-size heap)
    { kind: 'line', x, y: tr.requested, stroke: { color: theme.transientRequested, width: 1.2, dash: [4, 3] } },
  ]
  return lane({
    ctx,
    unit: 'bytes',
    max: tr.max,
    shapes,
    locate: locator(lanes.start, lanes.width),
    tip: (i) =>
      tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), [
        { label: t('tip.transientHeap'), value: formatBytes(tr.heap[i]), color: theme.transientHeap, strong: true },
        { label: t('tip.transientRequested'), value: formatBytes(tr.requested[i]), color: theme.transientRequested },
        { label: t('tip.saving'), value: formatBytes(tr.saving[i]), color: theme.saving, hatched: true },
      ]),
  })
}

/** The checks' findings per bucket: aliasing hazards (red) over API-usage warnings (amber). */
export function checksLaneOption(lanes: LaneSet, c: ChecksLane, ctx: LaneContext): EChartsOption {
  const { theme, t } = ctx
  const x = lanes.x
  const both = new Float64Array(x.length)
  for (let i = 0; i < x.length; i++) both[i] = c.hazards[i] + c.warnings[i]
  const shapes: Shape[] = [
    { kind: 'area', x, top: both, fill: mix(theme.warning, theme.background, 0.7) },
    { kind: 'area', x, top: c.hazards, fill: mix(theme.evict, theme.background, 0.85) },
  ]
  return lane({
    ctx,
    unit: 'count',
    max: Math.max(...both, 1),
    shapes,
    locate: locator(lanes.start, lanes.width),
    tip: (i) => {
      const lines: TipLine[] = [
        { label: t('tip.hazards'), value: formatCount(c.hazards[i]), color: theme.evict, strong: true },
        { label: t('tip.warnings'), value: formatCount(c.warnings[i]), color: theme.warning },
      ]
      // each rule that found something in the bucket, most findings first
      const rules = c.rules.filter((r) => r.values[i] > 0).sort((a, b) => b.values[i] - a.values[i])
      if (rules.length) lines.push('separator')
      for (const r of rules) lines.push({ label: seriesLabel(r.series, t, r.label), value: formatCount(r.values[i]), muted: true })
      // the findings of all rules, where they are more than the hazards and warnings above
      if (c.total && c.total[i] !== c.hazards[i] + c.warnings[i]) lines.push({ label: t('series.check.total'), value: formatCount(c.total[i]) })
      return tooltipElement(bucketTitle(ctx, lanes.start[i], lanes.width), lines)
    },
  })
}

/** The larger of `values` and `floor` at each point: a band's top that never dips under its bottom. */
function positiveOr(values: Float64Array, floor: Float64Array): Float64Array {
  const out = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = Math.max(values[i], floor[i])
  return out
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
  const shapes = stackedAreas(side.x, side.layers, ctx.theme)
  shapes.push({ kind: 'line', x: side.x, y: side.total, stroke: { color: accent, width: 1.4 } })
  return lane({
    ctx,
    unit: 'bytes',
    max: side.max,
    shapes,
    locate: locator(side.start, side.width),
    tip: (i) => {
      if (Number.isNaN(side.total[i])) return ''
      const lines: TipLine[] = []
      for (let k = side.layers.length - 1; k >= 0; k--) {
        const v = side.layers[k].values[i]
        if (v > 0) lines.push({ label: t(`placement.${side.layers[k].key}`), value: formatBytes(v), color: placementColor(side.layers[k].key) })
      }
      lines.push('separator')
      lines.push({ label: t('tip.heldPeak'), value: formatBytes(side.total[i]), color: accent, strong: true })
      return tooltipElement(bucketTitle(ctx, side.start[i], side.width), lines)
    },
  })
}

export interface CompareOverlaidData {
  x: Float64Array
  start: Float64Array
  width: number
  /** Each run's held bytes (bucket peaks), NaN where it has no frame. */
  a: Float64Array
  b: Float64Array
  max: number
}

/**
 * A and B in one lane on the shared frame axis: A as a shaded area under a solid line in A's colour, B as a dashed
 * line in B's colour over it, so each reads apart where they cross and in either theme.
 */
export function compareOverlaidOption(d: CompareOverlaidData, ctx: LaneContext, colors: { a: string; b: string }): EChartsOption {
  const { theme, t } = ctx
  const shapes: Shape[] = [
    { kind: 'area', x: d.x, top: d.a, fill: mix(colors.a, theme.background, 0.22) },
    { kind: 'line', x: d.x, y: d.a, stroke: { color: colors.a, width: 1.6 } },
    { kind: 'line', x: d.x, y: d.b, stroke: { color: colors.b, width: 1.8, dash: [6, 3] } },
  ]
  return lane({
    ctx,
    unit: 'bytes',
    max: d.max,
    shapes,
    locate: locator(d.start, d.width),
    tip: (i) => {
      const a = d.a[i]
      const b = d.b[i]
      if (Number.isNaN(a) && Number.isNaN(b)) return ''
      const lines: TipLine[] = [
        { label: `A · ${t('tip.heldPeak')}`, value: Number.isNaN(a) ? '—' : formatBytes(a), color: colors.a, strong: true },
        { label: `B · ${t('tip.heldPeak')}`, value: Number.isNaN(b) ? '—' : formatBytes(b), color: colors.b, strong: true },
      ]
      if (!Number.isNaN(a) && !Number.isNaN(b)) {
        const delta = b - a
        lines.push('separator')
        lines.push({ label: t('compare.bMinusA'), value: `${delta > 0 ? '+' : ''}${formatBytes(delta)}`, color: delta > 0 ? theme.deltaUp : theme.deltaDown })
      }
      return tooltipElement(bucketTitle(ctx, d.start[i], d.width), lines)
    },
  })
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
  const zero = new Float64Array(d.delta.length)
  for (let i = 0; i < d.delta.length; i++) {
    const v = d.delta[i]
    up[i] = Number.isNaN(v) ? NaN : Math.max(0, v)
    down[i] = Number.isNaN(v) ? NaN : Math.min(0, v)
    zero[i] = Number.isNaN(v) ? NaN : 0
  }
  // more in B is red (memory grew), less is green
  const shapes: Shape[] = [
    { kind: 'band', x: d.x, top: up, bottom: zero, fill: mix(theme.deltaUp, theme.background, 0.4), edge: { color: theme.deltaUp, width: 1 } },
    { kind: 'band', x: d.x, top: zero, bottom: down, fill: mix(theme.deltaDown, theme.background, 0.4) },
    { kind: 'line', x: d.x, y: down, stroke: { color: theme.deltaDown, width: 1 } },
    { kind: 'line', x: Float64Array.of(ctx.view.from, ctx.view.to), y: Float64Array.of(0, 0), stroke: { color: theme.axis, width: 1 } },
  ]
  return lane({
    ctx,
    unit: d.unit,
    max: Math.max(Math.abs(d.min), Math.abs(d.max)),
    symmetric: true,
    shapes,
    locate: locator(d.start, d.width),
    tip: (i) => {
      if (Number.isNaN(d.delta[i])) return ''
      const v = d.delta[i]
      const text = d.unit === 'bytes' ? formatBytes(v) : formatCount(v)
      return tooltipElement(bucketTitle(ctx, d.start[i], d.width), [
        { label: `${d.label} ${t('compare.bMinusA')}`, value: v > 0 ? `+${text}` : text, color: v > 0 ? theme.deltaUp : theme.deltaDown, strong: true },
      ])
    },
  })
}
