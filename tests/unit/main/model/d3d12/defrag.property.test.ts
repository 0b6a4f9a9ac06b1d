/**
 * The defrag index (src/main/model/d3d12/defrag.ts) against its answers recomputed from the pools by plain loops:
 * the candidate pools, the counts of pools used under 90 % and not full, the fullest pool above a pool with a free
 * block of a size, the room above a pool, the smallest allocated block a walk over a pool found (kept until its
 * blocks change), the targets in rank order, each with the used bytes, slot and largest free block of its pool, the
 * bound on each pool's smallest allocated block (its last walk's smallest, lowered by each block taken since,
 * recomputed here from the steps). Pools take, free and pend blocks, move blocks, come and go, and the index is
 * copied, in random order; a family is read only once settled, as the model reads it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DefragSearch } from '../../../../../src/main/model/d3d12/defrag'
import type { FamilyDefrag } from '../../../../../src/main/model/d3d12/defrag'
import { DEFRAG_SIZE_FRACTION, familySpecs, PoolFamily } from '../../../../../src/main/model/d3d12/families'
import { BlockState, BlockTable, FreeOrder, MemoryPool, NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import { config } from './helpers'
import { runs } from '../../../../properties'

const UNIT = 64

type Step =
  | { k: 'pool'; units: number }
  | { k: 'take'; pick: number; units: number }
  | { k: 'free'; pick: number }
  | { k: 'pend'; pick: number }
  | { k: 'move'; pick: number; to: number }
  | { k: 'destroy'; pick: number }
  | { k: 'walk'; pick: number }
  | { k: 'counts' }
  | { k: 'settle' }
  | { k: 'copy' }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pool' as const), units: fc.constantFrom(16, 16, 32, 48) }) },
  {
    weight: 10,
    arbitrary: fc.record({ k: fc.constant('take' as const), pick: fc.nat(), units: fc.integer({ min: 1, max: 20 }) }),
  },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('free' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('pend' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('move' as const), pick: fc.nat(), to: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('destroy' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('walk' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('counts' as const) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('settle' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('copy' as const) }) },
)

/** (used, slot) of `a` ranks above that of `b`. */
const ranksAbove = (a: MemoryPool, b: MemoryPool) => a.used > b.used || (a.used === b.used && a.slot > b.slot)

/** A pool's largest free block, by a walk over its blocks. */
function largestFree(blocks: BlockTable, pool: MemoryPool): number {
  let max = 0
  for (let b = pool.head; b !== NONE; b = blocks.next[b]) {
    if (blocks.state[b] === BlockState.Free) max = Math.max(max, blocks.size[b])
  }
  return max
}

/** A pool's smallest allocated block, by a walk over its blocks (Infinity when none is). */
function smallestTaken(blocks: BlockTable, pool: MemoryPool): number {
  let min = Infinity
  for (let b = pool.head; b !== NONE; b = blocks.next[b]) {
    if (blocks.state[b] === BlockState.Allocated) min = Math.min(min, blocks.size[b])
  }
  return min
}

/** The targets are every pool not full, in rank order, each ranked by its pool's used bytes, slot and free block. */
function checkTargets(f: FamilyDefrag, blocks: BlockTable, pools: MemoryPool[]): void {
  const notFull = pools.filter((p) => p.used < p.size).sort((a, b) => (ranksAbove(a, b) ? 1 : -1))
  const ranked = f.ranked()
  expect(ranked.map((n) => n.pool)).toEqual(notFull)
  for (const n of ranked) {
    expect([n.used, n.slot, n.free]).toEqual([n.pool.used, n.pool.slot, largestFree(blocks, n.pool)])
  }
}

/** A counted family's counts and candidates (what defrag reads before the targets), against the pools. */
function checkCounts(f: FamilyDefrag, fam: PoolFamily): void {
  const pools = fam.slots.filter((p): p is MemoryPool => p !== null)
  const low = (p: MemoryPool) => p.used / p.size < DEFRAG_SIZE_FRACTION
  expect(f.low).toBe(pools.filter(low).length)
  expect(f.notFull).toBe(pools.filter((p) => p.used < p.size).length)
  const candidate = (p: MemoryPool | null) => p !== null && low(p) && p.allocatedBlocks > p.pendingBlocks
  for (let from = 0; from <= fam.slots.length + 1; from++) {
    let next = from
    while (next < fam.slots.length && !candidate(fam.slots[next])) next++
    const got = f.candidates.next(from)
    expect(got >= fam.slots.length ? -1 : got).toBe(next < fam.slots.length ? next : -1)
  }
}

/**
 * Every answer of a settled family's index, against the pools recomputed from scratch; `bounds`: each pool's bound
 * on its smallest block as the steps made it.
 */
function checkAnswers(
  search: DefragSearch,
  f: FamilyDefrag,
  blocks: BlockTable,
  fam: PoolFamily,
  bounds: Map<MemoryPool, number>,
): void {
  const pools = fam.slots.filter((p): p is MemoryPool => p !== null)
  for (const p of pools) {
    expect(search.smallest(p)).toBe(bounds.get(p))
    // What makes a skipped walk exact: no allocated block is below the bound.
    if (search.smallest(p) >= 0) expect(search.smallest(p)).toBeLessThanOrEqual(smallestTaken(blocks, p))
  }
  checkCounts(f, fam)
  checkTargets(f, blocks, pools)
  const room = new Map(pools.map((p) => [p, largestFree(blocks, p)]))
  for (const pool of pools) {
    const above = pools.filter((p) => p.used < p.size && ranksAbove(p, pool))
    expect(f.hasFuller(pool)).toBe(above.length > 0)
    expect(f.roomAbove(pool)).toBe(Math.max(0, ...above.map((p) => room.get(p)!)))
    for (const units of [1, 2, 3, 5, 8, 13, 21, 48]) {
      const fits = above.filter((p) => room.get(p)! >= units * UNIT)
      const fullest = fits.reduce<MemoryPool | null>((b, p) => (b === null || ranksAbove(p, b) ? p : b), null)
      expect(f.fullestFit(pool, units * UNIT)).toBe(fullest)
    }
  }
}

describe('defrag index against a plain recomputation', () => {
  it('answers as loops over the pools do, through takes, frees, pending blocks, moves, pools made and gone', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 200, size: 'max' }), (steps) => {
        const families = familySpecs(config()).map((spec) => new PoolFamily(spec))
        const fam = families[0]
        expect(fam.spec.defrag).toBe(true)
        const index = fam.spec.index
        const blocks = new BlockTable()
        let search = new DefragSearch(families)
        /** Allocated blocks by pool, and whether each is pending. */
        const taken = new Map<MemoryPool, { block: number; pending: boolean }[]>()
        /** Each pool's bound on its smallest block: -1 until walked (or copied), then lowered by each take. */
        const bounds = new Map<MemoryPool, number>()
        const took = (pool: MemoryPool, size: number) => {
          const b = bounds.get(pool)!
          if (b >= 0 && size < b) bounds.set(pool, size)
        }
        let nextId = 0
        const live = () => fam.slots.filter((p): p is MemoryPool => p !== null)
        const pick = (n: number) => {
          const pools = live()
          return pools.length === 0 ? null : pools[n % pools.length]
        }
        for (const s of steps) {
          switch (s.k) {
            case 'pool': {
              const pool = new MemoryPool(nextId++, s.units * UNIT, UNIT, FreeOrder.BySize, 0, blocks)
              const slot = fam.takeSlot()
              fam.setSlot(slot, pool)
              pool.slot = slot
              taken.set(pool, [])
              bounds.set(pool, -1)
              search.add(index, pool)
              break
            }
            case 'take': {
              const pool = pick(s.pick)
              if (pool === null) break
              const block = pool.tryAllocate(blocks, s.units * UNIT, 1)
              if (block === NONE) break
              taken.get(pool)!.push({ block, pending: false })
              took(pool, s.units * UNIT)
              search.touch(pool)
              break
            }
            case 'free': {
              const pool = pick(s.pick)
              const list = pool === null ? [] : taken.get(pool)!
              if (pool === null || list.length === 0) break
              const [b] = list.splice(s.pick % list.length, 1)
              if (b.pending) {
                pool.pending -= blocks.size[b.block]
                pool.pendingBlocks--
              }
              pool.deallocate(blocks, b.block)
              search.touch(pool)
              break
            }
            case 'pend': {
              const pool = pick(s.pick)
              const b = pool === null ? undefined : taken.get(pool)!.find((x) => !x.pending)
              if (pool === null || b === undefined) break
              b.pending = true
              pool.pending += blocks.size[b.block]
              pool.pendingBlocks++
              search.pending(pool)
              break
            }
            case 'move': {
              // Defrag reads a settled family: the move's block goes to any pool with room for it.
              search.settle(index, blocks)
              const pool = pick(s.pick)
              const b = pool === null ? undefined : taken.get(pool)!.find((x) => !x.pending)
              const target = pick(s.to)
              if (pool === null || b === undefined || target === null || target === pool) break
              const moved = target.tryAllocate(blocks, blocks.size[b.block], 1)
              if (moved === NONE) break
              taken.get(target)!.push({ block: moved, pending: false })
              took(target, blocks.size[moved])
              b.pending = true
              pool.pending += blocks.size[b.block]
              pool.pendingBlocks++
              search.moved(pool, target, blocks)
              checkAnswers(search, search.settle(index, blocks)!, blocks, fam, bounds)
              break
            }
            case 'destroy': {
              const pool = pick(s.pick)
              if (pool === null || pool.allocatedBlocks > 0) break
              search.remove(pool)
              fam.setSlot(pool.slot, null)
              pool.dispose(blocks)
              taken.delete(pool)
              break
            }
            case 'walk': {
              const pool = pick(s.pick)
              if (pool === null) break
              bounds.set(pool, smallestTaken(blocks, pool))
              search.walked(pool, smallestTaken(blocks, pool))
              break
            }
            case 'counts':
              checkCounts(search.counts(index)!, fam)
              break
            case 'settle':
              checkAnswers(search, search.settle(index, blocks)!, blocks, fam, bounds)
              break
            case 'copy':
              search = DefragSearch.rebuild(families, blocks)
              for (const pool of bounds.keys()) bounds.set(pool, -1)
              checkAnswers(search, search.settle(index, blocks)!, blocks, fam, bounds)
              break
          }
        }
        checkAnswers(search, search.settle(index, blocks)!, blocks, fam, bounds)
      }),
      { numRuns: runs(80) },
    )
  })
})
