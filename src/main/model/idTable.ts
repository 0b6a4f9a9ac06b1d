/**
 * A model's live resources by their capture id: id → slot (a non-negative integer). A capture numbers its resources
 * from small integers up, so those ids index a flat table (slot + 1, 0 for none); any other id (negative,
 * fractional, or past DIRECT_ID_LIMIT) goes to a Map. A replay looks an id up at every create, release and bind:
 * a Map with the deletions a replay makes costs several times an array read there, and misses the cache more.
 *
 * A copy kept as a checkpoint holds only the live pairs, ascending by id (`clone(true)`: 12 bytes a live resource,
 * where the flat table holds 4 bytes for every id up to the largest); the table is made again from them at its
 * first use, and a copy of such a copy shares them until then.
 */

/** Ids below this index the flat table; the table grows to the largest such id in use (4 bytes an id). */
export const DIRECT_ID_LIMIT = 1 << 24

export class IdTable {
  /** A table of the pairs (ids[k], values[k]); a value is a non-negative integer below 2^31 - 1. */
  static from(ids: Float64Array, values: Float64Array): IdTable {
    const t = new IdTable()
    for (let k = 0; k < ids.length; k++) t.set(ids[k], values[k])
    return t
  }

  private direct = new Int32Array(0)
  private far = new Map<number, number>()
  /** A checkpoint's pairs, not yet made into the table (see clone). */
  private packedIds: Float64Array | null = null
  private packedSlots: Int32Array | null = null
  size = 0

  get(id: number): number | undefined {
    if (this.packedIds !== null) this.unpack()
    if (id >= 0 && id < this.direct.length && Number.isInteger(id)) {
      const v = this.direct[id]
      return v === 0 ? undefined : v - 1
    }
    return id >= 0 && id < DIRECT_ID_LIMIT && Number.isInteger(id) ? undefined : this.far.get(id)
  }

  has(id: number): boolean {
    return this.get(id) !== undefined
  }

  set(id: number, slot: number): void {
    if (this.packedIds !== null) this.unpack()
    if (id >= 0 && id < DIRECT_ID_LIMIT && Number.isInteger(id)) {
      if (id >= this.direct.length) this.grow(id)
      if (this.direct[id] === 0) this.size++
      this.direct[id] = slot + 1
      return
    }
    if (!this.far.has(id)) this.size++
    this.far.set(id, slot)
  }

  delete(id: number): boolean {
    if (this.packedIds !== null) this.unpack()
    if (id >= 0 && id < DIRECT_ID_LIMIT && Number.isInteger(id)) {
      if (id >= this.direct.length || this.direct[id] === 0) return false
      this.direct[id] = 0
      this.size--
      return true
    }
    if (!this.far.delete(id)) return false
    this.size--
    return true
  }

  /** Every (id, slot) pair: the table's ids ascending, then the others in the order they came. */
  forEach(visit: (slot: number, id: number) => void): void {
    if (this.packedIds !== null) this.unpack()
    const direct = this.direct
    for (let id = 0; id < direct.length; id++) if (direct[id] !== 0) visit(direct[id] - 1, id)
    this.far.forEach(visit)
  }

  /**
   * A copy that goes on as this one would. `packed`: as a checkpoint keeps it, the live pairs only; the copy makes
   * its table again at its first use.
   */
  clone(packed = false): IdTable {
    const c = new IdTable()
    c.size = this.size
    if (this.packedIds !== null) {
      // the pairs never change: the copy shares them
      c.packedIds = this.packedIds
      c.packedSlots = this.packedSlots
      return c
    }
    if (!packed) {
      c.direct = this.direct.slice()
      c.far = new Map(this.far)
      return c
    }
    const ids = new Float64Array(this.size)
    const slots = new Int32Array(this.size)
    let k = 0
    this.forEach((slot, id) => {
      ids[k] = id
      slots[k++] = slot
    })
    c.packedIds = ids
    c.packedSlots = slots
    return c
  }

  /** The table made room for `id`: twice as long at least, so growing costs a copy of each id once on average. */
  private grow(id: number): void {
    let n = Math.max(1024, this.direct.length * 2)
    while (n <= id) n *= 2
    const grown = new Int32Array(Math.min(n, DIRECT_ID_LIMIT))
    grown.set(this.direct)
    this.direct = grown
  }

  /** A checkpoint's pairs made into the table and the Map. */
  private unpack(): void {
    const ids = this.packedIds as Float64Array
    const slots = this.packedSlots as Int32Array
    this.packedIds = null
    this.packedSlots = null
    let top = -1
    for (let k = 0; k < ids.length; k++) if (ids[k] < DIRECT_ID_LIMIT && ids[k] >= 0 && Number.isInteger(ids[k])) top = Math.max(top, ids[k])
    if (top >= 0) this.grow(top)
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]
      if (id >= 0 && id < DIRECT_ID_LIMIT && Number.isInteger(id)) this.direct[id] = slots[k] + 1
      else this.far.set(id, slots[k])
    }
  }
}
