/**
 * The render-graph transient allocator of the D3D12 model (seed §6): placed resources in transient heaps, aliased
 * by lifetime within one graph execution, the heaps kept in a cache across executions.
 *
 * What UE does (RHICoreTransientResourceAllocator, D3D12TransientResourceAllocator), and how the model follows it:
 * - One allocator per graph execution borrows heaps from the adapter's heap cache and gives them all back at the
 *   end. A request first tries the heaps this execution already holds, in the order it acquired them; when none
 *   fits it acquires the first cached heap that can hold it (an empty heap of at least the request's size, of a
 *   matching kind), and only then creates a heap. Returned heaps go to the front of the cache in acquisition order,
 *   so a repeated graph acquires the same heaps in the same order and lands at the same offsets, which is what
 *   makes the placed-resource cache hit.
 * - A new heap is max(roundUpPow2(size of the request that needed it), minimumHeapSize), rounded up to the 4 MiB
 *   heap alignment (MSAA textures can be placed in any heap). Resource heap tier 2 mixes buffers, textures and
 *   render targets in one heap; tier 1 keeps one heap kind per first request: buffers, textures, or RT/DS textures.
 * - Requests come in record order and are acquired in pass order: at pass p every resource whose last pass is
 *   before p is discarded first, then the resources whose first pass is p are acquired in the order they were
 *   added. Placement is first-fit over the heap's free ranges in offset order; the alignment padding in front of a
 *   resource is taken with it and given back with it; freed ranges coalesce with their neighbours.
 * - Garbage collection runs once at the end of every graph execution, after the heaps went back to the cache.
 *   Executions are counted globally from 0. A heap is "used" by an execution when at least one of that execution's
 *   resources is placed in it. At the end of execution e, a heap whose last use was execution u is destroyed when
 *   u + gcLatency <= e, i.e. when none of the last gcLatency executions (e - gcLatency + 1 .. e) used it: with the
 *   default 16, a heap used in execution 0 and then idle survives executions 1..15 and is destroyed at the end of
 *   execution 16 (UE: LastUsedGarbageCollectCycle + GarbageCollectLatency <= GarbageCollectCycle).
 * - Each heap caches placed resources, up to 64 textures and 64 buffers, keyed by (desc, offset). A request
 *   placed where an idle cached resource of the same desc sits reuses it (a hit); otherwise a resource is created
 *   (a miss) and joins the cache. A cached resource serves one request per execution, as UE keeps it acquired until
 *   the end of the execution; the cache is trimmed to its 64 most recently used entries at the end of each
 *   execution, since resources in use cannot be destroyed.
 * - Each heap is a residency object of high priority, used in every frame whose graphs place into it.
 */
import { KiB, MiB, roundUp, roundUpPow2 } from '../../../shared/units'
import type { Bytes, Frame } from '../../../shared/units'
import type { ModelSink, TransientPlacementInfo } from '../events'
import type { ResidencyManager } from './residency'

export interface TransientRequest {
  id: number
  kind: 'buffer' | 'texture'
  /** Bytes the resource takes (the caller rounds buffers to 64 KiB and gives textures their driver size). */
  size: Bytes
  /** Placement alignment: 64 KiB for buffers, max(64 KiB, driver alignment) for textures. */
  alignment: Bytes
  /** First and last pass of the graph using the resource, inclusive. */
  first: number
  last: number
  /**
   * Identity of the resource description, a number the caller assigns: requests with equal numbers are
   * interchangeable placed resources.
   */
  desc: number
  name?: string
  /** Render-target or depth-stencil texture (its own heap kind on resource heap tier 1). */
  rtds: boolean
  msaa: boolean
}

export interface TransientOptions {
  minimumHeapSize: Bytes
  gcLatency: number
  resourceHeapTier: 1 | 2
}

export type TransientHeapKind = 'all' | 'buffers' | 'textures' | 'renderTargets'

/** D3D12_HEAP_DESC alignment of a transient heap; heap sizes round up to it. */
export const TRANSIENT_HEAP_ALIGNMENT = 4 * MiB
/** Placed resources each heap caches per kind (RHI.TransientAllocator.TextureCacheSize / BufferCacheSize). */
export const PLACED_RESOURCE_CACHE_SIZE = 64

/** The heaps of one graph execution, one entry per heap it used, in acquisition order. */
export interface TransientLayoutHeaps {
  length: number
  id: Float64Array
  size: Float64Array
  /** Highest byte end of a resource placed in the heap by this execution. */
  highWater: Float64Array
  kind: TransientHeapKind[]
  /** 1 when this execution created the heap. */
  created: Uint8Array
}

/** The resources of one graph execution as rectangles (offset × pass range), in the order they were added. */
export interface TransientLayoutResources {
  length: number
  id: Float64Array
  /** Heap id (as in transientHeapCreated). */
  heap: Float64Array
  offset: Float64Array
  size: Float64Array
  /** Alignment padding taken in front of the resource. */
  padding: Float64Array
  /** Pass range after validation. */
  first: Int32Array
  last: Int32Array
  /** 1 texture, 0 buffer. */
  texture: Uint8Array
  msaa: Uint8Array
  cacheHit: Uint8Array
  name: (string | undefined)[]
}

export interface TransientLayout {
  execution: number
  name: string
  frame: Frame
  passes: number
  heaps: TransientLayoutHeaps
  resources: TransientLayoutResources
  /**
   * Aliasing overlaps: pairs of resource indices (a, b), a < b, flattened, sorted, of resources in the same heap
   * whose byte ranges intersect. Their pass ranges are disjoint, or they could not share bytes.
   */
  overlaps: Int32Array
  overlapCount: number
  /** Σ resource sizes. */
  requestedBytes: Bytes
  /** Σ (size + alignment padding): what the resources take, each on its own. */
  occupiedBytes: Bytes
  /** Σ heap high-water marks: what the execution needed with aliasing. */
  highWaterBytes: Bytes
  /** Σ sizes of the heaps used. */
  heapBytes: Bytes
  /** occupiedBytes − highWaterBytes: the bytes aliasing saved; never negative under first-fit. */
  saving: Bytes
  cacheHits: number
  cacheMisses: number
}

/**
 * The figures of one graph execution without its per-resource columns: what a replay folds into its series. The
 * allocator reuses one such object (and its heap arrays) for every execution.
 */
export interface TransientSummary {
  execution: number
  frame: Frame
  passes: number
  /** Resources placed. */
  resources: number
  /** Heaps used; their ids and sizes in acquisition order are the first `heaps` entries of heapId and heapSize. */
  heaps: number
  heapId: Float64Array
  heapSize: Float64Array
  overlapCount: number
  requestedBytes: Bytes
  occupiedBytes: Bytes
  highWaterBytes: Bytes
  heapBytes: Bytes
  saving: Bytes
  cacheHits: number
  cacheMisses: number
}

export interface TransientHeapInfo {
  id: number
  size: Bytes
  kind: TransientHeapKind
  label: string
  /** The last execution that placed into the heap. */
  lastUsedExecution: number
  cachedTextures: number
  cachedBuffers: number
}

export interface TransientStats {
  executions: number
  liveHeaps: number
  liveHeapBytes: Bytes
  peakHeapBytes: Bytes
  heapsCreated: number
  heapsDestroyed: number
  placements: number
  cacheHits: number
  cacheMisses: number
  /** hits / (hits + misses), 0 before any placement. */
  cacheHitRate: number
  /** Cached placed resources destroyed to keep a heap's cache at its capacity. */
  cacheEvictions: number
}

const BUFFERS = 1
const TEXTURES = 2
const RENDER_TARGETS = 4
const ALL_KINDS = BUFFERS | TEXTURES | RENDER_TARGETS
const FALLBACK_ALIGNMENT = 64 * KiB
const MAX_PASSES = 0x7fffffff
const NONE = -1
/** What endGraph returns when asked for no placements: shared, so frozen. */
const NO_PLACEMENTS = Object.freeze([]) as unknown as TransientPlacementInfo[]

function kindName(mask: number): TransientHeapKind {
  if (mask === ALL_KINDS) return 'all'
  if (mask === BUFFERS) return 'buffers'
  if (mask === TEXTURES) return 'textures'
  return 'renderTargets'
}

/**
 * The placed resources one heap keeps for one resource kind. A lookup by (desc, offset) goes through a hash table
 * to the chain of entries with that key, in the order they joined (the first idle one is taken); a recency list,
 * least recently used first, says which entries to destroy when the cache is trimmed. Nothing is scanned or
 * sorted whole.
 */
class PlacedResourceCache {
  desc = new Int32Array(8)
  offset = new Float64Array(8)
  inUse = new Uint8Array(8)
  /** Recency list: the neighbour used before and after each entry. */
  older = new Int32Array(8)
  newer = new Int32Array(8)
  /** Next entry of the same (desc, offset), or NONE; free slots are chained through it too. */
  same = new Int32Array(8)
  leastRecent = NONE
  mostRecent = NONE
  freeSlot = NONE
  /** Slots ever handed out (entries and free slots). */
  slots = 0
  count = 0
  /** Open addressing, linear probing: each cell holds the first entry of a key's chain + 1 (0: empty). */
  table = new Int32Array(16)
  keys = 0

  /** Takes an idle cached resource of this desc at this offset (true), or creates one (false). */
  acquire(desc: number, offset: Bytes): boolean {
    const mask = this.table.length - 1
    let cell = hashKey(desc, offset) & mask
    for (;;) {
      const head = this.table[cell] - 1
      if (head === NONE) break
      if (this.desc[head] === desc && this.offset[head] === offset) {
        let last = head
        for (let e = head; e !== NONE; e = this.same[e]) {
          if (this.inUse[e] === 0) {
            this.inUse[e] = 1
            this.touch(e)
            return true
          }
          last = e
        }
        // create() may grow the columns: read `same` after it.
        const e = this.create(desc, offset)
        this.same[last] = e
        return false
      }
      cell = (cell + 1) & mask
    }
    const e = this.create(desc, offset)
    this.table[cell] = e + 1
    if (++this.keys * 2 > this.table.length) this.rehash(this.table.length * 2)
    return false
  }

  /** End of an execution: every resource is idle again; keeps the `capacity` most recent. Returns evictions. */
  forfeit(capacity: number): number {
    // The entries used by this execution are the most recent ones.
    for (let e = this.mostRecent; e !== NONE && this.inUse[e] === 1; e = this.older[e]) this.inUse[e] = 0
    let evicted = 0
    while (this.count > capacity) {
      this.evict(this.leastRecent)
      evicted++
    }
    return evicted
  }

  clone(): PlacedResourceCache {
    const c = new PlacedResourceCache()
    c.desc = this.desc.slice()
    c.offset = this.offset.slice()
    c.inUse = this.inUse.slice()
    c.older = this.older.slice()
    c.newer = this.newer.slice()
    c.same = this.same.slice()
    c.leastRecent = this.leastRecent
    c.mostRecent = this.mostRecent
    c.freeSlot = this.freeSlot
    c.slots = this.slots
    c.count = this.count
    c.table = this.table.slice()
    c.keys = this.keys
    return c
  }

  /** A new entry, in use, most recent, at the end of no chain yet. */
  private create(desc: number, offset: Bytes): number {
    let e = this.freeSlot
    if (e !== NONE) this.freeSlot = this.same[e]
    else {
      if (this.slots === this.desc.length) this.grow(this.slots * 2)
      e = this.slots++
    }
    this.desc[e] = desc
    this.offset[e] = offset
    this.inUse[e] = 1
    this.same[e] = NONE
    this.older[e] = this.mostRecent
    this.newer[e] = NONE
    if (this.mostRecent !== NONE) this.newer[this.mostRecent] = e
    else this.leastRecent = e
    this.mostRecent = e
    this.count++
    return e
  }

  /** Moves an entry to the most recent end of the recency list. */
  private touch(e: number): void {
    if (e === this.mostRecent) return
    const older = this.older[e]
    const newer = this.newer[e]
    if (older !== NONE) this.newer[older] = newer
    else this.leastRecent = newer
    this.older[newer] = older
    this.older[e] = this.mostRecent
    this.newer[e] = NONE
    this.newer[this.mostRecent] = e
    this.mostRecent = e
  }

  /** Destroys an entry: out of the recency list, out of its key's chain, its slot free. */
  private evict(e: number): void {
    const older = this.older[e]
    const newer = this.newer[e]
    if (older !== NONE) this.newer[older] = newer
    else this.leastRecent = newer
    if (newer !== NONE) this.older[newer] = older
    else this.mostRecent = older

    const mask = this.table.length - 1
    let cell = hashKey(this.desc[e], this.offset[e]) & mask
    while (this.table[cell] - 1 !== NONE) {
      const head = this.table[cell] - 1
      if (this.desc[head] === this.desc[e] && this.offset[head] === this.offset[e]) break
      cell = (cell + 1) & mask
    }
    const head = this.table[cell] - 1
    if (head === e) {
      if (this.same[e] !== NONE) this.table[cell] = this.same[e] + 1
      else this.removeCell(cell)
    } else {
      let before = head
      while (this.same[before] !== e) before = this.same[before]
      this.same[before] = this.same[e]
    }
    this.same[e] = this.freeSlot
    this.freeSlot = e
    this.count--
  }

  /** Empties a cell, moving later cells of its probe run back so every key stays reachable. */
  private removeCell(cell: number): void {
    const table = this.table
    const mask = table.length - 1
    let hole = cell
    let next = (cell + 1) & mask
    while (table[next] !== 0) {
      const head = table[next] - 1
      const home = hashKey(this.desc[head], this.offset[head]) & mask
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      if ((next - home + table.length) % table.length >= (next - hole + table.length) % table.length) {
        table[hole] = table[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    table[hole] = 0
    this.keys--
  }

  private rehash(cells: number): void {
    const old = this.table
    const table = new Int32Array(cells)
    const mask = cells - 1
    for (let c = 0; c < old.length; c++) {
      if (old[c] === 0) continue
      const head = old[c] - 1
      let cell = hashKey(this.desc[head], this.offset[head]) & mask
      while (table[cell] !== 0) cell = (cell + 1) & mask
      table[cell] = old[c]
    }
    this.table = table
  }

  private grow(capacity: number): void {
    const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity)
      b.set(a)
      return b
    }
    this.desc = grow(this.desc, (n) => new Int32Array(n))
    this.offset = grow(this.offset, (n) => new Float64Array(n))
    this.inUse = grow(this.inUse, (n) => new Uint8Array(n))
    this.older = grow(this.older, (n) => new Int32Array(n))
    this.newer = grow(this.newer, (n) => new Int32Array(n))
    this.same = grow(this.same, (n) => new Int32Array(n))
  }
}

/** A hash of (desc, offset) for the cache's table; offsets are integers below 2^53, often multiples of 64 KiB. */
function hashKey(desc: number, offset: number): number {
  const low = offset >>> 0
  const high = (offset / 4294967296) >>> 0
  let h = Math.imul(desc, 0x9e3779b1) ^ Math.imul(low ^ (low >>> 16), 0x85ebca6b) ^ Math.imul(high, 0x27d4eb2f)
  h ^= h >>> 15
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 13)
}

/** One transient heap: its free ranges (sorted by offset, coalesced) and its placed-resource caches. */
class TransientHeap {
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
 * One graph execution's requests, where each landed, and the heaps it used, one column each. The allocator keeps
 * two: the open graph's, and the last execution's, from which its layout is built only when someone asks.
 */
class ExecutionColumns {
  count = 0
  execution = 0
  graphName = ''
  frame: Frame = 0
  passes = 0
  hits = 0
  id = new Float64Array(64)
  size = new Float64Array(64)
  align = new Float64Array(64)
  first = new Int32Array(64)
  last = new Int32Array(64)
  /** Heap kind bit of the request. */
  kind = new Uint8Array(64)
  msaa = new Uint8Array(64)
  desc = new Int32Array(64)
  name: (string | undefined)[] = []
  /** Where each request landed: index into the execution's heaps, offset, padding, cache hit. */
  heap = new Int32Array(64)
  offset = new Float64Array(64)
  pad = new Float64Array(64)
  hit = new Uint8Array(64)
  /** The heaps the execution used, in acquisition order. */
  heapCount = 0
  heapId = new Float64Array(8)
  heapSize = new Float64Array(8)
  heapHighWater = new Float64Array(8)
  heapKind = new Uint8Array(8)
  heapCreated = new Uint8Array(8)

  grow(capacity: number): void {
    this.id = grownF64(this.id, capacity)
    this.size = grownF64(this.size, capacity)
    this.align = grownF64(this.align, capacity)
    this.first = grownI32(this.first, capacity)
    this.last = grownI32(this.last, capacity)
    this.kind = grownU8(this.kind, capacity)
    this.msaa = grownU8(this.msaa, capacity)
    this.desc = grownI32(this.desc, capacity)
    this.heap = grownI32(this.heap, capacity)
    this.offset = grownF64(this.offset, capacity)
    this.pad = grownF64(this.pad, capacity)
    this.hit = grownU8(this.hit, capacity)
  }

  growHeaps(capacity: number): void {
    this.heapId = grownF64(this.heapId, capacity)
    this.heapSize = grownF64(this.heapSize, capacity)
    this.heapHighWater = grownF64(this.heapHighWater, capacity)
    this.heapKind = grownU8(this.heapKind, capacity)
    this.heapCreated = grownU8(this.heapCreated, capacity)
  }

  clone(): ExecutionColumns {
    const c = new ExecutionColumns()
    c.count = this.count
    c.execution = this.execution
    c.graphName = this.graphName
    c.frame = this.frame
    c.passes = this.passes
    c.hits = this.hits
    c.id = this.id.slice()
    c.size = this.size.slice()
    c.align = this.align.slice()
    c.first = this.first.slice()
    c.last = this.last.slice()
    c.kind = this.kind.slice()
    c.msaa = this.msaa.slice()
    c.desc = this.desc.slice()
    c.name = this.name.slice()
    c.heap = this.heap.slice()
    c.offset = this.offset.slice()
    c.pad = this.pad.slice()
    c.hit = this.hit.slice()
    c.heapCount = this.heapCount
    c.heapId = this.heapId.slice()
    c.heapSize = this.heapSize.slice()
    c.heapHighWater = this.heapHighWater.slice()
    c.heapKind = this.heapKind.slice()
    c.heapCreated = this.heapCreated.slice()
    return c
  }
}

function grownF64(a: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(capacity)
  b.set(a.subarray(0, Math.min(a.length, capacity)))
  return b
}

function grownI32(a: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(capacity)
  b.set(a.subarray(0, Math.min(a.length, capacity)))
  return b
}

function grownU8(a: Uint8Array, capacity: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(capacity)
  b.set(a.subarray(0, Math.min(a.length, capacity)))
  return b
}

function newSummary(): TransientSummary {
  return {
    execution: 0,
    frame: 0,
    passes: 0,
    resources: 0,
    heaps: 0,
    heapId: new Float64Array(0),
    heapSize: new Float64Array(0),
    overlapCount: 0,
    requestedBytes: 0,
    occupiedBytes: 0,
    highWaterBytes: 0,
    heapBytes: 0,
    saving: 0,
    cacheHits: 0,
    cacheMisses: 0,
  }
}

export class TransientAllocator {
  private readonly minimumHeapSize: Bytes
  private readonly gcLatency: number
  private readonly tier: 1 | 2
  private sink: ModelSink
  private residency: ResidencyManager
  private allocateObjectId: () => number

  /** Every live heap between executions, in the order acquisition tries them. */
  private cached: TransientHeap[] = []
  /** Heaps of the execution being placed, in acquisition order (scratch, empty between executions). */
  private acquired: TransientHeap[] = []

  private open = false
  private graphFrame: Frame = 0
  private lastFrame: Frame = 0
  private executionCount = 0

  /** The open graph's requests. */
  private cur = new ExecutionColumns()
  /** The last execution's, once there was one (`executed`). */
  private done = new ExecutionColumns()
  private executed = false
  /** The last execution's figures, worked out from `done` when first asked for (a snapshot's replay never asks). */
  private summary: TransientSummary | null = null
  private summarized = false
  /** The last execution's layout once built. */
  private layout: TransientLayout | null = null

  // Scratch: pass orders, address sorts for the overlaps, the counting sort's buckets, overlap pairs.
  private acquireOrder = new Int32Array(64)
  private discardOrder = new Int32Array(64)
  private addressOrder = new Int32Array(64)
  private sortKeys = new Float64Array(64)
  private starts = new Float64Array(64)
  private heapBase = new Float64Array(8)
  private passCounts = new Int32Array(64)
  private pairKeys: Float64Array = new Float64Array(64)

  private heapsCreated = 0
  private heapsDestroyed = 0
  private liveHeapBytes: Bytes = 0
  private peakHeapBytes: Bytes = 0
  private placements = 0
  private cacheHits = 0
  private cacheMisses = 0
  private cacheEvictions = 0

  private readonly byFirst = (a: number, b: number): number => this.cur.first[a] - this.cur.first[b] || a - b
  private readonly byLast = (a: number, b: number): number => this.cur.last[a] - this.cur.last[b] || a - b

  constructor(
    options: TransientOptions,
    sink: ModelSink,
    residency: ResidencyManager,
    allocateObjectId: () => number,
  ) {
    this.minimumHeapSize = options.minimumHeapSize
    this.gcLatency = options.gcLatency
    this.tier = options.resourceHeapTier
    this.sink = sink
    this.residency = residency
    this.allocateObjectId = allocateObjectId
  }

  beginGraph(name: string, frame: number): void {
    const cols = this.cur
    if (this.open && cols.count > 0) {
      this.sink.warning?.(
        'transientGraph',
        `graph "${cols.graphName}" has no endgraph; its ${cols.count} transient resources are dropped`,
        frame,
      )
    }
    this.open = true
    cols.graphName = name
    this.graphFrame = frame
    this.lastFrame = frame
    cols.count = 0
    cols.name.length = 0
  }

  add(req: TransientRequest): void {
    if (!this.open) {
      this.sink.warning?.('transientGraph', `transient ${req.id} outside a graph; placed in an unnamed graph`, this.lastFrame)
      this.beginGraph('', this.lastFrame)
    }
    const cols = this.cur
    if (cols.count === cols.id.length) cols.grow(cols.count * 2)
    const i = cols.count++
    let size = req.size
    let alignment = req.alignment
    if (!(size > 0 && Number.isFinite(size))) {
      this.sink.warning?.('transientSize', `transient ${req.id} has size ${size}; placed as 64 KiB`, this.graphFrame)
      size = FALLBACK_ALIGNMENT
    }
    if (!(alignment > 0 && Number.isFinite(alignment))) {
      this.sink.warning?.('transientSize', `transient ${req.id} has alignment ${alignment}; aligned to 64 KiB`, this.graphFrame)
      alignment = FALLBACK_ALIGNMENT
    }
    cols.id[i] = req.id
    cols.size[i] = size
    cols.align[i] = alignment
    // Pass numbers are validated at endGraph, once the pass count is known.
    cols.first[i] = clampInt(req.first)
    cols.last[i] = clampInt(req.last)
    cols.kind[i] = req.kind === 'buffer' ? BUFFERS : req.rtds ? RENDER_TARGETS : TEXTURES
    cols.msaa[i] = req.msaa ? 1 : 0
    cols.desc[i] = req.desc
    cols.name[i] = req.name
  }

  /**
   * Places the graph's resources and returns one placement per request, in the order they were added. The sink
   * hears them in the order they were acquired (pass order), each after the creation of the heap it needed;
   * heaps destroyed by this execution's garbage collection come last. With `placements` false nothing is returned
   * (a replay that reads only the summary allocates nothing per resource).
   */
  endGraph(passes: number, frame: number, placements = true): TransientPlacementInfo[] {
    this.lastFrame = frame
    if (!this.open) {
      this.sink.warning?.('transientGraph', 'endgraph without a graph', frame)
      return placements ? [] : NO_PLACEMENTS
    }
    this.open = false
    const cols = this.cur
    const n = cols.count
    const execution = this.executionCount
    const passCount = this.validatePasses(passes, n, frame)
    if (this.acquireOrder.length < n) this.growScratch(cols.id.length)

    const acquireOrder = this.orderBy(cols.first, n, passCount, this.acquireOrder, this.byFirst)
    const discardOrder = this.orderBy(cols.last, n, passCount, this.discardOrder, this.byLast)

    const out = placements ? new Array<TransientPlacementInfo>(n) : NO_PLACEMENTS
    const acquired = this.acquired
    let hits = 0
    let discarded = 0
    for (let k = 0; k < n; k++) {
      const i = acquireOrder[k]
      const pass = cols.first[i]
      // Resources whose last pass is before this one were acquired earlier (first <= last < pass): discard them.
      while (discarded < n) {
        const j = discardOrder[discarded]
        if (cols.last[j] >= pass) break
        acquired[cols.heap[j]].free(cols.offset[j] - cols.pad[j], cols.offset[j] + cols.size[j])
        discarded++
      }
      if (this.place(i, execution, frame, placements ? out : null)) hits++
    }

    cols.execution = execution
    cols.frame = frame
    cols.passes = passCount
    cols.hits = hits
    this.recordHeaps(cols)

    // The graph is over: every resource is discarded and every heap returns to the cache, the acquired ones in
    // front in acquisition order.
    for (const heap of acquired) {
      heap.reset()
      heap.lastUsed = execution
      heap.created = false
      this.cacheEvictions += heap.textures.forfeit(PLACED_RESOURCE_CACHE_SIZE)
      this.cacheEvictions += heap.buffers.forfeit(PLACED_RESOURCE_CACHE_SIZE)
      this.residency.markUsed(heap.id)
    }
    if (acquired.length > 0) {
      const cached = this.cached
      const kept = cached.length
      cached.length = kept + acquired.length
      cached.copyWithin(acquired.length, 0, kept)
      for (let h = 0; h < acquired.length; h++) cached[h] = acquired[h]
    }
    acquired.length = 0
    this.collectGarbage(execution, frame)

    this.executionCount++
    // The columns just placed become the last execution's; the other set takes the next graph.
    this.cur = this.done
    this.done = cols
    this.cur.count = 0
    this.cur.name.length = 0
    this.executed = true
    this.summarized = false
    this.layout = null
    return out
  }

  /** The figures of the last graph execution (one object, reused), null before the first. */
  lastSummary(): TransientSummary | null {
    if (!this.executed) return null
    if (!this.summarized) {
      this.summarize(this.done)
      this.summarized = true
    }
    return this.summary
  }

  /** The layout of the last graph execution, null before the first; built on first call, then kept. */
  lastLayout(): TransientLayout | null {
    if (this.layout === null && this.executed) this.layout = this.buildLayout(this.done)
    return this.layout
  }

  /** Graph executions completed so far. */
  executions(): number {
    return this.executionCount
  }

  /** The live heaps, in the order the next acquisition tries them. */
  heaps(): TransientHeapInfo[] {
    return this.cached.map((h) => ({
      id: h.id,
      size: h.size,
      kind: kindName(h.kindMask),
      label: h.label,
      lastUsedExecution: h.lastUsed,
      cachedTextures: h.textures.count,
      cachedBuffers: h.buffers.count,
    }))
  }

  stats(): TransientStats {
    const lookups = this.cacheHits + this.cacheMisses
    return {
      executions: this.executionCount,
      liveHeaps: this.cached.length + this.acquired.length,
      liveHeapBytes: this.liveHeapBytes,
      peakHeapBytes: this.peakHeapBytes,
      heapsCreated: this.heapsCreated,
      heapsDestroyed: this.heapsDestroyed,
      placements: this.placements,
      cacheHits: this.cacheHits,
      cacheMisses: this.cacheMisses,
      cacheHitRate: lookups === 0 ? 0 : this.cacheHits / lookups,
      cacheEvictions: this.cacheEvictions,
    }
  }

  /**
   * A deep copy that continues exactly as this one would, sending events to `sink` and registering heaps with
   * `residency` (the clone of this one's residency manager). `allocateObjectId` defaults to this one's: pass the
   * clone's own when the copies must not share an id counter.
   */
  clone(sink: ModelSink, residency: ResidencyManager, allocateObjectId?: () => number): TransientAllocator {
    const c = new TransientAllocator(
      { minimumHeapSize: this.minimumHeapSize, gcLatency: this.gcLatency, resourceHeapTier: this.tier },
      sink,
      residency,
      allocateObjectId ?? this.allocateObjectId,
    )
    c.cached = this.cached.map((h) => h.clone())
    c.open = this.open
    c.graphFrame = this.graphFrame
    c.lastFrame = this.lastFrame
    c.executionCount = this.executionCount
    c.cur = this.cur.clone()
    if (this.executed) {
      c.done = this.done.clone()
      c.executed = true
    }
    // Layouts are never mutated once built: sharing the last one is safe.
    c.layout = this.layout
    c.growScratch(this.acquireOrder.length)
    c.heapsCreated = this.heapsCreated
    c.heapsDestroyed = this.heapsDestroyed
    c.liveHeapBytes = this.liveHeapBytes
    c.peakHeapBytes = this.peakHeapBytes
    c.placements = this.placements
    c.cacheHits = this.cacheHits
    c.cacheMisses = this.cacheMisses
    c.cacheEvictions = this.cacheEvictions
    return c
  }

  private growScratch(capacity: number): void {
    this.acquireOrder = new Int32Array(capacity)
    this.discardOrder = new Int32Array(capacity)
    this.addressOrder = new Int32Array(capacity)
    this.sortKeys = new Float64Array(capacity)
  }

  /**
   * The request indices ordered by a pass column, ties in the order added: a counting sort over the passes
   * (O(n + passes)) unless the graph has far more passes than requests.
   */
  private orderBy(
    pass: Int32Array,
    n: number,
    passCount: number,
    out: Int32Array,
    compare: (a: number, b: number) => number,
  ): Int32Array {
    const order = out.subarray(0, n)
    if (passCount > 4 * n + 1024) {
      for (let i = 0; i < n; i++) order[i] = i
      return order.sort(compare)
    }
    if (this.passCounts.length < passCount + 1) this.passCounts = new Int32Array(passCount + 1)
    const starts = this.passCounts
    starts.fill(0, 0, passCount + 1)
    for (let i = 0; i < n; i++) starts[pass[i] + 1]++
    for (let p = 1; p <= passCount; p++) starts[p] += starts[p - 1]
    for (let i = 0; i < n; i++) order[starts[pass[i]]++] = i
    return order
  }

  /** Clamps the pass range of every request into [0, passes) with first <= last; returns the pass count used. */
  private validatePasses(passes: number, n: number, frame: Frame): number {
    const cols = this.cur
    let passCount = Math.floor(passes)
    if (!(passCount >= 1)) {
      if (n > 0) {
        this.sink.warning?.(
          'transientPassRange',
          `graph "${cols.graphName}" ends with ${passes} passes; its resources are clamped to pass 0`,
          frame,
        )
      }
      passCount = 1
    } else if (passCount > MAX_PASSES) {
      passCount = MAX_PASSES
    }
    const lastPass = passCount - 1
    for (let i = 0; i < n; i++) {
      const first = cols.first[i]
      const last = cols.last[i]
      if (first >= 0 && first <= last && last <= lastPass) continue
      const f = Math.min(Math.max(first, 0), lastPass)
      // A last pass before the first is raised to it: the resource lives at least during its first pass.
      const l = Math.min(Math.max(last, f), lastPass)
      cols.first[i] = f
      cols.last[i] = l
      const name = cols.name[i] !== undefined ? ` (${cols.name[i]})` : ''
      this.sink.warning?.(
        'transientPassRange',
        `transient ${cols.id[i]}${name} in graph "${cols.graphName}" lives in passes ${first}..${last}, ` +
          `outside 0..${lastPass} or reversed; clamped to ${f}..${l}`,
        frame,
      )
    }
    return passCount
  }

  /** Places request i; returns whether it hit the placed-resource cache. */
  private place(i: number, execution: number, frame: Frame, out: TransientPlacementInfo[] | null): boolean {
    const cols = this.cur
    const kind = cols.kind[i]
    const size = cols.size[i]
    const alignment = cols.align[i]
    const acquired = this.acquired
    let heapIndex = -1
    let offset = -1
    for (let h = 0; h < acquired.length; h++) {
      const heap = acquired[h]
      if ((heap.kindMask & kind) === 0 || size > heap.freeBytes) continue
      offset = heap.allocate(size, alignment)
      if (offset >= 0) {
        heapIndex = h
        break
      }
    }
    if (heapIndex < 0) {
      const heap = this.acquireHeap(size, kind, frame)
      heap.highWater = 0
      heapIndex = acquired.length
      acquired.push(heap)
      // An empty heap at least as large as the request: offset 0, aligned to anything.
      offset = heap.allocate(size, alignment)
    }
    const heap = acquired[heapIndex]
    const end = offset + size
    if (end > heap.highWater) heap.highWater = end
    const cache = kind === BUFFERS ? heap.buffers : heap.textures
    const cacheHit = cache.acquire(cols.desc[i], offset)
    if (cacheHit) this.cacheHits++
    else this.cacheMisses++
    this.placements++
    cols.heap[i] = heapIndex
    cols.offset[i] = offset
    cols.pad[i] = heap.lastPad
    cols.hit[i] = cacheHit ? 1 : 0
    if (out !== null || this.sink.transientPlaced) {
      const info: TransientPlacementInfo = {
        id: cols.id[i],
        execution,
        heap: heap.id,
        offset,
        size,
        first: cols.first[i],
        last: cols.last[i],
        cacheHit,
      }
      this.sink.transientPlaced?.(info, frame)
      if (out !== null) out[i] = info
    }
    return cacheHit
  }

  /** The first cached heap that can hold the request, or a new one. */
  private acquireHeap(size: Bytes, kind: number, frame: Frame): TransientHeap {
    for (let h = 0; h < this.cached.length; h++) {
      const heap = this.cached[h]
      if ((heap.kindMask & kind) !== 0 && size <= heap.size) {
        this.cached.splice(h, 1)
        return heap
      }
    }
    const heapSize = roundUp(Math.max(roundUpPow2(size), this.minimumHeapSize), TRANSIENT_HEAP_ALIGNMENT)
    const kindMask = this.tier === 2 ? ALL_KINDS : kind
    const id = this.allocateObjectId()
    const heap = new TransientHeap(id, heapSize, kindMask, `Transient/${kindName(kindMask)}/${id}`)
    heap.created = true
    this.heapsCreated++
    this.liveHeapBytes += heapSize
    if (this.liveHeapBytes > this.peakHeapBytes) this.peakHeapBytes = this.liveHeapBytes
    this.sink.transientHeapCreated?.(id, heapSize, frame)
    this.residency.addObject(id, heapSize, 'high', heap.label, frame)
    return heap
  }

  private collectGarbage(execution: number, frame: Frame): void {
    let kept = 0
    for (let h = 0; h < this.cached.length; h++) {
      const heap = this.cached[h]
      if (heap.lastUsed + this.gcLatency <= execution) {
        this.heapsDestroyed++
        this.liveHeapBytes -= heap.size
        this.sink.transientHeapDestroyed?.(heap.id, frame)
        this.residency.removeObject(heap.id, frame)
      } else {
        this.cached[kept++] = heap
      }
    }
    this.cached.length = kept
  }

  /** The heaps the execution used, from the acquired list into its columns, before they go back to the cache. */
  private recordHeaps(cols: ExecutionColumns): void {
    const acquired = this.acquired
    if (cols.heapId.length < acquired.length) cols.growHeaps(acquired.length * 2)
    for (let h = 0; h < acquired.length; h++) {
      const heap = acquired[h]
      cols.heapId[h] = heap.id
      cols.heapSize[h] = heap.size
      cols.heapHighWater[h] = heap.highWater
      cols.heapKind[h] = heap.kindMask
      cols.heapCreated[h] = heap.created ? 1 : 0
    }
    cols.heapCount = acquired.length
  }

  /** The execution's figures into the summary. */
  private summarize(cols: ExecutionColumns): void {
    const n = cols.count
    let highWaterBytes = 0
    let heapBytes = 0
    for (let h = 0; h < cols.heapCount; h++) {
      highWaterBytes += cols.heapHighWater[h]
      heapBytes += cols.heapSize[h]
    }
    let requestedBytes = 0
    let occupiedBytes = 0
    for (let i = 0; i < n; i++) {
      requestedBytes += cols.size[i]
      occupiedBytes += cols.size[i] + cols.pad[i]
    }
    const s = this.summary ?? (this.summary = newSummary())
    s.execution = cols.execution
    s.frame = cols.frame
    s.passes = cols.passes
    s.resources = n
    s.heaps = cols.heapCount
    s.heapId = cols.heapId
    s.heapSize = cols.heapSize
    s.overlapCount = this.countOverlaps(cols)
    s.requestedBytes = requestedBytes
    s.occupiedBytes = occupiedBytes
    s.highWaterBytes = highWaterBytes
    s.heapBytes = heapBytes
    s.saving = occupiedBytes - highWaterBytes
    s.cacheHits = cols.hits
    s.cacheMisses = n - cols.hits
  }

  private buildLayout(cols: ExecutionColumns): TransientLayout {
    const n = cols.count
    const heapCount = cols.heapCount
    const heaps: TransientLayoutHeaps = {
      length: heapCount,
      id: cols.heapId.slice(0, heapCount),
      size: cols.heapSize.slice(0, heapCount),
      highWater: cols.heapHighWater.slice(0, heapCount),
      kind: new Array<TransientHeapKind>(heapCount),
      created: cols.heapCreated.slice(0, heapCount),
    }
    for (let h = 0; h < heapCount; h++) heaps.kind[h] = kindName(cols.heapKind[h])
    const resources: TransientLayoutResources = {
      length: n,
      id: cols.id.slice(0, n),
      heap: new Float64Array(n),
      offset: cols.offset.slice(0, n),
      size: cols.size.slice(0, n),
      padding: cols.pad.slice(0, n),
      first: cols.first.slice(0, n),
      last: cols.last.slice(0, n),
      texture: new Uint8Array(n),
      msaa: cols.msaa.slice(0, n),
      cacheHit: cols.hit.slice(0, n),
      name: cols.name.slice(0, n),
    }
    for (let i = 0; i < n; i++) {
      resources.heap[i] = cols.heapId[cols.heap[i]]
      resources.texture[i] = cols.kind[i] === BUFFERS ? 0 : 1
    }
    const s = this.lastSummary()!
    const overlaps = this.overlapPairs(cols)
    return {
      execution: cols.execution,
      name: cols.graphName,
      frame: cols.frame,
      passes: cols.passes,
      heaps,
      resources,
      overlaps,
      overlapCount: overlaps.length / 2,
      requestedBytes: s.requestedBytes,
      occupiedBytes: s.occupiedBytes,
      highWaterBytes: s.highWaterBytes,
      heapBytes: s.heapBytes,
      saving: s.saving,
      cacheHits: s.cacheHits,
      cacheMisses: s.cacheMisses,
    }
  }

  /**
   * The resources ordered by (heap, offset, index). Laid end to end the heaps form one address space; while its
   * addresses are integers, each times n plus the index is a distinct number below 2^53 that sorts natively.
   */
  private sortByAddress(cols: ExecutionColumns): Int32Array {
    const n = cols.count
    if (this.addressOrder.length < n) this.growScratch(cols.id.length)
    const order = this.addressOrder.subarray(0, n)
    const heapOf = cols.heap
    const offsetOf = cols.offset
    if (this.heapBase.length < cols.heapCount) this.heapBase = new Float64Array(cols.heapCount * 2)
    const base = this.heapBase
    let span = 0
    for (let h = 0; h < cols.heapCount; h++) {
      base[h] = span
      span += cols.heapSize[h]
    }
    let integral = span * n < 2 ** 53
    if (integral) {
      const keys = this.sortKeys.subarray(0, n)
      for (let i = 0; i < n; i++) {
        const address = base[heapOf[i]] + offsetOf[i]
        if (!Number.isInteger(address)) {
          integral = false
          break
        }
        keys[i] = address * n + i
      }
      if (integral) {
        keys.sort()
        for (let k = 0; k < n; k++) order[k] = keys[k] % n
        return order
      }
    }
    for (let i = 0; i < n; i++) order[i] = i
    return order.sort((a, b) => heapOf[a] - heapOf[b] || offsetOf[a] - offsetOf[b] || a - b)
  }

  /**
   * How many pairs of resources in one heap have intersecting byte ranges, without enumerating them. Laid end to
   * end the heaps form one address space, where resources of different heaps never intersect. With the starts
   * sorted, the starts before a resource's end count the resources before it in start order, itself, and those
   * after it that it intersects; summed over all resources the first two make n(n + 1)/2, the rest is the count.
   */
  private countOverlaps(cols: ExecutionColumns): number {
    const n = cols.count
    if (n < 2) return 0
    if (this.starts.length < n) this.starts = new Float64Array(cols.id.length)
    if (this.heapBase.length < cols.heapCount) this.heapBase = new Float64Array(cols.heapCount * 2)
    const base = this.heapBase
    let span = 0
    for (let h = 0; h < cols.heapCount; h++) {
      base[h] = span
      span += cols.heapSize[h]
    }
    const starts = this.starts
    for (let i = 0; i < n; i++) starts[i] = base[cols.heap[i]] + cols.offset[i]
    sortNumbers(starts, 0, n - 1)
    let before = 0
    for (let i = 0; i < n; i++) {
      const end = base[cols.heap[i]] + cols.offset[i] + cols.size[i]
      let lo = 0
      let hi = n
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (starts[mid] < end) lo = mid + 1
        else hi = mid
      }
      before += lo
    }
    return before - (n * (n + 1)) / 2
  }

  /** The overlapping pairs themselves, (low, high) sorted: a sweep over the resources in address order. */
  private overlapPairs(cols: ExecutionColumns): Int32Array {
    const n = cols.count
    const order = this.sortByAddress(cols)
    const heapOf = cols.heap
    const offsetOf = cols.offset
    let keys: Float64Array = this.pairKeys
    let pairs = 0
    for (let x = 0; x < n; x++) {
      const a = order[x]
      const end = offsetOf[a] + cols.size[a]
      for (let y = x + 1; y < n; y++) {
        const b = order[y]
        if (heapOf[b] !== heapOf[a] || offsetOf[b] >= end) break
        if (pairs === keys.length) {
          const grown = new Float64Array(keys.length * 2)
          grown.set(keys)
          keys = this.pairKeys = grown
        }
        // One number per pair sorts numerically into (low, high) order; n < 2^26, so it stays exact.
        keys[pairs++] = a < b ? a * n + b : b * n + a
      }
    }
    const out = new Int32Array(pairs * 2)
    const sorted = keys.subarray(0, pairs).sort()
    for (let p = 0; p < pairs; p++) {
      const key = sorted[p]
      const low = Math.floor(key / n)
      out[2 * p] = low
      out[2 * p + 1] = key - low * n
    }
    return out
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

/**
 * Sorts a[lo..hi] ascending in place: quicksort, median of three, insertion sort below 16. For the hundred or so
 * numbers of one graph execution this beats the native typed-array sort, whose call costs more than the work.
 */
function sortNumbers(a: Float64Array, lo: number, hi: number): void {
  while (hi - lo >= 16) {
    const mid = (lo + hi) >>> 1
    if (a[mid] < a[lo]) swap(a, mid, lo)
    if (a[hi] < a[lo]) swap(a, hi, lo)
    if (a[hi] < a[mid]) swap(a, hi, mid)
    const pivot = a[mid]
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) swap(a, i++, j--)
    }
    // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
    if (j - lo < hi - i) {
      sortNumbers(a, lo, j)
      lo = i
    } else {
      sortNumbers(a, i, hi)
      hi = j
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i]
    let j = i - 1
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j]
      j--
    }
    a[j + 1] = v
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]
  a[i] = a[j]
  a[j] = t
}

/** Pass numbers as 32-bit integers (NaN as -1, so validation reports it); the clamp happens at endGraph. */
function clampInt(value: number): number {
  if (Number.isNaN(value)) return -1
  if (value > MAX_PASSES) return MAX_PASSES
  if (value < -MAX_PASSES) return -MAX_PASSES
  return Math.floor(value)
}
