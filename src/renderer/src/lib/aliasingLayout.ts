/**
 * The aliasing view's geometry: each transient heap of a graph execution a panel with passes across (x) and byte
 * offsets down (y), each resource a rectangle from its first to its last pass over its byte range, and for each
 * pair sharing bytes the shared range on both rectangles. Pure, so it is tested without a canvas.
 */
import type { TransientExecution } from '../../../shared/ipc'
import { byteAxis } from './ticks'

export interface Box {
  x: number
  y: number
  w: number
  h: number
}

export interface HeapPanel extends Box {
  /** Index into the execution's heaps. */
  heap: number
  id: number
  size: number
  highWater: number
  /** Bytes the panel's height shows, from offset 0: the heap's size, or, fitted, just past what is used. */
  extent: number
}

export interface ResourceRect extends Box {
  /** Index into the execution's resources. */
  index: number
  panel: number
}

export interface SharedBand extends Box {
  /** The resource whose rectangle the band is drawn on, and the one it shares the bytes with. */
  on: number
  with: number
}

export interface AliasingLayout {
  panels: HeapPanel[]
  rects: ResourceRect[]
  bands: SharedBand[]
  /** Pixel x of pass p's left edge (p from 0 to passes). */
  passX: (pass: number) => number
}

export interface LayoutOptions {
  width: number
  height: number
  /** Left margin for the offset axis, bottom for the pass axis, gap between heap panels. */
  left: number
  bottom: number
  gap: number
  /** Right margin (room for the pass axis' name). */
  right?: number
  /** Show each heap only as far as its resources and high-water reach (a round binary size past them). */
  fit?: boolean
}

export function layoutAliasing(ex: TransientExecution, o: LayoutOptions): AliasingLayout {
  const passes = Math.max(1, ex.passes)
  const plotW = Math.max(10, o.width - o.left - (o.right ?? 8))
  const passX = (p: number) => o.left + (p / passes) * plotW
  const heapCount = ex.heaps.id.length
  const usable = Math.max(20, o.height - o.bottom - 6 - Math.max(0, heapCount - 1) * o.gap)
  // heaps share the height by size, none thinner than a quarter of an equal share
  let totalSize = 0
  for (let h = 0; h < heapCount; h++) totalSize += ex.heaps.size[h]
  const floor = usable / Math.max(1, heapCount) / 4
  const raw = Array.from({ length: heapCount }, (_, h) => Math.max(floor, totalSize > 0 ? (ex.heaps.size[h] / totalSize) * usable : usable / heapCount))
  const rawSum = raw.reduce((s, v) => s + v, 0)
  const r = ex.resources
  const used = new Map<number, number>()
  for (let i = 0; i < r.id.length; i++) used.set(r.heap[i], Math.max(used.get(r.heap[i]) ?? 0, r.offset[i] + r.size[i]))
  const panels: HeapPanel[] = []
  let y = 6
  for (let h = 0; h < heapCount; h++) {
    const height = (raw[h] / rawSum) * usable
    const size = ex.heaps.size[h]
    const reach = Math.max(used.get(ex.heaps.id[h]) ?? 0, ex.heaps.highWater[h])
    const extent = o.fit && reach > 0 ? Math.min(size, byteAxis(reach * 1.04, 8).max) : size
    panels.push({ heap: h, id: ex.heaps.id[h], size, highWater: ex.heaps.highWater[h], extent, x: o.left, y, w: plotW, h: height })
    y += height + o.gap
  }
  const panelOf = new Map<number, number>()
  panels.forEach((p, i) => panelOf.set(p.id, i))

  const rects: ResourceRect[] = []
  const rectOf = new Map<number, ResourceRect>()
  const byteY = (panel: HeapPanel, offset: number) => panel.y + (panel.extent > 0 ? (offset / panel.extent) * panel.h : 0)
  for (let i = 0; i < r.id.length; i++) {
    const p = panelOf.get(r.heap[i])
    if (p === undefined) continue
    const panel = panels[p]
    const x0 = passX(r.first[i])
    const x1 = passX(r.last[i] + 1)
    const y0 = byteY(panel, r.offset[i])
    const y1 = byteY(panel, r.offset[i] + r.size[i])
    const rect = { index: i, panel: p, x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) }
    rects.push(rect)
    rectOf.set(i, rect)
  }

  const bands: SharedBand[] = []
  for (let k = 0; k + 1 < ex.overlaps.length; k += 2) {
    const a = ex.overlaps[k]
    const b = ex.overlaps[k + 1]
    const ra = rectOf.get(a)
    const rb = rectOf.get(b)
    if (!ra || !rb || ra.panel !== rb.panel) continue
    const lo = Math.max(r.offset[a], r.offset[b])
    const hi = Math.min(r.offset[a] + r.size[a], r.offset[b] + r.size[b])
    if (hi <= lo) continue
    const panel = panels[ra.panel]
    const y0 = byteY(panel, lo)
    const h = Math.max(1, byteY(panel, hi) - y0)
    bands.push({ on: a, with: b, x: ra.x, w: ra.w, y: y0, h })
    bands.push({ on: b, with: a, x: rb.x, w: rb.w, y: y0, h })
  }
  return { panels, rects, bands, passX }
}

/** The resource rectangle under a point (the smallest, when several contain it), or -1. */
export function rectAt(layout: AliasingLayout, x: number, y: number): number {
  let best = -1
  let area = Infinity
  for (const rect of layout.rects) {
    if (x < rect.x || x > rect.x + rect.w || y < rect.y || y > rect.y + rect.h) continue
    const a = rect.w * rect.h
    if (a < area) {
      area = a
      best = rect.index
    }
  }
  return best
}

/** Bytes every resource asked for, and how many of them share bytes with another. */
export function aliasingFigures(ex: TransientExecution): { requested: number; aliased: number; heapBytes: number } {
  let requested = 0
  for (let i = 0; i < ex.resources.size.length; i++) requested += ex.resources.size[i]
  const aliased = new Set<number>()
  for (let k = 0; k < ex.overlaps.length; k++) aliased.add(ex.overlaps[k])
  let heapBytes = 0
  for (let h = 0; h < ex.heaps.size.length; h++) heapBytes += ex.heaps.size[h]
  return { requested, aliased: aliased.size, heapBytes }
}
