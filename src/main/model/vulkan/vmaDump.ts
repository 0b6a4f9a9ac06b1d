/**
 * A Vulkan Memory Allocator JSON dump (vmaBuildStatsString, the GpuMemDump schema) read into the Vulkan model's
 * shapes: its General + MemoryInfo blocks as the capture header's `vulkan` device, its pools' blocks and
 * dedicated allocations as a VulkanMemoryView. Takes the parsed JSON object; reading the file is the importer's.
 */
import type { Bytes } from '../../../shared/units'
import {
  MEMORY_HEAP_FLAGS,
  MEMORY_PROPERTY_FLAGS,
  type MemoryHeapFlag,
  type MemoryPropertyFlag,
  type VulkanDeviceInfo,
  type VulkanMemoryHeap,
  type VulkanMemoryType,
} from './captureTypes'
import { emptyTotals, type AllocationKind, type AllocationView, type MemoryView, type VulkanMemoryView } from './view'
import type { VulkanMemoryKind } from './events'

type Json = Record<string, unknown>

export class VmaDumpError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VmaDumpError'
  }
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new VmaDumpError(`${path} is not an object`)
  return value as Json
}

function integer(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new VmaDumpError(`${path} is not a non-negative integer`)
  }
  return value
}

/** "Heap 1" → 1, "Type 7" → 7. */
function indexOf(key: string, prefix: string, path: string): number {
  const m = new RegExp(`^${prefix} (\\d+)$`).exec(key)
  if (!m) throw new VmaDumpError(`${path}: "${key}" is not "${prefix} N"`)
  return Number(m[1])
}

function known<T extends string>(names: readonly T[], value: unknown): T[] {
  return Array.isArray(value) ? (value.filter((f) => names.includes(f as T)) as T[]) : []
}

/** The device of a Vulkan dump: heaps and types from MemoryInfo, limits from General. */
export function vmaDumpDevice(dump: unknown): VulkanDeviceInfo {
  const root = object(dump, 'the dump')
  const general = object(root.General, 'General')
  if (general.API !== 'Vulkan') throw new VmaDumpError(`General.API is ${JSON.stringify(general.API)}, not "Vulkan"`)
  const info = object(root.MemoryInfo, 'MemoryInfo')
  const heaps: VulkanMemoryHeap[] = []
  const types: VulkanMemoryType[] = []
  for (const [key, value] of Object.entries(info)) {
    const path = `MemoryInfo.${key}`
    const heapIndex = indexOf(key, 'Heap', path)
    const h = object(value, path)
    const heap: VulkanMemoryHeap = {
      size: integer(h.Size, `${path}.Size`),
      flags: known<MemoryHeapFlag>(MEMORY_HEAP_FLAGS, h.Flags),
    }
    if (h.Budget !== undefined) {
      const b = object(h.Budget, `${path}.Budget`)
      if (b.BudgetBytes !== undefined) heap.budget = integer(b.BudgetBytes, `${path}.Budget.BudgetBytes`)
      if (b.UsageBytes !== undefined) heap.usage = integer(b.UsageBytes, `${path}.Budget.UsageBytes`)
    }
    heaps[heapIndex] = heap
    const pools = h.MemoryPools === undefined ? {} : object(h.MemoryPools, `${path}.MemoryPools`)
    for (const [typeKey, typeValue] of Object.entries(pools)) {
      const typePath = `${path}.MemoryPools.${typeKey}`
      types[indexOf(typeKey, 'Type', typePath)] = {
        heapIndex,
        propertyFlags: known<MemoryPropertyFlag>(MEMORY_PROPERTY_FLAGS, object(typeValue, typePath).Flags),
      }
    }
  }
  const heapCount = typeof general.memoryHeapCount === 'number' ? general.memoryHeapCount : heaps.length
  const typeCount = typeof general.memoryTypeCount === 'number' ? general.memoryTypeCount : types.length
  for (let i = 0; i < heapCount; i++) if (!heaps[i]) throw new VmaDumpError(`MemoryInfo has no "Heap ${i}"`)
  for (let i = 0; i < typeCount; i++) if (!types[i]) throw new VmaDumpError(`MemoryInfo has no "Type ${i}" under any heap`)
  const device: VulkanDeviceInfo = {
    memoryHeaps: heaps.slice(0, heapCount),
    memoryTypes: types.slice(0, typeCount),
    maxMemoryAllocationCount: integer(general.maxMemoryAllocationCount, 'General.maxMemoryAllocationCount'),
    bufferImageGranularity: integer(general.bufferImageGranularity, 'General.bufferImageGranularity'),
    nonCoherentAtomSize: integer(general.nonCoherentAtomSize, 'General.nonCoherentAtomSize'),
  }
  if (typeof general.apiVersion === 'string') device.apiVersion = general.apiVersion
  if (typeof general.GPU === 'string') device.deviceName = general.GPU
  return device
}

const KINDS: Record<string, AllocationKind> = {
  BUFFER: 'buffer',
  IMAGE_OPTIMAL: 'image-optimal',
  IMAGE_LINEAR: 'image-linear',
  IMAGE_UNKNOWN: 'unknown',
  UNKNOWN: 'unknown',
}

/** Every block and dedicated allocation of the dump as one VkDeviceMemory each, with totals per heap and type. */
export function vmaDumpView(dump: unknown): VulkanMemoryView {
  const device = vmaDumpDevice(dump)
  const root = dump as Json
  const { heaps, types } = emptyTotals(device)
  const memories: MemoryView[] = []

  const add = (
    type: number,
    kind: VulkanMemoryKind,
    size: Bytes,
    usedBytes: Bytes,
    allocations: AllocationView[],
    pool?: string,
  ) => {
    if (type >= types.length) throw new VmaDumpError(`a pool of "Type ${type}", which MemoryInfo does not list`)
    const heap = device.memoryTypes[type].heapIndex
    const named = pool !== undefined ? { pool } : {}
    memories.push({ memory: memories.length, kind, type, heap, size, usedBytes, ...named, allocations })
    heaps[heap].allocatedBytes += size
    heaps[heap].usedBytes += usedBytes
    heaps[heap].memoryCount++
    types[type].allocatedBytes += size
    types[type].usedBytes += usedBytes
    types[type].memoryCount++
    types[type].allocationCount += allocations.length
  }

  const readPool = (type: number, pool: Json, path: string, name?: string) => {
    const blocks = pool.Blocks === undefined ? {} : object(pool.Blocks, `${path}.Blocks`)
    for (const key of Object.keys(blocks).sort((a, b) => Number(a) - Number(b))) {
      const blockPath = `${path}.Blocks.${key}`
      const block = object(blocks[key], blockPath)
      const total = integer(block.TotalBytes, `${blockPath}.TotalBytes`)
      const unused = integer(block.UnusedBytes, `${blockPath}.UnusedBytes`)
      const allocations: AllocationView[] = []
      const list = Array.isArray(block.Suballocations) ? block.Suballocations : []
      list.forEach((item, i) => {
        const itemPath = `${blockPath}.Suballocations[${i}]`
        const s = object(item, itemPath)
        if (s.Type === 'FREE') return
        const a: AllocationView = {
          offset: integer(s.Offset, `${itemPath}.Offset`),
          size: integer(s.Size, `${itemPath}.Size`),
          kind: KINDS[String(s.Type)] ?? 'unknown',
        }
        if (typeof s.Name === 'string') a.name = s.Name
        allocations.push(a)
      })
      add(type, 'block', total, total - unused, allocations, name)
    }
    const dedicated = Array.isArray(pool.DedicatedAllocations) ? pool.DedicatedAllocations : []
    dedicated.forEach((item, i) => {
      const itemPath = `${path}.DedicatedAllocations[${i}]`
      const d = object(item, itemPath)
      const size = integer(d.Size, `${itemPath}.Size`)
      const a: AllocationView = { offset: 0, size, kind: KINDS[String(d.Type)] ?? 'unknown' }
      if (typeof d.Name === 'string') a.name = d.Name
      add(type, 'dedicated', size, size, [a], name)
    })
  }

  const typeKeys = (value: unknown, path: string) =>
    Object.entries(value === undefined ? {} : object(value, path))
      .map(([key, v]) => [indexOf(key, 'Type', `${path}.${key}`), v, `${path}.${key}`] as const)
      .sort((a, b) => a[0] - b[0])
  for (const [type, pool, path] of typeKeys(root.DefaultPools, 'DefaultPools')) readPool(type, object(pool, path), path)
  for (const [type, pools, path] of typeKeys(root.CustomPools, 'CustomPools')) {
    if (!Array.isArray(pools)) throw new VmaDumpError(`${path} is not an array of pools`)
    pools.forEach((pool, i) => {
      const p = object(pool, `${path}[${i}]`)
      readPool(type, p, `${path}[${i}]`, typeof p.Name === 'string' ? p.Name : String(i))
    })
  }
  return { device, heaps, types, memories }
}
