/**
 * What a resource asks of memory: VkMemoryRequirements from the capture when it has them (seed §3.1: always
 * the driver's answer, never one's own sum), otherwise an estimate marked as such; and the property flags
 * wanted, from the record or by the seed's practice (§1.2, §5.3): GPU-only resources DEVICE_LOCAL, CPU-written
 * ones HOST_VISIBLE | HOST_COHERENT, CPU-read ones HOST_VISIBLE, preferably HOST_CACHED.
 */
import { maskOf, TEXTURE_FLAGS, BUFFER_USAGES, type BufferDesc, type TextureDesc } from '../../../shared/capture'
import { dxgiFormat } from '../../../shared/dxgi'
import type { Bytes } from '../../../shared/units'
import { DEVICE_LOCAL, HOST_CACHED, HOST_COHERENT, HOST_VISIBLE, type VulkanResourceFields } from './captureTypes'
import { propertyMask } from './memoryType'

/** Seed §3.2: uniform buffers want at least 256, storage buffers 16 or 64, vertex buffers 4 or 16. */
export const UNIFORM_ALIGNMENT = 256
export const STORAGE_ALIGNMENT = 64
export const BUFFER_ALIGNMENT = 16
/** Seed §3.2: "Image的alignment通常更严格，很多驱动会给64或128字节". */
export const IMAGE_ALIGNMENT = 128

const U = (name: (typeof BUFFER_USAGES)[number]): number => 1 << BUFFER_USAGES.indexOf(name)
const T = (name: (typeof TEXTURE_FLAGS)[number]): number => 1 << TEXTURE_FLAGS.indexOf(name)
export const USAGE_UNIFORM = U('Uniform')
export const USAGE_VOLATILE = U('Volatile')
const USAGE_CPU_WRITTEN = U('Dynamic') | U('Volatile') | U('KeepCPUAccessible')
const USAGE_STORAGE = U('UnorderedAccess') | U('StructuredBuffer') | U('ByteAddressBuffer')
const FLAG_CPU_READBACK = T('CPUReadback')

/** A scratch the model fills per request, so a request allocates nothing. */
export interface ResourceNeeds {
  size: Bytes
  alignment: Bytes
  typeBits: number
  /** Buffers and linear-tiling images; optimal-tiling images are not. */
  linear: boolean
  /** Size or alignment was estimated, not the driver's. */
  estimated: boolean
  /** The alignment is the driver's (or the capture's `align`), so a bind can be checked against it. */
  alignmentKnown: boolean
  required: number
  preferred: number
  dedicated: 0 | 1 | 2
}

export function emptyNeeds(): ResourceNeeds {
  return {
    size: 0,
    alignment: 1,
    typeBits: 0,
    linear: true,
    estimated: false,
    alignmentKnown: false,
    required: 0,
    preferred: 0,
    dedicated: 0,
  }
}

function wanted(out: ResourceNeeds, rec: VulkanResourceFields, required: number, preferred: number): void {
  if (rec.required !== undefined || rec.preferred !== undefined) {
    out.required = propertyMask(rec.required)
    out.preferred = propertyMask(rec.preferred)
  } else {
    out.required = required
    out.preferred = preferred
  }
  out.dedicated = rec.dedicated === 'required' ? 2 : rec.dedicated === 'preferred' ? 1 : 0
}

/** A buffer description; on a `placed` record `heap` is the heap's id, so only the string "readback" counts. */
export type BufferLike = Omit<BufferDesc, 'heap'> & { heap?: unknown } & VulkanResourceFields

/** A buffer's usage as its mask: the one a feed gave with it, else from its names. */
export function usageMask(rec: Pick<BufferLike, 'usage' | 'mask'>): number {
  return rec.mask ?? maskOf(BUFFER_USAGES, rec.usage)
}

export function bufferNeeds(rec: BufferLike, allTypeBits: number, out: ResourceNeeds): ResourceNeeds {
  const usage = usageMask(rec)
  const mr = rec.memoryRequirements
  if (mr) {
    out.size = mr.size
    out.alignment = mr.alignment > 0 ? mr.alignment : 1
    out.typeBits = mr.memoryTypeBits >>> 0
    out.estimated = false
    out.alignmentKnown = true
  } else {
    out.size = rec.size
    out.alignment = usage & USAGE_UNIFORM ? UNIFORM_ALIGNMENT : usage & USAGE_STORAGE ? STORAGE_ALIGNMENT : BUFFER_ALIGNMENT
    out.typeBits = allTypeBits
    out.estimated = true
    out.alignmentKnown = false
  }
  out.linear = true
  if (rec.heap === 'readback') wanted(out, rec, HOST_VISIBLE, HOST_CACHED)
  else if (usage & USAGE_CPU_WRITTEN) wanted(out, rec, HOST_VISIBLE | HOST_COHERENT, 0)
  else wanted(out, rec, 0, DEVICE_LOCAL)
  return out
}

export function textureNeeds(
  rec: TextureDesc & VulkanResourceFields,
  allTypeBits: number,
  out: ResourceNeeds,
): ResourceNeeds {
  const mr = rec.memoryRequirements
  if (mr) {
    out.size = mr.size
    out.alignment = mr.alignment > 0 ? mr.alignment : 1
    out.typeBits = mr.memoryTypeBits >>> 0
    out.estimated = false
    out.alignmentKnown = true
  } else {
    out.size = rec.size ?? estimateTextureBytes(rec)
    out.alignment = rec.align ?? IMAGE_ALIGNMENT
    out.typeBits = allTypeBits
    out.estimated = rec.size === undefined || rec.align === undefined
    out.alignmentKnown = rec.align !== undefined
  }
  out.linear = rec.tiling === 'linear'
  if ((rec.mask ?? maskOf(TEXTURE_FLAGS, rec.flags)) & FLAG_CPU_READBACK) wanted(out, rec, HOST_VISIBLE, HOST_CACHED)
  else wanted(out, rec, 0, DEVICE_LOCAL)
  return out
}

/**
 * Bytes of a texture laid out linearly, every mip packed: texels (or 4×4 blocks) × bits, × array layers
 * (6 per cube), × samples. Vulkan has no standard swizzle to follow, so this is a lower bound, marked estimated.
 */
export function estimateTextureBytes(desc: TextureDesc): Bytes {
  const f = dxgiFormat(desc.format)
  const bits = f && f.bits > 0 ? f.bits : 32
  const block = f ? f.block : 1
  const width = Math.max(1, desc.width ?? 1)
  const height = Math.max(1, desc.height ?? 1)
  const dim = desc.dim ?? '2d'
  const depth = Math.max(1, desc.depth ?? 1)
  const layers = dim === '3d' ? 1 : dim === 'cube' || dim === 'cubearray' ? 6 * depth : depth
  const mips = Math.max(1, desc.mips ?? 1)
  const samples = Math.max(1, desc.samples ?? 1)
  let bytes = 0
  for (let m = 0; m < mips; m++) {
    const w = Math.ceil(Math.max(1, Math.floor(width / 2 ** m)) / block)
    const h = Math.ceil(Math.max(1, Math.floor(height / 2 ** m)) / block)
    const d = dim === '3d' ? Math.max(1, Math.floor(depth / 2 ** m)) : 1
    bytes += Math.ceil((w * h * d * bits) / 8)
  }
  return bytes * layers * samples
}
