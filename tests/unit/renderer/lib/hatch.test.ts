import { afterEach, describe, expect, it, vi } from 'vitest'
import { Hatches, hatchTile } from '../../../../src/renderer/src/lib/hatch'

/** A 2D context that records the calls a tile is drawn with. */
function recordingContext(calls: string[]): unknown {
  return new Proxy(
    {},
    {
      get: (_, name: string) => (...args: unknown[]) => calls.push(`${name}(${args.join(',')})`),
      set: (_, name: string, value: unknown) => {
        calls.push(`${name}=${String(value)}`)
        return true
      },
    },
  )
}

describe('hatches', () => {
  afterEach(() => vi.restoreAllMocks())

  it('draws the diagonal and the corners that continue it into the next tiles, on the background when given', () => {
    const calls: string[] = []
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(recordingContext(calls) as never)
    const tile = hatchTile('#ff0000', 6, 1.5, '#101010')
    expect(tile?.width).toBe(6)
    expect(calls).toEqual([
      'fillStyle=#101010',
      'fillRect(0,0,6,6)',
      'strokeStyle=#ff0000',
      'lineWidth=1.5',
      'beginPath()',
      'moveTo(-1,7)',
      'lineTo(7,-1)',
      'moveTo(5,7)',
      'lineTo(7,5)',
      'moveTo(-1,1)',
      'lineTo(1,-1)',
      'stroke()',
    ])
  })

  it('makes one pattern per colour and background, and falls back to the plain colour without a canvas', () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
    const created: string[] = []
    const g = { createPattern: () => created.push('pattern') } as unknown as CanvasRenderingContext2D
    const hatches = new Hatches(7, 1.6)
    expect(hatches.get(g, '#00ff00')).toBe('#00ff00')
    expect(created).toEqual([])

    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(recordingContext([]) as never)
    const pattern = {} as CanvasPattern
    const made = { createPattern: vi.fn(() => pattern) } as unknown as CanvasRenderingContext2D
    hatches.clear()
    expect(hatches.get(made, '#00ff00')).toBe(pattern)
    expect(hatches.get(made, '#00ff00')).toBe(pattern)
    expect(hatches.get(made, '#00ff00', '#000000')).toBe(pattern)
    expect(made.createPattern).toHaveBeenCalledTimes(2)
  })
})
