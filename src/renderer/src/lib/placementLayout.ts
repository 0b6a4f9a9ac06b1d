/**
 * The aliasing view's geometry for application heaps: each heap a panel with the frame's steps across (x) and byte
 * offsets down (y); each placed resource a rectangle over its bytes for the steps it was placed, its active spans
 * (simple model) as bars inside it, its accesses as marks at their step, the aliasing barriers as ticks, the bytes
 * two resources share as bands, and each hazard of the frame as a box over its byte range. Pure, so it is tested
 * without a canvas.
 */
import type { PlacementsAnswer } from '../../../shared/ipc'
import type { Box } from './aliasingLayout'

/** Heap bytes [from, to) drawn over pixels [y, y + h). */
export interface ByteSegment {
  from: number
  to: number
  y: number
  h: number
}

export interface PlacedPanel extends Box {
  /** Index into the answer's heaps. */
  heap: number
  /** The heap's bytes drawn to scale, top to bottom. */
  segments: ByteSegment[]
  /** Bytes no resource of the frame uses, folded to a thin strip when the panel is fitted. */
  breaks: ByteSegment[]
}

/** A resource of heap `heap` (index into the answer's heaps), `index` into its resources. */
export interface PlacedRef {
  heap: number
  index: number
}

export interface PlacedRect extends Box, PlacedRef {}

export interface PlacedBand extends Box {
  heap: number
  /** The two resources sharing the band's bytes. */
  a: number
  b: number
}

export interface StepMark extends PlacedRef {
  /** Centre of the mark. */
  x: number
  y: number
  step: number
  /** ACCESS_OPS index for an access; for a barrier, 1 for the resource it activates, 0 for the one it ends. */
  kind: number
}

export interface HazardBox extends Box {
  /** Index into the answer's hazards. */
  hazard: number
  panel: number
  /** Centre x of the step the hazard happened at. */
  stepX: number
}

export interface PlacementsLayout {
  panels: PlacedPanel[]
  rects: PlacedRect[]
  /** The rectangles by heap, then by resource index. */
  rectOf: PlacedRect[][]
  /** Active spans, as bars inside the rectangles. */
  active: PlacedRect[]
  bands: PlacedBand[]
  accesses: StepMark[]
  barriers: StepMark[]
  hazards: HazardBox[]
  /** Centre x of each submit step. */
  submits: number[]
  /** Pixel x of step s's left edge (s from 0 to the frame's steps; a frame without steps has one column). */
  stepX: (step: number) => number
  columns: number
}

export interface PlacementsLayoutOptions {
  width: number
  height: number
  /** Left margin for the offset axis, bottom for the step axis, gap between heap panels, header above each. */
  left: number
  bottom: number
  gap: number
  header: number
  right?: number
  /** Draw the bytes the frame uses to scale and fold the unused runs (else each heap whole, to scale). */
  fit?: boolean
  /** Indices of the heaps drawn, top to bottom (all of them when absent). */
  heaps?: number[]
}

/** Most heaps stacked at once; past it the view picks the busiest, or the one the user chooses. */
export const MAX_STACKED_HEAPS = 4

/**
 * The heaps worth drawing when there are more than MAX_STACKED_HEAPS: those with a hazard (the one in focus
 * first), then those whose resources in the frame hold the most bytes (many small heaps of a few KiB matter less
 * than the large ones that hold most of the memory), then the most resources, then by id; a heap without
 * resources last.
 */
export function busiestHeaps(a: PlacementsAnswer, focused = -1, limit = MAX_STACKED_HEAPS): number[] {
  const hazards = new Map<number, number>()
  for (const z of a.hazards) if (z.heapIndex >= 0) hazards.set(z.heapIndex, (hazards.get(z.heapIndex) ?? 0) + 1)
  const first = a.hazards[focused]?.heapIndex ?? -1
  const bytes = a.heaps.map((h) => {
    let sum = 0
    for (let i = 0; i < h.resources.size.length; i++) sum += h.resources.size[i] || 0
    return sum
  })
  const order = a.heaps.map((_, i) => i)
  order.sort(
    (x, y) =>
      Number(y === first) - Number(x === first) ||
      Number(hazards.has(y)) - Number(hazards.has(x)) ||
      bytes[y] - bytes[x] ||
      a.heaps[y].resources.id.length - a.heaps[x].resources.id.length ||
      a.heaps[x].id - a.heaps[y].id,
  )
  return order.slice(0, limit).sort((x, y) => x - y)
}

/** Height of a heap without resources in the frame, of a folded run of unused bytes, and the least a used run gets. */
export const EMPTY_HEIGHT = 34
export const BREAK_HEIGHT = 18
const MIN_SEGMENT = 26
/** Narrowest rectangle drawn, for a resource placed and gone between two steps. */
const MIN_WIDTH = 3
/** Unused bytes fold when they are at least this share of the bytes used (smaller gaps stay to scale). */
const FOLD_SHARE = 0.1

/**
 * A panel's byte scale: the whole heap to scale, or, fitted, the byte runs the frame uses (resources, hazards) to
 * scale, each at least MIN_SEGMENT high, with the unused bytes between and after them folded to BREAK_HEIGHT.
 */
export function byteSegments(used: [number, number][], size: number, y: number, h: number, fit: boolean): Pick<PlacedPanel, 'segments' | 'breaks'> {
  if (!fit || used.length === 0 || size <= 0) return { segments: [{ from: 0, to: Math.max(1, size), y, h }], breaks: [] }
  const sorted = used.filter(([a, b]) => b > a).sort((p, q) => p[0] - q[0])
  let usedBytes = 0
  for (const [a, b] of sorted) usedBytes += b - a
  const fold = Math.max(1, usedBytes * FOLD_SHARE)
  // runs: used ranges merged across gaps too small to fold
  const runs: [number, number][] = []
  for (const [a, b] of sorted) {
    const last = runs[runs.length - 1]
    if (last && a - last[1] < fold) last[1] = Math.max(last[1], b)
    else runs.push([a, b])
  }
  if (runs[0][0] < fold) runs[0][0] = 0
  const end = Math.max(size, runs[runs.length - 1][1])
  if (end - runs[runs.length - 1][1] < fold) runs[runs.length - 1][1] = end
  // the pieces top to bottom: a run drawn to scale, or a gap folded
  const pieces: { from: number; to: number; gap: boolean }[] = []
  let at = 0
  for (const [a, b] of runs) {
    if (a > at) pieces.push({ from: at, to: a, gap: true })
    pieces.push({ from: a, to: b, gap: false })
    at = b
  }
  if (end > at) pieces.push({ from: at, to: end, gap: true })
  const gaps = pieces.filter((p) => p.gap).length
  const room = Math.max(0, h - gaps * BREAK_HEIGHT)
  let runBytes = 0
  for (const p of pieces) if (!p.gap) runBytes += p.to - p.from
  const floor = Math.min(MIN_SEGMENT, room / runs.length)
  const spare = Math.max(0, room - floor * runs.length)
  const segments: ByteSegment[] = []
  const breaks: ByteSegment[] = []
  let top = y
  for (const p of pieces) {
    const height = p.gap ? Math.min(BREAK_HEIGHT, h) : floor + (runBytes > 0 ? ((p.to - p.from) / runBytes) * spare : 0)
    ;(p.gap ? breaks : segments).push({ from: p.from, to: p.to, y: top, h: height })
    top += height
  }
  return { segments, breaks }
}

/** Pixel y of heap offset `offset` on a panel: within its segment to scale, at the next segment's top in a fold. */
export function byteY(panel: Pick<PlacedPanel, 'segments' | 'y' | 'h'>, offset: number): number {
  for (const seg of panel.segments) {
    if (offset > seg.to) continue
    if (offset <= seg.from) return seg.y
    return seg.y + ((offset - seg.from) / (seg.to - seg.from)) * seg.h
  }
  const last = panel.segments[panel.segments.length - 1]
  return last ? last.y + last.h : panel.y + panel.h
}

/** The middle of the bytes of [lo, hi) that no range of `others` covers (the widest such run), else of [lo, hi). */
function ownMiddle(lo: number, hi: number, others: [number, number][]): number {
  let free: [number, number][] = [[lo, hi]]
  for (const [a, b] of others) {
    const next: [number, number][] = []
    for (const [x, y] of free) {
      if (b <= x || a >= y) next.push([x, y])
      else {
        if (a > x) next.push([x, a])
        if (b < y) next.push([b, y])
      }
    }
    free = next
  }
  let best: [number, number] = [lo, hi]
  let width = 0
  for (const [x, y] of free) {
    if (y - x > width) {
      width = y - x
      best = [x, y]
    }
  }
  return (best[0] + best[1]) / 2
}

export function layoutPlacements(a: PlacementsAnswer, o: PlacementsLayoutOptions): PlacementsLayout {
  const columns = Math.max(1, a.steps)
  const plotW = Math.max(10, o.width - o.left - (o.right ?? 8))
  const stepX = (s: number) => o.left + (s / columns) * plotW
  const centreX = (s: number) => stepX(s + 0.5)
  const shown = o.heaps ?? a.heaps.map((_, i) => i)
  const heapCount = shown.length
  const empty = shown.filter((h) => a.heaps[h].resources.id.length === 0).length
  // heaps with resources share the height left once the empty ones have their strip
  const usable = Math.max(20, o.height - o.bottom - 4 - heapCount * o.header - Math.max(0, heapCount - 1) * o.gap - empty * EMPTY_HEIGHT)
  const full = Math.max(1, heapCount - empty)

  const panels: PlacedPanel[] = []
  let y = 4
  for (const h of shown) {
    const heap = a.heaps[h]
    y += o.header
    const r = heap.resources
    const height = r.id.length > 0 ? usable / full : EMPTY_HEIGHT
    const used: [number, number][] = []
    for (let i = 0; i < r.id.length; i++) used.push([r.offset[i], r.offset[i] + r.size[i]])
    for (const z of a.hazards) if (z.heapIndex === h) used.push([z.range[0], z.range[1]])
    const size = Math.max(heap.size, ...used.map((u) => u[1]))
    panels.push({ heap: h, ...byteSegments(used, size, y, height, o.fit ?? false), x: o.left, y, w: plotW, h: height })
    y += height + o.gap
  }
  /** x span of steps [from, to): a whole column when the frame has no step, never thinner than MIN_WIDTH. */
  const span = (from: number, to: number): [number, number] => {
    const x0 = stepX(from)
    const x1 = a.steps === 0 ? stepX(columns) : stepX(to)
    return [x0, Math.max(x0 + MIN_WIDTH, x1)]
  }

  const rects: PlacedRect[] = []
  const rectOf: PlacedRect[][] = a.heaps.map(() => [])
  const active: PlacedRect[] = []
  const bands: PlacedBand[] = []
  for (const panel of panels) {
    const heap = a.heaps[panel.heap]
    const r = heap.resources
    const own: PlacedRect[] = []
    for (let i = 0; i < r.id.length; i++) {
      const [x0, x1] = span(r.from[i], r.to[i])
      const y0 = byteY(panel, r.offset[i])
      const y1 = byteY(panel, r.offset[i] + r.size[i])
      const rect = { heap: panel.heap, index: i, x: x0, y: y0, w: x1 - x0, h: Math.max(1, y1 - y0) }
      rects.push(rect)
      own.push(rect)
    }
    rectOf[panel.heap] = own
    for (let k = 0; k + 2 < heap.active.length; k += 3) {
      const rect = own[heap.active[k]]
      if (!rect) continue
      const [x0, x1] = span(heap.active[k + 1], heap.active[k + 2])
      active.push({ heap: panel.heap, index: rect.index, x: x0, y: rect.y, w: x1 - x0, h: rect.h })
    }
    for (let k = 0; k + 1 < heap.overlaps.length; k += 2) {
      const i = heap.overlaps[k]
      const j = heap.overlaps[k + 1]
      const lo = Math.max(r.offset[i], r.offset[j])
      const hi = Math.min(r.offset[i] + r.size[i], r.offset[j] + r.size[j])
      if (hi <= lo) continue
      // the steps both were placed; a pair placed one after the other shows on the later one's span
      const from = Math.max(r.from[i], r.from[j])
      const to = Math.min(r.to[i], r.to[j])
      const [x0, x1] = to > from ? span(from, to) : span(r.from[j], r.to[j])
      const y0 = byteY(panel, lo)
      bands.push({ heap: panel.heap, a: i, b: j, x: x0, w: x1 - x0, y: y0, h: Math.max(1, byteY(panel, hi) - y0) })
    }
  }

  // a mark sits in the middle of the bytes its resource shares with none other, so marks of resources drawn over
  // each other stay apart
  const markY = new Map<string, number>()
  const mark = (heap: number, index: number, step: number, kind: number): StepMark | null => {
    const rect = rectOf[heap]?.[index]
    if (!rect) return null
    const key = `${heap}:${index}`
    let my = markY.get(key)
    if (my === undefined) {
      const r = a.heaps[heap].resources
      const others: [number, number][] = []
      const o = a.heaps[heap].overlaps
      for (let k = 0; k + 1 < o.length; k += 2) {
        const other = o[k] === index ? o[k + 1] : o[k + 1] === index ? o[k] : -1
        if (other >= 0) others.push([r.offset[other], r.offset[other] + r.size[other]])
      }
      my = byteY(panels.find((p) => p.heap === heap)!, ownMiddle(r.offset[index], r.offset[index] + r.size[index], others))
      markY.set(key, my)
    }
    return { heap, index, step, kind, x: centreX(step), y: my }
  }
  const accesses: StepMark[] = []
  const ac = a.accesses
  for (let k = 0; k < ac.step.length; k++) {
    const m = mark(ac.heap[k], ac.resource[k], ac.step[k], ac.op[k])
    if (m) accesses.push(m)
  }
  const barriers: StepMark[] = []
  const ba = a.barriers
  for (let k = 0; k < ba.step.length; k++) {
    const after = mark(ba.afterHeap[k], ba.after[k], ba.step[k], 1)
    if (after) barriers.push(after)
    const before = mark(ba.beforeHeap[k], ba.before[k], ba.step[k], 0)
    if (before) barriers.push(before)
  }
  const submits: number[] = []
  for (let s = 0; s < a.steps; s++) if (a.stepKind[s] === 2) submits.push(centreX(s))

  const hazards: HazardBox[] = []
  a.hazards.forEach((z, n) => {
    const panelIndex = panels.findIndex((p) => p.heap === z.heapIndex)
    if (panelIndex < 0) return
    const panel = panels[panelIndex]
    // over the steps its resources were placed, or the whole frame when none is still in the layout
    const involved = z.indices.map((i) => rectOf[z.heapIndex][i]).filter((r): r is PlacedRect => r !== undefined)
    const x0 = involved.length ? Math.min(...involved.map((r) => r.x)) : panel.x
    const x1 = involved.length ? Math.max(...involved.map((r) => r.x + r.w)) : panel.x + panel.w
    const y0 = byteY(panel, z.range[0])
    const h = Math.max(2, byteY(panel, z.range[1]) - y0)
    hazards.push({ hazard: n, panel: panelIndex, stepX: centreX(z.step), x: x0, y: y0, w: x1 - x0, h })
  })
  return { panels, rects, rectOf, active, bands, accesses, barriers, hazards, submits, stepX, columns }
}

/** Whether resource `ref` is active at pixel x (inside one of its active bars). */
function activeAt(layout: PlacementsLayout, ref: PlacedRef, x: number): boolean {
  return layout.active.some((b) => b.heap === ref.heap && b.index === ref.index && x >= b.x && x <= b.x + b.w)
}

/**
 * The resource under a point: of the rectangles containing it, the one active there (resources sharing bytes
 * are drawn over each other, and only one is active at a time), else the smallest; null when none.
 */
export function placedAt(layout: PlacementsLayout, x: number, y: number): PlacedRef | null {
  let best: PlacedRect | null = null
  let bestScore = Infinity
  for (const rect of layout.rects) {
    if (x < rect.x || x > rect.x + rect.w || y < rect.y || y > rect.y + rect.h) continue
    const score = (activeAt(layout, rect, x) ? 0 : 1e12) + rect.w * rect.h
    if (score < bestScore) {
      bestScore = score
      best = rect
    }
  }
  return best ? { heap: best.heap, index: best.index } : null
}

/** The hazard box under a point (the last drawn, on top), or -1. */
export function hazardAt(layout: PlacementsLayout, x: number, y: number): number {
  for (let k = layout.hazards.length - 1; k >= 0; k--) {
    const b = layout.hazards[k]
    if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return b.hazard
  }
  return -1
}

/** Resources of heap `heap` sharing bytes with resource `index`. */
export function placedAliases(a: PlacementsAnswer, heap: number, index: number): number[] {
  const o = a.heaps[heap]?.overlaps
  if (!o) return []
  const out: number[] = []
  for (let k = 0; k + 1 < o.length; k += 2) {
    if (o[k] === index) out.push(o[k + 1])
    else if (o[k + 1] === index) out.push(o[k])
  }
  return out
}

/** A resource's name, or its id when the capture gave none. */
export function placedName(a: PlacementsAnswer, heap: number, index: number): string {
  const r = a.heaps[heap]?.resources
  if (!r || index < 0 || index >= r.id.length) return ''
  return r.name[index] || `#${r.id[index]}`
}
