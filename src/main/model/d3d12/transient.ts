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
 * - Each heap caches placed resources, up to 64 textures and 64 buffers, keyed by (descKey, offset). A request
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
  /** Identity of the resource description: equal keys are interchangeable placed resources. */
  descKey: string
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

function kindName(mask: number): TransientHeapKind {
  if (mask === ALL_KINDS) return 'all'
  if (mask === BUFFERS) return 'buffers'
  if (mask === TEXTURES) return 'textures'
  return 'renderTargets'
}

/** The placed resources one heap keeps for one resource kind. Small (≤ 64 idle entries): scanned linearly. */
class PlacedResourceCache {
  desc = new Int32Array(8)
  offset = new Float64Array(8)
  /** Recency stamp, unique per use: the smallest is the least recently used. */
  stamp = new Float64Array(8)
  inUse = new Uint8Array(8)
  count = 0

  /** Takes an idle cached resource of this desc at this offset (true), or creates one (false). */
  acquire(desc: number, offset: Bytes, stamp: number): boolean {
    for (let i = 0; i < this.count; i++) {
      if (this.offset[i] === offset && this.desc[i] === desc && this.inUse[i] === 0) {
        this.inUse[i] = 1
        this.stamp[i] = stamp
        return true
      }
    }
    if (this.count === this.desc.length) this.grow(this.count * 2)
    const i = this.count++
    this.desc[i] = desc
    this.offset[i] = offset
    this.stamp[i] = stamp
    this.inUse[i] = 1
    return false
  }

  /** End of an execution: every resource is idle again; keeps the `capacity` most recent. Returns evictions. */
  forfeit(capacity: number): number {
    this.inUse.fill(0, 0, this.count)
    if (this.count <= capacity) return 0
    const stamps = this.stamp.slice(0, this.count).sort()
    const oldestKept = capacity > 0 ? stamps[this.count - capacity] : Infinity
    let kept = 0
    for (let i = 0; i < this.count; i++) {
      if (this.stamp[i] < oldestKept) continue
      this.desc[kept] = this.desc[i]
      this.offset[kept] = this.offset[i]
      this.stamp[kept] = this.stamp[i]
      kept++
    }
    const evicted = this.count - kept
    this.count = kept
    return evicted
  }

  clone(): PlacedResourceCache {
    const c = new PlacedResourceCache()
    c.desc = this.desc.slice()
    c.offset = this.offset.slice()
    c.stamp = this.stamp.slice()
    c.inUse = this.inUse.slice()
    c.count = this.count
    return c
  }

  private grow(capacity: number): void {
    const desc = new Int32Array(capacity)
    desc.set(this.desc)
    const offset = new Float64Array(capacity)
    offset.set(this.offset)
    const stamp = new Float64Array(capacity)
    stamp.set(this.stamp)
    const inUse = new Uint8Array(capacity)
    inUse.set(this.inUse)
    this.desc = desc
    this.offset = offset
    this.stamp = stamp
    this.inUse = inUse
  }
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
      const start = this.freeOffset[i]
      const rest = start % alignment
      const aligned = rest === 0 ? start : start + (alignment - rest)
      const taken = aligned - start + size
      const rangeSize = this.freeSize[i]
      if (taken > rangeSize) continue
      if (taken === rangeSize) {
        this.freeOffset.copyWithin(i, i + 1, this.freeCount)
        this.freeSize.copyWithin(i, i + 1, this.freeCount)
        this.freeCount--
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
      this.freeOffset.copyWithin(next, next + 1, this.freeCount)
      this.freeSize.copyWithin(next, next + 1, this.freeCount)
      this.freeCount--
    } else if (joinsPrev) {
      this.freeSize[prev] = end - this.freeOffset[prev]
    } else if (joinsNext) {
      this.freeSize[next] = this.freeOffset[next] + this.freeSize[next] - start
      this.freeOffset[next] = start
    } else {
      if (this.freeCount === this.freeOffset.length) this.growFreeList()
      this.freeOffset.copyWithin(next + 1, next, this.freeCount)
      this.freeSize.copyWithin(next + 1, next, this.freeCount)
      this.freeOffset[next] = start
      this.freeSize[next] = end - start
      this.freeCount++
    }
    this.freeBytes += end - start
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
  private graphName = ''
  private graphFrame: Frame = 0
  private lastFrame: Frame = 0
  private executionCount = 0

  // The open graph's requests, one column each; `count` of them.
  private count = 0
  private reqId = new Float64Array(64)
  private reqSize = new Float64Array(64)
  private reqAlign = new Float64Array(64)
  private reqFirst = new Int32Array(64)
  private reqLast = new Int32Array(64)
  /** Heap kind bit of the request. */
  private reqKind = new Uint8Array(64)
  private reqMsaa = new Uint8Array(64)
  private reqDesc = new Int32Array(64)
  private reqName: (string | undefined)[] = []
  /** Where each request landed: index into `acquired`, offset, padding. */
  private resHeap = new Int32Array(64)
  private resOffset = new Float64Array(64)
  private resPad = new Float64Array(64)
  private resHit = new Uint8Array(64)
  private acquireOrder = new Int32Array(64)
  private discardOrder = new Int32Array(64)
  /** Scratch for the overlap sweep: each acquired heap's start in the heaps laid end to end, and sort keys. */
  private heapBase: number[] = []
  private sortKeys = new Float64Array(64)
  /** Scratch for the counting sort by pass. */
  private passCounts = new Int32Array(64)
  /** Scratch for the aliasing overlaps of one layout. */
  private pairKeys: Float64Array = new Float64Array(64)

  private descIds = new Map<string, number>()
  private stamp = 0

  private layout: TransientLayout | null = null
  private heapsCreated = 0
  private heapsDestroyed = 0
  private liveHeapBytes: Bytes = 0
  private peakHeapBytes: Bytes = 0
  private placements = 0
  private cacheHits = 0
  private cacheMisses = 0
  private cacheEvictions = 0

  private readonly byFirst = (a: number, b: number): number => this.reqFirst[a] - this.reqFirst[b] || a - b
  private readonly byLast = (a: number, b: number): number => this.reqLast[a] - this.reqLast[b] || a - b

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
    if (this.open && this.count > 0) {
      this.sink.warning?.(
        'transientGraph',
        `graph "${this.graphName}" has no endgraph; its ${this.count} transient resources are dropped`,
        frame,
      )
    }
    this.open = true
    this.graphName = name
    this.graphFrame = frame
    this.lastFrame = frame
    this.count = 0
    this.reqName.length = 0
  }

  add(req: TransientRequest): void {
    if (!this.open) {
      this.sink.warning?.('transientGraph', `transient ${req.id} outside a graph; placed in an unnamed graph`, this.lastFrame)
      this.beginGraph('', this.lastFrame)
    }
    if (this.count === this.reqId.length) this.growRequests(this.count * 2)
    const i = this.count++
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
    let desc = this.descIds.get(req.descKey)
    if (desc === undefined) {
      desc = this.descIds.size
      this.descIds.set(req.descKey, desc)
    }
    this.reqId[i] = req.id
    this.reqSize[i] = size
    this.reqAlign[i] = alignment
    // Pass numbers are validated at endGraph, once the pass count is known.
    this.reqFirst[i] = clampInt(req.first)
    this.reqLast[i] = clampInt(req.last)
    this.reqKind[i] = req.kind === 'buffer' ? BUFFERS : req.rtds ? RENDER_TARGETS : TEXTURES
    this.reqMsaa[i] = req.msaa ? 1 : 0
    this.reqDesc[i] = desc
    this.reqName[i] = req.name
  }

  /**
   * Places the graph's resources and returns one placement per request, in the order they were added. The sink
   * hears them in the order they were acquired (pass order), each after the creation of the heap it needed;
   * heaps destroyed by this execution's garbage collection come last.
   */
  endGraph(passes: number, frame: number): TransientPlacementInfo[] {
    this.lastFrame = frame
    if (!this.open) {
      this.sink.warning?.('transientGraph', 'endgraph without a graph', frame)
      return []
    }
    this.open = false
    const n = this.count
    const execution = this.executionCount
    const passCount = this.validatePasses(passes, n, frame)

    const acquireOrder = this.orderBy(this.reqFirst, n, passCount, this.acquireOrder, this.byFirst)
    const discardOrder = this.orderBy(this.reqLast, n, passCount, this.discardOrder, this.byLast)

    const out = new Array<TransientPlacementInfo>(n)
    const acquired = this.acquired
    let hits = 0
    let discarded = 0
    for (let k = 0; k < n; k++) {
      const i = acquireOrder[k]
      const pass = this.reqFirst[i]
      // Resources whose last pass is before this one were acquired earlier (first <= last < pass): discard them.
      while (discarded < n) {
        const j = discardOrder[discarded]
        if (this.reqLast[j] >= pass) break
        acquired[this.resHeap[j]].free(this.resOffset[j] - this.resPad[j], this.resOffset[j] + this.reqSize[j])
        discarded++
      }
      const info = this.place(i, execution, frame)
      if (info.cacheHit) hits++
      out[i] = info
    }

    this.layout = this.buildLayout(execution, passCount, frame, hits)

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
    this.cached = acquired.length > 0 ? acquired.concat(this.cached) : this.cached
    acquired.length = 0
    this.collectGarbage(execution, frame)

    this.executionCount++
    this.count = 0
    this.reqName.length = 0
    return out
  }

  /** The layout of the last graph execution, null before the first. */
  lastLayout(): TransientLayout | null {
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
    c.graphName = this.graphName
    c.graphFrame = this.graphFrame
    c.lastFrame = this.lastFrame
    c.executionCount = this.executionCount
    c.count = this.count
    c.reqId = this.reqId.slice()
    c.reqSize = this.reqSize.slice()
    c.reqAlign = this.reqAlign.slice()
    c.reqFirst = this.reqFirst.slice()
    c.reqLast = this.reqLast.slice()
    c.reqKind = this.reqKind.slice()
    c.reqMsaa = this.reqMsaa.slice()
    c.reqDesc = this.reqDesc.slice()
    c.reqName = this.reqName.slice()
    c.growRequests(this.reqId.length)
    c.descIds = new Map(this.descIds)
    c.stamp = this.stamp
    // Layouts are never mutated once built: sharing the last one is safe.
    c.layout = this.layout
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
    let passCount = Math.floor(passes)
    if (!(passCount >= 1)) {
      if (n > 0) {
        this.sink.warning?.(
          'transientPassRange',
          `graph "${this.graphName}" ends with ${passes} passes; its resources are clamped to pass 0`,
          frame,
        )
      }
      passCount = 1
    } else if (passCount > MAX_PASSES) {
      passCount = MAX_PASSES
    }
    const lastPass = passCount - 1
    for (let i = 0; i < n; i++) {
      const first = this.reqFirst[i]
      const last = this.reqLast[i]
      if (first >= 0 && first <= last && last <= lastPass) continue
      const f = Math.min(Math.max(first, 0), lastPass)
      // A last pass before the first is raised to it: the resource lives at least during its first pass.
      const l = Math.min(Math.max(last, f), lastPass)
      this.reqFirst[i] = f
      this.reqLast[i] = l
      const name = this.reqName[i] !== undefined ? ` (${this.reqName[i]})` : ''
      this.sink.warning?.(
        'transientPassRange',
        `transient ${this.reqId[i]}${name} in graph "${this.graphName}" lives in passes ${first}..${last}, ` +
          `outside 0..${lastPass} or reversed; clamped to ${f}..${l}`,
        frame,
      )
    }
    return passCount
  }

  private place(i: number, execution: number, frame: Frame): TransientPlacementInfo {
    const kind = this.reqKind[i]
    const size = this.reqSize[i]
    const alignment = this.reqAlign[i]
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
    const cacheHit = cache.acquire(this.reqDesc[i], offset, ++this.stamp)
    if (cacheHit) this.cacheHits++
    else this.cacheMisses++
    this.placements++
    this.resHeap[i] = heapIndex
    this.resOffset[i] = offset
    this.resPad[i] = heap.lastPad
    this.resHit[i] = cacheHit ? 1 : 0
    const info: TransientPlacementInfo = {
      id: this.reqId[i],
      execution,
      heap: heap.id,
      offset,
      size,
      first: this.reqFirst[i],
      last: this.reqLast[i],
      cacheHit,
    }
    this.sink.transientPlaced?.(info, frame)
    return info
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

  private buildLayout(execution: number, passes: number, frame: Frame, hits: number): TransientLayout {
    const n = this.count
    const acquired = this.acquired
    const heapCount = acquired.length
    const heaps: TransientLayoutHeaps = {
      length: heapCount,
      id: new Float64Array(heapCount),
      size: new Float64Array(heapCount),
      highWater: new Float64Array(heapCount),
      kind: new Array<TransientHeapKind>(heapCount),
      created: new Uint8Array(heapCount),
    }
    let highWaterBytes = 0
    let heapBytes = 0
    for (let h = 0; h < heapCount; h++) {
      const heap = acquired[h]
      heaps.id[h] = heap.id
      heaps.size[h] = heap.size
      heaps.highWater[h] = heap.highWater
      heaps.kind[h] = kindName(heap.kindMask)
      heaps.created[h] = heap.created ? 1 : 0
      highWaterBytes += heap.highWater
      heapBytes += heap.size
    }
    const resources: TransientLayoutResources = {
      length: n,
      id: this.reqId.slice(0, n),
      heap: new Float64Array(n),
      offset: this.resOffset.slice(0, n),
      size: this.reqSize.slice(0, n),
      padding: this.resPad.slice(0, n),
      first: this.reqFirst.slice(0, n),
      last: this.reqLast.slice(0, n),
      texture: new Uint8Array(n),
      msaa: this.reqMsaa.slice(0, n),
      cacheHit: this.resHit.slice(0, n),
      name: this.reqName.slice(0, n),
    }
    let requestedBytes = 0
    let occupiedBytes = 0
    for (let i = 0; i < n; i++) {
      resources.heap[i] = acquired[this.resHeap[i]].id
      resources.texture[i] = this.reqKind[i] === BUFFERS ? 0 : 1
      requestedBytes += this.reqSize[i]
      occupiedBytes += this.reqSize[i] + this.resPad[i]
    }
    const overlaps = this.findOverlaps(n)
    return {
      execution,
      name: this.graphName,
      frame,
      passes,
      heaps,
      resources,
      overlaps,
      overlapCount: overlaps.length / 2,
      requestedBytes,
      occupiedBytes,
      highWaterBytes,
      heapBytes,
      saving: occupiedBytes - highWaterBytes,
      cacheHits: hits,
      cacheMisses: n - hits,
    }
  }

  /** Pairs of resources in one heap whose byte ranges intersect: a sweep over the resources sorted by offset. */
  private findOverlaps(n: number): Int32Array {
    const order = this.acquireOrder.subarray(0, n)
    const heapOf = this.resHeap
    const offsetOf = this.resOffset
    // Order by (heap, offset, index). Laid end to end the heaps form one address space; its addresses times n plus
    // the index are distinct numbers that sort natively, while they stay below 2^53.
    const acquired = this.acquired
    let span = 0
    for (let h = 0; h < acquired.length; h++) {
      this.heapBase[h] = span
      span += acquired[h].size
    }
    if (span * n < 2 ** 53) {
      if (this.sortKeys.length < n) this.sortKeys = new Float64Array(this.reqId.length)
      const keys = this.sortKeys.subarray(0, n)
      for (let i = 0; i < n; i++) keys[i] = (this.heapBase[heapOf[i]] + offsetOf[i]) * n + i
      keys.sort()
      for (let k = 0; k < n; k++) order[k] = keys[k] % n
    } else {
      for (let i = 0; i < n; i++) order[i] = i
      order.sort((a, b) => heapOf[a] - heapOf[b] || offsetOf[a] - offsetOf[b] || a - b)
    }
    let keys: Float64Array = this.pairKeys
    let pairs = 0
    for (let x = 0; x < n; x++) {
      const a = order[x]
      const end = offsetOf[a] + this.reqSize[a]
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

  private growRequests(capacity: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(capacity)
      b.set(a.subarray(0, Math.min(a.length, capacity)))
      return b
    }
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(capacity)
      b.set(a.subarray(0, Math.min(a.length, capacity)))
      return b
    }
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(capacity)
      b.set(a.subarray(0, Math.min(a.length, capacity)))
      return b
    }
    this.reqId = f64(this.reqId)
    this.reqSize = f64(this.reqSize)
    this.reqAlign = f64(this.reqAlign)
    this.reqFirst = i32(this.reqFirst)
    this.reqLast = i32(this.reqLast)
    this.reqKind = u8(this.reqKind)
    this.reqMsaa = u8(this.reqMsaa)
    this.reqDesc = i32(this.reqDesc)
    this.resHeap = i32(this.resHeap)
    this.resOffset = f64(this.resOffset)
    this.resPad = f64(this.resPad)
    this.resHit = u8(this.resHit)
    this.acquireOrder = i32(this.acquireOrder)
    this.discardOrder = i32(this.discardOrder)
  }
}

/** Pass numbers as 32-bit integers (NaN as -1, so validation reports it); the clamp happens at endGraph. */
function clampInt(value: number): number {
  if (Number.isNaN(value)) return -1
  if (value > MAX_PASSES) return MAX_PASSES
  if (value < -MAX_PASSES) return -MAX_PASSES
  return Math.floor(value)
}
