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
import { RowCopy, TableShadow, type Column, type TableShape } from './rowCopy'

export const NONE = -1
export const BlockState = { Free: 0, Allocated: 1 } as const

/** FRHIMemoryPool::GetAlignedSize: the block size a request takes in a pool. */
export function alignedSize(size: Bytes, poolAlignment: Bytes, alignment: Bytes): Bytes {
  return poolAlignment % alignment !== 0 ? roundUp(size + alignment, poolAlignment) : roundUp(size, poolAlignment)
}

/** FRHIMemoryPool::GetAlignedOffset: where the request starts inside a block starting at `offset`. */
export function alignedOffset(offset: Bytes, poolAlignment: Bytes, alignment: Bytes): Bytes {
  return poolAlignment % alignment !== 0 ? roundUp(offset, alignment) : offset
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

  /** A deep copy holding only the blocks made so far. */
  clone(): BlockTable {
    if (this.copy !== null) return this.restored()
    const c = new BlockTable()
    const n = this.count
    c.offset = this.offset.slice(0, n)
    c.size = this.size.slice(0, n)
    c.prev = this.prev.slice(0, n)
    c.next = this.next.slice(0, n)
    c.state = this.state.slice(0, n)
    c.owner = this.owner.slice(0, n)
    c.count = n
    c.freeSlots = this.freeSlots.slice()
    return c
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
    c.offset = new Float64Array(0)
    c.size = new Float64Array(0)
    c.prev = new Int32Array(0)
    c.next = new Int32Array(0)
    c.state = new Uint8Array(0)
    c.owner = new Int32Array(0)
    c.count = copy.count
    c.copy = copy
    return c
  }

  private restored(): BlockTable {
    const { columns, free } = this.copy!.restore()
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
  /** Created ahead as the family's spare and not taken yet. */
  spare = false
  /** The family that holds the pool in a slot, told of every allocation and release; null for a spare. */
  watcher: PoolWatcher | null = null

  constructor(id: number, size: Bytes, alignment: Bytes, order: number, frame: Frame, blocks: BlockTable | null) {
    this.id = id
    this.slot = NONE
    this.name = ''
    this.size = size
    this.alignment = alignment
    this.order = order
    this.lastUsedFrame = frame
    this.createdFrame = frame
    this.free = new Int32Array(8)
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
      this.freeCount = 1
    }
  }

  get freeBytes(): Bytes {
    return this.size - this.used
  }

  /** Takes `size` bytes (already aligned to the pool) from a free block; returns the block or NONE. */
  tryAllocate(blocks: BlockTable, size: Bytes, owner: number): number {
    if (this.size - this.used < size || this.freeCount === 0) return NONE
    let i: number
    if (this.order === FreeOrder.BySize) {
      i = this.lowerBoundSize(blocks, size)
      if (i === this.freeCount) return NONE
    } else {
      i = 0
      while (i < this.freeCount && blocks.size[this.free[i]] < size) i++
      if (i === this.freeCount) return NONE
    }
    const b = this.free[i]
    this.removeFreeAt(i)
    const rest = blocks.size[b] - size
    if (rest > 0) {
      const r = blocks.alloc()
      blocks.offset[r] = blocks.offset[b] + size
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
      this.insertFree(blocks, r)
    }
    blocks.state[b] = BlockState.Allocated
    blocks.owner[b] = owner
    this.used += size
    this.allocatedBlocks++
    if (this.watcher !== null) this.watcher.blocksChanged(this)
    return b
  }

  /** Frees an allocated block: it coalesces with free neighbours and joins the free list. */
  deallocate(blocks: BlockTable, block: number): void {
    this.used -= blocks.size[block]
    this.allocatedBlocks--
    blocks.state[block] = BlockState.Free
    blocks.owner[block] = NONE
    let b = block
    const p = blocks.prev[b]
    if (p !== NONE && blocks.state[p] === BlockState.Free) {
      this.removeFree(blocks, p)
      blocks.size[p] += blocks.size[b]
      this.unlink(blocks, b)
      blocks.release(b)
      b = p
    }
    const n = blocks.next[b]
    if (n !== NONE && blocks.state[n] === BlockState.Free) {
      this.removeFree(blocks, n)
      blocks.size[b] += blocks.size[n]
      this.unlink(blocks, n)
      blocks.release(n)
    }
    this.insertFree(blocks, b)
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

  /** Largest free block (best fit keeps it last). */
  largestFree(blocks: BlockTable): Bytes {
    if (this.freeCount === 0) return 0
    if (this.order === FreeOrder.BySize) return blocks.size[this.free[this.freeCount - 1]]
    let max = 0
    for (let i = 0; i < this.freeCount; i++) max = Math.max(max, blocks.size[this.free[i]])
    return max
  }

  clone(): MemoryPool {
    const c = new MemoryPool(this.id, this.size, this.alignment, this.order, this.createdFrame, null)
    c.slot = this.slot
    c.name = this.name
    c.head = this.head
    c.tail = this.tail
    c.free = this.free.slice()
    c.freeCount = this.freeCount
    c.used = this.used
    c.pending = this.pending
    c.allocatedBlocks = this.allocatedBlocks
    c.pendingBlocks = this.pendingBlocks
    c.lastUsedFrame = this.lastUsedFrame
    c.object = this.object
    c.spare = this.spare
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

  /** First free index whose block is at least `size` (sorted by size, then offset). */
  private lowerBoundSize(blocks: BlockTable, size: Bytes): number {
    let lo = 0
    let hi = this.freeCount
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (blocks.size[this.free[mid]] < size) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Position of block `b` by the free list's order key. */
  private position(blocks: BlockTable, b: number): number {
    const size = blocks.size[b]
    const offset = blocks.offset[b]
    let lo = 0
    let hi = this.freeCount
    if (this.order === FreeOrder.BySize) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        const m = this.free[mid]
        const ms = blocks.size[m]
        if (ms < size || (ms === size && blocks.offset[m] < offset)) lo = mid + 1
        else hi = mid
      }
    } else {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (blocks.offset[this.free[mid]] < offset) lo = mid + 1
        else hi = mid
      }
    }
    return lo
  }

  private insertFree(blocks: BlockTable, b: number): void {
    const i = this.position(blocks, b)
    if (this.freeCount === this.free.length) {
      const grown = new Int32Array(this.free.length * 2)
      grown.set(this.free)
      this.free = grown
    }
    this.free.copyWithin(i + 1, i, this.freeCount)
    this.free[i] = b
    this.freeCount++
  }

  private removeFree(blocks: BlockTable, b: number): void {
    const i = this.position(blocks, b)
    if (this.free[i] !== b) throw new Error(`pool ${this.name}: free block ${b} not in its free list`)
    this.removeFreeAt(i)
  }

  private removeFreeAt(i: number): void {
    this.free.copyWithin(i, i + 1, this.freeCount)
    this.freeCount--
  }
}
