/**
 * Invariants over random request streams: pools never overlap blocks and always add up, offsets honour their
 * alignment, releases give back exactly what was taken, and a clone continues exactly as the original.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BufferUsage, TextureFlag, TextureDim } from '../../../../../src/shared/capture'
import { PLACEMENTS } from '../../../../../src/shared/model'
import { KiB, MiB } from '../../../../../src/shared/units'
import type { ModelSink } from '../../../../../src/main/model/events'
import type { D3D12Model, ModelPlacement } from '../../../../../src/main/model/d3d12/model'
import { ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD, TOTAL_ROWS } from '../../../../../src/main/model/d3d12/totals'
import { HEAP_INDEX } from '../../../../../src/main/model/d3d12/ladder'
import { NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import { BudgetClass, DEFRAG_SIZE_FRACTION } from '../../../../../src/main/model/d3d12/families'
import { routeLine } from '../../../../../src/main/cli/route'
import { checkInvariants, newModel } from './helpers'
import { Pend, pendMeta, STRIDE } from '../../../../../src/main/model/d3d12/pending'
import type { PendingQueue } from '../../../../../src/main/model/d3d12/pending'
import { Kind, Loc, SlotState } from '../../../../../src/main/model/d3d12/allocations'
import type { Allocations } from '../../../../../src/main/model/d3d12/allocations'
import { runs } from '../../../../properties'

/** Small pools so a few dozen requests cross pool boundaries, grow, defrag and destroy pools. */
const SMALL_POOLS = {
  'bufferPool.size': 1 * MiB,
  'bufferPool.maxAllocation': 512 * KiB,
  'asPool.size': 1 * MiB,
  'asPool.maxAllocation': 512 * KiB,
  'texturePool.readOnly.size': 4 * MiB,
  'texturePool.readOnly.maxAllocation': 4 * MiB,
  'texturePool.readOnly4K.size': 256 * KiB,
  'texturePool.readOnly4K.maxAllocation': 256 * KiB,
  'upload.smallBlock.poolSize': 256 * KiB,
  'upload.bigBlock.poolSize': 1 * MiB,
  'upload.bigBlock.maxAllocation': 2 * MiB,
  'fastAllocator.pageSize': 256 * KiB,
  'pool.emptyFramesBeforeRelease': 3,
  'defrag.maxCopyPerFrame': 256 * KiB,
  'transient.minimumHeapSize': 4 * MiB,
  'transient.gcLatency': 2,
}

type Op =
  | {
      k: 'buffer'
      size: number
      usage: BufferUsage[]
      stride: number
      state: 'default' | 'single' | 'multi'
      readback: boolean
      init: boolean
    }
  | {
      k: 'texture'
      dim: TextureDim
      format: string
      width: number
      height: number
      depth: number
      mips: number
      samples: number
      flags: TextureFlag[]
    }
  | { k: 'release'; pick: number }
  | { k: 'frame' }
  | { k: 'gpu' }
  | { k: 'lock'; pick: number; bytes: number }
  | { k: 'commit'; pick: number; bytes: number }
  | { k: 'upload'; via: 'fast' | 'fastConstant' | 'staging'; bytes: number; count: number }
  | { k: 'graph'; sizes: number[] }

const size = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 4096 }) },
  { weight: 4, arbitrary: fc.integer({ min: 4097, max: 600 * KiB }) },
  { weight: 1, arbitrary: fc.integer({ min: 600 * KiB, max: 3 * MiB }) },
)
const usages: BufferUsage[] = [
  'Dynamic',
  'UnorderedAccess',
  'StructuredBuffer',
  'ByteAddressBuffer',
  'DrawIndirect',
  'Shared',
  'AccelerationStructure',
  'ReservedResource',
  'Uniform',
]
const formats = ['R8_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'BC1_UNORM', 'BC7_UNORM', 'R32G32B32A32_FLOAT', 'NV12']
/** Mostly none, now and then one or two of `names`. */
const some = <T>(names: T[], weight: number) =>
  fc.oneof({ weight, arbitrary: fc.constant([] as T[]) }, { weight: 1, arbitrary: fc.subarray(names, { maxLength: 2 }) })
const flags: TextureFlag[] = ['RenderTargetable', 'UAV', 'CPUReadback', 'ReservedResource', 'ImmediateCommit', 'Shared']

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('buffer' as const),
      size,
      // Mostly plain buffers, with one or two special usages now and then.
      usage: some(usages, 2),
      stride: fc.constantFrom(0, 0, 4, 12, 16, 20, 100),
      state: fc.constantFrom('default' as const, 'single' as const, 'multi' as const),
      readback: fc.constantFrom(false, false, false, true),
      init: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('texture' as const),
      dim: fc.constantFrom('2d' as const, '2d' as const, '2darray' as const, 'cube' as const, '3d' as const),
      format: fc.constantFrom(...formats),
      width: fc.integer({ min: 1, max: 2048 }),
      height: fc.integer({ min: 1, max: 1024 }),
      depth: fc.integer({ min: 1, max: 8 }),
      mips: fc.integer({ min: 1, max: 12 }),
      samples: fc.constantFrom(1, 1, 1, 4),
      flags: some(flags, 3),
    }),
  },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('frame' as const) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('gpu' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('lock' as const), pick: fc.nat(), bytes: fc.integer({ min: 0, max: 300 * KiB }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('commit' as const), pick: fc.nat(), bytes: fc.integer({ min: 0, max: 4 * MiB }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('upload' as const),
      via: fc.constantFrom('fast' as const, 'fastConstant' as const, 'staging' as const),
      bytes: fc.integer({ min: 0, max: 600 * KiB }),
      count: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('graph' as const),
      sizes: fc.array(fc.integer({ min: 1, max: 2 * MiB }), { maxLength: 5 }),
    }),
  },
)

/** The ops with more staging copies and frames: copies of many frames wait for the GPU at once. */
const pendingOp: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: op },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('upload' as const),
      via: fc.constant('staging' as const),
      bytes: fc.integer({ min: 0, max: 3 * MiB }),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom({ k: 'frame' as const }, { k: 'gpu' as const }) },
)

/** Drives a model (or several in lockstep) through ops; ids are dense, releases pick among the live ones. */
class Driver {
  live: number[] = []
  nextId = 1
  frame = 0
  gpu = -1
  out: string[] = []

  constructor(readonly explicit: boolean) {}

  apply(models: D3D12Model[], o: Op): void {
    const lines = models.map((m) => this.applyOne(m, o))
    this.out.push(...lines[0])
    for (let i = 1; i < lines.length; i++) expect(lines[i]).toEqual(lines[0])
    this.advance(o)
  }

  private applyOne(m: D3D12Model, o: Op): string[] {
    const line = (p: ModelPlacement) => routeLine(p)
    const pick = (n: number) => this.live[n % this.live.length]
    switch (o.k) {
      case 'buffer':
        return [
          line(
            m.createBuffer(this.nextId, {
              size: o.size,
              usage: o.usage,
              stride: o.stride,
              state: o.state,
              heap: o.readback ? 'readback' : 'default',
              init: o.init,
            }),
          ),
        ]
      case 'texture':
        return [line(m.createTexture(this.nextId, { ...o }))]
      case 'release':
        if (this.live.length > 0) m.release(pick(o.pick))
        return []
      case 'frame':
        m.beginFrame(this.frame + 1)
        return []
      case 'gpu':
        if (this.explicit && this.gpu < this.frame - 1) m.gpuDone(this.gpu + 1)
        return []
      case 'lock':
        if (this.live.length > 0) m.lock(pick(o.pick), o.bytes)
        return []
      case 'commit':
        if (this.live.length > 0) m.commit(pick(o.pick), o.bytes)
        return []
      case 'upload':
        m.upload(o.via, o.bytes, o.count)
        return []
      case 'graph': {
        m.beginGraph('g')
        o.sizes.forEach((size, i) =>
          m.transient({ e: 'transient', id: 1_000_000 + i, kind: 'buffer', size, first: i, last: i + 1 }),
        )
        return m.endGraph(o.sizes.length + 1).map(line)
      }
    }
  }

  private advance(o: Op): void {
    if (o.k === 'buffer' || o.k === 'texture') this.live.push(this.nextId++)
    else if (o.k === 'release' && this.live.length > 0) this.live.splice(o.pick % this.live.length, 1)
    else if (o.k === 'frame') this.frame++
    else if (o.k === 'gpu' && this.explicit && this.gpu < this.frame - 1) this.gpu++
  }
}

/** What the model's defrag reads and calls; private members, reached here to swap in the reference. */
interface DefragInternals {
  config: Record<string, number>
  families: Family[]
  blocks: { prev: Int32Array; size: Float64Array }
  movable(block: number): boolean
  moveBlock(fam: Family, pool: Pool, target: Pool, block: number, frame: number): number
  defrag(frame: number): void
}
interface Pool {
  used: number
  size: number
  slot: number
  tail: number
  allocatedBlocks: number
  pendingBlocks: number
  largestFree(blocks: unknown): number
}
interface Family {
  spec: { defrag: boolean; budgetClass: number }
  slots: (Pool | null)[]
  lastDefragSlot: number
}

/**
 * docs/model.md's defrag rule as plain loops over a family's pools, every step from scratch: the reference the
 * indexed search (src/main/model/d3d12/defrag.ts) must agree with, move for move.
 */
function useLinearDefrag(model: D3D12Model): void {
  const m = model as unknown as DefragInternals
  m.defrag = (frame) => {
    const budget = m.config['defrag.maxCopyPerFrame']
    const maxPools = m.config['defrag.maxPoolsPerFrame']
    if (m.config['defrag.enabled'] !== 1 || maxPools <= 0 || budget <= 0) return
    for (const cls of [BudgetClass.Buffers, BudgetClass.Textures]) {
      let copied = 0
      for (const fam of m.families) {
        if (fam.spec.budgetClass !== cls || !fam.spec.defrag) continue
        if (copied >= budget) break
        copied = defragFamily(fam, budget, copied, maxPools, frame)
      }
    }
  }
  const defragFamily = (fam: Family, budget: number, copied: number, maxPools: number, frame: number): number => {
    const slots = fam.slots
    const pools = slots.filter((p): p is Pool => p !== null)
    const low = pools.filter((p) => p.used / p.size < DEFRAG_SIZE_FRACTION).length
    const notFull = pools.filter((p) => p.used < p.size).length
    if (low === 0 || notFull < 2) return copied
    if (fam.lastDefragSlot >= slots.length) fam.lastDefragSlot = 0
    let cleared = 0
    for (; fam.lastDefragSlot < slots.length; fam.lastDefragSlot++) {
      const pool = slots[fam.lastDefragSlot]
      if (pool === null || pool.used / pool.size >= DEFRAG_SIZE_FRACTION) continue
      if (pool.allocatedBlocks === pool.pendingBlocks) continue
      const fuller = (p: Pool) => p.used < p.size && (p.used > pool.used || (p.used === pool.used && p.slot > pool.slot))
      if (!pools.some(fuller)) continue
      for (let block = pool.tail; block !== -1 && copied < budget; ) {
        const prev = m.blocks.prev[block]
        if (m.movable(block)) {
          const size = m.blocks.size[block]
          const targets = pools
            .filter((p) => fuller(p) && p.largestFree(m.blocks) >= size)
            .sort((x, y) => y.used - x.used || y.slot - x.slot)
          if (targets.length > 0) copied += m.moveBlock(fam, pool, targets[0], block, frame)
        }
        block = prev
      }
      cleared++
      if (copied >= budget || cleared >= maxPools) {
        fam.lastDefragSlot++
        break
      }
    }
    return copied
  }
}

/** What the pending queue's check reads of a model: private members. */
interface PendingInternals {
  pending: PendingQueue
  allocs: Allocations
  blocks: { offset: Float64Array }
  bigStaging: number
}

/**
 * The pending queue (src/main/model/d3d12/pending.ts) against the plain recomputation: every slot pending (but the
 * big-block staging slot) has one entry, in release order, holding the slot's own fields; and the entries of each
 * pool are exactly its pending blocks as pools() lists them (offset and size).
 */
function checkPending(model: D3D12Model): void {
  const m = model as unknown as PendingInternals
  const q = m.pending
  const c = q.cells
  const a = m.allocs
  const fromQueue = new Map<number, string[]>()
  const slots: number[] = []
  let lastFrame = -Infinity
  for (let o = q.head; o < q.tail; o += STRIDE) {
    const slot = c[o + Pend.Slot]
    const meta = c[o + Pend.Meta]
    const loc = meta & 255
    expect(c[o + Pend.Frame], 'released in frame order').toBeGreaterThanOrEqual(lastFrame)
    lastFrame = c[o + Pend.Frame]
    if (slot === NONE) {
      // A FastConstantAllocator page: a buddy block of the model's own, with no slot.
      expect(meta, 'a page: loc, row, heap').toBe(pendMeta(Loc.Buddy, ROW_FAST_CONSTANT_PAGE, HEAP_INDEX.UPLOAD, false))
      expect([c[o + Pend.Block], c[o + Pend.Size]], 'a page: order 0, a page of bytes').toEqual([0, model.config['fastConstant.pageSize']])
    } else expect(a.state[slot], `slot ${slot} pending`).toBe(SlotState.Pending)
    if (slot !== m.bigStaging && slot !== NONE) {
      slots.push(slot)
      const resource = a.kind[slot] === Kind.Buffer || a.kind[slot] === Kind.Texture
      expect(meta, `slot ${slot}: loc, row, heap, resource`).toBe(pendMeta(a.loc[slot], a.placement[slot], a.heap[slot], resource))
      if (loc === Loc.Pool || loc === Loc.Buddy) {
        expect([c[o + Pend.Pool], c[o + Pend.Block], c[o + Pend.Size]], `slot ${slot}: pool, block, size`).toEqual([a.pool[slot], a.block[slot], a.size[slot]])
      }
      if (loc === Loc.Buddy) expect(c[o + Pend.Base], `slot ${slot}: base`).toBe(a.base[slot])
      if (loc !== Loc.Pool && loc !== Loc.Buddy) {
        expect([c[o + Pend.Block], c[o + Pend.Size]], `slot ${slot}: object, bytes`).toEqual([a.object[slot], a.bytes(slot)])
      }
    }
    if (loc === Loc.Pool || loc === Loc.Buddy) {
      const offset = loc === Loc.Pool ? m.blocks.offset[c[o + Pend.Block]] : c[o + Pend.Base]
      const list = fromQueue.get(c[o + Pend.Pool]) ?? []
      list.push(`${offset}+${c[o + Pend.Size]}`)
      fromQueue.set(c[o + Pend.Pool], list)
    }
  }
  const pendingSlots: number[] = []
  for (let slot = 0; slot < a.count; slot++) if (a.state[slot] === SlotState.Pending && slot !== m.bigStaging) pendingSlots.push(slot)
  expect(slots.slice().sort((x, y) => x - y), 'one entry per pending slot').toEqual(pendingSlots)
  for (const p of model.pools()) {
    const blocks = p.blocks.filter((b) => b.state === 'pending').map((b) => `${b.offset}+${b.size}`)
    expect((fromQueue.get(p.pool) ?? []).sort(), `${p.name}: pending blocks`).toEqual(blocks.sort())
    fromQueue.delete(p.pool)
  }
  expect([...fromQueue.keys()], 'entries of pools no longer listed').toEqual([])
}

const quiet: ModelSink = {}

/** A model on small pools driven by a drawn stream, `check` run after every request; the model and its driver. */
function drive(ops: Op[], explicit: boolean, check: (m: D3D12Model) => void = () => {}): { m: D3D12Model; d: Driver } {
  const m = newModel(SMALL_POOLS, { explicitGpuFences: explicit }, quiet)
  const d = new Driver(explicit)
  for (const o of ops) {
    d.apply([m], o)
    check(m)
  }
  return { m, d }
}

describe('D3D12 model properties', () => {
  it('keeps every pool consistent after every request: no overlap, used + free = size, aligned offsets', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, explicit) => {
        drive(ops, explicit, checkInvariants)
      }),
      { numRuns: runs(400) },
    )
  })

  it('gives back exactly what was taken: after every release completes, nothing is occupied or pending', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, explicit) => {
        const { m, d } = drive(ops, explicit)
        for (const id of d.live) m.release(id)
        // Let every frame complete.
        const last = d.frame + 10
        if (explicit) m.gpuDone(last)
        m.beginFrame(last + 10)
        if (explicit) m.gpuDone(last + 10)
        for (let row = 0; row < TOTAL_ROWS.length; row++) {
          if (TOTAL_ROWS[row] === 'FastAllocatorPage' || TOTAL_ROWS[row] === 'FastConstantPage') continue
          expect(m.totals.get(row, TOTAL_FIELD.Occupied), TOTAL_ROWS[row]).toBe(0)
          expect(m.totals.get(row, TOTAL_FIELD.Requested), TOTAL_ROWS[row]).toBe(0)
          expect(m.totals.get(row, TOTAL_FIELD.Pending), TOTAL_ROWS[row]).toBe(0)
          expect(m.totals.get(row, TOTAL_FIELD.PoolFree), TOTAL_ROWS[row]).toBe(m.totals.get(row, TOTAL_FIELD.Heap))
        }
        expect(m.liveAllocations()).toEqual([])
        for (const p of m.pools()) {
          if (p.name.startsWith('UPLOAD/FastConstantPages') || p.name.startsWith('UPLOAD/FastAllocator')) continue
          expect(p.used + p.pending, p.name).toBe(0)
          expect(p.blocks.length, `${p.name} coalesced into one free block`).toBe(1)
        }
        checkInvariants(m)
      }),
      { numRuns: runs(400) },
    )
  })

  it('keeps in each pending release what its completion reads, as a scan of the slots and the pools finds it', () => {
    fc.assert(
      fc.property(fc.array(pendingOp, { maxLength: 60 }), fc.boolean(), (ops, explicit) => {
        drive(ops, explicit, checkPending)
      }),
      { numRuns: runs(400) },
    )
  })

  it('counts the live resources by placement, and sums the reserved ones, as the rows of liveAllocations do', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, explicit) => {
        drive(ops, explicit, (m) => {
          const rows = m.liveAllocations()
          const counts = PLACEMENTS.map((p) => rows.filter((a) => a.placement === p).length)
          const reserved = { count: 0, virtualBytes: 0, committedBytes: 0 }
          for (const a of rows) {
            if (a.placement !== 'Reserved') continue
            reserved.count++
            reserved.virtualBytes += a.size
            reserved.committedBytes += a.committed
          }
          expect(m.livePlacements()).toEqual({ counts, reserved })
        })
      }),
      { numRuns: runs(300) },
    )
  })

  it('continues a clone exactly as the original: same placements, pools, allocations, totals and events', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.array(op, { maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        (prefix, suffix, explicit, packed) => {
          const events: string[][] = [[], []]
          const sink = (i: number): ModelSink => ({
            placed: (info, frame) => events[i].push(`placed ${JSON.stringify(info)} ${frame}`),
            freed: (id, frame) => events[i].push(`freed ${id} ${frame}`),
            moved: (...args) => events[i].push(`moved ${args.join(' ')}`),
            poolCreated: (info, frame) => events[i].push(`pool ${JSON.stringify(info)} ${frame}`),
            poolDestroyed: (pool, frame) => events[i].push(`poolDestroyed ${pool} ${frame}`),
            madeResident: (...args) => events[i].push(`resident ${args.join(' ')}`),
            evicted: (...args) => events[i].push(`evicted ${args.join(' ')}`),
            transientHeapCreated: (...args) => events[i].push(`theap ${args.join(' ')}`),
            warning: (kind, _m, frame) => events[i].push(`warning ${kind} ${frame}`),
          })
          const original = newModel(SMALL_POOLS, { explicitGpuFences: explicit, budget: 8 * MiB }, sink(0))
          const d = new Driver(explicit)
          for (const o of prefix) d.apply([original], o)
          // A packed copy (a checkpoint) is only ever cloned again: its clone must continue like the original.
          const copy = packed ? original.clone({}, { packed: true }).clone(sink(1)) : original.clone(sink(1))
          events[0].length = 0
          for (const o of suffix) d.apply([original, copy], o)
          original.endCapture()
          copy.endCapture()
          expect(events[1]).toEqual(events[0])
          expect(copy.pools()).toEqual(original.pools())
          expect(copy.liveAllocations()).toEqual(original.liveAllocations())
          expect(Array.from(copy.totals.byRow)).toEqual(Array.from(original.totals.byRow))
          expect(Array.from(copy.totals.byHeap)).toEqual(Array.from(original.totals.byHeap))
          expect(copy.residencyManager().totals()).toEqual(original.residencyManager().totals())
        },
      ),
      { numRuns: runs(400) },
    )
  })

  it('counts, per residency object, exactly the live resources in it, as a scan of the live allocations does', () => {
    // Without `use` records an object is in use while it holds a live resource (§9: only those are "in use";
    // pending releases and empty pools are the 「其他对象」 eviction may take). The model keeps these counts as
    // resources come, go and move (defrag); here they are recounted from scratch after every operation.
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80, size: 'max' }), fc.boolean(), (ops, explicit) => {
        const evicted: { object: number; frame: number }[] = []
        const overFrames = new Set<number>()
        const m = newModel(
          { ...SMALL_POOLS, 'defrag.maxCopyPerFrame': 64 * KiB },
          { explicitGpuFences: explicit, budget: 3 * MiB },
          { evicted: (object, _b, frame) => evicted.push({ object, frame }), overBudget: (f) => overFrames.add(f) },
        )
        const rm = m.residencyManager()
        const d = new Driver(explicit)
        for (const o of ops) {
          const before = evicted.length
          const holding = new Set(rm.objects().filter((x) => rm.holders(x.object) > 0).map((x) => x.object))
          d.apply([m], o)
          // A label names each object: its pool, `Committed #id` or `Reserved #id` (the driver names nothing).
          const expected = new Map<string, number>()
          for (const a of m.liveAllocations()) {
            if (a.heap !== 'DEFAULT') continue
            const label =
              a.poolName !== null
                ? a.poolName
                : a.placement === 'Committed'
                  ? `Committed #${a.id}`
                  : a.placement === 'Reserved' && a.committed > 0
                    ? `Reserved #${a.id}`
                    : null
            if (label !== null) expected.set(label, (expected.get(label) ?? 0) + 1)
          }
          for (const x of rm.objects()) expect(rm.holders(x.object), x.label).toBe(expected.get(x.label) ?? 0)
          // Nothing holding a live resource through the frame's end is evicted at it.
          if (o.k === 'frame') {
            for (const e of evicted.slice(before)) expect(holding.has(e.object) && rm.holders(e.object) > 0).toBe(false)
            if (!overFrames.has(d.frame - 1)) expect(rm.residentBytes()).toBeLessThanOrEqual(rm.budget())
          }
        }
      }),
      { numRuns: runs(300) },
    )
  })

  it('defragments exactly as the plain rule written as loops over the pools (the index changes no move)', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 120, size: 'max' }),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(64 * KiB, 256 * KiB, 1 * MiB),
        (ops, explicit, maxPools, copyBudget) => {
          const moves: string[][] = [[], []]
          const sink = (i: number): ModelSink => ({ moved: (...args) => moves[i].push(args.join(' ')) })
          const over = { ...SMALL_POOLS, 'defrag.maxPoolsPerFrame': maxPools, 'defrag.maxCopyPerFrame': copyBudget }
          const indexed = newModel(over, { explicitGpuFences: explicit }, sink(0))
          const linear = newModel(over, { explicitGpuFences: explicit }, sink(1))
          useLinearDefrag(linear)
          const d = new Driver(explicit)
          for (const o of ops) {
            d.apply([indexed, linear], o)
            expect(moves[1]).toEqual(moves[0])
          }
          expect(linear.pools()).toEqual(indexed.pools())
          // A clone rebuilds the index from its pools and goes on alike.
          const copy = indexed.clone(sink(1))
          moves[0].length = moves[1].length = 0
          for (const o of ops) d.apply([indexed, copy], o)
          expect(moves[1]).toEqual(moves[0])
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('is deterministic: the same stream gives the same placements byte for byte', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const a = newModel(SMALL_POOLS)
        const b = newModel(SMALL_POOLS)
        const d = new Driver(false)
        for (const o of ops) d.apply([a, b], o)
        expect(b.pools()).toEqual(a.pools())
      }),
      { numRuns: runs(200) },
    )
  })
})
