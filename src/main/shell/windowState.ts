/**
 * Where the window opens: where it was last, as it was (spanning two screens if it did), unless its title bar
 * is no longer on a screen (a monitor unplugged, a resolution changed): then centred on the primary screen and
 * no larger than it.
 */
import type { WindowState } from '../host/settings'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_SIZE = { width: 1440, height: 900 }
export const MIN_SIZE = { width: 800, height: 500 }
/** How much of the window's top edge must be on a screen for the user to reach its title bar. */
export const GRAB_WIDTH = 64
export const TITLE_HEIGHT = 32

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

function fit(width: number, height: number, area: Rect | undefined): { width: number; height: number } {
  const maxW = area ? Math.max(MIN_SIZE.width, area.width) : Number.MAX_SAFE_INTEGER
  const maxH = area ? Math.max(MIN_SIZE.height, area.height) : Number.MAX_SAFE_INTEGER
  return {
    width: Math.round(Math.min(maxW, Math.max(MIN_SIZE.width, width))),
    height: Math.round(Math.min(maxH, Math.max(MIN_SIZE.height, height))),
  }
}

/**
 * The bounds to open the window with. `workAreas`: each display's work area, the primary first. Without x and
 * y in the answer the window is centred (Electron's default).
 */
export function restoreWindow(saved: WindowState | null, workAreas: Rect[]): WindowState {
  const primary = workAreas[0]
  if (!saved) return { ...fit(DEFAULT_SIZE.width, DEFAULT_SIZE.height, primary), maximized: false }
  if (saved.x === undefined || saved.y === undefined) {
    return { ...fit(saved.width, saved.height, primary), maximized: saved.maximized }
  }
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: TITLE_HEIGHT }
  let best: Rect | undefined
  let bestArea = 0
  for (const area of workAreas) {
    const shared = overlap(titleBar, area)
    if (shared > bestArea) {
      best = area
      bestArea = shared
    }
  }
  if (!best || bestArea < GRAB_WIDTH * TITLE_HEIGHT) {
    return { ...fit(saved.width, saved.height, primary), maximized: saved.maximized }
  }
  return { x: Math.round(saved.x), y: Math.round(saved.y), ...fit(saved.width, saved.height, undefined), maximized: saved.maximized }
}
