import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hash32, hashString, Prng } from '../../../../src/main/gen/prng'

describe('Prng (sfc32 seeded by splitmix32)', () => {
  it('gives the outputs of an independent implementation of the same definition', () => {
    // Computed with a separate Python version: splitmix32 of the seed's halves, 12 outputs discarded.
    const a = new Prng(1)
    expect([a.u32(), a.u32(), a.u32(), a.u32()]).toEqual([3276081061, 3536646176, 411271446, 454431522])
    // A seed past 2^32: its high half counts.
    const b = new Prng(2 ** 40 + 5)
    expect([b.u32(), b.u32(), b.u32(), b.u32()]).toEqual([3049911455, 3219034047, 1273515609, 1172378548])
    expect(hash32(1, 2, 3)).toBe(3185729794)
  })

  it('repeats itself for a seed and differs between seeds', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (seed) => {
        const [x, y, z] = [new Prng(seed), new Prng(seed), new Prng(seed + 1)]
        const xs = Array.from({ length: 8 }, () => x.u32())
        expect(Array.from({ length: 8 }, () => y.u32())).toEqual(xs)
        expect(Array.from({ length: 8 }, () => z.u32())).not.toEqual(xs)
      }),
    )
  })

  it('keeps its ranges: int inclusive, float below 1, pick and weighted within the list', () => {
    const rng = new Prng(42)
    const seen = new Set<number>()
    for (let i = 0; i < 10000; i++) {
      const v = rng.int(3, 7)
      expect(v).toBeGreaterThanOrEqual(3)
      expect(v).toBeLessThanOrEqual(7)
      seen.add(v)
      const f = rng.float()
      expect(f).toBeGreaterThanOrEqual(0)
      expect(f).toBeLessThan(1)
      const w = rng.logRange(64 * 1024, 32 * 1024 * 1024)
      expect(w).toBeGreaterThanOrEqual(64 * 1024)
      expect(w).toBeLessThanOrEqual(32 * 1024 * 1024)
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7])
    // Weights 1:3: index 1 comes about three times as often (7500 of 10000, within 3 %).
    let ones = 0
    for (let i = 0; i < 10000; i++) ones += rng.weighted([1, 3])
    expect(ones).toBeGreaterThan(7200)
    expect(ones).toBeLessThan(7800)
  })

  it('spreads a uniform integer evenly (chi-square over 16 buckets)', () => {
    const rng = new Prng(9)
    const buckets = new Array(16).fill(0)
    const n = 160000
    for (let i = 0; i < n; i++) buckets[rng.u32() >>> 28]++
    const expected = n / 16
    const chi = buckets.reduce((sum, b) => sum + (b - expected) ** 2 / expected, 0)
    // 15 degrees of freedom: above 37.7 only once in a thousand for a uniform source.
    expect(chi).toBeLessThan(37.7)
  })

  it('hashes names stably (FNV-1a)', () => {
    // FNV-1a of "a": (0x811c9dc5 ^ 0x61) * 0x01000193 mod 2^32 = 0xe40c292c.
    expect(hashString('a')).toBe(0xe40c292c)
    expect(hashString('')).toBe(0x811c9dc5)
  })
})
