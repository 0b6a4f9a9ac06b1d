/**
 * Texture sizes as a D3D12 driver reports them (GetResourceAllocationInfo), for the captures that carry the
 * driver's `size` and `align`: the standard swizzle layout, each mip padded to whole tiles of the alignment's
 * tile shape, the mips smaller than a tile packed into one tail tile, the total rounded up to the alignment.
 * A stand-in for a driver, not the model's estimator: real drivers differ a little, and so may this.
 */
import { dxgiFormat } from '../../shared/dxgi'
import type { TextureDim } from '../../shared/capture'
import { KiB, MiB, roundUp } from '../../shared/units'

export interface TextureShape {
  dim: TextureDim
  format: string
  width: number
  height: number
  /** Depth for 3d, array size otherwise (cubes: the number of cubes). */
  depth: number
  mips: number
  samples: number
  /** RenderTargetable or DepthStencilTargetable: never 4 KiB aligned. */
  target: boolean
}

export interface AllocationInfo {
  size: number
  align: number
}

/** Mips of a full chain down to 1×1(×1). */
export function mipCount(width: number, height: number, depth = 1): number {
  let largest = Math.max(width, height, depth)
  let mips = 1
  while (largest > 1) {
    largest = Math.floor(largest / 2)
    mips++
  }
  return mips
}

function elementBits(format: string): { bits: number; block: number } {
  const info = dxgiFormat(format)
  if (!info || info.bits === 0) throw new Error(`unknown DXGI format ${format}`)
  return { bits: info.bits, block: info.block }
}

/** Tile edge in elements for a 2D tile of `tileBytes` (a square of 2^k elements, halved in y when k is odd). */
function tileShape2d(tileBytes: number, elementBytes: number): [number, number] {
  const elements = Math.max(1, Math.floor(tileBytes / elementBytes))
  const log = Math.round(Math.log2(elements))
  const w = 2 ** Math.ceil(log / 2)
  return [w, elements / w]
}

function tileShape3d(tileBytes: number, elementBytes: number): [number, number, number] {
  const elements = Math.max(1, Math.floor(tileBytes / elementBytes))
  const log = Math.round(Math.log2(elements))
  const w = 2 ** Math.ceil(log / 3)
  const h = 2 ** Math.ceil((log - Math.log2(w)) / 2)
  return [w, h, elements / (w * h)]
}

/** The seed's CanBe4KAligned: no targets, one sample, not video, the top mip within 16 tiles of 4 KiB. */
export function canBe4KAligned(shape: TextureShape): boolean {
  const info = dxgiFormat(shape.format)
  if (!info || info.video || shape.target || shape.samples > 1) return false
  const { bits, block } = elementBits(shape.format)
  const elementBytes = Math.max(1, bits / 8)
  const w = Math.ceil(shape.width / block)
  const h = Math.ceil(shape.height / block)
  const d = shape.dim === '3d' ? shape.depth : 1
  if (shape.dim === '3d') {
    const [tw, th, td] = tileShape3d(4 * KiB, elementBytes)
    return Math.ceil(w / tw) * Math.ceil(h / th) * Math.ceil(d / td) <= 16
  }
  const [tw, th] = tileShape2d(4 * KiB, elementBytes)
  return Math.ceil(w / tw) * Math.ceil(h / th) <= 16
}

export function textureAllocation(shape: TextureShape): AllocationInfo {
  const small = canBe4KAligned(shape)
  const align = small ? 4 * KiB : shape.samples > 1 ? 4 * MiB : 64 * KiB
  const tileBytes = small ? 4 * KiB : 64 * KiB
  const { bits, block } = elementBits(shape.format)
  const elementBytes = Math.max(1, (bits / 8) * shape.samples)
  const is3d = shape.dim === '3d'
  const faces = shape.dim === 'cube' || shape.dim === 'cubearray' ? 6 : 1
  const slices = is3d ? 1 : shape.depth * faces
  const [tw, th, td] = is3d ? tileShape3d(tileBytes, elementBytes) : [...tileShape2d(tileBytes, elementBytes), 1]
  let perSlice = 0
  for (let mip = 0; mip < shape.mips; mip++) {
    const w = Math.ceil(Math.max(1, Math.floor(shape.width / 2 ** mip)) / block)
    const h = Math.ceil(Math.max(1, Math.floor(shape.height / 2 ** mip)) / block)
    const d = is3d ? Math.max(1, Math.floor(shape.depth / 2 ** mip)) : 1
    if (w < tw && h < th && (!is3d || d < td)) {
      // The packed mip tail: this mip and every smaller one share one tile.
      perSlice += tileBytes
      break
    }
    perSlice += Math.ceil(w / tw) * Math.ceil(h / th) * Math.ceil(d / td) * tileBytes
  }
  return { size: roundUp(perSlice * slices, align), align }
}

/** The bytes of the texels themselves, no padding: a floor under any driver's size. */
export function texelBytes(shape: Omit<TextureShape, 'target'>): number {
  const { bits, block } = elementBits(shape.format)
  const faces = shape.dim === 'cube' || shape.dim === 'cubearray' ? 6 : 1
  const is3d = shape.dim === '3d'
  let total = 0
  for (let mip = 0; mip < shape.mips; mip++) {
    const w = Math.ceil(Math.max(1, Math.floor(shape.width / 2 ** mip)) / block)
    const h = Math.ceil(Math.max(1, Math.floor(shape.height / 2 ** mip)) / block)
    const d = is3d ? Math.max(1, Math.floor(shape.depth / 2 ** mip)) : shape.depth * faces
    total += (w * h * d * bits * shape.samples) / 8
  }
  return Math.ceil(total)
}
