/**
 * The D3D12 model's read-only views (docs/model.md): the live buffers and textures as rows or as columns, one live
 * resource's row, and every pool with its blocks in offset order. They read the model's tables and change nothing.
 */
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { HeapType, Placement } from '../../../shared/model'
import { NO_BLOCKS } from '../../../shared/ipc/snapshot'
import type { Bytes, Frame } from '../../../shared/units'
import { Kind, Loc, SlotFlag, SlotState } from './allocations'
import type { Allocations, IdMap } from './allocations'
import type { BuddyPool } from './buddy'
import type { BuddyFamily, PoolFamily } from './families'
import { BlockState, NONE } from './memoryPool'
import type { BlockTable, MemoryPool } from './memoryPool'
import { TOTAL_ROWS } from './totals'
import type { TotalRow } from './totals'
import type { FastAllocatorPages } from './upload'
import { Pend, STRIDE } from './pending'
import type { PendingQueue } from './pending'
import type { RecycledColumns } from './rowCopy'

/** What the views read of a model: its tables and pools, as they are now. */
export interface ModelTables {
  readonly allocs: Allocations
  readonly blocks: BlockTable
  readonly live: IdMap
  readonly families: readonly PoolFamily[]
  readonly buddies: readonly BuddyFamily[]
  /** Pools in service by id; `bound`: one past the largest id. */
  readonly pools: { get(id: number): MemoryPool | BuddyPool | undefined; readonly bound: number }
  readonly fast: FastAllocatorPages
  /** The last frame the GPU finished: a block moved after it is still locked. */
  readonly completed: Frame
  /** Releases waiting for the GPU: the FastConstantAllocator's pending pages, which hold no slot, are listed there. */
  readonly pending: PendingQueue
  /** The FastConstantAllocator's current page, which holds no slot: its buddy pool's id (NONE when none), its start. */
  readonly constantPool: number
  readonly constantBase: Bytes
}

export interface AllocationView {
  id: number
  kind: 'buffer' | 'texture'
  placement: Placement
  heap: HeapType
  pool: number
  poolName: string | null
  offset: Bytes
  size: Bytes
  requested: Bytes
  alignment: Bytes
  estimated: boolean
  createdFrame: Frame
  /** Reserved resources: physical bytes committed. */
  committed: Bytes
  /** Defrag may not move it yet (initial data or a move in flight). */
  locked: boolean
}

export interface BlockView {
  offset: Bytes
  size: Bytes
  state: 'used' | 'free' | 'pending'
  /** The resource id of a used or pending block; null for free blocks and the model's own (staging, pages). */
  id: number | null
}

export interface PoolView {
  pool: number
  name: string
  row: TotalRow
  heap: HeapType
  bytes: Bytes
  used: Bytes
  pending: Bytes
  free: Bytes
  /** Created ahead (async growth) and not taken yet. */
  spare: boolean
  createdFrame: Frame
  blocks: BlockView[]
}

/** A pool's figures and its blocks in offset order, one column each. */
export interface PoolBlocks extends Omit<PoolView, 'blocks'> {
  offset: Float64Array
  size: Float64Array
  /** 0 free, 1 used, 2 pending. */
  state: Uint8Array
  /** The resource id of a used or pending block; NaN for free blocks and the model's own (staging, pages). */
  id: Float64Array
}

/** The live buffers and textures, one column each, by creation frame, then id. */
export interface LiveTable {
  length: number
  id: Float64Array
  /** 1 texture, 0 buffer. */
  texture: Uint8Array
  /** Index into PLACEMENTS. */
  placement: Uint8Array
  /** Index into HEAP_TYPES. */
  heap: Uint8Array
  /** The id of the pool each row is in (a memory or buddy pool), -1 where none: livePoolName reads its name. */
  pool: Float64Array
  /** The names of the rows' pools, by pool id (a pool's name is read once, not once per row). */
  poolNames: string[]
  offset: Float64Array
  /** Physical bytes held: a reserved resource's committed tiles, every other's occupied size. */
  size: Float64Array
  /** The bytes asked for that `size` holds (a reserved resource's last commit). */
  requested: Float64Array
  /** A reserved resource's virtual size (its address space), 0 for every other. */
  virtual: Float64Array
  created: Float64Array
  estimated: Uint8Array
  /** The model's slot of each row (PlacementInfo.slot). */
  slot: Int32Array
}

/** One live resource as liveTable() lists it (see liveRow). */
export interface LiveRow {
  placement: Placement
  heap: HeapType
  poolName: string | null
  offset: Bytes
  occupied: Bytes
  requested: Bytes
  virtual: Bytes
}

/** Block states in PoolBlocks (the same codes as the IPC contract's BLOCK_STATE). */
export const BlockCode = { Free: 0, Used: 1, Pending: 2 } as const

function blockColumns(n: number): Pick<PoolBlocks, 'offset' | 'size' | 'state' | 'id'> {
  return { offset: new Float64Array(n), size: new Float64Array(n), state: new Uint8Array(n), id: new Float64Array(n).fill(NaN) }
}

/** Each block's place in poolBlocks' columns (-1: in no list), kept between calls and grown with the block table. */
let place = new Int32Array(0)

/** Live buffers and textures, by creation frame, then id. */
export function liveAllocations(t: ModelTables): AllocationView[] {
  const slots = liveSlots(t)
  const out = new Array<AllocationView>(slots.length)
  for (let i = 0; i < slots.length; i++) out[i] = allocationView(t, slots[i])
  return out
}

const RESERVED = PLACEMENTS.indexOf('Reserved')

/** The live buffers and textures counted by placement, with the reserved ones' bytes: what a run's report lists of them. */
export interface LivePlacements {
  /** Live resources by index into PLACEMENTS. */
  counts: number[]
  reserved: { count: number; virtualBytes: Bytes; committedBytes: Bytes }
}

/**
 * What liveAllocations() gives a report, without a row per resource: the count by placement, and the reserved
 * resources' virtual and committed bytes, summed in liveAllocations() order (by creation frame, then id).
 */
export function livePlacements(t: ModelTables): LivePlacements {
  const a = t.allocs
  const counts = new Array<number>(PLACEMENTS.length).fill(0)
  const reserved: number[] = []
  const slots = t.live.slots()
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]
    counts[a.placement[slot]]++
    if (a.placement[slot] === RESERVED) reserved.push(slot)
  }
  const sums = { count: reserved.length, virtualBytes: 0, committedBytes: 0 }
  for (const slot of sortSlots(Int32Array.from(reserved), a.created, a.id)) {
    sums.virtualBytes += a.size[slot]
    sums.committedBytes += a.loc[slot] === Loc.Reserved ? a.committed[slot] : 0
  }
  return { counts, reserved: sums }
}

/**
 * What liveAllocations() lists, as columns: a table of thousands of rows without an object per row. Its number
 * columns are taken from `pool` where one is given (every row of each is written below, whatever it held).
 */
export function liveTable(tables: ModelTables, pool?: RecycledColumns): LiveTable {
  const slots = liveSlots(tables)
  const n = slots.length
  const a = tables.allocs
  const pools = tables.pools
  const f64 = () => (pool ? (pool.column('f64', n) as Float64Array<ArrayBuffer>) : new Float64Array(n))
  const u8 = () => (pool ? (pool.column('u8', n) as Uint8Array<ArrayBuffer>) : new Uint8Array(n))
  const t: LiveTable = {
    length: n,
    id: f64(),
    texture: u8(),
    placement: u8(),
    heap: u8(),
    pool: f64(),
    // Sized to the pool ids: an empty array written at a large index would hold its elements in a dictionary.
    poolNames: new Array<string>(pools.bound),
    offset: f64(),
    size: f64(),
    requested: f64(),
    virtual: f64(),
    created: f64(),
    estimated: u8(),
    slot: slots,
  }
  // The slots read in ascending order, each row written where the order puts it: the table's columns are read one
  // after the other, not at random (the rows' order by creation is far from the slots').
  const rowOf = new Int32Array(a.count).fill(-1)
  for (let i = 0; i < n; i++) rowOf[slots[i]] = i
  for (let slot = 0; slot < rowOf.length; slot++) {
    const i = rowOf[slot]
    if (i < 0) continue
    const loc = a.loc[slot]
    t.id[i] = a.id[slot]
    t.texture[i] = a.kind[slot] === Kind.Texture ? 1 : 0
    t.placement[i] = a.placement[slot]
    t.heap[i] = a.heap[slot]
    if (loc === Loc.Pool || loc === Loc.Buddy) {
      const id = a.pool[slot]
      t.pool[i] = id
      if (t.poolNames[id] === undefined) t.poolNames[id] = pools.get(id)!.name
    } else t.pool[i] = -1
    t.offset[i] = a.offset[slot]
    t.size[i] = a.bytes(slot)
    t.requested[i] = a.requestedBytes(slot)
    t.virtual[i] = loc === Loc.Reserved ? a.size[slot] : 0
    t.created[i] = a.created[slot]
    t.estimated[i] = (a.flags[slot] & SlotFlag.Estimated) !== 0 ? 1 : 0
  }
  return t
}

/** The name of the pool row `i` of a LiveTable is in, null where it is in none. */
export function livePoolName(t: LiveTable, i: number): string | null {
  const id = t.pool[i]
  return id < 0 ? null : t.poolNames[id]
}

/**
 * One live resource as liveTable() lists it: where it is, the bytes it occupies (a reserved resource's committed
 * bytes, its virtual size apart) and the bytes asked for them; undefined when `id` is not live.
 */
export function liveRow(t: ModelTables, id: number): LiveRow | undefined {
  const slot = t.live.get(id)
  if (slot === undefined) return undefined
  const a = t.allocs
  const loc = a.loc[slot]
  return {
    placement: PLACEMENTS[a.placement[slot]],
    heap: HEAP_TYPES[a.heap[slot]],
    poolName: loc === Loc.Pool || loc === Loc.Buddy ? t.pools.get(a.pool[slot])!.name : null,
    offset: a.offset[slot],
    occupied: a.bytes(slot),
    requested: a.requestedBytes(slot),
    virtual: loc === Loc.Reserved ? a.size[slot] : 0,
  }
}

/** One live buffer or texture, by its slot. */
export function allocationView(t: ModelTables, slot: number): AllocationView {
  const a = t.allocs
  const loc = a.loc[slot]
  const pool = loc === Loc.Pool || loc === Loc.Buddy ? t.pools.get(a.pool[slot]) : undefined
  return {
    id: a.id[slot],
    kind: a.kind[slot] === Kind.Texture ? 'texture' : 'buffer',
    placement: PLACEMENTS[a.placement[slot]],
    heap: HEAP_TYPES[a.heap[slot]],
    pool: pool ? pool.id : -1,
    poolName: pool ? pool.name : null,
    offset: a.offset[slot],
    size: a.size[slot],
    requested: a.requested[slot],
    alignment: a.alignment[slot],
    estimated: (a.flags[slot] & SlotFlag.Estimated) !== 0,
    createdFrame: a.created[slot],
    committed: loc === Loc.Reserved ? a.committed[slot] : 0,
    locked: a.lockFrame[slot] >= 0 && a.lockFrame[slot] > t.completed,
  }
}

/** Every pool with its blocks: memory pools, spares, buddy pools and FastAllocator pages. */
export function poolViews(pools: PoolBlocks[]): PoolView[] {
  const STATES = ['free', 'used', 'pending'] as const
  return pools.map((p) => {
    const blocks = new Array<BlockView>(p.offset.length)
    for (let k = 0; k < blocks.length; k++) {
      const id = p.id[k]
      blocks[k] = { offset: p.offset[k], size: p.size[k], state: STATES[p.state[k]], id: Number.isNaN(id) ? null : id }
    }
    return {
      pool: p.pool,
      name: p.name,
      row: p.row,
      heap: p.heap,
      bytes: p.bytes,
      used: p.used,
      pending: p.pending,
      free: p.free,
      spare: p.spare,
      createdFrame: p.createdFrame,
      blocks,
    }
  })
}

/** The memory pools poolBlocks lists, in its order, and where each one's blocks start in its columns. */
interface Listed {
  families: PoolFamily[]
  pools: MemoryPool[]
  /** One more than the pools: the last is the number of blocks listed. */
  starts: number[]
}

/**
 * Each memory pool's list walked reading only its links: every listed block's place in poolBlocks' columns (pools
 * one after the other, each in offset order), -1 for a block of the table in no list (released).
 */
function placeBlocks(t: ModelTables): Listed {
  const b = t.blocks
  const count = b.count
  if (place.length < count) place = new Int32Array(Math.max(count, 2 * place.length))
  const at = place
  at.fill(-1, 0, count)
  const next = b.next
  // The links read in index order first, one per cache line: the walk then finds them in the cache rather than
  // waiting on memory at every step of a list whose blocks lie anywhere in the table. What they read goes into the
  // count below as a zero, so that the compiler keeps the reads.
  let touched = 0
  for (let k = 0; k < count; k += 16) touched |= next[k]
  const listed: Listed = { families: [], pools: [], starts: [] }
  let n = touched & 0
  for (const fam of t.families) {
    for (const pool of withSpare(fam.pools(), fam.spare)) {
      listed.families.push(fam)
      listed.pools.push(pool)
      listed.starts.push(n)
      for (let k = pool.head; k !== NONE; k = next[k]) at[k] = n++
    }
  }
  listed.starts.push(n)
  return listed
}

/**
 * The listed blocks' columns, filled in the block table's index order at the places placeBlocks gave them: the
 * table is read in order, each block's owner looked up once.
 */
function fillBlocks(t: ModelTables, columns: Pick<PoolBlocks, 'offset' | 'size' | 'state' | 'id'>): void {
  const b = t.blocks
  const a = t.allocs
  const { offset, size, state, id } = columns
  const at = place
  const bOffset = b.offset
  const bSize = b.size
  const bState = b.state
  const bOwner = b.owner
  const aState = a.state
  const aKind = a.kind
  const aId = a.id
  for (let k = 0, count = b.count; k < count; k++) {
    const i = at[k]
    if (i < 0) continue
    offset[i] = bOffset[k]
    size[i] = bSize[k]
    if (bState[k] === BlockState.Allocated) {
      const owner = bOwner[k]
      state[i] = aState[owner] === SlotState.Pending ? BlockCode.Pending : BlockCode.Used
      const kind = aKind[owner]
      if (kind === Kind.Buffer || kind === Kind.Texture) id[i] = aId[owner]
    }
  }
}

/**
 * The allocated blocks of every buddy pool as columns, in order of pool, then base (the order of their listing, to
 * break ties): those of slots, the FastConstantAllocator's current page and its pages waiting for the GPU (in the
 * pending queue: they hold no slot). Columns rather than an object a block: thousands a snapshot.
 */
interface BuddyUsed {
  pool: Float64Array
  base: Float64Array
  size: Float64Array
  state: Uint8Array
  id: Float64Array
  /** The blocks' indices in (pool, base) order. */
  order: Uint32Array
}

function allocatedBuddyBlocks(t: ModelTables): BuddyUsed {
  const a = t.allocs
  const q = t.pending
  const c = q.cells
  const inSlot = (slot: number) => a.state[slot] !== SlotState.Free && a.loc[slot] === Loc.Buddy
  const inQueue = (o: number) => c[o + Pend.Slot] === NONE && (c[o + Pend.Meta] & 255) === Loc.Buddy
  let n = t.constantPool !== NONE ? 1 : 0
  for (let slot = 0; slot < a.count; slot++) if (inSlot(slot)) n++
  for (let o = q.head; o < q.tail; o += STRIDE) if (inQueue(o)) n++
  const used: BuddyUsed = {
    pool: new Float64Array(n),
    base: new Float64Array(n),
    size: new Float64Array(n),
    state: new Uint8Array(n),
    id: new Float64Array(n).fill(NaN),
    order: new Uint32Array(n),
  }
  let k = 0
  for (let slot = 0; slot < a.count; slot++) {
    if (!inSlot(slot)) continue
    const kind = a.kind[slot]
    used.pool[k] = a.pool[slot]
    used.base[k] = a.base[slot]
    used.size[k] = a.size[slot]
    used.state[k] = a.state[slot] === SlotState.Pending ? BlockCode.Pending : BlockCode.Used
    if (kind === Kind.Buffer || kind === Kind.Texture) used.id[k] = a.id[slot]
    k++
  }
  for (let o = q.head; o < q.tail; o += STRIDE) {
    if (!inQueue(o)) continue
    used.pool[k] = c[o + Pend.Pool]
    used.base[k] = c[o + Pend.Base]
    used.size[k] = c[o + Pend.Size]
    used.state[k++] = BlockCode.Pending
  }
  if (t.constantPool !== NONE) {
    const page = t.pools.get(t.constantPool) as BuddyPool
    used.pool[k] = t.constantPool
    used.base[k] = t.constantBase
    used.size[k] = page.minBlock
    used.state[k] = BlockCode.Used
  }
  for (let i = 0; i < n; i++) used.order[i] = i
  used.order.sort((x, y) => used.pool[x] - used.pool[y] || used.base[x] - used.base[y] || x - y)
  return used
}

/** Each buddy pool's blocks, pushed onto `out`. */
function buddyBlocks(t: ModelTables, out: PoolBlocks[]): void {
  // Buddy blocks: the free ones from the pool's bitsets, the allocated ones (allocatedBuddyBlocks), merged by offset.
  const used = allocatedBuddyBlocks(t)
  const order = used.order
  // Each pool's run in `order`: [first, end).
  const runs = new Map<number, number>()
  for (let r = order.length - 1; r >= 0; r--) runs.set(used.pool[order[r]], r)
  for (const fam of t.buddies) {
    for (const pool of withSpare(fam.pools.slice(), fam.spare)) {
      const free = pool.freeBlockColumns()
      const first = runs.get(pool.id) ?? order.length
      let end = first
      while (end < order.length && used.pool[order[end]] === pool.id) end++
      const columns = blockColumns(free.offset.length + end - first)
      let f = 0
      let s = first
      for (let i = 0; i < columns.offset.length; i++) {
        if (s === end || (f < free.offset.length && free.offset[f] < used.base[order[s]])) {
          columns.offset[i] = free.offset[f]
          columns.size[i] = free.size[f]
          f++
        } else {
          const u = order[s++]
          columns.offset[i] = used.base[u]
          columns.size[i] = used.size[u]
          columns.state[i] = used.state[u]
          columns.id[i] = used.id[u]
        }
      }
      out.push(poolBlocksOf(fam.spec.name, fam.spec.row, fam.spec.heap, pool, columns))
    }
  }
}

/** What pools() lists, each pool's blocks as columns (see PoolBlocks). */
export function poolBlocks(t: ModelTables): PoolBlocks[] {
  const out: PoolBlocks[] = []
  // Every memory pool's blocks in one set of columns, each pool's columns a view of them (thousands of pools would
  // otherwise allocate four small arrays each).
  const listed = placeBlocks(t)
  const starts = listed.starts
  const all = blockColumns(starts[starts.length - 1])
  fillBlocks(t, all)
  for (let p = 0; p < listed.pools.length; p++) {
    const start = starts[p]
    const n = starts[p + 1] - start
    const columns = {
      offset: new Float64Array(all.offset.buffer, start * 8, n),
      size: new Float64Array(all.size.buffer, start * 8, n),
      state: new Uint8Array(all.state.buffer, start, n),
      id: new Float64Array(all.id.buffer, start * 8, n),
    }
    const spec = listed.families[p].spec
    out.push(poolBlocksOf(spec.name, spec.row, spec.heap, listed.pools[p], columns))
  }
  buddyBlocks(t, out)
  fastPages(t, out, true)
  return out
}

/** A family's pools as the views list them: `pools` (a copy the caller may extend), then its spare, if any. */
function withSpare<P>(pools: P[], spare: P | null): P[] {
  if (spare) pools.push(spare)
  return pools
}


/**
 * What poolBlocks() lists, in its order and with its figures, each pool's block columns empty: what a frame's
 * snapshot gives where no one looks at its pool maps (a large run's blocks are megabytes a frame).
 */
export function poolSummaries(t: ModelTables): PoolBlocks[] {
  const out: PoolBlocks[] = []
  for (const fam of t.families) {
    for (const pool of withSpare(fam.pools(), fam.spare)) out.push(poolBlocksOf(fam.spec.name, fam.spec.row, fam.spec.heap, pool, NO_BLOCKS))
  }
  for (const fam of t.buddies) {
    for (const pool of withSpare(fam.pools.slice(), fam.spare)) out.push(poolBlocksOf(fam.spec.name, fam.spec.row, fam.spec.heap, pool, NO_BLOCKS))
  }
  fastPages(t, out, false)
  return out
}

/** The FastAllocator's pages, each one used block and the rest free; `blocks` false: their columns empty. */
function fastPages(t: ModelTables, out: PoolBlocks[], blocks: boolean): void {
  const pageSize = t.fast.pageSize
  for (const page of t.fast.pages()) {
    const used = page.busy ? page.used : 0
    let columns = NO_BLOCKS
    if (blocks) {
      columns = blockColumns((page.busy ? 1 : 0) + (pageSize - used > 0 ? 1 : 0))
      let i = 0
      if (page.busy) {
        columns.size[i] = used
        columns.state[i++] = BlockCode.Used
      }
      if (pageSize - used > 0) {
        columns.offset[i] = used
        columns.size[i] = pageSize - used
      }
    }
    out.push({
      pool: page.id,
      name: `UPLOAD/FastAllocator/${page.index}`,
      row: 'FastAllocatorPage',
      heap: 'UPLOAD',
      bytes: pageSize,
      used,
      pending: 0,
      free: pageSize - used,
      spare: false,
      createdFrame: page.createdFrame,
      ...columns,
    })
  }
}

function poolBlocksOf(
  family: string,
  row: number,
  heap: number,
  pool: MemoryPool | BuddyPool,
  columns: Pick<PoolBlocks, 'offset' | 'size' | 'state' | 'id'>,
): PoolBlocks {
  return {
    pool: pool.id,
    name: pool.name || `${family}/spare`,
    row: TOTAL_ROWS[row],
    heap: HEAP_TYPES[heap],
    bytes: pool.size,
    used: pool.used - pool.pending,
    pending: pool.pending,
    free: pool.size - pool.used,
    spare: pool.spare,
    createdFrame: pool.createdFrame,
    offset: columns.offset,
    size: columns.size,
    state: columns.state,
    id: columns.id,
  }
}

/** Live buffers' and textures' slots, by creation frame, then id. */
export function liveSlots(t: ModelTables): Int32Array {
  const a = t.allocs
  const slots = t.live.slots()
  return byCreation(slots, a.created, a.id) ?? sortSlots(slots, a.created, a.id)
}

/**
 * Slots listed by ascending id (as the id map lists them) ordered by creation frame, then id, as sortSlots orders
 * them: a counting sort by frame, which keeps the id order within a frame. null when the ids do not ascend or a
 * frame is not a small non-negative integer.
 */
export function byCreation(slots: Int32Array, created: Float64Array, id: Float64Array): Int32Array | null {
  const n = slots.length
  let last = -Infinity
  let frames = 0
  // Each slot's frame, read once (the slots lie anywhere in the table): the counting below reads this copy.
  const frameOf = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const slot = slots[i]
    const f = created[slot]
    if (!(id[slot] > last) || !(f >= 0 && f < 4 * n + 1024) || f !== Math.floor(f)) return null
    last = id[slot]
    if (f >= frames) frames = f + 1
    frameOf[i] = f
  }
  // starts[f]: where frame f's slots begin.
  const starts = new Int32Array(frames + 1)
  for (let i = 0; i < n; i++) starts[frameOf[i] + 1]++
  for (let f = 0; f < frames; f++) starts[f + 1] += starts[f]
  const out = new Int32Array(n)
  for (let i = 0; i < n; i++) out[starts[frameOf[i]]++] = slots[i]
  return out
}

/**
 * Sorts slots by key[slot], then tie[slot] (when given), in place. While key, tie and slot are small non-negative
 * integers, all three pack into one number below 2^53 and the numbers sort natively, far faster than a comparator
 * over thousands of slots; otherwise the comparator.
 */
function sortSlots(slots: Int32Array, key: Float64Array, tie: Float64Array | null): Int32Array {
  let maxKey = 0
  let maxTie = 0
  let maxSlot = 0
  let integral = true
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]
    const k = key[slot]
    const t = tie === null ? 0 : tie[slot]
    if (!(k >= 0 && t >= 0 && Number.isInteger(k) && Number.isInteger(t))) {
      integral = false
      break
    }
    if (k > maxKey) maxKey = k
    if (t > maxTie) maxTie = t
    if (slot > maxSlot) maxSlot = slot
  }
  const bits = (n: number) => (n < 2 ** 31 ? 32 - Math.clz32(n) : 64)
  const slotSpan = 2 ** bits(maxSlot)
  const tieSpan = 2 ** bits(maxTie)
  if (integral && bits(maxKey) + bits(maxTie) + bits(maxSlot) <= 53) {
    const packed = new Float64Array(slots.length)
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]
      packed[i] = (key[slot] * tieSpan + (tie === null ? 0 : tie[slot])) * slotSpan + slot
    }
    packed.sort()
    // The slot is the low part: exact, as every factor is a power of two.
    for (let i = 0; i < slots.length; i++) slots[i] = packed[i] - Math.floor(packed[i] / slotSpan) * slotSpan
    return slots
  }
  return tie === null
    ? slots.sort((x, y) => key[x] - key[y])
    : slots.sort((x, y) => key[x] - key[y] || tie[x] - tie[y])
}
