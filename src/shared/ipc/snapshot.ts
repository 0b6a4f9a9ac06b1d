/** A frame of a run: the live-resource table, pool maps, resource details, transient layouts, residency events. */
import type { Bytes } from '../units'

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

/** A pool map's block columns where its blocks are left out (SnapshotQuery.blocks false): each one empty. */
export const NO_BLOCKS: Readonly<Pick<PoolMap, 'offset' | 'size' | 'state' | 'id'>> = {
  offset: new Float64Array(0),
  size: new Float64Array(0),
  state: new Uint8Array(0),
  id: new Float64Array(0),
}

export interface SnapshotQuery {
  runId: string
  frame: number
  /**
   * false: each pool's blocks left out (its block columns empty, its figures kept), as the inspector asks while its
   * pool maps are not shown: a large run's blocks come to megabytes a frame. Absent: the blocks.
   */
  blocks?: boolean
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
  /** The pools' blocks were left out (SnapshotQuery.blocks false): their block columns are empty. */
  blocksLeftOut?: boolean
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
