/**
 * A pool's copies share its free list until one of them changes it (MemoryPool.clone). However the copies (and
 * copies of copies) and the original then take and free blocks, in any interleaving, each one keeps exactly the
 * free list, blocks and counts of a deep copy made at the same moment and given the same requests: the plain
 * reference, which shares nothing. A checkpoint's packed copy (its own arrays, cut to the entries in use) keeps
 * what it held while the others change, and a copy of it goes on as the others do.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockState, BlockTable, FreeOrder, MemoryPool, NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import { runs } from '../../../../properties'

/** A copy of a pool sharing nothing with it: every typed array copied, as a pool was copied before it shared. */
function deepCopy(pool: MemoryPool): MemoryPool {
  const c = new MemoryPool(pool.id, pool.size, pool.alignment, pool.order, pool.createdFrame, null)
  const from = pool as unknown as Record<string, unknown>
  const to = c as unknown as Record<string, unknown>
  for (const key of Object.keys(from)) {
    if (key === 'shared') continue
    const v = from[key]
    to[key] = ArrayBuffer.isView(v) ? (v as Int32Array | Float64Array).slice() : v
  }
  return c
}

/** What a pool holds, as plain values: its free list and counts, and its blocks in offset order. */
function state(pool: MemoryPool, blocks: BlockTable) {
  const list: number[][] = []
  for (let b = pool.head; b !== NONE; b = blocks.next[b]) list.push([b, blocks.offset[b], blocks.size[b], blocks.state[b], blocks.owner[b]])
  return {
    free: Array.from(pool.free.subarray(0, pool.freeCount)),
    freeSize: Array.from(pool.freeSize.subarray(0, pool.freeCount)),
    freeOffset: Array.from(pool.freeOffset.subarray(0, pool.freeCount)),
    used: pool.used,
    allocatedBlocks: pool.allocatedBlocks,
    largest: pool.largestFree(),
    head: pool.head,
    tail: pool.tail,
    list,
  }
}

/** One pool (a copy or the original) beside its deep-copied twin, each with its own block table. */
interface Pair {
  pool: MemoryPool
  blocks: BlockTable
  live: number[]
  plain: MemoryPool
  plainBlocks: BlockTable
  plainLive: number[]
}

const step = fc.oneof(
  // Take `units` * 16 bytes, free the `pick`-th live block, or copy the pool: of copy `who` (modulo the copies).
  fc.record({ op: fc.constant('take' as const), who: fc.nat(), units: fc.integer({ min: 1, max: 24 }) }),
  fc.record({ op: fc.constant('free' as const), who: fc.nat(), pick: fc.nat() }),
  fc.record({ op: fc.constant('copy' as const), who: fc.nat() }),
  // A checkpoint's copy (packed, MemoryPool.clone(true)), kept and never changed; a copy of it goes on.
  fc.record({ op: fc.constant('pack' as const), who: fc.nat() }),
)

/** A checkpoint's packed copy and what it held when made. */
interface Kept {
  pool: MemoryPool
  blocks: BlockTable
  held: ReturnType<typeof state>
}

describe('pool copies sharing a free list', () => {
  it('each continue as a deep copy does, whichever of them changes first', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        fc.array(fc.integer({ min: 1, max: 24 }), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.array(step, { minLength: 1, maxLength: 120 }),
        (order, setup, frees, steps) => {
          // A pool with a history: some blocks taken, some freed (a free list of several entries, grown past 8).
          const blocks = new BlockTable()
          const pool = new MemoryPool(0, 4096, 1, order, 0, blocks)
          const live: number[] = []
          for (const units of setup) {
            const b = pool.tryAllocate(blocks, units * 16, 1)
            if (b !== NONE) live.push(b)
          }
          for (const pick of frees) if (live.length > 0) pool.deallocate(blocks, live.splice(pick % live.length, 1)[0])
          const pairs: Pair[] = [
            { pool, blocks, live, plain: deepCopy(pool), plainBlocks: blocks.clone(), plainLive: live.slice() },
          ]
          const kept: Kept[] = []
          for (const s of steps) {
            const p = pairs[s.who % pairs.length]
            if (s.op === 'pack') {
              const packed = p.pool.clone(true)
              // Its own arrays, cut to the entries in use.
              expect(packed.free.length).toBe(packed.freeCount)
              expect(packed.free).not.toBe(p.pool.free)
              const copyBlocks = p.blocks.clone()
              kept.push({ pool: packed, blocks: copyBlocks, held: state(packed, copyBlocks) })
              pairs.push({
                pool: packed.clone(),
                blocks: p.blocks.clone(),
                live: p.live.slice(),
                plain: deepCopy(p.plain),
                plainBlocks: p.plainBlocks.clone(),
                plainLive: p.plainLive.slice(),
              })
            } else if (s.op === 'copy') {
              // The copy takes the block table as the model's clone does: a deep copy of its own.
              pairs.push({
                pool: p.pool.clone(),
                blocks: p.blocks.clone(),
                live: p.live.slice(),
                plain: deepCopy(p.plain),
                plainBlocks: p.plainBlocks.clone(),
                plainLive: p.plainLive.slice(),
              })
            } else if (s.op === 'take') {
              const b = p.pool.tryAllocate(p.blocks, s.units * 16, pairs.indexOf(p))
              const c = p.plain.tryAllocate(p.plainBlocks, s.units * 16, pairs.indexOf(p))
              expect(b).toBe(c)
              if (b !== NONE) {
                p.live.push(b)
                p.plainLive.push(c)
              }
            } else if (p.live.length > 0) {
              const k = s.pick % p.live.length
              p.pool.deallocate(p.blocks, p.live.splice(k, 1)[0])
              p.plain.deallocate(p.plainBlocks, p.plainLive.splice(k, 1)[0])
            }
            // Every copy, not only the one changed: a write through a shared array would show in another.
            for (const q of pairs) expect(state(q.pool, q.blocks)).toEqual(state(q.plain, q.plainBlocks))
            for (const k of kept) expect(state(k.pool, k.blocks)).toEqual(k.held)
          }
          // The blocks a copy holds are the ones it was given.
          for (const q of pairs) for (const b of q.live) expect(q.blocks.state[b]).toBe(BlockState.Allocated)
        },
      ),
      { numRuns: runs(300) },
    )
  })
})
