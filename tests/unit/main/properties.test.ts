/** The property tests' seed: fixed in `npm test`, so every run draws the same cases (tests/setup/fastCheck.ts). */
import fc from 'fast-check'
import { describe, expect, inject, it } from 'vitest'

describe('property test seed', () => {
  it('is the one vitest.config.ts provides, the fixed one outside a fuzz run', () => {
    const { seed, runs } = inject('fastCheck')
    expect(fc.readConfigureGlobal().seed).toBe(seed)
    if (process.env.HEAPSCOPE_FUZZ === undefined && process.env.HEAPSCOPE_SEED === undefined) {
      expect(seed).toBe(20261201)
      expect(runs).toBe(1)
    }
  })

  it('draws the same values every time', () => {
    const draw = () => fc.sample(fc.integer(), 20)
    expect(draw()).toEqual(draw())
  })
})
