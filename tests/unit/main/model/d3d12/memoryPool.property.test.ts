import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BlockState, BlockTable, FreeOrder, MemoryPool, NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import { runs } from '../../../../properties'

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
})
