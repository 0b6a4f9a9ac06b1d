/**
 * Every allocation the model holds (live resources, and released ones waiting for the GPU), one slot each in
 * typed-array columns. Slots are recycled; ids map to the slot of their live allocation.
 */
import type { Bytes } from '../../../shared/units'

/** What a slot is. */
export const Kind = {
  Buffer: 1,
  Texture: 2,
  /** Upload staging (lock, initial data, `upload` records): released when made, freed when the GPU is done. */
  Staging: 3,
  /** The old location of a block moved by defrag or of a renamed dynamic buffer. */
  Moved: 4,
  /** A FastConstantAllocator page. */
  ConstantPage: 5,
} as const

/** Where its bytes are. */
export const Loc = {
  /** Nothing (a zero-size request). */
  None: 0,
  /** A block of a MemoryPool (`block` is the block index). */
  Pool: 1,
  /** A block of a BuddyPool (`block` is the order, `base` the block's offset). */
  Buddy: 2,
  Committed: 3,
  Reserved: 4,
} as const

export const SlotState = { Free: 0, Live: 1, Pending: 2 } as const

export const SlotFlag = { Estimated: 1, HighPriority: 2 } as const

type ColumnArray = Float64Array | Int32Array | Uint8Array
type Columns = Record<(typeof COLUMNS)[number], ColumnArray>

/** The per-slot columns, for copies. */
const COLUMNS = [
  'id',
  'kind',
  'state',
  'loc',
  'placement',
  'heap',
  'flags',
  'pool',
  'block',
  'base',
  'offset',
  'size',
  'requested',
  'alignment',
  'poolAlignment',
  'committed',
  'commitRequested',
  'created',
  'lockFrame',
  'object',
] as const

// Copies by element type, so each loop sees one kind of array (a loop over all three is slow to index).
/** A float column's rows, as 32-bit integers when every one of them is one (half the bytes, the same numbers). */
export function gatherF64(column: Float64Array, rows: Int32Array): Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> {
  let narrow = true
  for (let k = 0; k < rows.length; k++) {
    const v = column[rows[k]]
    if ((v | 0) !== v || (v === 0 && 1 / v < 0)) {
      narrow = false
      break
    }
  }
  const out = narrow ? new Int32Array(rows.length) : new Float64Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

/** A whole float column of n slots from rows gathered as 32-bit integers. */
export function scatterWide(packed: Int32Array, rows: Int32Array, n: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(n)
  for (let k = 0; k < rows.length; k++) out[rows[k]] = packed[k]
  return out
}

function gatherI32(column: Int32Array, rows: Int32Array): Int32Array {
  const out = new Int32Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

function gatherU8(column: Uint8Array, rows: Int32Array): Uint8Array {
  const out = new Uint8Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

function scatterF64(packed: Float64Array, rows: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n)
  for (let k = 0; k < rows.length; k++) out[rows[k]] = packed[k]
  return out
}

function scatterI32(packed: Int32Array, rows: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n)
  for (let k = 0; k < rows.length; k++) out[rows[k]] = packed[k]
  return out
}

function scatterU8(packed: Uint8Array, rows: Int32Array, n: number): Uint8Array {
  const out = new Uint8Array(n)
  for (let k = 0; k < rows.length; k++) out[rows[k]] = packed[k]
  return out
}

/** The rows of a column (the slots in use), as a packed copy keeps them. */
function gather(column: ColumnArray, rows: Int32Array): ColumnArray {
  if (column instanceof Float64Array) return gatherF64(column, rows)
  if (column instanceof Int32Array) return gatherI32(column, rows)
  return gatherU8(column, rows)
}

/** A whole column of n slots from a packed copy's rows; the free slots are zero. */
function scatter(packed: ColumnArray, rows: Int32Array, n: number): ColumnArray {
  if (packed instanceof Float64Array) return scatterF64(packed, rows, n)
  if (packed instanceof Int32Array) return scatterI32(packed, rows, n)
  return scatterU8(packed, rows, n)
}

export class Allocations {
  capacity = 0
  count = 0
  id = new Float64Array(0)
  kind = new Uint8Array(0)
  state = new Uint8Array(0)
  loc = new Uint8Array(0)
  placement = new Uint8Array(0)
  heap = new Uint8Array(0)
  flags = new Uint8Array(0)
  /** Pool id (MemoryPool or BuddyPool), -1 for none. */
  pool = new Int32Array(0)
  block = new Int32Array(0)
  /** Buddy block start. */
  base = new Float64Array(0)
  /** Where the request starts (after alignment inside its block). */
  offset = new Float64Array(0)
  /** Occupied bytes (reserved: the virtual size; their physical bytes are `committed`). */
  size = new Float64Array(0)
  requested = new Float64Array(0)
  alignment = new Float64Array(0)
  /** The alignment the pool honoured (the pool's own for placed strategies). */
  poolAlignment = new Float64Array(0)
  committed = new Float64Array(0)
  /** Reserved: bytes the last commit asked for (clamped to the virtual size). */
  commitRequested = new Float64Array(0)
  created = new Float64Array(0)
  /** Locked (defrag may not move it) until the GPU finished this frame; -1 when unlocked. */
  lockFrame = new Float64Array(0)
  /** Own residency object (committed DEFAULT and reserved resources), -1 otherwise. */
  object = new Int32Array(0)
  private freeSlots: number[] = []
  /** A packed copy's slot of each row (see packedClone), null otherwise. */
  private packedSlots: Int32Array | null = null
  /** A packed copy's float columns kept as 32-bit integers. */
  private narrowed: (typeof COLUMNS)[number][] = []

  alloc(): number {
    const reused = this.freeSlots.pop()
    const slot = reused !== undefined ? reused : this.count++
    if (slot >= this.capacity) this.grow(Math.max(1024, this.capacity * 2))
    this.pool[slot] = -1
    this.block[slot] = -1
    this.object[slot] = -1
    this.lockFrame[slot] = -1
    this.flags[slot] = 0
    this.committed[slot] = 0
    this.commitRequested[slot] = 0
    this.base[slot] = 0
    this.offset[slot] = 0
    return slot
  }

  release(slot: number): void {
    this.state[slot] = SlotState.Free
    this.kind[slot] = 0
    this.freeSlots.push(slot)
  }

  /** Physical bytes an allocation holds: committed bytes for reserved resources, its size otherwise. */
  bytes(slot: number): Bytes {
    return this.loc[slot] === Loc.Reserved ? this.committed[slot] : this.size[slot]
  }

  /** Requested bytes matching `bytes`. */
  requestedBytes(slot: number): Bytes {
    return this.loc[slot] === Loc.Reserved ? this.commitRequested[slot] : this.requested[slot]
  }

  /** A deep copy holding only the slots made so far (a copy costs what the model holds, not its slack). */
  clone(): Allocations {
    if (this.packedSlots !== null) return this.unpacked()
    const c = new Allocations()
    const n = this.count
    c.capacity = n
    c.count = n
    const from = this as unknown as Columns
    const to = c as unknown as Columns
    for (const name of COLUMNS) to[name] = from[name].slice(0, n)
    c.freeSlots = this.freeSlots.slice()
    return c
  }

  /**
   * A copy to keep and clone later (a checkpoint): the columns of the slots in use only. A free slot is always
   * written whole before it is read again, so its values need not be kept. Its clone() unpacks it.
   */
  packedClone(): Allocations {
    if (this.packedSlots !== null) return this
    let used = 0
    for (let slot = 0; slot < this.count; slot++) if (this.state[slot] !== SlotState.Free) used++
    const rows = new Int32Array(used)
    for (let slot = 0, k = 0; slot < this.count; slot++) if (this.state[slot] !== SlotState.Free) rows[k++] = slot
    const c = new Allocations()
    c.count = this.count
    const from = this as unknown as Columns
    const to = c as unknown as Columns
    c.narrowed = []
    for (const name of COLUMNS) {
      const packed = gather(from[name], rows)
      if (from[name] instanceof Float64Array && packed instanceof Int32Array) c.narrowed.push(name)
      to[name] = packed
    }
    c.freeSlots = this.freeSlots.slice()
    c.packedSlots = rows
    return c
  }

  private unpacked(): Allocations {
    const rows = this.packedSlots!
    const c = new Allocations()
    const n = this.count
    c.capacity = n
    c.count = n
    const from = this as unknown as Columns
    const to = c as unknown as Columns
    for (const name of COLUMNS) {
      const packed = from[name]
      to[name] = this.narrowed.includes(name) ? scatterWide(packed as Int32Array, rows, n) : scatter(packed, rows, n)
    }
    c.freeSlots = this.freeSlots.slice()
    return c
  }

  private grow(capacity: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(capacity)
      b.set(a)
      return b
    }
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(capacity)
      b.set(a)
      return b
    }
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(capacity)
      b.set(a)
      return b
    }
    this.id = f64(this.id)
    this.kind = u8(this.kind)
    this.state = u8(this.state)
    this.loc = u8(this.loc)
    this.placement = u8(this.placement)
    this.heap = u8(this.heap)
    this.flags = u8(this.flags)
    this.pool = i32(this.pool)
    this.block = i32(this.block)
    this.base = f64(this.base)
    this.offset = f64(this.offset)
    this.size = f64(this.size)
    this.requested = f64(this.requested)
    this.alignment = f64(this.alignment)
    this.poolAlignment = f64(this.poolAlignment)
    this.committed = f64(this.committed)
    this.commitRequested = f64(this.commitRequested)
    this.created = f64(this.created)
    this.lockFrame = f64(this.lockFrame)
    this.object = i32(this.object)
    this.capacity = capacity
  }
}

/** Ids below this are looked up in a flat table; larger, negative or fractional ids in a Map. */
const DIRECT_LIMIT = 1 << 24

/**
 * Resource id → slot of its live allocation. Captures number resources densely, so a flat Int32Array (slot + 1,
 * 0 for none) answers most look-ups; a Map with many deletions is several times slower on this hot path.
 */
export class IdMap {
  private direct = new Int32Array(1024)
  private far = new Map<number, number>()
  /** A packed copy's (id, slot) pairs; it unpacks on first use, and its own clones are unpacked. */
  private packed: Float64Array | null = null
  size = 0

  get(id: number): number | undefined {
    if (this.packed !== null) this.unpack()
    if (id >= 0 && id < DIRECT_LIMIT && Number.isInteger(id)) {
      const v = id < this.direct.length ? this.direct[id] : 0
      return v === 0 ? undefined : v - 1
    }
    return this.far.get(id)
  }

  has(id: number): boolean {
    return this.get(id) !== undefined
  }

  set(id: number, slot: number): void {
    if (this.packed !== null) this.unpack()
    if (id >= 0 && id < DIRECT_LIMIT && Number.isInteger(id)) {
      if (id >= this.direct.length) {
        let n = Math.max(1024, this.direct.length)
        while (n <= id) n *= 2
        const grown = new Int32Array(n)
        grown.set(this.direct)
        this.direct = grown
      }
      if (this.direct[id] === 0) this.size++
      this.direct[id] = slot + 1
      return
    }
    if (!this.far.has(id)) this.size++
    this.far.set(id, slot)
  }

  delete(id: number): void {
    if (this.packed !== null) this.unpack()
    if (id >= 0 && id < DIRECT_LIMIT && Number.isInteger(id)) {
      if (id < this.direct.length && this.direct[id] !== 0) {
        this.direct[id] = 0
        this.size--
      }
      return
    }
    if (this.far.delete(id)) this.size--
  }

  /** Every live slot (in no particular order). */
  slots(): number[] {
    if (this.packed !== null) this.unpack()
    const out: number[] = []
    for (let id = 0; id < this.direct.length; id++) if (this.direct[id] !== 0) out.push(this.direct[id] - 1)
    for (const slot of this.far.values()) out.push(slot)
    return out
  }

  clone(): IdMap {
    const c = new IdMap()
    if (this.packed !== null) {
      c.packed = this.packed
      c.unpack()
      return c
    }
    c.direct = this.direct.slice()
    c.far = new Map(this.far)
    c.size = this.size
    return c
  }

  /**
   * A copy as (id, slot) pairs in id order: the size of what is live, not of the id range (ids that only grow
   * would make the direct table as long as the capture's creates). For a copy that is kept and cloned, not used.
   */
  packedClone(): IdMap {
    if (this.packed !== null) return this.clone()
    const pairs = new Float64Array(this.size * 2)
    let k = 0
    for (let id = 0; id < this.direct.length; id++) {
      if (this.direct[id] === 0) continue
      pairs[k++] = id
      pairs[k++] = this.direct[id] - 1
    }
    for (const [id, slot] of this.far) {
      pairs[k++] = id
      pairs[k++] = slot
    }
    const c = new IdMap()
    c.direct = new Int32Array(0)
    c.packed = pairs
    c.size = this.size
    return c
  }

  private unpack(): void {
    const pairs = this.packed!
    this.packed = null
    this.size = 0
    this.direct = new Int32Array(1024)
    this.far = new Map()
    for (let k = 0; k < pairs.length; k += 2) this.set(pairs[k], pairs[k + 1])
  }
}
