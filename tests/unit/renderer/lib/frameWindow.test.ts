import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clampWindow,
  frameAtX,
  fullWindow,
  MIN_SPAN,
  panWindow,
  queryRange,
  xAtFrame,
  zoomAnchor,
  zoomWindow,
} from '../../../../src/renderer/src/lib/frameWindow'

describe('the frame window', () => {
  it('zooms around a frame, keeping it where it was on screen', () => {
    // around 100 in [0, 299] by half: 100 − 100 × 0.5 = 50, 100 + 199 × 0.5 = 199.5
    expect(zoomWindow(fullWindow(300), 0.5, 100, 300)).toEqual({ from: 50, to: 199.5 })
    // a zoom keeps the cursor in place while it is in the window, else the window's centre
    expect(zoomAnchor({ from: 10, to: 50 }, 20)).toBe(20)
    expect(zoomAnchor({ from: 10, to: 50 }, 60)).toBe(30)
    expect(zoomAnchor({ from: 10, to: 50 }, null)).toBe(30)
    // below the narrowest span: [104.5, 105.5] widens to MIN_SPAN frames with 105 at the middle, as it was
    expect(zoomWindow({ from: 100, to: 110 }, 0.1, 105, 300)).toEqual({ from: 105 - MIN_SPAN / 2, to: 105 + MIN_SPAN / 2 })
  })

  it('stays inside the capture when panned or clamped', () => {
    expect(clampWindow({ from: -10, to: 40 }, 300)).toEqual({ from: 0, to: 50 })
    // the window [0, 50] moved by 500 stops at the end: from = 299 − 50
    expect(panWindow({ from: 0, to: 50 }, 500, 300)).toEqual({ from: 249, to: 299 })
    expect(fullWindow(1)).toEqual({ from: 0, to: 1 })
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1e6 }), fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: 0.01, max: 100, noNaN: true }), (frames, at, factor) => {
        const w = zoomWindow(fullWindow(frames), factor, at, frames)
        expect(w.from).toBeGreaterThanOrEqual(0)
        expect(w.to).toBeLessThanOrEqual(frames - 1 + 1e-9)
        expect(w.to - w.from).toBeGreaterThanOrEqual(Math.min(MIN_SPAN, frames - 1) - 1e-9)
      }),
    )
  })

  it('maps pixels to frames both ways and asks for whole frames covering both ends', () => {
    const w = { from: 100, to: 200 }
    expect(xAtFrame(w, 150, 1000)).toBe(500)
    expect(frameAtX(w, 250, 1000)).toBe(125)
    expect(queryRange({ from: 50, to: 199.5 }, 300)).toEqual({ from: 50, to: 201 })
    expect(queryRange({ from: 0, to: 299 }, 300)).toEqual({ from: 0, to: 300 })
  })
})
