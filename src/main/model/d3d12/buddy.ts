/**
 * FD3D12BuddyAllocator (seed §5.2): one pool split in power-of-two blocks of minBlock × 2^order. An allocation
 * takes the lowest free block of the smallest order that fits, splitting larger ones (the right halves become
 * free); a freed block merges with its free buddy, order after order. Free blocks are bitsets per order, so
 * "lowest free block" is a word scan and cloning is one array copy.
 */
import type { Bytes, Frame } from '../../../shared/units'
import { doubleFields } from '../doubles'

export class BuddyPool {
  readonly id: number
  name = ''
  readonly minBlock: Bytes
  readonly maxOrder: number
  /** Bytes the pool holds: minBlock × 2^maxOrder. */
  readonly size: Bytes
  /** One bit per block of each order; `wordStart[order]` is where that order's words begin. */
  bits: Uint32Array
  private readonly wordStart: Int32Array
  /** Bytes of a block of each order: minBlock × 2^order. */
  private readonly blockBytes: Float64Array
  freeCount: Int32Array
  used: Bytes = 0
  pending: Bytes = 0
  allocatedBlocks = 0
  pendingBlocks = 0
  lastUsedFrame: Frame
  createdFrame: Frame
  spare = false
  /** Creation index within the family (the name's last part). */
  index = -1
  /** The family that holds the pool, told of every allocation and release; null for a spare. */
  watcher: BuddyWatcher | null = null
  /** Index in the family's pools as its index last saw them, and whether a change waits to be seen there. */
  position = -1
  stale = false

  constructor(id: number, minBlock: Bytes, maxOrder: number, frame: Frame, init = true) {
    doubleFields(this, ['used', 'pending'])
    this.id = id
    this.minBlock = minBlock
    this.maxOrder = maxOrder
    this.size = minBlock * 2 ** maxOrder
    this.wordStart = new Int32Array(maxOrder + 2)
    let words = 0
    for (let k = 0; k <= maxOrder; k++) {
      this.wordStart[k] = words
      words += Math.ceil(2 ** (maxOrder - k) / 32)
    }
    this.wordStart[maxOrder + 1] = words
    this.blockBytes = new Float64Array(maxOrder + 1)
    for (let k = 0; k <= maxOrder; k++) this.blockBytes[k] = minBlock * 2 ** k
    this.bits = new Uint32Array(words)
    this.freeCount = new Int32Array(maxOrder + 1)
    this.lastUsedFrame = frame
    this.createdFrame = frame
    if (init) {
      this.setBit(maxOrder, 0)
      this.freeCount[maxOrder] = 1
    }
  }

  /** The order of the smallest block holding `bytes`, or -1 when larger than the pool. */
  orderFor(bytes: Bytes): number {
    const order = orderOf(bytes, this.minBlock)
    return order > this.maxOrder ? -1 : order
  }

  canAllocate(order: number): boolean {
    for (let k = order; k <= this.maxOrder; k++) if (this.freeCount[k] > 0) return true
    return false
  }

  /** Allocates a block of `order`; returns its offset in bytes, or -1. */
  allocate(order: number): Bytes {
    let k = order
    while (k <= this.maxOrder && this.freeCount[k] === 0) k++
    if (k > this.maxOrder) return -1
    let index = this.lowestFree(k)
    this.clearBit(k, index)
    this.freeCount[k]--
    // Split down to the requested order: the left half is kept, the right half becomes free.
    while (k > order) {
      k--
      index *= 2
      this.setBit(k, index + 1)
      this.freeCount[k]++
    }
    const blockBytes = this.blockBytes[order]
    this.used += blockBytes
    this.allocatedBlocks++
    if (this.watcher !== null) this.watcher.blocksChanged(this)
    return index * blockBytes
  }

  deallocate(offset: Bytes, order: number): void {
    const blockBytes = this.blockBytes[order]
    this.used -= blockBytes
    this.allocatedBlocks--
    let k = order
    let index = offset / blockBytes
    while (k < this.maxOrder) {
      const buddy = index ^ 1
      if (!this.testBit(k, buddy)) break
      this.clearBit(k, buddy)
      this.freeCount[k]--
      index >>= 1
      k++
    }
    this.setBit(k, index)
    this.freeCount[k]++
    if (this.watcher !== null) this.watcher.blocksChanged(this)
  }

  /** The largest order with a free block, -1 when the pool is full: the pool can allocate any order up to it. */
  largestFreeOrder(): number {
    for (let k = this.maxOrder; k >= 0; k--) if (this.freeCount[k] > 0) return k
    return -1
  }

  /** Free blocks as [offset, size] pairs in offset order (for snapshots). */
  freeBlocks(): [Bytes, Bytes][] {
    const { offset, size } = this.freeBlockColumns()
    return Array.from(offset, (o, i) => [o, size[i]])
  }

  /** Free blocks in offset order, one column each: the set bits of every order, words at a time, merged. */
  freeBlockColumns(): { offset: Float64Array; size: Float64Array } {
    let n = 0
    for (let k = 0; k <= this.maxOrder; k++) n += this.freeCount[k]
    const offset = new Float64Array(n)
    const size = new Float64Array(n)
    let i = 0
    for (let k = 0; k <= this.maxOrder; k++) {
      if (this.freeCount[k] === 0) continue
      const blockBytes = this.minBlock * 2 ** k
      for (let w = this.wordStart[k]; w < this.wordStart[k + 1]; w++) {
        let word = this.bits[w]
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word)
          word &= word - 1
          offset[i] = ((w - this.wordStart[k]) * 32 + bit) * blockBytes
          size[i++] = blockBytes
        }
      }
    }
    // Each order's blocks are in offset order already and blocks never overlap: sort the offsets, sizes follow.
    const order = new Int32Array(n)
    for (let j = 0; j < n; j++) order[j] = j
    order.sort((x, y) => offset[x] - offset[y])
    const sortedOffset = new Float64Array(n)
    const sortedSize = new Float64Array(n)
    for (let j = 0; j < n; j++) {
      sortedOffset[j] = offset[order[j]]
      sortedSize[j] = size[order[j]]
    }
    return { offset: sortedOffset, size: sortedSize }
  }

  clone(): BuddyPool {
    const c = new BuddyPool(this.id, this.minBlock, this.maxOrder, this.createdFrame, false)
    c.name = this.name
    c.bits = this.bits.slice()
    c.freeCount = this.freeCount.slice()
    c.used = this.used
    c.pending = this.pending
    c.allocatedBlocks = this.allocatedBlocks
    c.pendingBlocks = this.pendingBlocks
    c.lastUsedFrame = this.lastUsedFrame
    c.spare = this.spare
    c.index = this.index
    return c
  }

  private lowestFree(order: number): number {
    const start = this.wordStart[order]
    const end = this.wordStart[order + 1]
    for (let w = start; w < end; w++) {
      const word = this.bits[w]
      if (word !== 0) return (w - start) * 32 + (31 - Math.clz32(word & -word))
    }
    throw new Error(`buddy pool ${this.name}: order ${order} counted free blocks but has none`)
  }

  private testBit(order: number, index: number): boolean {
    return (this.bits[this.wordStart[order] + (index >>> 5)] & (1 << (index & 31))) !== 0
  }

  private setBit(order: number, index: number): void {
    this.bits[this.wordStart[order] + (index >>> 5)] |= 1 << (index & 31)
  }

  private clearBit(order: number, index: number): void {
    this.bits[this.wordStart[order] + (index >>> 5)] &= ~(1 << (index & 31))
  }
}

/** Told whenever a buddy pool's blocks change (its family's index of free orders, see families.ts). */
export interface BuddyWatcher {
  blocksChanged(pool: BuddyPool): void
}

/** The smallest order whose block (minBlock × 2^order) holds `bytes`: ceil(log2(units)), at least 0. */
export function orderOf(bytes: Bytes, minBlock: Bytes): number {
  const units = Math.max(1, Math.ceil(bytes / minBlock))
  if (units > 0x8000_0000) {
    let order = 31
    while (2 ** order < units) order++
    return order
  }
  // 2^order ≥ units: the bit length of units − 1 (units is an integer of at most 32 bits here; NaN gives 0).
  return units > 1 ? 32 - Math.clz32(units - 1) : 0
}

/** The largest order with minBlock × 2^order ≤ poolSize (at least 0). */
export function maxOrderFor(minBlock: Bytes, poolSize: Bytes): number {
  let order = 0
  while (minBlock * 2 ** (order + 1) <= poolSize) order++
  return order
}
