/**
 * A set of numeric ids in a typed array: open addressing with linear probing and backward-shift deletion.
 * A JS Set boxes every double it is given; this one never allocates per operation, which matters when a
 * capture creates and releases millions of resources.
 */
const EMPTY = NaN

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
  private keys: Float64Array
  private mask: number
  size = 0

  constructor(capacity = 1024) {
    let n = 16
    while (n < capacity * 2) n *= 2
    this.keys = new Float64Array(n).fill(EMPTY)
    this.mask = n - 1
  }

  has(id: number): boolean {
    const keys = this.keys
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
    const keys = this.keys
    let slot = hashId(id) & this.mask
    for (;;) {
      const k = keys[slot]
      if (k === id) return false
      if (k !== k) break
      slot = (slot + 1) & this.mask
    }
    keys[slot] = id
    if (++this.size * 2 > keys.length) this.grow()
    return true
  }

  /** Removes id; false when it was not there. */
  delete(id: number): boolean {
    const keys = this.keys
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
    this.size--
    return true
  }

  clear(): void {
    this.keys.fill(EMPTY)
    this.size = 0
  }

  private grow(): void {
    const old = this.keys
    this.keys = new Float64Array(old.length * 2).fill(EMPTY)
    this.mask = this.keys.length - 1
    this.size = 0
    for (let i = 0; i < old.length; i++) {
      const k = old[i]
      if (k === k) this.add(k)
    }
  }
}
