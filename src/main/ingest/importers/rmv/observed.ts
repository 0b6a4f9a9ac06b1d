/**
 * rmvToObserved: an RMV trace as a run the app shows as observed data (header `observed: "rmv"`, capture format
 * 1.5). Virtual allocations become `heap` records with their `memory` (local, invisible, system),
 * bound resources `placed` records, destruction `release` and `free`, residency requests `resident` and `evict`
 * (capture format 1.2); time is cut into frames (present markers, or fixed buckets). Page-table totals, which
 * capture records cannot say, come alongside.
 */
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  OBSERVED_MINOR,
  type AnyCaptureRecord,
  type BufferUsage,
  type CaptureHeader,
  type HeapKind,
  type HeapRecord,
  type PlacedRecord,
  type TextureDim,
  type TextureFlag,
} from '../../../../shared/capture'
import type { Bytes, Frame, Milliseconds } from '../../../../shared/units'
import { RmvFormatError } from './errors'
import { rmtFormatToDxgi } from './formats'
import { PageTable } from './pages'
import { clockToMs } from './trace'
import {
  RMV_HEAP_PREFERENCES,
  RMV_HEAPS,
  TOKEN,
  type RmvHeap,
  type RmvHeapPreference,
  type RmvImageDescription,
  type RmvResourceCreate,
  type RmvResourceType,
  type RmvTrace,
} from './types'

export interface RmvObservedOptions {
  /** Use the trace's present markers as frames when it has them (default true); false always uses buckets. */
  frameMarkers?: boolean
  /** Length of one frame when frames are time buckets (default 16.6 ms). */
  bucketMs?: Milliseconds
}

export const DEFAULT_BUCKET_MS = 16.6
/**
 * The capture format's minor version of what rmvToObserved writes: 1.5, for the header's `observed` and the heaps'
 * `memory` (and 1.2's `resident` and `evict` records).
 */
export const RMV_CAPTURE_MINOR = OBSERVED_MINOR

export interface RmvResidencyEvent {
  frame: Frame
  kind: 'makeResident' | 'evict'
  /** The `heap` record (virtual allocation) the residency request names. */
  heapId: number
  bytes: Bytes
}

export interface RmvObservedHeap {
  id: number
  address: number
  size: Bytes
  type: HeapKind
  /** The memory the allocation is in, by its first preferred heap (memoryOf): its `memory` in the capture. */
  memory: RmvMemory
  preferredHeaps: RmvHeapPreference[]
  name?: string
  allocated: Frame
  freed?: Frame
}

export interface RmvObservedResource {
  driverId: number
  type: RmvResourceType
  /** The resource's usage category, as RMV groups them (Texture, RenderTarget, Buffer, ShaderPipeline, …). */
  tag: string
  name?: string
  /** HeapScope id of its last placement. */
  id?: number
  /** Bound size, or the described size when never bound. */
  size: Bytes
  heapId?: number
  offset?: Bytes
  heap?: HeapKind
  created: Frame
  bound?: Frame
  destroyed?: Frame
}

export interface RmvObserved {
  header: CaptureHeader
  /** Capture records in time order: frames, heaps, placements, residency (`resident`, `evict`), releases, frees. */
  records: AnyCaptureRecord[]
  framesFrom: 'markers' | 'buckets'
  bucketMs?: Milliseconds
  frameCount: number
  /** Start of each frame, ms since the trace's first token. */
  frameStart: Float64Array
  /** Virtual bytes of live heaps by HeapScope heap type at the end of each frame. */
  usage: Record<HeapKind, Float64Array>
  /** Bytes the page table maps into each physical heap at the end of each frame. */
  pageTable: Record<RmvHeap, Float64Array>
  /** The `resident` and `evict` records again, with their frame and the bytes of the allocation they name. */
  residency: RmvResidencyEvent[]
  heaps: RmvObservedHeap[]
  resources: RmvObservedResource[]
  /** Snapshots the user took in the trace, by frame. */
  markers: { frame: Frame; name: string; time: Milliseconds }[]
  /** Things the trace did that do not fit, counted by kind. */
  warnings: Record<string, number>
}

const PRESENT = 3
/** 2^21 frames: 9.7 hours of 16.6 ms frames. */
const MAX_FRAMES = 2 ** 21
const UPDATE = 1

/**
 * HeapScope heap type of a virtual allocation, by its first preferred heap, so that each lane holds one kind of
 * memory: invisible VRAM → default; the CPU-visible window of VRAM (local) → upload, unless the invisible heap is
 * empty (resizable BAR: local is all VRAM) → default; system memory, write-combined or cacheable → readback.
 */
export function heapKindOf(preferences: RmvHeapPreference[], invisibleSize: Bytes): HeapKind {
  switch (preferences[0]) {
    case 'local':
      return invisibleSize > 0 ? 'upload' : 'default'
    case 'systemUswc':
    case 'systemCacheable':
      return 'readback'
    default:
      return 'default'
  }
}

/** The memory of an allocation as RMV groups them, or `unspecified` when it names no preferred heap. */
export type RmvMemory = RmvHeap | 'unspecified'

/**
 * The memory an allocation is in, as RMV's heap overview groups it: its first preferred heap, with both kinds of
 * system memory (write-combined, cacheable) as `system`.
 */
export function memoryOf(preferences: RmvHeapPreference[]): RmvMemory {
  switch (preferences[0]) {
    case undefined:
      return 'unspecified'
    case 'systemUswc':
    case 'systemCacheable':
      return 'system'
    default:
      return preferences[0]
  }
}

const IMAGE_USAGE_FLAGS: [number, TextureFlag][] = [
  [1 << 0, 'ShaderResource'],
  [1 << 1, 'UAV'],
  [1 << 3, 'ResolveTargetable'],
  [1 << 4, 'RenderTargetable'],
  [1 << 5, 'DepthStencilTargetable'],
]
const IMAGE_SHARED = (1 << 2) | (1 << 19)
const IMAGE_CUBEMAP = 1 << 5
const IMAGE_PRT = 1 << 6
const BUFFER_USAGE_FLAGS: [number, BufferUsage][] = [
  [1 << 0, 'SourceCopy'],
  [1 << 2, 'ShaderResource'],
  [1 << 3, 'UnorderedAccess'],
  [1 << 4, 'Uniform'],
  [1 << 5, 'UnorderedAccess'],
  [1 << 6, 'IndexBuffer'],
  [1 << 7, 'VertexBuffer'],
  [1 << 8, 'DrawIndirect'],
  [1 << 12, 'AccelerationStructure'],
]
const BUFFER_SPARSE = (1 << 0) | (1 << 1)

export function tagOf(create: RmvResourceCreate): string {
  const d = create.description
  switch (d.type) {
    case 'image':
      return d.usageFlags & (1 << 5) ? 'DepthStencil' : d.usageFlags & (1 << 4) ? 'RenderTarget' : 'Texture'
    case 'buffer':
      return d.usageFlags & (1 << 12) ? 'RayTracingBuffer' : 'Buffer'
    case 'pipeline':
      return 'ShaderPipeline'
    case 'commandAllocator':
      return 'CommandBuffer'
    case 'descriptorHeap':
    case 'descriptorPool':
      return 'Descriptors'
    case 'gpuEvent':
      return 'GpuEvent'
    case 'heap':
      return 'Heap'
    default:
      return 'Internal'
  }
}

function textureDim(d: RmvImageDescription): TextureDim {
  if (d.dim === '3d') return '3d'
  if (d.createFlags & IMAGE_CUBEMAP) return d.slices > 6 ? 'cubearray' : 'cube'
  return d.slices > 1 ? '2darray' : '2d'
}

function placedOf(id: number, heap: number, offset: Bytes, size: Bytes, create: RmvResourceCreate, name?: string): PlacedRecord {
  const d = create.description
  const tag = tagOf(create)
  if (d.type === 'image') {
    const flags: TextureFlag[] = IMAGE_USAGE_FLAGS.filter(([bit]) => d.usageFlags & bit).map(([, f]) => f)
    if (d.createFlags & IMAGE_SHARED) flags.push('Shared')
    if (d.createFlags & IMAGE_PRT) flags.push('ReservedResource')
    const record: PlacedRecord = {
      e: 'placed',
      id,
      heap,
      offset,
      kind: 'texture',
      dim: textureDim(d),
      width: d.width,
      height: d.height,
      depth: d.dim === '3d' ? d.depth : d.slices,
      mips: Math.max(1, d.mips),
      samples: d.samples,
      flags,
      size,
      align: d.maxBaseAlignment,
      tag,
    }
    const format = rmtFormatToDxgi(d.format, d.swizzle)
    if (format) record.format = format
    if (name !== undefined) record.name = name
    return record
  }
  const usage: BufferUsage[] = []
  if (d.type === 'buffer') {
    for (const [bit, u] of BUFFER_USAGE_FLAGS) if (d.usageFlags & bit && !usage.includes(u)) usage.push(u)
    if (d.createFlags & BUFFER_SPARSE) usage.push('ReservedResource')
  }
  const record: PlacedRecord = { e: 'placed', id, heap, offset, kind: 'buffer', size, tag }
  if (usage.length > 0) record.usage = usage
  if (name !== undefined) record.name = name
  return record
}

/** Resource names by create index: a name token names the latest create of its id, or the next one if none yet. */
function resolveNames(trace: RmvTrace): (string | undefined)[] {
  const e = trace.events
  const names: (string | undefined)[] = new Array(trace.creates.length)
  const latest = new Map<number, number>()
  const pending = new Map<number, string>()
  const byCorrelation = new Map<number, number>()
  for (let i = 0; i < e.length; i++) {
    if (e.kind[i] === TOKEN.resourceCreate) {
      const k = e.ref[i]
      const id = e.id[i]
      latest.set(id, k)
      const name = pending.get(id)
      if (name !== undefined) {
        names[k] = name
        pending.delete(id)
      }
    } else if (e.kind[i] === TOKEN.userdata) {
      const u = trace.userdata[e.ref[i]]
      if (u.type === 'correlation' && u.resourceId !== undefined && u.correlationId !== undefined) {
        byCorrelation.set(u.correlationId, u.resourceId)
      } else if ((u.type === 'name' || u.type === 'nameV2') && u.name !== undefined && u.resourceId !== undefined) {
        // D3D12 names carry a correlation id that a correlation token ties to the driver's resource id.
        const id = byCorrelation.get(u.resourceId) ?? u.resourceId
        const k = latest.get(id)
        if (k !== undefined) names[k] = u.name
        else pending.set(id, u.name)
      }
    }
  }
  return names
}

interface LiveHeap {
  info: RmvObservedHeap
  record: HeapRecord
  /** Resources placed in it now. */
  placed: Set<LiveResource>
}

interface LiveResource {
  create: number
  observed: RmvObservedResource
  /** HeapScope id while placed. */
  placedId?: number
  heap?: LiveHeap
}

/** Live heaps sorted by address, to find the one that holds an address. */
class AddressMap {
  private readonly bases: number[] = []
  private readonly heaps: LiveHeap[] = []

  private lowerBound(address: number): number {
    let lo = 0
    let hi = this.bases.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.bases[mid] < address) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  insert(heap: LiveHeap): LiveHeap | undefined {
    const at = this.lowerBound(heap.info.address)
    const replaced = this.bases[at] === heap.info.address ? this.heaps[at] : undefined
    if (replaced) this.heaps[at] = heap
    else {
      this.bases.splice(at, 0, heap.info.address)
      this.heaps.splice(at, 0, heap)
    }
    return replaced
  }

  remove(address: number): LiveHeap | undefined {
    const at = this.lowerBound(address)
    if (this.bases[at] !== address) return undefined
    const heap = this.heaps[at]
    this.bases.splice(at, 1)
    this.heaps.splice(at, 1)
    return heap
  }

  find(address: number): LiveHeap | undefined {
    let at = this.lowerBound(address)
    if (this.bases[at] !== address) at--
    const heap = this.heaps[at]
    return heap && address < heap.info.address + heap.info.size ? heap : undefined
  }
}

export function rmvToObserved(trace: RmvTrace, options: RmvObservedOptions = {}): RmvObserved {
  const e = trace.events
  const bucketMs = options.bucketMs ?? DEFAULT_BUCKET_MS
  if (!(bucketMs > 0)) throw new RangeError(`bucketMs must be positive, got ${bucketMs}`)

  let presents = 0
  for (let i = 0; i < e.length; i++) if (e.kind[i] === TOKEN.misc && e.flags[i] === PRESENT) presents++
  const byMarkers = options.frameMarkers !== false && presents > 0
  const frameCount = byMarkers ? presents + 1 : Math.floor(trace.duration / bucketMs) + 1
  if (frameCount > MAX_FRAMES) {
    if (!byMarkers && options.bucketMs !== undefined && Math.floor(trace.duration / DEFAULT_BUCKET_MS) < MAX_FRAMES) {
      // The trace is fine; the buckets the user chose are too short for it.
      throw new RangeError(
        `${bucketMs} ms buckets would cut this ${trace.duration.toFixed(1)} ms trace into ${frameCount} frames, more than ${MAX_FRAMES}: choose longer buckets`,
      )
    }
    // Only a corrupt clock makes a trace this long: name the token that carries it.
    let latest = 0
    for (let i = 1; i < e.length; i++) if (e.clock[i] > e.clock[latest]) latest = i
    throw new RmvFormatError(e.offset[latest] ?? 0, `a trace of at most ${MAX_FRAMES} frames of ${bucketMs} ms`, `${trace.duration} ms`)
  }
  const frameStart = new Float64Array(frameCount)
  const usage: Record<HeapKind, Float64Array> = {
    default: new Float64Array(frameCount),
    upload: new Float64Array(frameCount),
    readback: new Float64Array(frameCount),
  }
  const pageTable: Record<RmvHeap, Float64Array> = {
    local: new Float64Array(frameCount),
    invisible: new Float64Array(frameCount),
    system: new Float64Array(frameCount),
  }

  const names = resolveNames(trace)
  const records: AnyCaptureRecord[] = [{ e: 'frame', n: 0, t: 0 }]
  const residency: RmvResidencyEvent[] = []
  const heaps: RmvObservedHeap[] = []
  const resources: RmvObservedResource[] = []
  const warnings: Record<string, number> = {}
  const warn = (kind: string): void => {
    warnings[kind] = (warnings[kind] ?? 0) + 1
  }
  const live = new AddressMap()
  const liveResources = new Map<number, LiveResource>()
  const pages = new PageTable(trace.segments)
  const bytesByKind: Record<HeapKind, number> = { default: 0, upload: 0, readback: 0 }
  let nextId = 1
  let frame = 0

  const closeFrame = (): void => {
    for (const kind of ['default', 'upload', 'readback'] as const) usage[kind][frame] = bytesByKind[kind]
    for (let h = 0; h < 3; h++) pageTable[RMV_HEAPS[h]][frame] = pages.mapped[h]
  }
  const beginFrame = (t: Milliseconds): void => {
    closeFrame()
    frame++
    frameStart[frame] = t
    records.push({ e: 'frame', n: frame, t })
  }
  const unplace = (r: LiveResource): void => {
    if (r.placedId === undefined) return
    records.push({ e: 'release', id: r.placedId })
    r.heap?.placed.delete(r)
    r.placedId = undefined
    r.heap = undefined
  }
  const destroy = (r: LiveResource): void => {
    unplace(r)
    r.observed.destroyed = frame
    liveResources.delete(r.observed.driverId)
  }

  for (let i = 0; i < e.length; i++) {
    const kind = e.kind[i]
    const time = clockToMs(trace, e.clock[i])
    if (byMarkers) {
      if (kind === TOKEN.misc && e.flags[i] === PRESENT) beginFrame(time)
    } else {
      const target = Math.min(frameCount - 1, Math.max(0, Math.floor(time / bucketMs)))
      while (frame < target) beginFrame((frame + 1) * bucketMs)
    }
    switch (kind) {
      case TOKEN.virtualAllocate: {
        const f = e.flags[i]
        const count = Math.min(4, (f >> 10) & 7)
        const preferredHeaps: RmvHeapPreference[] = []
        for (let k = 0; k < count; k++) preferredHeaps.push(RMV_HEAP_PREFERENCES[(f >> (2 + 2 * k)) & 3])
        const info: RmvObservedHeap = {
          id: nextId++,
          address: e.address[i],
          size: e.size[i],
          type: heapKindOf(preferredHeaps, trace.heapSizes.invisible),
          memory: memoryOf(preferredHeaps),
          preferredHeaps,
          allocated: frame,
        }
        const record: HeapRecord = { e: 'heap', id: info.id, size: info.size, type: info.type, memory: info.memory }
        const replaced = live.insert({ info, record, placed: new Set() })
        if (replaced) {
          warn('allocationOverLiveAllocation')
          freeHeap(replaced)
        }
        heaps.push(info)
        records.push(record)
        bytesByKind[info.type] += info.size
        break
      }
      case TOKEN.virtualFree: {
        const heap = live.remove(e.address[i])
        if (!heap) warn('freeOfUnknownAllocation')
        else freeHeap(heap)
        break
      }
      case TOKEN.resourceCreate: {
        const k = e.ref[i]
        const create = trace.creates[k]
        const previous = liveResources.get(create.resourceId)
        if (previous) {
          warn('createOfLiveResource')
          destroy(previous)
        }
        const d = create.description
        const observed: RmvObservedResource = {
          driverId: create.resourceId,
          type: d.type,
          tag: tagOf(create),
          size: d.type === 'buffer' ? d.size : d.type === 'image' ? d.imageSize : d.type === 'heap' ? d.size : 0,
          created: frame,
        }
        if (names[k] !== undefined) observed.name = names[k]
        resources.push(observed)
        liveResources.set(create.resourceId, { create: k, observed })
        break
      }
      case TOKEN.resourceBind: {
        const r = liveResources.get(e.id[i])
        if (!r) {
          warn('bindOfUnknownResource')
          break
        }
        const heap = live.find(e.address[i])
        const create = trace.creates[r.create]
        r.observed.bound = frame
        r.observed.size = e.size[i]
        if (!heap) {
          warn('bindOutsideAllocation')
          break
        }
        r.observed.heapId = heap.info.id
        r.observed.offset = e.address[i] - heap.info.address
        r.observed.heap = heap.info.type
        if (create.description.type === 'heap') {
          // An API heap (VkDeviceMemory, ID3D12Heap) is the allocation itself: its name names the heap record.
          const name = names[r.create]
          if (name !== undefined) heap.info.name = heap.record.name = name
          break
        }
        if (r.placedId !== undefined) {
          warn('rebind')
          unplace(r)
        }
        const id = nextId++
        r.placedId = id
        r.heap = heap
        r.observed.id = id
        heap.placed.add(r)
        records.push(placedOf(id, heap.info.id, r.observed.offset, e.size[i], create, names[r.create]))
        break
      }
      case TOKEN.resourceDestroy: {
        const r = liveResources.get(e.id[i])
        if (!r) warn('destroyOfUnknownResource')
        else destroy(r)
        break
      }
      case TOKEN.resourceReference: {
        const heap = live.find(e.address[i])
        if (!heap) {
          warn('residencyOutsideAllocation')
          break
        }
        // PAL makes resident and evicts whole allocations, so the record names the heap and leaves `bytes` out.
        const evict = (e.flags[i] & 1) === 1
        records.push({ e: evict ? 'evict' : 'resident', heap: heap.info.id })
        residency.push({ frame, kind: evict ? 'evict' : 'makeResident', heapId: heap.info.id, bytes: heap.info.size })
        break
      }
      case TOKEN.pageTableUpdate:
        // As RMV does, only regular mappings count; discards and transfers between pools do not move bytes.
        if (((e.flags[i] >> 4) & 3) === UPDATE) pages.update(e.address[i], e.extra[i], e.size[i], ((e.flags[i] >> 3) & 1) === 1)
        break
    }
  }
  while (frame < frameCount - 1) beginFrame(byMarkers ? frameStart[frame] : (frame + 1) * bucketMs)
  closeFrame()
  if (pages.unknownPages > 0) warnings.pagesOutsideSegments = pages.unknownPages

  function freeHeap(heap: LiveHeap): void {
    if (heap.placed.size > 0) {
      warn('freeWithPlacedResources')
      for (const r of [...heap.placed]) unplace(r)
    }
    heap.info.freed = frame
    bytesByKind[heap.info.type] -= heap.info.size
    records.push({ e: 'free', id: heap.info.id })
  }

  const markers = trace.snapshots
    .map((s) => ({ frame: frameOfTime(s.time), name: s.name, time: s.time }))
    .sort((a, b) => a.time - b.time)
  function frameOfTime(time: Milliseconds): Frame {
    if (!byMarkers) return Math.min(frameCount - 1, Math.max(0, Math.floor(time / bucketMs)))
    let n = 0
    while (n + 1 < frameCount && frameStart[n + 1] <= time) n++
    return n
  }

  const header: CaptureHeader = {
    format: CAPTURE_FORMAT,
    version: CAPTURE_VERSION,
    minor: RMV_CAPTURE_MINOR,
    source: 'rmv',
    observed: 'rmv',
    adapter: { name: trace.adapter.name, vram: trace.heapSizes.local + trace.heapSizes.invisible },
  }
  if (trace.api) header.api = trace.api
  return {
    header,
    records,
    framesFrom: byMarkers ? 'markers' : 'buckets',
    bucketMs: byMarkers ? undefined : bucketMs,
    frameCount,
    frameStart,
    usage,
    pageTable,
    residency,
    heaps,
    resources,
    markers,
    warnings,
  }
}
