/**
 * Capture format v1 as typed objects: the records of docs/capture-format.md, one interface each.
 * Importers, the writer, the generator and tests speak these; the ingest stores them as columns.
 */
import type { Bytes, Frame, Milliseconds } from './units'

export const CAPTURE_FORMAT = 'heapscope-capture'
/** The newest capture format version this build reads and writes. */
export const CAPTURE_VERSION = 1

export type Api = 'd3d12' | 'vulkan'

export interface AdapterInfo {
  name?: string
  vram?: Bytes
  resourceHeapTier?: number
  uma?: boolean
  [key: string]: unknown
}

export interface CaptureHeader {
  format: typeof CAPTURE_FORMAT
  version: number
  api?: Api
  app?: string
  captured?: string
  adapter?: AdapterInfo
  budget?: Bytes
  config?: Record<string, number | boolean>
  /** Where an imported capture came from ("vma-json", "gpgmm-trace", …); absent for native captures. */
  source?: string
  /**
   * 1.5: the capture is a trace of what an allocator or a driver did (its heaps are the ones it made), not requests
   * for a model: it is replayed as it happened, with no model. Names the tracer.
   */
  observed?: ObservedSource
  [key: string]: unknown
}

/** The tracers whose captures are observed (header `observed`, format 1.5). */
export const OBSERVED_SOURCES = ['rmv', 'gpgmm', 'vma', 'utrace'] as const
export type ObservedSource = (typeof OBSERVED_SOURCES)[number]

/** The minor that brought observed traces: an importer writing `observed` and `memory` writes this one or later. */
export const OBSERVED_MINOR = 5

/** The longest `memory` a heap record may give (format 1.5); a longer one is ignored with a warning. */
export const MAX_MEMORY_LENGTH = 64

export const BUFFER_USAGES = [
  'Static',
  'Dynamic',
  'Volatile',
  'UnorderedAccess',
  'ByteAddressBuffer',
  'SourceCopy',
  'DrawIndirect',
  'ShaderResource',
  'KeepCPUAccessible',
  'FastVRAM',
  'Shared',
  'AccelerationStructure',
  'VertexBuffer',
  'IndexBuffer',
  'StructuredBuffer',
  'ReservedResource',
  'Uniform',
] as const
export type BufferUsage = (typeof BUFFER_USAGES)[number]

export const TEXTURE_FLAGS = [
  'ShaderResource',
  'RenderTargetable',
  'ResolveTargetable',
  'DepthStencilTargetable',
  'UAV',
  'CPUReadback',
  'ReservedResource',
  'ImmediateCommit',
  'Shared',
  'Streamable',
  'FastVRAM',
  'NoTiling',
  'Dynamic',
] as const
export type TextureFlag = (typeof TEXTURE_FLAGS)[number]

export const TEXTURE_DIMS = ['2d', '2darray', '3d', 'cube', 'cubearray'] as const
export type TextureDim = (typeof TEXTURE_DIMS)[number]

export const BUFFER_STATES = ['default', 'single', 'multi'] as const
export type BufferStateMode = (typeof BUFFER_STATES)[number]

export const UPLOAD_VIAS = ['fast', 'fastConstant', 'staging'] as const
export type UploadVia = (typeof UPLOAD_VIAS)[number]

export const ACCESS_OPS = ['read', 'write', 'clear', 'discard', 'copy'] as const
export type AccessOp = (typeof ACCESS_OPS)[number]

export const HEAP_KINDS = ['default', 'upload', 'readback'] as const
export type HeapKind = (typeof HEAP_KINDS)[number]

/** Bit of a name in its list: usage and flag arrays are stored as one 32-bit mask. */
export function maskOf<T extends string>(names: readonly T[], list: readonly string[] | undefined): number {
  let mask = 0
  if (!list) return mask
  for (const name of list) {
    const bit = names.indexOf(name as T)
    if (bit >= 0) mask |= 1 << bit
  }
  return mask >>> 0
}

export function namesOf<T extends string>(names: readonly T[], mask: number): T[] {
  const out: T[] = []
  for (let bit = 0; bit < names.length; bit++) if (mask & (1 << bit)) out.push(names[bit])
  return out
}

interface Named {
  name?: string
  tag?: string
}

export interface BufferDesc extends Named {
  size: Bytes
  usage?: BufferUsage[]
  stride?: number
  state?: BufferStateMode
  heap?: 'default' | 'readback'
  init?: boolean
}

export interface TextureDesc extends Named {
  dim?: TextureDim
  format?: string
  width?: number
  height?: number
  depth?: number
  mips?: number
  samples?: number
  flags?: TextureFlag[]
  /** The driver's GetResourceAllocationInfo size, when the capture has it. */
  size?: Bytes
  align?: Bytes
}

export interface FrameRecord {
  e: 'frame'
  n: Frame
  t?: Milliseconds
}
export interface GpuRecord {
  e: 'gpu'
  n: Frame
}
export interface BufferRecord extends BufferDesc {
  e: 'buffer'
  id: number
}
export interface TextureRecord extends TextureDesc {
  e: 'texture'
  id: number
}
export interface ReleaseRecord {
  e: 'release'
  id: number
}
export interface CommitRecord {
  e: 'commit'
  id: number
  bytes: Bytes
}
export interface LockRecord {
  e: 'lock'
  id: number
  bytes: Bytes
}
export interface UploadRecord {
  e: 'upload'
  via: UploadVia
  bytes: Bytes
  count?: number
}
export interface UseRecord {
  e: 'use'
  ids: number[]
}
export interface BudgetRecord {
  e: 'budget'
  bytes: Bytes
}
export interface GraphRecord {
  e: 'graph'
  name?: string
}
export type TransientRecord =
  | ({ e: 'transient'; id: number; kind: 'buffer'; first: number; last: number } & BufferDesc)
  | ({ e: 'transient'; id: number; kind: 'texture'; first: number; last: number } & TextureDesc)
export interface EndGraphRecord {
  e: 'endgraph'
  passes: number
}
export interface HeapRecord {
  e: 'heap'
  id: number
  size: Bytes
  type?: HeapKind
  name?: string
  /**
   * 1.5: the memory the trace says the heap is in, in the tracer's words: RMV's `local`, `invisible` or `system`, a
   * VMA memory type (`type 3 DEVICE_LOCAL`), a GPGMM segment. An observed run draws one lane per memory.
   */
  memory?: string
}
/** A placed buffer's `heap` is the heap record's id; BufferDesc's heap kind does not apply. */
export type PlacedRecord =
  | ({ e: 'placed'; id: number; heap: number; offset: Bytes; kind: 'buffer' } & Omit<BufferDesc, 'heap'>)
  | ({ e: 'placed'; id: number; heap: number; offset: Bytes; kind: 'texture' } & TextureDesc)
/** An aliasing barrier; `after` or `before` left out is NULL (both may be). */
export interface BarrierRecord {
  e: 'barrier'
  after?: number
  before?: number
}
export interface AccessRecord {
  e: 'access'
  id: number
  op: AccessOp
}
export interface SubmitRecord {
  e: 'submit'
}
export interface FreeRecord {
  e: 'free'
  id: number
}

export type CaptureRecord =
  | FrameRecord
  | GpuRecord
  | BufferRecord
  | TextureRecord
  | ReleaseRecord
  | CommitRecord
  | LockRecord
  | UploadRecord
  | UseRecord
  | BudgetRecord
  | GraphRecord
  | TransientRecord
  | EndGraphRecord
  | HeapRecord
  | PlacedRecord
  | BarrierRecord
  | AccessRecord
  | SubmitRecord
  | FreeRecord

export type RecordKind = CaptureRecord['e']

/** Record kinds in a fixed order: the index is the kind's code in the capture store. Append only. */
export const RECORD_KINDS = [
  'frame',
  'gpu',
  'buffer',
  'texture',
  'release',
  'commit',
  'lock',
  'upload',
  'use',
  'budget',
  'graph',
  'transient',
  'endgraph',
  'heap',
  'placed',
  'barrier',
  'access',
  'submit',
  'free',
  // 1.1 (Vulkan): kept whole, as their JSON, for the Vulkan model and the checks (as operands when they hold only
  // numbers)
  'bind',
  'map',
  'unmap',
  'write',
  'flush',
  // 1.2 (observed residency, from driver-level traces)
  'resident',
  'evict',
  // 1.3 (recorded by the Vulkan capture layer)
  'name',
  'stack',
  'report',
] as const satisfies readonly (RecordKind | ExtensionRecord['e'])[]

/**
 * The newest minor version of format 1 this build reads: 1.1 Vulkan, 1.2 observed residency, 1.3 recorded programs,
 * 1.4 pass names, 1.5 observed traces (header `observed`, `memory` on heaps).
 */
export const CAPTURE_MINOR = 5

/** vkBind{Buffer,Image}Memory of a resource created with `explicit: true` to an application `heap`. */
export interface BindRecord {
  e: 'bind'
  id: number
  memory: number
  offset: Bytes
}

/** vkMapMemory; `size` absent is VK_WHOLE_SIZE. */
export interface MapRecord {
  e: 'map'
  memory: number
  offset?: Bytes
  size?: Bytes
}

export interface UnmapRecord {
  e: 'unmap'
  memory: number
}

/** The CPU wrote bytes through a mapping: of `memory` (an application heap) or of `id` (a bound resource). */
export interface WriteRecord {
  e: 'write'
  memory?: number
  id?: number
  offset: Bytes
  size: Bytes
}

/** vkFlushMappedMemoryRanges of one range, addressed as `write` is; `size` absent is VK_WHOLE_SIZE. */
export interface FlushRecord {
  e: 'flush'
  memory?: number
  id?: number
  offset: Bytes
  size?: Bytes
}

/** An application heap (or a driver allocation seen in a trace) was made resident; `bytes` when partly. */
export interface ResidentRecord {
  e: 'resident'
  heap: number
  bytes?: Bytes
}

/** An application heap was evicted from local memory. */
export interface EvictRecord {
  e: 'evict'
  heap: number
  bytes?: Bytes
}

/** A buffer, texture or application heap is given a name (again): the latest one up to a frame is its name there. */
export interface NameRecord {
  e: 'name'
  id: number
  name: string
}

/** One frame of a call stack: the module (shared object, executable, DLL) and the return address's offset in it. */
export interface StackFrame {
  module?: string
  offset?: number
  /** An address no module claimed. */
  address?: number
}

/** A distinct call stack, innermost frame first; `stack` fields of creates and heaps name it by `id`. */
export interface StackRecord {
  e: 'stack'
  id: number
  frames: StackFrame[]
}

/** A VK_EXT_device_memory_report event: what the driver allocated or freed, for the program or for itself. */
export interface ReportRecord {
  e: 'report'
  type: 'allocate' | 'free' | 'import' | 'unimport' | 'allocation-failed' | 'other'
  memoryObjectId: number
  size: Bytes
  /** The VkObjectType the memory is for. */
  objectType: number
  heap: number
  /** The capture id of the buffer, image or memory it is for, when the capture has it. */
  id?: number
}

/** Records of the minor versions, kept whole by the store. */
export type ExtensionRecord =
  | BindRecord
  | MapRecord
  | UnmapRecord
  | WriteRecord
  | FlushRecord
  | ResidentRecord
  | EvictRecord
  | NameRecord
  | StackRecord
  | ReportRecord
export const EXTENSION_KINDS = ['bind', 'map', 'unmap', 'write', 'flush', 'resident', 'evict', 'name', 'stack', 'report'] as const

/** Every record a capture may hold. */
export type AnyCaptureRecord = CaptureRecord | ExtensionRecord

/** The warning kinds of the format, with their stable keys (as `report --json` prints them). */
export const WARNING_KINDS = {
  unknownRecord: 'a record with an unknown `e`',
  releaseOfUnknownId: 'a release of an id that is not live',
  duplicateId: 'a second create of a live id',
  badSize: 'a negative or non-integer size',
  frameNotIncreasing: 'a frame whose n does not increase',
  transientOutsideGraph: 'a transient outside a graph',
  truncatedLastLine: 'a truncated last line',
  badField: 'a field of the wrong type, ignored',
  missingField: 'a record without a required field, skipped',
  unknownName: 'a usage or flag name the format does not define, ignored (the record is kept)',
} as const
export type WarningKind = keyof typeof WARNING_KINDS
