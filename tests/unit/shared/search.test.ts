import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lowerBound, partitionPoint } from '../../../src/shared/search'

describe('binary searches', () => {
  it('finds where a value starts in a sorted column, repeated values included', () => {
    const frames = new Float64Array([0, 2, 2, 2, 5, 9])
    expect(lowerBound(frames, -1)).toBe(0)
    expect(lowerBound(frames, 0)).toBe(0)
    expect(lowerBound(frames, 2)).toBe(1)
    expect(lowerBound(frames, 3)).toBe(4)
    expect(lowerBound(frames, 9)).toBe(5)
    expect(lowerBound(frames, 10)).toBe(6)
    expect(lowerBound([], 1)).toBe(0)
  })

  it('agrees with a scan for any sorted column and value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (raw, value) => {
        const values = [...raw].sort((a, b) => a - b)
        const scan = values.findIndex((v) => v >= value)
        const expected = scan < 0 ? values.length : scan
        expect(lowerBound(values, value)).toBe(expected)
        expect(partitionPoint(values.length, (i) => values[i] < value)).toBe(expected)
      }),
    )
  })
})
