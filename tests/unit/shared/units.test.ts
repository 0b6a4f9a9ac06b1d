import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatBytes, formatCount, lcm, roundDown, roundUp, roundUpPow2 } from '../../../src/shared/units'

describe('units', () => {
  it('rounds like the allocators do, beyond 32 bits', () => {
    expect(roundUp(1000, 256)).toBe(1024)
    expect(roundUp(1024, 256)).toBe(1024)
    expect(roundUp(1000 + 48, 256)).toBe(1280) // stride-12 aligned size: (1000 + 48) up to 256
    expect(roundUp(2 ** 40 + 1, 65536)).toBe(2 ** 40 + 65536)
    expect(roundDown(2 ** 40 + 65537, 65536)).toBe(2 ** 40 + 65536)
    expect(roundUpPow2(200 * 2 ** 20)).toBe(256 * 2 ** 20)
    expect(roundUpPow2(2 ** 33 + 1)).toBe(2 ** 34)
    expect(lcm(12, 16)).toBe(48)
    expect(lcm(64, 16)).toBe(64)
  })

  it('roundUp gives the least multiple not below the value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: 1, max: 2 ** 20 }), (v, a) => {
        const r = roundUp(v, a)
        return r % a === 0 && r >= v && r - v < a
      }),
    )
  })

  it('formats sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1023 B')
    // a rate under 1 KiB a frame: three significant digits, as above it
    expect([1011.0924369747, 12.345, 0.5, -3.25].map(formatBytes)).toEqual(['1011 B', '12.3 B', '0.50 B', '-3.25 B'])
    expect(formatBytes(1536)).toBe('1.50 KiB')
    expect(formatBytes(16 * 2 ** 20)).toBe('16.0 MiB')
    expect(formatBytes(3 * 2 ** 30)).toBe('3.00 GiB')
    expect(formatBytes(-(2 ** 20))).toBe('-1.00 MiB')
    expect(formatCount(1234567)).toBe('1,234,567')
  })
})
