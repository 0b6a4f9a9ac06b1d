/**
 * Chrome trace-event JSON written by Intel's GPGMM D3D12 allocator (EventTraceWriter). Each
 * `ResourceAllocator.CreateResource` instant carries the real D3D12_RESOURCE_DESC, heap type and initial state: it
 * is matched with the `ResourceAllocation` object it produced (the next one created on the same thread, as GPGMM's
 * own replay matches them), which releases it when deleted. Time becomes frames.
 *
 * By default the import is what GPGMM did (header `observed: "gpgmm"`, capture format 1.5): its `Heap` objects become
 * `heap` / `free` records, with their segment as `memory` (`local`, `non-local`) when a snapshot gives it, and each
 * allocation a `placed` record in its heap, so the run is observed and no model places anything. With `requests` the import is
 * the requests alone, `buffer` / `texture` records without GPGMM's heaps, for the D3D12 model to place: the two
 * never mix in one run.
 *
 * The file is never held as one string: the scanner steps over the events in the raw code units and parses them
 * one at a time.
 */
import { CAPTURE_FORMAT, CAPTURE_VERSION, OBSERVED_MINOR } from '../../../shared/capture'
import type {
  BufferRecord,
  BufferUsage,
  CaptureHeader,
  CaptureRecord,
  HeapKind,
  HeapRecord,
  PlacedRecord,
  TextureDim,
  TextureFlag,
  TextureRecord,
} from '../../../shared/capture'
import { dxgiFormatByValue } from '../../../shared/dxgi'
import type { Bytes } from '../../../shared/units'
import {
  decodeHead,
  ImportError,
  ImportNotes,
  parseJsonSlice,
  peekObjectString,
  skipJsonString,
  skipJsonValue,
  skipSpace,
  textUnits,
  type ImportedCapture,
  type ImportSource,
  type TextUnits,
} from './source'
import { compact, d3d12BufferUsage, d3d12TextureFlags } from './vma'

export const GPGMM_FORMAT = 'gpgmm-trace'

/** One frame per this many microseconds when the trace has no frame or submit markers (60 Hz). */
export const DEFAULT_FRAME_MICROS = 16666
/** Events that begin a frame: a present, as Chrome's GPU service traces it around Dawn. */
export const FRAME_MARKERS: readonly string[] = ['SwapChain::Present', 'Present']
/** Events that are one ExecuteCommandLists: Dawn's queue submit and GPGMM's residency manager. */
export const SUBMIT_MARKERS: readonly string[] = ['Queue::Submit', 'ResidencyManager.ExecuteCommandLists']

export interface GpgmmImportOptions {
  /** 'auto': frame markers, else submit markers, else time; 'time': always by time; 'markers': markers only. */
  frames?: 'auto' | 'time' | 'markers'
  frameMicros?: number
  frameMarkers?: readonly string[]
  submitMarkers?: readonly string[]
  /** Import the requests for the model to place, without GPGMM's heaps; by default what GPGMM did. */
  requests?: boolean
}

const CREATE_RESOURCE = 'ResourceAllocator.CreateResource'

type GpgmmKind = 'createResource' | 'createHeap' | 'heap' | 'allocation' | 'residencyManager' | 'allocator'

/** GPGMM's event names, of its releases up to 2022 and of the later ones that name objects by interface. */
const GPGMM_KINDS = new Map<string, GpgmmKind>([
  [CREATE_RESOURCE, 'createResource'],
  ['Heap.CreateHeap', 'createHeap'],
  ['Heap.CreateResidencyHeap', 'createHeap'],
  ['Heap', 'heap'],
  ['IHeap', 'heap'],
  ['ResourceAllocation', 'allocation'],
  ['IResourceAllocation', 'allocation'],
  ['ResidencyManager', 'residencyManager'],
  ['IResidencyManager', 'residencyManager'],
  ['ResourceAllocator', 'allocator'],
  ['IResourceAllocator', 'allocator'],
])

const HEAD_ARRAY = /^\s*\[\s*(?:[{\]]|$)/
const HEAD_OBJECT = /^\s*\{/
const HEAD_TRACE_EVENTS = /"traceEvents"\s*:\s*\[/
const HEAD_GPGMM =
  /"name"\s*:\s*"(?:I?ResourceAllocator(?:\.CreateResource)?|I?ResidencyManager(?:\.\w+)?|I?ResourceAllocation|Heap\.Create(?:Residency)?Heap)"|"GPGMM_/

/** A Chrome trace-event JSON file, either form (an object with traceEvents, or a bare array of events). */
export function looksLikeTraceEvents(head: string): boolean {
  return HEAD_ARRAY.test(head) || (HEAD_OBJECT.test(head) && HEAD_TRACE_EVENTS.test(head))
}

/** A trace-event file whose first events are GPGMM's (its allocator objects, or its threads' names). */
export function sniffGpgmm(head: string): boolean {
  return looksLikeTraceEvents(head) && HEAD_GPGMM.test(head)
}

/**
 * Null when the content is not a GPGMM trace. A trace-event file whose head does not show GPGMM is scanned whole
 * and is ours only if GPGMM events turn up; its faults then give null, since it was never known to be ours.
 */
export function attemptToImportGpgmm(source: ImportSource, options: GpgmmImportOptions = {}): ImportedCapture | null {
  const head = decodeHead(source.bytes)
  const ours = sniffGpgmm(head)
  if (!ours && !looksLikeTraceEvents(head)) return null
  const text = textUnits(source.bytes)
  const collector = new EventCollector(source.name, text, options)
  let scan: ScanResult
  try {
    scan = scanTraceEvents(source.name, text, collector)
  } catch (err) {
    if (!ours && err instanceof ImportError) return null
    throw err
  }
  if (!ours && !collector.sawGpgmm) return null
  return new TraceReplay(source.name, text, collector, scan, options).run()
}

// ---------------------------------------------------------------------------------------------------------------
// Scanning: the top level, then each event on its own.

interface ScanResult {
  form: 'object' | 'array'
  /** An array form whose closing ']' is missing: the trace-event format allows it. */
  unterminated: boolean
  /** Top-level keys other than traceEvents (displayTimeUnit, metadata, …). */
  other: Record<string, unknown>
}

interface EventSink {
  /** Whether an event of this name is read; the others are stepped over without being parsed. */
  wants(name: string): boolean
  add(value: unknown, at: number): void
}

function scanTraceEvents(file: string, text: TextUnits, sink: EventSink): ScanResult {
  const u = text.units
  const end = text.length
  const result: ScanResult = { form: 'object', unterminated: false, other: {} }
  const fail = (at: number, expected: string): never => {
    const found = at >= end ? 'the end of the file (it looks truncated)' : `'${text.slice(at, at + 1)}'`
    throw new ImportError(file, `expected ${expected}, found ${found}`, {
      offset: text.byteOffset(at),
      line: text.lineAt(at),
      expected,
    })
  }
  const readEvents = (open: number, bare: boolean): number => {
    let i = skipSpace(u, open + 1)
    if (u[i] === 0x5d) return i + 1
    for (;;) {
      if (i >= end) {
        if (bare) {
          result.unterminated = true
          return end
        }
        fail(i, "an event or the ']' that closes traceEvents")
      }
      if (u[i] !== 0x7b) fail(i, 'an event object')
      const close = skipJsonValue(u, i)
      const name = close < 0 ? undefined : peekObjectString(u, i, close, 'name')
      if (name === undefined || sink.wants(name)) {
        // a truncated event is parsed anyway, so the error names the exact place where the text stops
        sink.add(parseJsonSlice(file, text, i, close < 0 ? end : close, 'an event'), i)
      }
      i = skipSpace(u, close)
      if (u[i] === 0x2c) {
        i = skipSpace(u, i + 1)
        if (i >= end && bare) {
          result.unterminated = true
          return end
        }
        continue
      }
      if (u[i] === 0x5d) return i + 1
      if (i >= end && bare) {
        result.unterminated = true
        return end
      }
      fail(i, "',' or ']' after an event")
    }
  }

  let i = skipSpace(u, 0)
  if (u[i] === 0x5b) {
    result.form = 'array'
    i = skipSpace(u, readEvents(i, true))
    if (i < end) fail(i, 'the end of the file after the event array')
    return result
  }
  if (u[i] !== 0x7b) fail(i, "'{' or '['")
  i = skipSpace(u, i + 1)
  if (u[i] === 0x7d) i = end + 1
  let sawEvents = false
  while (i <= end) {
    if (u[i] !== 0x22) fail(i, 'a key')
    const keyEnd = skipJsonString(u, i)
    if (keyEnd < 0) fail(end, "a key's closing quote")
    const key = String(parseJsonSlice(file, text, i, keyEnd, 'a key'))
    i = skipSpace(u, keyEnd)
    if (u[i] !== 0x3a) fail(i, "':' after a key")
    i = skipSpace(u, i + 1)
    if (key === 'traceEvents') {
      if (u[i] !== 0x5b) fail(i, "'[' that opens traceEvents")
      i = readEvents(i, false)
      sawEvents = true
    } else {
      if (i >= end) fail(i, 'a value')
      const close = skipJsonValue(u, i)
      result.other[key] = parseJsonSlice(file, text, i, close < 0 ? end : close, `the value of "${key}"`)
      i = close
    }
    i = skipSpace(u, i)
    if (u[i] === 0x2c) {
      i = skipSpace(u, i + 1)
      continue
    }
    if (u[i] === 0x7d) {
      i = skipSpace(u, i + 1)
      if (i < end) fail(i, 'the end of the file')
      break
    }
    fail(i, "',' or '}' after a top-level value")
  }
  if (!sawEvents) fail(0, 'a traceEvents array in the top-level object')
  return result
}

// ---------------------------------------------------------------------------------------------------------------
// Collecting: only the events the import needs are kept.

interface TraceEvent {
  name: string
  kind: GpgmmKind | undefined
  ph: string
  ts: number
  tid: string
  pid: unknown
  id: string | undefined
  args: Record<string, unknown> | undefined
  /** Unit index of the event in the file, for messages. */
  at: number
}

class EventCollector implements EventSink {
  readonly events: TraceEvent[] = []
  readonly threads = new Map<string, string>()
  processName: string | undefined
  pid: unknown
  sawGpgmm = false
  readonly frameMarkers: Set<string>
  readonly submitMarkers: Set<string>

  constructor(
    private readonly file: string,
    private readonly text: TextUnits,
    options: GpgmmImportOptions,
  ) {
    this.frameMarkers = new Set(options.frameMarkers ?? FRAME_MARKERS)
    this.submitMarkers = new Set(options.submitMarkers ?? SUBMIT_MARKERS)
  }

  wants(name: string): boolean {
    return (
      GPGMM_KINDS.has(name) ||
      name === 'process_name' ||
      name === 'thread_name' ||
      this.frameMarkers.has(name) ||
      this.submitMarkers.has(name)
    )
  }

  add(value: unknown, at: number): void {
    if (!isObject(value)) this.fail(at, 'an event object')
    const { name, ph } = value
    if (typeof name !== 'string' || typeof ph !== 'string') return
    const args = isObject(value.args) ? value.args : undefined
    if (ph === 'M') {
      const label = typeof args?.name === 'string' ? args.name : undefined
      if (name === 'process_name' && label !== undefined) {
        this.processName = label
        this.pid = value.pid
      } else if (name === 'thread_name' && label !== undefined) {
        this.threads.set(String(value.tid), label)
        if (label.startsWith('GPGMM_')) this.sawGpgmm = true
      }
      return
    }
    const kind = GPGMM_KINDS.get(name)
    if (!kind && !this.frameMarkers.has(name) && !this.submitMarkers.has(name)) return
    if (kind) this.sawGpgmm = true
    if (typeof value.ts !== 'number' || !Number.isFinite(value.ts)) this.fail(at, `a numeric "ts" in the ${name} event`)
    if (this.pid === undefined) this.pid = value.pid
    const tid = String(value.tid)
    this.events.push({ name, kind, ph, ts: value.ts, tid, pid: value.pid, id: objectId(value), args, at })
  }

  fail(at: number, expected: string): never {
    throw new ImportError(this.file, `expected ${expected}`, {
      offset: this.text.byteOffset(at),
      line: this.text.lineAt(at),
      expected,
    })
  }
}

function objectId(event: Record<string, unknown>): string | undefined {
  const { id, id2 } = event
  if (typeof id === 'string' || typeof id === 'number') return String(id)
  if (isObject(id2)) {
    const scoped = id2.local ?? id2.global
    if (typeof scoped === 'string' || typeof scoped === 'number') return String(scoped)
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Replaying the events in time order into records.

// D3D12_HEAP_TYPE
const HEAP_TYPE_NAMES: Record<number, string> = { 1: 'DEFAULT', 2: 'UPLOAD', 3: 'READBACK', 4: 'CUSTOM', 5: 'GPU_UPLOAD' }
const HEAP_DEFAULT = 1
const HEAP_UPLOAD = 2
const HEAP_READBACK = 3
const HEAP_CUSTOM = 4
// D3D12_CPU_PAGE_PROPERTY and D3D12_MEMORY_POOL
const CPU_PAGE_WRITE_COMBINE = 2
const CPU_PAGE_WRITE_BACK = 3
const MEMORY_POOL_L1 = 2
// D3D12_RESOURCE_STATES
const STATE_GENERIC_READ = 0xac3
const STATE_COPY_DEST = 0x400
// D3D12_RESOURCE_DIMENSION
const DIMENSION_BUFFER = 1
const DIMENSION_TEXTURE1D = 2
const DIMENSION_TEXTURE2D = 3
const DIMENSION_TEXTURE3D = 4
// GPGMM's ALLOCATION_METHOD
const METHODS: Record<number, string> = { 0: 'unknown', 1: 'standalone', 2: 'suballocated', 3: 'suballocated-within' }

/** What GPGMM itself did with a request: its allocation object, the heap and offset it chose. */
interface GpgmmPlacement {
  allocation?: string
  heap?: number
  offset?: Bytes
  size?: Bytes
  method?: string
}

type RequestRecord = (BufferRecord | TextureRecord) & { gpgmm?: GpgmmPlacement }

interface Request {
  record: RequestRecord
  heapKind: HeapKind
  released: boolean
  /** Observed import: its allocation exists, and its `placed` record is written once its heap and offset are known. */
  allocated?: boolean
  placed?: boolean
}

interface GpgmmHeap {
  record: HeapRecord
  emitted: boolean
  /** The request waiting on the heap's thread when it was made: it was made for that request. */
  madeFor?: Request
}

class TraceReplay {
  private readonly notes = new ImportNotes()
  private readonly records: CaptureRecord[] = []
  private nextId = 1
  private frame = 0
  private t0 = 0
  private mode: 'time' | 'frame-markers' | 'submit-markers' = 'time'
  private readonly frameMicros: number
  /** The requests alone for the model (true), or what GPGMM did (false). */
  private readonly requests: boolean
  /** Requests waiting for their ResourceAllocation, per thread, oldest first. */
  private readonly waiting = new Map<string, Request[]>()
  private readonly heapDescs = new Map<string, Record<string, unknown>>()
  private readonly heaps = new Map<string, GpgmmHeap>()
  /** Every heap by its record id, freed ones too, for placing allocations. */
  private readonly heapsById = new Map<number, GpgmmHeap>()
  private readonly allocations = new Map<string, Request>()
  private readonly requestsByThread = new Map<string, number>()
  private uma: boolean | undefined
  private resourceHeapTier: number | undefined
  private budget: number | undefined
  private lastBudget: number | undefined
  private allocatorSnapshot: unknown
  private residencySnapshot: unknown

  constructor(
    private readonly file: string,
    private readonly text: TextUnits,
    private readonly collected: EventCollector,
    private readonly scan: ScanResult,
    private readonly options: GpgmmImportOptions,
  ) {
    const micros = options.frameMicros ?? DEFAULT_FRAME_MICROS
    if (!(micros > 0)) throw new RangeError(`frameMicros must be positive, got ${micros}`)
    this.frameMicros = micros
    this.requests = options.requests ?? false
  }

  run(): ImportedCapture {
    const events = this.collected.events
    // GPGMM writes its per-thread buffers one after the other: time order is not file order
    events.sort((a, b) => a.ts - b.ts)
    this.t0 = events.length ? events[0].ts : 0
    this.mode = this.frameMode(events)
    this.records.push({ e: 'frame', n: 0, t: 0 })
    for (const event of events) this.handle(event)
    this.finish()
    let requests = 0
    for (const count of this.requestsByThread.values()) requests += count
    return {
      header: this.header(),
      records: this.records,
      format: GPGMM_FORMAT,
      notes: this.notes.list(),
      trace: this.requests ? { kind: 'modelled', model: 'd3d12' } : { kind: 'observed', requests },
    }
  }

  private frameMode(events: TraceEvent[]): 'time' | 'frame-markers' | 'submit-markers' {
    const wanted = this.options.frames ?? 'auto'
    if (wanted === 'time') return 'time'
    const { frameMarkers, submitMarkers } = this.collected
    if (events.some((e) => frameMarkers.has(e.name) && isBegin(e.ph))) return 'frame-markers'
    if (events.some((e) => submitMarkers.has(e.name) && isBegin(e.ph))) return 'submit-markers'
    if (wanted === 'markers') this.notes.add('noMarkers', 'the trace has no frame or submit markers: frames are cut by time')
    return 'time'
  }

  private handle(event: TraceEvent): void {
    if (this.mode === 'time') this.advanceTo(Math.floor((event.ts - this.t0) / this.frameMicros))
    const { name, ph } = event
    if (this.collected.frameMarkers.has(name) && isBegin(ph)) {
      if (this.mode === 'frame-markers') this.beginFrame(event.ts)
      return
    }
    if (this.collected.submitMarkers.has(name) && isBegin(ph)) {
      this.records.push({ e: 'submit' })
      if (this.mode === 'submit-markers') this.beginFrame(event.ts)
      return
    }
    switch (event.kind) {
      case 'createResource':
        // the same name is also a duration event around the call, without the arguments
        if (ph === 'i' || ph === 'I') this.createResource(event)
        return
      case 'createHeap':
        if ((ph === 'i' || ph === 'I') && isObject(event.args?.Heap)) this.heapDescs.set(event.tid, event.args.Heap)
        return
      case 'heap':
        return this.heapEvent(event)
      case 'allocation':
        return this.allocationEvent(event)
      case 'residencyManager':
        if (ph === 'O') this.residencyManager(snapshotOf(event))
        return
      case 'allocator':
        if (ph === 'O') this.resourceAllocator(snapshotOf(event))
        return
    }
  }

  private advanceTo(frame: number): void {
    while (this.frame < frame) {
      this.frame++
      this.records.push({ e: 'frame', n: this.frame, t: (this.frame * this.frameMicros) / 1000 })
    }
  }

  private beginFrame(ts: number): void {
    this.frame++
    this.records.push({ e: 'frame', n: this.frame, t: (ts - this.t0) / 1000 })
  }

  // -- requests ---------------------------------------------------------------------------------------------------

  private createResource(event: TraceEvent): void {
    const args = event.args
    if (!args) return this.fail(event, 'args with the resource descriptor')
    if ('Description' in args && 'ID' in args) {
      // GPGMM records a failed call as an error message in place of its parameters
      this.notes.add('failedRequest', `a ${CREATE_RESOURCE} that failed (${String(args.Description)}) is skipped`)
      return
    }
    const desc = args.resourceDescriptor
    if (!isObject(desc)) return this.fail(event, '"resourceDescriptor" in the args')
    const allocation = isObject(args.allocationDescriptor) ? args.allocationDescriptor : {}
    let heapType = typeof allocation.HeapType === 'number' ? allocation.HeapType : 0
    if (heapType === 0 || heapType === HEAP_CUSTOM) heapType = heapTypeOfState(args.initialResourceState)
    const heapName = HEAP_TYPE_NAMES[heapType] ?? `heap type ${heapType}`
    const heapKind: HeapKind = heapType === HEAP_UPLOAD ? 'upload' : heapType === HEAP_READBACK ? 'readback' : 'default'
    const flags = this.integer(desc.Flags ?? 0, event, 'resourceDescriptor.Flags')
    const dimension = desc.Dimension
    const id = this.nextId++
    let record: RequestRecord
    if (dimension === DIMENSION_BUFFER) {
      const size = this.integer(desc.Width, event, 'resourceDescriptor.Width')
      // UE routes a buffer by usage: a CPU-written UPLOAD buffer is Dynamic (the upload allocator), a READBACK one a
      // readback staging buffer, everything else Static in the default pools
      const usage: BufferUsage[] = heapType === HEAP_UPLOAD ? ['Dynamic'] : heapType === HEAP_READBACK ? [] : ['Static']
      usage.push(...d3d12BufferUsage(flags))
      const buffer: BufferRecord = { e: 'buffer', id, size, usage }
      if (heapType === HEAP_READBACK) buffer.heap = 'readback'
      buffer.tag = heapName
      record = buffer
    } else if (dimension === DIMENSION_TEXTURE1D || dimension === DIMENSION_TEXTURE2D || dimension === DIMENSION_TEXTURE3D) {
      record = this.texture(event, id, desc, flags, heapType, heapName)
    } else {
      this.nextId--
      this.notes.add('unknownDimension', `a ${CREATE_RESOURCE} with Dimension ${String(dimension)} is skipped`)
      return
    }
    if (this.requests) this.records.push(record)
    const request: Request = { record, heapKind, released: false }
    const queue = this.waiting.get(event.tid)
    if (queue) queue.push(request)
    else this.waiting.set(event.tid, [request])
    this.requestsByThread.set(event.tid, (this.requestsByThread.get(event.tid) ?? 0) + 1)
  }

  private texture(
    event: TraceEvent,
    id: number,
    desc: Record<string, unknown>,
    flags: number,
    heapType: number,
    heapName: string,
  ): TextureRecord {
    const dimension = desc.Dimension
    const width = this.integer(desc.Width, event, 'resourceDescriptor.Width')
    const height = dimension === DIMENSION_TEXTURE1D ? 1 : this.integer(desc.Height ?? 1, event, 'resourceDescriptor.Height')
    const depth = this.integer(desc.DepthOrArraySize ?? 1, event, 'resourceDescriptor.DepthOrArraySize')
    const is3d = dimension === DIMENSION_TEXTURE3D
    const dim: TextureDim = is3d ? '3d' : depth > 1 ? '2darray' : '2d'
    const formatValue = this.integer(desc.Format ?? 0, event, 'resourceDescriptor.Format')
    const format = dxgiFormatByValue(formatValue)
    if (!format) this.notes.add('unknownFormat', `DXGI format ${formatValue} is not known: imported as UNKNOWN`)
    const mipLevels = this.integer(desc.MipLevels ?? 1, event, 'resourceDescriptor.MipLevels')
    const sampleDesc = isObject(desc.SampleDesc) ? desc.SampleDesc : {}
    const samples = this.integer(sampleDesc.Count ?? 1, event, 'resourceDescriptor.SampleDesc.Count') || 1
    const textureFlags: TextureFlag[] = d3d12TextureFlags(flags)
    if (heapType === HEAP_READBACK) textureFlags.push('CPUReadback')
    if (heapType === HEAP_UPLOAD) textureFlags.push('Dynamic')
    return {
      e: 'texture',
      id,
      dim,
      format: format?.name ?? 'UNKNOWN',
      width,
      height,
      depth,
      // MipLevels 0 asks D3D12 for the full chain
      mips: mipLevels || fullMipChain(width, height, is3d ? depth : 1),
      samples,
      flags: textureFlags,
      tag: heapName,
    }
  }

  private allocationEvent(event: TraceEvent): void {
    const key = event.id
    if (key === undefined) return
    if (event.ph === 'N') {
      const request = this.takeWaiting(event.tid)
      if (!request) {
        this.notes.add('allocationWithoutRequest', `ResourceAllocation ${key} has no ${CREATE_RESOURCE} before it`)
        return
      }
      request.record.gpgmm = { ...request.record.gpgmm, allocation: key }
      this.allocations.set(key, request)
      request.allocated = true
      this.place(request)
    } else if (event.ph === 'O') {
      const request = this.allocations.get(key)
      if (request) this.allocationSnapshot(request, snapshotOf(event))
    } else if (event.ph === 'D') {
      const request = this.allocations.get(key)
      if (!request) {
        this.notes.add('unknownAllocation', `ResourceAllocation ${key} is deleted but was never created in the trace`)
        return
      }
      this.allocations.delete(key)
      request.released = true
      if (this.requests || request.placed) this.records.push({ e: 'release', id: request.record.id })
      else this.notes.add('unplaced', `ResourceAllocation ${key}: the trace never says which heap holds it, so it is not shown`)
    }
  }

  /** The request a new allocation on this thread belongs to: the oldest waiting there, else the oldest anywhere. */
  private takeWaiting(tid: string): Request | undefined {
    const own = this.waiting.get(tid)
    if (own?.length) return own.shift()
    let oldest: Request[] | undefined
    for (const queue of this.waiting.values()) {
      if (queue.length && (!oldest || queue[0].record.id < oldest[0].record.id)) oldest = queue
    }
    return oldest?.shift()
  }

  private allocationSnapshot(request: Request, snapshot: Record<string, unknown> | undefined): void {
    if (!snapshot) return
    const placement: GpgmmPlacement = { ...request.record.gpgmm }
    const size = snapshot.SizeInBytes
    if (typeof size === 'number') placement.size = size
    if (typeof snapshot.HeapOffset === 'number') placement.offset = snapshot.HeapOffset
    if (typeof snapshot.Method === 'number') placement.method = METHODS[snapshot.Method] ?? String(snapshot.Method)
    const heapRef = isObject(snapshot.ResourceHeap) ? snapshot.ResourceHeap.id_ref : undefined
    if (typeof heapRef === 'string') {
      const heap = this.heaps.get(heapRef)
      if (heap) placement.heap = heap.record.id
    }
    request.record.gpgmm = placement
    if (request.record.e === 'texture') {
      // the allocation's size and alignment are what the driver reported for this texture
      if (typeof size === 'number') request.record.size = size
      if (typeof snapshot.Alignment === 'number') request.record.align = snapshot.Alignment
    }
    this.place(request)
  }

  /**
   * Observed import: the allocation as a `placed` record in GPGMM's heap, once its heap has a size and the offset is
   * known: the snapshot's HeapOffset, or 0 in a heap made for this request (GPGMM sub-allocates a new heap from its
   * start, and a standalone allocation is its whole heap).
   */
  private place(request: Request): void {
    if (this.requests || request.placed || !request.allocated || request.released) return
    const placement = request.record.gpgmm
    if (placement?.heap === undefined) return
    const heap = this.heapsById.get(placement.heap)
    if (!heap?.emitted) return
    const offset = placement.offset ?? (heap.madeFor === request ? 0 : undefined)
    if (offset === undefined) return
    request.placed = true
    const gpgmm = request.record.gpgmm
    const size = gpgmm?.size ?? request.record.size
    const at = { heap: heap.record.id, offset, gpgmm }
    let record: PlacedRecord & { gpgmm?: GpgmmPlacement }
    if (request.record.e === 'buffer') {
      const { e: _e, heap: _readback, ...buffer } = request.record
      record = { ...buffer, e: 'placed', kind: 'buffer', ...at }
    } else {
      const { e: _e, ...texture } = request.record
      record = { ...texture, e: 'placed', kind: 'texture', ...at }
    }
    if (size !== undefined) record.size = size
    this.records.push(record)
  }

  // -- GPGMM's heaps ----------------------------------------------------------------------------------------------

  private heapEvent(event: TraceEvent): void {
    const key = event.id
    if (key === undefined) return
    if (event.ph === 'N') {
      this.newHeap(key, event)
    } else if (event.ph === 'O') {
      const heap = this.heaps.get(key) ?? this.newHeap(key, event)
      const snapshot = snapshotOf(event)
      if (!snapshot) return
      if (typeof snapshot.DebugName === 'string' && snapshot.DebugName) heap.record.name = snapshot.DebugName
      const segment = HEAP_SEGMENTS[snapshot.HeapSegment as number]
      if (segment !== undefined) heap.record.memory = segment
      const size = snapshot.SizeInBytes
      if (typeof size !== 'number') return
      if (!heap.emitted) {
        heap.record.size = size
        this.emitHeap(heap)
      } else if (size !== heap.record.size) {
        this.notes.add('heapSize', `Heap ${key}: a snapshot says ${size} bytes, its creation said ${heap.record.size}`)
      }
    } else if (event.ph === 'D') {
      const heap = this.heaps.get(key)
      if (!heap) {
        this.notes.add('unknownHeap', `Heap ${key} is deleted but was never created in the trace`)
        return
      }
      this.heaps.delete(key)
      if (this.requests) return
      if (heap.emitted) this.records.push({ e: 'free', id: heap.record.id })
      else this.notes.add('heapWithoutSize', `Heap ${key} never said its size: it is not imported`)
    }
  }

  private newHeap(key: string, event: TraceEvent): GpgmmHeap {
    const desc = this.heapDescs.get(event.tid)
    this.heapDescs.delete(event.tid)
    // a heap made while a request waits on this thread was made for it, and has its heap type: on a UMA adapter
    // GPGMM makes every heap CUSTOM write-back L0, whatever the request
    const serving = this.waiting.get(event.tid)?.[0]
    const kind = serving ? serving.heapKind : heapKindOfProperties(desc?.Properties)
    const record: HeapRecord = { e: 'heap', id: this.nextId++, size: 0, type: kind }
    const heap: GpgmmHeap = { record, emitted: false, madeFor: serving }
    this.heaps.set(key, heap)
    this.heapsById.set(record.id, heap)
    if (serving && serving.record.gpgmm?.heap === undefined) {
      serving.record.gpgmm = { ...serving.record.gpgmm, heap: record.id }
    }
    if (typeof desc?.SizeInBytes === 'number') {
      record.size = desc.SizeInBytes
      this.emitHeap(heap)
    }
    return heap
  }

  private emitHeap(heap: GpgmmHeap): void {
    heap.emitted = true
    if (this.requests) return
    this.records.push(heap.record)
    for (const request of this.allocations.values()) if (request.record.gpgmm?.heap === heap.record.id) this.place(request)
  }

  // -- settings ---------------------------------------------------------------------------------------------------

  private residencyManager(snapshot: Record<string, unknown> | undefined): void {
    if (!snapshot) return
    this.residencySnapshot ??= snapshot
    if (typeof snapshot.IsUMA === 'number' || typeof snapshot.IsUMA === 'boolean') this.uma = Boolean(snapshot.IsUMA)
    const budget = snapshot.MaxBudgetInBytes
    if (typeof budget !== 'number' || budget <= 0 || budget === this.lastBudget) return
    this.lastBudget = budget
    // the header holds the budget at the start; a change once requests have been made is a budget record
    if (this.budget === undefined && this.nextId === 1) this.budget = budget
    else this.records.push({ e: 'budget', bytes: budget })
  }

  private resourceAllocator(snapshot: Record<string, unknown> | undefined): void {
    if (!snapshot) return
    this.allocatorSnapshot ??= snapshot
    if (typeof snapshot.ResourceHeapTier === 'number') this.resourceHeapTier = snapshot.ResourceHeapTier
  }

  private finish(): void {
    let unmatched = 0
    for (const queue of this.waiting.values()) unmatched += queue.length
    if (unmatched) {
      this.notes.add('unmatchedRequest', `${unmatched} ${CREATE_RESOURCE} request(s) never got a ResourceAllocation: they stay live to the end`)
    }
    if (this.scan.unterminated) this.notes.add('unterminated', "the event array has no closing ']' (allowed by the trace-event format)")
    if (this.mode !== 'time') this.notes.add('frames', `frames are cut at ${this.mode === 'frame-markers' ? 'frame' : 'submit'} markers`)
  }

  private header(): CaptureHeader {
    let app = this.collected.processName
    if (app === undefined) {
      // without a process name, the thread that made the requests names the capture
      let busiest: string | undefined
      for (const [tid, count] of this.requestsByThread) if (!busiest || count > this.requestsByThread.get(busiest)!) busiest = tid
      if (busiest !== undefined) app = this.collected.threads.get(busiest)
    }
    const adapter = compact({ uma: this.uma, resourceHeapTier: this.resourceHeapTier })
    const threads: Record<string, string> = {}
    for (const [tid, name] of this.collected.threads) threads[tid] = name
    return compact<CaptureHeader>({
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      // 1.5: what GPGMM did is an observed trace, its heaps with their segment; the requests alone are not
      minor: this.requests ? undefined : OBSERVED_MINOR,
      api: 'd3d12',
      observed: this.requests ? undefined : 'gpgmm',
      app,
      adapter: Object.keys(adapter).length ? adapter : undefined,
      budget: this.budget,
      source: GPGMM_FORMAT,
      gpgmm: compact({
        pid: this.collected.pid,
        threads,
        frames: this.mode === 'time' ? { mode: 'time', micros: this.frameMicros } : { mode: this.mode },
        allocator: this.allocatorSnapshot,
        residencyManager: this.residencySnapshot,
        trace: Object.keys(this.scan.other).length ? this.scan.other : undefined,
      }),
    })
  }

  // -- checked access ---------------------------------------------------------------------------------------------

  private integer(value: unknown, event: TraceEvent, field: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      this.fail(event, `a non-negative integer ${field}`, JSON.stringify(value) ?? 'nothing')
    }
    return value as number
  }

  private fail(event: TraceEvent, expected: string, found?: string): never {
    const what = `the ${event.name} event: expected ${expected}${found === undefined ? '' : `, found ${found}`}`
    throw new ImportError(this.file, what, {
      offset: this.text.byteOffset(event.at),
      line: this.text.lineAt(event.at),
      expected,
    })
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isBegin(ph: string): boolean {
  return ph === 'B' || ph === 'X' || ph === 'i' || ph === 'I' || ph === 'R'
}

/**
 * A heap snapshot's HeapSegment, the DXGI_MEMORY_SEGMENT_GROUP GPGMM counts it against: the heap's `memory` in an
 * observed run.
 */
const HEAP_SEGMENTS: Record<number, string> = { 0: 'local', 1: 'non-local' }

function snapshotOf(event: TraceEvent): Record<string, unknown> | undefined {
  const snapshot = event.args?.snapshot
  return isObject(snapshot) ? snapshot : undefined
}

/**
 * GPGMM's own rule when the heap type is not given (CreateResourceInternal): a state within GENERIC_READ is UPLOAD
 * (COMMON, 0, included), one within COPY_DEST is READBACK, anything else DEFAULT.
 */
function heapTypeOfState(state: unknown): number {
  if (typeof state !== 'number' || !Number.isInteger(state)) return HEAP_DEFAULT
  if ((state & ~STATE_GENERIC_READ) === 0) return HEAP_UPLOAD
  if ((state & ~STATE_COPY_DEST) === 0) return HEAP_READBACK
  return HEAP_DEFAULT
}

function heapKindOfProperties(properties: unknown): HeapKind {
  if (!isObject(properties)) return 'default'
  const type = properties.Type
  if (type === HEAP_UPLOAD) return 'upload'
  if (type === HEAP_READBACK) return 'readback'
  if (type !== HEAP_CUSTOM || properties.MemoryPoolPreference === MEMORY_POOL_L1) return 'default'
  if (properties.CPUPageProperty === CPU_PAGE_WRITE_BACK) return 'readback'
  if (properties.CPUPageProperty === CPU_PAGE_WRITE_COMBINE) return 'upload'
  return 'default'
}

function fullMipChain(width: number, height: number, depth: number): number {
  let largest = Math.max(width, height, depth, 1)
  let mips = 1
  while (largest > 1) {
    largest = Math.floor(largest / 2)
    mips++
  }
  return mips
}
