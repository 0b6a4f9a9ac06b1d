import { describe, expect, it } from 'vitest'
import {
  canBe4KAligned,
  mipCount,
  textureAllocation,
  texelBytes,
  type TextureShape,
} from '../../../../src/main/gen/textures'

const shape = (s: Partial<TextureShape> & Pick<TextureShape, 'format' | 'width' | 'height'>): TextureShape => ({
  dim: '2d',
  depth: 1,
  mips: 1,
  samples: 1,
  target: false,
  ...s,
})
const allocation = (s: Parameters<typeof shape>[0]): { size: number; align: number } => textureAllocation(shape(s))

describe('texture sizes as a driver reports them', () => {
  it('counts the mips of a full chain', () => {
    expect(mipCount(2048, 2048)).toBe(12)
    expect(mipCount(2048, 1024)).toBe(12)
    expect(mipCount(1, 1)).toBe(1)
    expect(mipCount(1920, 1080)).toBe(11)
    expect(mipCount(64, 64, 256)).toBe(9)
  })

  it('allows 4 KiB alignment only for small, single-sample, non-target textures', () => {
    // BC7 256²: 64×64 blocks of 16 bytes, a 4 KiB tile holds 16×16 blocks: 4×4 = 16 tiles, the limit.
    expect(canBe4KAligned(shape({ format: 'BC7_UNORM', width: 256, height: 256 }))).toBe(true)
    // BC7 512²: 8×8 = 64 tiles.
    expect(canBe4KAligned(shape({ format: 'BC7_UNORM', width: 512, height: 512 }))).toBe(false)
    // BC1 512²: 128×128 blocks of 8 bytes, 32×16 per tile: 4×8 = 32 tiles.
    expect(canBe4KAligned(shape({ format: 'BC1_UNORM', width: 512, height: 512 }))).toBe(false)
    // RGBA8 128²: 32×32 texels per tile: 16 tiles.
    expect(canBe4KAligned(shape({ format: 'R8G8B8A8_UNORM', width: 128, height: 128 }))).toBe(true)
    expect(canBe4KAligned(shape({ format: 'R8G8B8A8_UNORM', width: 128, height: 128, target: true }))).toBe(false)
    expect(canBe4KAligned(shape({ format: 'R8G8B8A8_UNORM', width: 64, height: 64, samples: 4 }))).toBe(false)
    expect(canBe4KAligned(shape({ format: 'NV12', width: 64, height: 64 }))).toBe(false)
  })

  it('pads each mip to 64 KiB tiles and packs the small mips into one tail tile', () => {
    // BC7 2048², 12 mips, 64×64-block tiles of 64 KiB: mip 0 is 512² blocks = 8×8 tiles = 4 MiB, mip 1 16 tiles
    // = 1 MiB, mip 2 4 tiles = 256 KiB, mip 3 one tile = 64 KiB, mip 4 (32² blocks) and below one tail tile.
    expect(allocation({ format: 'BC7_UNORM', width: 2048, height: 2048, mips: 12 })).toEqual({
      size: 4194304 + 1048576 + 262144 + 65536 + 65536,
      align: 65536,
    })
    // A 1920×1080 RGBA16F render target: 128×64-texel tiles, 15×17 = 255 tiles of 64 KiB.
    expect(allocation({ format: 'R16G16B16A16_FLOAT', width: 1920, height: 1080, target: true })).toEqual({
      size: 255 * 65536,
      align: 65536,
    })
    // MSAA: 4 MiB alignment. 1920×1080 D32, 4 samples: 16 bytes per texel, 64×64 per tile: 30×17 tiles = 510 tiles
    // = 33423360 bytes, rounded up to 4 MiB: 8 × 4 MiB = 33554432.
    expect(allocation({ format: 'D32_FLOAT', width: 1920, height: 1080, samples: 4, target: true })).toEqual({
      size: 33554432,
      align: 4194304,
    })
  })

  it('uses 4 KiB tiles when the texture can be 4 KiB aligned', () => {
    // RGBA8 128², 8 mips, 32×32-texel tiles: mip 0 16 tiles, mip 1 (64²) 4 tiles, mip 2 (32²) 1 tile,
    // mip 3 (16²) and below one tail tile: 22 tiles of 4 KiB = 90112.
    const small = allocation({ format: 'R8G8B8A8_UNORM', width: 128, height: 128, mips: 8 })
    expect(small).toEqual({ size: 90112, align: 4096 })
  })

  it('counts arrays, cubes and volumes', () => {
    // A cube is 6 faces of 128² RGBA16F (8 bytes): 128×64-texel tiles, 2 tiles a face = 12 tiles.
    const cube = allocation({ dim: 'cube', format: 'R16G16B16A16_FLOAT', width: 128, height: 128, target: true })
    expect(cube.size).toBe(12 * 65536)
    // 3D 64³ RGBA16F: 32×16×16 texels per 64 KiB tile: 2×4×4 = 32 tiles.
    const volume = allocation({ dim: '3d', format: 'R16G16B16A16_FLOAT', width: 64, height: 64, depth: 64 })
    expect(volume.size).toBe(32 * 65536)
    // Texels alone: 64³ × 8 bytes = 2 MiB; BC1 4×4: one 8-byte block.
    const texels = { dim: '3d', format: 'R16G16B16A16_FLOAT', width: 64, height: 64, depth: 64, mips: 1 } as const
    expect(texelBytes({ ...texels, samples: 1 })).toBe(2097152)
    expect(texelBytes({ dim: '2d', format: 'BC1_UNORM', width: 4, height: 4, depth: 1, mips: 1, samples: 1 })).toBe(8)
  })
})
