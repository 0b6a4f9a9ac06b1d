/**
 * A model's live resources by their capture id: id → slot (a non-negative integer). A capture numbers its resources
 * from small integers up (or from a larger first one: ID_BASE_FROM), so those ids index a flat table (slot + 1, 0
 * for none); any other id (negative, fractional, before the table's base, DIRECT_ID_LIMIT past it, or too far past
 * what is live for the table to grow to it) goes to a Map. A
 * replay looks an id up at every create, release and bind: a Map with the deletions a replay makes costs several
 * times an array read there, and misses the cache more.
 *
 * The table grows to an id only while it stays at most DENSITY slots of 4 bytes for each live id (or MIN_DIRECT in
 * all): a capture whose ids start at ten million, or jump, is never copied as a table of tens of megabytes. When it
 * grows, the Map's ids it now covers move into it, so an integer id below its length is only ever in the table.
 *
 * A copy kept as a checkpoint holds only the live pairs (`clone(true)`: 12 bytes a live resource, where the table
 * holds 4 bytes for every id up to the largest); the table is made again from them at its first use, and a copy of
 * such a copy shares them until then. The D3D12 model's IdMap (model/d3d12/allocations.ts) is this table kept
 * another way: a checkpoint holds the rows of its table that changed since the checkpoint before.
 */
import { grown } from './grown'

/** Ids this far or farther past the table's base never index it. */
export const DIRECT_ID_LIMIT = 1 << 24
/**
 * A first id at or past this starts the flat table (its base): a capture numbering its resources from ten million
 * keeps a table as long as its ids span. Below it, the table starts at id 0, as captures numbering from 0 or 1 have it.
 */
export const ID_BASE_FROM = 1 << 20
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

  protected direct = new Int32Array(0)
  /** The id the table's first entry stands for (ID_BASE_FROM), chosen by the id that makes the table. */
  protected base = 0
  protected far = new Map<number, number>()
  /** The table is still to be made from a copy a checkpoint keeps (`settle` makes it, at the first use). */
  protected unsettled = false
  /** A checkpoint's pairs, not yet made into the table (see clone). */
  private packedIds: Float64Array | null = null
  private packedSlots: Int32Array | null = null
  size = 0

  get(id: number): number | undefined {
    if (this.unsettled) this.settle()
    const i = id - this.base
    if (i >= 0 && i < this.direct.length && Number.isInteger(i)) {
      const v = this.direct[i]
      return v === 0 ? undefined : v - 1
    }
    return this.far.size === 0 ? undefined : this.far.get(id)
  }

  has(id: number): boolean {
    return this.get(id) !== undefined
  }

  set(id: number, slot: number): void {
    if (this.unsettled) this.settle()
    if (this.direct.length === 0 && id >= 0 && Number.isSafeInteger(id)) this.base = id >= ID_BASE_FROM ? id : 0
    const i = id - this.base
    if (i >= 0 && Number.isInteger(i) && (i < this.direct.length || this.grow(i))) {
      if (this.direct[i] === 0) this.size++
      this.direct[i] = slot + 1
      return
    }
    if (!this.far.has(id)) this.size++
    this.far.set(id, slot)
  }

  delete(id: number): boolean {
    if (this.unsettled) this.settle()
    const i = id - this.base
    if (i >= 0 && i < this.direct.length && Number.isInteger(i)) {
      if (this.direct[i] === 0) return false
      this.direct[i] = 0
      this.size--
      return true
    }
    if (!this.far.delete(id)) return false
    this.size--
    return true
  }

  /** Every (id, slot) pair: the table's ids ascending, then the Map's in the order they came. */
  forEach(visit: (slot: number, id: number) => void): void {
    if (this.unsettled) this.settle()
    const direct = this.direct
    const base = this.base
    for (let i = 0; i < direct.length; i++) if (direct[i] !== 0) visit(direct[i] - 1, base + i)
    this.far.forEach(visit)
  }

  /** Every slot, in forEach's order: the table's ids ascending, then the Map's. */
  slots(): Int32Array {
    if (this.unsettled) this.settle()
    const out = new Int32Array(this.size)
    const direct = this.direct
    let k = 0
    for (let i = 0; i < direct.length; i++) if (direct[i] !== 0) out[k++] = direct[i] - 1
    for (const slot of this.far.values()) out[k++] = slot
    return out
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
      c.unsettled = true
      return c
    }
    if (!packed) {
      c.base = this.base
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
    c.unsettled = true
    return c
  }

  /**
   * The table made long enough for index `i` (past the base; an integer at least its length), twice as long at
   * least so that growing costs a copy of each id once on average, and the Map's ids it then covers moved into it;
   * false, and nothing changed, where that would pass DIRECT_ID_LIMIT or the density the table keeps.
   */
  private grow(i: number): boolean {
    const n = tableLength(this.direct.length, i)
    if (n > maxLength(this.size + 1)) return false
    const direct = grown(this.direct, n)
    this.direct = direct
    if (this.far.size > 0) {
      for (const [farId, slot] of this.far) {
        const at = farId - this.base
        if (at >= 0 && at < n && Number.isInteger(at)) {
          direct[at] = slot + 1
          this.far.delete(farId)
        }
      }
    }
    return true
  }

  /** The table made from the copy a checkpoint keeps: here, its pairs made into the table and the Map. */
  protected settle(): void {
    this.unsettled = false
    const ids = this.packedIds as Float64Array
    const slots = this.packedSlots as Int32Array
    this.packedIds = null
    this.packedSlots = null
    this.size = 0
    // the base as the first pair sets it (the table's ids come first, ascending); the table as long as all the
    // pairs allow, made at once
    const first = ids.findIndex((id) => id >= 0 && Number.isSafeInteger(id))
    if (first >= 0) this.base = ids[first] >= ID_BASE_FROM ? ids[first] : 0
    let top = -1
    for (let k = 0; k < ids.length; k++) {
      const i = ids[k] - this.base
      if (i >= 0 && i < DIRECT_ID_LIMIT && Number.isInteger(i)) top = Math.max(top, i)
    }
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

/**
 * The longest table `live` ids may keep (DENSITY, MIN_DIRECT), never past DIRECT_ID_LIMIT; the D3D12 model's `use`
 * stamps (d3d12/useCache.ts) keep to it as well.
 */
export function maxLength(live: number): number {
  return Math.min(DIRECT_ID_LIMIT, Math.max(MIN_DIRECT, DENSITY * live))
}
