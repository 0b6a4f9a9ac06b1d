/**
 * A chain of row copies restores each row from the newest copy that keeps it, else its column's fill, whatever the
 * copies' rows (long runs of consecutive rows, which the whole copy's restore copies as blocks, short runs and
 * gaps) and their float columns kept as 32-bit integers or not. The reference is the plain rule, row by row.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyColumn, RecycledColumns, RowCopy, type Column, type TableShape } from '../../../../../src/main/model/d3d12/rowCopy'
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

/** The chain of copies the drawn links make, and the count of the newest. */
function chainOf(first: number, links: Link[]): { chain: RowCopy[]; count: number } {
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
    const before: RowCopy | null = previous
    const keep: number = before === null ? 0 : Math.min(l.keep, before.freeKeep + before.free.length)
    previous = new RowCopy(SHAPE, count, rows, values, keep, l.free, previous)
    chain.push(previous)
  }
  return { chain, count }
}

type Link = typeof link extends fc.Arbitrary<infer T> ? T : never

/** Columns someone let go: of any kind and length, some views of part of a buffer, every value garbage. */
const letGo = fc.array(
  fc.record({ kind: fc.constantFrom('f64', 'i32', 'u8'), length: fc.integer({ min: 1, max: 600 }), view: fc.boolean(), junk: fc.integer() }),
  { maxLength: 12 },
)

function junkColumn(kind: string, length: number, view: boolean, junk: number): Column {
  const whole = length + (view ? 7 : 0)
  const c: Column = kind === 'f64' ? new Float64Array(whole) : kind === 'i32' ? new Int32Array(whole) : new Uint8Array(whole)
  for (let i = 0; i < whole; i++) c[i] = kind === 'f64' ? (junk ^ i) / 3 : junk ^ (i * 977)
  return view ? (c.subarray(3, 3 + length) as Column) : c
}

describe('a chain of row copies restored', () => {
  it('into recycled columns gives the columns a restore into new ones gives, whatever they held', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.array(link, { minLength: 1, maxLength: 4 }), fc.nat(300), letGo, (first, links, slack, drawn) => {
        const { chain, count } = chainOf(first, links)
        const newest = chain[chain.length - 1]
        const pool = new RecycledColumns()
        pool.give(drawn.map((d) => junkColumn(d.kind, d.length, d.view, d.junk)))
        const capacity = count + slack
        const plain = newest.restore(capacity)
        const recycled = newest.restore(capacity, pool)
        expect(recycled.free).toEqual(plain.free)
        for (let j = 0; j < SHAPE.kinds.length; j++) {
          expect(recycled.columns[j].constructor).toBe(plain.columns[j].constructor)
          expect(Array.from(recycled.columns[j])).toEqual(Array.from(plain.columns[j]))
        }
        // A copy of part of a column into a recycled one is its slice.
        const source = plain.columns[0]
        const n = Math.min(source.length, first)
        expect(Array.from(copyColumn(source, n, pool))).toEqual(Array.from(source.slice(0, n)))
      }),
      { numRuns: runs(200) },
    )
  })

  it('takes the smallest recycled column of its kind that has the room, and keeps twice what one give brought', () => {
    fc.assert(
      fc.property(fc.array(letGo, { minLength: 1, maxLength: 4 }), fc.constantFrom('f64', 'i32', 'u8'), fc.integer({ min: 1, max: 600 }), (gives, kind, length) => {
        const pool = new RecycledColumns()
        // The plain rule: every column's whole length by kind; after each give, the largest twice as many as the
        // most one give brought.
        const kept: Record<string, number[]> = { f64: [], i32: [], u8: [] }
        const most: Record<string, number> = { f64: 0, i32: 0, u8: 0 }
        for (const drawn of gives) {
          pool.give(drawn.map((d) => junkColumn(d.kind, d.length, d.view, d.junk)))
          for (const k of ['f64', 'i32', 'u8']) {
            const brought = drawn.filter((d) => d.kind === k).map((d) => d.length + (d.view ? 7 : 0))
            kept[k].push(...brought)
            most[k] = Math.max(most[k], brought.length)
            if (kept[k].length > 2 * most[k]) kept[k] = kept[k].sort((x, y) => y - x).slice(0, 2 * most[k])
          }
        }
        const counts = pool.counts()
        for (const k of ['f64', 'i32', 'u8'] as const) expect(counts[k]).toBe(kept[k].reduce((sum, n) => sum + n, 0))
        const fits = kept[kind].filter((n) => n >= length)
        const taken = pool.take(kind, length)
        if (fits.length === 0) {
          expect(taken).toBeUndefined()
          // A column made instead: zeros, as long as the longest given of its kind, viewed at the length asked.
          const made = pool.column(kind, length)
          expect(made.length).toBe(length)
          expect(made.every((v) => v === 0)).toBe(true)
          const longest = Math.max(length, ...gives.flat().filter((d) => d.kind === kind).map((d) => d.length + (d.view ? 7 : 0)))
          expect(made.buffer.byteLength / made.BYTES_PER_ELEMENT).toBe(longest)
        } else {
          expect(taken!.length).toBe(length)
          expect(taken!.constructor).toBe(kind === 'f64' ? Float64Array : kind === 'i32' ? Int32Array : Uint8Array)
          expect(taken!.buffer.byteLength / taken!.BYTES_PER_ELEMENT).toBe(Math.min(...fits))
          expect(pool.counts()[kind]).toBe(counts[kind] - Math.min(...fits))
        }
      }),
      { numRuns: runs(200) },
    )
  })

  it('makes new columns at the length asked until columns are given back, then as long as the longest made', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 6 }), fc.constantFrom('f64', 'i32', 'u8'), (lengths, kind) => {
        const pool = new RecycledColumns()
        // Never given to: each column its own length, whatever was made before (their bytes all count as memory).
        for (const n of lengths) {
          const made = pool.column(kind, n)
          expect(made.length).toBe(n)
          expect(made.buffer.byteLength / made.BYTES_PER_ELEMENT).toBe(n)
        }
        // Once a column came back, a new one is made as long as the longest made or given, to fit later tables.
        pool.give([junkColumn(kind, 1, false, 3)])
        pool.take(kind, 1)
        const after = pool.column(kind, 1)
        expect(after.length).toBe(1)
        expect(after[0]).toBe(0)
        expect(after.buffer.byteLength / after.BYTES_PER_ELEMENT).toBe(Math.max(...lengths))
      }),
      { numRuns: runs(100) },
    )
  })

  it('reads each row from the newest copy that keeps it, else the fill, as a plain walk does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.array(link, { minLength: 1, maxLength: 6 }), fc.nat(300), (first, links, slack) => {
        const { chain, count } = chainOf(first, links)
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
