/**
 * The distinct id lists of a store's `use` records, its lines: a replay names a record's ids by their line, equal
 * lists alike, each list unpacked once. A frame's `use` records mostly repeat a list of an earlier frame exactly,
 * so a replay reads a record's packed bytes to find its line (a hash of them, then a byte-by-byte comparison with
 * the line's first record), and unpacks them only for a list not seen before. The model keeps what a line's ids
 * resolved to (D3D12Model.useLine).
 */
import { unpackUseIds, type CaptureStore } from './store'

/** The hash's multiplier (FNV-1a's 32-bit prime). */
const PRIME = 0x01000193
/**
 * Lines kept before they must repeat: past this many, a new list is kept only while most records asked for found
 * their line. A capture whose lists never repeat (a growing set of ids named a few at a time) keeps no more than this.
 */
export const KEPT_LINES = 4096

/**
 * Once SAMPLE_AFTER records were looked up and few of the last ones found their line (a rate below SPARSE_RATE,
 * each look-up weighing 1 / RATE_SPAN of it), only one record in SAMPLE is looked up; the others are answered -1
 * (read from the store) without their hash. A capture whose lists never repeat (the stress workload's: 270 000
 * `use` records of eight ids drawn from tens of thousands alive, none repeated) otherwise hashes, keeps and resolves
 * its first KEPT_LINES lists as lines, then hashes and probes every later record, for nothing; and a fresh process
 * runs the model's plain path for the first time only thousands of records in, on code compiled without it. The
 * sampled records keep the rate current: lists that start to repeat bring every look-up back after three of them
 * found their line (some 50 records). A line is a cache, so the answers do not change: a record answered -1 is read
 * from the store as one past KEPT_LINES is.
 */
const SAMPLE_AFTER = 256
const SPARSE_RATE = 1 / 8
const RATE_SPAN = 16
const SAMPLE = 16

export class UseLines {
  /**
   * Every line's ids, one line after another: line `l`'s `count(l)` ids start at `from(l)`. A new array when it
   * grows or when the store's use ids are recoded (then the lines start again from 0): a reader that keeps
   * something by line checks that it still reads the same array.
   */
  ids = new Float64Array(4096)
  /** How many lines there are; lines are numbered from 0. */
  lines = 0
  /** Records asked for (lineOf), and those of them whose ids were new (kept as a line or not). */
  private asked = 0
  private news = 0
  /** How many of the last records looked up found their line (see SPARSE_RATE), from 1. */
  private rate = 1
  /** Few records find their line: only one in SAMPLE is looked up; `passed` counts the records asked since. */
  private sparse = false
  private passed = 0
  private idsLength = 0
  /** Per line: where its ids start in `ids`, how many, the hash of its packed form, and its first record's place. */
  private fromOf: Int32Array = new Int32Array(256)
  private countOf: Int32Array = new Int32Array(256)
  private hashOf: Int32Array = new Int32Array(256)
  /** The line's first record's `first` operand: a byte offset into the packed use ids, or an index into plain ones. */
  private firstOf = new Float64Array(256)
  /** The line's length in the packed use ids: bytes, or ids when they are plain numbers. */
  private lengthOf: Int32Array = new Int32Array(256)
  /** Open addressing by hash: line + 1, 0 for an empty place; at most half full. */
  private table = new Int32Array(1024)
  /** The store's use ids are plain numbers (a Float64Array); undefined before the first line. */
  private plain: boolean | undefined
  private scratch: number[] = []
  /** Where the last record's packed form ends (see lineOf); read right after it. */
  private end = 0
  /** Per line: the line of the record that came after it the last time it was asked for (-1: none yet). */
  private nextOf: Int32Array = new Int32Array(256).fill(-1)
  /** The line asked for last (-1: none). */
  private last = -1
  /** The packed use ids `view` reads, four bytes at a time (same). */
  private viewed: Uint8Array | null = null
  private view: DataView = new DataView(new ArrayBuffer(0))

  /** Where line `line`'s ids start in `ids`. */
  from(line: number): number {
    return this.fromOf[line]
  }

  /** How many ids line `line` has. */
  count(line: number): number {
    return this.countOf[line]
  }

  constructor(private readonly keep = KEPT_LINES) {}

  /**
   * The line of the `use` record whose operands start at `ref` in the store's `ops`; a new line if its ids are new,
   * or -1 when they are new and no more lines are kept (see KEPT_LINES), or when the record is not looked up (see
   * SPARSE_RATE): read its ids from the store then.
   */
  lineOf(store: CaptureStore, ref: number): number {
    const count = store.ops[ref]
    const first = store.ops[ref + 1]
    const useIds = store.useIds
    const plain = useIds instanceof Float64Array
    if (plain !== this.plain) this.restart(plain)
    if (this.sparse && ++this.passed % SAMPLE !== 0) return -1
    this.asked++
    const news = this.news
    // A frame's records mostly repeat an earlier frame's in order: first the line that came after the last one.
    const last = this.last
    const guess = last < 0 ? -1 : this.nextOf[last]
    let line: number
    if (guess >= 0 && this.countOf[guess] === count && this.same(useIds, this.firstOf[guess], first, this.lengthOf[guess])) line = guess
    else {
      line = this.find(useIds, store, count, first)
      if (last >= 0 && line >= 0) this.nextOf[last] = line
    }
    this.last = line
    this.rate += ((this.news === news ? 1 : 0) - this.rate) / RATE_SPAN
    this.sparse = this.asked >= SAMPLE_AFTER && this.rate < SPARSE_RATE
    return line
  }

  /** The line of `count` ids from `first` in `useIds`, by their hash; a new line if they are new. */
  private find(useIds: Uint8Array | Float64Array, store: CaptureStore, count: number, first: number): number {
    const hash = useIds instanceof Float64Array ? this.hashPlain(useIds, count, first) : this.hashPacked(useIds, count, first)
    const length = this.end - first
    const table = this.table
    const mask = table.length - 1
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = table[at]
      if (entry === 0) {
        this.news++
        if (this.lines >= this.keep && 2 * this.news > this.asked) return -1
        const line = this.add(store, count, first, hash, length)
        table[at] = line + 1
        if (2 * this.lines > table.length) this.rehash()
        return line
      }
      const line = entry - 1
      if (this.hashOf[line] === hash && this.countOf[line] === count && this.lengthOf[line] === length && this.same(useIds, this.firstOf[line], first, length)) return line
    }
  }

  /** The hash of `count` packed ids from byte `first`; `end` gets the byte after them. */
  private hashPacked(bytes: Uint8Array, count: number, first: number): number {
    let hash = count | 0
    let at = first
    for (let i = 0; i < count; i++) {
      // An id's varint; the low bit of its first byte says a second varint, a run's length, follows.
      let b = bytes[at++]
      hash = Math.imul(hash ^ b, PRIME)
      const run = b & 1
      while (b >= 0x80) {
        b = bytes[at++]
        hash = Math.imul(hash ^ b, PRIME)
      }
      if (run === 1) {
        b = bytes[at++]
        hash = Math.imul(hash ^ b, PRIME)
        let length = b & 0x7f
        for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
          b = bytes[at++]
          hash = Math.imul(hash ^ b, PRIME)
          length += (b & 0x7f) * scale
        }
        i += length
      }
    }
    this.end = at
    return hash
  }

  /** The hash of `count` plain ids from index `first`; `end` gets the index after them. */
  private hashPlain(ids: Float64Array, count: number, first: number): number {
    let hash = count | 0
    for (let i = first; i < first + count; i++) hash = Math.imul(hash ^ (ids[i] | 0), PRIME)
    this.end = first + count
    return hash
  }

  /** Whether the `length` values from `a` and from `b` are equal. */
  private same(values: Uint8Array | Float64Array, a: number, b: number, length: number): boolean {
    if (a === b) return true
    if (b + length > values.length) return false
    if (values instanceof Float64Array) return samePlain(values, a, b, length)
    if (values !== this.viewed) {
      this.viewed = values
      this.view = new DataView(values.buffer, values.byteOffset, values.byteLength)
    }
    return samePacked(this.view, values, a, b, length)
  }

  private add(store: CaptureStore, count: number, first: number, hash: number, length: number): number {
    const line = this.lines++
    if (line === this.fromOf.length) this.growLines()
    const ids = unpackUseIds(store.useIds, count, first, this.scratch)
    if (this.idsLength + count > this.ids.length) {
      const grown = new Float64Array(Math.max(2 * this.ids.length, this.idsLength + count))
      grown.set(this.ids)
      this.ids = grown
    }
    const from = this.idsLength
    for (let k = 0; k < count; k++) this.ids[from + k] = ids[k]
    this.idsLength = from + count
    this.fromOf[line] = from
    this.countOf[line] = count
    this.hashOf[line] = hash
    this.firstOf[line] = first
    this.lengthOf[line] = length
    return line
  }

  private growLines(): void {
    const n = 2 * this.fromOf.length
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n)
      b.set(a)
      return b
    }
    this.fromOf = i32(this.fromOf)
    this.countOf = i32(this.countOf)
    this.hashOf = i32(this.hashOf)
    this.lengthOf = i32(this.lengthOf)
    const next = new Int32Array(n).fill(-1)
    next.set(this.nextOf)
    this.nextOf = next
    const first = new Float64Array(n)
    first.set(this.firstOf)
    this.firstOf = first
  }

  private rehash(): void {
    const table = new Int32Array(2 * this.table.length)
    const mask = table.length - 1
    for (let line = 0; line < this.lines; line++) {
      let at = this.hashOf[line] & mask
      while (table[at] !== 0) at = (at + 1) & mask
      table[at] = line + 1
    }
    this.table = table
  }

  /** The store's use ids changed coding (recoded as plain numbers): the lines start again, in a new `ids`. */
  private restart(plain: boolean): void {
    this.plain = plain
    this.lines = 0
    this.asked = 0
    this.news = 0
    this.rate = 1
    this.sparse = false
    this.passed = 0
    this.idsLength = 0
    this.ids = new Float64Array(this.ids.length)
    this.table.fill(0)
    this.nextOf.fill(-1)
    this.last = -1
  }
}

/** Whether `length` packed bytes from `a` and from `b` are the same: four at a time (`view` over `bytes`), then one. */
function samePacked(view: DataView, bytes: Uint8Array, a: number, b: number, length: number): boolean {
  const words = length & ~3
  let k = 0
  for (; k < words; k += 4) if (view.getInt32(a + k, true) !== view.getInt32(b + k, true)) return false
  for (; k < length; k++) if (bytes[a + k] !== bytes[b + k]) return false
  return true
}

function samePlain(ids: Float64Array, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (ids[a + k] !== ids[b + k]) return false
  return true
}
