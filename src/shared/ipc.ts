/**
 * The IPC contract between the renderer and a host (the Electron main process, or the browser host over a
 * WebSocket). Channels are `domain:verb`; every payload type is here; `Api` is what `window.api` offers,
 * identical for both hosts. The renderer pulls what it shows; pushes are for progress only.
 */
import type { Bytes } from './units'
import type { WarningKind } from './capture'
import { LIVE_SERIES, type SeriesUnit } from './series'

/** The channel of each Api method: the renderer invokes it, the host handles it. */
export const CHANNELS = {
  appInfo: 'app:info',
  openCapture: 'capture:open',
  openCaptureDialog: 'capture:openDialog',
  beginUpload: 'upload:begin',
  uploadChunk: 'upload:chunk',
  endUpload: 'upload:end',
  cancelLoad: 'capture:cancel',
  closeRun: 'run:close',
  rerun: 'run:rerun',
  runConfig: 'run:config',
  report: 'run:report',
  series: 'series:get',
  snapshot: 'snapshot:get',
  resources: 'resources:page',
  resource: 'resources:details',
  transients: 'transients:get',
  residencyEvents: 'residency:events',
  compareSeries: 'compare:series',
  resourceDiff: 'compare:resources',
  leaks: 'leaks:get',
  startPlayback: 'playback:start',
  ackPlayback: 'playback:ack',
  stopPlayback: 'playback:stop',
  settings: 'settings:get',
  updateSettings: 'settings:update',
  recentFiles: 'recent:list',
  clearRecentFiles: 'recent:clear',
  exportCapture: 'capture:export',
  hazards: 'hazards:list',
  placements: 'placements:get',
  search: 'resources:search',
  followCapture: 'follow:start',
  stopFollowing: 'follow:stop',
  recordInfo: 'record:info',
  startRecording: 'record:start',
  stopRecording: 'record:stop',
  openHistory: 'history:open',
  openHistoryDialog: 'history:openDialog',
  historyTrend: 'history:trend',
  historyRun: 'history:run',
  closeHistory: 'history:close',
} as const satisfies Record<Exclude<keyof Api, 'onProgress' | 'onPlayback' | 'onMenu' | 'onEngineStopped' | 'onRecording'>, string>
export type InvokeMethod = keyof typeof CHANNELS

/** Channels the host pushes on. */
export const EVENTS = {
  progress: 'capture:progress',
  playback: 'playback:frame',
  menu: 'menu:command',
  engineStopped: 'engine:stopped',
  recording: 'record:status',
} as const

/** A file the host lets the renderer open by id: a shipped demo, a recent file, a command-line argument. */
export interface CaptureEntry {
  fileId: string
  name: string
  /** Where it comes from, for grouping in the start view. */
  origin: 'demo' | 'recent' | 'argument' | 'dialog' | 'history'
  bytes?: Bytes
  description?: string
}

export interface AppInfo {
  host: 'electron' | 'browser'
  version: string
  /** The host can show native open dialogs; otherwise the renderer uploads files the user picks. */
  nativeDialogs: boolean
  /** Files offered at start: the demo captures, recent files, and what the command line asked to open. */
  captures: CaptureEntry[]
  /** The file the app should open at start, if any. */
  openAtStart?: string
  /** A capture another process is writing, to follow at start (`--follow FILE`): its fileId. */
  followAtStart?: string
  /** Formats the engine reads, for the start view. */
  formats: { name: string; description: string }[]
}

export interface LoadProgress {
  loadId: string
  /**
   * Reading the file, then replaying it through the model. A capture followed as it is written: `following`
   * each time more of its frames have been replayed, with the run's summary; the last one has a summary that is
   * no longer `live` (and `error` when a fault ended it).
   */
  phase: 'reading' | 'replaying' | 'following'
  summary?: RunSummary
  error?: LoadErrorInfo
  /** Replaying: frames replayed of all frames. */
  framesDone?: number
  frames?: number
  bytesRead: Bytes
  totalBytes: Bytes
  records: number
  warnings: number
}

export interface LoadErrorInfo {
  file: string
  message: string
  line: number
  byteOffset: number
  expected: string
}

export interface RunSummary {
  runId: string
  file: string
  format: string
  api: 'd3d12' | 'vulkan'
  /** The backend that replayed the run: 'd3d12', 'vulkan', or 'observed' (a trace shown as it happened). */
  backend: string
  /** What the run offers beyond its lanes; a capability it lacks is absent. */
  capabilities: RunCapabilities
  app?: string
  adapter?: string
  frames: number
  /** The capture's own numbers of the first and last frame. */
  firstFrame: number
  lastFrame: number
  records: number
  sourceBytes: Bytes
  partial: boolean
  warnings: Partial<Record<WarningKind, number>>
  warningSamples: { kind: WarningKind; line: number; offset: number; message: string }[]
  notes: string[]
  /** The per-frame series this run has. */
  series: SeriesInfo[]
  /** A Vulkan run: the device it was replayed on (`vkheap.<i>.*` and `vktype.<i>.*` series are per heap and type). */
  vulkan?: VulkanRunInfo
  /** What `heapscope check` finds in the run; the entries come from `hazards`. */
  checks?: CheckSummary
  /** The capture is still being written: the run grows (progress events of phase `following` carry its summary). */
  live?: boolean
  /** A run imported from an allocator's trace (GPGMM): what the allocator did, or the trace's requests through a model. */
  trace?: TraceRun
}

/**
 * What a run offers beyond its series: a what-if over the model's config (a model ran), residency against a budget
 * with its events, render-graph transient heaps. Absent where the run lacks it.
 */
export interface RunCapabilities {
  whatIf?: true
  residency?: true
  transients?: true
}

/**
 * An allocator's trace that also holds the requests made of it: the run shows one of the two, never both. An
 * observed run is what the allocator did (no model placed anything, so there is nothing for a what-if to change);
 * a modelled one is the requests through `model`.
 */
export type TraceRun = { kind: 'observed'; requests: number } | { kind: 'modelled'; model: ImportModel }

/** One VkMemoryHeap of a Vulkan run's device. */
export interface VulkanHeapInfo {
  index: number
  /** "Heap 1": the key of the run report's `heaps` and the heap of resource rows. */
  name: string
  size: Bytes
  /** DEVICE_LOCAL, MULTI_INSTANCE. */
  flags: string[]
  /** VK_EXT_memory_budget's budget at the start, when the capture gives it. */
  budget?: Bytes
}

/** One VkMemoryType of a Vulkan run's device. */
export interface VulkanTypeInfo {
  index: number
  /** "Type 0": the key of the run report's `byPlacement` and the placement of resource rows. */
  name: string
  heapIndex: number
  /** DEVICE_LOCAL, HOST_VISIBLE, HOST_COHERENT, HOST_CACHED, … */
  propertyFlags: string[]
}

export interface VulkanRunInfo {
  heaps: VulkanHeapInfo[]
  types: VulkanTypeInfo[]
  maxMemoryAllocationCount: number
  bufferImageGranularity: Bytes
  nonCoherentAtomSize: Bytes
  deviceName?: string
  apiVersion?: string
  /** The capture had no usable device block: a default desktop device stands in (`problems` say what was wrong). */
  defaulted: boolean
  problems: string[]
  /**
   * What the model could not honour over the run, by kind (memory-type-fallback, no-memory-type,
   * staging-ring-full, bind-twice, unknown-id, map-not-host-visible): counted, not API-usage rules.
   */
  diagnostics: Record<string, number>
}

export interface CheckSummary {
  /** The CreatePlacedResource model the capture follows. */
  aliasing: 'simple' | 'advanced'
  /** Aliasing hazards found, and by rule. */
  hazards: number
  hazardRules: Record<string, number>
  /** Vulkan API-usage rule → times broken (docs/cli.md `check`'s `warnings`). */
  warnings: Record<string, number>
}

export type LoadOutcome =
  | { ok: true; summary: RunSummary; error?: LoadErrorInfo }
  | { ok: false; error: LoadErrorInfo; cancelled?: boolean }

/**
 * How an imported trace's time becomes frames (Radeon Memory Visualizer and GPGMM traces; other formats have
 * their own frames and ignore it): the trace's frame markers where it has them, else fixed time buckets; and
 * whether a GPGMM trace is what GPGMM did or its requests for the model.
 */
export interface CaptureImportOptions {
  /** Length of one frame when frames are time buckets, in ms (IMPORT_BUCKET_MS bounds it). */
  bucketMs?: number
  /** Cut frames at the trace's frame markers (presents) when it has them; false: always time buckets. */
  frameMarkers?: boolean
  /**
   * A trace that records what an allocator did (GPGMM) and the requests it was given: replay the requests through
   * this model in place of showing what the allocator did. Absent: the run is observed, what the allocator did.
   */
  model?: ImportModel
}

/**
 * The models an imported trace can be replayed through instead of shown as it happened: the UE 5.8 D3D12 allocator
 * model (a GPGMM trace's requests), the Vulkan model (a VMA dump's blocks and allocations, on the dump's device).
 */
export const IMPORT_MODELS = ['d3d12', 'vulkan'] as const
export type ImportModel = (typeof IMPORT_MODELS)[number]

/** The bucket lengths a load accepts, in ms: a tenth of a millisecond to an hour. */
export const IMPORT_BUCKET_MS = { min: 0.1, max: 3_600_000 } as const

export interface OpenRequest {
  fileId: string
  /** Chosen by the renderer so it can match progress and cancel. */
  loadId: string
  import?: CaptureImportOptions
}

export interface UploadBegin {
  loadId: string
  name: string
  bytes: Bytes
  import?: CaptureImportOptions
}

export interface UploadChunk {
  loadId: string
  data: Uint8Array
}

/**
 * Per-frame series a run offers, named by a dotted path: `heap.DEFAULT.heapBytes`,
 * `placement.SharedBufferPool.occupiedBytes`, `tag.Textures.occupiedBytes`, `residency.residentBytes`, …
 * A run's summary lists the ones it has.
 */
export const SERIES = {
  liveRequested: LIVE_SERIES.requested,
  liveCount: LIVE_SERIES.count,
} as const
export type SeriesName = string

export interface SeriesInfo {
  name: SeriesName
  label: string
  unit: SeriesUnit
  /** For grouping in a legend: 'heap', 'placement', 'tag', 'residency', 'transient', 'upload', 'resources'. */
  group: string
}

export interface SeriesQuery {
  runId: string
  series: SeriesName[]
  /** Frame index range [from, to). */
  from: number
  to: number
  /** Most buckets wanted; the answer has at most this many. */
  resolution: number
}

export interface SeriesBuckets {
  min: Float64Array
  max: Float64Array
  mean: Float64Array
}

export interface SeriesAnswer {
  runId: string
  /** First frame index of each bucket; buckets cover [from, to). */
  start: Float64Array
  /** The capture's frame number at each bucket start. */
  frame: Float64Array
  /** Frames per bucket (the last may hold fewer). */
  width: number
  series: Record<SeriesName, SeriesBuckets>
}

/** One live resource at a frame, as the inspector's table shows it. */
export interface ResourceRow {
  id: number
  name: string
  tag: string
  kind: 'buffer' | 'texture'
  placement: string
  heap: string
  /** "DEFAULT/SingleState/0", or null for committed and reserved resources. */
  pool: string | null
  offset: Bytes
  /** Physical bytes it holds: for a reserved resource, its committed tiles (what the lanes and report count). */
  occupied: Bytes
  /** The bytes asked for that `occupied` holds (a reserved resource's last commit). */
  requested: Bytes
  /** occupied − requested: alignment and rounding. */
  waste: Bytes
  /** A reserved resource's virtual size (address space, no memory); null for every other resource. */
  virtual?: Bytes | null
  /** The capture's frame number the resource was created in. */
  created: number
  /** Frames alive at the snapshot's frame. */
  age: number
  /** The texture size was estimated, not given by the capture. */
  estimated: boolean
}

export const RESOURCE_SORT_KEYS = [
  'id',
  'name',
  'tag',
  'kind',
  'placement',
  'heap',
  'pool',
  'offset',
  'occupied',
  'requested',
  'waste',
  'created',
  'age',
] as const
export type ResourceSortKey = (typeof RESOURCE_SORT_KEYS)[number]

export interface ResourceFilter {
  placement?: string[]
  heap?: string[]
  tag?: string[]
  /** Case-insensitive substring of the name. */
  name?: string
}

export interface ResourceQuery {
  runId: string
  /** Frame index. */
  frame: number
  sort?: ResourceSortKey
  descending?: boolean
  filter?: ResourceFilter
  offset: number
  limit: number
}

export interface ResourcePage {
  runId: string
  frame: number
  /** Rows matching the filter. */
  total: number
  offset: number
  rows: ResourceRow[]
  /** Distinct values present at this frame, for filter menus. */
  facets: { placement: string[]; heap: string[]; tag: string[] }
}

/** A pool's blocks, in offset order, as columns. */
export interface PoolMap {
  pool: number
  name: string
  placement: string
  heap: string
  bytes: Bytes
  used: Bytes
  pending: Bytes
  free: Bytes
  /** Created ahead (async growth) and not taken yet. */
  spare: boolean
  offset: Float64Array
  size: Float64Array
  /** 0 free, 1 used, 2 pending free (released, waiting for the GPU). */
  state: Uint8Array
  /** Resource id of a used or pending block; NaN for free blocks and the allocator's own (staging, pages). */
  id: Float64Array
  /**
   * Vulkan runs: the capture's `heap` id of application memory, as hazards name it. Resources the application
   * placed there may share bytes (aliasing), so its blocks may overlap.
   */
  heapId?: number
}

export const BLOCK_STATE = { free: 0, used: 1, pending: 2 } as const

export interface SnapshotQuery {
  runId: string
  frame: number
}

export interface Snapshot {
  runId: string
  frame: number
  frameNumber: number
  liveCount: number
  pools: PoolMap[]
  residency: { residentBytes: Bytes; budgetBytes: Bytes; objects: number; residentObjects: number }
  /** Graph executions in this frame. */
  graphs: number
  /** Vulkan runs: each memory heap and type at this frame. */
  vulkan?: { heaps: VulkanHeapState[]; types: VulkanTypeState[] }
}

export interface VulkanHeapState {
  index: number
  /** Bytes of live VkDeviceMemory objects in the heap. */
  allocatedBytes: Bytes
  /** Bytes of those that hold resources (released ones waiting for the GPU included) or per-frame data. */
  usedBytes: Bytes
  /** Live VkDeviceMemory objects. */
  memoryCount: number
  budget?: Bytes
}

export interface VulkanTypeState {
  index: number
  allocatedBytes: Bytes
  usedBytes: Bytes
  memoryCount: number
  /** Resources placed or bound in memory of this type. */
  allocationCount: number
}

export interface ResourceDetails {
  runId: string
  frame: number
  row: ResourceRow
  /** The create record as the capture has it (buffer or texture fields). */
  desc: Record<string, unknown>
  /** Frame number of its release, or null when still alive at the end of the capture. */
  releasedFrame: number | null
  /** The model's ladder for this request, step by step, with the numbers that decided it. */
  route: string[]
  /**
   * The residency object holding its memory at the frame (its own, or its pool's), where the model manages residency:
   * how big, whether resident, when last used, and the priority handed to the OS (shown, never an eviction order).
   */
  residency: ResidencyDetails | null
  /** Where it was made, innermost first, when the capture recorded call stacks (format 1.3 `stack` records). */
  stack?: SymbolizedFrame[]
}

/** A residency object as the D3D12 residency manager sees it at a frame (docs/model.md, Residency). */
export interface ResidencyDetails {
  object: number
  /** What the object is: a committed resource, a pool's heap, a reserved resource's backing. */
  label: string
  bytes: number
  /** The SetResidencyPriority hint; eviction goes by recency alone. */
  priority: 'normal' | 'high'
  resident: boolean
  /** The last frame whose GPU work used it; -1 when never used. */
  lastUsedFrame: number
}

/** One frame of a recorded call stack, with its function and source line where a symbolizer found them. */
export interface SymbolizedFrame {
  module?: string
  offset?: number
  /** An address no module claimed when it was recorded. */
  address?: number
  /** The function, when a symbolizer found it. */
  symbol?: string
  /** file:line, when the module has debug information. */
  location?: string
}

export interface TransientQuery {
  runId: string
  frame: number
}

/** One graph execution: heaps, and each resource as a rectangle offset × pass range. */
export interface TransientExecution {
  execution: number
  name: string
  passes: number
  /** The passes' names, when the capture gives them (`endgraph` `passNames`, format 1.4); '' for a pass it leaves unnamed. */
  passNames?: string[]
  heaps: { id: Float64Array; size: Float64Array; highWater: Float64Array }
  resources: {
    id: Float64Array
    heap: Float64Array
    offset: Float64Array
    size: Float64Array
    first: Int32Array
    last: Int32Array
    texture: Uint8Array
    cacheHit: Uint8Array
    name: string[]
  }
  /** Pairs of resource indices (a, b) sharing bytes, flattened. */
  overlaps: Int32Array
  requestedBytes: Bytes
  highWaterBytes: Bytes
  savingBytes: Bytes
  cacheHits: number
  cacheMisses: number
}

export interface TransientAnswer {
  runId: string
  frame: number
  executions: TransientExecution[]
}

export const RESIDENCY_EVENT_KINDS = ['makeResident', 'evict', 'overBudget'] as const

export interface ResidencyEventsQuery {
  runId: string
  from: number
  to: number
  /** Most events returned; `truncated` says when there were more. */
  limit: number
}

export interface ResidencyEventsAnswer {
  runId: string
  /** Frame index of each event. */
  frame: Float64Array
  /** Index into RESIDENCY_EVENT_KINDS. */
  kind: Uint8Array
  object: Float64Array
  bytes: Float64Array
  truncated: boolean
}

/** `heapscope report --json`'s figures of a run. */
export interface RunReport {
  file: string
  format: string
  api: 'd3d12' | 'vulkan'
  frames: number
  records: number
  partial: boolean
  error?: string
  warnings: Record<string, number>
  resources: { created: number; released: number; named: number; liveAtEnd: number }
  peak: { frame: number; bytes: Bytes }
  heaps: Record<string, { peakBytes: Bytes; endBytes: Bytes }>
  byPlacement: Record<string, { peakBytes: Bytes; endBytes: Bytes; count: number }>
  waste: { alignmentBytes: Bytes; poolFreeBytes: Bytes; pendingFreeBytes: Bytes }
  residency: { budgetBytes: Bytes; evictions: number; evictedBytes: Bytes; makeResident: number; overBudgetFrames: number }
  transient: {
    graphs: number
    heaps: number
    /** The sum over every frame of what aliasing saved in that frame: a total, not a size. */
    aliasingSavingsBytes: Bytes
    /** The most aliasing saved in one frame, and that frame's number. */
    aliasingSavingsPeakBytes: Bytes
    aliasingSavingsPeakFrame: number
    placedCacheHitRate: number
  }
  /** Reserved resources alive at the end: their virtual size (address space) and committed bytes; absent when none. */
  reserved?: { count: number; virtualBytes: Bytes; committedBytes: Bytes }
  /** Vulkan runs: the application's own memory and what the capture tells about it. */
  vulkan?: VulkanRunFigures
}

/** Counts of a Vulkan capture's application memory, binds, names and stacks (`report --json`'s `vulkan`). */
export interface VulkanRunFigures {
  /** vkAllocateMemory calls (`heap` records), those dedicated to one resource, and the most live at once. */
  allocations: number
  dedicatedAllocations: number
  peakLiveAllocations: number
  /** `bind` records and `placed` resources (created bound). */
  binds: number
  /** Binds at a non-zero offset: resources sub-allocated inside a larger allocation. */
  bindsAtOffset: number
  /** Allocations that had two or more resources bound to them. */
  sharedAllocations: number
  maps: number
  flushes: number
  submits: number
  /** `name` records (1.3), and the distinct stacks recorded (`stack` records). */
  names: number
  stacks: number
  /** VK_EXT_device_memory_report events (`report` records). */
  driverReports: number
}

export interface HazardsQuery {
  runId: string
  offset: number
  limit: number
  /** Only hazards, or only warnings; both when absent. */
  severity?: 'hazard' | 'warning'
}

/**
 * A finding of the checks: an aliasing hazard (docs/cli.md `check`'s hazards) or a Vulkan API-usage warning (its
 * rules), in capture order.
 */
export interface HazardEntry {
  /** Frame index, and the capture's number of that frame. */
  frame: number
  frameNumber: number
  /** access-inactive, rt-not-initialized, barrier-missing; or a Vulkan rule (bind-misaligned, …). */
  rule: string
  severity: 'hazard' | 'warning'
  /** The resource accessed (or bound, written) first, then the others involved. */
  resources: number[]
  /** Their names in the capture ('' for an unnamed one), as the engine's pages give them. */
  names?: string[]
  /** The capture's heap (application memory) id, when the finding is in one. */
  heap: number | null
  /** Heap bytes [start, end) involved, when known. */
  range: [Bytes, Bytes] | null
  message: string
}

export interface HazardsAnswer {
  runId: string
  /** Entries matching the query. */
  total: number
  offset: number
  entries: HazardEntry[]
  aliasing: 'simple' | 'advanced'
  /** Hazards by rule, and Vulkan warnings by rule, over the whole run. */
  hazardRules: Record<string, number>
  warnings: Record<string, number>
}

export interface PlacementsQuery {
  runId: string
  /** Frame index. */
  frame: number
}

/** What a step of a frame's placed-resource timeline is: an aliasing barrier, a GPU access, a submit. */
export const PLACEMENT_STEPS = ['barrier', 'access', 'submit'] as const

/**
 * An application heap during one frame (a manual D3D12 heap, Vulkan application memory): each resource placed in
 * it as a rectangle of its bytes against the frame's steps, and which of them share bytes.
 */
export interface PlacedHeapLayout {
  /** The capture's heap id. */
  id: number
  name: string
  /** From the heap record; a heap only named by `placed` records has its resources' reach. */
  size: Bytes
  /** The D3D12 heap type (default, upload, readback), as the heap record gives it. */
  type: string
  /** Steps [from, to) the heap lived in the frame. */
  from: number
  to: number
  resources: {
    id: Float64Array
    /** Heap bytes [offset, offset + size). */
    offset: Float64Array
    size: Float64Array
    /** Steps [from, to) the resource was placed in the frame. */
    from: Int32Array
    to: Int32Array
    texture: Uint8Array
    /** 1 render target, 2 depth-stencil, 0 neither: those must be initialized after activation. */
    target: Uint8Array
    name: string[]
  }
  /** Simple model: spans [from, to) each resource was active, as (resource index, from, to) triples. */
  active: Int32Array
  /** Pairs of resource indices (a, b) sharing bytes, flattened. */
  overlaps: Int32Array
}

/** An aliasing hazard of the frame where it happened: the step, and the resources as indices of the layout. */
export interface PlacementHazard {
  /** access-inactive, rt-not-initialized, barrier-missing. */
  rule: string
  /** The capture's resource ids, the one accessed first, as the hazards list names them. */
  resources: number[]
  /** Index in `heaps` of the heap, and of each resource in its `resources` (-1: no longer placed). */
  heapIndex: number
  indices: number[]
  heap: number
  range: [Bytes, Bytes]
  /** The step of the access that broke the rule. */
  step: number
  message: string
}

/**
 * A frame of placed resources in application heaps: time runs along the frame's steps (its aliasing barriers,
 * GPU accesses to placed resources and submits, in capture order), bytes down each heap.
 */
export interface PlacementsAnswer {
  runId: string
  frame: number
  aliasing: 'simple' | 'advanced'
  /** Steps shown; a frame with more stops marking at MAX and says `truncated`. */
  steps: number
  /** PLACEMENT_STEPS index of each step. */
  stepKind: Uint8Array
  heaps: PlacedHeapLayout[]
  /** GPU accesses: the heap and resource index, the step, the ACCESS_OPS index. */
  accesses: { heap: Int32Array; resource: Int32Array; step: Int32Array; op: Uint8Array }
  /** Aliasing barriers: the step, and the heap and resource index of `after` and of `before` (-1: none, or not placed). */
  barriers: { step: Int32Array; afterHeap: Int32Array; after: Int32Array; beforeHeap: Int32Array; before: Int32Array }
  hazards: PlacementHazard[]
  truncated: boolean
}

export interface ConfigEntry {
  key: string
  default: number
  /** The capture header's value, when it sets one. */
  capture?: number
  /** The value this run was replayed with. */
  value: number
  kind: 'bytes' | 'count' | 'bool' | 'enum'
  seed?: string
  help: string
  values?: readonly number[]
}

export interface RerunRequest {
  runId: string
  loadId: string
  /** Keys to override (values as the CLI's --config takes them: 64MiB, true, 2). */
  config: Record<string, string | number | boolean>
}

export interface CompareSeriesQuery {
  runA: string
  runB: string
  series: SeriesName[]
  /** Frame index range in A's frames; B's frame index i + offsetB stands beside A's i. */
  from: number
  to: number
  resolution: number
  /** B's frames shifted against A's (runs that started at different frames): B's index = A's + offsetB; 0 by default. */
  offsetB?: number
}

export interface CompareSeriesAnswer {
  a: SeriesAnswer
  b: SeriesAnswer
  /** B − A of the bucket maxima, per series. */
  delta: Record<SeriesName, Float64Array>
}

export interface ResourceDiffQuery {
  runA: string
  runB: string
  /** Frame indices to compare at (default: the last frame of each). */
  frameA?: number
  frameB?: number
  status?: ('onlyA' | 'onlyB' | 'changed')[]
  offset: number
  limit: number
}

export interface ResourceDiffEntry {
  status: 'onlyA' | 'onlyB' | 'changed'
  /** How A and B were matched: by name, or by desc when names differ or are absent. */
  match: 'name' | 'desc' | null
  name: string
  a: ResourceRow | null
  b: ResourceRow | null
  /** What differs for 'changed': 'placement', 'size', 'heap', 'pool'. */
  changes: string[]
}

export interface ResourceDiffAnswer {
  total: number
  counts: { onlyA: number; onlyB: number; changed: number; same: number }
  entries: ResourceDiffEntry[]
}

export interface LeakQuery {
  runId: string
  /** Frame indices A < B: resources created after A and still alive at B. */
  from: number
  to: number
  offset: number
  limit: number
  /** False to skip the groups (an export reading every row, page by page); they come by default. */
  groups?: boolean
}

export interface LeakAnswer {
  total: number
  totalBytes: Bytes
  /** Live occupied bytes at B minus at A. */
  growthBytes: Bytes
  rows: ResourceRow[]
  /** Every candidate, grouped by name pattern and by tag: the steady, never-freed groups first, then by bytes. */
  groups: LeakGroup[]
}

/** Leak candidates that share a name pattern (runs of digits folded to #) or a tag. */
export interface LeakGroup {
  by: 'name' | 'tag'
  /** The name pattern ("Mesh_#.VB") or the tag; '' for unnamed or untagged resources. */
  key: string
  /** Candidates in the group: created after A, alive at B. */
  count: number
  /** Their occupied bytes at B. */
  bytes: Bytes
  /** bytes / (B − A): how fast the group grew over the range. */
  bytesPerFrame: number
  /** Resources of the group created in (A, B], freed since or not. */
  created: number
  /** Resources of the group released in (A, B], wherever they were created. */
  freed: number
  /** Frame numbers of the first and last creation in (A, B]. */
  firstCreated: number
  lastCreated: number
  /** Created steadily over the range (three or more, over at least half of it) and never freed. */
  steady: boolean
}

/** A search of every resource the capture ever made, by name, glob, regex or id. */
export interface SearchQuery {
  runId: string
  /** "SceneColor" (a part of the name, any case), "Mesh_*.VB" (a glob of the whole name), "/^T_.*_N$/i" (a regex), "#123" (an id; bare digits match an id or a part of a name). */
  text: string
  offset: number
  limit: number
  /** The index of one match whose placement and size history the answer should carry. */
  historyOf?: number
  /** Frame index to take that history on from (a page after the first: the answer's history.next). */
  historyFrom?: number
}

export interface SearchRow {
  /** The match's index in creation order, for historyOf. */
  index: number
  id: number
  name: string
  tag: string
  kind: 'buffer' | 'texture' | 'transient'
  /** Frame indices of its creation and of its release; release null when alive at the end. */
  created: number
  released: number | null
  /** The bytes its desc asks for; 0 when the desc gives none (a texture whose size the model estimates). */
  requested: Bytes
}

/**
 * Where a resource was and what it held, at its creation and at each frame's end where that changed over its life:
 * a defrag move (another pool or offset), commits of a reserved resource (its committed bytes), a resize.
 */
export interface SearchHistoryEntry {
  frame: number
  placement: string
  heap: string
  pool: string | null
  offset: Bytes
  /** Bytes it occupies: a reserved resource's committed bytes. */
  occupied: Bytes
  requested: Bytes
  /** A reserved resource's virtual size; 0 for the others. */
  virtual: Bytes
  /** What differs from the entry before (none on the first). */
  changed: SearchHistoryField[]
}

export const SEARCH_HISTORY_FIELDS = ['placement', 'heap', 'pool', 'offset', 'occupied', 'requested', 'virtual'] as const
export type SearchHistoryField = (typeof SEARCH_HISTORY_FIELDS)[number]

export interface SearchAnswer {
  /** How the text was read. */
  mode: 'text' | 'glob' | 'regex' | 'id'
  /** A regex that does not compile, said as the engine's message; no matches then. */
  error?: string
  total: number
  rows: SearchRow[]
  /** At most SEARCH_HISTORY_LIMIT entries; `next`: the frame index to ask historyFrom for the rest, null at its end. */
  history?: { index: number; entries: SearchHistoryEntry[]; next: number | null }
}

export interface PlaybackRequest {
  runId: string
  /** Chosen by the renderer, to match the frames it receives. */
  playbackId: string
  /** Frame index to start from, and one past the last. */
  from: number
  to: number
  /** Frames per second wanted. */
  fps: number
}

/** One frame of playback: what changed since the previous frame sent (frames skipped included). */
export interface PlaybackFrame {
  playbackId: string
  frame: number
  frameNumber: number
  /** Frames skipped since the previous one sent, because the renderer had not acknowledged it. */
  skipped: number
  created: ResourceRow[]
  /** More creates than sent: the inspector should page again. */
  createdTruncated: boolean
  released: number[]
  liveCount: number
  heapBytes: Record<string, Bytes>
  residentBytes: Bytes
}

/** Where the app can record a program under the Vulkan capture layer. */
export interface RecordInfo {
  /** The built layer's folder; null when it is not built, and `problem` says how to build it. */
  layerDir: string | null
  problem?: string
  /** The folder captures go to when the request names no output file. */
  capturesDir: string
  /** The host's platform (`linux`, `win32`, `darwin`): programs run on the host's machine. */
  platform: string
}

/** Run a program under the Vulkan capture layer and follow its capture as it is written. */
export interface RecordRequest {
  loadId: string
  /** The program's path on the host's machine (or a name found on its PATH). */
  program: string
  args: string[]
  /** What a frame is: a present, a submit, or (absent) submits until the program first presents. */
  framesFrom?: 'submit' | 'present'
  /** Record the call stack of each allocation and resource creation. */
  stacks: boolean
  /** The capture file (`.hscap`); a new file in `RecordInfo.capturesDir` when absent. */
  output?: string
}

/** A recorded program's state, pushed when it starts and when it ends. */
export interface RecordStatus {
  loadId: string
  program: string
  /** The capture file it writes. */
  output: string
  state: 'running' | 'exited'
  pid?: number
  /** How it ended: its exit code, or the signal that ended it. */
  code?: number | null
  signal?: string | null
  /** Why it could not start, or the last lines it wrote to its output when it failed. */
  message?: string
}

export type MenuCommand =
  | 'open'
  | 'capture'
  | 'openRecent'
  | 'compareWith'
  | 'export'
  | 'closeRun'
  | 'theme:light'
  | 'theme:dark'
  | 'theme:system'
  | 'language:en'
  | 'language:zh-CN'
  | 'zoom:in'
  | 'zoom:out'
  | 'zoom:reset'
  | 'about'
  | 'help:format'
  /** A file the host was asked to open (a second launch, the file association): arg is its fileId. */
  | 'openFile'
  /** A capture a second launch asked to follow (`--follow FILE`): arg is its fileId. */
  | 'followFile'

/**
 * Export a run's capture, whole or a frame range of it. The desktop app asks where to save in a native dialog
 * and writes there; the browser host sends the bytes back for the page to download.
 */
export interface ExportRequest {
  runId: string
  /** Frame index range [from, to); the whole capture when absent. */
  from?: number
  to?: number
  gzip: boolean
}

export type ExportOutcome =
  | { kind: 'saved'; name: string; bytes: Bytes }
  | { kind: 'download'; name: string; data: Uint8Array }
  | { kind: 'cancelled' }

/** The engine died: its runs are gone, the window, settings and recent files are not. */
export interface EngineStopped {
  message: string
  /** The file last opened by id, to offer opening it again. */
  reopen?: string
}

export interface Settings {
  version: number
  theme: 'light' | 'dark' | 'system'
  language: 'en' | 'zh-CN'
  /** Config overrides last used for what-if runs. */
  configOverrides: Record<string, string>
}

export type Unsubscribe = () => void

/** What a history database follows per build (docs/history.md). */
export const HISTORY_METRICS = ['peak', 'end', 'evictions', 'hazards'] as const
export type HistoryMetric = (typeof HISTORY_METRICS)[number]
/** The groupings a byte metric can be split by; evictions and hazards are counted per run. */
export const HISTORY_GROUPS = ['heap', 'placement', 'tag'] as const
export type HistoryGroup = (typeof HISTORY_GROUPS)[number]

/** A history database the engine holds open, read-only. */
export interface HistoryInfo {
  historyId: string
  name: string
  runs: number
  builds: number
  /** The labels runs were added with (`--label K=V`), each key with its values, for narrowing the trends. */
  labels: { key: string; values: string[] }[]
}

export interface HistoryTrendQuery {
  historyId: string
  metric: HistoryMetric
  by?: HistoryGroup
  /** Only runs carrying all these labels. */
  labels?: Record<string, string>
}

export interface HistoryBuild {
  build: string
  runs: number
  /** The build's latest run: the one opened for it. */
  runId: number
}

/** A metric per build, builds in the order their first run was added. */
export interface HistoryTrend {
  metric: HistoryMetric
  by: HistoryGroup | null
  builds: HistoryBuild[]
  /** One line per heap, placement or tag (`all` without a grouping), null where a build has no value. */
  series: { name: string; values: (number | null)[] }[]
}

/** What the renderer can ask of a host. Both hosts implement exactly this. */
export interface Api {
  appInfo(): Promise<AppInfo>
  openCapture(request: OpenRequest): Promise<LoadOutcome>
  /** Show the host's open dialog and load the choice; null when cancelled or when there is no native dialog. */
  openCaptureDialog(loadId: string): Promise<LoadOutcome | null>
  /**
   * Stream a file the user picked in the page (drag and drop, file input) to the engine: begin, chunks in
   * order (each resolves when the engine has taken it; `false` means the load already ended), then end,
   * which resolves with the outcome.
   */
  beginUpload(begin: UploadBegin): Promise<void>
  uploadChunk(chunk: UploadChunk): Promise<boolean>
  endUpload(loadId: string): Promise<LoadOutcome>
  cancelLoad(loadId: string): Promise<void>
  closeRun(runId: string): Promise<void>
  /** The same capture replayed under other config values: a new run (the "what if"). */
  rerun(request: RerunRequest): Promise<LoadOutcome>
  runConfig(runId: string): Promise<ConfigEntry[]>
  report(runId: string): Promise<RunReport>
  series(query: SeriesQuery): Promise<SeriesAnswer>
  snapshot(query: SnapshotQuery): Promise<Snapshot>
  resources(query: ResourceQuery): Promise<ResourcePage>
  resource(query: { runId: string; frame: number; id: number }): Promise<ResourceDetails | null>
  transients(query: TransientQuery): Promise<TransientAnswer>
  residencyEvents(query: ResidencyEventsQuery): Promise<ResidencyEventsAnswer>
  compareSeries(query: CompareSeriesQuery): Promise<CompareSeriesAnswer>
  resourceDiff(query: ResourceDiffQuery): Promise<ResourceDiffAnswer>
  leaks(query: LeakQuery): Promise<LeakAnswer>
  startPlayback(request: PlaybackRequest): Promise<void>
  /** The renderer has drawn this frame: the next one may come. */
  ackPlayback(playbackId: string, frame: number): Promise<void>
  stopPlayback(playbackId: string): Promise<void>
  settings(): Promise<Settings>
  updateSettings(patch: Partial<Omit<Settings, 'version'>>): Promise<Settings>
  onProgress(listener: (progress: LoadProgress) => void): Unsubscribe
  onPlayback(listener: (frame: PlaybackFrame) => void): Unsubscribe
  onMenu(listener: (command: MenuCommand, arg?: string) => void): Unsubscribe
  /** Recent files, newest first, each openable by its fileId. */
  recentFiles(): Promise<CaptureEntry[]>
  clearRecentFiles(): Promise<void>
  exportCapture(request: ExportRequest): Promise<ExportOutcome>
  onEngineStopped(listener: (info: EngineStopped) => void): Unsubscribe
  /** The aliasing hazards and Vulkan warnings of a run, a page at a time, with their counts. */
  hazards(query: HazardsQuery): Promise<HazardsAnswer>
  /** A frame's application heaps with their placed resources over the frame's steps, and its aliasing hazards. */
  placements(query: PlacementsQuery): Promise<PlacementsAnswer>
  search(query: SearchQuery): Promise<SearchAnswer>
  /**
   * Follow a capture another process is writing (a file the host offered): resolves once its first frame is in,
   * with a run that grows; `onProgress` gets `following` events with its summary until it is a loaded run.
   */
  followCapture(request: OpenRequest): Promise<LoadOutcome>
  /** Stop following: the run becomes a loaded run of what the file holds now. */
  stopFollowing(loadId: string): Promise<void>
  recordInfo(): Promise<RecordInfo>
  /** Start a program under the capture layer on the host's machine and follow its capture (as followCapture). */
  startRecording(request: RecordRequest): Promise<LoadOutcome>
  /** End the recorded program; following ends once it has exited. */
  stopRecording(loadId: string): Promise<void>
  onRecording(listener: (status: RecordStatus) => void): Unsubscribe
  /**
   * Open a history database read-only by its path: the browser host only (its page has no native dialog); the
   * desktop app refuses a path from the page and opens histories from its dialog.
   */
  openHistory(path: string): Promise<HistoryInfo>
  /** The host's open dialog for a history database; null when cancelled or when there is no native dialog. */
  openHistoryDialog(): Promise<HistoryInfo | null>
  historyTrend(query: HistoryTrendQuery): Promise<HistoryTrend>
  /** A run of a history, as a file to open (its capture path as the history keeps it). */
  historyRun(query: { historyId: string; runId: number }): Promise<CaptureEntry>
  closeHistory(historyId: string): Promise<void>
}
