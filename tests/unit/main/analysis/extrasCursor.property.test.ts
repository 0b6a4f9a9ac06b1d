/**
 * The extras cursor answers what the store's map answers, record by record, whatever order the replays ask in
 * (ascending, jumps forward and back to checkpoints) and while the map grows between questions (a followed
 * capture); a map whose entries are not in record order is looked up instead of walked.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ExtrasCursor } from '../../../../src/main/analysis/extrasCursor'

/** Ascending record indexes that have extra keys, and the questions: record indexes, with growth steps between. */
const script = fc.record({
  gaps: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 20, maxLength: 300 }),
  asks: fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant<'next'>('next') },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 1900 }) },
      { weight: 1, arbitrary: fc.constant<'grow'>('grow') },
    ),
    { minLength: 50, maxLength: 400 },
  ),
})

describe('ExtrasCursor', () => {
  it('gives each record the map gives it, in any order of questions, as the map grows', () => {
    fc.assert(
      fc.property(script, ({ gaps, asks }) => {
        const all: Array<[number, string]> = []
        let record = -1
        for (const gap of gaps) {
          record += gap
          all.push([record, `"k":${record}`])
        }
        const extras = new Map<number, string>()
        let added = 0
        const grow = () => {
          const to = Math.min(all.length, added + 1 + Math.floor(all.length / 4))
          for (; added < to; added++) extras.set(all[added][0], all[added][1])
        }
        grow()
        const cursor = new ExtrasCursor(extras)
        let index = 0
        for (const ask of asks) {
          if (ask === 'grow') {
            grow()
            continue
          }
          index = ask === 'next' ? index + 1 : ask
          expect(cursor.get(index)).toBe(extras.get(index))
        }
      }),
    )
  })

  it('mirrors what the map gained after the cursor had read it all', () => {
    const extras = new Map<number, string>([[1, 'a']])
    const cursor = new ExtrasCursor(extras)
    expect(cursor.get(1)).toBe('a')
    extras.set(5, 'b')
    expect(cursor.get(5)).toBe('b')
  })

  it('looks records up when the map is not in record order', () => {
    const extras = new Map<number, string>([
      [5, 'a'],
      [2, 'b'],
      [9, 'c'],
    ])
    const cursor = new ExtrasCursor(extras)
    expect([0, 2, 5, 6, 9, 2].map((i) => cursor.get(i))).toEqual([undefined, 'b', 'a', undefined, 'c', 'b'])
  })

  it('walks a store of consecutive records without a miss', () => {
    const extras = new Map<number, string>()
    for (let i = 0; i < 1000; i += 3) extras.set(i, `t${i}`)
    const cursor = new ExtrasCursor(extras)
    for (let i = 0; i < 1000; i++) expect(cursor.get(i)).toBe(i % 3 === 0 ? `t${i}` : undefined)
    // back to a checkpoint, then on again
    for (let i = 300; i < 330; i++) expect(cursor.get(i)).toBe(i % 3 === 0 ? `t${i}` : undefined)
  })
})
