/**
 * zstd for compressed RDF chunks: Node's own decoder where it has one (Node 22.15 and later, and the Electron
 * releases built on it), else fzstd, a small pure-JavaScript decoder — Node 20's zlib has no zstd.
 */
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import type { RmvDecompress } from './container'

type NodeZstd = (data: Uint8Array, options?: { maxOutputLength?: number }) => Buffer

const native = (zlib as unknown as { zstdDecompressSync?: NodeZstd }).zstdDecompressSync

/**
 * Decompress one chunk, with room for `uncompressedSize` bytes and no more: a frame that decodes to more is an error
 * here, one that decodes to fewer comes back short (the reader compares the length with the chunk's index entry).
 */
export const zstdDecompress: RmvDecompress = (data, uncompressedSize) => {
  if (native) {
    const out = native(data, { maxOutputLength: Math.max(1, uncompressedSize) })
    return new Uint8Array(out.buffer, out.byteOffset, out.length)
  }
  const out = new Uint8Array(uncompressedSize)
  let length = 0
  const stream = new Decompress((chunk) => {
    if (length + chunk.length > out.length) throw new RangeError(`the data decodes to more than ${out.length} bytes`)
    out.set(chunk, length)
    length += chunk.length
  })
  stream.push(data, true)
  return out.subarray(0, length)
}
