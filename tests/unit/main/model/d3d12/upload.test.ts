import { describe, expect, it } from 'vitest'
import { KiB, MiB } from '../../../../../src/shared/units'
import { BuddyPool } from '../../../../../src/main/model/d3d12/buddy'
import { HEAP_INDEX, PLACEMENT_INDEX } from '../../../../../src/main/model/d3d12/ladder'
import { TOTAL_FIELD, ROW_FAST_CONSTANT_PAGE, ROW_FAST_PAGE } from '../../../../../src/main/model/d3d12/totals'
import { buffer, checkInvariants, newModel, pool, recordingSink } from './helpers'

describe('buddy pool (§5.2)', () => {
  it('splits the lowest free block and merges freed buddies', () => {
    const b = new BuddyPool(0, 512, 3, 0) // 512 B × 2^3 = 4 KiB
    expect(b.allocate(0)).toBe(0) // splits 4 KiB → 2 KiB → 1 KiB → 512: [0, 512)
    expect(b.allocate(1)).toBe(1024) // the free 1 KiB right half
    expect(b.allocate(0)).toBe(512) // the free 512 B right half
    expect(b.freeBlocks()).toEqual([[2048, 2048]])
    b.deallocate(0, 0)
    b.deallocate(512, 0) // merges with its buddy at 0 into a 1 KiB block; that block's buddy (1024) is used
    expect(b.freeBlocks()).toEqual([
      [0, 1024],
      [2048, 2048],
    ])
    expect(b.allocate(2)).toBe(2048)
    b.deallocate(1024, 1) // merges with [0, 1024) into [0, 2048); its buddy at 2048 is used
    expect(b.freeBlocks()).toEqual([[0, 2048]])
    expect(b.used).toBe(2048)
    expect(b.orderFor(513)).toBe(1)
    expect(b.orderFor(4097)).toBe(-1)
  })
})

describe('UploadHeapAllocator', () => {
  it('takes big blocks first-fit by offset, not best fit', () => {
    const m = newModel({}, { explicitGpuFences: true })
    buffer(m, 1, 200 * KiB, ['Dynamic']) // [0, 200 KiB)
    buffer(m, 2, 100 * KiB, ['Dynamic']) // [200, 300 KiB)
    buffer(m, 3, 100 * KiB, ['Dynamic']) // [300, 400 KiB)
    buffer(m, 4, 100 * KiB, ['Dynamic']) // [400, 500 KiB)
    m.release(1)
    m.release(3)
    m.gpuDone(0)
    // Free: 200 KiB at 0, 100 KiB at 300 KiB. Best fit would take 300 KiB; first fit takes 0.
    const p = buffer(m, 5, 100 * KiB, ['Dynamic'])
    expect(p.placement).toBe('UploadBigBlock')
    expect(p.offset).toBe(0)
    checkInvariants(m)
  })

  it('takes staging for a lock and frees it when the GPU finished the frame', () => {
    const m = newModel({}, { explicitGpuFences: true })
    buffer(m, 1, 4096)
    m.lock(1, 1000)
    // 1000 B in the buddy allocator: a 1 KiB block, released at once, pending until frame 0 is done.
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Pending)).toBe(1024)
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Occupied)).toBe(0)
    // Heap: one 4 MiB small-block pool in service and its spare.
    expect(m.totals.heap(HEAP_INDEX.UPLOAD, TOTAL_FIELD.Heap)).toBe(8 * MiB)
    m.gpuDone(0)
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Pending)).toBe(0)
    expect(pool(m, 'UPLOAD/SmallBlock/0').used).toBe(0)
  })

  it('takes staging for initial data and locks the block until the copy is done', () => {
    const m = newModel({}, { explicitGpuFences: true })
    buffer(m, 1, 100 * KiB, ['Static'], { init: true })
    expect(m.allocation(1)!.locked).toBe(true)
    expect(m.totals.get(PLACEMENT_INDEX.UploadBigBlock, TOTAL_FIELD.Pending)).toBe(100 * KiB) // above 64 KiB: the big-block allocator
    m.gpuDone(0)
    expect(m.allocation(1)!.locked).toBe(false)
    expect(m.totals.get(PLACEMENT_INDEX.UploadBigBlock, TOTAL_FIELD.Pending)).toBe(0)
  })

  it('renames a dynamic buffer on lock: a new location, the old one pending', () => {
    const rec = recordingSink()
    const m = newModel({}, { explicitGpuFences: true }, rec.sink)
    const first = buffer(m, 1, 1000, ['Dynamic'])
    expect([first.offset, first.size]).toEqual([0, 1024])
    m.lock(1, 1000)
    // The 1 KiB block at 1024 was left free by the first split.
    const move = { id: 1, fromPool: first.pool, fromOffset: 0, toPool: first.pool, toOffset: 1024, bytes: 1024, frame: 0 }
    expect(rec.moved).toEqual([move])
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Occupied)).toBe(1024)
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Pending)).toBe(1024)
    m.gpuDone(0)
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Pending)).toBe(0)
    expect(m.allocation(1)!.offset).toBe(1024)
    checkInvariants(m)
  })

  it("spreads an `upload` record's bytes over its count", () => {
    const m = newModel({}, { explicitGpuFences: true })
    m.upload('staging', 3001, 3) // 1001 + 1000 + 1000 B: three 1 KiB buddy blocks
    expect(m.totals.get(PLACEMENT_INDEX.UploadSmallBlock, TOTAL_FIELD.Pending)).toBe(3 * KiB)
    m.upload('fast', 5 * MiB, 1) // larger than a FastAllocator page: the big-block allocator
    expect(m.totals.get(PLACEMENT_INDEX.UploadBigBlock, TOTAL_FIELD.Pending)).toBe(5 * MiB)
  })
})

describe('FastAllocator (§5.3)', () => {
  it('bump-allocates 4 MiB pages and reuses a page once the GPU finished the frame it was returned in', () => {
    const m = newModel() // framesInFlight 2
    m.upload('fast', 4 * MiB, 4) // page 0 full
    m.beginFrame(1)
    m.upload('fast', 1 * MiB, 1) // page 0 returned (frame 1), not reusable: page 1
    expect(m.totals.get(ROW_FAST_PAGE, TOTAL_FIELD.Heap)).toBe(8 * MiB)
    m.beginFrame(2) // completes frame 0
    m.upload('fast', 4 * MiB, 4) // 3 fit in page 1; page 1 returned (frame 2); page 0 (frame 1) not done: page 2
    expect(m.totals.get(ROW_FAST_PAGE, TOTAL_FIELD.Heap)).toBe(12 * MiB)
    m.beginFrame(3) // completes frame 1: page 0 is idle again
    expect(m.totals.get(ROW_FAST_PAGE, TOTAL_FIELD.Occupied)).toBe(8 * MiB) // page 1 in flight, page 2 current
    m.upload('fast', 4 * MiB, 4) // 3 fit in page 2; page 2 returned; page 0 reused, no new page
    expect(m.totals.get(ROW_FAST_PAGE, TOTAL_FIELD.Heap)).toBe(12 * MiB)
    expect(m.pools().filter((p) => p.name.startsWith('UPLOAD/FastAllocator/')).map((p) => p.name)).toEqual([
      'UPLOAD/FastAllocator/0',
      'UPLOAD/FastAllocator/1',
      'UPLOAD/FastAllocator/2',
    ])
    checkInvariants(m)
  })
})

describe('FastConstantAllocator (§5.4)', () => {
  it('bumps 256-aligned constants through 64 KiB pages and releases full pages', () => {
    const m = newModel({}, { explicitGpuFences: true })
    m.upload('fastConstant', 100000, 1000) // 1000 constants of 100 B, each 256 B: 256 per page
    // 1000 = 3 × 256 + 232: three full pages released, the fourth current.
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Occupied)).toBe(64 * KiB)
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Pending)).toBe(3 * 64 * KiB)
    // The pages come from a 4 MiB pool of the UploadHeapAllocator (plus its spare).
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Heap)).toBe(8 * MiB)
    m.gpuDone(0)
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Pending)).toBe(0)
    m.upload('fastConstant', 256 * 24, 24) // 232 + 24 = 256: the current page is full but not yet released
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Occupied)).toBe(64 * KiB)
    m.upload('fastConstant', 256, 1) // now it is, and a new page begins
    expect(m.totals.get(ROW_FAST_CONSTANT_PAGE, TOTAL_FIELD.Pending)).toBe(64 * KiB)
    checkInvariants(m)
  })
})
