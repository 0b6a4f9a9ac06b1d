/**
 * A store's extra keys in record order answer what a map from record index to text answers: looked up, and
 * through a cursor whatever order a replay asks in (ascending, jumps forward and back to checkpoints) while the
 * store grows between questions (a followed capture). Records given out of order are refused.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RecordExtras } from '../../../../src/main/ingest/recordExtras'

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

describe('RecordExtras', () => {
  it('gives each record the map gives it, looked up or walked in any order of questions, as it grows', () => {
    fc.assert(
      fc.property(script, ({ gaps, asks }) => {
        const all: Array<[number, string]> = []
        let record = -1
        for (const gap of gaps) {
          record += gap
          all.push([record, `"k":${record}`])
        }
        const map = new Map<number, string>()
        const extras = new RecordExtras()
        let added = 0
        const grow = () => {
          const to = Math.min(all.length, added + 1 + Math.floor(all.length / 4))
          for (; added < to; added++) {
            map.set(all[added][0], all[added][1])
            extras.set(all[added][0], all[added][1])
          }
        }
        grow()
        const cursor = extras.cursor()
        let index = 0
        for (const ask of asks) {
          if (ask === 'grow') {
            grow()
            continue
          }
          index = ask === 'next' ? index + 1 : ask
          expect(cursor.get(index)).toBe(map.get(index))
          expect(extras.get(index)).toBe(map.get(index))
        }
      }),
    )
  })

  it('refuses a record before one it has', () => {
    const extras = new RecordExtras()
    extras.set(5, 'a')
    expect(() => extras.set(2, 'b')).toThrow('extra keys of record 2 after those of record 5')
    expect(() => extras.set(5, 'c')).toThrow()
    expect([...extras]).toEqual([[5, 'a']])
  })

  it('walks a store of consecutive records without a miss', () => {
    const extras = new RecordExtras()
    for (let i = 0; i < 1000; i += 3) extras.set(i, `t${i}`)
    const cursor = extras.cursor()
    for (let i = 0; i < 1000; i++) expect(cursor.get(i)).toBe(i % 3 === 0 ? `t${i}` : undefined)
    // back to a checkpoint, then on again
    for (let i = 300; i < 330; i++) expect(cursor.get(i)).toBe(i % 3 === 0 ? `t${i}` : undefined)
  })
})
