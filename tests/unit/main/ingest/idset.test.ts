/**
 * IdSet against a JS Set: the ids a capture uses (small integers, kept by index) and every other kind of number
 * (negative, fractions, past the indexed range, -0), added, deleted and cleared in any order.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdSet } from '../../../../src/main/ingest/idset'
import { runs } from '../../../properties'

type Op = { op: 'add' | 'delete' | 'has'; id: number } | { op: 'clear' }

// mostly a few ids, so that operations meet the same id again
const id = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 5000 }) },
  { weight: 3, arbitrary: fc.constantFrom(-0, -1, -7, 0.5, 3.25, 2 ** 22 - 1, 2 ** 22, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, -(2 ** 53) + 1) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
)
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('add' as const), id }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('delete' as const), id }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('has' as const), id }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
)

/** The answers of each operation, and the size after it. */
function play(ops: Op[], set: { add(id: number): boolean; delete(id: number): boolean; has(id: number): boolean; clear(): void; size: number }): (boolean | number)[] {
  return ops.flatMap((o) => {
    if (o.op === 'clear') {
      set.clear()
      return [set.size]
    }
    return [set[o.op](o.id), set.size]
  })
}

/** A JS Set with IdSet's answers: add and delete say whether they changed it. */
function reference(): { add(id: number): boolean; delete(id: number): boolean; has(id: number): boolean; clear(): void; size: number } {
  const s = new Set<number>()
  return {
    add: (id) => (s.has(id) ? false : (s.add(id), true)),
    delete: (id) => s.delete(id),
    has: (id) => s.has(id),
    clear: () => s.clear(),
    get size() {
      return s.size
    },
  }
}

describe('IdSet', () => {
  it('answers as a Set does, for any ids and operations', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 400, size: 'max' }), (ops) => {
        expect(play(ops, new IdSet(4))).toEqual(play(ops, reference()))
      }),
      { numRuns: runs(300) },
    )
  })

  it('keeps its members across more clears than it has stamps, and across growth', () => {
    const set = new IdSet()
    const ref = reference()
    const ops: Op[] = []
    for (let round = 0; round < 900; round++) {
      for (let i = 0; i < 7; i++) ops.push({ op: 'add', id: (round * 37 + i * 1009) % 20000 })
      ops.push({ op: 'delete', id: (round * 37) % 20000 }, { op: 'has', id: ((round + 1) * 37) % 20000 })
      ops.push({ op: 'add', id: -round }, { op: 'add', id: round + 0.25 })
      if (round % 3 === 2) ops.push({ op: 'clear' })
    }
    for (let id = 0; id < 20000; id += 13) ops.push({ op: 'has', id })
    expect(play(ops, set)).toEqual(play(ops, ref))
  })
})
