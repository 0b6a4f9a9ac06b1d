/**
 * One transient heap of the render-graph allocator (docs/model.md §6): first fit over its free ranges in offset
 * order, the padding in front of a resource taken and given back with it, freed ranges coalesced; and the heap
 * kinds of resource heap tier 1 and 2.
 */
import { MiB } from '../../../shared/units'
import type { Bytes } from '../../../shared/units'
import { PlacedResourceCache } from './placedResourceCache'
import { doubleFields } from '../doubles'

export type TransientHeapKind = 'all' | 'buffers' | 'textures' | 'renderTargets'

/** D3D12_HEAP_DESC alignment of a transient heap; heap sizes round up to it. */
export const TRANSIENT_HEAP_ALIGNMENT = 4 * MiB

/** Heap kind bits: what a request is, and (tier 1: one bit, tier 2: all) what a heap accepts. */
export const BUFFERS = 1
export const TEXTURES = 2
export const RENDER_TARGETS = 4
export const ALL_KINDS = BUFFERS | TEXTURES | RENDER_TARGETS

export function kindName(mask: number): TransientHeapKind {
  if (mask === ALL_KINDS) return 'all'
  if (mask === BUFFERS) return 'buffers'
  if (mask === TEXTURES) return 'textures'
  return 'renderTargets'
}

/** One transient heap: its free ranges (sorted by offset, coalesced) and its placed-resource caches. */
export class TransientHeap {
  freeOffset = new Float64Array(8)
  freeSize = new Float64Array(8)
  freeCount = 1
  freeBytes: Bytes
  lastUsed = -1
  /** Per execution: the highest resource end, and whether the execution created the heap. */
  highWater: Bytes = 0
  created = false
  /** Padding of the last allocate(). */
  lastPad: Bytes = 0
  textures = new PlacedResourceCache()
  buffers = new PlacedResourceCache()

  constructor(
    readonly id: number,
    readonly size: Bytes,
    readonly kindMask: number,
    readonly label: string,
  ) {
    doubleFields(this, ['highWater', 'lastPad'])
    this.freeOffset[0] = 0
    this.freeSize[0] = size
    this.freeBytes = size
  }

  /** First fit: the aligned offset, or -1 when no free range holds the request. */
  allocate(size: Bytes, alignment: Bytes): Bytes {
    for (let i = 0; i < this.freeCount; i++) {
      const rangeSize = this.freeSize[i]
      // Too small even unaligned: skip it before the (slow, floating-point) remainder.
      if (size > rangeSize) continue
      const start = this.freeOffset[i]
      const rest = remainder(start, alignment)
      const aligned = rest === 0 ? start : start + (alignment - rest)
      const taken = aligned - start + size
      if (taken > rangeSize) continue
      if (taken === rangeSize) {
        this.removeRange(i)
      } else {
        this.freeOffset[i] = start + taken
        this.freeSize[i] = rangeSize - taken
      }
      this.freeBytes -= taken
      this.lastPad = aligned - start
      return aligned
    }
    return -1
  }

  /** Gives back [start, end) and merges it with the free ranges it touches. */
  free(start: Bytes, end: Bytes): void {
    // Index of the first free range after `start`.
    let lo = 0
    let hi = this.freeCount
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.freeOffset[mid] < start) lo = mid + 1
      else hi = mid
    }
    const next = lo
    const prev = lo - 1
    const joinsPrev = prev >= 0 && this.freeOffset[prev] + this.freeSize[prev] === start
    const joinsNext = next < this.freeCount && this.freeOffset[next] === end
    if (joinsPrev && joinsNext) {
      this.freeSize[prev] = this.freeOffset[next] + this.freeSize[next] - this.freeOffset[prev]
      this.removeRange(next)
    } else if (joinsPrev) {
      this.freeSize[prev] = end - this.freeOffset[prev]
    } else if (joinsNext) {
      this.freeSize[next] = this.freeOffset[next] + this.freeSize[next] - start
      this.freeOffset[next] = start
    } else {
      if (this.freeCount === this.freeOffset.length) this.growFreeList()
      // A few ranges at most: a loop moves them faster than copyWithin's call.
      for (let k = this.freeCount; k > next; k--) {
        this.freeOffset[k] = this.freeOffset[k - 1]
        this.freeSize[k] = this.freeSize[k - 1]
      }
      this.freeOffset[next] = start
      this.freeSize[next] = end - start
      this.freeCount++
    }
    this.freeBytes += end - start
  }

  private removeRange(i: number): void {
    for (let k = i + 1; k < this.freeCount; k++) {
      this.freeOffset[k - 1] = this.freeOffset[k]
      this.freeSize[k - 1] = this.freeSize[k]
    }
    this.freeCount--
  }

  /** Every resource of the execution is gone: one free range over the whole heap. */
  reset(): void {
    this.freeOffset[0] = 0
    this.freeSize[0] = this.size
    this.freeCount = 1
    this.freeBytes = this.size
  }

  clone(): TransientHeap {
    const c = new TransientHeap(this.id, this.size, this.kindMask, this.label)
    c.freeOffset = this.freeOffset.slice()
    c.freeSize = this.freeSize.slice()
    c.freeCount = this.freeCount
    c.freeBytes = this.freeBytes
    c.lastUsed = this.lastUsed
    c.highWater = this.highWater
    c.created = this.created
    c.lastPad = this.lastPad
    c.textures = this.textures.clone()
    c.buffers = this.buffers.clone()
    return c
  }

  private growFreeList(): void {
    const offsets = new Float64Array(this.freeOffset.length * 2)
    offsets.set(this.freeOffset)
    const sizes = new Float64Array(this.freeSize.length * 2)
    sizes.set(this.freeSize)
    this.freeOffset = offsets
    this.freeSize = sizes
  }
}

/**
 * value % divisor, the same number: for a power-of-two divisor and a value of at least 0 by division, floor and
 * multiplication, all exact, instead of the floating-point modulo (a library call, slow in a hot loop).
 */
function remainder(value: number, divisor: number): number {
  if (value >= 0 && divisor <= 0x40000000 && divisor >= 1 && (divisor & (divisor - 1)) === 0 && (divisor | 0) === divisor) {
    return value - Math.floor(value / divisor) * divisor
  }
  return value % divisor
}
