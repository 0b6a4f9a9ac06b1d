/**
 * utraceToObserved: the Video memory of a trace as a run the app shows as observed data. An allocation that a
 * `HeapMarkAlloc` makes a heap (D3D12 heaps) becomes a `heap` record; an allocation inside a live heap becomes a
 * `placed` record at its address minus the heap's; any other allocation (a committed resource) becomes a heap of
 * its own with one `placed` record filling it. Frees become `release` and `free`. Tags come from the thread's memory
 * scope, call stacks from the trace's own callstack and module events. Time is cut into frames at the trace's
 * frame events, or into fixed buckets, as for RMV traces.
 */
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  OBSERVED_MINOR,
  type AnyCaptureRecord,
  type CaptureHeader,
  type HeapKind,
  type HeapRecord,
  type PlacedRecord,
} from '../../../../shared/capture'
import type { Bytes, Frame, Milliseconds } from '../../../../shared/units'
import { UtraceFormatError } from './errors'
import { ROOT_SYSTEM, ROOT_VIDEO, type UtraceTimedEvent, type UtraceTrace } from './trace'

export interface UtraceObservedOptions {
  /** Cut frames at the trace's frame events when it has them (default true); false always uses buckets. */
  frameMarkers?: boolean
  /** Length of one frame when frames are time buckets (default 16.6 ms). */
  bucketMs?: Milliseconds
}

export const DEFAULT_BUCKET_MS = 16.6
/** 2^21 frames: 9.7 hours of 16.6 ms frames. */
const MAX_FRAMES = 2 ** 21
const FRAME_GAME = 0
const FRAME_RENDERING = 1
/** The `memory` of every heap: the trace's Video memory root (its System memory is left out). */
const VIDEO_MEMORY = 'video'

/** Frames of a call stack kept on a resource: the innermost ones say where it was made. */
const MAX_STACK_FRAMES = 32

export interface UtraceObserved {
  header: CaptureHeader
  records: AnyCaptureRecord[]
  framesFrom: 'markers' | 'buckets' | 'none'
  /** Which frame events cut frames: 'game' or 'rendering'. */
  frameType?: 'game' | 'rendering'
  bucketMs?: Milliseconds
  frameCount: number
  /** Heaps (D3D12 heaps marked in the trace), placed and committed resources, as created. */
  counts: { heaps: number; placed: number; committed: number }
  /** Bookmarks with the frame they fall in. */
  bookmarks: { frame: Frame; text: string }[]
  /** Things the trace did that do not fit, counted by kind. */
  warnings: Record<string, number>
}

interface LiveHeap {
  id: number
  base: number
  size: Bytes
  /** Placed resources in it now, by address. */
  placed: Map<number, number>
  /** A HeapUnmarkAlloc said it is a plain allocation again: the next free at its address is its own. */
  unmarked?: boolean
}

interface LiveResource {
  /** A committed resource's own heap. */
  heap?: LiveHeap
  /** The placed record of this allocation, while it has one. */
  placed?: number
  /** The heap it is placed in, when placed. */
  within?: LiveHeap
}

/** Heap kind by a D3D12 heap's name: UE names its upload and readback pools so. */
function kindOfName(name: string): HeapKind {
  if (/upload/i.test(name)) return 'upload'
  if (/readback/i.test(name)) return 'readback'
  return 'default'
}

export function hex(value: number): string {
  return `0x${value.toString(16)}`
}

export function utraceToObserved(trace: UtraceTrace, options: UtraceObservedOptions = {}): UtraceObserved {
  const bucketMs = options.bucketMs ?? DEFAULT_BUCKET_MS
  if (!(bucketMs > 0)) throw new RangeError(`bucketMs must be positive, got ${bucketMs}`)
  const events = trace.events
  const frequency = trace.cycleFrequency
  const toMs = (cycle: number): Milliseconds => (frequency > 0 ? ((cycle - trace.startCycle) * 1000) / frequency : 0)
  const warnings: Record<string, number> = {}
  const warn = (kind: string): void => {
    warnings[kind] = (warnings[kind] ?? 0) + 1
  }

  // Frames: the game thread's frame starts, else the rendering thread's, else time buckets.
  let gameFrames = 0
  let renderFrames = 0
  let hasTime = false
  let lastTime = 0
  for (const e of events) {
    if (e.kind === 'frame' && e.begin) {
      if (e.frameType === FRAME_GAME) gameFrames++
      else if (e.frameType === FRAME_RENDERING) renderFrames++
    }
    if ((e.kind === 'frame' || e.kind === 'time' || e.kind === 'bookmark') && frequency > 0) {
      hasTime = true
      lastTime = Math.max(lastTime, toMs(e.cycle))
    }
  }
  const markerType = gameFrames > 0 ? FRAME_GAME : renderFrames > 0 ? FRAME_RENDERING : -1
  const byMarkers = options.frameMarkers !== false && markerType >= 0
  const framesFrom: UtraceObserved['framesFrom'] = byMarkers ? 'markers' : hasTime ? 'buckets' : 'none'
  const frameCount = byMarkers ? (markerType === FRAME_GAME ? gameFrames : renderFrames) + 1 : hasTime ? Math.floor(lastTime / bucketMs) + 1 : 1
  if (frameCount > MAX_FRAMES) {
    if (options.bucketMs !== undefined && Math.floor(lastTime / DEFAULT_BUCKET_MS) < MAX_FRAMES) {
      throw new RangeError(`${bucketMs} ms buckets would cut this ${lastTime.toFixed(1)} ms trace into ${frameCount} frames, more than ${MAX_FRAMES}: choose longer buckets`)
    }
    let latest = events[0]
    for (const e of events) if ('cycle' in e && 'cycle' in latest && e.cycle > latest.cycle) latest = e
    throw new UtraceFormatError(latest?.offset ?? 0, `a trace of at most ${MAX_FRAMES} frames of ${bucketMs} ms`, `${lastTime} ms`)
  }

  // Which allocations become heaps: those a HeapMarkAlloc of a Video-memory heap names while they live.
  const rootOf = (heap: number): number => {
    let id = heap
    for (let depth = 0; depth < 64 && id !== ROOT_VIDEO && id !== ROOT_SYSTEM; depth++) {
      const spec = trace.heapSpecs.get(id)
      if (!spec || spec.parent === id) break
      id = spec.parent
    }
    return id
  }
  const heapOfAlloc = new Map<UtraceTimedEvent, number>()
  {
    // a mark names the latest allocation at its address (a placed resource at offset 0 shares its heap's address)
    const latest = new Map<number, UtraceTimedEvent>()
    for (const e of events) {
      if (e.kind === 'alloc') latest.set(e.address, e)
      else if (e.kind === 'mark') {
        const alloc = latest.get(e.address)
        if (!alloc || heapOfAlloc.has(alloc)) warn('heapMarkOfUnknownAllocation')
        else if (trace.heapSpecs.has(e.heap) && rootOf(e.heap) !== ROOT_VIDEO) warn('heapMarkOutsideVideoMemory')
        else heapOfAlloc.set(alloc, e.heap)
      }
    }
  }

  const records: AnyCaptureRecord[] = [{ e: 'frame', n: 0, t: 0 }]
  const bookmarks: UtraceObserved['bookmarks'] = []
  const counts = { heaps: 0, placed: 0, committed: 0 }
  /** Live D3D12 heaps and live resources, by address: a resource at offset 0 has its heap's address. */
  const liveHeaps = new Map<number, LiveHeap>()
  const resources = new Map<number, LiveResource>()
  /** Live heaps sorted by base address, to find the one that holds an address. */
  const bases: number[] = []
  const heaps: LiveHeap[] = []
  let nextId = 1
  let frame = 0
  let time = 0

  const lowerBound = (address: number): number => {
    let lo = 0
    let hi = bases.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (bases[mid] < address) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const heapAt = (address: number): LiveHeap | undefined => {
    let at = lowerBound(address)
    if (bases[at] !== address) at--
    const heap = heaps[at]
    return heap && address < heap.base + heap.size ? heap : undefined
  }
  const addHeap = (heap: LiveHeap): void => {
    const at = lowerBound(heap.base)
    bases.splice(at, 0, heap.base)
    heaps.splice(at, 0, heap)
  }
  const removeHeap = (heap: LiveHeap): void => {
    const at = heaps.indexOf(heap)
    if (at >= 0) {
      bases.splice(at, 1)
      heaps.splice(at, 1)
    }
  }
  const beginFrame = (t: Milliseconds): void => {
    frame++
    records.push({ e: 'frame', n: frame, t })
  }
  const advance = (cycle: number): void => {
    if (frequency <= 0) return
    time = Math.max(time, toMs(cycle))
    if (byMarkers) return
    const target = Math.min(frameCount - 1, Math.floor(time / bucketMs))
    while (frame < target) beginFrame((frame + 1) * bucketMs)
  }
  const tagName = (tag: number): string | undefined => {
    if (tag === 0) return undefined
    return trace.tags.get(tag)?.name || trace.llmTags.get(tag) || `tag ${tag}`
  }
  const stackOf = (id: number): string[] | undefined => {
    if (id === 0) return undefined
    const frames = trace.callstacks.get(id)
    if (!frames) {
      warn('callstackNotInTrace')
      return undefined
    }
    return frames.slice(0, MAX_STACK_FRAMES).map((pc) => {
      const module = trace.modules.find((m) => pc >= m.base && pc < m.base + m.size)
      if (!module) return hex(pc)
      const file = module.name.replace(/^.*[\\/]/, '')
      return `${file}+${hex(pc - module.base)}`
    })
  }
  const placedRecord = (heap: LiveHeap, offset: Bytes, e: Extract<UtraceTimedEvent, { kind: 'alloc' }>): number => {
    const id = nextId++
    const record: PlacedRecord = { e: 'placed', id, heap: heap.id, offset, kind: 'buffer', size: e.size, name: hex(e.address) }
    const tag = tagName(e.tag)
    if (tag !== undefined) record.tag = tag
    const stack = stackOf(e.callstack)
    if (stack) (record as PlacedRecord & { callstack: string[] }).callstack = stack
    records.push(record)
    heap.placed.set(e.address, id)
    return id
  }
  const releaseResource = (r: LiveResource, address: number): void => {
    if (r.placed !== undefined) {
      records.push({ e: 'release', id: r.placed })
      r.within?.placed.delete(address)
      r.placed = r.within = undefined
    }
    if (r.heap) freeHeap(r.heap)
  }
  const freeHeap = (heap: LiveHeap): void => {
    if (heap.placed.size > 0) warn('heapFreedWithPlacedResources')
    for (const [at, id] of heap.placed) {
      records.push({ e: 'release', id })
      const inner = resources.get(at)
      if (inner?.placed === id) inner.placed = inner.within = undefined
    }
    heap.placed.clear()
    removeHeap(heap)
    records.push({ e: 'free', id: heap.id })
  }

  for (const e of events) {
    switch (e.kind) {
      case 'time':
        advance(e.cycle)
        break
      case 'bookmark':
        advance(e.cycle)
        bookmarks.push({ frame, text: trace.bookmarkSpecs.get(e.point) ?? hex(e.point) })
        break
      case 'frame':
        advance(e.cycle)
        if (byMarkers && e.begin && e.frameType === markerType) beginFrame(toMs(e.cycle))
        break
      case 'alloc': {
        const marked = heapOfAlloc.get(e)
        if (marked !== undefined) {
          const before = liveHeaps.get(e.address)
          if (before) {
            warn('allocationOverLiveAllocation')
            liveHeaps.delete(e.address)
            freeHeap(before)
          }
          const id = nextId++
          const name = trace.heapSpecs.get(marked)?.name || `heap ${marked}`
          const record: HeapRecord = { e: 'heap', id, size: e.size, type: kindOfName(name), name, memory: VIDEO_MEMORY }
          records.push(record)
          const heap: LiveHeap = { id, base: e.address, size: e.size, placed: new Map() }
          addHeap(heap)
          liveHeaps.set(e.address, heap)
          counts.heaps++
          break
        }
        const before = resources.get(e.address)
        if (before) {
          warn('allocationOverLiveAllocation')
          resources.delete(e.address)
          releaseResource(before, e.address)
        }
        const within = heapAt(e.address)
        if (within && e.address + e.size <= within.base + within.size) {
          resources.set(e.address, { placed: placedRecord(within, e.address - within.base, e), within })
          counts.placed++
          break
        }
        if (within) warn('resourcePastItsHeap')
        // a committed resource: a heap of its own, filled by one placed record
        const id = nextId++
        const tag = tagName(e.tag)
        records.push({ e: 'heap', id, size: e.size, type: 'default', name: `committed ${hex(e.address)}${tag ? ` (${tag})` : ''}`, memory: VIDEO_MEMORY })
        const heap: LiveHeap = { id, base: e.address, size: e.size, placed: new Map() }
        const placed = placedRecord(heap, 0, e)
        resources.set(e.address, { heap, placed, within: heap })
        counts.committed++
        break
      }
      case 'free': {
        const heap = liveHeaps.get(e.address)
        const resource = resources.get(e.address)
        if (heap && (heap.unmarked || !resource)) {
          liveHeaps.delete(e.address)
          freeHeap(heap)
        } else if (resource) {
          resources.delete(e.address)
          releaseResource(resource, e.address)
        } else {
          warn('freeOfUnknownAllocation')
        }
        break
      }
      case 'unmark': {
        const heap = liveHeaps.get(e.address)
        if (heap) heap.unmarked = true
        break
      }
      case 'mark':
        break
    }
  }
  if (!byMarkers) while (frame < frameCount - 1) beginFrame((frame + 1) * bucketMs)

  const header: CaptureHeader = { format: CAPTURE_FORMAT, version: CAPTURE_VERSION, minor: OBSERVED_MINOR, source: 'utrace', observed: 'utrace' }
  for (const spec of trace.heapSpecs.values()) {
    if (/D3D12/.test(spec.name)) {
      header.api = 'd3d12'
      break
    }
  }
  return {
    header,
    records,
    framesFrom,
    frameType: byMarkers ? (markerType === FRAME_GAME ? 'game' : 'rendering') : undefined,
    bucketMs: byMarkers || !hasTime ? undefined : bucketMs,
    frameCount,
    counts,
    bookmarks,
    warnings,
  }
}
