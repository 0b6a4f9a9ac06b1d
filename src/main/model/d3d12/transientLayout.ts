/**
 * What one graph execution of the transient allocator leaves (docs/model.md §6): its requests and where they landed
 * as columns, its figures (the summary a replay folds into its series) and its layout (the resources as rectangles
 * of offset × passes, with their aliasing overlaps), the last two worked out only when asked for.
 */
import type { Bytes, Frame } from '../../../shared/units'
import { BUFFERS, kindName } from './transientHeap'
import type { TransientHeapKind } from './transientHeap'

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


/** The figures of a summary that depend on the placement alone: the requests' sizes, paddings, heaps and offsets. */
export interface PlacementFigures {
  overlapCount: number
  requestedBytes: Bytes
  occupiedBytes: Bytes
}

/**
 * One graph execution's requests, where each landed, and the heaps it used, one column each. The allocator keeps
 * two: the open graph's, and the last execution's, from which its layout is built only when someone asks.
 */
export class ExecutionColumns {
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
  /** Names past `count` are an earlier execution's, never read: the array is not cut, so it keeps its room. */
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
    c.name = this.name.slice(0, this.count)
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

export function newSummary(): TransientSummary {
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

/** Works out an execution's summary and layout from its columns, with scratch arrays kept between executions. */
export class TransientLayoutBuilder {
  // Scratch: address sorts for the overlaps, overlap pairs.
  private addressOrder = new Int32Array(64)
  private sortKeys = new Float64Array(64)
  private starts = new Float64Array(64)
  private heapBase = new Float64Array(8)
  private pairKeys: Float64Array = new Float64Array(64)

  /**
   * The execution's figures into the summary; `known`, when given, holds those that depend on the placement alone,
   * worked out for an earlier execution placed the same way.
   */
  summarize(cols: ExecutionColumns, s: TransientSummary, known: PlacementFigures | null = null): void {
    const n = cols.count
    let highWaterBytes = 0
    let heapBytes = 0
    for (let h = 0; h < cols.heapCount; h++) {
      highWaterBytes += cols.heapHighWater[h]
      heapBytes += cols.heapSize[h]
    }
    let requestedBytes = 0
    let occupiedBytes = 0
    if (known !== null) {
      requestedBytes = known.requestedBytes
      occupiedBytes = known.occupiedBytes
    } else {
      for (let i = 0; i < n; i++) {
        requestedBytes += cols.size[i]
        occupiedBytes += cols.size[i] + cols.pad[i]
      }
    }
    s.execution = cols.execution
    s.frame = cols.frame
    s.passes = cols.passes
    s.resources = n
    s.heaps = cols.heapCount
    s.heapId = cols.heapId
    s.heapSize = cols.heapSize
    s.overlapCount = known !== null ? known.overlapCount : this.countOverlaps(cols)
    s.requestedBytes = requestedBytes
    s.occupiedBytes = occupiedBytes
    s.highWaterBytes = highWaterBytes
    s.heapBytes = heapBytes
    s.saving = occupiedBytes - highWaterBytes
    s.cacheHits = cols.hits
    s.cacheMisses = n - cols.hits
  }

  /** The execution's layout; `s` is its summary (summarize() done). */
  build(cols: ExecutionColumns, s: TransientSummary): TransientLayout {
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
    if (this.addressOrder.length < n) {
      this.addressOrder = new Int32Array(cols.id.length)
      this.sortKeys = new Float64Array(cols.id.length)
    }
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
