/**
 * Every allocation the model holds (live resources, and released ones waiting for the GPU), one slot each in
 * typed-array columns. Slots are recycled; ids map to the slot of their live allocation.
 */
import type { Bytes } from '../../../shared/units'
import { IdTable } from '../idTable'
import { copyColumn, restoredCapacity, RowCopy, TableShadow, type Column, type RecycledColumns, type TableShape } from './rowCopy'

/** What a slot is. */
export const Kind = {
  Buffer: 1,
  Texture: 2,
  /** Upload staging (lock, initial data, `upload` records): released when made, freed when the GPU is done. */
  Staging: 3,
  /** The old location of a block moved by defrag or of a renamed dynamic buffer. */
  Moved: 4,
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

type Columns = Record<(typeof COLUMNS)[number], Column>

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

/** The columns as a checkpoint's copy keeps them: a row no copy keeps reads as zeros (a free slot). */
const SHAPE: TableShape = {
  kinds: COLUMNS.map((name) => (name === 'pool' || name === 'block' || name === 'object' ? 'i32' : ['kind', 'state', 'loc', 'placement', 'heap', 'flags'].includes(name) ? 'u8' : 'f64')),
  fill: COLUMNS.map(() => 0),
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
  /** A checkpoint's copy of the slots (see packedClone, changedSince), null otherwise; its clone() restores it. */
  copy: RowCopy | null = null

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

  /**
   * A deep copy holding only the slots made so far (a copy costs what the model holds, not its slack), its columns
   * taken from `pool` where one is given (RecycledColumns.column).
   */
  clone(pool?: RecycledColumns): Allocations {
    if (this.copy !== null) return this.restored(pool)
    const c = new Allocations()
    const n = this.count
    c.capacity = n
    c.count = n
    const from = this as unknown as Columns
    const to = c as unknown as Columns
    for (const name of COLUMNS) to[name] = copyColumn(from[name], n, pool)
    c.freeSlots = this.freeSlots.slice()
    return c
  }

  /** The columns, for a RecycledColumns: this table is not read again, and is left empty. */
  letGo(): Column[] {
    if (this.copy !== null) return []
    const columns = this.columns()
    const empty = new Allocations()
    const to = this as unknown as Columns
    const from = empty as unknown as Columns
    for (const name of COLUMNS) to[name] = from[name]
    this.capacity = 0
    this.count = 0
    this.freeSlots = []
    return columns
  }

  /**
   * A copy to keep and clone later (a checkpoint): the columns of the slots in use only. A free slot is always
   * written whole before it is read again, so its values need not be kept. Its clone() restores it.
   */
  packedClone(): Allocations {
    if (this.copy !== null) return this
    let used = 0
    for (let slot = 0; slot < this.count; slot++) if (this.state[slot] !== SlotState.Free) used++
    const rows = new Int32Array(used)
    for (let slot = 0, k = 0; slot < this.count; slot++) if (this.state[slot] !== SlotState.Free) rows[k++] = slot
    return this.kept(RowCopy.whole(SHAPE, this.columns(), this.count, rows, this.freeSlots))
  }

  /**
   * A copy to keep (a checkpoint) of only the slots that differ from `shadow`: the slots as they were at the
   * checkpoint before (`previous`, a copy made by packedClone or changedSince). The shadow then equals this table.
   */
  changedSince(shadow: TableShadow, previous: Allocations): Allocations {
    return this.kept(shadow.changes(this.columns(), this.count, this.freeSlots, previous.copy!))
  }

  /** The slots as they are, for the next checkpoint's changedSince. */
  shadow(): TableShadow {
    return TableShadow.of(this.columns(), this.count, this.freeSlots)
  }

  private columns(): Column[] {
    const from = this as unknown as Columns
    return COLUMNS.map((name) => from[name])
  }

  private kept(copy: RowCopy): Allocations {
    const c = new Allocations()
    c.count = copy.count
    c.copy = copy
    return c
  }

  private restored(pool?: RecycledColumns): Allocations {
    const { columns, free } = this.copy!.restore(restoredCapacity(this.count), pool)
    const c = new Allocations()
    c.capacity = columns[0].length
    c.count = this.count
    const to = c as unknown as Columns
    COLUMNS.forEach((name, j) => (to[name] = columns[j]))
    c.freeSlots = free
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

/** The id map's direct table as a checkpoint's copy keeps it: 0 (no slot) where no copy keeps an id. */
const ID_SHAPE: TableShape = { kinds: ['i32'], fill: [0] }

/**
 * Resource id → slot of its live allocation: an IdTable (model/idTable.ts: a flat table for the ids a capture
 * numbers densely, a Map for the others) whose checkpoint copies keep only the rows of its table that changed since
 * the checkpoint before (RowCopy), as the model's other tables do.
 */
export class IdMap extends IdTable {
  /** A checkpoint's copy of the direct table (see packedClone, changedSince); it restores on first use, and so do its clones. */
  copy: RowCopy | null = null

  /** A copy that goes on as this one would; `packed`: as a checkpoint keeps it (packedClone). */
  override clone(packed = false): IdMap {
    return packed ? this.packedClone() : this.cloneWith()
  }

  /** A deep copy, its direct table taken from `pool` where one is given (RecycledColumns.column). */
  cloneWith(pool?: RecycledColumns): IdMap {
    const c = new IdMap()
    c.base = this.base
    c.size = this.size
    if (this.copy !== null) {
      c.copy = this.copy
      c.far = this.far
      c.restore(pool)
      return c
    }
    c.direct = copyColumn(this.direct, this.direct.length, pool)
    c.far = new Map(this.far)
    return c
  }

  /**
   * A copy to keep and clone later (a checkpoint): the ids in use of the direct table, the size of what is live
   * (ids that only grow make the table as long as the capture's creates), and the others whole.
   */
  packedClone(): IdMap {
    if (this.copy !== null) return this.cloneWith()
    let used = 0
    const direct = this.direct
    for (let id = 0; id < direct.length; id++) if (direct[id] !== 0) used++
    const rows = new Int32Array(used)
    for (let id = 0, k = 0; id < direct.length; id++) if (direct[id] !== 0) rows[k++] = id
    return this.kept(RowCopy.whole(ID_SHAPE, [direct], direct.length, rows, []))
  }

  /** A copy to keep of only the ids whose slot differs from `shadow` (see Allocations.changedSince). */
  changedSince(shadow: TableShadow, previous: IdMap): IdMap {
    return this.kept(shadow.changes([this.direct], this.direct.length, [], previous.copy!))
  }

  /** The direct table as it is, for the next checkpoint's changedSince. */
  shadow(): TableShadow {
    if (this.unsettled) this.settle()
    return TableShadow.of([this.direct], this.direct.length, [])
  }

  /** The direct table, for a RecycledColumns: this map is not read again, and is left empty. */
  letGo(): Column[] {
    if (this.copy !== null) return []
    const direct = this.direct
    this.direct = new Int32Array(0)
    this.far = new Map()
    this.size = 0
    return [direct]
  }

  protected override settle(): void {
    this.restore()
  }

  private kept(copy: RowCopy): IdMap {
    const c = new IdMap()
    c.base = this.base
    c.far = new Map(this.far)
    c.size = this.size
    c.copy = copy
    c.unsettled = true
    return c
  }

  private restore(pool?: RecycledColumns): void {
    const copy = this.copy!
    this.copy = null
    this.unsettled = false
    this.direct = copy.restore(copy.count, pool).columns[0] as Int32Array<ArrayBuffer>
    this.far = new Map(this.far)
  }
}
