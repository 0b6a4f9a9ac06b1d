/**
 * Checked little-endian reads over a byte array. Every read names its file offset when it fails, so a corrupt
 * trace gives an RmvFormatError and never a RangeError. 64-bit fields are read as doubles: exact up to 2^53.
 */
import { RmvFormatError } from './errors'

export class ByteView {
  readonly bytes: Uint8Array
  readonly view: DataView
  /** File offset of bytes[0], for messages. */
  readonly base: number

  constructor(bytes: Uint8Array, base = 0) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.base = base
  }

  get length(): number {
    return this.bytes.length
  }

  need(at: number, size: number, what: string): void {
    if (!(at >= 0 && size >= 0 && at + size <= this.bytes.length)) {
      throw new RmvFormatError(this.base + at, `${what} (${size} bytes)`, `${Math.max(0, this.bytes.length - at)} bytes left`)
    }
  }

  u8(at: number, what: string): number {
    this.need(at, 1, what)
    return this.bytes[at]
  }

  u16(at: number, what: string): number {
    this.need(at, 2, what)
    return this.view.getUint16(at, true)
  }

  i16(at: number, what: string): number {
    this.need(at, 2, what)
    return this.view.getInt16(at, true)
  }

  u32(at: number, what: string): number {
    this.need(at, 4, what)
    return this.view.getUint32(at, true)
  }

  i32(at: number, what: string): number {
    this.need(at, 4, what)
    return this.view.getInt32(at, true)
  }

  /** An unsigned 64-bit field as a double. */
  u64(at: number, what: string): number {
    this.need(at, 8, what)
    return this.view.getUint32(at, true) + this.view.getUint32(at + 4, true) * 2 ** 32
  }

  /** A signed 64-bit field as a double (offsets and sizes of RDF, which are int64). */
  i64(at: number, what: string): number {
    this.need(at, 8, what)
    return this.view.getUint32(at, true) + this.view.getInt32(at + 4, true) * 2 ** 32
  }

  /** A fixed-size, zero-padded string field. */
  cstring(at: number, size: number, what: string): string {
    this.need(at, size, what)
    let end = at
    const stop = at + size
    while (end < stop && this.bytes[end] !== 0) end++
    return utf8.decode(this.bytes.subarray(at, end))
  }

  sub(at: number, size: number, what: string): Uint8Array {
    this.need(at, size, what)
    return this.bytes.subarray(at, at + size)
  }
}

const utf8 = new TextDecoder('utf-8')

export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes)
}

/** Text up to the first NUL byte. */
export function decodeCString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0)
  return utf8.decode(end < 0 ? bytes : bytes.subarray(0, end))
}

/** Bits [hi:lo] for a field of at most 25 bits: it spans at most four bytes whatever its first bit. */
function narrowField(bytes: Uint8Array, at: number, hi: number, lo: number): number {
  const width = hi - lo + 1
  const shift = lo & 7
  const first = at + (lo >>> 3)
  const span = (width + shift + 7) >>> 3
  let word = bytes[first]
  if (span > 1) word |= bytes[first + 1] << 8
  if (span > 2) word |= bytes[first + 2] << 16
  if (span > 3) word |= bytes[first + 3] << 24
  return (word >>> shift) & ((1 << width) - 1)
}

/**
 * Bits [hi:lo] of the little-endian bit string that starts at bytes[at], as a double (exact up to 53 bits wide).
 * Callers check that the token holds those bytes; this reads without allocating.
 */
export function bitField(bytes: Uint8Array, at: number, hi: number, lo: number): number {
  const width = hi - lo + 1
  if (width <= 25) return narrowField(bytes, at, hi, lo)
  if (width === 32 && (lo & 7) === 0) {
    const first = at + (lo >>> 3)
    return (bytes[first] | (bytes[first + 1] << 8) | (bytes[first + 2] << 16) | (bytes[first + 3] << 24)) >>> 0
  }
  // Wider fields in 24-bit pieces, low piece first.
  let value = 0
  let scale = 1
  for (let bit = lo; bit <= hi; bit += 24) {
    const top = Math.min(hi, bit + 23)
    value += narrowField(bytes, at, top, bit) * scale
    scale *= 16777216
  }
  return value
}

/** Bits [hi:lo] as lowercase hex, for fields wider than 53 bits (hashes). */
export function bitFieldHex(bytes: Uint8Array, at: number, hi: number, lo: number): string {
  let hex = ''
  // Whole nibbles from the top; a partial top nibble first when the width is not a multiple of 4.
  let top = hi
  const partial = (hi - lo + 1) % 4
  if (partial !== 0) {
    hex += narrowField(bytes, at, top, top - partial + 1).toString(16)
    top -= partial
  }
  for (; top >= lo; top -= 4) hex += narrowField(bytes, at, top, top - 3).toString(16)
  return hex
}
