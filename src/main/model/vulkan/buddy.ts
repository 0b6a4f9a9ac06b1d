/**
 * One VkDeviceMemory block carved by a buddy allocator (seed §4.2 伙伴分配器, the option for textures): blocks
 * split in halves down to the request's power of two and merged with their buddy when freed. A block of order k
 * is minBlock·2^k bytes at an offset that is a multiple of its size, so alignments up to the block size come free.
 * The lowest free offset of the smallest order is taken, which keeps the result deterministic.
 */
import { roundUpPow2, type Bytes } from '../../../shared/units'

export class BuddyBlock {
  readonly size: Bytes
  readonly minBlock: Bytes
  readonly orders: number
  /** Bytes of handed-out buddy blocks (padding to the power of two included). used + free = size. */
  used: Bytes = 0
  /** Bytes the requests asked for. */
  requested: Bytes = 0
  allocationCount = 0

  /** Free offsets per order, sorted descending so the lowest offset pops off the end. */
  private freeByOrder: number[][]
  private offsetOf = new Map<number, number>()
  private orderOf = new Map<number, number>()
  private requestOf = new Map<number, number>()

  /** `size` and `minBlock` are rounded up to powers of two. */
  constructor(size: Bytes, minBlock: Bytes) {
    this.size = roundUpPow2(size)
    this.minBlock = Math.min(roundUpPow2(minBlock), this.size)
    let orders = 1
    while (this.minBlock * 2 ** (orders - 1) < this.size) orders++
    this.orders = orders
    this.freeByOrder = Array.from({ length: orders }, () => [])
    this.freeByOrder[orders - 1].push(0)
  }

  get free(): Bytes {
    return this.size - this.used
  }

  get isEmpty(): boolean {
    return this.allocationCount === 0
  }

  blockSize(order: number): Bytes {
    return this.minBlock * 2 ** order
  }

  /** The order a request takes, or -1 when it is larger than the whole block. */
  orderFor(size: Bytes, alignment: Bytes): number {
    const need = Math.max(size, alignment, this.minBlock)
    if (need > this.size) return -1
    let k = 0
    while (this.blockSize(k) < need) k++
    return k
  }

  /** The order of the free block a request would split, or -1 when none is free: lower is a better fit. */
  fitOrder(size: Bytes, alignment: Bytes): number {
    const k = this.orderFor(size, alignment)
    if (k < 0) return -1
    for (let j = k; j < this.orders; j++) if (this.freeByOrder[j].length) return j
    return -1
  }

  allocate(handle: number, size: Bytes, alignment: Bytes): Bytes {
    const k = this.orderFor(size, alignment)
    if (k < 0 || size <= 0) return -1
    let j = k
    while (j < this.orders && this.freeByOrder[j].length === 0) j++
    if (j === this.orders) return -1
    const offset = this.freeByOrder[j].pop() as number
    while (j > k) {
      j--
      insertDescending(this.freeByOrder[j], offset + this.blockSize(j))
    }
    this.offsetOf.set(handle, offset)
    this.orderOf.set(handle, k)
    this.requestOf.set(handle, size)
    this.used += this.blockSize(k)
    this.requested += size
    this.allocationCount++
    return offset
  }

  release(handle: number): boolean {
    const start = this.offsetOf.get(handle)
    if (start === undefined) return false
    let k = this.orderOf.get(handle) as number
    this.used -= this.blockSize(k)
    this.requested -= this.requestOf.get(handle) as number
    this.allocationCount--
    this.offsetOf.delete(handle)
    this.orderOf.delete(handle)
    this.requestOf.delete(handle)
    let offset = start
    while (k < this.orders - 1) {
      const bs = this.blockSize(k)
      const buddy = offset % (bs * 2) === 0 ? offset + bs : offset - bs
      const list = this.freeByOrder[k]
      const i = indexDescending(list, buddy)
      if (i < 0) break
      list.splice(i, 1)
      offset = Math.min(offset, buddy)
      k++
    }
    insertDescending(this.freeByOrder[k], offset)
    return true
  }

  offsetOfHandle(handle: number): Bytes {
    return this.offsetOf.get(handle) ?? -1
  }

  /** Occupied size (the buddy block) of a handle, or -1. */
  sizeOfHandle(handle: number): Bytes {
    const k = this.orderOf.get(handle)
    return k === undefined ? -1 : this.blockSize(k)
  }

  /** Free ranges as [offset, size] pairs in offset order: for views and tests. */
  freeRanges(): [Bytes, Bytes][] {
    const out: [Bytes, Bytes][] = []
    for (let k = 0; k < this.orders; k++) for (const o of this.freeByOrder[k]) out.push([o, this.blockSize(k)])
    return out.sort((a, b) => a[0] - b[0])
  }

  allocations(): { handle: number; offset: Bytes; size: Bytes; requested: Bytes }[] {
    const out = []
    for (const [handle, offset] of this.offsetOf) {
      out.push({ handle, offset, size: this.sizeOfHandle(handle), requested: this.requestOf.get(handle) as number })
    }
    return out.sort((a, b) => a.offset - b.offset)
  }

  clone(): BuddyBlock {
    const c = Object.create(BuddyBlock.prototype) as BuddyBlock
    Object.assign(c, this)
    c.freeByOrder = this.freeByOrder.map((l) => l.slice())
    c.offsetOf = new Map(this.offsetOf)
    c.orderOf = new Map(this.orderOf)
    c.requestOf = new Map(this.requestOf)
    return c
  }
}

function indexDescending(list: number[], value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid] > value) lo = mid + 1
    else hi = mid
  }
  return lo < list.length && list[lo] === value ? lo : -1
}

function insertDescending(list: number[], value: number): void {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid] > value) lo = mid + 1
    else hi = mid
  }
  list.splice(lo, 0, value)
}
