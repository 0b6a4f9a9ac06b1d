import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { importRmv, parseRmv, RmvFormatError } from '../../../../../../src/main/ingest/importers/rmv'
import { zstdDecompress } from '../../../../../../src/main/ingest/importers/rmv/zstd'
import { runs } from '../../../../../properties'

// The real sample, and the same trace with every chunk zstd-compressed by the reference zstd (see
// tests/fixtures/rmv-sample-trace-rx6600.zstd.README.md): what is read from both must be the same.
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../../fixtures/${name}`, import.meta.url)))
const sample = fixture('real/rmv-sample-trace-rx6600.rmv')
const zstd = fixture('rmv-sample-trace-rx6600.zstd.rmv')
const view = new DataView(zstd.buffer, zstd.byteOffset, zstd.length)
const INDEX = Number(view.getBigInt64(16, true))
const field = (entry: number, offset: number) => Number(view.getBigInt64(INDEX + 64 * entry + offset, true))

describe('an RMV trace with zstd-compressed chunks', () => {
  it('is an RDF file whose nine chunks are all compressed, and smaller than the sample', () => {
    expect(Number(view.getBigInt64(24, true))).toBe(9 * 64)
    for (let e = 0; e < 9; e++) expect(zstd[INDEX + 64 * e + 16]).toBe(1)
    // RmtData stream 0 (entry 3): 344817 bytes stored as 39304
    expect([field(3, 48), field(3, 56)]).toEqual([39_304, 344_817])
    expect(zstd.length).toBe(66_806)
    expect(zstd.length).toBeLessThan(sample.length / 6)
  })

  it('reads the same adapter, heaps, streams and tokens as the uncompressed sample', () => {
    const plain = parseRmv(sample)
    const packed = parseRmv(zstd, { decompress: zstdDecompress })
    expect(packed.adapter).toEqual(plain.adapter)
    expect(packed.adapter.name).toBe('AMD Radeon RX 6600')
    expect(packed.heapSizes).toEqual(plain.heapSizes)
    expect(packed.streams.map((s) => [s.processId, s.bytes, s.tokens])).toEqual([
      [0, 344_817, 21_892],
      [53_892, 86_036, 7_409],
    ])
    expect(packed.tokenCounts).toEqual(plain.tokenCounts)
  })

  it('imports as the same records, with no decoder to give (the importer has its own)', () => {
    const plain = importRmv({ name: 'sample.rmv', bytes: sample })
    const packed = importRmv({ name: 'sample.zstd.rmv', bytes: zstd })
    // 2028 frames + 489 heaps + 720 placed + 470 releases + 468 frees + 476 resident + 468 evict = 5119 records
    expect(packed?.records).toHaveLength(5119)
    expect(packed?.records).toEqual(plain?.records)
    expect(packed?.header).toEqual(plain?.header)
  })

  it('says where a chunk does not decompress to its stated size', () => {
    // entry 2 is SystemInfo, 32617 bytes: stated as 32616, the frame decodes past the room given
    const short = zstd.slice()
    new DataView(short.buffer).setBigInt64(INDEX + 64 * 2 + 56, 32_616n, true)
    expect(() => parseRmv(short, { decompress: zstdDecompress })).toThrow(RmvFormatError)
    try {
      parseRmv(short, { decompress: zstdDecompress })
    } catch (error) {
      expect((error as RmvFormatError).offset).toBe(field(2, 40))
      expect((error as Error).message).toMatch(/zstd data for chunk "SystemInfo".*decodes to more than 32616 bytes/)
    }
    // stated as 32618: one byte fewer comes out than the entry says
    const long = zstd.slice()
    new DataView(long.buffer).setBigInt64(INDEX + 64 * 2 + 56, 32_618n, true)
    expect(() => parseRmv(long, { decompress: zstdDecompress })).toThrow(/32618 bytes after decompressing chunk "SystemInfo".*32617 bytes/)
  })

  it('never escapes as another error: bytes flipped inside the compressed token streams (property)', () => {
    // the compressed token streams: entries 3 and 4
    const streams = fc.oneof(
      fc.integer({ min: field(3, 40), max: field(3, 40) + field(3, 48) - 1 }),
      fc.integer({ min: field(4, 40), max: field(4, 40) + field(4, 48) - 1 }),
    )
    fc.assert(
      fc.property(fc.array(fc.tuple(streams, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (flips) => {
        const bytes = zstd.slice()
        for (const [at, value] of flips) bytes[at] = value
        try {
          parseRmv(bytes, { decompress: zstdDecompress })
        } catch (error) {
          if (!(error instanceof RmvFormatError)) throw error
          expect(error.offset).toBeGreaterThanOrEqual(0)
        }
      }),
      { numRuns: runs(100) },
    )
  })
})
