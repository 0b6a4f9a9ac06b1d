import { describe, expect, it } from 'vitest'
import type { TextureDesc } from '../../../../../src/shared/capture'
import { KiB, MiB } from '../../../../../src/shared/units'
import {
  canBe4KAligned,
  copyableFootprint,
  estimateTextureSize,
  newGeometry,
  newVerdict,
  readGeometry,
} from '../../../../../src/main/model/d3d12/texture'
import { FourK } from '../../../../../src/main/model/d3d12/route'
import { checkInvariants, newModel, texture } from './helpers'

const geometry = (desc: TextureDesc) => readGeometry(desc, newGeometry())

describe('4 KiB alignment (CanBe4KAligned)', () => {
  // One row per bytes-per-element class: the largest 16-tile top mip, and one texel wider (5 × 4 = 20 tiles).
  const cases: [string, number, number, number, number][] = [
    // format, width at 16 tiles, height, tile width, tile height (texels)
    ['R8_UNORM', 256, 256, 64, 64],
    ['R16_FLOAT', 256, 128, 64, 32],
    ['R8G8B8A8_UNORM', 128, 128, 32, 32],
    ['R16G16B16A16_FLOAT', 128, 64, 32, 16],
    ['R32G32B32A32_FLOAT', 64, 64, 16, 16],
    ['BC1_UNORM', 512, 256, 128, 64], // 64-bit blocks: 32×16 blocks of 4×4 texels
    ['BC7_UNORM', 256, 256, 64, 64], // 128-bit blocks: 16×16 blocks
  ]
  for (const [format, width, height, tw, th] of cases) {
    it(`${format}: ${width}×${height} is 16 tiles of ${tw}×${th} → 4 KiB; ${width + 1}×${height} is 20 → 64 KiB`, () => {
      const yes = canBe4KAligned(geometry({ format, width, height }), newVerdict())
      expect(yes).toEqual({ verdict: FourK.Yes, count: 16, tileWidth: tw, tileHeight: th, tileDepth: 1 })
      const no = canBe4KAligned(geometry({ format, width: width + 1, height }), newVerdict())
      expect(no.verdict).toBe(FourK.Tiles)
      expect(no.count).toBe(20) // ceil((width + 1) / tw) = 5 columns × 4 rows

      const m = newModel()
      const small = texture(m, 1, { format, width, height })
      expect(small.placement).toBe('TextureReadOnly4KPool')
      expect(small.alignment).toBe(4 * KiB)
      expect(small.size).toBe(64 * KiB) // 16 tiles × 4 KiB, the top mip fills them exactly
      expect(small.estimated).toBe(true)
      const large = texture(m, 2, { format, width: width + 1, height })
      expect(large.placement).toBe('TextureReadOnlyPool')
      expect(large.alignment).toBe(64 * KiB)
      // 64 KiB tiles are 4× the 4 KiB shape on each side: 2 × 1 of them.
      expect(large.size).toBe(128 * KiB)
      checkInvariants(m)
    })
  }

  it('counts every array slice and cube face of the top mip (GetTilesNeeded takes DepthOrArraySize)', () => {
    const verdict = (desc: TextureDesc) => canBe4KAligned(geometry(desc), newVerdict())
    const rgba = 'R8G8B8A8_UNORM'
    expect(verdict({ dim: 'cube', format: rgba, width: 32, height: 32 }).count).toBe(6)
    const cube64 = verdict({ dim: 'cube', format: rgba, width: 64, height: 64 })
    expect(cube64).toMatchObject({ verdict: FourK.Tiles, count: 24 }) // 2 × 2 tiles × 6 faces
    const array = verdict({ dim: '2darray', format: rgba, width: 64, height: 64, depth: 4 })
    expect(array).toMatchObject({ verdict: FourK.Yes, count: 16 })
    // 3d: 4 KiB tiles of 16×16×16 for 8 bpp, 2 × 2 × 2 of them.
    const volume = verdict({ dim: '3d', format: 'R8_UNORM', width: 32, height: 32, depth: 32 })
    expect(volume).toEqual({ verdict: FourK.Yes, count: 8, tileWidth: 16, tileHeight: 16, tileDepth: 16 })
  })

  it('refuses render targets, depth targets, MSAA, reserved and NV12/P010', () => {
    const v = (desc: TextureDesc) => canBe4KAligned(geometry(desc), newVerdict()).verdict
    expect(v({ format: 'R8G8B8A8_UNORM', width: 16, height: 16, flags: ['RenderTargetable'] })).toBe(FourK.RenderTarget)
    expect(v({ format: 'D32_FLOAT', width: 16, height: 16, flags: ['DepthStencilTargetable'] })).toBe(FourK.RenderTarget)
    expect(v({ format: 'R8G8B8A8_UNORM', width: 16, height: 16, samples: 2 })).toBe(FourK.Samples)
    expect(v({ format: 'R8G8B8A8_UNORM', width: 16, height: 16, flags: ['ReservedResource'] })).toBe(FourK.Reserved)
    expect(v({ format: 'NV12', width: 16, height: 16 })).toBe(FourK.Video)
    expect(v({ format: 'P010', width: 16, height: 16 })).toBe(FourK.Video)
  })
})

describe('size estimates', () => {
  it('pads each mip to tiles and packs the mips smaller than a tile', () => {
    // 128×128 RGBA8, 8 mips, 4 KiB tiles of 32×32: mip 0 16 tiles, mip 1 (64²) 4, mip 2 (32²) 1, then mips 3..7
    // (16² … 1²) pack into 1024 + 256 + 64 + 16 + 4 = 1364 B: one tile. 22 tiles = 88 KiB.
    const size = (desc: TextureDesc, alignment: number) => estimateTextureSize(geometry(desc), alignment)
    expect(size({ format: 'R8G8B8A8_UNORM', width: 128, height: 128, mips: 8 }, 4 * KiB)).toBe(88 * KiB)
    // BC7 2048², 12 mips, 64 KiB tiles of 256×256 texels: 64 + 16 + 4 + 1 tiles, then mips 4..11 (128² … 1²) pack
    // into 16384 + 4096 + 1024 + 256 + 64 + 16 + 16 + 16 = 21872 B: one tile. 86 tiles = 5504 KiB.
    expect(size({ format: 'BC7_UNORM', width: 2048, height: 2048, mips: 12 }, 64 * KiB)).toBe(5504 * KiB)
    // A cube of 64² RGBA8 with 64 KiB tiles (128×128): each face is a packed 16 KiB tail, one tile: 6 × 64 KiB.
    expect(size({ dim: 'cube', format: 'R8G8B8A8_UNORM', width: 64, height: 64 }, 64 * KiB)).toBe(384 * KiB)
    // NV12 1920×1088: the luma plane (8 bpp, 64 KiB tiles of 256×256) is 8 × 5 = 40 tiles, the chroma plane of
    // half the height 8 × 3 = 24 tiles: 64 tiles = 4 MiB.
    expect(size({ format: 'NV12', width: 1920, height: 1088 }, 64 * KiB)).toBe(4 * MiB)
  })

  it('shrinks the 64 KiB tile for MSAA and rounds the total up to 4 MiB', () => {
    // 4 samples: the 128×128 RGBA8 tile becomes 64×64 texels. 1920×1080: 30 × 17 = 510 tiles = 31.875 MiB → 32 MiB.
    const msaa = geometry({ format: 'R8G8B8A8_UNORM', width: 1920, height: 1080, samples: 4 })
    expect(estimateTextureSize(msaa, 4 * MiB)).toBe(32 * MiB)
  })

  it('computes the copyable footprint with 256 B row pitch and 512 B subresource placement', () => {
    // 100×100 RGBA8: rows of 400 B pitched to 512: 512 × 99 + 400 = 51088.
    expect(copyableFootprint(geometry({ format: 'R8G8B8A8_UNORM', width: 100, height: 100 }))).toBe(51088)
    // Mip 1 (50²) starts at roundUp(51088, 512) = 51200: 256 × 49 + 200 = 12744 more: 63944.
    expect(copyableFootprint(geometry({ format: 'R8G8B8A8_UNORM', width: 100, height: 100, mips: 2 }))).toBe(63944)
  })

  it('places the slices of an array one after another, each from a 512 B boundary', () => {
    // One slice of 100×100 RGBA8 with 2 mips spans 63944 B; the next starts at roundUp(63944, 512) = 64000.
    const array = geometry({ dim: '2darray', format: 'R8G8B8A8_UNORM', width: 100, height: 100, depth: 3, mips: 2 })
    expect(copyableFootprint(array)).toBe(2 * 64000 + 63944)
    // A cube's six faces are slices too: 6 × 51200 − 112 (the last face's 51088 B, not rounded).
    const cube = geometry({ dim: 'cube', format: 'R8G8B8A8_UNORM', width: 100, height: 100 })
    expect(copyableFootprint(cube)).toBe(5 * 51200 + 51088)
  })

  it('works out an array of 2^31 slices from one (a hostile desc), as fast as a single slice', () => {
    const huge = geometry({ dim: '2darray', format: 'R32_UINT', width: 58, height: 24, depth: 2 ** 31, mips: 6 })
    const one = copyableFootprint(geometry({ format: 'R32_UINT', width: 58, height: 24, mips: 6 }))
    expect(copyableFootprint(huge)).toBe((2 ** 31 - 1) * Math.ceil(one / 512) * 512 + one)
  })
})

describe('texture ladder', () => {
  it('sends MSAA textures (4 MiB alignment) to Committed', () => {
    const m = newModel()
    const rtDesc: TextureDesc = { format: 'R8G8B8A8_UNORM', width: 1920, height: 1080, samples: 4, flags: ['RenderTargetable'] }
    const rt = texture(m, 1, rtDesc)
    expect(rt.placement).toBe('Committed')
    expect(rt.alignment).toBe(4 * MiB)
    expect(rt.size).toBe(32 * MiB)
    const plain = texture(m, 2, { format: 'R8G8B8A8_UNORM', width: 256, height: 256, samples: 4 })
    expect(plain.placement).toBe('Committed')
    expect(plain.route).toContain('alignment 4 MiB > pool alignment 64 KiB? yes → Committed')
    // 256² with 4 samples: 4 × 4 tiles of 64×64 = 1 MiB, rounded up to 4 MiB.
    expect(plain.size).toBe(4 * MiB)
  })

  it('pools render targets only when texturePool.rtuav.size is set', () => {
    const desc: TextureDesc = { format: 'R8G8B8A8_UNORM', width: 1920, height: 1080, flags: ['RenderTargetable'] }
    const off = texture(newModel(), 1, desc)
    expect(off.placement).toBe('Committed')
    expect(off.route).toContain('RenderTargetable|DepthStencilTargetable? yes, texturePool.rtuav.size 0 → Committed')
    // 64 KiB tiles of 128×128: 15 × 9 = 135 tiles = 8640 KiB.
    expect(off.size).toBe(8640 * KiB)
    const pooled = { 'texturePool.rtuav.size': 64 * MiB, 'texturePool.rtuav.maxAllocation': 64 * MiB }
    const on = texture(newModel(pooled), 1, desc)
    expect(on.placement).toBe('TextureRTPool')
    expect(on.poolName).toBe('DEFAULT/TextureRT/0')
    expect(on.size).toBe(8640 * KiB)
    const uav = texture(newModel(pooled), 2, {
      format: 'R32_FLOAT',
      width: 512,
      height: 512,
      flags: ['UAV'],
    })
    expect(uav.placement).toBe('TextureUAVPool')
    const unpooled = texture(newModel(), 3, { format: 'R32_FLOAT', width: 512, height: 512, flags: ['UAV'] })
    expect(unpooled.placement).toBe('Committed')
  })

  it('sends Shared and oversized textures to Committed with 64 KiB alignment and layout', () => {
    const m = newModel()
    const shared = texture(m, 1, { format: 'R8G8B8A8_UNORM', width: 64, height: 64, flags: ['Shared'] })
    expect(shared.placement).toBe('Committed')
    expect(shared.alignment).toBe(64 * KiB)
    expect(shared.size).toBe(64 * KiB) // one 128×128 tile
    const huge = texture(m, 2, { format: 'R8G8B8A8_UNORM', width: 8192, height: 8192 })
    expect(huge.placement).toBe('Committed')
    expect(huge.size).toBe(256 * MiB) // 64 × 64 tiles of 64 KiB
    expect(huge.route).toContain('size 256 MiB > texturePool.readOnly.maxAllocation 64 MiB? yes → Committed')
  })

  it('uses the driver size and alignment when the capture has them', () => {
    const m = newModel()
    const p = texture(m, 1, { format: 'R8G8B8A8_UNORM', width: 100, height: 100, size: 50000, align: 64 * KiB })
    expect(p.estimated).toBe(false)
    expect(p.placement).toBe('TextureReadOnlyPool')
    expect(p.size).toBe(64 * KiB) // 50000 rounded up to the pool's 64 KiB
    expect(p.route).toContain('driver alignment 64 KiB')
    const q = texture(m, 2, { format: 'R8G8B8A8_UNORM', width: 100, height: 100, size: 40000, align: 4 * KiB })
    expect(q.placement).toBe('TextureReadOnly4KPool')
    expect(q.size).toBe(40960) // 40000 rounded up to 4 KiB
  })

  it('makes CPUReadback textures Committed READBACK buffers of their copyable footprint', () => {
    const m = newModel()
    const p = texture(m, 1, { format: 'R8G8B8A8_UNORM', width: 100, height: 100, mips: 2, flags: ['CPUReadback'] })
    expect(p.placement).toBe('Committed')
    expect(p.heap).toBe('READBACK')
    expect(p.requested).toBe(63944)
    expect(p.size).toBe(64 * KiB)
    expect(p.estimated).toBe(false)
  })

  it('makes reserved textures Reserved, committing everything with ImmediateCommit', () => {
    const m = newModel()
    // 1024² RGBA8 in 64 KiB tiles of 128×128: 8 × 8 = 64 tiles = 4 MiB virtual.
    const lazy = texture(m, 1, { format: 'R8G8B8A8_UNORM', width: 1024, height: 1024, flags: ['ReservedResource'] })
    expect(lazy.placement).toBe('Reserved')
    expect(lazy.size).toBe(4 * MiB)
    expect(m.allocation(1)!.committed).toBe(0)
    const flags: TextureDesc['flags'] = ['ReservedResource', 'ImmediateCommit']
    texture(m, 2, { dim: '3d', format: 'R8_UNORM', width: 64, height: 32, depth: 32, flags })
    // 3d 8 bpp 64 KiB tile is 64×32×32: one tile.
    expect(m.allocation(2)!.committed).toBe(64 * KiB)
    expect(m.totals.get(8, 0)).toBe(64 * KiB) // Reserved row, heap bytes: committed bytes only
  })
})
