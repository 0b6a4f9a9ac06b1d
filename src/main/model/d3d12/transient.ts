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
import { KiB, roundUp, roundUpPow2 } from '../../../shared/units'
import type { Bytes, Frame } from '../../../shared/units'
import type { ModelSink, TransientPlacementInfo } from '../events'
import { PLACED_RESOURCE_CACHE_SIZE } from './placedResourceCache'
import type { ResidencyManager } from './residency'
import { ALL_KINDS, BUFFERS, RENDER_TARGETS, TEXTURES, TRANSIENT_HEAP_ALIGNMENT, TransientHeap, kindName } from './transientHeap'
import type { TransientHeapKind } from './transientHeap'
import { ExecutionColumns, TransientLayoutBuilder, newSummary } from './transientLayout'
import type { PlacementFigures, TransientLayout, TransientSummary } from './transientLayout'

export { PLACED_RESOURCE_CACHE_SIZE } from './placedResourceCache'
export { TRANSIENT_HEAP_ALIGNMENT } from './transientHeap'
export type { TransientHeapKind } from './transientHeap'
export type { TransientLayout, TransientLayoutHeaps, TransientLayoutResources, TransientSummary } from './transientLayout'

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
  /**
   * Reuse a recent placement for a graph that repeats it from the same heap cache (see PlacementMemo). Default
   * true; false places every graph from scratch (the reference the reuse is tested against).
   */
  reusePlacements?: boolean
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

const FALLBACK_ALIGNMENT = 64 * KiB
const MAX_PASSES = 0x7fffffff
/** Placements kept for reuse (PlacementMemo): enough for the few graphs of a frame. */
const MEMOS = 4
/** What endGraph returns when asked for no placements: shared, so frozen. */
const NO_PLACEMENTS = Object.freeze([]) as unknown as TransientPlacementInfo[]

export class TransientAllocator {
  private readonly minimumHeapSize: Bytes
  private readonly gcLatency: number
  private readonly tier: 1 | 2
  private readonly reusePlacements: boolean
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
  private readonly layouts = new TransientLayoutBuilder()
  /**
   * The last MEMOS placements worked out in full, with what they read, the most recently placed or reused first
   * (see PlacementMemo); a frame of several graphs finds each one's.
   */
  private memos: PlacementMemo[] = []
  /** The memo holding `done`'s placement, if any (the summary's figures of the placement are then the memo's). */
  private doneMemo: PlacementMemo | null = null

  // Scratch: pass orders, address sorts for the overlaps, the counting sort's buckets, overlap pairs.
  private acquireOrder = new Int32Array(64)
  private discardOrder = new Int32Array(64)
  private passCounts = new Int32Array(64)

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
    // Frames: doubles from the start (model/doubles.ts; private fields, so set here).
    this.graphFrame = this.lastFrame = 0.5
    this.graphFrame = this.lastFrame = 0
    this.minimumHeapSize = options.minimumHeapSize
    this.gcLatency = options.gcLatency
    this.tier = options.resourceHeapTier
    this.reusePlacements = options.reusePlacements ?? true
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
  }

  add(req: TransientRequest): void {
    const kind = req.kind === 'buffer' ? BUFFERS : req.rtds ? RENDER_TARGETS : TEXTURES
    this.addRequest(req.id, kind, req.msaa, req.size, req.alignment, req.first, req.last, req.desc, req.name)
  }

  /**
   * A request as add() takes it, field by field, its kind the heap kind it needs (BUFFERS, TEXTURES or
   * RENDER_TARGETS): the model's transients come this way, with no request object filled and read again.
   */
  addRequest(
    id: number,
    kind: number,
    msaa: boolean,
    size: Bytes,
    alignment: Bytes,
    first: number,
    last: number,
    desc: number,
    name: string | undefined,
  ): void {
    if (!this.open) {
      this.sink.warning?.('transientGraph', `transient ${id} outside a graph; placed in an unnamed graph`, this.lastFrame)
      this.beginGraph('', this.lastFrame)
    }
    const cols = this.cur
    if (cols.count === cols.id.length) cols.grow(cols.count * 2)
    const i = cols.count++
    if (!(size > 0 && Number.isFinite(size))) {
      this.sink.warning?.('transientSize', `transient ${id} has size ${size}; placed as 64 KiB`, this.graphFrame)
      size = FALLBACK_ALIGNMENT
    }
    if (!(alignment > 0 && Number.isFinite(alignment))) {
      this.sink.warning?.('transientSize', `transient ${id} has alignment ${alignment}; aligned to 64 KiB`, this.graphFrame)
      alignment = FALLBACK_ALIGNMENT
    }
    cols.id[i] = id
    cols.size[i] = size
    cols.align[i] = alignment
    // Pass numbers are validated at endGraph, once the pass count is known.
    cols.first[i] = clampInt(first)
    cols.last[i] = clampInt(last)
    cols.kind[i] = kind
    cols.msaa[i] = msaa ? 1 : 0
    cols.desc[i] = desc
    cols.name[i] = name
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
    cols.execution = execution
    cols.frame = frame
    cols.passes = passCount
    const found = this.matchingMemo(cols)
    if (found !== null) {
      const out = this.replayPlacement(found, execution, frame, placements)
      this.finish(cols, found)
      return out
    }
    if (this.acquireOrder.length < n) this.growScratch(cols.id.length)
    const start = this.reusePlacements ? this.cached.slice() : null

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

    cols.hits = hits
    this.recordHeaps(cols, acquired)
    // Kept for a later graph unless this one created a heap: a graph placed from the same cache then creates
    // heaps of other ids, so its placement cannot be this one's.
    let created = false
    for (const heap of acquired) if (heap.created) created = true
    const memo = start === null || created ? null : this.newMemo().record(cols, start, acquireOrder, acquired)

    // The graph is over: every resource is discarded and every heap returns to the cache, the acquired ones in
    // front in acquisition order.
    for (const heap of acquired) {
      heap.reset()
      this.heapDone(heap, execution)
    }
    if (acquired.length > 0) {
      const cached = this.cached
      const kept = cached.length
      cached.length = kept + acquired.length
      cached.copyWithin(acquired.length, 0, kept)
      for (let h = 0; h < acquired.length; h++) cached[h] = acquired[h]
    }
    acquired.length = 0
    if (memo !== null) memo.recordAfter(this.cached)
    this.collectGarbage(execution, frame)
    this.finish(cols, memo)
    return out
  }

  /** The memo whose placement the open graph repeats, moved to the front of the list; null when none. */
  private matchingMemo(cols: ExecutionColumns): PlacementMemo | null {
    const memos = this.memos
    for (let m = 0; m < memos.length; m++) {
      const memo = memos[m]
      if (!memo.matches(cols, this.cached)) continue
      for (let k = m; k > 0; k--) memos[k] = memos[k - 1]
      memos[0] = memo
      return memo
    }
    return null
  }

  /** A memo to record into, at the front of the list: a new one, or the least recently used one's object. */
  private newMemo(): PlacementMemo {
    const memos = this.memos
    const memo = memos.length < MEMOS ? new PlacementMemo() : memos.pop()!
    memos.unshift(memo)
    return memo
  }

  /**
   * The memo's placement for the open graph, which matches it: each request where the memo placed it, heard by
   * the sink and looked up in its heap's placed-resource cache in the same acquisition order as a full placement,
   * the heaps back in the cache in the order the memo's graph left them, then garbage collection as after it. No
   * heap is created (the memo holds none that was) and no free list is touched (every heap is whole between
   * graphs, and the memo's placement is the one first fit would find again).
   */
  private replayPlacement(memo: PlacementMemo, execution: number, frame: Frame, placements: boolean): TransientPlacementInfo[] {
    const cols = this.cur
    const n = cols.count
    const heaps = memo.heaps
    const out = placements ? new Array<TransientPlacementInfo>(n) : NO_PLACEMENTS
    const emit = placements || this.sink.transientPlaced !== undefined
    let hits = 0
    // The columns read and written per request, held here: the cache lookup between them changes none of them.
    const { order, heap: heapOf, offset: offsetOf, pad: padOf } = memo
    const { heap: colsHeap, offset: colsOffset, pad: colsPad, kind, desc, hit } = cols
    for (let k = 0; k < n; k++) {
      const i = order[k]
      const heap = heaps[(colsHeap[i] = heapOf[i])]
      const offset = (colsOffset[i] = offsetOf[i])
      colsPad[i] = padOf[i]
      const cacheHit = (kind[i] === BUFFERS ? heap.buffers : heap.textures).acquire(desc[i], offset)
      if (cacheHit) hits++
      hit[i] = cacheHit ? 1 : 0
      if (emit) {
        const info: TransientPlacementInfo = {
          id: cols.id[i],
          execution,
          heap: heap.id,
          offset,
          size: cols.size[i],
          first: cols.first[i],
          last: cols.last[i],
          cacheHit,
        }
        this.sink.transientPlaced?.(info, frame)
        if (placements) out[i] = info
      }
    }
    this.placements += n
    this.cacheHits += hits
    this.cacheMisses += n - hits
    cols.hits = hits
    for (let h = 0; h < heaps.length; h++) heaps[h].highWater = memo.highWater[h]
    this.recordHeaps(cols, heaps)
    for (const heap of heaps) this.heapDone(heap, execution)
    // The cache is the memo's start, so it leaves the memo's `after`: the same heaps, maybe in another order.
    if (!memo.sameOrder) for (let h = 0; h < memo.after.length; h++) this.cached[h] = memo.after[h]
    this.collectGarbage(execution, frame)
    return out
  }

  /** A heap the graph used, back to the cache: last used now, its placed-resource caches trimmed, marked used. */
  private heapDone(heap: TransientHeap, execution: number): void {
    heap.lastUsed = execution
    heap.created = false
    this.cacheEvictions += heap.textures.forfeit(PLACED_RESOURCE_CACHE_SIZE)
    this.cacheEvictions += heap.buffers.forfeit(PLACED_RESOURCE_CACHE_SIZE)
    this.residency.markUsed(heap.id)
  }

  /** The execution is over: its columns become the last execution's, and the other set takes the next graph. */
  private finish(cols: ExecutionColumns, memo: PlacementMemo | null): void {
    this.executionCount++
    this.cur = this.done
    this.done = cols
    this.cur.count = 0
    this.executed = true
    this.summarized = false
    this.doneMemo = memo
    this.layout = null
  }

  /** The figures of the last graph execution (one object, reused), null before the first. */
  lastSummary(): TransientSummary | null {
    if (!this.executed) return null
    if (!this.summarized) {
      const summary = this.summary ?? (this.summary = newSummary())
      // Some figures depend on the placement alone: a placement the memo holds works them out once.
      const memo = this.doneMemo
      this.layouts.summarize(this.done, summary, memo !== null && memo.summarized ? memo : null)
      if (memo !== null && !memo.summarized) {
        memo.overlapCount = summary.overlapCount
        memo.requestedBytes = summary.requestedBytes
        memo.occupiedBytes = summary.occupiedBytes
        memo.summarized = true
      }
      this.summarized = true
    }
    return this.summary
  }

  /** The layout of the last graph execution, null before the first; built on first call, then kept. */
  lastLayout(): TransientLayout | null {
    if (this.layout === null && this.executed) this.layout = this.layouts.build(this.done, this.lastSummary()!)
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
      {
        minimumHeapSize: this.minimumHeapSize,
        gcLatency: this.gcLatency,
        resourceHeapTier: this.tier,
        reusePlacements: this.reusePlacements,
      },
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
    if (kept !== this.cached.length) this.cached.length = kept
  }

  /** The heaps the execution used, from the acquired list into its columns, before they go back to the cache. */
  private recordHeaps(cols: ExecutionColumns, acquired: TransientHeap[]): void {
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
}

/**
 * A placement worked out in full and everything it read, so that a graph repeating it is not placed again.
 * A placement reads, besides the constant options: each request's heap kind, size, alignment and (validated) pass
 * range, in the order added; and the heap cache, whose heaps are all whole between graphs (every resource is
 * discarded at the end of a graph), so the list of heaps in order says all of it (a heap's size and kind never
 * change). Equal inputs give the same acquisition order, the same heaps acquired in the same order, and the same
 * offsets and paddings. Not read, so not compared: ids, names, descs (the placed-resource cache is still asked for
 * each request, as its answer and its recency order depend on them) and the pass count (the order by pass is the
 * same for any count that holds the ranges). The heaps are compared by identity and a destroyed heap never comes
 * back, so a memo holds however many graphs come between its own and the next one that repeats it.
 */
class PlacementMemo implements PlacementFigures {
  count = 0
  kind = new Uint8Array(64)
  size = new Float64Array(64)
  align = new Float64Array(64)
  first = new Int32Array(64)
  last = new Int32Array(64)
  /** The heap cache the placement started from, and the one it left before garbage collection. */
  start: TransientHeap[] = []
  after: TransientHeap[] = []
  /** `after` lists the heaps of `start` in the same order. */
  sameOrder = false
  /** The heaps acquired, in order, and each one's high-water mark. */
  heaps: TransientHeap[] = []
  highWater = new Float64Array(8)
  /** The requests in acquisition order; each one's heap (index into `heaps`), offset and padding. */
  order = new Int32Array(64)
  heap = new Int32Array(64)
  offset = new Float64Array(64)
  pad = new Float64Array(64)
  /** The placement's figures (PlacementFigures), once a summary of it worked them out (`summarized`). */
  summarized = false
  overlapCount = 0
  requestedBytes: Bytes = 0
  occupiedBytes: Bytes = 0

  record(cols: ExecutionColumns, start: TransientHeap[], order: Int32Array, heaps: TransientHeap[]): this {
    const n = cols.count
    if (this.kind.length < n) {
      const capacity = cols.id.length
      this.kind = new Uint8Array(capacity)
      this.size = new Float64Array(capacity)
      this.align = new Float64Array(capacity)
      this.first = new Int32Array(capacity)
      this.last = new Int32Array(capacity)
      this.order = new Int32Array(capacity)
      this.heap = new Int32Array(capacity)
      this.offset = new Float64Array(capacity)
      this.pad = new Float64Array(capacity)
    }
    this.count = n
    this.kind.set(cols.kind.subarray(0, n))
    this.size.set(cols.size.subarray(0, n))
    this.align.set(cols.align.subarray(0, n))
    this.first.set(cols.first.subarray(0, n))
    this.last.set(cols.last.subarray(0, n))
    this.order.set(order.subarray(0, n))
    this.heap.set(cols.heap.subarray(0, n))
    this.offset.set(cols.offset.subarray(0, n))
    this.pad.set(cols.pad.subarray(0, n))
    this.start = start
    this.heaps = heaps.slice()
    if (this.highWater.length < heaps.length) this.highWater = new Float64Array(heaps.length * 2)
    for (let h = 0; h < heaps.length; h++) this.highWater[h] = heaps[h].highWater
    this.summarized = false
    return this
  }

  recordAfter(cached: TransientHeap[]): void {
    this.after = cached.slice()
    this.sameOrder = sameHeaps(this.after, this.start)
  }

  /** Whether the open graph, starting from this heap cache, reads what the memo's placement read. */
  matches(cols: ExecutionColumns, cached: TransientHeap[]): boolean {
    const n = cols.count
    if (n !== this.count || !sameHeaps(cached, this.start)) return false
    for (let i = 0; i < n; i++) {
      if (
        cols.size[i] !== this.size[i] ||
        cols.first[i] !== this.first[i] ||
        cols.last[i] !== this.last[i] ||
        cols.kind[i] !== this.kind[i] ||
        cols.align[i] !== this.align[i]
      ) {
        return false
      }
    }
    return true
  }
}

function sameHeaps(a: TransientHeap[], b: TransientHeap[]): boolean {
  if (a.length !== b.length) return false
  for (let h = 0; h < a.length; h++) if (a[h] !== b[h]) return false
  return true
}

/** Pass numbers as 32-bit integers (NaN as -1, so validation reports it); the clamp happens at endGraph. */
function clampInt(value: number): number {
  if (Number.isNaN(value)) return -1
  if (value > MAX_PASSES) return MAX_PASSES
  if (value < -MAX_PASSES) return -MAX_PASSES
  return Math.floor(value)
}
