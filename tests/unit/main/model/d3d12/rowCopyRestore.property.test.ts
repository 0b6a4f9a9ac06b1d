/**
 * A chain of row copies restores each row from the newest copy that keeps it, else its column's fill, whatever the
 * copies' rows (long runs of consecutive rows, which the whole copy's restore copies as blocks, short runs and
 * gaps) and their float columns kept as 32-bit integers or not. The reference is the plain rule, row by row.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RowCopy, type Column, type TableShape } from '../../../../../src/main/model/d3d12/rowCopy'
import { runs } from '../../../../properties'

const SHAPE: TableShape = { kinds: ['f64', 'f64', 'i32', 'u8'], fill: [0, 0, -1, 0] }

/** A copy's rows as drawn: runs of consecutive rows with gaps between them. */
const rowRuns = fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 40 })), { maxLength: 12 })

const link = fc.record({
  grow: fc.integer({ min: 0, max: 60 }),
  runs: rowRuns,
  // Whether the first float column keeps 32-bit integers (narrowed) or any double.
  narrow: fc.boolean(),
  seed: fc.integer(),
  free: fc.array(fc.nat(500), { maxLength: 4 }),
  keep: fc.nat(6),
})

/** The rows of `runs` below `count`, ascending. */
function rowsOf(drawn: [number, number][], count: number): Int32Array {
  const rows: number[] = []
  let r = 0
  for (const [gap, length] of drawn) {
    r += gap
    for (let k = 0; k < length && r < count; k++) rows.push(r++)
  }
  return Int32Array.from(rows)
}

/** A deterministic value for (seed, row, column), of the column's kind. */
function value(seed: number, row: number, column: number, narrow: boolean): number {
  const x = Math.imul(seed ^ (row * 2654435761), 40503 + column) >>> 0
  if (column === 0) return narrow ? (x % 2000) - 1000 : x / 7 - 3e5
  if (column === 1) return x % 3 === 0 ? 2 ** 40 + x : x % 1000
  if (column === 2) return (x % 500) - 250
  return x & 255
}

describe('a chain of row copies restored', () => {
  it('reads each row from the newest copy that keeps it, else the fill, as a plain walk does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.array(link, { minLength: 1, maxLength: 6 }), fc.nat(300), (first, links, slack) => {
        let count = first
        let previous: RowCopy | null = null
        const chain: RowCopy[] = []
        for (const l of links) {
          count += previous === null ? 0 : l.grow
          const rows = rowsOf(l.runs, count)
          const values: Column[] = SHAPE.kinds.map((kind, j) => {
            const v = Array.from(rows, (r) => value(l.seed, r, j, l.narrow))
            if (kind === 'u8') return Uint8Array.from(v)
            if (kind === 'i32' || (j === 0 && l.narrow)) return Int32Array.from(v)
            return Float64Array.from(v)
          })
          const keep: number = previous === null ? 0 : Math.min(l.keep, (previous as RowCopy).freeKeep + (previous as RowCopy).free.length)
          previous = new RowCopy(SHAPE, count, rows, values, keep, l.free, previous)
          chain.push(previous)
        }
        const newest = chain[chain.length - 1]
        const capacity = count + slack
        const { columns, free } = newest.restore(capacity)
        // The plain rule: row by row, the newest copy keeping it, else the fill; past the count, 0.
        for (let j = 0; j < SHAPE.kinds.length; j++) {
          expect(columns[j].length).toBe(Math.max(count, capacity))
          const want: number[] = []
          for (let r = 0; r < columns[j].length; r++) {
            if (r >= count) {
              want.push(0)
              continue
            }
            let v = SHAPE.fill[j]
            for (let i = chain.length - 1; i >= 0; i--) {
              const k = Array.prototype.indexOf.call(chain[i].rows, r)
              if (k >= 0) {
                v = chain[i].values[j][k]
                break
              }
            }
            want.push(v)
          }
          expect(Array.from(columns[j])).toEqual(want)
        }
        // The free list: each copy keeps a prefix of the one before and adds its own.
        let plain: number[] = []
        for (const c of chain) plain = [...plain.slice(0, c.freeKeep), ...c.free]
        expect(free).toEqual(plain)
      }),
      { numRuns: runs(300) },
    )
  })
})
