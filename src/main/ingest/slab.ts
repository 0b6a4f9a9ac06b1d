/**
 * Fixed-size typed arrays cut from one ArrayBuffer. Each typed array of its own under 128 KiB comes from the C
 * heap, which zeroes it page by page as it hands it out, so every page costs a fault (about 11 µs on the 2-core
 * bench machine) before the table is used; a buffer of a few MiB is mapped fresh, already zero, and a page of it
 * costs a fault only when something first writes there. The scanner's fixed tables take about 2 MiB, of which a
 * load touches a part: as separate arrays they took about 250 faults and 3 ms per scanner before the first byte
 * was read (bench/README.md, "The scanner's tables in one buffer").
 */
export class Slab {
  private readonly buffer: ArrayBuffer
  private used = 0

  constructor(bytes: number) {
    this.buffer = new ArrayBuffer(bytes)
  }

  /** Bytes handed out so far, alignment included. */
  get bytesUsed(): number {
    return this.used
  }

  /** `length` elements of `bytesPer` bytes, eight-byte aligned so a view of the same bytes as doubles fits. */
  private take(length: number, bytesPer: number): number {
    const at = (this.used + 7) & ~7
    const end = at + length * bytesPer
    if (end > this.buffer.byteLength) throw new RangeError(`a slab of ${this.buffer.byteLength} bytes has no room for ${length * bytesPer} more`)
    this.used = end
    return at
  }

  int32(length: number): Int32Array {
    return new Int32Array(this.buffer, this.take(length, 4), length)
  }

  float64(length: number): Float64Array {
    return new Float64Array(this.buffer, this.take(length, 8), length)
  }

  uint8(length: number): Uint8Array {
    return new Uint8Array(this.buffer, this.take(length, 1), length)
  }
}

/** The bytes of `words` (an even number of them, from an eight-byte boundary) as doubles, two words each. */
export function asDoubles(words: Int32Array): Float64Array {
  return new Float64Array(words.buffer, words.byteOffset, words.length >> 1)
}
