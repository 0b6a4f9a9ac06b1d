/**
 * A table kept as a chain of copies (a whole one, then only the rows that changed, some taken in by the next as a
 * thinning does) restores to the table it was copied from, row for row, free list included; a plain copy of every
 * state is the reference.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { changedRows, RowCopy, TableShadow, type Column, type TableShape } from '../../../../../src/main/model/d3d12/rowCopy'
import { runs } from '../../../../properties'
import { keepOnly } from './helpers'

const SHAPE: TableShape = { kinds: ['f64', 'i32', 'u8'], fill: [0, -1, 0] }

/** A growing table of three columns and a free list, as the model's tables are. */
class Table {
  count = 0
  columns: Column[] = [new Float64Array(4), new Int32Array(4).fill(-1), new Uint8Array(4)]
  free: number[] = []

  grow(): void {
    const n = this.columns[0].length * 2
    this.columns = this.columns.map((c, j) => {
      const g = c instanceof Float64Array ? new Float64Array(n) : c instanceof Int32Array ? new Int32Array(n).fill(SHAPE.fill[j]) : new Uint8Array(n)
      g.set(c as never)
      return g as Column
    })
  }

  /** One drawn edit: a row added, a cell written, a row pushed on or popped off the free list (`withFree`). */
  apply(e: Edit, withFree = true): void {
    if (e.op === 'add') {
      if (this.count === this.columns[0].length) this.grow()
      this.count++
    } else if (e.op === 'write' && this.count > 0) {
      const v = e.column === 0 ? e.value : e.column === 1 ? Math.trunc(e.value) | 0 : Math.abs(Math.trunc(e.value)) & 255
      this.columns[e.column][e.row % this.count] = Number.isNaN(v) && e.column > 0 ? 0 : v
    } else if (!withFree) return
    else if (e.op === 'push' && this.count > 0) this.free.push(e.row % this.count)
    else if (e.op === 'pop') this.free.pop()
  }

  /** The rows and the free list as plain values: every row counts (a whole copy below keeps them all). */
  plain(): { rows: number[][]; free: number[] } {
    const rows: number[][] = []
    for (let r = 0; r < this.count; r++) rows.push(this.columns.map((c) => c[r]))
    return { rows, free: this.free.slice() }
  }
}

const edit = fc.oneof(
  fc.record({ op: fc.constant('add' as const) }),
  fc.record({
    op: fc.constant('write' as const),
    row: fc.nat(),
    column: fc.nat(2),
    // Integers, fractions, NaN and -0: a float column narrowed to 32-bit integers only when every value is one.
    value: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.double({ noDefaultInfinity: true }), fc.constant(-0)),
  }),
  fc.record({ op: fc.constant('push' as const), row: fc.nat() }),
  fc.record({ op: fc.constant('pop' as const) }),
)

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never

describe('chained row copies', () => {
  it('restore every state they were made from, however the chain was thinned', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(edit, { maxLength: 30 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (steps, thinning) => {
          const table = new Table()
          const states: ReturnType<Table['plain']>[] = []
          const copies: RowCopy[] = []
          let shadow: TableShadow | undefined
          for (const step of steps) {
            for (const e of step) table.apply(e)
            states.push(table.plain())
            if (shadow === undefined) {
              // Every row, so that a restore equals the table exactly.
              const all = Int32Array.from({ length: table.count }, (_, r) => r)
              copies.push(RowCopy.whole(SHAPE, table.columns, table.count, all, table.free))
              shadow = TableShadow.of(table.columns, table.count, table.free)
            } else {
              copies.push(shadow.changes(table.columns, table.count, table.free, copies[copies.length - 1]))
            }
          }
          // Thinning: a copy taken in by the next one goes (the last always stays).
          const kept = copies.map((copy, k) => ({ copy, state: states[k] }))
          for (const pick of thinning) {
            if (kept.length < 2) break
            const k = pick % (kept.length - 1)
            kept[k + 1].copy.absorbPrevious()
            kept.splice(k, 1)
          }
          for (const { copy, state } of kept) {
            const { columns, free } = copy.restore()
            const rows: number[][] = []
            for (let r = 0; r < copy.count; r++) rows.push(columns.map((c) => c[r]))
            expect({ rows, free }).toEqual(state)
          }
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('keep only the rows that changed, and float columns as 32-bit integers when every value kept is one', () => {
    const columns: Column[] = [new Float64Array([1, 2.5, 3, 4]), new Int32Array([5, 6, 7, 8]), new Uint8Array([1, 1, 0, 1])]
    const whole = RowCopy.whole(SHAPE, columns, 4, Int32Array.from([0, 1, 3]), [2])
    expect(Array.from(whole.values[0])).toEqual([1, 2.5, 4])
    expect(whole.values[0]).toBeInstanceOf(Float64Array)
    const shadow = TableShadow.of(columns, 4, [2])
    columns[0][3] = 9
    columns[2][0] = 0
    const free = [2, 0]
    const next = shadow.changes(columns, 4, free, whole)
    expect(Array.from(next.rows)).toEqual([0, 3])
    // Rows 0 and 3 hold whole numbers only: kept as 32-bit integers.
    expect(next.values[0]).toBeInstanceOf(Int32Array)
    expect(Array.from(next.values[0])).toEqual([1, 9])
    expect([next.freeKeep, next.free]).toEqual([1, [0]])
    // Nothing changed since: an empty copy.
    const none = shadow.changes(columns, 4, free, next)
    expect(none.rows.length).toBe(0)
    // Row 2 is in no copy: it reads as the fill values.
    expect(none.restore().columns.map((c) => Array.from(c))).toEqual([
      [1, 2.5, 0, 9],
      [5, 6, -1, 8],
      [0, 1, 0, 1],
    ])
    expect(none.restore().free).toEqual([2, 0])
  })

  it('find the rows that changed in any column, bit for bit', () => {
    // The plain reference: a row changed when any column differs, bit for bit (NaN payloads and -0 apart).
    const plain = (now: Column[], before: Column[], count: number): number[] => {
      const rows: number[] = []
      for (let r = 0; r < count; r++) {
        const differs = now.some((c, j) => {
          if (!(c instanceof Float64Array)) return c[r] !== before[j][r]
          const [x, y] = [c, before[j]].map((f) => new Int32Array(f.buffer, 8 * r, 2))
          return x[0] !== y[0] || x[1] !== y[1]
        })
        if (differs) rows.push(r)
      }
      return rows
    }
    const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double(), fc.constant(-0), fc.constant(Number.NaN))
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 70 }),
        fc.array(fc.record({ row: fc.nat(), column: fc.nat(2), value }), { maxLength: 40 }),
        fc.array(fc.record({ row: fc.nat(), column: fc.nat(2), value }), { maxLength: 12 }),
        fc.nat(4),
        (count, old, writes, slack) => {
          const before: Column[] = [new Float64Array(count + slack), new Int32Array(count + slack), new Uint8Array(count + slack)]
          const write = (columns: Column[], w: (typeof writes)[number]): void => {
            const c = columns[w.column]
            if (count > 0) c[w.row % count] = w.column === 0 ? w.value : Number.isNaN(w.value) ? 7 : Math.trunc(w.value)
          }
          for (const w of old) write(before, w)
          const now = before.map((c) => c.slice()) as Column[]
          for (const w of writes) write(now, w)
          // Rows past `count` differ too: they are not looked at.
          for (let r = count; r < count + slack; r++) for (const c of now) c[r] = 99
          expect(Array.from(changedRows(now, before, count))).toEqual(plain(now, before, count))
        },
      ),
      { numRuns: runs(500) },
    )
  })

  it('restore the rows they keep when each copy keeps only some rows', () => {
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 30 }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 2, max: 4 }), (steps, every) => {
        // Rows r with r % every === 1 are never kept: they read as the fill values.
        const keep = (r: number) => r % every !== 1
        const table = new Table()
        let shadow: TableShadow | undefined
        let last: RowCopy | undefined
        for (const step of steps) {
          for (const e of step) table.apply(e, false)
          if (shadow === undefined || last === undefined) {
            const all = Int32Array.from({ length: table.count }, (_, r) => r)
            last = keepOnly(RowCopy.whole(SHAPE, table.columns, table.count, all, []), keep)
            shadow = TableShadow.of(table.columns, table.count, [])
          } else {
            last = keepOnly(shadow.changes(table.columns, table.count, [], last), keep)
          }
          const { columns } = last.restore()
          for (let r = 0; r < table.count; r++) {
            const want = keep(r) ? table.columns.map((c) => c[r]) : SHAPE.fill
            expect(columns.map((c) => c[r])).toEqual(want)
          }
          expect(Array.from(last.rows).every(keep)).toBe(true)
        }
      }),
      { numRuns: runs(300) },
    )
  })
})
