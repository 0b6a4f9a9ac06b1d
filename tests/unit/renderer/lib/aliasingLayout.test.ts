import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import { aliasingFigures, layoutAliasing, rectAt } from '../../../../src/renderer/src/lib/aliasingLayout'
import { execution } from '../fakeHost'

describe('aliasing layout', () => {
  // 700 × 340 px, 100 px of offset labels, 20 px of pass labels: 600 px for 6 passes (100 px each), and
  // 340 − 20 − 6 = 314 px for the 16 MiB heap (19.625 px a MiB)
  const layout = layoutAliasing(execution(), { width: 700, height: 340, left: 100, bottom: 20, gap: 10, right: 0 })

  it('draws each resource from its first pass to the end of its last over its bytes', () => {
    expect(layout.panels).toHaveLength(1)
    expect(layout.panels[0]).toMatchObject({ x: 100, y: 6, w: 600, h: 314, extent: 16 * MiB })
    const [a, b, c] = layout.rects
    expect(a).toMatchObject({ index: 0, x: 100, w: 300, y: 6, h: 78.5 })
    expect(b).toMatchObject({ index: 1, x: 400, w: 300, y: 6 + 2 * 19.625, h: 78.5 })
    expect(c).toMatchObject({ index: 2, x: 100, w: 600, y: 6 + 8 * 19.625, h: 2 * 19.625 })
  })

  it('marks the shared bytes on both resources of an overlapping pair', () => {
    // A [0, 4 MiB) and B [2, 6 MiB) share [2, 4 MiB): 39.25 px from y = 45.25, on A's passes and on B's
    expect(layout.bands).toEqual([
      { on: 0, with: 1, x: 100, w: 300, y: 45.25, h: 39.25 },
      { on: 1, with: 0, x: 400, w: 300, y: 45.25, h: 39.25 },
    ])
    expect(rectAt(layout, 150, 50)).toBe(0)
    expect(rectAt(layout, 450, 100)).toBe(1)
    expect(rectAt(layout, 150, 170)).toBe(2)
    expect(rectAt(layout, 50, 50)).toBe(-1)
    expect(aliasingFigures(execution())).toEqual({ requested: 10 * MiB, aliased: 2, heapBytes: 16 * MiB })
  })

  it('fits a heap to the bytes it uses: past the 10 MiB reached, to a round 12 MiB', () => {
    const fitted = layoutAliasing(execution(), { width: 700, height: 340, left: 100, bottom: 20, gap: 10, right: 0, fit: true })
    // 10 MiB × 1.04 over 8 ticks: 2 MiB steps → top 12 MiB
    expect(fitted.panels[0].extent).toBe(12 * MiB)
    expect(fitted.rects[2].y + fitted.rects[2].h).toBeCloseTo(6 + (10 / 12) * 314, 9)
  })
})
