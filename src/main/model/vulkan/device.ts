/**
 * The Vulkan device of a capture: read from the 1.1 header's `vulkan` block, or, for a Vulkan capture that has
 * none (every 1.0 one), a typical desktop device (seed §2.2: heap 0 video memory, heap 1 system memory) sized from the
 * header's adapter and budget.
 */
import { GiB, type Bytes } from '../../../shared/units'
import type { AdapterInfo, CaptureHeader } from '../../../shared/capture'
import {
  MEMORY_HEAP_FLAGS,
  MEMORY_PROPERTY_FLAGS,
  type AliasingModel,
  type MemoryPropertyFlag,
  type VulkanCaptureHeader,
  type VulkanDeviceInfo,
} from './captureTypes'

/** Seed §4.1: "很多桌面驱动的默认值只有4096". */
export const DEFAULT_MAX_MEMORY_ALLOCATION_COUNT = 4096
/** The seed is silent on both; these are the largest common values, so a check errs on the strict side. */
export const DEFAULT_BUFFER_IMAGE_GRANULARITY = 1024
export const DEFAULT_NON_COHERENT_ATOM_SIZE = 256
export const DEFAULT_VRAM = 8 * GiB
export const DEFAULT_SYSTEM_MEMORY = 16 * GiB

/** The device a Vulkan capture without a `vulkan` block is replayed on. */
export function defaultVulkanDevice(adapter?: AdapterInfo, budget?: Bytes): VulkanDeviceInfo {
  const vram = typeof adapter?.vram === 'number' && adapter.vram > 0 ? adapter.vram : DEFAULT_VRAM
  const local = { size: vram, flags: ['DEVICE_LOCAL' as const], ...(budget !== undefined ? { budget } : {}) }
  const t = (heapIndex: number, ...propertyFlags: MemoryPropertyFlag[]) => ({ heapIndex, propertyFlags })
  const limits = {
    maxMemoryAllocationCount: DEFAULT_MAX_MEMORY_ALLOCATION_COUNT,
    bufferImageGranularity: DEFAULT_BUFFER_IMAGE_GRANULARITY,
    nonCoherentAtomSize: DEFAULT_NON_COHERENT_ATOM_SIZE,
  }
  if (adapter?.uma) {
    return {
      memoryHeaps: [local],
      memoryTypes: [
        t(0, 'DEVICE_LOCAL'),
        t(0, 'DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT'),
        t(0, 'DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'),
      ],
      ...limits,
    }
  }
  return {
    memoryHeaps: [local, { size: DEFAULT_SYSTEM_MEMORY, flags: [] }],
    memoryTypes: [
      t(0, 'DEVICE_LOCAL'),
      t(1, 'HOST_VISIBLE', 'HOST_COHERENT'),
      t(1, 'HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'),
      t(0, 'DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT'),
    ],
    ...limits,
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** What is wrong with a device block, one sentence each; empty when it can be replayed on. */
export function deviceProblems(device: unknown): string[] {
  const out: string[] = []
  if (typeof device !== 'object' || device === null) return ['"vulkan" is not an object']
  const d = device as Partial<Record<keyof VulkanDeviceInfo, unknown>>
  if (!Array.isArray(d.memoryHeaps) || d.memoryHeaps.length === 0 || d.memoryHeaps.length > 16) {
    out.push('memoryHeaps must be an array of 1 to 16 heaps')
  } else {
    d.memoryHeaps.forEach((h: { size?: unknown; flags?: unknown }, i) => {
      if (!isCount(h?.size) || h.size === 0) out.push(`memoryHeaps[${i}].size must be a positive integer`)
      if (!Array.isArray(h?.flags) || h.flags.some((f) => !MEMORY_HEAP_FLAGS.includes(f))) {
        out.push(`memoryHeaps[${i}].flags must list ${MEMORY_HEAP_FLAGS.join(', ')}`)
      }
    })
  }
  const heaps = Array.isArray(d.memoryHeaps) ? d.memoryHeaps.length : 0
  if (!Array.isArray(d.memoryTypes) || d.memoryTypes.length === 0 || d.memoryTypes.length > 32) {
    out.push('memoryTypes must be an array of 1 to 32 types')
  } else {
    d.memoryTypes.forEach((t: { heapIndex?: unknown; propertyFlags?: unknown }, i) => {
      if (!isCount(t?.heapIndex) || t.heapIndex >= heaps) out.push(`memoryTypes[${i}].heapIndex must name a heap`)
      if (!Array.isArray(t?.propertyFlags) || t.propertyFlags.some((f) => !MEMORY_PROPERTY_FLAGS.includes(f))) {
        out.push(`memoryTypes[${i}].propertyFlags must list ${MEMORY_PROPERTY_FLAGS.join(', ')}`)
      }
    })
  }
  for (const key of ['maxMemoryAllocationCount', 'bufferImageGranularity', 'nonCoherentAtomSize'] as const) {
    if (!isCount(d[key]) || d[key] === 0) out.push(`${key} must be a positive integer`)
  }
  return out
}

type Loose = Record<string, unknown>

function byIndex(list: unknown[]): Loose[] {
  const items = list.map((x, i) => ({ item: (typeof x === 'object' && x !== null ? x : {}) as Loose, i }))
  const at = (x: { item: Loose; i: number }) => (typeof x.item.index === 'number' ? x.item.index : x.i)
  items.sort((a, b) => at(a) - at(b))
  return items.map((x) => x.item)
}

/**
 * The device block in the documented shape. Also takes what a writer may spell after the VMA dump's nesting
 * (`heap` for heapIndex, `flags` for propertyFlags, an `index` per entry, entries out of order); anything else
 * is passed on for deviceProblems to name.
 */
export function normalizeVulkanDevice(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw
  const d = raw as Loose
  const out: Loose = { ...d }
  if (Array.isArray(d.memoryHeaps)) {
    out.memoryHeaps = byIndex(d.memoryHeaps).map((h) => {
      const heap: Loose = { size: h.size, flags: h.flags ?? [] }
      if (typeof h.budget === 'number') heap.budget = h.budget
      if (typeof h.usage === 'number') heap.usage = h.usage
      return heap
    })
  }
  if (Array.isArray(d.memoryTypes)) {
    out.memoryTypes = byIndex(d.memoryTypes).map((t) => ({
      heapIndex: t.heapIndex ?? t.heap,
      propertyFlags: t.propertyFlags ?? t.flags ?? [],
    }))
  }
  return out
}

export interface VulkanSetup {
  device: VulkanDeviceInfo
  aliasing: AliasingModel
  /** True when the header had no usable device and the default one stands in. */
  defaulted: boolean
  problems: string[]
}

/**
 * The header's `budget` (the local memory budget) for a device whose heaps carry none: it goes to the first
 * DEVICE_LOCAL heap, as a `budget` record without `heap` does. Heaps with their own budgets keep them.
 */
function withHeaderBudget(device: VulkanDeviceInfo, budget: unknown): VulkanDeviceInfo {
  if (typeof budget !== 'number' || !(budget >= 0)) return device
  if (device.memoryHeaps.some((h) => h.budget !== undefined)) return device
  const local = Math.max(0, device.memoryHeaps.findIndex((h) => h.flags.includes('DEVICE_LOCAL')))
  if (local >= device.memoryHeaps.length) return device
  return { ...device, memoryHeaps: device.memoryHeaps.map((h, i) => (i === local ? { ...h, budget } : h)) }
}

/** The device and aliasing model a capture is checked and replayed with. */
export function vulkanSetup(header: CaptureHeader | undefined): VulkanSetup {
  const h = (header ?? {}) as VulkanCaptureHeader
  const aliasing: AliasingModel = h.aliasing === 'advanced' ? 'advanced' : 'simple'
  if (h.vulkan !== undefined) {
    const device = normalizeVulkanDevice(h.vulkan)
    const problems = deviceProblems(device)
    if (problems.length === 0) return { device: withHeaderBudget(device as VulkanDeviceInfo, h.budget), aliasing, defaulted: false, problems }
    return { device: defaultVulkanDevice(h.adapter, h.budget), aliasing, defaulted: true, problems }
  }
  return { device: defaultVulkanDevice(h.adapter, h.budget), aliasing, defaulted: true, problems: [] }
}
