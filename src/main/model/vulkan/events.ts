/**
 * What the Vulkan model tells the analysis while it replays: the ModelSink of src/main/model/events.ts (its
 * releasePending, freed and warning fit as they are) plus the Vulkan events, since a VkDeviceMemory of a memory
 * type is not a D3D12 pool of a heap type. Infos passed to a sink method are valid during the call only: the
 * model reuses them, so a replay allocates nothing per event. `warning` kinds are VulkanWarningKind.
 */
import type { Bytes, Frame } from '../../../shared/units'
import type { ModelSink } from '../events'

/** Where a request landed. */
export const VULKAN_PLACEMENTS = ['Dedicated', 'FreeList', 'Buddy', 'Linear', 'Bound'] as const
export type VulkanPlacement = (typeof VULKAN_PLACEMENTS)[number]

/** What a VkDeviceMemory is for. */
export const VULKAN_MEMORY_KINDS = ['block', 'buddy', 'dedicated', 'linear', 'staging', 'app'] as const
export type VulkanMemoryKind = (typeof VULKAN_MEMORY_KINDS)[number]

/** The rules `heapscope check` counts for Vulkan captures (docs/cli.md). */
export const VULKAN_RULES = [
  'alloc-count-exceeded',
  'bind-misaligned',
  'bind-out-of-range',
  'bind-memory-type',
  'granularity-conflict',
  'flush-misaligned',
] as const
export type VulkanRule = (typeof VULKAN_RULES)[number]

/** Other things the model could not honour; warnings like the rules, but not API-usage errors of the capture. */
export const VULKAN_DIAGNOSTICS = [
  'no-memory-type',
  'memory-type-fallback',
  'staging-ring-full',
  'bind-twice',
  'unknown-id',
  'map-not-host-visible',
] as const
export type VulkanDiagnostic = (typeof VULKAN_DIAGNOSTICS)[number]
export type VulkanWarningKind = VulkanRule | VulkanDiagnostic

export interface VulkanMemoryInfo {
  /** Dense id over the replay, never reused. */
  memory: number
  kind: VulkanMemoryKind
  type: number
  heap: number
  size: Bytes
  /** The capture's `heap` id for application memory, -1 for the model's own. */
  captureId: number
}

export interface VulkanPlacementInfo {
  /** The capture's resource id. */
  id: number
  placement: VulkanPlacement
  memory: number
  type: number
  heap: number
  offset: Bytes
  /** Occupied bytes (a buddy block is a power of two). */
  size: Bytes
  /** VkMemoryRequirements.size, or the estimate. */
  requested: Bytes
  alignment: Bytes
  linear: boolean
  estimated: boolean
}

export type UploadRoute = 'linear' | 'staging' | 'overflow'

export interface VulkanSink extends ModelSink {
  /** A vkAllocateMemory, the model's or the application's. */
  memoryAllocated?(info: VulkanMemoryInfo, frame: Frame): void
  memoryFreed?(memory: number, frame: Frame): void
  vulkanPlaced?(info: VulkanPlacementInfo, frame: Frame): void
  /** Per-frame traffic without resource ids (`upload`, `lock`): where its bytes went. */
  uploaded?(route: UploadRoute, bytes: Bytes, frame: Frame): void
}
