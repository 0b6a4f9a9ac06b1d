/**
 * The replay of a Vulkan capture: its records through the Vulkan model (src/main/model/vulkan, docs/vulkan-model.md)
 * once, folded into per-frame series per memory heap and per memory type, totals and tags in the names the
 * D3D12 replay uses, the aliasing checks and the model's API-usage warnings as they happen, and checkpoints of
 * the model every so many records, so a snapshot at any frame replays a bounded stretch from the one before it.
 * There is no residency: Vulkan leaves it to the driver.
 */
import {
  UPLOAD_VIAS,
  type AnyCaptureRecord,
  type BindRecord,
  type CaptureHeader,
  type FlushRecord,
  type FrameRecord,
  type GpuRecord,
  type LockRecord,
  type MapRecord,
  type ReleaseRecord,
  type UnmapRecord,
  type UploadRecord,
  type WriteRecord,
} from '../../../shared/capture'
import { SERIES, type SeriesInfo, type VulkanRunInfo } from '../../../shared/ipc'
import { CHECK_SERIES, keepsEmpty, SERIES_NAME, TOTAL_SERIES, UPLOAD_SERIES, VULKAN_UPLOAD_SERIES } from '../../../shared/series'
import type { Bytes } from '../../../shared/units'
import { recordAt } from '../../ingest/records'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import type { ExtrasCursor } from '../../ingest/recordExtras'
import { AliasingChecker, placedSize } from '../../model/aliasing/checker'
import type {
  VulkanBudgetRecord,
  VulkanBufferRecord,
  VulkanCaptureRecord,
  VulkanPlacedRecord,
  VulkanResourceFields,
  VulkanTextureRecord,
} from '../../model/vulkan/captureTypes'
import { resolveVulkanConfig, VULKAN_CONFIG_KEYS, type VulkanConfig } from '../../model/vulkan/config'
import { vulkanSetup, type VulkanSetup } from '../../model/vulkan/device'
import {
  VULKAN_PLACEMENTS,
  VULKAN_RULES,
  type UploadRoute,
  type VulkanMemoryKind,
  type VulkanPlacementInfo,
  type VulkanSink,
} from '../../model/vulkan/events'
import { IdTable } from '../../model/idTable'
import { VulkanModel } from '../../model/vulkan/model'
import { AliasingFeed, HazardLog } from '../hazards'
import { Findings } from '../checks'
import { DescScratch } from '../descScratch'
import type { FrameGate, ReplayProgress } from '../backend'
import { Checkpoints, liveColumns, type Checkpoint, type CheckpointOptions } from '../checkpoints'
import { SeriesTable } from '../seriesTable'
import { TagTotals } from '../tags'
import { retainedBytes } from '../../model/retainedBytes'

/** Per memory heap, per frame. */
export const VK_HEAP_FIELDS = [
  'allocatedBytes',
  'usedBytes',
  'freeBytes',
  'pendingFreeBytes',
  'blockBytes',
  'dedicatedBytes',
  'frameBytes',
  'appBytes',
  'memoryCount',
  'budgetBytes',
] as const
/** Per memory type, per frame. */
export const VK_TYPE_FIELDS = [
  'allocatedBytes',
  'usedBytes',
  'freeBytes',
  'pendingFreeBytes',
  'blockBytes',
  'dedicatedBytes',
  'frameBytes',
  'appBytes',
  'memoryCount',
  'allocationCount',
] as const
export type VkHeapField = (typeof VK_HEAP_FIELDS)[number]
export type VkTypeField = (typeof VK_TYPE_FIELDS)[number]

const FIELD_LABEL: Record<VkHeapField | VkTypeField, string> = {
  allocatedBytes: 'allocated',
  usedBytes: 'used',
  freeBytes: 'free in its memory',
  pendingFreeBytes: 'pending free',
  blockBytes: 'sub-allocated blocks',
  dedicatedBytes: 'dedicated allocations',
  frameBytes: 'per-frame memory (linear, staging)',
  appBytes: 'application memory',
  memoryCount: 'VkDeviceMemory objects',
  budgetBytes: 'budget',
  allocationCount: 'resources',
}
const COUNT_FIELDS = new Set<string>(['memoryCount', 'allocationCount'])

export const vulkanSeriesName = {
  heap: (heap: number, field: VkHeapField) => SERIES_NAME.vkHeap(heap, field),
  type: (type: number, field: VkTypeField) => SERIES_NAME.vkType(type, field),
  tag: SERIES_NAME.tag,
}

export { CHECK_SERIES, VULKAN_UPLOAD_SERIES }

/** What a VkDeviceMemory is for, as the series split the bytes. */
const CLASS_BLOCK = 0
const CLASS_DEDICATED = 1
const CLASS_FRAME = 2
const CLASS_APP = 3
const CLASSES = 4
const CLASS_FIELD = ['blockBytes', 'dedicatedBytes', 'frameBytes', 'appBytes'] as const

function classOf(kind: VulkanMemoryKind): number {
  switch (kind) {
    case 'block':
    case 'buddy':
      return CLASS_BLOCK
    case 'dedicated':
      return CLASS_DEDICATED
    case 'linear':
    case 'staging':
      return CLASS_FRAME
    case 'app':
      return CLASS_APP
  }
}

const P_LINEAR = VULKAN_PLACEMENTS.indexOf('Linear')
const P_BOUND = VULKAN_PLACEMENTS.indexOf('Bound')

/** "Heap 1", "Type 0": the names reports, resource rows and the summary use. */
export const heapName = (index: number) => `Heap ${index}`
export const typeName = (index: number) => `Type ${index}`

/**
 * A checkpoint every this many records: half the D3D12 replay's CHECKPOINT_RECORDS, as a Vulkan record costs about
 * twice as much to replay (the memory type's choice, the free lists' best fit, the usage rules). On the scaling
 * bench's vulkan-12000 capture (36 000 alive), one VulkanSnapshots over 100 frames: p95 65 ms at 25 000 records,
 * 47 ms at 12 500, for 19 checkpoints of 2.2 MiB (43 MiB) instead of 10, and a replay 5 to 10 % longer
 * (bench/README.md, "Vulkan: the replay's maps by id, and its snapshots").
 */
export const VULKAN_CHECKPOINT_RECORDS = 12_500

export interface VulkanReplayOptions extends CheckpointOptions {
  config: VulkanConfig
  signal?: AbortSignal
  onProgress?: (progress: ReplayProgress) => void
  /** The capture is still being written: the store grows, and the replay waits at its end for more. */
  gate?: FrameGate
  /** The series to keep (SeriesTableOptions.keep); all when absent. */
  keepSeries?: (name: string) => boolean
  /**
   * A replay read only for its report, with no checkpoint past the first: it runs no aliasing checks, keeps no map
   * of the live creates and no tag totals (their series stay zero). The Vulkan usage warnings are still raised.
   */
  reportOnly?: boolean
}

/**
 * The Vulkan config a run replays with: the Vulkan keys of the capture header's config (other models' keys are
 * left to them), then the user's overrides; D3D12 keys among those are skipped, unknown keys throw ConfigError.
 */
export function vulkanConfigOf(
  header: CaptureHeader,
  overrides: Record<string, string | number | boolean> = {},
): VulkanConfig {
  const captured: Record<string, number | boolean> = {}
  for (const [key, value] of Object.entries(header.config ?? {})) {
    if (Object.hasOwn(VULKAN_CONFIG_KEYS, key)) captured[key] = value
  }
  return resolveVulkanConfig(captured, overrides)
}

/**
 * Whether a capture replays through the Vulkan model: its API is Vulkan and it records what the application asked
 * for. A Radeon Memory Visualizer trace of a Vulkan application is what the driver did (its allocations and their
 * residency, observed): the D3D12 replay's observed heaps and residency show it, and no Vulkan device comes with it.
 */
export function isVulkanRun(header: CaptureHeader): boolean {
  return header.api === 'vulkan' && header.source !== 'rmv'
}

/** The device of a run as the summary shows it; its name is the adapter's when the device block has none. */
export function vulkanRunInfo(setup: VulkanSetup, header?: CaptureHeader): VulkanRunInfo {
  const d = setup.device
  const info: VulkanRunInfo = {
    heaps: d.memoryHeaps.map((h, index) => ({
      index,
      name: heapName(index),
      size: h.size,
      flags: h.flags.slice(),
      ...(h.budget !== undefined ? { budget: h.budget } : {}),
    })),
    types: d.memoryTypes.map((t, index) => ({
      index,
      name: typeName(index),
      heapIndex: t.heapIndex,
      propertyFlags: t.propertyFlags.slice(),
    })),
    maxMemoryAllocationCount: d.maxMemoryAllocationCount,
    bufferImageGranularity: d.bufferImageGranularity,
    nonCoherentAtomSize: d.nonCoherentAtomSize,
    defaulted: setup.defaulted,
    problems: setup.problems.slice(),
    diagnostics: {},
  }
  const name = d.deviceName ?? header?.adapter?.name
  if (typeof name === 'string') info.deviceName = name
  if (d.apiVersion !== undefined) info.apiVersion = d.apiVersion
  return info
}

/**
 * Records from the store to a VulkanModel. The frequent kinds go through objects reused for every record, a
 * resource's desc through the D3D12 replay's desc scratch plus its Vulkan fields (kept among the record's
 * extra keys, parsed once per distinct text), a `write` or `flush` kept as operands through one of its own;
 * heaps, placed resources and the other 1.1 records as whole objects.
 */
export class VulkanFeed {
  private readonly descs: DescScratch
  private readonly frame: FrameRecord = { e: 'frame', n: 0 }
  private readonly gpu: GpuRecord = { e: 'gpu', n: 0 }
  private readonly release: ReleaseRecord = { e: 'release', id: 0 }
  private readonly upload: UploadRecord = { e: 'upload', via: 'fast', bytes: 0, count: 1 }
  private readonly lock: LockRecord = { e: 'lock', id: 0, bytes: 0 }
  private readonly budget: VulkanBudgetRecord = { e: 'budget', bytes: 0 }
  private readonly free = { id: 0 }
  private readonly buffer: VulkanBufferRecord = { e: 'buffer', id: 0, size: 0 }
  private readonly texture: VulkanTextureRecord = { e: 'texture', id: 0 }
  /**
   * A `bind`, `map`, `unmap`, `write` and `flush` kept as operands (store.ts) go through these, their absent members
   * undefined, as the JSON of one would give none.
   */
  private readonly bind: BindRecord = { e: 'bind', id: 0, memory: 0, offset: 0 }
  private readonly map: MapRecord = { e: 'map', memory: 0 }
  private readonly unmap: UnmapRecord = { e: 'unmap', memory: 0 }
  private readonly write: WriteRecord = { e: 'write', offset: 0, size: 0 }
  private readonly flush: FlushRecord = { e: 'flush', offset: 0 }
  /** The last record handed over as a whole object (heap, placed, bind, map, unmap, write, flush). */
  last: AnyCaptureRecord | null = null
  /**
   * The Vulkan fields of the extra keys read so far: resources of one kind repeat theirs (the same requirements,
   * the same wanted flags), so most records parse nothing. By the text's number where the load gave it one
   * (RecordExtras.idAt), else by the text. The model only reads these objects.
   */
  private readonly fieldsById: (VulkanResourceFields | undefined)[] = []
  private readonly fieldsByExtras = new Map<string, VulkanResourceFields>()
  /** The records' extra keys, read in the order the replays ask for them. */
  private readonly extras: ExtrasCursor

  constructor(private readonly store: CaptureStore) {
    this.descs = new DescScratch(store)
    this.extras = store.extras.cursor()
  }

  /** Whether the Vulkan model reads a record kind. */
  static reads(kind: number): boolean {
    return !(kind === RECORD_KIND.use || kind === RECORD_KIND.commit || kind === RECORD_KIND.graph || kind === RECORD_KIND.transient || kind === RECORD_KIND.endgraph)
  }

  apply(model: VulkanModel, index: number): void {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    const ops = store.ops
    model.record = index
    switch (kind) {
      case RECORD_KIND.frame:
        this.frame.n = store.frames.n[ref]
        model.onFrame(this.frame)
        return
      case RECORD_KIND.gpu:
        this.gpu.n = ops[ref]
        model.onGpu(this.gpu)
        return
      case RECORD_KIND.buffer: {
        // the Vulkan model never reads a name or a tag: they stay in the store, undecoded
        const b = this.buffer
        this.descs.bufferFields(ref, b)
        b.id = store.buffers.id.data[ref]
        b.mask = store.buffers.usage.data[ref]
        this.vulkanFields(index, b)
        model.onBuffer(b)
        return
      }
      case RECORD_KIND.texture: {
        const t = this.texture
        this.descs.textureFields(ref, t)
        t.mask = store.textures.flags.data[ref]
        t.id = store.textures.id.data[ref]
        this.vulkanFields(index, t)
        model.onTexture(t)
        return
      }
      case RECORD_KIND.release:
        this.release.id = ops[ref]
        model.onRelease(this.release)
        return
      case RECORD_KIND.upload:
        this.upload.via = UPLOAD_VIAS[ops[ref]]
        this.upload.bytes = ops[ref + 1]
        this.upload.count = ops[ref + 2]
        model.onUpload(this.upload)
        return
      case RECORD_KIND.lock:
        this.lock.id = ops[ref]
        this.lock.bytes = ops[ref + 1]
        model.onLock(this.lock)
        return
      case RECORD_KIND.budget:
        this.budget.bytes = ops[ref]
        this.budget.heap = Number.isNaN(ops[ref + 1]) ? undefined : ops[ref + 1]
        model.onBudget(this.budget)
        return
      case RECORD_KIND.submit:
        model.onSubmit()
        return
      case RECORD_KIND.free:
        this.free.id = ops[ref]
        model.onFree(this.free)
        return
      case RECORD_KIND.write:
      case RECORD_KIND.flush:
        // operands, unless the record has its JSON (raw ≥ 0)
        if (ops[ref + 4] >= 0) this.applyWhole(model, index)
        else if (kind === RECORD_KIND.write) model.onWrite(this.range(this.write, ref))
        else model.onFlush(this.range(this.flush, ref))
        return
      case RECORD_KIND.bind:
        if (ops[ref + 4] >= 0) return this.applyWhole(model, index)
        this.bind.id = ops[ref]
        this.bind.memory = ops[ref + 1]
        this.bind.offset = ops[ref + 2]
        this.last = this.bind
        model.onBind(this.bind)
        return
      case RECORD_KIND.map: {
        if (ops[ref + 4] >= 0) return this.applyWhole(model, index)
        const map = this.map
        map.memory = ops[ref + 1]
        map.offset = Number.isNaN(ops[ref + 2]) ? undefined : ops[ref + 2]
        map.size = Number.isNaN(ops[ref + 3]) ? undefined : ops[ref + 3]
        this.last = map
        model.onMap(map)
        return
      }
      case RECORD_KIND.unmap:
        if (ops[ref + 4] >= 0) return this.applyWhole(model, index)
        this.unmap.memory = ops[ref + 1]
        this.last = this.unmap
        model.onUnmap(this.unmap)
        return
      case RECORD_KIND.heap:
      case RECORD_KIND.placed:
        this.applyWhole(model, index)
        return
    }
  }

  /** A record the model takes as a whole object, read back from the store. */
  private applyWhole(model: VulkanModel, index: number): void {
    const record = recordAt(this.store, index)
    this.last = record
    model.apply(record as VulkanCaptureRecord)
  }

  /** A `write` or `flush` kept as operands [id, memory, offset, size, -1], into its reused object. */
  private range<R extends WriteRecord | FlushRecord>(range: R, ref: number): R {
    const ops = this.store.ops
    const id = ops[ref]
    const memory = ops[ref + 1]
    const size = ops[ref + 3]
    range.id = Number.isNaN(id) ? undefined : id
    range.memory = Number.isNaN(memory) ? undefined : memory
    range.offset = ops[ref + 2]
    // a write always has its size; a flush without one flushes to the end (VK_WHOLE_SIZE)
    ;(range as FlushRecord).size = Number.isNaN(size) ? undefined : size
    this.last = range as AnyCaptureRecord
    return range
  }

  /** The id a record creates (buffer, texture, placed), or NaN. */
  createdId(index: number): number {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    if (kind === RECORD_KIND.buffer) return store.buffers.id.data[ref]
    if (kind === RECORD_KIND.texture) return store.textures.id.data[ref]
    if (kind === RECORD_KIND.placed) return store.placed.id.data[ref]
    return NaN
  }

  /** The id a record ends the life of, or NaN. (A stored `free` always names a live heap, never a resource.) */
  endedId(index: number): number {
    return this.store.records.kind[index] === RECORD_KIND.release ? this.store.ops[this.store.records.ref[index]] : NaN
  }

  /** The tag string id of a create record, 0 when none. */
  tagOf(index: number): number {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    if (kind === RECORD_KIND.buffer) return store.buffers.tag.data[ref]
    if (kind === RECORD_KIND.texture) return store.textures.tag.data[ref]
    if (kind === RECORD_KIND.placed) {
      const desc = store.placed.desc.data[ref]
      return store.placed.kind.data[ref] === 0 ? store.buffers.tag.data[desc] : store.textures.tag.data[desc]
    }
    return 0
  }

  /** The 1.1 fields of a buffer or texture record, from its extra keys; cleared when it has none. */
  private vulkanFields(index: number, out: VulkanResourceFields): void {
    const at = this.extras.find(index)
    let x = NO_FIELDS
    if (at >= 0) {
      const id = this.store.extras.idAt(at)
      if (id > 0) x = this.fieldsById[id] ?? (this.fieldsById[id] = parseFields(this.store.extras.textAt(at)))
      else {
        // a text the load did not number, as one that holds a callstack id of its own: kept by the members read
        const text = vulkanMembers(this.store.extras.textAt(at))
        x = this.fieldsByExtras.get(text) ?? this.keep(text, parseFields(text))
      }
    }
    out.memoryRequirements = x.memoryRequirements
    out.required = x.required
    out.preferred = x.preferred
    out.tiling = x.tiling
    out.dedicated = x.dedicated
    out.explicit = x.explicit
  }

  /** Keep the fields of a text the load gave no number (bounded: past FIELDS_KEPT, the last ones). */
  private keep(text: string, fields: VulkanResourceFields): VulkanResourceFields {
    if (this.fieldsByExtras.size >= FIELDS_KEPT) this.fieldsByExtras.clear()
    this.fieldsByExtras.set(text, fields)
    return fields
  }
}

/** The 1.1 fields among a record's extra keys. */
function parseFields(extras: string): VulkanResourceFields {
  const x = JSON.parse(`{${extras}}`) as VulkanResourceFields
  return {
    memoryRequirements: x.memoryRequirements,
    required: x.required,
    preferred: x.preferred,
    tiling: x.tiling,
    dedicated: x.dedicated,
    explicit: x.explicit,
  }
}

/** The keys of the 1.1 fields (VulkanResourceFields), each with its quotes. */
const FIELD_KEYS = ['"memoryRequirements"', '"required"', '"preferred"', '"tiling"', '"dedicated"', '"explicit"']
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c

/**
 * The members of an extra-keys text (`"k":v,…`) whose keys are the 1.1 fields', in their order, joined by commas:
 * what parseFields reads of the text, so texts that differ only in other members (a callstack id, a debug name)
 * give the same string. A key written with an escape is kept, as JSON.parse might read it as a field's.
 */
export function vulkanMembers(text: string): string {
  let kept = ''
  let depth = 0
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : COMMA
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++
    } else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) depth--
    else if (c === COMMA && depth === 0) {
      let from = start
      while (from < i && text.charCodeAt(from) <= 0x20) from++
      if (readMember(text, from)) kept = kept === '' ? text.slice(from, i) : `${kept},${text.slice(from, i)}`
      start = i + 1
    }
  }
  return kept
}

/** Whether the member at `from` is one parseFields reads: a 1.1 field's key, or a key with an escape. */
function readMember(text: string, from: number): boolean {
  for (const key of FIELD_KEYS) if (text.startsWith(key, from)) return true
  const end = text.indexOf('"', from + 1)
  return text.lastIndexOf('\\', end) > from
}

/** A resource record without extra keys: no Vulkan field. */
const NO_FIELDS: VulkanResourceFields = {}
/** How many distinct extra-key texts without a number (past the load's table) VulkanFeed keeps parsed. */
export const FIELDS_KEPT = 1 << 16

/** Live placements (not released) as columns, a row per id (found in an IdTable), rows recycled. */
class LivePlacements {
  private readonly rows = new IdTable()
  private free: number[] = []
  private capacity = 256
  tag = new Int32Array(this.capacity)
  placement = new Uint8Array(this.capacity)
  heap = new Int32Array(this.capacity)
  type = new Int32Array(this.capacity)
  memory = new Float64Array(this.capacity)
  size = new Float64Array(this.capacity)
  requested = new Float64Array(this.capacity)

  get count(): number {
    return this.rows.size
  }

  row(id: number): number {
    return this.rows.get(id) ?? -1
  }

  set(info: VulkanPlacementInfo, tag: number): number {
    let row = this.rows.get(info.id)
    if (row === undefined) {
      row = this.free.length > 0 ? (this.free.pop() as number) : this.rows.size
      if (row >= this.capacity) this.grow()
      this.rows.set(info.id, row)
    }
    this.tag[row] = tag
    this.placement[row] = VULKAN_PLACEMENTS.indexOf(info.placement)
    this.heap[row] = info.heap
    this.type[row] = info.type
    this.memory[row] = info.memory
    this.size[row] = info.size
    this.requested[row] = info.requested
    return row
  }

  delete(id: number): void {
    const row = this.rows.get(id)
    if (row === undefined) return
    this.rows.delete(id)
    this.free.push(row)
  }

  /** Ids placed in a memory. */
  idsIn(memory: number): number[] {
    const out: number[] = []
    this.rows.forEach((row, id) => {
      if (this.memory[row] === memory) out.push(id)
    })
    return out
  }

  private grow(): void {
    this.capacity *= 2
    const grown = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity)
      b.set(a)
      return b
    }
    this.tag = grown(this.tag)
    this.placement = grown(this.placement)
    this.heap = grown(this.heap)
    this.type = grown(this.type)
    this.memory = grown(this.memory)
    this.size = grown(this.size)
    this.requested = grown(this.requested)
  }
}

export class VulkanReplay {
  readonly api = 'vulkan' as const
  readonly store: CaptureStore
  readonly config: VulkanConfig
  readonly setup: VulkanSetup
  readonly series: SeriesTable
  readonly checks: HazardLog
  /** The model's other warnings (memory-type-fallback, staging-ring-full, unknown-id, …): kind → count. */
  readonly diagnostics: Record<string, number> = {}
  /** Reused record objects (snapshots and playback replay through them too). */
  readonly feed: VulkanFeed
  private readonly checkpoints: Checkpoints<VulkanModel>
  private final: VulkanModel | undefined
  /** The live creates at the end of the replay, where it kept them (not a report's): finalState's. */
  private finalCreated: IdTable | undefined

  private constructor(store: CaptureStore, options: VulkanReplayOptions, growing: boolean) {
    this.store = store
    this.config = options.config
    this.checkpoints = new Checkpoints(store, { ...options, checkpointRecords: options.checkpointRecords ?? VULKAN_CHECKPOINT_RECORDS })
    this.setup = vulkanSetup(store.header)
    this.series = new SeriesTable(store.frames.n, { growing, keep: options.keepSeries })
    this.checks = new HazardLog(this.setup.aliasing, store.frames.n)
    this.feed = new VulkanFeed(store)
  }

  static async run(store: CaptureStore, options: VulkanReplayOptions): Promise<VulkanReplay> {
    const replay = new VulkanReplay(store, options, false)
    await replay.play(options)
    return replay
  }

  /** Replay a capture still being written, through `options.gate` (as Replay.follow). */
  static follow(
    store: CaptureStore,
    options: VulkanReplayOptions & { gate: FrameGate },
  ): { replay: VulkanReplay; done: Promise<void> } {
    return VulkanReplay.start(store, options)
  }

  /** The replay at once and the end of its replay: a followed one (`options.gate`) or a whole one. */
  static start(store: CaptureStore, options: VulkanReplayOptions): { replay: VulkanReplay; done: Promise<void> } {
    const replay = new VulkanReplay(store, options, options.gate !== undefined)
    return { replay, done: replay.play(options) }
  }

  get device() {
    return this.setup.device
  }

  info(): VulkanRunInfo {
    return { ...vulkanRunInfo(this.setup, this.store.header), diagnostics: { ...this.diagnostics } }
  }

  private async play(options: VulkanReplayOptions): Promise<void> {
    const store = this.store
    const gate = options.gate
    let frames = store.frames.length
    /** The store holds the whole capture: its last frame is the capture's last. */
    let captureEnded = !gate
    const series = this.series
    const device = this.device
    const heaps = device.memoryHeaps.length
    const types = device.memoryTypes.length
    const checkpoints = this.checkpoints
    const feed = this.feed
    const log = this.checks

    let frame = 0
    let index = 0
    let kind = 0
    /** The frame index a finding of frame number `n` belongs to: this one, or the one a frame record just ended. */
    const frameIndexOf = (n: number): number => (n === store.frames.n[frame] || frame === 0 ? frame : frame - 1)

    // Tags of live placements.
    const tags = new TagTotals(store, series)

    // Bytes by what each VkDeviceMemory is for, per heap and per type; the capture's id of application memory.
    const classByHeap = new Float64Array(heaps * CLASSES)
    const classByType = new Float64Array(types * CLASSES)
    const memories = new Map<number, { cls: number; heap: number; type: number; size: Bytes }>()
    const captureIdOf = new Map<number, number>()
    // Releases waiting for the GPU, in the model's order (it frees them first in, first out).
    const pendingByHeap = new Float64Array(heaps)
    const pendingByType = new Float64Array(types)
    const pending: number[] = [] // heap, type, bytes per entry
    let pendingHead = 0
    const live = new LivePlacements()
    let liveRequested = 0
    const tick = { linear: 0, staging: 0, overflow: 0 }
    let created = new IdTable()
    const raised: { rule: string; message: string; frame: number }[] = []

    const reportOnly = options.reportOnly === true
    const unplace = (id: number, row: number) => {
      if (!reportOnly) tags.remove(live.tag[row], live.size[row], live.requested[row])
      liveRequested -= live.requested[row]
      live.delete(id)
    }

    const sink: VulkanSink = {
      memoryAllocated: (info) => {
        const cls = classOf(info.kind)
        memories.set(info.memory, { cls, heap: info.heap, type: info.type, size: info.size })
        classByHeap[info.heap * CLASSES + cls] += info.size
        classByType[info.type * CLASSES + cls] += info.size
        if (info.captureId >= 0) captureIdOf.set(info.memory, info.captureId)
      },
      memoryFreed: (memory) => {
        const m = memories.get(memory)
        if (!m) return
        memories.delete(memory)
        classByHeap[m.heap * CLASSES + m.cls] -= m.size
        classByType[m.type * CLASSES + m.cls] -= m.size
        if (m.cls === CLASS_APP) {
          // Resources bound to freed application memory are unbound with it, without a release.
          for (const id of live.idsIn(memory)) unplace(id, live.row(id))
        }
        captureIdOf.delete(memory)
      },
      vulkanPlaced: (info) => {
        const previous = live.row(info.id)
        if (previous >= 0) unplace(info.id, previous)
        if (reportOnly) live.set(info, 0)
        else {
          const record = created.get(info.id)
          const slot = tags.slotOf(record === undefined ? 0 : feed.tagOf(record))
          live.set(info, slot)
          tags.add(slot, info.size, info.requested)
        }
        liveRequested += info.requested
      },
      releasePending: (id) => {
        const row = live.row(id)
        if (row < 0) return
        // Linear pieces are the frame's bump; their bytes go with the block, not one by one.
        const bytes = live.placement[row] === P_LINEAR ? 0 : live.size[row]
        pending.push(live.heap[row], live.type[row], bytes)
        pendingByHeap[live.heap[row]] += bytes
        pendingByType[live.type[row]] += bytes
        unplace(id, row)
      },
      freed: (id) => {
        // The GPU finished a release (a frame or gpu record moved its fence), or a bound resource went at once.
        if (kind === RECORD_KIND.frame || kind === RECORD_KIND.gpu) {
          if (pendingHead >= pending.length) return
          pendingByHeap[pending[pendingHead]] -= pending[pendingHead + 2]
          pendingByType[pending[pendingHead + 1]] -= pending[pendingHead + 2]
          pendingHead += 3
          if (pendingHead > 3 * 4096 && pendingHead * 2 > pending.length) {
            pending.splice(0, pendingHead)
            pendingHead = 0
          }
          return
        }
        const row = live.row(id)
        if (row >= 0 && live.placement[row] === P_BOUND) unplace(id, row)
      },
      uploaded: (route: UploadRoute, bytes) => {
        tick[route] += bytes
      },
      warning: (warningKind, message, at) => {
        if ((VULKAN_RULES as readonly string[]).includes(warningKind)) raised.push({ rule: warningKind, message, frame: at })
        else this.diagnostics[warningKind] = (this.diagnostics[warningKind] ?? 0) + 1
      },
    }
    const model = new VulkanModel(device, this.config, sink, { gpuRecords: this.store.hasGpuRecords })
    const checker = new AliasingChecker({
      model: this.setup.aliasing,
      api: 'vulkan',
      onHazard: (hazard) => findings.hazard(frameIndexOf(hazard.frame), hazard),
    })
    const aliasing = new AliasingFeed(store, checker)

    const flushWarnings = () => {
      if (raised.length === 0) return
      const where = this.attribution(kind, index, model, captureIdOf)
      for (const w of raised) {
        findings.warning(frameIndexOf(w.frame), w.rule, w.message, where.resources.slice(), where.heap, where.range)
      }
      raised.length = 0
    }

    // Columns.
    const info = (name: string, label: string, unit: SeriesInfo['unit'], group: string): SeriesInfo => ({ name, label, unit, group })
    const heapLabel = (h: number) => `${heapName(h)} (${device.memoryHeaps[h].flags.join('|') || 'system'})`
    const typeLabel = (t: number) => `${typeName(t)} (${device.memoryTypes[t].propertyFlags.join('|') || 'none'})`
    const unit = (field: string): SeriesInfo['unit'] => (COUNT_FIELDS.has(field) ? 'count' : 'bytes')
    const heapColumns = Array.from({ length: heaps }, (_, h) =>
      VK_HEAP_FIELDS.map((f) =>
        series.column(info(vulkanSeriesName.heap(h, f), `${heapLabel(h)} ${FIELD_LABEL[f]}`, unit(f), 'vkheap')),
      ),
    )
    const typeColumns = Array.from({ length: types }, (_, t) =>
      VK_TYPE_FIELDS.map((f) =>
        series.column(info(vulkanSeriesName.type(t, f), `${typeLabel(t)} ${FIELD_LABEL[f]}`, unit(f), 'vktype')),
      ),
    )
    const total = {
      heap: series.column(info(TOTAL_SERIES.heapBytes, 'all heaps: allocated', 'bytes', 'heap')),
      occupied: series.column(info(TOTAL_SERIES.occupiedBytes, 'all heaps: used by live resources and frame data', 'bytes', 'heap')),
      requested: series.column(info(TOTAL_SERIES.requestedBytes, 'all heaps: requested', 'bytes', 'heap')),
    }
    const liveRequestedColumn = series.column(info(SERIES.liveRequested, 'live requested bytes', 'bytes', 'resources'))
    const liveCount = series.column(info(SERIES.liveCount, 'live resources', 'count', 'resources'))
    const up = {
      bytes: series.column(info(UPLOAD_SERIES.bytes, 'upload traffic', 'bytes', 'upload')),
      lock: series.column(info(UPLOAD_SERIES.lockBytes, 'lock staging', 'bytes', 'upload')),
      linear: series.column(info(VULKAN_UPLOAD_SERIES.linearBytes, 'per-frame linear allocator', 'bytes', 'upload')),
      staging: series.column(info(VULKAN_UPLOAD_SERIES.stagingBytes, 'staging ring', 'bytes', 'upload')),
      overflow: series.column(info(VULKAN_UPLOAD_SERIES.overflowBytes, 'temporary allocations', 'bytes', 'upload')),
    }
    const findings = new Findings(series, log, { warnings: 'Vulkan usage warnings' })
    const F_ALLOC = VK_HEAP_FIELDS.indexOf('allocatedBytes')
    const F_USED = VK_HEAP_FIELDS.indexOf('usedBytes')
    const F_FREE = VK_HEAP_FIELDS.indexOf('freeBytes')
    const F_PENDING = VK_HEAP_FIELDS.indexOf('pendingFreeBytes')
    const F_COUNT = VK_HEAP_FIELDS.indexOf('memoryCount')
    const F_BUDGET = VK_HEAP_FIELDS.indexOf('budgetBytes')
    const F_ALLOCATIONS = VK_TYPE_FIELDS.indexOf('allocationCount')
    const F_CLASS = CLASS_FIELD.map((f) => VK_HEAP_FIELDS.indexOf(f))

    let { kind: kinds, ref: refs } = store.records
    for (frame = 0; ; frame++) {
      if (frame >= frames) {
        if (!gate) break
        frames = await gate.wait(frame)
        captureEnded = gate.ended
        if (frame >= frames) break
        // the store grew: its columns may be new arrays
        ;({ kind: kinds, ref: refs } = store.records)
        series.grow(store.frames.n)
        log.frameNumbers = store.frames.n
        checkpoints.storeGrew()
      }
      const start = store.frames.firstRecord[frame]
      const end = frameEnd(store, frame)
      if (checkpoints.due(start)) checkpoints.add(this.checkpoint(frame, model, created))
      let uploadBytes = 0
      let lockBytes = 0
      for (index = start; index < end; index++) {
        kind = kinds[index]
        if (kind === RECORD_KIND.upload) uploadBytes += store.ops[refs[index] + 1]
        else if (kind === RECORD_KIND.lock) lockBytes += store.ops[refs[index] + 1]
        if (reportOnly) {
          if (VulkanFeed.reads(kind)) feed.apply(model, index)
          flushWarnings()
          continue
        }
        const id = feed.createdId(index)
        if (!Number.isNaN(id)) created.set(id, index)
        if (AliasingFeed.reads(kind)) aliasing.apply(index)
        if (VulkanFeed.reads(kind)) feed.apply(model, index)
        flushWarnings()
        const ended = feed.endedId(index)
        if (!Number.isNaN(ended)) created.delete(ended)
      }
      if (frame === frames - 1 && captureEnded) {
        // The last frame ends with the capture: its writes had to be flushed before its submit too.
        kind = RECORD_KIND.submit
        model.onSubmit()
        flushWarnings()
      }

      // Sample the frame.
      let allocated = 0
      let used = 0
      let pendingAll = 0
      for (let h = 0; h < heaps; h++) {
        const c = heapColumns[h]
        c[F_ALLOC][frame] = model.heapAllocated[h]
        c[F_USED][frame] = model.heapUsed[h]
        c[F_FREE][frame] = model.heapAllocated[h] - model.heapUsed[h]
        c[F_PENDING][frame] = pendingByHeap[h]
        for (let k = 0; k < CLASSES; k++) c[F_CLASS[k]][frame] = classByHeap[h * CLASSES + k]
        c[F_COUNT][frame] = model.heapMemoryCount[h]
        const budget = model.heapBudget[h]
        c[F_BUDGET][frame] = Number.isNaN(budget) ? 0 : budget
        allocated += model.heapAllocated[h]
        used += model.heapUsed[h]
        pendingAll += pendingByHeap[h]
      }
      for (let t = 0; t < types; t++) {
        const c = typeColumns[t]
        c[F_ALLOC][frame] = model.typeAllocated[t]
        c[F_USED][frame] = model.typeUsed[t]
        c[F_FREE][frame] = model.typeAllocated[t] - model.typeUsed[t]
        c[F_PENDING][frame] = pendingByType[t]
        for (let k = 0; k < CLASSES; k++) c[F_CLASS[k]][frame] = classByType[t * CLASSES + k]
        c[F_COUNT][frame] = model.typeMemoryCount[t]
        c[F_ALLOCATIONS][frame] = model.typeAllocationCount[t]
      }
      total.heap[frame] = allocated
      total.occupied[frame] = used - pendingAll
      total.requested[frame] = liveRequested
      liveRequestedColumn[frame] = liveRequested
      liveCount[frame] = live.count
      tags.sample(frame)
      up.bytes[frame] = uploadBytes
      up.lock[frame] = lockBytes
      up.linear[frame] = tick.linear
      up.staging[frame] = tick.staging
      up.overflow[frame] = tick.overflow
      tick.linear = tick.staging = tick.overflow = 0

      if ((frame & 255) === 255) {
        options.onProgress?.({ framesDone: frame + 1, frames })
        if (options.signal?.aborted) throw new Error('replay cancelled')
        await Promise.resolve()
      }
    }
    this.final = model
    if (!reportOnly) this.finalCreated = created
    created = new IdTable()
    options.onProgress?.({ framesDone: frames, frames })
    series.settle(store.frames.n)
    log.frameNumbers = store.frames.n
    // Heaps keep their main columns even when empty; types, classes of memory and tags only when they held bytes.
    series.dropEmpty((name) => keepsEmpty(name, 'vulkan'))
  }

  /** What a warning raised while applying a record is about: the resource, memory and bytes the record names. */
  private attribution(
    kind: number,
    index: number,
    model: VulkanModel,
    captureIdOf: Map<number, number>,
  ): { resources: number[]; heap: number | null; range: [Bytes, Bytes] | null } {
    const none = { resources: [], heap: null, range: null }
    const record = this.feed.last
    const boundRange = (id: number, offset = 0, size?: Bytes) => {
      const p = model.placementOf(id)
      if (!p) return { heap: null, range: null }
      const start = p.offset + offset
      return { heap: captureIdOf.get(p.memory) ?? null, range: [start, start + (size ?? p.size - offset)] as [Bytes, Bytes] }
    }
    switch (kind) {
      case RECORD_KIND.heap: {
        const r = record as Extract<AnyCaptureRecord, { e: 'heap' }>
        return { resources: [], heap: r.id, range: [0, r.size] }
      }
      case RECORD_KIND.placed: {
        const r = record as VulkanPlacedRecord
        return { resources: [r.id], heap: r.heap, range: [r.offset, r.offset + placedSize(r, 'vulkan')] }
      }
      case RECORD_KIND.bind: {
        const r = record as Extract<AnyCaptureRecord, { e: 'bind' }>
        const p = model.placementOf(r.id)
        return { resources: [r.id], heap: r.memory, range: p ? [p.offset, p.offset + p.size] : null }
      }
      case RECORD_KIND.write:
      case RECORD_KIND.flush: {
        const r = record as Extract<AnyCaptureRecord, { e: 'write' | 'flush' }>
        if (r.memory !== undefined) {
          return { resources: [], heap: r.memory, range: r.size === undefined ? null : [r.offset, r.offset + r.size] }
        }
        if (r.id === undefined) return none
        return { resources: [r.id], ...boundRange(r.id, r.offset, r.size) }
      }
      case RECORD_KIND.buffer:
      case RECORD_KIND.texture: {
        return { resources: [this.feed.createdId(index)], heap: null, range: null }
      }
    }
    return none
  }

  /**
   * The model after frame index `frame` (its records applied), and the live creates: id → index of the record
   * that created it.
   */
  modelAt(frame: number): { model: VulkanModel; created: IdTable } {
    const store = this.store
    const target = Math.max(0, Math.min(store.frames.length - 1, Math.floor(frame)))
    const cp = this.checkpoints.before(target)
    // A capture without frames has no checkpoint: its state is the empty model's.
    if (!cp) {
      return { model: new VulkanModel(this.device, this.config, {}, { gpuRecords: store.hasGpuRecords }), created: new IdTable() }
    }
    const model = cp.model.clone()
    const created = IdTable.from(cp.liveIds, cp.liveRecords)
    this.advance(model, created, cp.frame, target)
    return { model, created }
  }

  /** Apply the records of frame indices [from, to] to a model, keeping `created` up to date. */
  advance(model: VulkanModel, created: IdTable, from: number, to: number): void {
    const store = this.store
    const kinds = store.records.kind
    for (let f = from; f <= to; f++) {
      const start = store.frames.firstRecord[f]
      const end = frameEnd(store, f)
      for (let i = start; i < end; i++) {
        const id = this.feed.createdId(i)
        if (!Number.isNaN(id)) created.set(id, i)
        if (VulkanFeed.reads(kinds[i])) this.feed.apply(model, i)
        const ended = this.feed.endedId(i)
        if (!Number.isNaN(ended)) created.delete(ended)
      }
    }
  }

  /** Checkpoints held, the most records a snapshot replays, and the bytes the checkpoints hold. */
  checkpointStats(): { count: number; maxRecords: number; bytes: number } {
    return this.checkpoints.stats()
  }

  /** A copy of the model at the start of frame index `frame`, with the live creates; the device and config are shared. */
  private checkpoint(frame: number, model: VulkanModel, created: IdTable): Checkpoint<VulkanModel> {
    const copy = model.clone({}, true)
    const live = liveColumns(created)
    const bytes = retainedBytes(copy, new Set<unknown>([this.device, this.config])) + live.liveIds.byteLength + live.liveRecords.byteLength
    return { frame, model: copy, bytes, ...live }
  }

  /**
   * The model after the last frame and its live creates, read from the replay's own final model (only read: not a
   * copy) once the replay has ended; undefined before, and for a replay that kept no live creates (a report's).
   * Snapshots read the last frame from it (VulkanSnapshots.build).
   */
  finalState(): { model: VulkanModel; created: IdTable } | undefined {
    if (this.final === undefined || this.finalCreated === undefined) return undefined
    return { model: this.final, created: this.finalCreated }
  }

  /** The model at the end of the capture; while a followed capture grows, after the last frame replayed. */
  finalModel(): VulkanModel {
    return this.final ?? this.modelAt(this.store.frames.length - 1).model
  }
}
