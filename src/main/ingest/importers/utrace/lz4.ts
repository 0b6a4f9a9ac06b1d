/**
 * LZ4 block decoding (the block format of lz4_Block_format.md, without the frame around it), as a trace's
 * compressed packets carry it. Every read and every match is checked, so a corrupt block is an error at its byte
 * and never a read past the input or a write past the output.
 */

/** A fault inside a block: `at` is the byte of the compressed block where it was found. */
export class Lz4Error extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message)
    this.name = 'Lz4Error'
  }
}

const MIN_MATCH = 4

/** Decodes `src` into exactly `decodedSize` bytes. */
export function decodeLz4Block(src: Uint8Array, decodedSize: number): Uint8Array {
  const dst = new Uint8Array(decodedSize)
  const end = src.length
  let s = 0
  let d = 0
  while (s < end) {
    const token = src[s++]
    let literals = token >>> 4
    if (literals === 15) {
      let more: number
      do {
        if (s >= end) throw new Lz4Error(s, 'the block ends inside a literal length')
        more = src[s++]
        literals += more
      } while (more === 255)
    }
    if (s + literals > end) throw new Lz4Error(s, `${literals} literal bytes, only ${end - s} left in the block`)
    if (d + literals > decodedSize) throw new Lz4Error(s, `literals past the decoded size of ${decodedSize} bytes`)
    if (literals > 32) {
      dst.set(src.subarray(s, s + literals), d)
      s += literals
      d += literals
    } else {
      for (let i = 0; i < literals; i++) dst[d++] = src[s++]
    }
    // the last sequence has literals only
    if (s === end) break
    if (s + 2 > end) throw new Lz4Error(s, 'the block ends inside a match offset')
    const offset = src[s] | (src[s + 1] << 8)
    if (offset === 0 || offset > d) throw new Lz4Error(s, `a match offset from 1 to ${d}, found ${offset}`)
    s += 2
    let length = token & 15
    if (length === 15) {
      let more: number
      do {
        if (s >= end) throw new Lz4Error(s, 'the block ends inside a match length')
        more = src[s++]
        length += more
      } while (more === 255)
    }
    length += MIN_MATCH
    if (d + length > decodedSize) throw new Lz4Error(s, `a match past the decoded size of ${decodedSize} bytes`)
    let from = d - offset
    if (offset >= length && length > 32) {
      dst.copyWithin(d, from, from + length)
      d += length
    } else {
      // short, or overlapping: a match may repeat the bytes it is writing
      for (let i = 0; i < length; i++) dst[d++] = dst[from++]
    }
  }
  if (d !== decodedSize) throw new Lz4Error(s, `${decodedSize} decoded bytes, the block gives ${d}`)
  return dst
}
