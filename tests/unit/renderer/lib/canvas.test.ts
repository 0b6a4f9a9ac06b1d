import { afterEach, describe, expect, it, vi } from 'vitest'
import { canvasContext, drawColumnAxis } from '../../../../src/renderer/src/lib/canvas'

/** A 2D context that records the text it is asked to draw; every label measures 20 px. */
function textRecorder(): { g: CanvasRenderingContext2D; texts: [string, number, number, string][] } {
  const texts: [string, number, number, string][] = []
  const g = {
    textAlign: 'left',
    measureText: () => ({ width: 20 }),
    fillText(text: string, x: number, y: number) {
      texts.push([text, x, y, this.textAlign])
    },
  }
  return { g: g as unknown as CanvasRenderingContext2D, texts }
}

describe('the canvas views’ helpers', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('numbers columns at their centres, thinned to the spacing, and keeps clear of the axis name', () => {
    const { g, texts } = textRecorder()
    // 10 columns over 100 px: 10 px each; a step of at least 9 × 40 / 100 = 3.6 columns is 5, so columns 0 and 5,
    // at 0 + 5 and 50 + 5; the name (20 px) ends 4 px from the right edge of 200: it starts at 176
    drawColumnAxis(g, { columns: 10, count: 10, left: 0, right: 100, bottom: 80, width: 200, name: 'pass', color: '#888', spacing: 40, clearance: 24 })
    expect(texts).toEqual([
      ['0', 5, 86, 'center'],
      ['5', 55, 86, 'center'],
      ['pass', 196, 86, 'right'],
    ])
    // a number whose clearance would run into the name is left out: two columns of 165 px, column 1 at 247.5 + 24 > 176
    const narrow = textRecorder()
    drawColumnAxis(narrow.g, { columns: 2, count: 2, left: 0, right: 330, bottom: 0, width: 200, name: 'step', color: '#888', spacing: 40, clearance: 24 })
    expect(narrow.texts.map((t) => t[0])).toEqual(['0', 'step'])
    // no steps: the name alone
    const none = textRecorder()
    drawColumnAxis(none.g, { columns: 1, count: 0, left: 0, right: 100, bottom: 0, width: 200, name: 'no steps', color: '#888', spacing: 32, clearance: 16 })
    expect(none.texts.map((t) => t[0])).toEqual(['no steps'])
  })

  it('sizes the backing store at the pixel ratio, draws in CSS pixels, and resizes only when the size changed', () => {
    vi.stubGlobal('devicePixelRatio', 2)
    const calls: string[] = []
    const g = {
      setTransform: (...a: number[]) => calls.push(`setTransform(${a.join(',')})`),
      clearRect: (...a: number[]) => calls.push(`clearRect(${a.join(',')})`),
    }
    let resized = 0
    let backingWidth = 0
    const canvas = {
      getContext: () => g,
      get width() {
        return backingWidth
      },
      set width(v: number) {
        resized++
        backingWidth = v
      },
      height: 0,
    } as unknown as HTMLCanvasElement
    expect(canvasContext(canvas, 100.4, 50)).toBe(g)
    // 100.4 × 2 = 200.8 → 201 device pixels wide, 100 high
    expect([canvas.width, canvas.height]).toEqual([201, 100])
    expect(calls).toEqual(['setTransform(2,0,0,2,0,0)', 'clearRect(0,0,100.4,50)'])
    canvasContext(canvas, 100.4, 50)
    expect(resized).toBe(1)
    expect(canvasContext(null, 10, 10)).toBeNull()
  })
})
