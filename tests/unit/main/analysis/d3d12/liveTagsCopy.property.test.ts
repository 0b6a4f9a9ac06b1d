/**
 * The replay's live rows compare, at a chained checkpoint, only the rows they wrote since the one before: the copy
 * and what it restores are those of the plain comparison of every cell (TableShadow.changes), keeping the id and
 * create-record cells.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LiveTags } from '../../../../../src/main/analysis/d3d12/replay'
import { type RowCopy, TableShadow } from '../../../../../src/main/model/d3d12/rowCopy'
import { runs } from '../../../../properties'
import { keepOnly } from '../../model/d3d12/helpers'

const FIELDS = 5
/** The id and create-record cells of a row: what a checkpoint keeps. */
const kept = (cell: number): boolean => cell % FIELDS === 0 || cell % FIELDS === 4

// Creates at a row (free rows only, as the model numbers live resources apart; far rows leave rows passed over),
// releases of a live row, and checkpoints (some whole, as a chain starts again).
const step = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('add' as const), row: fc.nat(40), id: fc.integer({ min: 0, max: 9 }), record: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('add' as const), row: fc.integer({ min: 1000, max: 1100 }), id: fc.nat(3), record: fc.nat(1000) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('checkpoint' as const), whole: fc.boolean() }) },
)

describe("the replay's live rows at a checkpoint", () => {
  it('copy what the plain comparison of every cell copies, and restore the same cells', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120 }), (steps) => {
        const tags = new LiveTags()
        const live = new Set<number>()
        let since: { shadow: TableShadow; copy: RowCopy } | undefined
        // The plain reference: every cell compared with the cells at the last checkpoint, the kept ones kept.
        let plain: { shadow: TableShadow; copy: RowCopy } | undefined
        for (const s of [...steps, { op: 'checkpoint' as const, whole: false }]) {
          if (s.op === 'add') {
            if (live.has(s.row)) continue
            live.add(s.row)
            tags.add(s.row, s.id, 1, 256, 200, s.record)
          } else if (s.op === 'delete') {
            if (live.size === 0) continue
            const row = [...live][s.pick % live.size]
            live.delete(row)
            tags.delete(row)
          } else if (s.whole || since === undefined || plain === undefined) {
            const copy = tags.copy()
            since = { shadow: tags.shadow(), copy }
            plain = { shadow: tags.shadow(), copy }
          } else {
            const count = tags.cells.length
            const used = (tags as unknown as { used: number }).used * FIELDS
            const expected = keepOnly(plain.shadow.changes([tags.cells], used, [], plain.copy), kept)
            const copy = tags.copy(since)
            expect(copy.count).toBe(expected.count)
            expect(Array.from(copy.rows)).toEqual(Array.from(expected.rows))
            expect(Array.from(copy.values[0])).toEqual(Array.from(expected.values[0]))
            // What a snapshot reads back: every kept cell of every row in use, as the cells are now.
            const restored = copy.restore().columns[0]
            for (let cell = 0; cell < used; cell++) if (kept(cell)) expect(restored[cell], `cell ${cell}`).toBe(tags.cells[cell])
            expect(count).toBe(tags.cells.length)
            since = { shadow: since.shadow, copy }
            plain = { shadow: plain.shadow, copy: expected }
          }
        }
      }),
      { numRuns: runs(300) },
    )
  })
})
