/**
 * Numbers for resource descriptions: equal descs (a fixed number of numeric fields each) get the same small
 * integer, found through an open-addressing hash table, with no key string built per request. Fields compare as
 * numbers, except that NaN equals NaN (as their decimal strings would).
 */
export class DescIds {
  /** The desc being looked up: write every one of fields[0 .. width), then call id(). */
  readonly fields: Float64Array
  private tuples: Float64Array
  /** Each cell holds a desc's number + 1, 0 when empty. */
  private table = new Int32Array(64)
  private count = 0

  /**
   * `hashed`: how many of the first fields the hash reads (all by default). Put the fields that tell descs apart
   * first and hash a few: equality still compares them all; descs that differ only further on share a probe run.
   */
  constructor(
    readonly width: number,
    private readonly hashed = width,
  ) {
    this.fields = new Float64Array(width)
    this.tuples = new Float64Array(width * 16)
  }

  /** Distinct descs numbered so far. */
  get size(): number {
    return this.count
  }

  /** The number of the desc in `fields`, a new one the first time it is seen. */
  id(): number {
    const width = this.width
    const fields = this.fields
    const tuples = this.tuples
    const mask = this.table.length - 1
    let cell = hashFields(fields, 0, this.hashed) & mask
    for (;;) {
      const entry = this.table[cell] - 1
      if (entry < 0) break
      const base = entry * width
      let f = 0
      for (; f < width; f++) {
        const a = tuples[base + f]
        const b = fields[f]
        if (a !== b && (a === a || b === b)) break
      }
      if (f === width) return entry
      cell = (cell + 1) & mask
    }
    const id = this.count++
    if ((id + 1) * width > this.tuples.length) this.growTuples()
    this.tuples.set(fields, id * width)
    this.table[cell] = id + 1
    if (this.count * 2 > this.table.length) this.rehash()
    return id
  }

  /** The fields of desc number `id` (as first seen), into `out`. */
  fieldsOf(id: number, out: Float64Array): Float64Array {
    out.set(this.tuples.subarray(id * this.width, (id + 1) * this.width))
    return out
  }

  private growTuples(): void {
    const tuples = new Float64Array(this.tuples.length * 2)
    tuples.set(this.tuples)
    this.tuples = tuples
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2)
    const mask = table.length - 1
    for (let id = 0; id < this.count; id++) {
      let cell = hashFields(this.tuples, id * this.width, this.hashed) & mask
      while (table[cell] !== 0) cell = (cell + 1) & mask
      table[cell] = id + 1
    }
    this.table = table
  }
}

/**
 * A 32-bit hash of `count` fields from `start`: each field's low 32 integer bits mixed in and rotated, then the
 * murmur3 finalizer. Equal numbers hash equally (NaN and -0 truncate to 0); fields differing only beyond 2^32
 * collide, which only costs a probe.
 */
function hashFields(fields: Float64Array, start: number, count: number): number {
  let h = 0x811c9dc5
  for (let f = start; f < start + count; f++) {
    h = Math.imul(h ^ (fields[f] | 0), 0x9e3779b1)
    h = (h << 15) | (h >>> 17)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}
