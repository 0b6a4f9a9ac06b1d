import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import { blockAt, blockAtPixel, largestFree, sortPools } from '../../../../src/renderer/src/lib/poolLayout'

describe('pool maps', () => {
  const pool = {
    offset: Float64Array.of(0, 8 * MiB, 12 * MiB),
    size: Float64Array.of(8 * MiB, 4 * MiB, 52 * MiB),
    state: Uint8Array.of(1, 2, 0),
    bytes: 64 * MiB,
  }

  it('finds the block at a byte and at a pixel', () => {
    expect(blockAt(pool, 0)).toBe(0)
    expect(blockAt(pool, 9 * MiB)).toBe(1)
    expect(blockAt(pool, 64 * MiB)).toBe(-1)
    // 64 px for 64 MiB: pixel 10 is byte 10 MiB, in block 1
    expect(blockAtPixel(pool, 10, 64)).toBe(1)
    // 500 bytes a pixel: pixel 0 covers blocks of 100, 100 and 400 bytes; the widest is what shows there
    const tiny = { offset: Float64Array.of(0, 100, 200, 600), size: Float64Array.of(100, 100, 400, 400), bytes: 1000 }
    expect(blockAtPixel(tiny, 0.5, 2)).toBe(2)
    expect(largestFree({ size: Float64Array.of(5, 7, 3, 9), state: Uint8Array.of(1, 0, 2, 0) })).toBe(9)
  })

  it('orders pools by heap, then placement, then name with numbers in order', () => {
    const make = (name: string, heap: string, placement: string) => ({ ...pool, id: new Float64Array(3), pool: 0, name, heap, placement, used: 0, pending: 0, free: 0, spare: false })
    const sorted = sortPools([
      make('UPLOAD/Big/0', 'UPLOAD', 'UploadBigBlock'),
      make('DEFAULT/ReadOnly/10', 'DEFAULT', 'TextureReadOnlyPool'),
      make('DEFAULT/ReadOnly/2', 'DEFAULT', 'TextureReadOnlyPool'),
      make('DEFAULT/SingleState/0', 'DEFAULT', 'SharedBufferPool'),
    ])
    expect(sorted.map((p) => p.name)).toEqual(['DEFAULT/SingleState/0', 'DEFAULT/ReadOnly/2', 'DEFAULT/ReadOnly/10', 'UPLOAD/Big/0'])
  })
})
