import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GiB, KiB, MiB } from '../../../../src/shared/units'
import { byteAxis, formatAxisBytes, frameTicks, niceStep } from '../../../../src/renderer/src/lib/ticks'

describe('byte axes step in powers of two', () => {
  it('picks the smallest power of two giving at most the ticks asked, and rounds the top to it', () => {
    // 2000 MiB / 4 ticks = 500 MiB → 512 MiB; ceil(2000 / 512) = 4 → top 2048 MiB
    expect(byteAxis(2000 * MiB, 4)).toEqual({ max: 2 * GiB, interval: 512 * MiB })
    // 3 MiB / 6 = 512 KiB exactly
    expect(byteAxis(3 * MiB, 6)).toEqual({ max: 3 * MiB, interval: 512 * KiB })
    expect(byteAxis(0, 4)).toEqual({ max: KiB, interval: KiB })
  })

  it('every tick of any axis is a whole number of bytes and a power-of-two multiple', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 2 ** 50, noNaN: true }), fc.integer({ min: 1, max: 10 }), (v, ticks) => {
        const axis = byteAxis(v, ticks)
        expect(Math.log2(axis.interval) % 1).toBe(0)
        expect(axis.max).toBeGreaterThanOrEqual(v)
        // no more intervals than asked, plus the one the rounding up may add
        expect(axis.max / axis.interval).toBeLessThanOrEqual(ticks + 1)
      }),
    )
  })

  it('labels binary sizes without trailing zeros', () => {
    expect(formatAxisBytes(1.5 * GiB)).toBe('1.5 GiB')
    expect(formatAxisBytes(768 * MiB)).toBe('768 MiB')
    // 1152 MiB = 1.125 GiB: a 128 MiB step's label keeps its three decimals
    expect(formatAxisBytes(1152 * MiB)).toBe('1.125 GiB')
    expect(formatAxisBytes(0)).toBe('0')
    expect(formatAxisBytes(512)).toBe('512 B')
    expect(formatAxisBytes(-2 * MiB)).toBe('-2 MiB')
  })
})

describe('frame axes step in 1, 2, 5 × 10^k', () => {
  it('finds the step and the ticks', () => {
    expect(niceStep(3)).toBe(5)
    expect(niceStep(12)).toBe(20)
    expect(niceStep(100)).toBe(100)
    expect(niceStep(0.3)).toBe(1)
    // 300 frames on 1200 px, 80 px apart: at least 20 frames a step → 0, 20, …, 300
    const ticks = frameTicks(0, 300, 1200, 80)
    expect(ticks).toHaveLength(16)
    expect(ticks[1]).toBe(20)
    expect(frameTicks(1, 300, 1200, 80)[0]).toBe(20)
  })
})
