/** A run: its summary and capabilities, config entries and reruns, and its report. */
import type { Bytes } from '../units'
import type { WarningKind } from '../capture'
import type { ImportModel } from './load'
import type { SeriesInfo } from './series'

export interface RunSummary {
  runId: string
  file: string
  format: string
  api: 'd3d12' | 'vulkan'
  /** The backend that replayed the run: 'd3d12', 'vulkan', or 'observed' (a trace shown as it happened). */
  backend: string
  /**
   * The model that placed the run's requests, as its backend names it ('UE 5.8 D3D12', 'Vulkan'): what a modelled
   * run is "modelled by"; absent where no model ran (an observed trace).
   */
  modelName?: string
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
  /** The capture's frames were cut from its time (an RMV, GPGMM or .utrace trace): their length is the user's to set. */
  timed?: true
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
  /** Peak, end and count per placement of the model; absent where no model ran (an observed trace). */
  byPlacement?: Record<string, { peakBytes: Bytes; endBytes: Bytes; count: number }>
  /**
   * Bytes held but not used, at the end: free in pools (an observed trace: in its heaps, outside what is placed in
   * them); alignment waste and pending frees are the model's, absent where no model ran.
   */
  waste: { alignmentBytes?: Bytes; poolFreeBytes: Bytes; pendingFreeBytes?: Bytes }
  residency: { budgetBytes: Bytes; evictions: number; evictedBytes: Bytes; makeResident: number; overBudgetFrames: number }
  /** The render graph's transients as the model placed them; absent where no model ran (an observed trace). */
  transient?: {
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
