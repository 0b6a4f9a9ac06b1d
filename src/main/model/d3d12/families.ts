/**
 * The pool allocators of the model (FRHIPoolAllocator / FD3D12PoolAllocator instances, and the UploadHeapAllocator's
 * multi-buddy allocators), one per pool key, with their numbers from the config.
 */
import type { ModelConfig } from '../../../shared/model'
import { MiB } from '../../../shared/units'
import type { Bytes } from '../../../shared/units'
import type { ResidencyPriority } from '../events'
import { maxOrderFor, orderOf } from './buddy'
import type { BuddyPool, BuddyWatcher } from './buddy'
import { FirstFit, NO_ROOM } from '../firstFit'
import { LAST, PoolOrder } from './poolOrder'
import { Family, FAMILY_COUNT, HEAP_INDEX, PLACEMENT_INDEX, TILE } from './ladder'
import { FreeOrder, NONE } from './memoryPool'
import type { BlockTable, MemoryPool, PoolWatcher } from './memoryPool'
import { SMALL_ALIGNMENT } from './texture'
import { ROW_FAST_CONSTANT_PAGE } from './totals'

/** READBACK_BUFFER_POOL_DEFAULT_POOL_SIZE: the config has no key for it. */
export const READBACK_POOL_SIZE = 4 * MiB
/** The big-block upload pools align to D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT. */
export const UPLOAD_POOL_ALIGNMENT = 512
/** RHIPoolAllocator.DefragSizeFraction: pools used above this fraction are not defragmented. */
export const DEFRAG_SIZE_FRACTION = 0.9

export const BudgetClass = { None: 0, Buffers: 1, Textures: 2 } as const

export interface FamilySpec {
  index: number
  /** "DEFAULT/SingleState": heap type and pool key; pools are named `${name}/${slot}`. */
  name: string
  /** Totals row (a placement index). */
  row: number
  heap: number
  poolSize: Bytes
  poolAlignment: Bytes
  maxAllocation: Bytes
  order: number
  defrag: boolean
  /** Async growth: a spare pool is created ahead (§8.3). */
  async: boolean
  priority: ResidencyPriority
  budgetClass: number
  /** Placed strategy: allocations align to the pool alignment (a placed resource starts its own resource). */
  placed: boolean
}

export function familySpecs(config: ModelConfig): FamilySpec[] {
  const defrag = config['defrag.enabled'] === 1
  const spec = (
    index: number,
    name: string,
    row: number,
    heap: number,
    poolSize: Bytes,
    poolAlignment: Bytes,
    maxAllocation: Bytes,
    extra: Partial<FamilySpec> = {},
  ): FamilySpec => ({
    index,
    name,
    row,
    heap,
    poolSize,
    poolAlignment,
    maxAllocation,
    order: FreeOrder.BySize,
    defrag: false,
    async: false,
    priority: 'normal',
    budgetClass: BudgetClass.None,
    placed: false,
    ...extra,
  })
  const bufferSize = config['bufferPool.size']
  const bufferMax = config['bufferPool.maxAllocation']
  const shared = config['bufferPool.alignment']
  const placed = config['placedBufferPool.alignment']
  const defaultBuffers = { defrag, async: true, budgetClass: BudgetClass.Buffers }
  const readbackSize = READBACK_POOL_SIZE
  const readbackMax = config['readbackPool.maxAllocation']
  const placedOnly = { placed: true }
  // A pool must have some size even while the RT/UAV pools are off (they are never used then).
  const rtuavSize = Math.max(TILE, config['texturePool.rtuav.size'])
  const rtuavMax = config['texturePool.rtuav.maxAllocation']
  const out: FamilySpec[] = [
    spec(Family.SharedDefault, 'DEFAULT/SingleState', PLACEMENT_INDEX.SharedBufferPool, HEAP_INDEX.DEFAULT, bufferSize, shared, bufferMax, {
      ...defaultBuffers,
    }),
    spec(Family.SharedUav, 'DEFAULT/SingleState+UAV', PLACEMENT_INDEX.SharedBufferPool, HEAP_INDEX.DEFAULT, bufferSize, shared, bufferMax, {
      ...defaultBuffers,
    }),
    spec(Family.PlacedDefault, 'DEFAULT/MultiState', PLACEMENT_INDEX.PlacedBufferPool, HEAP_INDEX.DEFAULT, bufferSize, placed, bufferMax, {
      ...defaultBuffers,
      placed: true,
    }),
    spec(
      Family.AccelerationStructure,
      'DEFAULT/AccelerationStructure',
      PLACEMENT_INDEX.AccelerationStructurePool,
      HEAP_INDEX.DEFAULT,
      config['asPool.size'],
      shared,
      config['asPool.maxAllocation'],
      { priority: 'high' },
    ),
    spec(Family.SharedReadback, 'READBACK/SingleState', PLACEMENT_INDEX.ReadbackPool, HEAP_INDEX.READBACK, readbackSize, shared, readbackMax),
    spec(Family.PlacedReadback, 'READBACK/MultiState', PLACEMENT_INDEX.ReadbackPool, HEAP_INDEX.READBACK, readbackSize, placed, readbackMax, {
      placed: true,
    }),
    spec(
      Family.TextureReadOnly,
      'DEFAULT/TextureReadOnly',
      PLACEMENT_INDEX.TextureReadOnlyPool,
      HEAP_INDEX.DEFAULT,
      config['texturePool.readOnly.size'],
      TILE,
      config['texturePool.readOnly.maxAllocation'],
      { defrag, budgetClass: BudgetClass.Textures, placed: true },
    ),
    spec(
      Family.TextureReadOnly4K,
      'DEFAULT/TextureReadOnly4K',
      PLACEMENT_INDEX.TextureReadOnly4KPool,
      HEAP_INDEX.DEFAULT,
      config['texturePool.readOnly4K.size'],
      SMALL_ALIGNMENT,
      config['texturePool.readOnly4K.maxAllocation'],
      { placed: true },
    ),
    spec(Family.TextureRT, 'DEFAULT/TextureRT', PLACEMENT_INDEX.TextureRTPool, HEAP_INDEX.DEFAULT, rtuavSize, TILE, rtuavMax, placedOnly),
    spec(Family.TextureUAV, 'DEFAULT/TextureUAV', PLACEMENT_INDEX.TextureUAVPool, HEAP_INDEX.DEFAULT, rtuavSize, TILE, rtuavMax, placedOnly),
    spec(
      Family.UploadBigBlock,
      'UPLOAD/BigBlock',
      PLACEMENT_INDEX.UploadBigBlock,
      HEAP_INDEX.UPLOAD,
      config['upload.bigBlock.poolSize'],
      UPLOAD_POOL_ALIGNMENT,
      config['upload.bigBlock.maxAllocation'],
      { order: FreeOrder.ByOffset, async: true },
    ),
  ]
  if (out.length !== FAMILY_COUNT) throw new Error('family table out of step with Family')
  return out
}

/**
 * One pool allocator: its pools in slots (a destroyed pool leaves a hole its successor reuses) and their
 * allocation order (FRHIPoolAllocator's pool array, re-sorted at every clean-up). The order (PoolOrder: small
 * blocks of pools under a max-tree) finds the first pool with room for a request without walking the pools; the
 * pools tell the family of every change, and a re-sort moves only the pools whose key changed.
 */
export class PoolFamily implements PoolWatcher {
  readonly spec: FamilySpec
  slots: (MemoryPool | null)[] = []
  spare: MemoryPool | null = null
  /** Where the rotating defrag resumes (RHIPoolAllocator LastDefragPoolIndex). */
  lastDefragSlot = 0
  private order = new PoolOrder()
  /** Slots whose room changed since the order last looked (flag per slot, and the list). */
  private staleFlag = new Uint8Array(8)
  private stale: number[] = []
  /** How many of `stale` are current (the array is reused: setting an array's length is a call). */
  private staleCount = 0
  /** Slots whose sort key may have changed since the last sort: the only ones sortOrder moves. */
  private movedFlag = new Uint8Array(8)
  private moved: number[] = []
  /** Slots whose pool may hold no allocated block: the only ones the clean-up looks at. */
  private emptyFlag = new Uint8Array(8)
  private empty: number[] = []
  /** The holes: a leaf of room 0 for each slot without a pool, so the first hole is found without a walk. */
  private holes = new FirstFit()

  constructor(spec: FamilySpec) {
    this.spec = spec
  }

  /** The slot a new pool takes: the first hole, else a new one at the end of the allocation order. */
  takeSlot(): number {
    const hole = this.holes.first(0)
    if (hole >= 0) return hole
    this.slots.push(null)
    const slot = this.slots.length - 1
    if (slot >= this.holes.capacity) this.indexHoles()
    else this.holes.set(slot, 0)
    if (slot >= this.movedFlag.length) this.growSlots()
    this.order.insert(slot, LAST, NO_ROOM)
    this.touch(slot, true)
    return slot
  }

  /** Puts a pool in a slot (or empties it): the pool reports its changes to the family from now on. */
  setSlot(slot: number, pool: MemoryPool | null): void {
    const old = this.slots[slot]
    if (old) old.watcher = null
    this.slots[slot] = pool
    if (pool) pool.watcher = this
    this.holes.set(slot, pool ? NO_ROOM : 0)
    this.touch(slot, true)
  }

  blocksChanged(pool: MemoryPool): void {
    // Without defrag the order's key is the pool size, which a pool's blocks do not change.
    this.touch(pool.slot, this.spec.defrag)
  }

  /**
   * The first pool in allocation order whose largest free block holds `size`: the pool the walk over the order
   * would take (tryAllocate succeeds exactly when a free block is at least `size`), or null. The pools keep their
   * free sizes, so the block table is not read here (a plain walk over the order reads it).
   */
  firstWithRoom(_blocks: BlockTable, size: Bytes): MemoryPool | null {
    const stale = this.stale
    const count = this.staleCount
    for (let i = 0; i < count; i++) {
      const slot = stale[i]
      this.staleFlag[slot] = 0
      this.order.setRoom(slot, roomOf(this.slots[slot]))
    }
    this.staleCount = 0
    const slot = this.order.first(size)
    return slot < 0 ? null : this.slots[slot]
  }

  /**
   * CleanUpAllocations' sort: fullest first where defrag is on; otherwise smallest pool first, then pool index.
   * Ties keep the pool index order so the replay is deterministic. Only the pools whose key may have changed
   * since the last sort move.
   */
  sortOrder(): void {
    if (this.moved.length === 0) return
    for (const slot of this.moved) {
      this.movedFlag[slot] = 0
      this.order.move(slot, this.sortKey(slot))
    }
    this.moved.length = 0
  }

  /** The pools that hold no allocated block, in slot order: CleanUpAllocations' candidates. */
  emptyPools(): readonly MemoryPool[] {
    const empty = this.empty
    // Most clean-ups find no pool empty: no array is made for them.
    if (empty.length === 0) return NO_POOLS
    let kept = 0
    for (const slot of empty) {
      const pool = this.slots[slot]
      if (pool !== null && pool.allocatedBlocks === 0) empty[kept++] = slot
      else this.emptyFlag[slot] = 0
    }
    empty.length = kept
    empty.sort((a, b) => a - b)
    const pools: MemoryPool[] = []
    for (let i = 0; i < kept; i++) pools.push(this.slots[empty[i]]!)
    return pools
  }

  /** The slots in allocation order. */
  allocationOrder(): number[] {
    return this.order.slots()
  }

  pools(): MemoryPool[] {
    const out: MemoryPool[] = []
    for (const p of this.slots) if (p) out.push(p)
    return out
  }

  /** A copy whose pools `register` gives; `packed`: a checkpoint's, only read and cloned (PoolOrder.clone). */
  clone(register: (p: MemoryPool) => MemoryPool, packed = false): PoolFamily {
    const c = new PoolFamily(this.spec)
    c.slots = this.slots.map((p) => (p ? register(p) : null))
    for (const p of c.slots) if (p) p.watcher = c
    c.spare = this.spare ? register(this.spare) : null
    c.lastDefragSlot = this.lastDefragSlot
    c.order = this.order.clone(packed)
    c.staleFlag = this.staleFlag.slice()
    c.stale = this.stale.slice(0, this.staleCount)
    c.staleCount = this.staleCount
    c.movedFlag = this.movedFlag.slice()
    c.moved = this.moved.slice()
    c.emptyFlag = this.emptyFlag.slice()
    c.empty = this.empty.slice()
    c.indexHoles()
    return c
  }

  /** The index of holes from the slots, with room for twice as many. */
  private indexHoles(): void {
    const slots = this.slots
    this.holes.reset(Math.max(8, slots.length * 2))
    for (let i = 0; i < slots.length; i++) if (slots[i] === null) this.holes.setLeaf(i, 0)
    this.holes.rebuild()
  }

  /** The order's key: fullest first with defrag (holes before every pool), else smallest first (holes last). */
  private sortKey(slot: number): number {
    const pool = this.slots[slot]
    if (this.spec.defrag) return pool ? -pool.used : HOLE_FIRST
    return pool ? pool.size : HOLE_LAST
  }

  private touch(slot: number, moved: boolean): void {
    if (this.staleFlag[slot] === 0) {
      this.staleFlag[slot] = 1
      this.stale[this.staleCount++] = slot
    }
    if (moved && this.movedFlag[slot] === 0) {
      this.movedFlag[slot] = 1
      this.moved.push(slot)
    }
    const pool = this.slots[slot]
    if (pool !== null && pool.allocatedBlocks === 0 && this.emptyFlag[slot] === 0) {
      this.emptyFlag[slot] = 1
      this.empty.push(slot)
    }
  }

  /** Room in the per-slot flags for every slot and one more. */
  private growSlots(): void {
    const n = Math.max(8, this.slots.length * 2)
    const staleFlag = new Uint8Array(n)
    staleFlag.set(this.staleFlag)
    this.staleFlag = staleFlag
    const movedFlag = new Uint8Array(n)
    movedFlag.set(this.movedFlag)
    this.movedFlag = movedFlag
    const emptyFlag = new Uint8Array(n)
    emptyFlag.set(this.emptyFlag)
    this.emptyFlag = emptyFlag
  }
}

/** What a pool in a slot can take: its largest free block (a zero-byte request still needs one). */
function roomOf(pool: MemoryPool | null): number {
  return pool === null || pool.freeCount === 0 ? NO_ROOM : pool.largestFree()
}

/**
 * No pools, as an array of the same kind as emptyPools' others (packed objects, where `[]` is packed small
 * integers): the loop that reads them then meets one kind of array, and its compiled code is not thrown away the
 * first time a clean-up finds a pool empty.
 */
const NO_POOLS: readonly MemoryPool[] = packedObjects<MemoryPool>()

/**
 * The sort keys of a hole, read once as the module loads. Read in `sortKey`, `Number.NEGATIVE_INFINITY` would be a
 * property read that first runs when a compiled sort meets its first hole, and sends the compiled code back.
 */
const HOLE_FIRST = Number.NEGATIVE_INFINITY
const HOLE_LAST = Number.POSITIVE_INFINITY

function packedObjects<T>(): T[] {
  const array: unknown[] = [null]
  array.pop()
  return array as T[]
}

export const Buddy = { SmallBlock: 0, FastConstantPages: 1 } as const

export interface BuddySpec {
  index: number
  name: string
  row: number
  heap: number
  minBlock: Bytes
  maxOrder: number
  async: boolean
}

export function buddySpecs(config: ModelConfig): BuddySpec[] {
  const minBlock = config['upload.smallBlock.minBlock']
  const poolSize = config['upload.smallBlock.poolSize']
  // The small-block pools must hold the largest request they take, padding included.
  const smallPool = Math.max(poolSize, 2 * config['upload.smallBlock.maxAllocation'], minBlock)
  const page = config['fastConstant.pageSize']
  return [
    {
      index: Buddy.SmallBlock,
      name: 'UPLOAD/SmallBlock',
      row: PLACEMENT_INDEX.UploadSmallBlock,
      heap: HEAP_INDEX.UPLOAD,
      minBlock,
      maxOrder: maxOrderFor(minBlock, smallPool),
      async: true,
    },
    {
      // The FastConstantAllocator's pages come from the UploadHeapAllocator's third sub-allocator: a multi-buddy
      // allocator of one-page blocks in pools of upload.smallBlock.poolSize.
      index: Buddy.FastConstantPages,
      name: 'UPLOAD/FastConstantPages',
      row: ROW_FAST_CONSTANT_PAGE,
      heap: HEAP_INDEX.UPLOAD,
      minBlock: page,
      maxOrder: maxOrderFor(page, Math.max(poolSize, page)),
      async: true,
    },
  ]
}

/**
 * One multi-buddy allocator: its pools in creation order. The walk for the first pool that can allocate an order
 * is an index over `pools` of each pool's largest free order (firstFor).
 */
export class BuddyFamily implements BuddyWatcher {
  readonly spec: BuddySpec
  pools: BuddyPool[] = []
  spare: BuddyPool | null = null
  created = 0
  private readonly room = new FirstFit()
  /** The index matches `pools` (but for the pools in `stale`). */
  private indexed = false
  /** Packed objects from the start (see NO_POOLS): its first pool would otherwise change its kind in compiled code. */
  private stale: BuddyPool[] = packedObjects<BuddyPool>()
  /** How many of `stale` are current (the array is reused). */
  private staleCount = 0

  constructor(spec: BuddySpec) {
    this.spec = spec
  }

  /** Bytes of a block of `order`: minBlock × 2^order (a shift up to 2^30: a power is a call). */
  blockBytes(order: number): Bytes {
    return order <= 30 ? this.spec.minBlock * (1 << order) : this.spec.minBlock * 2 ** order
  }

  /** The order of the block a request of `bytes` needs, -1 when no pool of the family can hold it. */
  orderFor(bytes: Bytes): number {
    const order = orderOf(bytes, this.spec.minBlock)
    return order > this.spec.maxOrder ? NONE : order
  }

  /** A pool joins the end of the walk. */
  add(pool: BuddyPool): void {
    pool.watcher = this
    pool.position = this.pools.length
    this.pools.push(pool)
    if (this.indexed && pool.position < this.room.capacity) this.room.set(pool.position, pool.largestFreeOrder())
    else this.indexed = false
  }

  /** Pools left `pools` (the clean-up): positions are taken again at the next look. */
  poolsRemoved(): void {
    this.indexed = false
  }

  blocksChanged(pool: BuddyPool): void {
    if (!pool.stale) {
      pool.stale = true
      this.stale[this.staleCount++] = pool
    }
  }

  /** The first pool in creation order that can allocate a block of `order` (BuddyPool.canAllocate), or null. */
  firstFor(order: number): BuddyPool | null {
    const pools = this.pools
    if (!this.indexed) {
      this.room.reset(pools.length)
      for (let i = 0; i < pools.length; i++) {
        pools[i].position = i
        this.room.setLeaf(i, pools[i].largestFreeOrder())
      }
      this.room.rebuild()
      this.indexed = true
    } else {
      for (let i = 0; i < this.staleCount; i++) {
        const pool = this.stale[i]
        if (pool.position >= 0 && pools[pool.position] === pool) this.room.set(pool.position, pool.largestFreeOrder())
      }
    }
    for (let i = 0; i < this.staleCount; i++) this.stale[i].stale = false
    this.staleCount = 0
    const position = this.room.first(order)
    return position < 0 ? null : pools[position]
  }

  clone(register: (p: BuddyPool) => BuddyPool): BuddyFamily {
    const c = new BuddyFamily(this.spec)
    c.pools = this.pools.map(register)
    for (const p of c.pools) p.watcher = c
    c.spare = this.spare ? register(this.spare) : null
    c.created = this.created
    return c
  }
}
