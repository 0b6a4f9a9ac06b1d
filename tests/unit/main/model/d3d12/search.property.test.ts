/**
 * The model's indexed searches against the linear walks they replace: the first pool in the allocation order
 * with room for a size (FRHIPoolAllocator), the first buddy pool with a free block of an order (the multi-buddy
 * allocator), the order re-sorted at every clean-up, the empty pools the clean-up destroys, the hole a new pool takes. A second model runs the same random stream with plain linear
 * implementations written here, and every placement, move, pool, residency event and total must be the same:
 * streams that leak, go far over budget with `use` records, defragment, and continue in a copy.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BufferUsage, TextureFlag } from '../../../../../src/shared/capture'
import { KiB, MiB } from '../../../../../src/shared/units'
import type { ModelSink } from '../../../../../src/main/model/events'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import { BuddyFamily, familySpecs, PoolFamily } from '../../../../../src/main/model/d3d12/families'
import type { BuddyPool } from '../../../../../src/main/model/d3d12/buddy'
import { FreeOrder, MemoryPool } from '../../../../../src/main/model/d3d12/memoryPool'
import type { BlockTable } from '../../../../../src/main/model/d3d12/memoryPool'
import { checkInvariants, config, newModel } from './helpers'
import { runs } from '../../../../properties'

/**
 * FRHIPoolAllocator's pool array and its walk: every pool in order, the first whose free blocks hold the
 * request; CleanUpAllocations sorts the whole array. The family's own tree is kept too but never asked.
 */
class LinearPoolFamily extends PoolFamily {
  /** The array in allocation order: new slots at the end, re-sorted whole at every clean-up. */
  walk: number[] = []

  /** The first hole by a walk over every slot; a new slot (the family's own bookkeeping) only when none is. */
  override takeSlot(): number {
    const hole = this.slots.indexOf(null)
    if (hole >= 0) return hole
    const slot = super.takeSlot()
    expect(slot).toBe(this.slots.length - 1)
    this.walk.push(slot)
    return slot
  }

  override firstWithRoom(blocks: BlockTable, size: number): MemoryPool | null {
    for (const slot of this.walk) {
      const pool = this.slots[slot]
      if (pool === null || pool.size - pool.used < size) continue
      for (let i = 0; i < pool.freeCount; i++) if (blocks.size[pool.free[i]] >= size) return pool
    }
    return null
  }

  /** CleanUpAllocations' sort, whole: fullest first with defrag, else smallest first; then the slot. */
  override sortOrder(): void {
    const slots = this.slots
    const key = (s: number) => {
      const p = slots[s]
      return this.spec.defrag ? (p ? -p.used : -Infinity) : p ? p.size : Infinity
    }
    this.walk.sort((a, b) => {
      const ka = key(a)
      const kb = key(b)
      return ka < kb ? -1 : ka > kb ? 1 : a - b
    })
  }

  override allocationOrder(): number[] {
    return this.walk.slice()
  }

  /** CleanUpAllocations' walk over every pool for the empty ones. */
  override emptyPools(): MemoryPool[] {
    return this.slots.filter((p): p is MemoryPool => p !== null && p.allocatedBlocks === 0)
  }
}

/** The multi-buddy allocator's walk: the first pool, in creation order, with a free block of the order or larger. */
class LinearBuddyFamily extends BuddyFamily {
  override firstFor(order: number): BuddyPool | null {
    for (const pool of this.pools) for (let k = order; k <= pool.maxOrder; k++) if (pool.freeCount[k] > 0) return pool
    return null
  }

  override orderFor(bytes: number): number {
    const units = Math.max(1, Math.ceil(bytes / this.spec.minBlock))
    let order = 0
    while (2 ** order < units) order++
    return order > this.spec.maxOrder ? -1 : order
  }
}

/**
 * The model with the linear walks in place of its indexes. A copy makes new families: `from` is the model it was
 * copied from, whose arrays the copy's walks start from.
 */
function linear(m: D3D12Model, from?: D3D12Model): D3D12Model {
  const inner = m as unknown as { families: PoolFamily[]; buddies: BuddyFamily[] }
  const walks = from ? orders(from) : inner.families.map(() => [])
  inner.families.forEach((f, i) => {
    Object.setPrototypeOf(f, LinearPoolFamily.prototype)
    ;(f as LinearPoolFamily).walk = walks[i].slice()
  })
  for (const f of inner.buddies) Object.setPrototypeOf(f, LinearBuddyFamily.prototype)
  return m
}

/** Each pool family's allocation order (slot indices), as the next search will walk it. */
function orders(m: D3D12Model): number[][] {
  return (m as unknown as { families: PoolFamily[] }).families.map((f) => f.allocationOrder())
}

/** Small pools, so a few hundred requests make dozens of pools; defrag on with a small budget per frame. */
const CONFIG = {
  'bufferPool.size': 1 * MiB,
  'bufferPool.maxAllocation': 512 * KiB,
  'asPool.size': 1 * MiB,
  'asPool.maxAllocation': 512 * KiB,
  'texturePool.readOnly.size': 2 * MiB,
  'texturePool.readOnly.maxAllocation': 2 * MiB,
  'texturePool.readOnly4K.size': 256 * KiB,
  'texturePool.readOnly4K.maxAllocation': 256 * KiB,
  'upload.smallBlock.poolSize': 64 * KiB,
  'upload.smallBlock.maxAllocation': 16 * KiB,
  'upload.bigBlock.poolSize': 256 * KiB,
  'upload.bigBlock.maxAllocation': 1 * MiB,
  'fastConstant.pageSize': 16 * KiB,
  'fastAllocator.pageSize': 64 * KiB,
  'pool.emptyFramesBeforeRelease': 2,
  'defrag.enabled': 1,
  'defrag.maxCopyPerFrame': 512 * KiB,
  'defrag.maxPoolsPerFrame': 2,
  'transient.minimumHeapSize': 1 * MiB,
  'transient.gcLatency': 2,
}

type Op =
  | { k: 'buffer'; size: number; usage: BufferUsage[]; stride: number; state: 'default' | 'single' | 'multi' }
  | { k: 'texture'; format: string; width: number; height: number; mips: number; flags: TextureFlag[] }
  | { k: 'release'; pick: number }
  | { k: 'frame' }
  | { k: 'use'; picks: number[] }
  | { k: 'budget'; bytes: number }
  | { k: 'upload'; via: 'fast' | 'fastConstant' | 'staging'; bytes: number; count: number }
  | { k: 'lock'; pick: number; bytes: number }
  | { k: 'graph'; sizes: number[] }

const size = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 16 * KiB }) },
  { weight: 4, arbitrary: fc.integer({ min: 16 * KiB, max: 600 * KiB }) },
  { weight: 1, arbitrary: fc.integer({ min: 600 * KiB, max: 3 * MiB }) },
)
const usages: BufferUsage[][] = [
  ['Static'],
  ['Static', 'VertexBuffer'],
  ['UnorderedAccess', 'StructuredBuffer'],
  ['Dynamic'],
  ['Uniform', 'Dynamic'],
  ['AccelerationStructure'],
]

/** A stream's ops; `releases` weighs releases against creations (0: a pure leak). */
const ops = (releases: number) =>
  fc.array(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          k: fc.constant('buffer' as const),
          size,
          usage: fc.constantFrom(...usages),
          stride: fc.constantFrom(0, 4, 16, 20),
          state: fc.constantFrom('default' as const, 'single' as const, 'multi' as const),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          k: fc.constant('texture' as const),
          format: fc.constantFrom('BC1_UNORM', 'BC7_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT'),
          width: fc.integer({ min: 1, max: 1024 }),
          height: fc.integer({ min: 1, max: 1024 }),
          mips: fc.integer({ min: 1, max: 11 }),
          flags: fc.constantFrom<TextureFlag[]>(['ShaderResource'], ['ShaderResource'], ['RenderTargetable'], ['UAV']),
        }),
      },
      ...(releases > 0
        ? [{ weight: releases, arbitrary: fc.record({ k: fc.constant('release' as const), pick: fc.nat() }) }]
        : []),
      { weight: 3, arbitrary: fc.record({ k: fc.constant('frame' as const) }) },
      {
        weight: 2,
        arbitrary: fc.record({ k: fc.constant('use' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ k: fc.constant('budget' as const), bytes: fc.integer({ min: 1 * MiB, max: 24 * MiB }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          k: fc.constant('upload' as const),
          via: fc.constantFrom('fast' as const, 'fastConstant' as const, 'staging' as const),
          bytes: fc.integer({ min: 0, max: 200 * KiB }),
          count: fc.integer({ min: 1, max: 30 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ k: fc.constant('lock' as const), pick: fc.nat(), bytes: fc.integer({ min: 1, max: 64 * KiB }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          k: fc.constant('graph' as const),
          sizes: fc.array(fc.integer({ min: 1, max: 1 * MiB }), { maxLength: 4 }),
        }),
      },
    ),
    // Long streams (fast-check keeps arrays short unless told): many pools, many frames.
    { minLength: 100, maxLength: 400, size: 'max' },
  )

/** Every event a model tells, as text, in order. */
function recorder(out: string[]): ModelSink {
  return {
    placed: (info, frame) => out.push(`placed ${info.id} ${info.placement} ${info.pool} ${info.offset} ${info.size} ${frame}`),
    freed: (id, frame) => out.push(`freed ${id} ${frame}`),
    moved: (...args) => out.push(`moved ${args.join(' ')}`),
    poolCreated: (info, frame) => out.push(`pool ${info.pool} ${info.name} ${info.bytes} ${frame}`),
    poolDestroyed: (pool, frame) => out.push(`poolDestroyed ${pool} ${frame}`),
    madeResident: (...args) => out.push(`resident ${args.join(' ')}`),
    evicted: (...args) => out.push(`evicted ${args.join(' ')}`),
    overBudget: (...args) => out.push(`overBudget ${args.join(' ')}`),
    transientPlaced: (info) => out.push(`transient ${info.id} ${info.heap} ${info.offset}`),
  }
}

class Driver {
  live: number[] = []
  nextId = 1
  frame = 0

  apply(m: D3D12Model, o: Op): void {
    const pick = (n: number) => this.live[n % this.live.length]
    switch (o.k) {
      case 'buffer':
        m.createBuffer(this.nextId, { size: o.size, usage: o.usage, stride: o.stride, state: o.state })
        return
      case 'texture':
        m.createTexture(this.nextId, { dim: '2d', format: o.format, width: o.width, height: o.height, mips: o.mips, flags: o.flags })
        return
      case 'release':
        if (this.live.length > 0) m.release(pick(o.pick))
        return
      case 'frame':
        m.beginFrame(this.frame + 1)
        return
      case 'use':
        if (this.live.length > 0) m.use(o.picks.map(pick))
        return
      case 'budget':
        m.setBudget(o.bytes)
        return
      case 'upload':
        m.upload(o.via, o.bytes, o.count)
        return
      case 'lock':
        if (this.live.length > 0) m.lock(pick(o.pick), o.bytes)
        return
      case 'graph':
        m.beginGraph('g')
        o.sizes.forEach((bytes, i) =>
          m.transient({ e: 'transient', id: 1_000_000 + i, kind: 'buffer', size: bytes, first: i, last: i + 1 }),
        )
        m.endGraph(o.sizes.length + 1)
        return
    }
  }

  advance(o: Op): void {
    if (o.k === 'buffer' || o.k === 'texture') this.live.push(this.nextId++)
    else if (o.k === 'release' && this.live.length > 0) this.live.splice(o.pick % this.live.length, 1)
    else if (o.k === 'frame') this.frame++
  }
}

describe('indexed searches against linear walks', () => {
  it('place, move, evict and free exactly as the linear walks on leaking, over-budget, defragmenting streams', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 4).chain((releases) => ops(releases)),
        fc.nat(),
        fc.constantFrom('none', 'copy', 'packed'),
        (stream, cut, copy) => {
          const events: [string[], string[]] = [[], []]
          const options = { hasUseRecords: true, budget: 6 * MiB }
          let indexed = newModel(CONFIG, options, recorder(events[0]))
          let walked = linear(newModel(CONFIG, options, recorder(events[1])))
          const d = new Driver()
          const at = stream.length === 0 ? 0 : cut % stream.length
          stream.forEach((o, i) => {
            if (i === at && copy !== 'none') {
              // A checkpoint or snapshot copy carries on: the index is rebuilt from the copied pools.
              const packed = copy === 'packed'
              indexed = (packed ? indexed.clone({}, { packed }) : indexed).clone(recorder(events[0]))
              walked = linear((packed ? walked.clone({}, { packed }) : walked).clone(recorder(events[1])), walked)
            }
            d.apply(indexed, o)
            d.apply(walked, o)
            d.advance(o)
            if (o.k === 'frame') expect(orders(indexed)).toEqual(orders(walked))
          })
          indexed.endCapture()
          walked.endCapture()
          expect(events[0]).toEqual(events[1])
          expect(indexed.pools()).toEqual(walked.pools())
          expect(indexed.liveAllocations()).toEqual(walked.liveAllocations())
          expect(Array.from(indexed.totals.byRow)).toEqual(Array.from(walked.totals.byRow))
          checkInvariants(indexed)
        },
      ),
      { numRuns: runs(60) },
    )
  })

  it('keeps many pools apart: a leak of 2 000 buffers over 200 frames takes the same pools and offsets', () => {
    // A deterministic long leak: dozens of pools per family, defrag and clean-up every frame.
    const events: [string[], string[]] = [[], []]
    const options = { hasUseRecords: true, budget: 16 * MiB }
    const indexed = newModel(CONFIG, options, recorder(events[0]))
    const walked = linear(newModel(CONFIG, options, recorder(events[1])))
    let seed = 12345
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
    const live: number[] = []
    let id = 1
    for (let frame = 1; frame <= 200; frame++) {
      for (const m of [indexed, walked]) m.beginFrame(frame)
      for (let i = 0; i < 10; i++) {
        const bytes = Math.floor(256 + next() * 300 * KiB)
        const usage = usages[Math.floor(next() * usages.length)]
        for (const m of [indexed, walked]) m.createBuffer(id, { size: bytes, usage })
        live.push(id++)
      }
      // One release in four creations: a steady leak with churn.
      for (let i = 0; i < 3 && live.length > 0; i++) {
        const k = Math.floor(next() * live.length)
        for (const m of [indexed, walked]) m.release(live[k])
        live.splice(k, 1)
      }
      const used = Array.from({ length: 8 }, () => live[Math.floor(next() * live.length)])
      for (const m of [indexed, walked]) m.use(used)
      expect(orders(indexed)).toEqual(orders(walked))
    }
    expect(indexed.pools().length).toBeGreaterThan(60)
    expect(events[0].some((e) => e.startsWith('moved'))).toBe(true)
    expect(events[0].some((e) => e.startsWith('evicted'))).toBe(true)
    expect(events[0]).toEqual(events[1])
    expect(indexed.pools()).toEqual(walked.pools())
  })

  it('gives a new pool the first hole a walk over the slots finds, across destroyed pools and copies', () => {
    const step = fc.tuple(fc.constantFrom('create', 'create', 'destroy', 'copy'), fc.nat())
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        let fam = new PoolFamily(familySpecs(config())[0])
        let id = 0
        for (const [what, n] of steps) {
          const occupied = fam.slots.flatMap((p, i) => (p === null ? [] : [i]))
          if (what === 'create') {
            const hole = fam.slots.indexOf(null)
            const slot = fam.takeSlot()
            expect(slot).toBe(hole >= 0 ? hole : fam.slots.length - 1)
            const pool = new MemoryPool(id++, MiB, 64, FreeOrder.BySize, 0, null)
            pool.slot = slot
            fam.setSlot(slot, pool)
          } else if (what === 'destroy' && occupied.length > 0) fam.setSlot(occupied[n % occupied.length], null)
          else if (what === 'copy') fam = fam.clone((p) => p.clone())
        }
      }),
      { numRuns: runs(100) },
    )
  })
})
