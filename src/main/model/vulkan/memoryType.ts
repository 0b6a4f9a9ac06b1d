/**
 * Memory type selection (seed §2.3, §3.3): only types whose bit is set in memoryTypeBits may hold the resource;
 * among them the first whose property flags contain every wanted flag; failing that, the seed's fallback, the
 * first DEVICE_LOCAL type. Between the two the model adds the refinement the seed leaves to the engine
 * ("能不能映射"和"要不要缓存"要分开判断): wanted flags split into required and preferred.
 */
import { maskOf } from '../../../shared/capture'
import {
  DEVICE_LOCAL,
  MEMORY_PROPERTY_FLAGS,
  type MemoryPropertyFlag,
  type VulkanDeviceInfo,
} from './captureTypes'

/** How a type was chosen, in the order the passes run. */
export type MemoryTypeRoute = 'exact' | 'required' | 'fallback' | 'none'

export function popcount(mask: number): number {
  let v = mask >>> 0
  let n = 0
  while (v) {
    v &= v - 1
    n++
  }
  return n
}

export function propertyMask(flags: readonly MemoryPropertyFlag[] | undefined): number {
  return maskOf(MEMORY_PROPERTY_FLAGS, flags)
}

export class MemoryTypeSelector {
  /** Property flags of each memory type, as a Vulkan mask. */
  readonly flags: Uint32Array
  readonly heapOf: Int32Array
  /** All types: the memoryTypeBits of a resource that does not say. */
  readonly allTypeBits: number
  /** How the last select() chose. */
  route: MemoryTypeRoute = 'none'

  constructor(device: VulkanDeviceInfo) {
    const n = device.memoryTypes.length
    this.flags = new Uint32Array(n)
    this.heapOf = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      this.flags[i] = propertyMask(device.memoryTypes[i].propertyFlags)
      this.heapOf[i] = device.memoryTypes[i].heapIndex
    }
    this.allTypeBits = n >= 32 ? 0xffffffff : ((1 << n) >>> 0) - 1
  }

  /** The memory type index for a resource, or -1 when memoryTypeBits allows none (seed: VK_MAX_MEMORY_TYPES). */
  select(typeBits: number, required: number, preferred: number): number {
    const flags = this.flags
    const n = flags.length
    const wanted = (required | preferred) >>> 0
    // Seed pass: the first allowed type with every wanted flag.
    for (let i = 0; i < n; i++) {
      if ((typeBits & (1 << i)) === 0) continue
      if (((flags[i] & wanted) >>> 0) === wanted) {
        this.route = 'exact'
        return i
      }
    }
    // Refinement: every required flag, as many preferred ones as possible; the lower index on a tie.
    if (preferred !== 0) {
      let best = -1
      let bestScore = -1
      for (let i = 0; i < n; i++) {
        if ((typeBits & (1 << i)) === 0) continue
        if (((flags[i] & required) >>> 0) !== required >>> 0) continue
        const score = popcount(flags[i] & preferred)
        if (score > bestScore) {
          best = i
          bestScore = score
        }
      }
      if (best >= 0) {
        this.route = 'required'
        return best
      }
    }
    // Seed fallback: the first allowed DEVICE_LOCAL type.
    for (let i = 0; i < n; i++) {
      if ((typeBits & (1 << i)) === 0) continue
      if (flags[i] & DEVICE_LOCAL) {
        this.route = 'fallback'
        return i
      }
    }
    this.route = 'none'
    return -1
  }
}
