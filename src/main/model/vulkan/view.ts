/**
 * The Vulkan memory view the timeline and the inspector show: heaps, memory types, and each VkDeviceMemory
 * with what it holds. The replayed model (VulkanModel.view) and an imported VMA dump (vmaDumpView) both answer
 * in this shape, so a real dump and a replayed capture look alike.
 */
import type { Bytes } from '../../../shared/units'
import type { MemoryHeapFlag, MemoryPropertyFlag, VulkanDeviceInfo } from './captureTypes'
import type { VulkanMemoryKind } from './events'

export interface HeapView {
  index: number
  size: Bytes
  flags: MemoryHeapFlag[]
  budget?: Bytes
  /** Bytes of live VkDeviceMemory objects in the heap. */
  allocatedBytes: Bytes
  /** Bytes of those objects that hold resources or per-frame data. */
  usedBytes: Bytes
  memoryCount: number
}

export interface TypeView {
  index: number
  heapIndex: number
  propertyFlags: MemoryPropertyFlag[]
  allocatedBytes: Bytes
  usedBytes: Bytes
  memoryCount: number
  allocationCount: number
}

/** What a range of a VkDeviceMemory holds; the names of VMA's suballocation types. */
export type AllocationKind = 'buffer' | 'image-linear' | 'image-optimal' | 'unknown' | 'frame-data'

export interface AllocationView {
  offset: Bytes
  size: Bytes
  kind: AllocationKind
  /** The capture's resource id; absent for a dump's suballocation or per-frame data. */
  id?: number
  name?: string
}

export interface MemoryView {
  memory: number
  kind: VulkanMemoryKind
  type: number
  heap: number
  size: Bytes
  usedBytes: Bytes
  /** A VMA custom pool's name. */
  pool?: string
  /** In offset order; free ranges are the gaps. */
  allocations: AllocationView[]
}

/**
 * view()'s memories and their allocations as columns, with no object per allocation (a snapshot's pool maps):
 * memory k of `memories` holds rows first[k] to first[k + 1] - 1, in view()'s order (by offset).
 */
export interface MemoryLayout {
  memories: Omit<MemoryView, 'allocations' | 'pool'>[]
  first: Int32Array
  offset: Float64Array
  size: Float64Array
  /** The resource's id; NaN for per-frame data. */
  id: Float64Array
  /** 1: a released resource's bytes, waiting for the GPU. */
  pending: Uint8Array
}

export interface VulkanMemoryView {
  device: VulkanDeviceInfo
  heaps: HeapView[]
  types: TypeView[]
  memories: MemoryView[]
}

/** Heap and type rows with zero totals, for a builder to fill. */
export function emptyTotals(device: VulkanDeviceInfo): { heaps: HeapView[]; types: TypeView[] } {
  return {
    heaps: device.memoryHeaps.map((h, index) => ({
      index,
      size: h.size,
      flags: h.flags.slice(),
      ...(h.budget !== undefined ? { budget: h.budget } : {}),
      allocatedBytes: 0,
      usedBytes: 0,
      memoryCount: 0,
    })),
    types: device.memoryTypes.map((t, index) => ({
      index,
      heapIndex: t.heapIndex,
      propertyFlags: t.propertyFlags.slice(),
      allocatedBytes: 0,
      usedBytes: 0,
      memoryCount: 0,
      allocationCount: 0,
    })),
  }
}
