/**
 * The RMV trace as the reader gives it: what the file says, in the format's own terms. Token events are columns
 * (one typed array per field, `length` rows, in time order); `eventAt` makes one object for a person to look at.
 */
import type { Bytes, Milliseconds } from '../../../../shared/units'
import type { RmvContainerKind } from './container'

/** Token types of the RMT stream, by their 4-bit code. Code 2 is reserved and never valid. */
export const RMV_TOKEN_TYPES = [
  'timestamp',
  'resourceUpdate',
  'reserved',
  'pageTableUpdate',
  'userdata',
  'misc',
  'resourceReference',
  'resourceBind',
  'processEvent',
  'pageReference',
  'cpuMap',
  'virtualFree',
  'virtualAllocate',
  'resourceCreate',
  'timeDelta',
  'resourceDestroy',
] as const
export type RmvTokenType = (typeof RMV_TOKEN_TYPES)[number]

export const TOKEN = {
  timestamp: 0,
  resourceUpdate: 1,
  reserved: 2,
  pageTableUpdate: 3,
  userdata: 4,
  misc: 5,
  resourceReference: 6,
  resourceBind: 7,
  processEvent: 8,
  pageReference: 9,
  cpuMap: 10,
  virtualFree: 11,
  virtualAllocate: 12,
  resourceCreate: 13,
  timeDelta: 14,
  resourceDestroy: 15,
} as const

/** Physical heaps (segments) of the RMT format. Codes 0..2; a preference of 3 (`none`) means no further choice. */
export const RMV_HEAPS = ['local', 'invisible', 'system'] as const
export type RmvHeap = (typeof RMV_HEAPS)[number]

/** A heap preference as the token stores it: 2 is system write-combined (GART USWC), 3 system cacheable. */
export const RMV_HEAP_PREFERENCES = ['local', 'invisible', 'systemUswc', 'systemCacheable'] as const
export type RmvHeapPreference = (typeof RMV_HEAP_PREFERENCES)[number]

export const RMV_OWNERS = ['application', 'pal', 'clientDriver', 'kmd'] as const
export type RmvOwner = (typeof RMV_OWNERS)[number]

export const RMV_COMMIT_TYPES = ['committed', 'placed', 'virtual', 'reserved'] as const
export type RmvCommitType = (typeof RMV_COMMIT_TYPES)[number]

export const RMV_RESOURCE_TYPES = [
  'image',
  'buffer',
  'gpuEvent',
  'borderColorPalette',
  'indirectCmdGenerator',
  'motionEstimator',
  'perfExperiment',
  'queryHeap',
  'videoDecoder',
  'videoEncoder',
  'timestamp',
  'heap',
  'pipeline',
  'descriptorHeap',
  'descriptorPool',
  'commandAllocator',
  'miscInternal',
  'workGraph',
] as const
export type RmvResourceType = (typeof RMV_RESOURCE_TYPES)[number]

export const RMV_USERDATA_TYPES = [
  'name',
  'snapshot',
  'binary',
  'reserved',
  'correlation',
  'markImplicitResource',
  'nameV2',
  'markImplicitResourceV2',
] as const
export type RmvUserdataType = (typeof RMV_USERDATA_TYPES)[number]

export const RMV_MISC_TYPES = [
  'submitGfx',
  'submitCompute',
  'submitCopy',
  'present',
  'invalidateRanges',
  'flushMappedRange',
  'trimMemory',
  'reserved0',
  'reserved1',
] as const
export type RmvMiscType = (typeof RMV_MISC_TYPES)[number]

export const RMV_PAGE_SIZES = [0, 4096, 65536, 262144, 1048576, 2097152, 0, 0] as const
export const RMV_PAGE_TABLE_UPDATE_TYPES = ['discard', 'update', 'transfer', 'reserved'] as const
export type RmvPageTableUpdateType = (typeof RMV_PAGE_TABLE_UPDATE_TYPES)[number]

export interface RmvAdapter {
  name: string
  familyId?: number
  revisionId?: number
  deviceId?: number
  engineClockMhz?: { min: number; max: number }
  memoryClockMhz?: { min: number; max: number }
  memoryType?: string
  memoryOpsPerClock?: number
  memoryBusWidth?: number
  /** MB/s as the adapter chunk states it. */
  memoryBandwidth?: number
  /** Memory per heap, from the trace's segments (the same as RmvTrace.heapSizes). */
  heapSizes?: Record<RmvHeap, Bytes>
}

/** A physical memory segment: the trace's heaps. */
export interface RmvSegment {
  heap: RmvHeap
  physicalAddress: Bytes
  size: Bytes
  /** The Vulkan memory index (MINI segment chunks only). */
  memoryIndex?: number
}

export interface RmvStream {
  /** Stream index as the file numbers it. */
  index: number
  processId: number
  threadId: number
  versionMajor: number
  versionMinor: number
  /** Token bytes of the stream (all its chunks). */
  bytes: Bytes
  /** File offset of the stream's first token. */
  fileOffset: number
  tokens: number
  /** Ticks per second from the stream's first timestamp token. */
  frequency?: number
}

export interface RmvSnapshot {
  name: string
  /** RMT clock of the snapshot point. */
  clock: number
  time: Milliseconds
  /** 'chunk' for an RmvSnapshotData / SnapshotInfo chunk, 'token' for a snapshot userdata token. */
  source: 'chunk' | 'token'
}

export type RmvImageDim = '1d' | '2d' | '3d' | 'reserved'

export interface RmvImageDescription {
  type: 'image'
  createFlags: number
  usageFlags: number
  dim: RmvImageDim
  width: number
  height: number
  depth: number
  /** RMT format code; `formatName` is its name in the format's words. */
  format: number
  formatName: string
  /** Channel swizzle x, y, z, w: 0 zero, 1 one, 2..5 the x..w channels. */
  swizzle: [number, number, number, number]
  mips: number
  slices: number
  samples: number
  fragments: number
  tiling: number
  tilingOptimization: number
  metadataMode: number
  maxBaseAlignment: Bytes
  presentable: boolean
  fullscreen: boolean
  imageSize: Bytes
  imageAlignment: Bytes
  metadataTailOffset: Bytes
  metadataTailSize: Bytes
  metadataTailAlignment: Bytes
  metadataHeadOffset: Bytes
  metadataHeadSize: Bytes
  metadataHeadAlignment: Bytes
}

export interface RmvBufferDescription {
  type: 'buffer'
  createFlags: number
  usageFlags: number
  size: Bytes
}

export interface RmvHeapDescription {
  type: 'heap'
  flags: number
  size: Bytes
  /** Alignment as a page size in bytes. */
  alignment: Bytes
  segmentIndex: number
}

export interface RmvPipelineDescription {
  type: 'pipeline'
  createFlags: number
  /** 128-bit internal pipeline hash, hex (high then low half). */
  hash: string
  stageMask: number
  ngg: boolean
}

export interface RmvGpuEventDescription {
  type: 'gpuEvent'
  flags: number
}
export interface RmvBorderColorPaletteDescription {
  type: 'borderColorPalette'
  entries: number
}
export interface RmvPerfExperimentDescription {
  type: 'perfExperiment'
  spmSize: Bytes
  sqttSize: Bytes
  counterSize: Bytes
}
export interface RmvQueryHeapDescription {
  type: 'queryHeap'
  heapType: number
  cpuAccess: boolean
}
export interface RmvVideoDecoderDescription {
  type: 'videoDecoder'
  engineType: number
  decoderType: number
  width: number
  height: number
}
export interface RmvVideoEncoderDescription {
  type: 'videoEncoder'
  engineType: number
  encoderType: number
  width: number
  height: number
  format: number
}
export interface RmvDescriptorHeapDescription {
  type: 'descriptorHeap'
  descriptorType: number
  shaderVisible: boolean
  gpuMask: number
  descriptors: number
}
export interface RmvDescriptorPoolDescription {
  type: 'descriptorPool'
  maxSets: number
  pools: { descriptorType: number; descriptors: number }[]
}
export interface RmvCommandAllocatorDescription {
  type: 'commandAllocator'
  flags: number
  /** Preferred heaps and sizes as the token encodes them (sizes in 4 KiB units). */
  cmdDataHeap: number
  cmdDataSize: number
  cmdDataSuballocSize: number
  embeddedDataHeap: number
  embeddedDataSize: number
  embeddedDataSuballocSize: number
  gpuScratchHeap: number
  gpuScratchSize: number
  gpuScratchSuballocSize: number
}
export interface RmvMiscInternalDescription {
  type: 'miscInternal'
  internalType: number
}
export interface RmvWorkGraphDescription {
  type: 'workGraph'
  createFlags: number
  hash: string
}
/** Resource types whose create token carries no description. */
export interface RmvEmptyDescription {
  type: 'indirectCmdGenerator' | 'motionEstimator' | 'timestamp'
}

export type RmvResourceDescription =
  | RmvImageDescription
  | RmvBufferDescription
  | RmvHeapDescription
  | RmvPipelineDescription
  | RmvGpuEventDescription
  | RmvBorderColorPaletteDescription
  | RmvPerfExperimentDescription
  | RmvQueryHeapDescription
  | RmvVideoDecoderDescription
  | RmvVideoEncoderDescription
  | RmvDescriptorHeapDescription
  | RmvDescriptorPoolDescription
  | RmvCommandAllocatorDescription
  | RmvMiscInternalDescription
  | RmvWorkGraphDescription
  | RmvEmptyDescription

export interface RmvResourceCreate {
  resourceId: number
  owner: RmvOwner
  /** Owner category bits [45:42]; the format reserves them. */
  ownerCategory: number
  commit: RmvCommitType
  description: RmvResourceDescription
}

export interface RmvUserdata {
  type: RmvUserdataType
  /** Payload size in bytes. */
  size: number
  /** Resource name (name, nameV2) or snapshot name (snapshot). */
  name?: string
  /** The 32-bit id a name or correlation token refers to: a driver resource id, or a correlation id (D3D12). */
  resourceId?: number
  correlationId?: number
  /** Ticks the event happened before the token was written (nameV2, markImplicitResourceV2). */
  timeDelay?: number
  /** markImplicitResourceV2: 0 unused, 1 implicit heap, 2 implicit resource (format 1.9+). */
  implicitType?: number
}

/**
 * Token events in time order. Columns by kind (`TOKEN` codes; time-delta tokens fold into `clock` and are not rows):
 * - virtualAllocate: address, size, flags = owner | preference0..3 << 2 (2 bits each) | preference count << 10 | external << 13
 * - virtualFree: address
 * - resourceCreate: id = resource id, ref = index into `creates`
 * - resourceBind: id, address, size, flags = system memory (bit 0)
 * - resourceDestroy: id
 * - resourceUpdate: id, size = subresource, extra = resource type, flags = before | after << 15
 * - pageTableUpdate: address = virtual, extra = physical, size = bytes (pages × page size), id = process id,
 *   flags = page size code | unmap << 3 | update type << 4 | controller << 6; ref = pages
 * - userdata: ref = index into `userdata`
 * - misc: flags = misc type
 * - resourceReference: address, flags = residency (0 add, 1 remove) | queue << 1
 * - processEvent: id = process id, flags = event (0 start, 1 stop)
 * - pageReference: flags = page size code | compressed << 3
 * - cpuMap: address, flags = unmap (bit 0)
 * - timestamp: extra = frequency (ticks per second)
 */
export interface RmvEvents {
  length: number
  kind: Uint8Array
  stream: Uint8Array
  /** RMT clock (ticks of the stream's frequency since the CPU clock's epoch). */
  clock: Float64Array
  /** File offset of the token (of the stream byte when a stream spans several compressed chunks). */
  offset: Float64Array
  address: Float64Array
  size: Float64Array
  id: Float64Array
  extra: Float64Array
  ref: Uint32Array
  flags: Uint32Array
}

export interface RmvTrace {
  container: RmvContainerKind
  containerVersion: number
  /** The file ends inside a chunk (a MINI file cut short): the chunks before it were read. */
  truncated?: { fileLength: number; chunk: string; chunkOffset: number }
  /** Creation time from the MINI file header. */
  created?: string
  adapter: RmvAdapter
  segments: RmvSegment[]
  /** Sizes of the three heaps (0 for a heap the trace does not list). */
  heapSizes: Record<RmvHeap, Bytes>
  /** The API when the trace states it (API chunk) or the format marks a token as API-specific. */
  api?: 'vulkan' | 'd3d12'
  apiSource?: 'chunk' | 'tokens'
  /** The system-info JSON of an RDF trace, as parsed. */
  systemInfo?: unknown
  streams: RmvStream[]
  /** Clock of the first token of the trace; times are measured from here. */
  startClock: number
  endClock: number
  /** Ticks per second used to turn clocks into milliseconds. */
  frequency: number
  duration: Milliseconds
  events: RmvEvents
  creates: RmvResourceCreate[]
  userdata: RmvUserdata[]
  snapshots: RmvSnapshot[]
  /** Tokens per type as read, time deltas included. */
  tokenCounts: Record<RmvTokenType, number>
  /** Chunks the reader skipped because it does not know them, by id. */
  unknownChunks: string[]
}
