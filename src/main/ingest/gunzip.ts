/**
 * Gunzip a stream of chunks, handing on every byte the compressed data decodes to, even when the stream is
 * cut short. zlib's stream fails without handing on what its failing step decoded, and a readable stream drops
 * what it has buffered when it fails, so how much of a cut-short file reached the reader depended on the chunks'
 * sizes and on how far behind the reader was. Here each chunk is written with a sync flush, and the next waits
 * until the flush has handed on all that chunk decodes to; the output is gathered as zlib makes it and handed on
 * before any failure. So a truncated file always gives every byte it decodes to, and the same error.
 */
import { constants, createGunzip } from 'node:zlib'
import { CancelledError, CaptureError, TruncatedGzipError } from './errors'

/** Decompressed bytes held for the reader before the compressed side waits for it. */
const HELD_BYTES = 4 << 20

export async function* gunzip(chunks: AsyncIterable<Uint8Array>, file: string, compressedRead: () => number): AsyncGenerator<Uint8Array> {
  const inflate = createGunzip()
  const held: Buffer[] = []
  let first = 0
  let heldBytes = 0
  let ended = false
  let failure: unknown = null
  let stopped = false
  // one waiter on each side: the reader waits for output, the feeder for its flush or for room
  let readerWake: (() => void) | null = null
  let feederWake: (() => void) | null = null
  const wakeReader = () => {
    const wake = readerWake
    readerWake = null
    wake?.()
  }
  const wakeFeeder = () => {
    const wake = feederWake
    feederWake = null
    wake?.()
  }
  inflate.on('data', (chunk: Buffer) => {
    held.push(chunk)
    heldBytes += chunk.length
    wakeReader()
  })
  inflate.on('end', () => {
    ended = true
    wakeReader()
  })
  inflate.on('error', (err) => {
    failure ??= err
    wakeReader()
    wakeFeeder()
  })
  inflate.on('close', wakeFeeder)

  let flushing = false
  const flushed = () => {
    // the flush's callback comes once zlib pushed its output; what was buffered flows on the next ticks
    setImmediate(() => {
      flushing = false
      wakeFeeder()
    })
  }
  const feed = async () => {
    try {
      for await (const chunk of chunks) {
        if (stopped || failure !== null) return
        flushing = true
        inflate.write(chunk)
        inflate.flush(constants.Z_SYNC_FLUSH, flushed)
        while (!stopped && failure === null && (flushing || heldBytes >= HELD_BYTES)) {
          await new Promise<void>((resolve) => (feederWake = resolve))
        }
        if (stopped || failure !== null) return
      }
      inflate.end()
    } catch (err) {
      inflate.destroy(err as Error)
    }
  }
  void feed()

  let out = 0
  try {
    for (;;) {
      if (first < held.length) {
        const chunk = held[first]
        held[first++] = EMPTY
        if (first === held.length) {
          held.length = 0
          first = 0
        }
        heldBytes -= chunk.length
        out += chunk.length
        wakeFeeder()
        yield chunk
        continue
      }
      if (failure !== null) throw failure
      if (ended) return
      await new Promise<void>((resolve) => (readerWake = resolve))
    }
  } catch (err) {
    if (err instanceof CancelledError || err instanceof CaptureError) throw err
    throw new TruncatedGzipError(file, out, compressedRead(), (err as Error).message)
  } finally {
    stopped = true
    inflate.destroy()
    wakeFeeder()
  }
}

const EMPTY = Buffer.alloc(0)
