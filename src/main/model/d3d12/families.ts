/**
 * The pool allocators of the model (FRHIPoolAllocator / FD3D12PoolAllocator instances, and the UploadHeapAllocator's
 * multi-buddy allocators), one per pool key, with their numbers from the config.
 */
import type { ModelConfig } from '../../../shared/model'
import { MiB } from '../../../shared/units'
import type { Bytes } from '../../../shared/units'
import type { ResidencyPriority } from '../events'
import { maxOrderFor } from './buddy'
import type { BuddyPool } from './buddy'
import { Family, FAMILY_COUNT, H, P, TILE } from './ladder'
import { FreeOrder, NONE } from './memoryPool'
import type { MemoryPool } from './memoryPool'
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
    spec(Family.SharedDefault, 'DEFAULT/SingleState', P.SharedBufferPool, H.DEFAULT, bufferSize, shared, bufferMax, {
      ...defaultBuffers,
    }),
    spec(Family.SharedUav, 'DEFAULT/SingleState+UAV', P.SharedBufferPool, H.DEFAULT, bufferSize, shared, bufferMax, {
      ...defaultBuffers,
    }),
    spec(Family.PlacedDefault, 'DEFAULT/MultiState', P.PlacedBufferPool, H.DEFAULT, bufferSize, placed, bufferMax, {
      ...defaultBuffers,
      placed: true,
    }),
    spec(
      Family.AccelerationStructure,
      'DEFAULT/AccelerationStructure',
      P.AccelerationStructurePool,
      H.DEFAULT,
      config['asPool.size'],
      shared,
      config['asPool.maxAllocation'],
      { priority: 'high' },
    ),
    spec(Family.SharedReadback, 'READBACK/SingleState', P.ReadbackPool, H.READBACK, readbackSize, shared, readbackMax),
    spec(Family.PlacedReadback, 'READBACK/MultiState', P.ReadbackPool, H.READBACK, readbackSize, placed, readbackMax, {
      placed: true,
    }),
    spec(
      Family.TextureReadOnly,
      'DEFAULT/TextureReadOnly',
      P.TextureReadOnlyPool,
      H.DEFAULT,
      config['texturePool.readOnly.size'],
      TILE,
      config['texturePool.readOnly.maxAllocation'],
      { defrag, budgetClass: BudgetClass.Textures, placed: true },
    ),
    spec(
      Family.TextureReadOnly4K,
      'DEFAULT/TextureReadOnly4K',
      P.TextureReadOnly4KPool,
      H.DEFAULT,
      config['texturePool.readOnly4K.size'],
      SMALL_ALIGNMENT,
      config['texturePool.readOnly4K.maxAllocation'],
      { placed: true },
    ),
    spec(Family.TextureRT, 'DEFAULT/TextureRT', P.TextureRTPool, H.DEFAULT, rtuavSize, TILE, rtuavMax, placedOnly),
    spec(Family.TextureUAV, 'DEFAULT/TextureUAV', P.TextureUAVPool, H.DEFAULT, rtuavSize, TILE, rtuavMax, placedOnly),
    spec(
      Family.UploadBigBlock,
      'UPLOAD/BigBlock',
      P.UploadBigBlock,
      H.UPLOAD,
      config['upload.bigBlock.poolSize'],
      UPLOAD_POOL_ALIGNMENT,
      config['upload.bigBlock.maxAllocation'],
      { order: FreeOrder.ByOffset, async: true },
    ),
  ]
  if (out.length !== FAMILY_COUNT) throw new Error('family table out of step with Family')
  return out
}

/** One pool allocator: its pools in slots (a destroyed pool leaves a hole its successor reuses) and their order. */
export class PoolFamily {
  readonly spec: FamilySpec
  slots: (MemoryPool | null)[] = []
  /** Slot indices in allocation order, re-sorted at every frame's clean-up. */
  order: number[] = []
  spare: MemoryPool | null = null
  /** Where the rotating defrag resumes (RHIPoolAllocator LastDefragPoolIndex). */
  lastDefragSlot = 0

  constructor(spec: FamilySpec) {
    this.spec = spec
  }

  /** The slot a new pool takes: the first hole, else a new one at the end of the allocation order. */
  takeSlot(): number {
    for (let i = 0; i < this.slots.length; i++) if (this.slots[i] === null) return i
    this.slots.push(null)
    this.order.push(this.slots.length - 1)
    return this.slots.length - 1
  }

  /**
   * CleanUpAllocations' sort: fullest first where defrag is on; otherwise smallest pool first, then pool index.
   * Ties keep the pool index order so the replay is deterministic.
   */
  sortOrder(): void {
    const slots = this.slots
    if (this.spec.defrag) {
      this.order.sort((a, b) => {
        const ua = slots[a] ? slots[a]!.used : Infinity
        const ub = slots[b] ? slots[b]!.used : Infinity
        return ub - ua || a - b
      })
    } else {
      this.order.sort((a, b) => {
        const sa = slots[a] ? slots[a]!.size : Infinity
        const sb = slots[b] ? slots[b]!.size : Infinity
        return sa - sb || a - b
      })
    }
  }

  pools(): MemoryPool[] {
    const out: MemoryPool[] = []
    for (const p of this.slots) if (p) out.push(p)
    return out
  }

  clone(register: (p: MemoryPool) => MemoryPool): PoolFamily {
    const c = new PoolFamily(this.spec)
    c.slots = this.slots.map((p) => (p ? register(p) : null))
    c.order = this.order.slice()
    c.spare = this.spare ? register(this.spare) : null
    c.lastDefragSlot = this.lastDefragSlot
    return c
  }
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
      row: P.UploadSmallBlock,
      heap: H.UPLOAD,
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
      heap: H.UPLOAD,
      minBlock: page,
      maxOrder: maxOrderFor(page, Math.max(poolSize, page)),
      async: true,
    },
  ]
}

export class BuddyFamily {
  readonly spec: BuddySpec
  pools: BuddyPool[] = []
  spare: BuddyPool | null = null
  created = 0

  constructor(spec: BuddySpec) {
    this.spec = spec
  }

  /** The order of the block a request of `bytes` needs, -1 when no pool of the family can hold it. */
  orderFor(bytes: Bytes): number {
    const units = Math.max(1, Math.ceil(bytes / this.spec.minBlock))
    let order = 0
    while (2 ** order < units) order++
    return order > this.spec.maxOrder ? NONE : order
  }

  clone(register: (p: BuddyPool) => BuddyPool): BuddyFamily {
    const c = new BuddyFamily(this.spec)
    c.pools = this.pools.map(register)
    c.spare = this.spare ? register(this.spare) : null
    c.created = this.created
    return c
  }
}
