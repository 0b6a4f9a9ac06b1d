/**
 * Running totals the analysis reads at every frame end: per placement (plus the two per-frame page allocators)
 * and per heap type, six numbers each, kept current by every allocation, release, free and pool change. Plain
 * Float64Arrays: reading them allocates nothing.
 */
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { Bytes } from '../../../shared/units'

/** Rows of `byRow`: the placements, then the FastAllocator's pages and the FastConstantAllocator's page pools. */
export const TOTAL_ROWS = [...PLACEMENTS, 'FastAllocatorPage', 'FastConstantPage'] as const
export type TotalRow = (typeof TOTAL_ROWS)[number]
export const ROW_FAST_PAGE = PLACEMENTS.length
export const ROW_FAST_CONSTANT_PAGE = PLACEMENTS.length + 1

/**
 * Columns. heap = occupied + poolFree + pending for every row: what the heaps hold, split into bytes taken by
 * live requests (alignment padding included), bytes free inside pools (spare pools included), and bytes whose
 * release waits for the GPU. requested is what live requests asked for; alignmentWaste = occupied − requested.
 */
export const TOTAL_FIELDS = [
  'heapBytes',
  'occupiedBytes',
  'requestedBytes',
  'alignmentWasteBytes',
  'poolFreeBytes',
  'pendingFreeBytes',
] as const
export const TOTAL_FIELD = { Heap: 0, Occupied: 1, Requested: 2, Waste: 3, PoolFree: 4, Pending: 5 } as const
const FIELDS = TOTAL_FIELDS.length

export class Totals {
  /** [row * 6 + field] */
  readonly byRow: Float64Array
  /** [heap * 6 + field], heaps in HEAP_TYPES order */
  readonly byHeap: Float64Array

  constructor(byRow?: Float64Array, byHeap?: Float64Array) {
    this.byRow = byRow ?? new Float64Array(TOTAL_ROWS.length * FIELDS)
    this.byHeap = byHeap ?? new Float64Array(HEAP_TYPES.length * FIELDS)
  }

  add(row: number, heap: number, field: number, delta: Bytes): void {
    this.byRow[row * FIELDS + field] += delta
    this.byHeap[heap * FIELDS + field] += delta
  }

  /** A live request took `size` bytes for `requested`; `fromPool` when they come out of a pool's free bytes. */
  take(row: number, heap: number, size: Bytes, requested: Bytes, fromPool: boolean): void {
    // add()'s sums, the row's and the heap's columns found once (each cell takes one sum, as add gives it)
    const r = this.byRow
    const h = this.byHeap
    const i = row * FIELDS
    const j = heap * FIELDS
    const waste = size - requested
    r[i + TOTAL_FIELD.Occupied] += size
    h[j + TOTAL_FIELD.Occupied] += size
    r[i + TOTAL_FIELD.Requested] += requested
    h[j + TOTAL_FIELD.Requested] += requested
    r[i + TOTAL_FIELD.Waste] += waste
    h[j + TOTAL_FIELD.Waste] += waste
    if (fromPool) {
      r[i + TOTAL_FIELD.PoolFree] += -size
      h[j + TOTAL_FIELD.PoolFree] += -size
    } else {
      r[i + TOTAL_FIELD.Heap] += size
      h[j + TOTAL_FIELD.Heap] += size
    }
  }

  /** A live request was released: its bytes wait for the GPU. */
  release(row: number, heap: number, size: Bytes, requested: Bytes): void {
    const r = this.byRow
    const h = this.byHeap
    const i = row * FIELDS
    const j = heap * FIELDS
    const waste = requested - size
    r[i + TOTAL_FIELD.Occupied] += -size
    h[j + TOTAL_FIELD.Occupied] += -size
    r[i + TOTAL_FIELD.Requested] += -requested
    h[j + TOTAL_FIELD.Requested] += -requested
    r[i + TOTAL_FIELD.Waste] += waste
    h[j + TOTAL_FIELD.Waste] += waste
    r[i + TOTAL_FIELD.Pending] += size
    h[j + TOTAL_FIELD.Pending] += size
  }

  /** Pending bytes are free: back into their pool, or out of the heap for a committed or reserved resource. */
  free(row: number, heap: number, size: Bytes, toPool: boolean): void {
    const r = this.byRow
    const h = this.byHeap
    const i = row * FIELDS
    const j = heap * FIELDS
    r[i + TOTAL_FIELD.Pending] += -size
    h[j + TOTAL_FIELD.Pending] += -size
    if (toPool) {
      r[i + TOTAL_FIELD.PoolFree] += size
      h[j + TOTAL_FIELD.PoolFree] += size
    } else {
      r[i + TOTAL_FIELD.Heap] += -size
      h[j + TOTAL_FIELD.Heap] += -size
    }
  }

  /** A pool (or page) of `size` bytes was created (+) or destroyed (−). */
  pool(row: number, heap: number, size: Bytes): void {
    this.add(row, heap, TOTAL_FIELD.Heap, size)
    this.add(row, heap, TOTAL_FIELD.PoolFree, size)
  }

  get(row: number, field: number): Bytes {
    return this.byRow[row * FIELDS + field]
  }

  heap(heap: number, field: number): Bytes {
    return this.byHeap[heap * FIELDS + field]
  }

  clone(): Totals {
    return new Totals(this.byRow.slice(), this.byHeap.slice())
  }
}
