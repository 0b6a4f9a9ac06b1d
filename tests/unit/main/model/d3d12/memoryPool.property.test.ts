import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BlockState, BlockTable, FreeOrder, MemoryPool, NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import { runs } from '../../../../properties'


/** The pool's free blocks found by a walk over all its blocks, sorted as its free list should be: the reference. */
function plainFreeList(pool: MemoryPool, blocks: BlockTable, order: number): number[] {
  const free: number[] = []
  for (let b = pool.head; b !== NONE; b = blocks.next[b]) {
    if (blocks.state[b] === BlockState.Free) free.push(b)
  }
  return free.sort((a, b) =>
    order === FreeOrder.BySize && blocks.size[a] !== blocks.size[b]
      ? blocks.size[a] - blocks.size[b]
      : blocks.offset[a] - blocks.offset[b],
  )
}

/** Checks the pool's free list, its sizes and offsets against plainFreeList; returns that list. */
function expectPlainFreeList(pool: MemoryPool, blocks: BlockTable, order: number): number[] {
  const free = plainFreeList(pool, blocks, order)
  expect(Array.from(pool.free.subarray(0, pool.freeCount))).toEqual(free)
  expect(Array.from(pool.freeSize.subarray(0, pool.freeCount))).toEqual(free.map((b) => blocks.size[b]))
  expect(Array.from(pool.freeOffset.subarray(0, pool.freeCount))).toEqual(free.map((b) => blocks.offset[b]))
  return free
}

/**
 * A pool of `size` bytes that took a block of 16 × each of `units`, then freed every other one: a free list as long
 * as half of them, apart. Returns the blocks still held.
 */
function gappedPool(order: number, size: number, units: number[]): { blocks: BlockTable; pool: MemoryPool; held: number[] } {
  const blocks = new BlockTable()
  const pool = new MemoryPool(0, size, 1, order, 0, blocks)
  const held: number[] = []
  const taken = units.map((u) => pool.tryAllocate(blocks, u * 16, 1))
  taken.forEach((b, i) => (i % 2 === 0 ? pool.deallocate(blocks, b) : held.push(b)))
  return { blocks, pool, held }
}

describe('memory pool block list', () => {
  it('keeps head and tail at the ends of the list through splits, merges and copies', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 64 }), fc.nat()), { maxLength: 80 }),
        (order, ops) => {
          const blocks = new BlockTable()
          const pool = new MemoryPool(0, 1024, 1, order, 0, blocks)
          const live: number[] = []
          const check = (table: BlockTable, p: MemoryPool) => {
            let last = NONE
            let bytes = 0
            for (let b = p.head; b !== NONE; b = table.next[b]) {
              expect(table.prev[b]).toBe(last)
              if (last !== NONE) expect(table.offset[b]).toBe(table.offset[last] + table.size[last])
              bytes += table.size[b]
              last = b
            }
            expect(p.tail).toBe(last)
            expect(bytes).toBe(1024)
          }
          for (const [take, units, pick] of ops) {
            if (take) {
              const b = pool.tryAllocate(blocks, units * 16, 1)
              if (b !== NONE) live.push(b)
            } else if (live.length > 0) {
              pool.deallocate(blocks, live.splice(pick % live.length, 1)[0])
            }
            check(blocks, pool)
          }
          // A checkpoint's packed copy and its clone keep the same list.
          const table = blocks.packedClone().clone()
          const copy = pool.clone()
          check(table, copy)
          for (let b = copy.head; b !== NONE; b = table.next[b]) {
            expect(table.state[b]).toBe(blocks.state[b])
            if (table.state[b] === BlockState.Allocated) expect(table.owner[b]).toBe(1)
          }
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('keeps its free list, sizes and offsets as a plain sort of the free blocks, and fits as a walk does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 24 }), fc.nat()), { maxLength: 120 }),
        (order, ops) => {
          const blocks = new BlockTable()
          const pool = new MemoryPool(0, 4096, 1, order, 0, blocks)
          const live: number[] = []
          const check = () => {
            const free = expectPlainFreeList(pool, blocks, order)
            expect(pool.largestFree()).toBe(Math.max(0, ...free.map((b) => blocks.size[b])))
            return free
          }
          for (const [take, units, pick] of ops) {
            const free = check()
            if (take) {
              const size = units * units * 8
              // Best fit: the smallest block that holds it, the lowest offset among equals; first fit: the lowest.
              const fits = free.filter((b) => blocks.size[b] >= size)
              const want = fits.length === 0 || pool.size - pool.used < size ? NONE : fits[0]
              const wantOffset = want === NONE ? -1 : blocks.offset[want]
              const b = pool.tryAllocate(blocks, size, 1)
              expect(b === NONE ? -1 : blocks.offset[b]).toBe(wantOffset)
              if (b !== NONE) live.push(b)
            } else if (live.length > 0) {
              pool.deallocate(blocks, live.splice(pick % live.length, 1)[0])
            }
          }
          check()
          const copy = pool.clone()
          const sizes = Array.from(pool.freeSize.subarray(0, pool.freeCount))
          expect(Array.from(copy.freeSize.subarray(0, copy.freeCount))).toEqual(sizes)
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('tells where the block it just took starts, as the block table has it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        // Few sizes in a small pool: blocks split, fill to the end, and a freed block is often taken again whole.
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 4 }), fc.nat()), { maxLength: 120 }),
        (order, ops) => {
          const blocks = new BlockTable()
          const pool = new MemoryPool(0, 1024, 1, order, 0, blocks)
          const live: number[] = []
          for (const [take, units, pick] of ops) {
            if (take) {
              const b = pool.tryAllocate(blocks, units * 64, 1)
              if (b === NONE) continue
              expect(pool.allocatedOffset).toBe(blocks.offset[b])
              live.push(b)
            } else if (live.length > 0) {
              pool.deallocate(blocks, live.splice(pick % live.length, 1)[0])
            }
          }
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('keeps a free list hundreds long as a plain sort through allocations and frees (shifts past a loop)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 600, maxLength: 600 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 12 }), fc.nat()), { minLength: 300, maxLength: 300 }),
        (order, units, ops) => {
          // Some 300 free blocks apart, so that a free or a take moves many entries.
          const { blocks, pool, held: live } = gappedPool(order, 65536, units)
          expect(pool.freeCount).toBeGreaterThan(200)
          for (const [take, unit, pick] of ops) {
            const free = expectPlainFreeList(pool, blocks, order)
            if (take) {
              const size = unit * 16
              const fits = free.filter((b) => blocks.size[b] >= size)
              const want = fits.length === 0 ? -1 : blocks.offset[fits[0]]
              const b = pool.tryAllocate(blocks, size, 1)
              expect(b === NONE ? -1 : blocks.offset[b]).toBe(want)
              if (b !== NONE) live.push(b)
            } else if (live.length > 0) {
              pool.deallocate(blocks, live.splice(pick % live.length, 1)[0])
            }
          }
        },
      ),
      { numRuns: runs(20) },
    )
  })

  it('frees blocks in any order from a free list too long to scan, as a plain sort of its free blocks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(FreeOrder.BySize, FreeOrder.ByOffset),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 160, maxLength: 160 }),
        fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
        (order, units, picks) => {
          // 80 free blocks apart, then the rest freed in the drawn order.
          const { blocks, pool, held: rest } = gappedPool(order, 16384, units)
          expect(pool.freeCount).toBeGreaterThan(64)
          for (const pick of picks) {
            if (rest.length === 0) break
            pool.deallocate(blocks, rest.splice(pick % rest.length, 1)[0])
            expectPlainFreeList(pool, blocks, order)
          }
          expect(pool.freeCount).toBe(1)
          expect(pool.largestFree()).toBe(16384)
        },
      ),
      { numRuns: runs(40) },
    )
  })
})
