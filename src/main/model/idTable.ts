/**
 * A model's live resources by their capture id: id → slot (a non-negative integer). A capture numbers its resources
 * from small integers up, so those ids index a flat table (slot + 1, 0 for none); any other id (negative,
 * fractional, past DIRECT_ID_LIMIT, or too far past what is live for the table to grow to it) goes to a Map. A
 * replay looks an id up at every create, release and bind: a Map with the deletions a replay makes costs several
 * times an array read there, and misses the cache more.
 *
 * The table grows to an id only while it stays at most DENSITY slots of 4 bytes for each live id (or MIN_DIRECT in
 * all): a capture whose ids start at ten million, or jump, is never copied as a table of tens of megabytes. When it
 * grows, the Map's ids it now covers move into it, so an integer id below its length is only ever in the table.
 *
 * A copy kept as a checkpoint holds only the live pairs (`clone(true)`: 12 bytes a live resource, where the table
 * holds 4 bytes for every id up to the largest); the table is made again from them at its first use, and a copy of
 * such a copy shares them until then.
 */

/** Ids at or past this never index the flat table. */
export const DIRECT_ID_LIMIT = 1 << 24
/** The table may hold this many ids for each live one... */
const DENSITY = 64
/** ...or this many in all, however few are live. */
const MIN_DIRECT = 1 << 16

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
    return this.far.size === 0 ? undefined : this.far.get(id)
  }

  has(id: number): boolean {
    return this.get(id) !== undefined
  }

  set(id: number, slot: number): void {
    if (this.packedIds !== null) this.unpack()
    if (id >= 0 && Number.isInteger(id) && (id < this.direct.length || this.grow(id))) {
      if (this.direct[id] === 0) this.size++
      this.direct[id] = slot + 1
      return
    }
    if (!this.far.has(id)) this.size++
    this.far.set(id, slot)
  }

  delete(id: number): boolean {
    if (this.packedIds !== null) this.unpack()
    if (id >= 0 && id < this.direct.length && Number.isInteger(id)) {
      if (this.direct[id] === 0) return false
      this.direct[id] = 0
      this.size--
      return true
    }
    if (!this.far.delete(id)) return false
    this.size--
    return true
  }

  /** Every (id, slot) pair: the table's ids ascending, then the Map's in the order they came. */
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

  /**
   * The table made long enough for `id` (an integer at least its length), twice as long at least so that growing
   * costs a copy of each id once on average, and the Map's ids it then covers moved into it; false, and nothing
   * changed, where that would pass DIRECT_ID_LIMIT or the density the table keeps.
   */
  private grow(id: number): boolean {
    const n = tableLength(this.direct.length, id)
    if (n > maxLength(this.size + 1)) return false
    const grown = new Int32Array(n)
    grown.set(this.direct)
    this.direct = grown
    if (this.far.size > 0) {
      for (const [farId, slot] of this.far) {
        if (farId >= 0 && farId < n && Number.isInteger(farId)) {
          grown[farId] = slot + 1
          this.far.delete(farId)
        }
      }
    }
    return true
  }

  /** A checkpoint's pairs made into the table and the Map. */
  private unpack(): void {
    const ids = this.packedIds as Float64Array
    const slots = this.packedSlots as Int32Array
    this.packedIds = null
    this.packedSlots = null
    this.size = 0
    // the table as long as all the pairs allow, made at once
    let top = -1
    for (let k = 0; k < ids.length; k++) if (ids[k] >= 0 && ids[k] < DIRECT_ID_LIMIT && Number.isInteger(ids[k])) top = Math.max(top, ids[k])
    const n = tableLength(this.direct.length, top)
    if (top >= 0 && n <= maxLength(ids.length)) this.direct = new Int32Array(n)
    for (let k = 0; k < ids.length; k++) this.set(ids[k], slots[k])
  }
}

/** The length a table of `length` grows to for `id`: twice as long at least, a power of two past the id. */
function tableLength(length: number, id: number): number {
  let n = Math.max(1024, length * 2)
  while (n <= id) n *= 2
  return n
}

/** The longest table `live` ids may keep (DENSITY, MIN_DIRECT), never past DIRECT_ID_LIMIT. */
function maxLength(live: number): number {
  return Math.min(DIRECT_ID_LIMIT, Math.max(MIN_DIRECT, DENSITY * live))
}
