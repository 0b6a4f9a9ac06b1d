/**
 * UseLines (the distinct id lists of a store's `use` records, found by the line that came after the last one, else by
 * a hash of the packed ids) against a plain recomputation: each record's ids unpacked (useIdsOf), and lines numbered
 * by comparing the lists themselves.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useIdsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { UseLines } from '../../../../src/main/ingest/useLines'
import { runs } from '../../../properties'
import { useStoreOf as storeOf } from './helpers'

type Store = ReturnType<typeof storeOf>

/** The `ref` of each use record, in order. */
function refsOf(store: Store): number[] {
  const refs: number[] = []
  for (let i = 0; i < store.records.length; i++) if (store.records.kind[i] === RECORD_KIND.use) refs.push(store.records.ref[i])
  return refs
}

/** Each record's line, asked in `order`, checked against the plain ids; `seen` maps a list's text to its line. */
function check(lines: UseLines, store: Store, order: number[], seen: Map<string, number>): void {
  const refs = refsOf(store)
  for (const r of order) {
    const line = lines.lineOf(store, refs[r])
    const ids = useIdsOf(store, refs[r])
    const from = lines.from(line)
    expect(Array.from(lines.ids.subarray(from, from + lines.count(line)))).toEqual(ids)
    // equal lists, and only they, share a line
    const key = ids.join(',')
    const known = seen.get(key)
    if (known === undefined) {
      expect([...seen.values()]).not.toContain(line)
      seen.set(key, line)
    } else expect(line).toBe(known)
  }
  expect(lines.lines).toBe(seen.size)
}

// A few base lists with small variations: runs, repeats, large ids (several bytes each), near-equal lists.
const base = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 ** 40 }) },
    { weight: 1, arbitrary: fc.constant(0) },
  ),
  { maxLength: 20 },
)
const records = fc
  .tuple(fc.array(base, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 300 })), { minLength: 1, maxLength: 60 }))
  .map(([bases, picks]) =>
    picks.map(([b, at, id]) => {
      const list = [...bases[b % bases.length]]
      // one list in three changes one id (or gains one): a list equal but for one place
      if (at % 3 === 0 && list.length > 0) list[at % list.length] = id
      else if (at % 3 === 1) list.push(id)
      return list
    }),
  )

describe('use lines', () => {
  it('give equal lists one line, and each line its ids, in any order of the records', () => {
    fc.assert(
      fc.property(records, fc.array(fc.nat()), (lists, shuffle) => {
        const store = storeOf(lists)
        const lines = new UseLines()
        const seen = new Map<string, number>()
        const inOrder = lists.map((_, r) => r)
        check(lines, store, inOrder, seen)
        // again, in order (each guess right), then in another order
        check(lines, store, inOrder, seen)
        check(lines, store, shuffle.map((s) => s % lists.length), seen)
      }),
      { numRuns: runs(300) },
    )
  })

  it('start again when the store recodes its ids as plain numbers', () => {
    fc.assert(
      fc.property(records, (lists) => {
        const packed = storeOf(lists)
        expect(packed.useIds).toBeInstanceOf(Uint8Array)
        // a fraction does not fit the byte coding: every list is stored as plain numbers
        const plain = storeOf([...lists, [0.5]])
        expect(plain.useIds).toBeInstanceOf(Float64Array)
        const lines = new UseLines()
        check(lines, packed, lists.map((_, r) => r), new Map())
        const before = lines.ids
        check(lines, plain, [...lists, [0.5]].map((_, r) => r), new Map())
        expect(lines.ids).not.toBe(before)
      }),
      { numRuns: runs(100) },
    )
  })
})

describe('use lines past the bound', () => {
  it('keep no new line while most records name new ids, and read every line they give right', () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 0, max: 4 }), (some, keep) => {
        // mostly new lists, then repeats of them, then new lists again (kept while most records repeated)
        const lists = [...some, ...some, ...some, ...some.map((ids) => [...ids, 7777])]
        const store = storeOf(lists)
        const refs = refsOf(store)
        const lines = new UseLines(keep)
        const seen = new Map<string, number>()
        lists.forEach((ids, r) => {
          const key = ids.join(',')
          const isNew = !seen.has(key)
          const line = lines.lineOf(store, refs[r])
          if (line < 0) {
            // read from the store: only a new list past the bound (at most 240 records here: fewer than are looked up
            // before any is passed over, see the next test)
            expect(lines.lines).toBeGreaterThanOrEqual(keep)
            return
          }
          const from = lines.from(line)
          expect(Array.from(lines.ids.subarray(from, from + lines.count(line)))).toEqual(useIdsOf(store, refs[r]))
          if (isNew) seen.set(key, line)
          else expect(line).toBe(seen.get(key))
        })
        expect(lines.lines).toBe(seen.size)
      }),
      { numRuns: runs(300) },
    )
  })

  it('look up one record in sixteen while few find their line, and all again once lists repeat', () => {
    // 400 lists never seen again: after 256 records, none of which found its line, only one in sixteen is looked up
    const fresh = Array.from({ length: 400 }, (_, k) => [1000 + k, 5])
    const repeats = Array.from({ length: 80 }, () => fresh[0])
    const store = storeOf([...fresh, ...repeats])
    const refs = refsOf(store)
    const lines = new UseLines()
    const answers = refs.map((ref) => lines.lineOf(store, ref))
    expect(answers.slice(0, 256)).toEqual(Array.from({ length: 256 }, (_, k) => k))
    // from then on, a new line only for the records looked up: 144 / 16 of them
    const sampled = answers.slice(256, 400)
    expect(sampled.filter((line) => line >= 0)).toEqual(Array.from({ length: 9 }, (_, k) => 256 + k))
    expect(lines.lines).toBe(265)
    // the first list again: at first answered from the store but one in sixteen, then found every time
    const again = answers.slice(400)
    expect(again.slice(0, 16).filter((line) => line === 0).length).toBeLessThanOrEqual(1)
    expect(again.slice(0, 16).filter((line) => line === -1).length).toBeGreaterThanOrEqual(15)
    expect(again.slice(64).every((line) => line === 0)).toBe(true)
  })
})
