import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DIRECT_ID_LIMIT, IdTable } from '../../../../src/main/model/idTable'
import { runs } from '../../../properties'

/** The table's pairs, by id: what a Map holding the same would list. */
function pairs(t: IdTable): [number, number][] {
  const out: [number, number][] = []
  t.forEach((slot, id) => out.push([id, slot]))
  return out.sort((a, b) => a[0] - b[0])
}

const sorted = (m: Map<number, number>): [number, number][] => [...m].sort((a, b) => a[0] - b[0])

describe('IdTable (a model’s live resources by capture id)', () => {
  // ids a capture may hold: small integers most of all, and those the flat table leaves to its Map
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 3000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 140_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 10_000_000, max: 10_003_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: DIRECT_ID_LIMIT - 2, max: DIRECT_ID_LIMIT + 2 }) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: -1 }) },
    { weight: 1, arbitrary: fc.constantFrom(0.5, 2 ** 40, -0, Number.MAX_SAFE_INTEGER) },
  )
  const op = fc.oneof(
    fc.record({ set: id, slot: fc.integer({ min: 0, max: 2 ** 31 - 2 }) }),
    fc.record({ del: id }),
    fc.record({ copy: fc.constantFrom('plain', 'packed', 'packed twice') }),
  )

  it('answers as a Map does, through copies of every kind taken at any point', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.array(id, { minLength: 1, maxLength: 20 }), (ops, asked) => {
        let table = new IdTable()
        let map = new Map<number, number>()
        for (const o of ops) {
          if ('set' in o) {
            table.set(o.set, o.slot)
            map.set(o.set === 0 ? 0 : o.set, o.slot)
          } else if ('del' in o) {
            expect(table.delete(o.del)).toBe(map.delete(o.del))
          } else {
            // the copy goes on; the original must stay as it was
            const before = pairs(table)
            const copy = o.copy === 'plain' ? table.clone() : o.copy === 'packed' ? table.clone(true) : table.clone(true).clone()
            table.set(1, 7)
            table.delete(2)
            expect(pairs(copy)).toEqual(before)
            table = copy
            map = new Map(map)
          }
          expect(table.size).toBe(map.size)
        }
        for (const a of asked) {
          expect(table.get(a)).toBe(map.get(a))
          expect(table.has(a)).toBe(map.has(a))
        }
        expect(pairs(table)).toEqual(sorted(map))
      }),
      { numRuns: runs(300) },
    )
  })

  it('grows its flat table only while it stays dense, and takes in the far ids it comes to cover', () => {
    type Inner = { direct: Int32Array; far: Map<number, number> }
    // a capture numbering from ten million: its table starts there, as long as its ids span
    const offset = new IdTable()
    for (let i = 0; i < 100; i++) offset.set(10_000_000 + 3 * i, i)
    expect((offset as unknown as Inner).direct.length).toBe(1024)
    expect([offset.get(10_000_297), offset.get(297), offset.size]).toEqual([99, undefined, 100])
    // ids that jump ten million past a hundred live ones wait in the Map: no table of ten million
    const sparse = new IdTable()
    for (let i = 0; i < 100; i++) sparse.set(i === 0 ? 0 : 10_000_000 + 3 * i, i)
    expect((sparse as unknown as Inner).direct.length).toBe(1024)
    expect((sparse as unknown as Inner).far.size).toBe(99)
    expect(sparse.get(10_000_297)).toBe(99)
    // ids from 0 fill the table; one far past them waits in the Map until enough are live for the table to reach it
    const t = new IdTable()
    for (let i = 0; i < 1500; i++) t.set(i, i)
    t.set(100_000, 7)
    expect((t as unknown as Inner).far.size).toBe(1)
    for (let i = 1500; i < 2100; i++) t.set(i, i)
    t.set(120_000, 8)
    const inner = t as unknown as Inner
    expect(inner.direct.length).toBe(131_072)
    expect(inner.far.size).toBe(0)
    expect([t.get(100_000), t.get(120_000), t.get(2099), t.size]).toEqual([7, 8, 2099, 2102])
    expect(t.delete(100_000)).toBe(true)
    expect(t.get(100_000)).toBeUndefined()
    // a packed copy makes the same: the offset table from its base, the sparse one's jumps in the Map
    const copy = offset.clone(true)
    expect([copy.get(10_000_000), copy.get(10_000_297)]).toEqual([0, 99])
    expect((copy as unknown as Inner).direct.length).toBe(1024)
    const sparseCopy = sparse.clone(true)
    expect([sparseCopy.get(0), sparseCopy.get(10_000_297), sparseCopy.size]).toEqual([0, 99, 100])
    expect((sparseCopy as unknown as Inner).far.size).toBe(99)
  })

  it('keeps a checkpoint’s copy as its live pairs until it is used', () => {
    const table = new IdTable()
    for (let i = 0; i < 5000; i++) table.set(100_000 + i, i)
    for (let i = 0; i < 4900; i++) table.delete(100_000 + i)
    const packed = table.clone(true) as unknown as Record<string, unknown>
    // 100 pairs, no flat table of a hundred thousand ids
    expect((packed.direct as Int32Array).length).toBe(0)
    expect((packed.packedIds as Float64Array).length).toBe(100)
    const copy = packed as unknown as IdTable
    expect(copy.get(104_950)).toBe(4950)
    expect(copy.get(100_000)).toBeUndefined()
    expect(IdTable.from(new Float64Array([3, 2 ** 40]), new Float64Array([9, 4])).get(2 ** 40)).toBe(4)
  })
})
