/**
 * A store's extra keys in record order answer what a map from record index to text answers: looked up, and
 * through a cursor whatever order a replay asks in (ascending, jumps forward and back to checkpoints) while the
 * store grows between questions (a followed capture). Records given out of order are refused. Texts without a
 * number, kept as bytes, read back as they came.
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

  it('keeps texts without a number as their bytes, read back as the text that came, numbered ones apart', () => {
    const extras = new RecordExtras()
    const texts: Array<[number, string, number]> = []
    const encoder = new TextEncoder()
    // 3 000 loose texts (past the first arena's 1 024 bytes many times), some not ASCII, given as text or as bytes
    // in a larger buffer; numbered texts between them, one repeated by its number with no text
    for (let i = 0; i < 3000; i++) {
      const text = `"callstack":${0x7ff600000000 + i * 977},"module":"${i % 7 === 0 ? 'Моду́ль €' : 'Engine'}"`
      if (i % 2 === 0) extras.set(3 * i, text)
      else {
        const bytes = encoder.encode(`xx${text}yy`)
        extras.setBytes(3 * i, bytes, 2, bytes.length - 2)
      }
      texts.push([3 * i, text, 0])
      if (i === 10) {
        extras.set(3 * i + 1, '"tiling":"optimal"', 1)
        texts.push([3 * i + 1, '"tiling":"optimal"', 1])
      }
      if (i === 20) {
        extras.set(3 * i + 1, '', 1)
        texts.push([3 * i + 1, '"tiling":"optimal"', 1])
      }
    }
    expect([...extras]).toEqual(texts.map(([record, text]) => [record, text]))
    expect(texts.map((_, i) => extras.idAt(i))).toEqual(texts.map(([, , id]) => id))
    expect(extras.looseCount).toBe(3000)
    // the loose texts end to end, each ending where the next starts
    const decoder = new TextDecoder()
    const loose = texts.filter(([, , id]) => id === 0).map(([, text]) => text)
    expect(decoder.decode(extras.looseSpan(0, 3000))).toBe(loose.join(''))
    expect(decoder.decode(extras.looseSpan(5, 7))).toBe(loose[5] + loose[6])
    expect(decoder.decode(extras.looseAt(2999))).toBe(loose[2999])
    expect(extras.get(3 * 2999)).toBe(loose[2999])
    // trimmed once the load is done, the same texts; one added after (a capture followed on) grows it again
    extras.trim()
    expect([...extras]).toEqual(texts.map(([record, text]) => [record, text]))
    extras.set(9000, '"late":"é"')
    expect(extras.get(9000)).toBe('"late":"é"')
    expect(decoder.decode(extras.looseAt(2999))).toBe(loose[2999])
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
