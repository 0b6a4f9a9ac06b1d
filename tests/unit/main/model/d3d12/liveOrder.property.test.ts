/**
 * The live table's order (creation frame, then id) from a counting sort of slots listed by ascending id, as a plain
 * sort of the same slots gives it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { byCreation } from '../../../../../src/main/model/d3d12/views'
import { runs } from '../../../../properties'

describe('the live order by creation', () => {
  it('is the plain sort by creation frame, then id, whenever the ids ascend and the frames are small whole numbers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // Mostly small whole frames, now and then a fraction, a negative or a huge one (no counting sort then).
            created: fc.oneof({ weight: 12, arbitrary: fc.nat(40) }, fc.constant(2.5), fc.constant(-1), fc.constant(1e9)),
            gap: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 5 }) }, fc.constant(0), fc.constant(-3)),
          }),
          { maxLength: 60 },
        ),
        fc.nat(),
        (rows, seed) => {
          // Slots are a shuffled range: the id map lists them by id, not by slot.
          const n = rows.length
          const slots = Int32Array.from({ length: n }, (_, i) => (i * 7 + seed) % Math.max(1, n))
          const distinct = new Set(slots).size === n
          if (!distinct) for (let i = 0; i < n; i++) slots[i] = i
          const created = new Float64Array(n)
          const id = new Float64Array(n)
          let next = 0
          rows.forEach((r, i) => {
            next += r.gap
            created[slots[i]] = r.created
            id[slots[i]] = next
          })
          const plain = Array.from(slots).sort((x, y) => created[x] - created[y] || id[x] - id[y] || x - y)
          const fast = byCreation(slots, created, id)
          const ascending = rows.every((r, i) => i === 0 || r.gap > 0)
          const small = rows.every((r) => Number.isInteger(r.created) && r.created >= 0 && r.created < 4 * n + 1024)
          expect(fast === null).toBe(!(ascending && small))
          if (fast !== null) expect(Array.from(fast)).toEqual(plain)
        },
      ),
      { numRuns: runs(500) },
    )
  })
})
