/**
 * The Vulkan extension of the capture format (1.1, docs/capture-format-vulkan.md) as typed objects: the device
 * block of the header and the fields and records a Vulkan capture adds to v1. These move into
 * src/shared/capture.ts when the ingest reads them; until then the Vulkan model and the checks take them as is.
 */
import type { Bytes } from '../../../shared/units'
import type {
  BindRecord,
  FlushRecord,
  MapRecord,
  UnmapRecord,
  WriteRecord,
  BudgetRecord,
  BufferRecord,
  CaptureHeader,
  CaptureRecord,
  HeapRecord,
  PlacedRecord,
  TextureRecord,
} from '../../../shared/capture'

/**
 * VkMemoryPropertyFlagBits in bit order, so that `maskOf(MEMORY_PROPERTY_FLAGS, names)` is the Vulkan mask.
 * The names are the ones the VMA dump prints (without `VK_MEMORY_PROPERTY_` and `_BIT`).
 */
export const MEMORY_PROPERTY_FLAGS = [
  'DEVICE_LOCAL',
  'HOST_VISIBLE',
  'HOST_COHERENT',
  'HOST_CACHED',
  'LAZILY_ALLOCATED',
  'PROTECTED',
  'DEVICE_COHERENT_AMD',
  'DEVICE_UNCACHED_AMD',
  'RDMA_CAPABLE_NV',
] as const
export type MemoryPropertyFlag = (typeof MEMORY_PROPERTY_FLAGS)[number]

export const DEVICE_LOCAL = 0x1
export const HOST_VISIBLE = 0x2
export const HOST_COHERENT = 0x4
export const HOST_CACHED = 0x8

/** VkMemoryHeapFlagBits in bit order. */
export const MEMORY_HEAP_FLAGS = ['DEVICE_LOCAL', 'MULTI_INSTANCE'] as const
export type MemoryHeapFlag = (typeof MEMORY_HEAP_FLAGS)[number]

/** One VkMemoryHeap; `budget`/`usage` as VK_EXT_memory_budget reports them (VMA: Budget.BudgetBytes/UsageBytes). */
export interface VulkanMemoryHeap {
  size: Bytes
  flags: MemoryHeapFlag[]
  budget?: Bytes
  usage?: Bytes
}

/** One VkMemoryType. */
export interface VulkanMemoryType {
  heapIndex: number
  propertyFlags: MemoryPropertyFlag[]
}

/**
 * The device as the header's `vulkan` block carries it. Field names follow VkPhysicalDeviceMemoryProperties and
 * VkPhysicalDeviceLimits, which are also the names of the VMA dump's `General` block.
 */
export interface VulkanDeviceInfo {
  memoryHeaps: VulkanMemoryHeap[]
  memoryTypes: VulkanMemoryType[]
  maxMemoryAllocationCount: number
  bufferImageGranularity: Bytes
  nonCoherentAtomSize: Bytes
  /** Informational, as VMA's General block has them. */
  apiVersion?: string
  deviceName?: string
}

export type AliasingModel = 'simple' | 'advanced'

export interface VulkanCaptureHeader extends CaptureHeader {
  api?: CaptureHeader['api']
  /** 1 for this extension; absent means 1.0. */
  minor?: number
  vulkan?: VulkanDeviceInfo
  /** Which CreatePlacedResource model the capture's aliasing follows (docs/aliasing.md); default "simple". */
  aliasing?: AliasingModel
}

/** VkMemoryRequirements as vkGet*MemoryRequirements returned them. */
export interface MemoryRequirements {
  size: Bytes
  alignment: Bytes
  memoryTypeBits: number
}

export type ImageTiling = 'linear' | 'optimal'
/** VkMemoryDedicatedRequirements: prefersDedicatedAllocation / requiresDedicatedAllocation. */
export type DedicatedHint = 'preferred' | 'required'

/** Fields a Vulkan capture adds to `buffer`, `texture` and `placed` records. */
export interface VulkanResourceFields {
  memoryRequirements?: MemoryRequirements
  /** Property flags the memory must have. */
  required?: MemoryPropertyFlag[]
  /** Property flags the memory should have when a type with them exists. */
  preferred?: MemoryPropertyFlag[]
  /** Images only; buffers are always linear. Default "optimal". */
  tiling?: ImageTiling
  dedicated?: DedicatedHint
  /** The application binds the resource itself with a later `bind` record: the model does not allocate it. */
  explicit?: boolean
  /**
   * Not in a capture: a buffer's `usage` or a texture's `flags` as its mask (BUFFER_USAGES, TEXTURE_FLAGS bit
   * order), given by a feed that reads it from the store's column, so the model does not turn the names it was
   * handed back into the mask they came from.
   */
  mask?: number
}

export type VulkanBufferRecord = BufferRecord & VulkanResourceFields
export type VulkanTextureRecord = TextureRecord & VulkanResourceFields
export type VulkanPlacedRecord = PlacedRecord & VulkanResourceFields

/** A `heap` in a Vulkan capture is a vkAllocateMemory the application made itself. */
export interface VulkanHeapRecord extends HeapRecord {
  /** The memory type index; absent: chosen from `type` as the model chooses for its own memory. */
  memoryType?: number
}

/** `budget` may name the memory heap it is for (default: the first DEVICE_LOCAL heap). */
export interface VulkanBudgetRecord extends BudgetRecord {
  heap?: number
}

export type { BindRecord, FlushRecord, MapRecord, UnmapRecord, WriteRecord } from '../../../shared/capture'

/** The record kinds 1.1 adds, in the order they append to RECORD_KINDS. */
export const VULKAN_RECORD_KINDS = ['bind', 'map', 'unmap', 'write', 'flush'] as const

export type VulkanRecord = BindRecord | MapRecord | UnmapRecord | WriteRecord | FlushRecord

/** Every record a 1.1 capture may hold, with the Vulkan fields on the v1 kinds that take them. */
export type VulkanCaptureRecord =
  | Exclude<CaptureRecord, BufferRecord | TextureRecord | PlacedRecord | HeapRecord | BudgetRecord>
  | VulkanBufferRecord
  | VulkanTextureRecord
  | VulkanPlacedRecord
  | VulkanHeapRecord
  | VulkanBudgetRecord
  | VulkanRecord
