/**
 * The frame window a view shows: a continuous range of frame indices [from, to], zoomed around a frame and
 * panned, never outside the capture and never narrower than a few frames. Pixels map linearly onto it, the same
 * way ECharts maps a value axis with min = from and max = to, so HTML overlays line up with the charts.
 */

export interface FrameWindow {
  from: number
  to: number
}

/** Narrowest window: a few frames, so a zoomed-in lane still shows a slope. */
export const MIN_SPAN = 6

/** Last index a window may reach: frames − 1, but at least 1 so a one-frame capture still has an axis. */
export function lastIndex(frames: number): number {
  return Math.max(1, frames - 1)
}

export function fullWindow(frames: number): FrameWindow {
  return { from: 0, to: lastIndex(frames) }
}

export function clampWindow(w: FrameWindow, frames: number): FrameWindow {
  const end = lastIndex(frames)
  let span = Math.min(end, Math.max(Math.min(MIN_SPAN, end), w.to - w.from))
  if (!Number.isFinite(span)) span = end
  let from = Math.max(0, Math.min(w.from, end - span))
  if (!Number.isFinite(from)) from = 0
  return { from, to: from + span }
}

/** The frame a zoom keeps in place: the cursor while it is in the window, else the window's centre. */
export function zoomAnchor(w: FrameWindow, cursor: number | null): number {
  return cursor !== null && cursor >= w.from && cursor <= w.to ? cursor : (w.from + w.to) / 2
}

/** Scale the span by `factor` (below 1 zooms in) keeping `around` at the same place on screen. */
export function zoomWindow(w: FrameWindow, factor: number, around: number, frames: number): FrameWindow {
  const at = Math.max(w.from, Math.min(w.to, around))
  const from = at - (at - w.from) * factor
  const to = at + (w.to - at) * factor
  if (to - from < MIN_SPAN) {
    // keep the anchor where it was on screen while the span stops at its minimum
    const t = w.to > w.from ? (at - w.from) / (w.to - w.from) : 0.5
    return clampWindow({ from: at - t * MIN_SPAN, to: at + (1 - t) * MIN_SPAN }, frames)
  }
  return clampWindow({ from, to }, frames)
}

export function panWindow(w: FrameWindow, delta: number, frames: number): FrameWindow {
  return clampWindow({ from: w.from + delta, to: w.to + delta }, frames)
}

/** The window centred on `frame` with the same span. */
export function centreWindow(w: FrameWindow, frame: number, frames: number): FrameWindow {
  const half = (w.to - w.from) / 2
  return clampWindow({ from: frame - half, to: frame + half }, frames)
}

export function frameAtX(w: FrameWindow, x: number, width: number): number {
  return w.from + (x / Math.max(1, width)) * (w.to - w.from)
}

export function xAtFrame(w: FrameWindow, frame: number, width: number): number {
  return ((frame - w.from) / Math.max(1e-9, w.to - w.from)) * width
}

/** The whole frame indices a query needs for this window: [from, to) covering both ends. */
export function queryRange(w: FrameWindow, frames: number): { from: number; to: number } {
  const from = Math.max(0, Math.floor(w.from))
  const to = Math.min(frames, Math.ceil(w.to) + 1)
  return { from, to: Math.max(from + 1, to) }
}

export function sameWindow(a: FrameWindow, b: FrameWindow): boolean {
  return Math.abs(a.from - b.from) < 1e-6 && Math.abs(a.to - b.to) < 1e-6
}
