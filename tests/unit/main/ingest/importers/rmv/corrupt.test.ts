import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { importRmv, parseRmv, RmvFormatError } from '../../../../../../src/main/ingest/importers/rmv'
import { ImportError } from '../../../../../../src/main/ingest/importers/source'
import { runs } from '../../../../../properties'

const sample = new Uint8Array(readFileSync(new URL('../../../../../fixtures/real/rmv-sample-trace-rx6600.rmv', import.meta.url)))
// RDF header of the sample: chunk index at 464370, 9 entries of 64 bytes; the file is 464946 bytes.
const INDEX = 464_370
const entry = (i: number): number => INDEX + 64 * i

function failure(bytes: Uint8Array): RmvFormatError {
  try {
    parseRmv(bytes)
  } catch (error) {
    if (error instanceof RmvFormatError) return error
    throw error
  }
  throw new Error('the trace was read without an error')
}

function patched(edit: (bytes: Uint8Array, view: DataView) => void): Uint8Array {
  const bytes = sample.slice()
  edit(bytes, new DataView(bytes.buffer))
  return bytes
}

describe('truncated and corrupted traces', () => {
  it('refuses a file that is not a trace, naming the magic', () => {
    const error = failure(new TextEncoder().encode('{"format":"heapscope-capture"}'))
    expect(error.offset).toBe(0)
    expect(error.message).toMatch(/AMD_RDF/)
    expect(failure(new Uint8Array(0)).offset).toBe(0)
  })

  it.each([4, 31, 1000, INDEX - 1, INDEX + 100, sample.length - 1])('refuses the trace cut at %i bytes', (length) => {
    const error = failure(sample.subarray(0, length))
    if (length < 8) {
      // Not even the 8-byte magic.
      expect(error.offset).toBe(0)
      expect(error.expected).toMatch(/magic/)
    } else if (length < 32) {
      // The magic, but not the 32-byte RDF header.
      expect(error.offset).toBe(0)
      expect(error.expected).toMatch(/RDF file header/)
    } else {
      // The header still points at an index at 464370 + 576 bytes, past the cut: the index offset field (16) is named,
      // and the trace said to be truncated, its index lost with the end of the file.
      expect(error.offset).toBe(16)
      expect(error.message).toBe(
        `RMV trace truncated: the file ends at byte ${length}; its chunk index (bytes 464370–464946) is written last, when the capture ends, and is lost: without it no chunk can be located, so nothing of this trace can be read`,
      )
    }
  })

  it('names a chunk that lies outside the file', () => {
    // Entry 3 (the first RmtData chunk): its data offset field is at 464370 + 3×64 + 40 = 464602.
    const bytes = patched((_, v) => v.setBigInt64(entry(3) + 40, BigInt(sample.length), true))
    const error = failure(bytes)
    expect(error.offset).toBe(entry(3) + 40)
    expect(error.message).toMatch(/chunk "RmtData"/)
  })

  it('names a truncated token with its offset', () => {
    // Entry 4 holds stream 1, 86036 bytes at 377758; its last token is a 7-byte VIRTUAL_FREE at 463787.
    // Three bytes fewer leave 4 of its 7 bytes.
    const bytes = patched((_, v) => v.setBigInt64(entry(4) + 48, 86_036n - 3n, true))
    const error = failure(bytes)
    expect(error.offset).toBe(463_787)
    expect(error.message).toMatch(/complete virtualFree token \(7 bytes\), found 4 bytes left/)
  })

  it('names an unknown token type with its offset', () => {
    // Stream 0's second token, at 32929, is a page table update (type 3); type 2 is reserved.
    const bytes = patched((b) => (b[32_929] = (b[32_929] & 0xf0) | 2))
    const error = failure(bytes)
    expect(error.offset).toBe(32_929)
    expect(error.message).toMatch(/known token type/)
  })

  it('names an unknown resource type with its offset', () => {
    // The first RESOURCE_CREATE is at 377782; its type field [53:48] is byte 6 → 377788. 63 is no resource type.
    const bytes = patched((b) => (b[377_788] = 63))
    const error = failure(bytes)
    expect(error.offset).toBe(377_788)
    expect(error.message).toMatch(/resource type from 0 to 17, found 63/)
  })

  it('refuses a zstd chunk when no decoder is given', () => {
    // Mark entry 2 (SystemInfo, data at 276) as zstd-compressed.
    const bytes = patched((b) => (b[entry(2) + 16] = 1))
    const error = failure(bytes)
    expect(error.offset).toBe(276)
    expect(error.message).toMatch(/zstd-compressed and no zstd decoder was given/)
  })

  it('reaches the importers as an ImportError that names the file and byte', () => {
    const bytes = patched((b) => (b[32_929] = (b[32_929] & 0xf0) | 2))
    expect(() => importRmv({ name: 'broken.rmv', bytes })).toThrow(ImportError)
    expect(() => importRmv({ name: 'broken.rmv', bytes })).toThrow(/^broken\.rmv: byte 32929: RMV trace/)
    expect(importRmv({ name: 'x.rmv', bytes: new TextEncoder().encode('{}') })).toBeNull()
    const imported = importRmv({ name: 'sample.rmv', bytes: sample })
    // 2028 frames + 489 heaps + 720 placed + 470 releases + 468 frees + 476 resident + 468 evict = 5119 records.
    expect(imported?.records).toHaveLength(5119)
    expect(imported?.format).toBe('rmv')
  })

  it('never escapes as another error: random truncation and flipped bytes (property)', () => {
    // Flips land anywhere, or inside the two token streams (32917..377734 and 377758..463794) where most of the
    // decoding happens, or inside the chunk index.
    const position = fc.oneof(
      fc.integer({ min: 0, max: sample.length - 1 }),
      fc.integer({ min: 32_917, max: 463_793 }),
      fc.integer({ min: INDEX, max: sample.length - 1 }),
    )
    fc.assert(
      fc.property(
        fc.array(fc.tuple(position, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 0, max: sample.length }), { nil: undefined }),
        (flips, cut) => {
          const bytes = sample.slice(0, cut)
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value
          try {
            parseRmv(bytes)
          } catch (error) {
            if (!(error instanceof RmvFormatError)) throw error
            expect(error.offset).toBeGreaterThanOrEqual(0)
          }
        },
      ),
      { numRuns: runs(150) },
    )
  })
})
