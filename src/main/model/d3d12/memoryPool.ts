/**
 * FRHIMemoryPool (seed §3.4): one pool's blocks in a list ordered by offset (allocated and free, covering the
 * whole pool), plus the free blocks in an array sorted by size for best fit (or by offset for first fit). An
 * allocation takes the start of the chosen free block and leaves the remainder free; a freed block coalesces with
 * free neighbours.
 *
 * Blocks of every pool live in one BlockTable of typed arrays, so a pool costs no object per block and a clone is
 * a handful of array copies.
 */
import { roundUp } from '../../../shared/units'
import type { Bytes, Frame } from '../../../shared/units'
import { copyColumn, restoredCapacity, RowCopy, TableShadow, type Column, type RecycledColumns, type TableShape } from './rowCopy'
import { doubleFields } from '../doubles'

export const NONE = -1
export const BlockState = { Free: 0, Allocated: 1 } as const

/** Whether a request pads in a pool: the pool alignment is not a multiple of the request's. */
export function pads(poolAlignment: Bytes, alignment: Bytes): boolean {
  return poolAlignment % alignment !== 0
}

/** FRHIMemoryPool::GetAlignedSize: the block size a request takes in a pool. */
export function alignedSize(
  size: Bytes,
  poolAlignment: Bytes,
  alignment: Bytes,
  padded = pads(poolAlignment, alignment),
): Bytes {
  return padded ? roundUp(size + alignment, poolAlignment) : roundUp(size, poolAlignment)
}

/** FRHIMemoryPool::GetAlignedOffset: where the request starts inside a block starting at `offset`. */
export function alignedOffset(
  offset: Bytes,
  poolAlignment: Bytes,
  alignment: Bytes,
  padded = pads(poolAlignment, alignment),
): Bytes {
  return padded ? roundUp(offset, alignment) : offset
}

/** The blocks' columns as a checkpoint's copy keeps them: a block no copy keeps reads as free and ownerless. */
const BLOCK_SHAPE: TableShape = { kinds: ['f64', 'f64', 'i32', 'i32', 'u8', 'i32'], fill: [0, 0, 0, 0, 0, NONE] }

export class BlockTable {
  offset = new Float64Array(256)
  size = new Float64Array(256)
  prev = new Int32Array(256)
  next = new Int32Array(256)
  state = new Uint8Array(256)
  /** The allocation slot that owns an allocated block, NONE for a free one. */
  owner = new Int32Array(256)
  count = 0
  private freeSlots: number[] = []
  /** A checkpoint's copy of the blocks (see packedClone, changedSince), null otherwise; its clone() restores it. */
  copy: RowCopy | null = null

  alloc(): number {
    const reused = this.freeSlots.pop()
    if (reused !== undefined) return reused
    if (this.count === this.offset.length) this.grow()
    return this.count++
  }

  release(b: number): void {
    this.owner[b] = NONE
    this.state[b] = BlockState.Free
    this.freeSlots.push(b)
  }

  /** A deep copy holding only the blocks made so far, its columns taken from `pool` where one is given. */
  clone(pool?: RecycledColumns): BlockTable {
    if (this.copy !== null) return this.restored(pool)
    const c = new BlockTable()
    const n = this.count
    c.offset = copyColumn(this.offset, n, pool)
    c.size = copyColumn(this.size, n, pool)
    c.prev = copyColumn(this.prev, n, pool)
    c.next = copyColumn(this.next, n, pool)
    c.state = copyColumn(this.state, n, pool)
    c.owner = copyColumn(this.owner, n, pool)
    c.count = n
    c.freeSlots = this.freeSlots.slice()
    return c
  }

  /** The columns, for a RecycledColumns: this table is not read again, and is left empty. */
  letGo(): Column[] {
    if (this.copy !== null) return []
    const columns = this.columns()
    this.empty()
    this.count = 0
    this.freeSlots = []
    return columns
  }

  /** Columns of no rows (a checkpoint's copy keeps the rows instead, or the table was let go). */
  private empty(): void {
    this.offset = new Float64Array(0)
    this.size = new Float64Array(0)
    this.prev = new Int32Array(0)
    this.next = new Int32Array(0)
    this.state = new Uint8Array(0)
    this.owner = new Int32Array(0)
  }

  /**
   * A copy to keep and clone later (a checkpoint): only the blocks in use. A released block is written whole
   * before it is used again; its clone() restores it.
   */
  packedClone(): BlockTable {
    if (this.copy !== null) return this
    const released = new Uint8Array(this.count)
    for (const b of this.freeSlots) released[b] = 1
    const rows = new Int32Array(this.count - this.freeSlots.length)
    for (let b = 0, k = 0; b < this.count; b++) if (released[b] === 0) rows[k++] = b
    return this.kept(RowCopy.whole(BLOCK_SHAPE, this.columns(), this.count, rows, this.freeSlots))
  }

  /**
   * A copy to keep (a checkpoint) of only the blocks that differ from `shadow`: the blocks as they were at the
   * checkpoint before (`previous`). The shadow then equals this table.
   */
  changedSince(shadow: TableShadow, previous: BlockTable): BlockTable {
    return this.kept(shadow.changes(this.columns(), this.count, this.freeSlots, previous.copy!))
  }

  /** The blocks as they are, for the next checkpoint's changedSince. */
  shadow(): TableShadow {
    return TableShadow.of(this.columns(), this.count, this.freeSlots)
  }

  private columns(): Column[] {
    return [this.offset, this.size, this.prev, this.next, this.state, this.owner]
  }

  private kept(copy: RowCopy): BlockTable {
    const c = new BlockTable()
    c.empty()
    c.count = copy.count
    c.copy = copy
    return c
  }

  private restored(pool?: RecycledColumns): BlockTable {
    const { columns, free } = this.copy!.restore(restoredCapacity(this.count), pool)
    const c = new BlockTable()
    c.offset = columns[0] as Float64Array<ArrayBuffer>
    c.size = columns[1] as Float64Array<ArrayBuffer>
    c.prev = columns[2] as Int32Array<ArrayBuffer>
    c.next = columns[3] as Int32Array<ArrayBuffer>
    c.state = columns[4] as Uint8Array<ArrayBuffer>
    c.owner = columns[5] as Int32Array<ArrayBuffer>
    c.count = this.count
    c.freeSlots = free
    return c
  }

  private grow(): void {
    const n = Math.max(256, this.offset.length * 2)
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(n)
      b.set(a)
      return b
    }
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(n)
      b.set(a)
      return b
    }
    this.offset = f64(this.offset)
    this.size = f64(this.size)
    this.prev = i32(this.prev)
    this.next = i32(this.next)
    const state = new Uint8Array(n)
    state.set(this.state)
    this.state = state
    this.owner = i32(this.owner)
  }
}

export const FreeOrder = { BySize: 0, ByOffset: 1 } as const

/** Free lists up to this long are scanned for a block's index rather than searched by its key. */
const SCAN_FREE = 32
/** A shift of the free list longer than this many entries is the arrays' own copyWithin (a memmove) rather than a loop. */
const SHIFT_NATIVE = 32

/** Told whenever a pool's blocks change (its family's index of free room, see families.ts). */
export interface PoolWatcher {
  blocksChanged(pool: MemoryPool): void
}

export class MemoryPool {
  /** Dense id over the replay. */
  readonly id: number
  /** Index in the family's pool array (UE's pool index: reused once a pool is destroyed). */
  slot: number
  name: string
  readonly size: Bytes
  readonly alignment: Bytes
  readonly order: number
  /** First and last block in offset order. */
  head = NONE
  tail = NONE
  /** Free block indices, sorted by (size, offset) or by offset. */
  free: Int32Array
  /** Each free entry's size and offset (the sort keys, kept beside the indices: no search reads the BlockTable). */
  freeSize: Float64Array
  freeOffset: Float64Array
  freeCount = 0
  /** Bytes of allocated blocks, pending ones included (UE's used size). */
  used: Bytes = 0
  /** Bytes of allocated blocks whose release waits for the GPU. */
  pending: Bytes = 0
  allocatedBlocks = 0
  pendingBlocks = 0
  /** The frame of the last release from this pool (FD3D12MemoryPool LastUsedFrameFence). */
  lastUsedFrame: Frame
  createdFrame: Frame
  /** Residency object of the pool's heap or buffer, NONE when its heap is not managed or it is a spare. */
  object = NONE
  /**
   * Where the block the last tryAllocate took starts (read from its free-list entry): the caller has it without
   * reading the block table.
   */
  allocatedOffset: Bytes = 0
  /** Created ahead as the family's spare and not taken yet. */
  spare = false
  /** The family that holds the pool in a slot, told of every allocation and release; null for a spare. */
  watcher: PoolWatcher | null = null
  /**
   * The free list's three arrays may be another pool's too (a copy shares them with its original until either
   * changes its free list, which copies them first: most pools of a snapshot's copy never change).
   */
  private shared = false

  /** `copyOf`: a pool whose free list this one shares (see clone); the others start with one free block or none. */
  constructor(
    id: number,
    size: Bytes,
    alignment: Bytes,
    order: number,
    frame: Frame,
    blocks: BlockTable | null,
    copyOf: MemoryPool | null = null,
  ) {
    this.id = id
    this.slot = NONE
    this.name = ''
    doubleFields(this, ['used', 'pending', 'allocatedOffset'])
    this.size = size
    this.alignment = alignment
    this.order = order
    this.lastUsedFrame = frame
    this.createdFrame = frame
    if (copyOf !== null) {
      this.free = copyOf.free
      this.freeSize = copyOf.freeSize
      this.freeOffset = copyOf.freeOffset
      this.shared = true
      return
    }
    this.free = new Int32Array(8)
    this.freeSize = new Float64Array(8)
    this.freeOffset = new Float64Array(8)
    if (blocks) {
      const b = blocks.alloc()
      blocks.offset[b] = 0
      blocks.size[b] = size
      blocks.prev[b] = NONE
      blocks.next[b] = NONE
      blocks.state[b] = BlockState.Free
      blocks.owner[b] = NONE
      this.head = b
      this.tail = b
      this.free[0] = b
      this.freeSize[0] = size
      this.freeOffset[0] = 0
      this.freeCount = 1
    }
  }

  get freeBytes(): Bytes {
    return this.size - this.used
  }

  /** Takes `size` bytes (already aligned to the pool) from a free block; returns the block or NONE. */
  tryAllocate(blocks: BlockTable, size: Bytes, owner: number): number {
    if (this.size - this.used < size || this.freeCount === 0) return NONE
    const count = this.freeCount
    const sizes = this.freeSize
    let i: number
    if (this.order === FreeOrder.BySize) {
      let hi = count
      i = 0
      while (i < hi) {
        const mid = (i + hi) >>> 1
        if (sizes[mid] < size) i = mid + 1
        else hi = mid
      }
    } else {
      i = 0
      while (i < count && sizes[i] < size) i++
    }
    if (i === count) return NONE
    const b = this.free[i]
    const offset = this.freeOffset[i]
    const rest = sizes[i] - size
    if (rest > 0) {
      const r = blocks.alloc()
      blocks.offset[r] = offset + size
      blocks.size[r] = rest
      blocks.state[r] = BlockState.Free
      blocks.owner[r] = NONE
      const after = blocks.next[b]
      blocks.prev[r] = b
      blocks.next[r] = after
      if (after !== NONE) blocks.prev[after] = r
      else this.tail = r
      blocks.next[b] = r
      blocks.size[b] = size
      // The remainder takes the chosen block's entry, moved down to its place by size (by offset it stays).
      this.rekey(i, r, rest, offset + size)
    } else {
      this.removeFreeAt(i)
    }
    blocks.state[b] = BlockState.Allocated
    blocks.owner[b] = owner
    this.allocatedOffset = offset
    this.used += size
    this.allocatedBlocks++
    if (this.watcher !== null) this.watcher.blocksChanged(this)
    return b
  }

  /** Frees an allocated block: it coalesces with free neighbours and joins the free list. */
  deallocate(blocks: BlockTable, block: number): void {
    const size = blocks.size[block]
    this.used -= size
    this.allocatedBlocks--
    blocks.state[block] = BlockState.Free
    blocks.owner[block] = NONE
    const p = blocks.prev[block]
    const n = blocks.next[block]
    const joinsPrev = p !== NONE && blocks.state[p] === BlockState.Free
    const joinsNext = n !== NONE && blocks.state[n] === BlockState.Free
    // The merged block's entry: the previous free block's, else the next one's, else a new one.
    // A free neighbour's size and offset come from its entry, not from the table.
    let b = block
    let offset = joinsPrev ? 0 : blocks.offset[block]
    let merged = size
    let entry = -1
    if (joinsPrev) {
      entry = this.indexOf(blocks, p)
      offset = this.freeOffset[entry]
      merged += this.freeSize[entry]
      blocks.size[p] = merged
      this.unlink(blocks, block)
      blocks.release(block)
      b = p
    }
    if (joinsNext) {
      const i = this.indexOf(blocks, n)
      merged += this.freeSize[i]
      blocks.size[b] = merged
      this.unlink(blocks, n)
      blocks.release(n)
      if (entry < 0) entry = i
      else {
        this.removeFreeAt(i)
        if (i < entry) entry--
      }
    }
    if (entry < 0) this.insertFree(b, merged, offset)
    else this.rekey(entry, b, merged, offset)
    if (this.watcher !== null) this.watcher.blocksChanged(this)
  }

  /** Gives every block back to the table (the pool is destroyed). */
  dispose(blocks: BlockTable): void {
    let b = this.head
    while (b !== NONE) {
      const n = blocks.next[b]
      blocks.release(b)
      b = n
    }
    this.head = NONE
    this.tail = NONE
    this.freeCount = 0
  }

  /** Largest free block (best fit keeps it last). The pool keeps its free sizes: the table is not read. */
  largestFree(_blocks?: BlockTable): Bytes {
    if (this.freeCount === 0) return 0
    const sizes = this.freeSize
    if (this.order === FreeOrder.BySize) return sizes[this.freeCount - 1]
    let max = 0
    for (let i = 0; i < this.freeCount; i++) if (sizes[i] > max) max = sizes[i]
    return max
  }

  /**
   * A copy that continues exactly as this pool would; both copy the free list before they first change it.
   * `packed` (a checkpoint's copy, only read and cloned): its own arrays instead, cut to the entries in use, which
   * this pool then need not copy before its next change.
   */
  clone(packed = false): MemoryPool {
    if (!packed) this.shared = true
    const c = new MemoryPool(this.id, this.size, this.alignment, this.order, this.createdFrame, null, this)
    if (packed) {
      const n = this.freeCount
      c.free = this.free.slice(0, n)
      c.freeSize = this.freeSize.slice(0, n)
      c.freeOffset = this.freeOffset.slice(0, n)
    }
    c.slot = this.slot
    c.name = this.name
    c.head = this.head
    c.tail = this.tail
    c.freeCount = this.freeCount
    c.used = this.used
    c.pending = this.pending
    c.allocatedBlocks = this.allocatedBlocks
    c.pendingBlocks = this.pendingBlocks
    c.lastUsedFrame = this.lastUsedFrame
    c.object = this.object
    c.spare = this.spare
    c.allocatedOffset = this.allocatedOffset
    return c
  }

  private unlink(blocks: BlockTable, b: number): void {
    const p = blocks.prev[b]
    const n = blocks.next[b]
    if (p !== NONE) blocks.next[p] = n
    else this.head = n
    if (n !== NONE) blocks.prev[n] = p
    else this.tail = p
  }

  /**
   * Index in the free list of free block `b`: a short list is scanned for the index (one cache line, where a
   * search by key would read the block's size and offset in the table), a long one searched by its key.
   */
  private indexOf(blocks: BlockTable, b: number): number {
    const count = this.freeCount
    const free = this.free
    let i: number
    if (count <= SCAN_FREE) {
      i = 0
      while (i < count && free[i] !== b) i++
    } else {
      i = this.lowerBound(0, count, blocks.size[b], blocks.offset[b])
    }
    if (i === count || free[i] !== b) throw new Error(`pool ${this.name}: free block ${b} not in its free list`)
    return i
  }

  /** The first index in [lo, hi) whose key is not below (size, offset), or hi. */
  private lowerBound(lo: number, hi: number, size: Bytes, offset: Bytes): number {
    const offsets = this.freeOffset
    if (this.order === FreeOrder.BySize) {
      const sizes = this.freeSize
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        const ms = sizes[mid]
        if (ms < size || (ms === size && offsets[mid] < offset)) lo = mid + 1
        else hi = mid
      }
    } else {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (offsets[mid] < offset) lo = mid + 1
        else hi = mid
      }
    }
    return lo
  }

  private insertFree(b: number, size: Bytes, offset: Bytes): void {
    if (this.shared) this.own()
    const count = this.freeCount
    if (count === this.free.length) this.growFree()
    const i = this.lowerBound(0, count, size, offset)
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    this.shiftUp(i, count)
    free[i] = b
    sizes[i] = size
    offsets[i] = offset
    this.freeCount = count + 1
  }

  /**
   * Entry `i` now holds block `b` with the key (size, offset): it moves to its place among the others, shifting
   * only the entries between its old place and its new one.
   */
  private rekey(i: number, b: number, size: Bytes, offset: Bytes): void {
    if (this.shared) this.own()
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    let k = i
    if (k > 0 && this.keyBelow(size, offset, k - 1)) {
      k = this.lowerBound(0, i, size, offset)
      this.shiftUp(k, i)
    } else if (k + 1 < this.freeCount && !this.keyBelow(size, offset, k + 1)) {
      k = this.lowerBound(i + 1, this.freeCount, size, offset) - 1
      this.shiftDown(i, k)
    }
    free[k] = b
    sizes[k] = size
    offsets[k] = offset
  }

  /** The key (size, offset) comes before entry `k`'s in the free list's order. */
  private keyBelow(size: Bytes, offset: Bytes, k: number): boolean {
    if (this.order === FreeOrder.BySize) {
      const ks = this.freeSize[k]
      return size < ks || (size === ks && offset < this.freeOffset[k])
    }
    return offset < this.freeOffset[k]
  }

  private removeFreeAt(i: number): void {
    if (this.shared) this.own()
    const count = this.freeCount - 1
    this.shiftDown(i, count)
    this.freeCount = count
  }

  /** Entries [from, to) of the free list one place up, to [from + 1, to]. */
  private shiftUp(from: number, to: number): void {
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    if (to - from > SHIFT_NATIVE) {
      free.copyWithin(from + 1, from, to)
      sizes.copyWithin(from + 1, from, to)
      offsets.copyWithin(from + 1, from, to)
      return
    }
    for (let k = to; k > from; k--) {
      free[k] = free[k - 1]
      sizes[k] = sizes[k - 1]
      offsets[k] = offsets[k - 1]
    }
  }

  /** Entries (from, to] of the free list one place down, to [from, to). */
  private shiftDown(from: number, to: number): void {
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    if (to - from > SHIFT_NATIVE) {
      free.copyWithin(from, from + 1, to + 1)
      sizes.copyWithin(from, from + 1, to + 1)
      offsets.copyWithin(from, from + 1, to + 1)
      return
    }
    for (let k = from; k < to; k++) {
      free[k] = free[k + 1]
      sizes[k] = sizes[k + 1]
      offsets[k] = offsets[k + 1]
    }
  }

  /** The free list's arrays made this pool's own, before it changes them (see shared). */
  private own(): void {
    // A checkpoint's packed arrays hold no room past the entries in use: a copy of them takes room to grow.
    this.resizeFree(this.free.length > this.freeCount ? this.free.length : Math.max(8, 2 * this.freeCount))
    this.shared = false
  }

  private growFree(): void {
    // A checkpoint's copy holds only the entries in use, none at all for a full pool.
    this.resizeFree(Math.max(8, this.free.length * 2))
  }

  /** The free list's three arrays copied into arrays of `n` entries. */
  private resizeFree(n: number): void {
    const free = new Int32Array(n)
    free.set(this.free)
    this.free = free
    const sizes = new Float64Array(n)
    sizes.set(this.freeSize)
    this.freeSize = sizes
    const offsets = new Float64Array(n)
    offsets.set(this.freeOffset)
    this.freeOffset = offsets
  }
}
