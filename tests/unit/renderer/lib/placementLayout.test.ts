/**
 * The geometry of a frame's application heaps in the aliasing view: rectangles, active bars, marks, shared bytes,
 * the hazard's box, folded unused bytes. The frame is the fake host's (tests/unit/renderer/fakeHost.ts,
 * placementsAnswer).
 */
import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import {
  busiestHeaps,
  byteSegments,
  byteY,
  hazardAt,
  layoutPlacements,
  placedAliases,
  placedAt,
} from '../../../../src/renderer/src/lib/placementLayout'
import { placementsAnswer } from '../fakeHost'

describe('placement layout', () => {
  // 600 px of plot for 6 steps: 100 px a step from x = 100; the panel from y = 4 + 20 (header) = 24, 300 − 20
  // (bottom) − 4 − 20 (header) = 256 px high for 256 KiB: 1 px a KiB
  const a = placementsAnswer('run-1', 45)
  const l = layoutPlacements(a, { width: 700, height: 300, left: 100, bottom: 20, gap: 10, header: 20, right: 0 })
  const box = (b: { x: number; y: number; w: number; h: number }) => [b.x, b.y, b.w, b.h]

  it('draws each resource over its bytes for the steps it was placed, and its active spans inside', () => {
    expect(l.panels.map((p) => [p.x, p.y, p.w, p.h])).toEqual([[100, 24, 600, 256]])
    // A [0, 128 KiB) steps [0, 6); B [64, 192 KiB) steps [0, 5), released before the submit; C [192, 256 KiB)
    expect(l.rects.map(box)).toEqual([
      [100, 24, 600, 128],
      [100, 88, 500, 128],
      [100, 216, 600, 64],
    ])
    // A active [0, 2), B active [2, 5)
    expect(l.active.map((r) => [r.index, ...box(r)])).toEqual([
      [0, 100, 24, 200, 128],
      [1, 300, 88, 300, 128],
    ])
    // A and B share [64, 128 KiB) over the steps both were placed, [0, 5)
    expect(l.bands.map(box)).toEqual([[100, 88, 500, 64]])
    expect(l.submits).toEqual([650])
  })

  it('puts each mark at its step, in the bytes its resource shares with none other', () => {
    // A's own bytes [0, 64 KiB): middle 32 KiB, y 56; B's [128, 192 KiB): middle 160 KiB, y 184; a step's centre
    // is 100 + (s + 0.5) × 100
    expect(l.accesses.map((m) => [m.step, m.index, m.x, m.y, m.kind])).toEqual([
      [1, 0, 250, 56, 1],
      [3, 1, 450, 184, 1],
      [4, 0, 550, 56, 0],
    ])
    // step 0 activates A; step 2 activates B (kind 1) and ends A (kind 0)
    expect(l.barriers.map((m) => [m.step, m.index, m.x, m.y, m.kind])).toEqual([
      [0, 0, 150, 56, 1],
      [2, 1, 350, 184, 1],
      [2, 0, 350, 56, 0],
    ])
  })

  it('boxes the hazard over its bytes and its resources’ steps, its step line at the read', () => {
    // [64, 128 KiB): y 88, 64 px; A and B together span x 100 to 700
    expect(l.hazards.map((h) => [h.hazard, h.stepX, ...box(h)])).toEqual([[0, 550, 100, 88, 600, 64]])
    expect(hazardAt(l, 550, 100)).toBe(0)
    expect(hazardAt(l, 550, 200)).toBe(-1)
  })

  it('finds the resource under the mouse: the one active there where two are drawn over each other', () => {
    // y 120 is in A's and B's bytes; A is active left of x 300, B from 300 to 600; past 600 only A is placed
    expect(placedAt(l, 250, 120)).toEqual({ heap: 0, index: 0 })
    expect(placedAt(l, 400, 120)).toEqual({ heap: 0, index: 1 })
    expect(placedAt(l, 650, 120)).toEqual({ heap: 0, index: 0 })
    expect(placedAt(l, 400, 250)).toEqual({ heap: 0, index: 2 })
    expect(placedAt(l, 50, 50)).toBeNull()
    expect(placedAliases(a, 0, 0)).toEqual([1])
    expect(placedAliases(a, 0, 2)).toEqual([])
  })

  it('with more heaps than it stacks, draws those with a hazard first, then the fullest', () => {
    // heap 0 has the hazard and 3 resources; six more: ids 60 to 65 with 0, 5, 1, 5, 2 and 4 resources
    const base = placementsAnswer('run-1', 45)
    const counts = [0, 5, 1, 5, 2, 4]
    const heaps = [
      base.heaps[0],
      ...counts.map((n, k) => ({
        ...base.heaps[0],
        id: 60 + k,
        resources: { ...base.heaps[0].resources, id: new Float64Array(n), name: Array.from({ length: n }, () => '') },
      })),
    ]
    const many = { ...base, heaps }
    // the hazard's heap (index 0), then 5, 5 (ids 61 and 63: indices 2 and 4), then 4 (id 65, index 6); in index order
    expect(busiestHeaps(many)).toEqual([0, 2, 4, 6])
    // by bytes before counts: one 64 MiB resource outweighs four of 256 KiB
    const sized = (n: number, size: number) => ({
      ...base.heaps[0],
      id: 70 + n,
      resources: { ...base.heaps[0].resources, id: new Float64Array(n), size: new Float64Array(n).fill(size), name: Array.from({ length: n }, () => '') },
    })
    const mixed = { ...base, hazards: [], heaps: [sized(4, 256 << 10), sized(1, 64 << 20), sized(3, 256 << 10), sized(2, 32 << 20), sized(5, 1 << 10)] }
    expect(busiestHeaps(mixed, -1, 2)).toEqual([1, 3])
    const drawn = layoutPlacements(many, { width: 700, height: 900, left: 100, bottom: 20, gap: 10, header: 20, heaps: [0, 2] })
    expect(drawn.panels.map((p) => p.heap)).toEqual([0, 2])
    // heap 0's hazard is drawn; heap 1 is not, so nothing of it is
    expect(drawn.hazards).toHaveLength(1)
    expect(drawn.rectOf[1]).toEqual([])
  })

  it('fitted, folds the unused bytes between and after the used runs', () => {
    // used: [0, 4 MiB) and [32, 34 MiB) of 64 MiB; 6 MiB used, so gaps of 0.6 MiB or more fold to 18 px. 400 px:
    // 2 folds leave 364; each run 26 px plus its share of the 312 left: 4/6 → 234 px, 2/6 → 130 px
    const p = byteSegments(
      [
        [0, 4 * MiB],
        [32 * MiB, 34 * MiB],
      ],
      64 * MiB,
      0,
      400,
      true,
    )
    expect(p.segments.map((s) => [s.from / MiB, s.to / MiB, s.y, s.h])).toEqual([
      [0, 4, 0, 234],
      [32, 34, 252, 130],
    ])
    expect(p.breaks.map((s) => [s.from / MiB, s.to / MiB, s.y, s.h])).toEqual([
      [4, 32, 234, 18],
      [34, 64, 382, 18],
    ])
    // 33 MiB: half way down the second run, 252 + 65
    expect(byteY({ ...p, y: 0, h: 400 }, 33 * MiB)).toBe(317)
    // not fitted: the whole heap to scale
    expect(byteSegments([[0, 4 * MiB]], 64 * MiB, 10, 400, false)).toEqual({ segments: [{ from: 0, to: 64 * MiB, y: 10, h: 400 }], breaks: [] })
  })
})
