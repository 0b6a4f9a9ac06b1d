/**
 * One VkDeviceMemory block carved by a free list with best fit (seed §4.2 自由列表): segments in offset order,
 * used or free, with free neighbours always merged; free segments also kept sorted by size so the best fit is a
 * binary search. Alignment padding stays a free segment that smaller requests can use. Linear and optimal
 * resources are kept bufferImageGranularity apart (they never share a granularity page), as the Vulkan spec
 * requires of neighbours in one VkDeviceMemory.
 * Segments live in typed-array columns indexed by slot; nothing is allocated per request once they have grown.
 */
import { roundUp, type Bytes } from '../../../shared/units'
import { grown } from '../grown'

const NONE = -1

export interface Segment {
  offset: Bytes
  size: Bytes
  /** The allocation handle, or -1 for a free segment. */
  owner: number
  linear: boolean
}

export class FreeListBlock {
  readonly size: Bytes
  readonly granularity: Bytes
  /** Bytes of used segments. used + free = size, always. */
  used: Bytes = 0
  allocationCount = 0

  private off: Float64Array
  private len: Float64Array
  private owner: Float64Array
  private next: Int32Array
  private prev: Int32Array
  private lin: Uint8Array
  private slots = 0
  private recycled: number[] = []
  private head = 0
  /** Free segment slots sorted by (size, offset), the first `freeCount` entries. */
  private bySize = new Int32Array(16)
  private freeCount = 0
  /** The last find(), so an allocate() right after a fitting test does not search again. */
  private foundFor = { size: -1, alignment: -1, linear: false, slot: NONE }
  /**
   * The segment the last allocate() placed its request in. It stays that allocation's until it is released (only
   * free segments merge), so a caller that keeps it releases by it (releaseSegment) without a search.
   */
  lastSegment = NONE

  constructor(size: Bytes, granularity: Bytes, capacity = 16) {
    this.size = size
    this.granularity = granularity > 1 ? granularity : 1
    this.off = new Float64Array(capacity)
    this.len = new Float64Array(capacity)
    this.owner = new Float64Array(capacity)
    this.next = new Int32Array(capacity)
    this.prev = new Int32Array(capacity)
    this.lin = new Uint8Array(capacity)
    const s = this.newSlot()
    this.off[s] = 0
    this.len[s] = size
    this.owner[s] = NONE
    this.next[s] = NONE
    this.prev[s] = NONE
    this.head = s
    this.insertFree(s)
  }

  get free(): Bytes {
    return this.size - this.used
  }

  get isEmpty(): boolean {
    return this.allocationCount === 0
  }

  /** The largest free segment, an upper bound of what one request can take. */
  get largestFree(): Bytes {
    return this.freeCount ? this.len[this.bySize[this.freeCount - 1]] : 0
  }

  /**
   * The size of the free segment the best fit would take, or -1: the smallest one where the request fits with its
   * alignment and granularity padding. Lets a caller compare blocks before committing to one.
   */
  bestFit(size: Bytes, alignment: Bytes, linear: boolean): Bytes {
    const s = this.find(size, alignment, linear)
    return s === NONE ? -1 : this.len[s]
  }

  /** Place `size` bytes for `handle`; the offset, or -1 when no free segment fits. */
  allocate(handle: number, size: Bytes, alignment: Bytes, linear: boolean): Bytes {
    const f = this.foundFor
    const cached = f.size === size && f.alignment === alignment && f.linear === linear
    const s = cached ? f.slot : this.find(size, alignment, linear)
    f.size = -1
    if (s === NONE) return -1
    const start = this.startIn(s, alignment, linear)
    const segStart = this.off[s]
    const segEnd = segStart + this.len[s]
    const end = start + size
    this.removeFree(s)
    if (start > segStart) {
      const lead = this.newSlot()
      this.off[lead] = segStart
      this.len[lead] = start - segStart
      this.owner[lead] = NONE
      this.linkBefore(lead, s)
      this.insertFree(lead)
    }
    if (end < segEnd) {
      const trail = this.newSlot()
      this.off[trail] = end
      this.len[trail] = segEnd - end
      this.owner[trail] = NONE
      this.linkAfter(trail, s)
      this.insertFree(trail)
    }
    this.off[s] = start
    this.len[s] = size
    this.owner[s] = handle
    this.lin[s] = linear ? 1 : 0
    this.lastSegment = s
    this.used += size
    this.allocationCount++
    return start
  }

  /**
   * Give the bytes of `handle` back, merging with free neighbours. False for an unknown handle. Its segment is
   * found by a walk over the block: a caller that kept it from the allocation (lastSegment) gives it instead.
   */
  release(handle: number): boolean {
    const s = this.segmentOf(handle)
    return s !== NONE && this.releaseSegment(s)
  }

  /** Give back the allocation in segment `s` (lastSegment after its allocate()); false when it holds none. */
  releaseSegment(segment: number): boolean {
    let s = segment
    if (!(s >= 0 && s < this.slots) || this.owner[s] === NONE) return false
    this.foundFor.size = -1
    this.used -= this.len[s]
    this.allocationCount--
    this.owner[s] = NONE
    const p = this.prev[s]
    if (p !== NONE && this.owner[p] === NONE) {
      this.removeFree(p)
      this.len[p] += this.len[s]
      this.unlink(s)
      s = p
    }
    const n = this.next[s]
    if (n !== NONE && this.owner[n] === NONE) {
      this.removeFree(n)
      this.len[s] += this.len[n]
      this.unlink(n)
    }
    this.insertFree(s)
    return true
  }

  offsetOf(handle: number): Bytes {
    const s = this.segmentOf(handle)
    return s === NONE ? -1 : this.off[s]
  }

  /** The segment `handle` holds, by a walk in offset order; NONE when it holds none. */
  private segmentOf(handle: number): number {
    if (handle < 0) return NONE
    for (let s = this.head; s !== NONE; s = this.next[s]) if (this.owner[s] === handle) return s
    return NONE
  }

  /** Segments in offset order, free ones included: for views and tests, not for replay. */
  segments(): Segment[] {
    const out: Segment[] = []
    for (let s = this.head; s !== NONE; s = this.next[s]) {
      const owner = this.owner[s]
      out.push({ offset: this.off[s], size: this.len[s], owner, linear: owner >= 0 && this.lin[s] === 1 })
    }
    return out
  }

  freeSegmentCount(): number {
    return this.freeCount
  }

  /**
   * A copy, its segment columns cut to the slots made so far with room for a quarter more; `exact`: with none, as
   * a checkpoint keeps it (a copy of it gets the room).
   */
  clone(exact = false): FreeListBlock {
    const c = Object.create(FreeListBlock.prototype) as FreeListBlock
    Object.assign(c, this)
    const n = this.slots
    const capacity = exact ? Math.max(1, n) : Math.max(16, n + (n >> 2))
    const cut = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => grown(a.subarray(0, n) as T, capacity)
    c.off = cut(this.off)
    c.len = cut(this.len)
    c.owner = cut(this.owner)
    c.next = cut(this.next)
    c.prev = cut(this.prev)
    c.lin = cut(this.lin)
    c.recycled = this.recycled.slice()
    c.bySize = this.bySize.slice()
    c.foundFor = { size: -1, alignment: -1, linear: false, slot: NONE }
    return c
  }

  private page(offset: Bytes): number {
    return Math.floor(offset / this.granularity)
  }

  /** Where a request would start in free segment `s`: aligned, moved to the next page past a neighbour of the other kind. */
  private startIn(s: number, alignment: Bytes, linear: boolean): Bytes {
    let start = roundUp(this.off[s], alignment)
    const p = this.prev[s]
    if (this.granularity > 1 && p !== NONE && this.lin[p] !== (linear ? 1 : 0)) {
      if (this.page(this.off[p] + this.len[p] - 1) === this.page(start)) {
        start = roundUp(roundUp(start, this.granularity), alignment)
      }
    }
    return start
  }

  private fitsIn(s: number, size: Bytes, alignment: Bytes, linear: boolean): boolean {
    const start = this.startIn(s, alignment, linear)
    const end = start + size
    if (end > this.off[s] + this.len[s]) return false
    const n = this.next[s]
    if (this.granularity > 1 && n !== NONE && this.lin[n] !== (linear ? 1 : 0)) {
      if (this.page(end - 1) === this.page(this.off[n])) return false
    }
    return true
  }

  private find(size: Bytes, alignment: Bytes, linear: boolean): number {
    const f = this.foundFor
    f.size = size
    f.alignment = alignment
    f.linear = linear
    f.slot = NONE
    if (size <= 0 || size > this.largestFree) return NONE
    const bySize = this.bySize
    for (let i = this.lowerBound(size, 0); i < this.freeCount; i++) {
      const s = bySize[i]
      if (this.fitsIn(s, size, alignment, linear)) {
        f.slot = s
        return s
      }
    }
    return NONE
  }

  /** First index in bySize whose segment sorts at or after (size, offset). */
  private lowerBound(size: Bytes, offset: Bytes): number {
    const bySize = this.bySize
    let lo = 0
    let hi = this.freeCount
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const m = bySize[mid]
      if (this.len[m] < size || (this.len[m] === size && this.off[m] < offset)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private insertFree(s: number): void {
    if (this.freeCount === this.bySize.length) {
      const grown = new Int32Array(this.bySize.length * 2)
      grown.set(this.bySize)
      this.bySize = grown
    }
    const i = this.lowerBound(this.len[s], this.off[s])
    this.bySize.copyWithin(i + 1, i, this.freeCount)
    this.bySize[i] = s
    this.freeCount++
  }

  private removeFree(s: number): void {
    const i = this.lowerBound(this.len[s], this.off[s])
    this.bySize.copyWithin(i, i + 1, this.freeCount)
    this.freeCount--
  }

  private newSlot(): number {
    const r = this.recycled.pop()
    if (r !== undefined) return r
    if (this.slots === this.off.length) this.grow()
    return this.slots++
  }

  private grow(): void {
    const cap = Math.max(16, this.off.length * 2)
    this.off = grown(this.off, cap)
    this.len = grown(this.len, cap)
    this.owner = grown(this.owner, cap)
    this.next = grown(this.next, cap)
    this.prev = grown(this.prev, cap)
    this.lin = grown(this.lin, cap)
  }

  private linkBefore(s: number, at: number): void {
    const p = this.prev[at]
    this.prev[s] = p
    this.next[s] = at
    this.prev[at] = s
    if (p === NONE) this.head = s
    else this.next[p] = s
  }

  private linkAfter(s: number, at: number): void {
    const n = this.next[at]
    this.next[s] = n
    this.prev[s] = at
    this.next[at] = s
    if (n !== NONE) this.prev[n] = s
  }

  private unlink(s: number): void {
    const p = this.prev[s]
    const n = this.next[s]
    if (p === NONE) this.head = n
    else this.next[p] = n
    if (n !== NONE) this.prev[n] = p
    this.recycled.push(s)
  }
}
