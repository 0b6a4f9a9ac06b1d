/**
 * A table's first pages, found without sorting the table, are the pages of its sorted order: the same rows in the
 * same order and the same totals, for every sort key and direction, filters, ties, infinities and NaN.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ResourceTable } from '../../../../src/main/analysis/resourceTable'
import { RESOURCE_SORT_KEYS, type ResourceQuery } from '../../../../src/shared/ipc'
import { runs } from '../../../properties'

const number = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 6 }) },
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(-0),
  fc.constant(0.5),
  fc.constant(Number.NaN),
)
const row = fc.record({
  id: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 30 }) }, fc.constant(Number.NaN)),
  occupied: number,
  requested: number,
  offset: number,
  created: number,
  placement: fc.constantFrom('Pooled', 'Committed'),
  heap: fc.constantFrom('DEFAULT', 'UPLOAD'),
  tag: fc.constantFrom('a', 'b', ''),
  name: fc.constantFrom('Tex', 'buf', 'texture 2', ''),
})

type Row = typeof row extends fc.Arbitrary<infer R> ? R : never

function tableOf(rows: Row[]): ResourceTable {
  const column = (pick: (r: Row) => number) => Float64Array.from(rows, pick)
  return new ResourceTable(100, {
    id: column((r) => r.id),
    occupied: column((r) => r.occupied),
    requested: column((r) => r.requested),
    offset: column((r) => r.offset),
    created: column((r) => r.created),
    createRecord: column(() => -1),
    estimated: new Uint8Array(rows.length),
    text: () => ({
      name: rows.map((r) => r.name),
      tag: rows.map((r) => r.tag),
      placement: rows.map((r) => r.placement),
      heap: rows.map((r) => r.heap),
      pool: rows.map(() => null),
      kind: rows.map(() => 'buffer' as const),
    }),
  })
}

describe('a resource table', () => {
  it('gives its first pages as the pages of its sorted order', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 150 }),
        fc.constantFrom(...RESOURCE_SORT_KEYS),
        fc.boolean(),
        fc.nat(12),
        fc.nat(12),
        fc.record({
          placement: fc.option(fc.constantFrom(['Pooled'], ['Committed', 'Pooled'])),
          tag: fc.option(fc.constantFrom(['a'], ['b', ''])),
          name: fc.option(fc.constantFrom('tex', 'X')),
        }),
        (rows, sort, descending, offset, limit, f) => {
          const filter = { placement: f.placement ? [...f.placement] : undefined, tag: f.tag ? [...f.tag] : undefined, name: f.name ?? undefined }
          const query: ResourceQuery = { runId: 'r', frame: 0, sort, descending, offset, limit, filter }
          const sorted = tableOf(rows)
          sorted.order(sort, descending)
          expect(tableOf(rows).page(query, 0)).toEqual(sorted.page(query, 0))
        },
      ),
      { numRuns: runs(1000) },
    )
  })
})
