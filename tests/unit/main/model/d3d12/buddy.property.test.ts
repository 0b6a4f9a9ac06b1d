import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BuddyPool } from '../../../../../src/main/model/d3d12/buddy'
import { BlockCode } from '../../../../../src/main/model/d3d12/model'
import { BLOCK_STATE } from '../../../../../src/shared/ipc'
import { runs } from '../../../../properties'

describe('buddy pool free blocks, read words at a time', () => {
  it('lists the free blocks in offset order: disjoint, aligned to their size, never two free buddies, free + used = size', () => {
    fc.assert(
      fc.property(
        // Up to 2^7 = 128 blocks of the smallest order: four bitset words, so the scan crosses word boundaries.
        fc.integer({ min: 0, max: 7 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 7 }), fc.nat()), { maxLength: 60 }),
        (maxOrder, ops) => {
          const minBlock = 256
          const pool = new BuddyPool(0, minBlock, maxOrder, 0)
          const live: [number, number][] = []
          for (const [take, order, pick] of ops) {
            if (take && order <= maxOrder && pool.canAllocate(order)) live.push([pool.allocate(order), order])
            else if (!take && live.length > 0) {
              const [offset, o] = live.splice(pick % live.length, 1)[0]
              pool.deallocate(offset, o)
            }
          }
          const { offset, size } = pool.freeBlockColumns()
          let free = 0
          for (let i = 0; i < offset.length; i++) {
            free += size[i]
            expect(offset[i] % size[i]).toBe(0)
            if (i > 0) expect(offset[i]).toBeGreaterThanOrEqual(offset[i - 1] + size[i - 1])
            // A free block's buddy is never free too: they would have merged.
            const buddy = offset[i] ^ size[i]
            if (size[i] < pool.size) expect(offset.some((o, j) => o === buddy && size[j] === size[i])).toBe(false)
            for (const [o, order] of live) {
              const bytes = minBlock * 2 ** order
              expect(o + bytes <= offset[i] || offset[i] + size[i] <= o).toBe(true)
            }
          }
          expect(free + pool.used).toBe(pool.size)
          expect(pool.freeBlocks()).toEqual(Array.from(offset, (o, i) => [o, size[i]]))
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('codes block states as the snapshot contract does', () => {
    expect({ free: BlockCode.Free, used: BlockCode.Used, pending: BlockCode.Pending }).toEqual(BLOCK_STATE)
  })
})
