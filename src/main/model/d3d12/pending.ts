/**
 * The releases waiting for the GPU, in release order: each with the frame it was released in and what its
 * completion needs of its allocation (where its bytes are, its totals row and heap, the resource's id), copied when
 * released. A pending allocation does not change until it completes, so the completion reads the queue, one
 * cache line per release in the order they come, instead of the allocation's columns, cold by then.
 */
import type { Bytes, Frame } from '../../../shared/units'

/** Numbers per release: one 64-byte line. */
export const STRIDE = 8
/** Fields of a release, at its offset in `cells`. */
export const Pend = {
  /** The allocation slot; NONE (-1) for a FastConstantAllocator page, which has none (its entry is all of it). */
  Slot: 0,
  Frame: 1,
  /** loc | row << 8 | heap << 16 | resource << 24 (resource: 1 for a buffer's or texture's release) */
  Meta: 2,
  /** Pool id (Loc.Pool, Loc.Buddy). */
  Pool: 3,
  /** The block (Loc.Pool), the order (Loc.Buddy), or the resource's own residency object (any other loc; NONE: none). */
  Block: 4,
  /** The buddy block's start (Loc.Buddy). */
  Base: 5,
  /** Occupied bytes (Loc.Pool, Loc.Buddy); the physical bytes held for any other loc (a reserved one's committed). */
  Size: 6,
  /** The resource id (a buffer's or texture's release). */
  Id: 7,
} as const

/** Packs the fields of Pend.Meta (loc, row and heap each below 256). */
export function pendMeta(loc: number, row: number, heap: number, resource: boolean): number {
  return loc | (row << 8) | (heap << 16) | (resource ? 1 << 24 : 0)
}

export class PendingQueue {
  // small at first, so it first grows early in a replay, while the engine still interprets releaseSlot: a growth
  // first met in optimised code throws that code away mid-replay (ingest/README.md, "Cold start")
  cells = new Float64Array(16 * STRIDE)
  /** Offsets in `cells` of the first pending release and of the next free entry. */
  head = 0
  tail = 0

  /** A release at the tail, with its fields (see Pend). */
  push(slot: number, frame: Frame, meta: number, pool: number, block: number, base: Bytes, size: Bytes, id: number): void {
    if (this.tail === this.cells.length) this.grow()
    const c = this.cells
    const o = this.tail
    c[o] = slot
    c[o + 1] = frame
    c[o + 2] = meta
    c[o + 3] = pool
    c[o + 4] = block
    c[o + 5] = base
    c[o + 6] = size
    c[o + 7] = id
    this.tail = o + STRIDE
  }

  /** Where the releases made after `frame` start: those in [head, dueEnd) were released in `frame` or before. */
  dueEnd(frame: Frame): number {
    let o = this.head
    while (o < this.tail && this.cells[o + Pend.Frame] <= frame) o += STRIDE
    return o
  }

  /** The releases before `end` are done. */
  drop(end: number): void {
    this.head = end
    if (this.head === this.tail) {
      this.head = 0
      this.tail = 0
    }
  }

  /** Releases waiting. */
  get length(): number {
    return (this.tail - this.head) / STRIDE
  }

  /** Only the pending releases, from the head. */
  clone(): PendingQueue {
    const c = new PendingQueue()
    const n = this.tail - this.head
    c.cells = new Float64Array(Math.max(16 * STRIDE, n))
    c.cells.set(this.cells.subarray(this.head, this.tail))
    c.tail = n
    return c
  }

  private grow(): void {
    const n = this.tail - this.head
    if (this.head > 0 && n < this.cells.length / 2) {
      this.cells.copyWithin(0, this.head, this.tail)
    } else {
      const cells = new Float64Array(this.cells.length * 2)
      cells.set(this.cells.subarray(this.head, this.tail))
      this.cells = cells
    }
    this.head = 0
    this.tail = n
  }
}
