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

describe('step series (a value that changes at few frames: the bytes of a tag)', () => {
  const numbers = (n: number) => Float64Array.from({ length: n }, (_, i) => 100 + i)
  const info = (name: string) => ({ name, label: name, unit: 'bytes' as const, group: 'tag' })

  it('log the frames where a value changed, and read as a column of every frame', () => {
    const t = new SeriesTable(numbers(8))
    const a = t.stepSeries(info('tag.A.occupiedBytes'))
    const b = t.stepSeries(info('tag.B.occupiedBytes'))
    const log = t.stepLog
    log.write(a, 0, 0) // 0 from the start: no entry
    log.write(a, 2, 4096)
    log.write(b, 2, 7)
    log.write(a, 3, 4096) // the same value: no entry
    log.write(a, 5, 1024)
    log.write(b, 5, 7)
    log.write(a, 6, 0)
    t.stepsWritten(8)
    expect(log.length).toBe(4)
    expect(Array.from(t.get('tag.A.occupiedBytes')!)).toEqual([0, 0, 4096, 4096, 4096, 1024, 0, 0])
    expect(Array.from(t.get('tag.B.occupiedBytes')!)).toEqual([0, 0, 7, 7, 7, 7, 7, 7])
    expect(t.has('tag.A.occupiedBytes')).toBe(true)
    // 1 024 entries of 16 bytes, 64 series of 12, and the grouping a read made (3 bounds, 4 entries)
    expect(t.byteSize()).toBe(1024 * 16 + 64 * 12 + 3 * 4 + 4 * 4)
  })

  it('take the value written last where a frame is written again', () => {
    const t = new SeriesTable(numbers(4))
    const s = t.stepSeries(info('s'))
    t.stepLog.write(s, 1, 5)
    t.stepLog.write(s, 1, 7)
    t.stepLog.write(s, 2, 9)
    t.stepLog.write(s, 2, 7)
    t.stepsWritten(4)
    expect(Array.from(t.get('s')!)).toEqual([0, 7, 7, 7])
  })

  it('read 0 past the frames written, as a column the replay has not reached yet', () => {
    const t = new SeriesTable(numbers(6))
    const s = t.stepSeries(info('s'))
    t.stepLog.write(s, 1, 3)
    t.stepsWritten(4)
    expect(Array.from(t.get('s')!)).toEqual([0, 3, 3, 3, 0, 0])
  })

  it('equal columns written at every frame, in every query (random values, series written in any mix)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 }), fc.integer({ min: -1e12, max: 1e12 })), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 150 }),
        fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 150, maxLength: 150 }),
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        (values, written, cut, resolution) => {
          const frames = values.length
          const through = 1 + (cut % frames)
          const t = new SeriesTable(numbers(frames))
          const steps = [0, 1, 2].map((k) => t.stepSeries(info(`steps.${k}`)))
          const dense = [0, 1, 2].map((k) => t.column(info(`dense.${k}`)))
          for (let f = 0; f < through; f++) {
            // each series written at some frames only (bit k of `written`): it keeps its value between
            for (let k = 0; k < 3; k++) {
              if ((written[f] & (1 << k)) !== 0 || f === 0) {
                t.stepLog.write(steps[k], f, values[f][k])
                dense[k].fill(values[f][k], f)
              }
            }
          }
          for (let k = 0; k < 3; k++) dense[k].fill(0, through)
          t.stepsWritten(through)
          const names = [0, 1, 2].flatMap((k) => [`steps.${k}`, `dense.${k}`])
          const a = t.query({ runId: 'r', series: names, from: 0, to: frames, resolution })
          for (let k = 0; k < 3; k++) {
            if (Array.from(t.get(`steps.${k}`)!).join() !== Array.from(dense[k]).join()) return false
            for (const field of ['min', 'max', 'mean'] as const) {
              if (Array.from(a.series[`steps.${k}`][field]).join() !== Array.from(a.series[`dense.${k}`][field]).join()) return false
            }
          }
          return true
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('give the largest and the last value a walk over their column gives, without making it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(40), fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 5 }), fc.integer({ min: -1e12, max: 1e12 }))), { maxLength: 30 }),
        fc.nat(45),
        fc.nat(45),
        (writes, frames, through) => {
          const t = new SeriesTable(numbers(frames))
          const s = t.stepSeries(info('s'))
          // frames written in ascending order, some twice
          for (const [frame, value] of [...writes].sort((a, b) => a[0] - b[0])) t.stepLog.write(s, frame, value)
          t.stepsWritten(through)
          const column = t.get('s')!
          let peak = 0
          for (const v of column) if (v > peak) peak = v
          const expected = { peak, last: column.length ? column[column.length - 1] : 0 }
          const dense = t.column(info('dense'))
          dense.set(column)
          return JSON.stringify(t.peakAndLast('s')) === JSON.stringify(expected) && JSON.stringify(t.peakAndLast('dense')) === JSON.stringify(expected)
        },
      ),
      { numRuns: runs(400) },
    )
    expect(new SeriesTable(numbers(2)).peakAndLast('none')).toBeUndefined()
  })

  it('list with the columns in the order they were made, drop those that stayed 0, and are not made where not kept', () => {
    const t = new SeriesTable(numbers(3), { keep: (name) => !name.startsWith('other.') })
    t.column(info('a'))
    const b = t.stepSeries(info('b'))
    t.column(info('c')).set([1, 0, 0])
    const d = t.stepSeries(info('d'))
    expect(t.stepSeries(info('other.e'))).toBe(-1)
    expect(t.stepSeries(info('b'))).toBe(b)
    t.stepLog.write(b, 2, 8)
    t.stepLog.write(d, 1, 0)
    t.stepsWritten(3)
    expect(t.list().map((s) => s.name)).toEqual(['a', 'b', 'c', 'd'])
    expect(() => t.get('other.e')).toThrow('series other.e is not kept by this run')
    t.dropEmpty()
    expect(t.list().map((s) => s.name)).toEqual(['b', 'c'])
    expect(t.has('d')).toBe(false)
  })

  it('keep the column a query made until more frames are written, or the table grows', () => {
    const t = new SeriesTable(numbers(40), { growing: true })
    const s = t.stepSeries(info('s'))
    t.stepLog.write(s, 0, 1)
    t.stepsWritten(20)
    let a = t.query({ runId: 'r', series: ['s'], from: 0, to: 40, resolution: 2 })
    expect(Array.from(a.series.s.max)).toEqual([1, 0])
    t.stepLog.write(s, 25, 6)
    t.stepsWritten(40)
    a = t.query({ runId: 'r', series: ['s'], from: 0, to: 40, resolution: 2 })
    expect(Array.from(a.series.s.max)).toEqual([1, 6])
    expect(Array.from(a.series.s.min)).toEqual([1, 1])
    t.grow(numbers(60))
    t.stepLog.write(s, 50, 2)
    t.stepsWritten(60)
    a = t.query({ runId: 'r', series: ['s'], from: 0, to: 60, resolution: 3 })
    expect(Array.from(a.series.s.max)).toEqual([1, 6, 6])
    expect(Array.from(a.series.s.min)).toEqual([1, 1, 2])
  })
})
