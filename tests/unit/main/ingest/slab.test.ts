import { describe, expect, it } from 'vitest'
import { CaptureBuilder } from '../../../../src/main/ingest/storeBuilder'
import { NdjsonScanner, SCANNER_TABLE_BYTES } from '../../../../src/main/ingest/scanner'
import { asDoubles, Slab } from '../../../../src/main/ingest/slab'

describe('slab', () => {
  it('cuts zeroed, eight-byte aligned tables that do not overlap', () => {
    const slab = new Slab(64)
    const a = slab.uint8(3) // bytes 0..2
    const b = slab.int32(2) // from 8: 8..15
    const c = slab.float64(2) // from 16: 16..31
    expect([a.byteOffset, b.byteOffset, c.byteOffset]).toEqual([0, 8, 16])
    expect(slab.bytesUsed).toBe(32)
    expect([...a, ...b, ...c]).toEqual([0, 0, 0, 0, 0, 0, 0])
    a.fill(255)
    b.fill(-1)
    c[0] = 1.5
    expect([...a]).toEqual([255, 255, 255])
    expect([...b]).toEqual([-1, -1])
    expect([...c]).toEqual([1.5, 0])
  })

  it('refuses a table past its end, naming the sizes', () => {
    const slab = new Slab(24)
    slab.int32(3) // bytes 0..11; the next table starts at 16
    expect(() => slab.float64(2)).toThrow('a slab of 24 bytes has no room for 16 more')
    expect(slab.bytesUsed).toBe(12)
    expect(slab.uint8(8).byteOffset).toBe(16)
    expect(() => slab.uint8(1)).toThrow(RangeError)
  })

  it('views a table of words as doubles over the same bytes', () => {
    const slab = new Slab(48)
    slab.uint8(1)
    const words = slab.int32(4)
    const wide = asDoubles(words)
    expect([wide.byteOffset, wide.length]).toEqual([words.byteOffset, 2])
    wide[1] = 1 // 0x3ff00000_00000000, little-endian: the high word second
    expect([...words]).toEqual([0, 0, 0, 0x3ff00000])
  })

  it("holds a scanner's fixed tables exactly", () => {
    const scanner = new NdjsonScanner(new CaptureBuilder(), { file: 'x' }) as unknown as { tables: Slab }
    expect(scanner.tables.bytesUsed).toBe(SCANNER_TABLE_BYTES)
  })
})
