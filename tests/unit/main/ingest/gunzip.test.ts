import { constants, gunzipSync, gzipSync } from 'node:zlib'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { CancelledError, TruncatedGzipError } from '../../../../src/main/ingest/errors'
import { gunzip } from '../../../../src/main/ingest/gunzip'

/** A few MiB of text that compresses about as a capture does. */
function captureLike(lines: number): Buffer {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(`{"e":"buffer","id":${i},"name":"Buf${i % 97}","size":${(i * 7919) % 65536},"frame":${i >> 8}}`)
  return Buffer.from(`${out.join('\n')}\n`)
}

async function* inChunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

/** Read everything, pausing `lagMs` after each chunk as a busy reader does; the failure, if any, is returned. */
async function drain(source: AsyncIterable<Uint8Array>, lagMs: number): Promise<{ bytes: Buffer; error?: unknown }> {
  const parts: Uint8Array[] = []
  try {
    for await (const chunk of source) {
      parts.push(chunk)
      if (lagMs > 0) await sleep(lagMs)
    }
    return { bytes: Buffer.concat(parts) }
  } catch (error) {
    return { bytes: Buffer.concat(parts), error }
  }
}

/** Everything the data of a cut gzip stream decodes to (zlib's own way to read a truncated stream). */
function decodable(cut: Buffer): Buffer {
  return gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH })
}

describe('gunzip', () => {
  const text = captureLike(60_000)
  const whole = gzipSync(text)

  it('gives back the original bytes whatever the chunk sizes', async () => {
    for (const size of [1, 4096, 65_536, whole.length]) {
      const source = size === 1 ? inChunks(whole.subarray(0, 5000), 1) : inChunks(whole, size)
      const { bytes, error } = await drain(gunzip(source, 'x.gz', () => 0), 0)
      if (size === 1) {
        // a byte at a time: only the first 5000 compressed bytes, cut short
        expect(error).toBeInstanceOf(TruncatedGzipError)
        expect(bytes.equals(decodable(whole.subarray(0, 5000)))).toBe(true)
      } else {
        expect(error).toBeUndefined()
        expect(bytes.equals(text)).toBe(true)
      }
    }
  })

  it('hands on all the decodable bytes of a cut stream, and says where, however slowly it is read', async () => {
    const cut = whole.subarray(0, Math.floor(whole.length * 0.7))
    const expected = decodable(cut)
    expect(expected.length).toBeGreaterThan(text.length / 2)
    expect(text.subarray(0, expected.length).equals(expected)).toBe(true)
    const outcomes = []
    // the chunk sizes a file's reads and a test's take; zlib's stream alone gave less than all for each of them
    for (const size of [4096, 1 << 14, 65_536, 1 << 20]) {
      for (const lag of [0, 5]) outcomes.push(await drain(gunzip(inChunks(cut, size), 'cut.gz', () => cut.length), lag))
    }
    for (const { bytes, error } of outcomes) {
      expect(bytes.equals(expected)).toBe(true)
      expect(error).toBeInstanceOf(TruncatedGzipError)
      const e = error as TruncatedGzipError
      expect(e.byteOffset).toBe(expected.length)
      expect(e.compressedBytes).toBe(cut.length)
      expect(e.message).toBe(
        `cut.gz: the gzip stream breaks off (unexpected end of file) at byte ${cut.length} of the compressed file, ` +
          `byte ${expected.length} of the decompressed stream; expected a complete gzip stream`,
      )
    }
  })

  it('passes a cancel from its source through as it is', async () => {
    async function* cancelled(): AsyncGenerator<Uint8Array> {
      yield whole.subarray(0, 1 << 14)
      throw new CancelledError()
    }
    const { error } = await drain(gunzip(cancelled(), 'x.gz', () => 0), 0)
    expect(error).toBeInstanceOf(CancelledError)
  })

  it('stops reading its source when its reader stops early', async () => {
    let closed = false
    let read = 0
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let at = 0; at < whole.length; at += 4096) {
          read++
          yield whole.subarray(at, at + 4096)
        }
      } finally {
        closed = true
      }
    }
    for await (const chunk of gunzip(source(), 'x.gz', () => 0)) {
      expect(chunk.length).toBeGreaterThan(0)
      break
    }
    for (let i = 0; i < 50 && !closed; i++) await sleep(2)
    expect(closed).toBe(true)
    expect(read).toBeLessThan(Math.ceil(whole.length / 4096))
  })
})
