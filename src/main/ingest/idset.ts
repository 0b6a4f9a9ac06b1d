/**
 * A set of numeric ids that never allocates per operation (a JS Set boxes every double it is given), which
 * matters when a capture creates and releases millions of resources.
 *
 * Captures number their resources with small integers, so an id that is an integer in [0, DENSE_LIMIT) is a byte
 * of its own, indexed by the id: one load or store, no hash, and a byte per id where a hashed slot costs sixteen
 * (eight bytes at half load), which keeps a set of a hundred thousand live ids in cache. Any other id (negative,
 * a fraction, an address) goes to an open-addressed table with linear probing and backward-shift deletion.
 */
const EMPTY = NaN
/** Ids below this are kept by index: at most 4 MiB, whatever the capture. */
const DENSE_LIMIT = 1 << 22
/** The stamps cycle through 1…MAX_STAMP; 0 is never a member. */
const MAX_STAMP = 255

const bits = new Float64Array(1)
const words = new Uint32Array(bits.buffer)

function hashId(id: number): number {
  let h: number
  if ((id | 0) === id) h = id
  else {
    bits[0] = id
    h = words[0] ^ Math.imul(words[1], 0x9e3779b1)
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

export class IdSet {
  /**
   * Ids in [0, DENSE_LIMIT): `id` is a member when `dense[id] === stamp`. The array grows to cover the largest id
   * added; `clear` moves to the next stamp instead of clearing it (a render graph's transients are cleared at
   * every graph's end), and clears it once every MAX_STAMP clears.
   */
  private dense = new Uint8Array(0)
  private stamp = 1
  /** Every other id: open addressing, created with the first such id. */
  private keys: Float64Array | undefined
  private mask = 0
  private hashed = 0
  private readonly capacity: number
  size = 0

  /** `capacity`: how many ids outside the dense range the table is first sized for. */
  constructor(capacity = 1024) {
    this.capacity = capacity
  }

  has(id: number): boolean {
    const index = id >>> 0
    if (index === id && index < DENSE_LIMIT) return index < this.dense.length && this.dense[index] === this.stamp
    const keys = this.keys
    if (keys === undefined) return false
    let slot = hashId(id) & this.mask
    for (;;) {
      const k = keys[slot]
      if (k === id) return true
      if (k !== k) return false // NaN: empty
      slot = (slot + 1) & this.mask
    }
  }

  /** Adds id; false when it was already there. */
  add(id: number): boolean {
    const index = id >>> 0
    if (index === id && index < DENSE_LIMIT) {
      if (index >= this.dense.length) this.cover(index)
      const dense = this.dense
      if (dense[index] === this.stamp) return false
      dense[index] = this.stamp
      this.size++
      return true
    }
    if (!this.addHashed(id)) return false
    this.size++
    return true
  }

  /** Removes id; false when it was not there. */
  delete(id: number): boolean {
    const index = id >>> 0
    if (index === id && index < DENSE_LIMIT) {
      if (index >= this.dense.length || this.dense[index] !== this.stamp) return false
      this.dense[index] = 0
      this.size--
      return true
    }
    if (!this.deleteHashed(id)) return false
    this.size--
    return true
  }

  clear(): void {
    if (this.stamp === MAX_STAMP) {
      this.dense.fill(0)
      this.stamp = 1
    } else this.stamp++
    if (this.hashed > 0) {
      this.keys!.fill(EMPTY)
      this.hashed = 0
    }
    this.size = 0
  }

  /** Grow the dense array to hold `index`: to a power of two, at least doubling. */
  private cover(index: number): void {
    let length = Math.max(1024, this.dense.length * 2)
    while (length <= index) length *= 2
    const next = new Uint8Array(Math.min(length, DENSE_LIMIT))
    next.set(this.dense)
    this.dense = next
  }

  private addHashed(id: number): boolean {
    if (this.keys === undefined) {
      let n = 16
      while (n < this.capacity * 2) n *= 2
      this.keys = new Float64Array(n).fill(EMPTY)
      this.mask = n - 1
    }
    const keys = this.keys
    let slot = hashId(id) & this.mask
    for (;;) {
      const k = keys[slot]
      if (k === id) return false
      if (k !== k) break
      slot = (slot + 1) & this.mask
    }
    keys[slot] = id
    if (++this.hashed * 2 > keys.length) this.grow()
    return true
  }

  private deleteHashed(id: number): boolean {
    const keys = this.keys
    if (keys === undefined) return false
    const mask = this.mask
    let slot = hashId(id) & mask
    for (;;) {
      const k = keys[slot]
      if (k === id) break
      if (k !== k) return false
      slot = (slot + 1) & mask
    }
    // Backward shift: pull later entries of the probe run into the hole so lookups never need tombstones.
    let hole = slot
    let next = (hole + 1) & mask
    for (;;) {
      const k = keys[next]
      if (k !== k) break
      const home = hashId(k) & mask
      // move k into the hole if its home is not cyclically within (hole, next]
      const between = hole <= next ? home > hole && home <= next : home > hole || home <= next
      if (!between) {
        keys[hole] = k
        hole = next
      }
      next = (next + 1) & mask
    }
    keys[hole] = EMPTY
    this.hashed--
    return true
  }

  private grow(): void {
    const old = this.keys!
    this.keys = new Float64Array(old.length * 2).fill(EMPTY)
    this.mask = this.keys.length - 1
    this.hashed = 0
    for (let i = 0; i < old.length; i++) {
      const k = old[i]
      if (k === k) this.addHashed(k)
    }
  }
}
