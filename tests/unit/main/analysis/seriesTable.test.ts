import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SeriesTable } from '../../../../src/main/analysis/seriesTable'
import { runs } from '../../../properties'

function table(values: number[]): SeriesTable {
  const t = new SeriesTable(Float64Array.from(values, (_, i) => 100 + i))
  t.column({ name: 's', label: 's', unit: 'bytes', group: 'g' }).set(values)
  return t
}

describe('series table', () => {
  it('buckets a range into min, max and mean', () => {
    const t = table([5, 1, 7, 3, 9, 2, 8])
    const a = t.query({ runId: 'r', series: ['s'], from: 1, to: 7, resolution: 3 })
    // frames 1..6 in buckets of 2: [1,7] [3,9] [2,8]
    expect(a.width).toBe(2)
    expect(Array.from(a.start)).toEqual([1, 3, 5])
    expect(Array.from(a.frame)).toEqual([101, 103, 105])
    expect(Array.from(a.series.s.min)).toEqual([1, 3, 2])
    expect(Array.from(a.series.s.max)).toEqual([7, 9, 8])
    expect(Array.from(a.series.s.mean)).toEqual([4, 6, 5])
  })

  it('answers with at most `resolution` buckets and matches a direct scan (pyramid vs brute force)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1e9, max: 1e12 }), { minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 50 }),
        (values, x, y, resolution) => {
          const from = x % values.length
          const to = from + 1 + (y % (values.length - from))
          const a = table(values).query({ runId: 'r', series: ['s'], from, to, resolution })
          if (a.start.length > resolution) return false
          for (let b = 0; b < a.start.length; b++) {
            const s = a.start[b]
            const e = Math.min(to, s + a.width)
            const slice = values.slice(s, e)
            if (a.series.s.min[b] !== Math.min(...slice)) return false
            if (a.series.s.max[b] !== Math.max(...slice)) return false
            const mean = slice.reduce((p, v) => p + v, 0) / slice.length
            if (Math.abs(a.series.s.mean[b] - mean) > Math.abs(mean) * 1e-12 + 1e-6) return false
          }
          return a.start[0] === from
        },
      ),
      { numRuns: runs(400) },
    )
  })

  it('clamps the range and ignores unknown series', () => {
    const a = table([1, 2, 3]).query({ runId: 'r', series: ['s', 'nope'], from: -5, to: 99, resolution: 10 })
    expect(Array.from(a.series.s.max)).toEqual([1, 2, 3])
    expect(a.series.nope).toBeUndefined()
  })
})

describe('a series table that grows (a capture followed as it is written)', () => {
  const numbers = (n: number) => Float64Array.from({ length: n }, (_, i) => 100 + i)

  it('keeps writing through the arrays it handed out, and answers for the frames it has, pyramids included', () => {
    const t = new SeriesTable(numbers(3), { growing: true })
    const column = t.column({ name: 's', label: 's', unit: 'bytes', group: 'g' })
    column.set([4, 8, 6])
    // 40 frames at a resolution of 2: buckets of 20 frames come from the pyramid
    t.grow(numbers(40))
    for (let f = 3; f < 40; f++) column[f] = f
    let a = t.query({ runId: 'r', series: ['s'], from: 0, to: 40, resolution: 2 })
    expect(Array.from(a.series.s.max)).toEqual([19, 39])
    expect(Array.from(a.series.s.min)).toEqual([3, 20])
    // more frames: the pyramid built for 40 frames is not reused for 41
    t.grow(numbers(41))
    column[40] = 100
    a = t.query({ runId: 'r', series: ['s'], from: 0, to: 41, resolution: 2 })
    expect(Array.from(a.series.s.max)).toEqual([20, 100])
    expect(Array.from(a.frame)).toEqual([100, 121])
  })

  it('grows its buffers half again at a time, and gives out its frames alone', () => {
    const t = new SeriesTable(numbers(4), { growing: true })
    const column = t.column({ name: 's', label: 's', unit: 'bytes', group: 'g' })
    const sizes = new Set<number>()
    for (let frames = 5; frames <= 100; frames++) {
      t.grow(numbers(frames))
      column[frames - 1] = frames
      sizes.add(column.length)
      expect(column.length).toBeGreaterThanOrEqual(frames)
      expect(t.get('s')!.length).toBe(frames)
    }
    // 4 → 6 → 9 → 14 → 21 → 32 → 48 → 72 → 108: eight resizes for 96 new frames, not 96
    expect([...sizes]).toEqual([6, 9, 14, 21, 32, 48, 72, 108])
    expect(t.get('s')![99]).toBe(100)
    const a = t.query({ runId: 'r', series: ['s'], from: 0, to: 100, resolution: 1 })
    expect(Array.from(a.series.s.max)).toEqual([100])
    t.settle(numbers(101))
    expect(t.get('s')!.length).toBe(101)
    expect(t.get('s')![100]).toBe(0)
  })

  it('settles into plain arrays of its frames, and refuses to grow past its limit', () => {
    const t = new SeriesTable(numbers(2), { growing: true })
    const column = t.column({ name: 's', label: 's', unit: 'bytes', group: 'g' })
    column.set([1, 2])
    t.settle(numbers(2))
    const settled = t.get('s')!
    expect(settled).not.toBe(column)
    expect(Array.from(settled)).toEqual([1, 2])
    expect(() => t.grow(numbers(3))).toThrow("this run's series do not grow")
    const big = new SeriesTable(numbers(1), { growing: true })
    expect(() => big.grow(new Float64Array(2 ** 21 + 1))).toThrow('a capture followed live holds at most 2097152 frames')
  })
})

describe('a series table that keeps some series (a run read for its report)', () => {
  const numbers = (n: number) => Float64Array.from({ length: n }, (_, i) => 100 + i)
  const info = (name: string) => ({ name, label: name, unit: 'bytes' as const, group: 'g' })

  it('hands the others one scratch column, lists and answers for the kept alone, and refuses to read the others', () => {
    const t = new SeriesTable(numbers(3), { keep: (name) => name.startsWith('kept.') })
    const kept = t.column(info('kept.a'))
    const other = t.column(info('other.a'))
    expect(t.column(info('other.b'))).toBe(other)
    expect(t.column(info('kept.b'))).not.toBe(kept)
    kept.set([1, 2, 3])
    other.set([7, 8, 9])
    expect(t.list().map((s) => s.name)).toEqual(['kept.a', 'kept.b'])
    expect(Array.from(t.get('kept.a')!)).toEqual([1, 2, 3])
    expect(t.get('never.made')).toBeUndefined()
    expect(() => t.get('other.a')).toThrow('series other.a is not kept by this run')
    t.dropEmpty()
    expect(t.list().map((s) => s.name)).toEqual(['kept.a'])
  })

  it('grows its scratch column with the kept ones', () => {
    const t = new SeriesTable(numbers(2), { growing: true, keep: (name) => name === 'kept' })
    const kept = t.column(info('kept'))
    const other = t.column(info('other'))
    t.grow(numbers(50))
    expect(other.length).toBe(kept.length)
    other[49] = 5
    expect(other[49]).toBe(5)
  })
})
