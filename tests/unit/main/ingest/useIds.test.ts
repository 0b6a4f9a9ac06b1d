import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useIdsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { runs } from '../../../properties'
import { useStoreOf as storeOf } from './helpers'

function idsOf(store: ReturnType<typeof storeOf>): number[][] {
  const out: number[][] = []
  for (let i = 0; i < store.records.length; i++) {
    if (store.records.kind[i] === RECORD_KIND.use) out.push([...useIdsOf(store, store.records.ref[i])])
  }
  return out
}

/**
 * The byte coding done plainly (store.ts): per run of consecutive ids, the difference from the id before the
 * run (the last of the previous run), zigzagged, times two plus one if a run follows, as a varint; then the
 * run's length past its first id as a varint.
 */
function plainCoding(lists: number[][]): number[] {
  const out: number[] = []
  const varint = (v: number) => {
    while (v >= 128) {
      out.push((v % 128) + 128)
      v = Math.floor(v / 128)
    }
    out.push(v)
  }
  for (const ids of lists) {
    let previous = 0
    for (let i = 0; i < ids.length; i++) {
      const first = ids[i]
      let run = 0
      while (i + 1 < ids.length && ids[i + 1] === ids[i] + 1) {
        run++
        i++
      }
      const delta = first - previous
      previous = ids[i]
      const zigzag = delta >= 0 ? delta * 2 : -delta * 2 - 1
      varint(zigzag * 2 + (run > 0 ? 1 : 0))
      if (run > 0) varint(run)
    }
  }
  return out
}

describe('use ids', () => {
  it('packs runs of consecutive ids into a few bytes', () => {
    // 1…100: the difference 1 (zigzag 2, times two, plus one for the run: 5) and the run 99: 1 + 1 bytes;
    // 5000: difference 4900, zigzag 9800, times two 19600 ≥ 2^14: 3 bytes; 7: difference -4993, zigzag 9985,
    // times two 19970: 3 bytes. 8 bytes for 102 ids.
    const ids = [...Array.from({ length: 100 }, (_, i) => i + 1), 5000, 7]
    const store = storeOf([ids])
    expect(store.useIds).toBeInstanceOf(Uint8Array)
    expect(store.useIds.byteLength).toBe(8)
    expect(idsOf(store)).toEqual([ids])
  })

  it('gives back every list of safe integers as it was, in order', () => {
    const id = fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 2 ** 51 - 1 }))
    fc.assert(
      fc.property(fc.array(fc.array(id, { maxLength: 40 }), { maxLength: 12 }), (lists) => {
        const store = storeOf(lists)
        expect(store.useIds).toBeInstanceOf(Uint8Array)
        expect(idsOf(store)).toEqual(lists)
      }),
    )
  })

  it('codes ids under 2^28 and past it byte for byte as the plain coding does, across runs and either side of 2^28', () => {
    const near = (base: number) => fc.integer({ min: Math.max(0, base - 300), max: base + 300 })
    const id = fc.oneof(
      fc.integer({ min: 0, max: 70_000 }),
      near(2 ** 28),
      near(2 ** 21),
      fc.integer({ min: 0, max: 2 ** 51 - 1 }),
    )
    // runs of consecutive ids, some crossing 2^28
    const run = fc.tuple(id, fc.integer({ min: 1, max: 200 })).map(([from, length]) => Array.from({ length }, (_, i) => from + i))
    const list = fc.array(fc.oneof(id.map((v) => [v]), run), { maxLength: 12 }).map((parts) => parts.flat())
    fc.assert(
      fc.property(fc.array(list, { maxLength: 8 }), (lists) => {
        const store = storeOf(lists)
        // a run from below 2^51 may end past it: then no id of the capture is coded
        if (lists.every((ids) => ids.every((v) => v < 2 ** 51))) {
          expect(Array.from(store.useIds as Uint8Array)).toEqual(plainCoding(lists))
        } else expect(store.useIds).toBeInstanceOf(Float64Array)
        expect(idsOf(store)).toEqual(lists)
      }),
      { numRuns: runs(200) },
    )
  })

  it('keeps plain floats when a run of ids crosses 2^51 (npm run fuzz, seed 1047930454)', () => {
    // Coded, the 0 after the run would be a difference of -(2^51 + 1): times four, plus one for the run that
    // follows, 2^53 + 3, which a float cannot hold; the bit that says a run follows was lost, and reading the ids
    // back grew an array without end.
    const lists = [[3, 4], [2 ** 51 - 1, 2 ** 51, 2 ** 51 + 1, 0, 1], [7]]
    const store = storeOf(lists)
    expect(store.useIds).toBeInstanceOf(Float64Array)
    expect(idsOf(store)).toEqual(lists)
  })

  it('keeps plain floats for every record once an id does not fit the coding', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 20 }), { maxLength: 6 }),
        fc.constantFrom(-1, 2 ** 51, 2 ** 53 - 1, 1.5),
        fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 20 }), { maxLength: 6 }),
        (before, odd, after) => {
          const lists = [...before, [3, odd, 4], ...after]
          const store = storeOf(lists)
          expect(store.useIds).toBeInstanceOf(Float64Array)
          expect(idsOf(store)).toEqual(lists)
        },
      ),
    )
  })
})
