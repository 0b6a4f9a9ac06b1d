/**
 * A column grown by any sequence of appends, under any share of a load's progress (unknown, tiny, going back): it
 * holds what was appended, and a trim gives the exact values, in a view of the same buffer while the slack is no
 * longer than the length, else in a buffer of their size. The bound on a growth is columns.test.ts's (it only
 * binds on columns of millions of values).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Column } from '../../../../src/main/ingest/columns'
import { runs } from '../../../properties'

/**
 * One step of a load: how far it is (0: unknown), then a run of values appended one at a time, or room made for
 * all of them first (a pipelined increment, or a record's list of ids).
 */
const step = fc.record({
  fraction: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
  count: fc.integer({ min: 0, max: 3000 }),
  reserved: fc.boolean(),
})

describe('Column, as a load grows it', () => {
  it('keeps what was appended, and trims to the exact values', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 1, max: 4096 }), fc.array(step, { maxLength: 40 }), (wide, initial, steps) => {
        const column = wide ? new Column(Float64Array, initial) : new Column(Uint8Array, initial)
        const share = { fraction: 0 }
        column.share = share
        const appended: number[] = []
        for (const { fraction, count, reserved } of steps) {
          share.fraction = fraction
          if (reserved) column.reserve(count)
          for (let i = 0; i < count; i++) {
            const value = (appended.length * 7) & 255
            if (reserved) column.data[column.length++] = value
            else column.push(value)
            appended.push(value)
          }
        }
        expect(Array.from(column.view())).toEqual(appended)
        const before = column.data
        const trimmed = column.trim()
        expect(trimmed.length).toBe(appended.length)
        expect(Array.from(trimmed)).toEqual(appended)
        if (before.length - appended.length <= appended.length) expect(trimmed.buffer).toBe(before.buffer)
        else expect(trimmed.buffer.byteLength).toBe(appended.length * trimmed.BYTES_PER_ELEMENT)
      }),
      { numRuns: runs(150) },
    )
  })
})
