import { describe, expect, it } from 'vitest'
import type { TransientRecord } from '../../../../../src/shared/capture'
import { KiB, MiB } from '../../../../../src/shared/units'
import { PLACEMENT_INDEX } from '../../../../../src/main/model/d3d12/ladder'
import { TOTAL_FIELD } from '../../../../../src/main/model/d3d12/totals'
import { buffer, checkInvariants, newModel, pool, recordingSink } from './helpers'

describe('deferred release (§8.1)', () => {
  it('keeps a released block pending until framesInFlight frames later when there are no gpu records', () => {
    const m = newModel() // framesInFlight 2: frame n completes when frame n + 2 begins
    expect(buffer(m, 1, 1024).offset).toBe(0)
    m.beginFrame(1)
    m.release(1)
    expect(pool(m, 'DEFAULT/SingleState/0').blocks[0]).toEqual({ offset: 0, size: 1024, state: 'pending', id: 1 })
    expect(m.totals.get(PLACEMENT_INDEX.SharedBufferPool, TOTAL_FIELD.Pending)).toBe(1024)
    expect(buffer(m, 2, 1024).offset).toBe(1024) // the pending block is not reused
    m.beginFrame(2) // completes frame 0 only
    expect(buffer(m, 3, 1024).offset).toBe(2048)
    m.beginFrame(3) // completes frame 1, the release's frame
    expect(m.totals.get(PLACEMENT_INDEX.SharedBufferPool, TOTAL_FIELD.Pending)).toBe(0)
    expect(buffer(m, 4, 1024).offset).toBe(0) // best fit: the freed 1 KiB block
    checkInvariants(m)
  })

  it('waits for the gpu record of the release frame when the capture has them', () => {
    const rec = recordingSink()
    const m = newModel({}, { explicitGpuFences: true }, rec.sink)
    buffer(m, 1, 1024)
    m.beginFrame(1)
    m.release(1)
    for (let n = 2; n <= 6; n++) m.beginFrame(n) // frames alone complete nothing
    expect(buffer(m, 2, 1024).offset).toBe(1024)
    m.gpuDone(0)
    expect(buffer(m, 3, 1024).offset).toBe(2048)
    m.gpuDone(1)
    expect(rec.freed).toEqual([{ id: 1, frame: 6 }])
    expect(buffer(m, 4, 1024).offset).toBe(0)
  })

  it("switches from frame counting to gpu records at the first one in 'auto' mode", () => {
    const m = newModel({}, { explicitGpuFences: 'auto' })
    buffer(m, 1, 1024)
    m.release(1)
    m.beginFrame(2) // completes frame 0 by counting
    expect(buffer(m, 2, 1024).offset).toBe(0)
    m.release(2)
    m.gpuDone(1) // from now on only gpu records complete frames
    m.beginFrame(9)
    expect(buffer(m, 3, 1024).offset).toBe(1024)
    m.gpuDone(2)
    expect(buffer(m, 4, 1024).offset).toBe(0)
  })
})

describe('pool life (§8.2)', () => {
  it('destroys a pool once the GPU finished 20 frames after its last release', () => {
    const rec = recordingSink()
    const m = newModel({}, { explicitGpuFences: true }, rec.sink)
    const first = buffer(m, 1, 1024)
    m.beginFrame(1)
    m.release(1)
    m.gpuDone(1) // the pool is empty; its last release was in frame 1
    for (let n = 2; n <= 21; n++) {
      m.beginFrame(n) // clean-up at the end of frame n − 1 sees frames up to n − 1 completed
      m.gpuDone(n)
    }
    // End of frame 20 saw frame 20 completed: 1 + 20 > 20, the pool stays.
    expect(rec.poolsDestroyed).toEqual([])
    m.beginFrame(22) // end of frame 21 sees frame 21 completed: 1 + 20 ≤ 21
    expect(rec.poolsDestroyed).toEqual([{ pool: first.pool, frame: 21 }])
    expect(m.pools().map((p) => p.name)).toEqual(['DEFAULT/SingleState/spare'])
    // The next buffer takes the spare into the freed slot 0, and a new spare is made.
    const next = buffer(m, 2, 1024)
    expect(next.poolName).toBe('DEFAULT/SingleState/0')
    expect(next.pool).not.toBe(first.pool)
    checkInvariants(m)
  })

  it('honours pool.emptyFramesBeforeRelease', () => {
    const rec = recordingSink()
    const m = newModel({ 'pool.emptyFramesBeforeRelease': 0 }, { explicitGpuFences: true }, rec.sink)
    const p = buffer(m, 1, 1024)
    m.release(1)
    m.gpuDone(0)
    m.beginFrame(1) // 0 + 0 ≤ 0
    expect(rec.poolsDestroyed).toEqual([{ pool: p.pool, frame: 0 }])
  })
})

// Small pools make the scenarios short: 1 MiB pools taking up to 512 KiB.
const SMALL = { 'bufferPool.size': 1 * MiB, 'bufferPool.maxAllocation': 512 * KiB }

describe('allocation order (§8.2)', () => {
  function twoPools(over: Record<string, number>) {
    const m = newModel({ ...SMALL, ...over }, { explicitGpuFences: true })
    buffer(m, 1, 512 * KiB) // pool 0 [0, 512 KiB)
    buffer(m, 2, 512 * KiB) // pool 0 [512 KiB, 1 MiB): full
    buffer(m, 3, 512 * KiB) // pool 1 [0, 512 KiB)
    buffer(m, 4, 256 * KiB) // pool 1 [512 KiB, 768 KiB)
    m.release(1)
    m.gpuDone(0) // pool 0 uses 512 KiB, pool 1 768 KiB
    m.beginFrame(1) // clean-up sorts the allocation order
    return m
  }

  it('puts new allocations in the fullest pool first where defrag is on', () => {
    const m = twoPools({ 'defrag.maxPoolsPerFrame': 0 }) // defrag on, but no moves
    const p = buffer(m, 5, 128 * KiB)
    expect(p.poolName).toBe('DEFAULT/SingleState/1')
    expect(p.offset).toBe(768 * KiB)
  })

  it('keeps the smallest, oldest pool first where defrag is off', () => {
    const m = twoPools({ 'defrag.enabled': 0 })
    const p = buffer(m, 5, 128 * KiB)
    expect(p.poolName).toBe('DEFAULT/SingleState/0')
    expect(p.offset).toBe(0)
  })
})

describe('defrag (§8.2)', () => {
  it('moves blocks from the end of the emptiest pool into the fullest until the copy budget is used', () => {
    const rec = recordingSink()
    const m = newModel({ ...SMALL, 'defrag.maxCopyPerFrame': 64 * KiB }, { explicitGpuFences: true }, rec.sink)
    const a = buffer(m, 1, 512 * KiB) // pool 0 [0, 512 KiB)
    buffer(m, 2, 512 * KiB) // pool 0 [512 KiB, 1 MiB)
    m.release(2) // pending: pool 0 stays full for now
    const c = buffer(m, 3, 128 * KiB) // pool 1 [0, 128 KiB)
    buffer(m, 5, 64 * KiB) // pool 1 [128 KiB, 192 KiB)
    expect([a.poolName, c.poolName]).toEqual(['DEFAULT/SingleState/0', 'DEFAULT/SingleState/1'])
    m.beginFrame(1)
    m.gpuDone(0) // B is free: pool 0 uses 512 KiB, pool 1 192 KiB
    m.beginFrame(2) // end of frame 1: defrag
    // E, the last block of the emptiest pool, moves to pool 0's best-fitting free block at 512 KiB. 64 KiB copied
    // reaches the budget: C waits for the next frame.
    expect(rec.moved).toEqual([
      { id: 5, fromPool: c.pool, fromOffset: 128 * KiB, toPool: a.pool, toOffset: 512 * KiB, bytes: 64 * KiB, frame: 1 },
    ])
    expect(m.allocation(3)!.pool).toBe(c.pool)
    // E's old block is pending until the GPU finished frame 1, where the copy runs; the new one is locked until then.
    expect(pool(m, 'DEFAULT/SingleState/1').pending).toBe(64 * KiB)
    expect(m.allocation(5)!.locked).toBe(true)
    checkInvariants(m)
    m.beginFrame(3) // end of frame 2: the rotation resumes at pool 1, C moves next, behind E
    expect(rec.moved[1]).toEqual({
      id: 3,
      fromPool: c.pool,
      fromOffset: 0,
      toPool: a.pool,
      toOffset: 576 * KiB,
      bytes: 128 * KiB,
      frame: 2,
    })
    m.gpuDone(2)
    expect(pool(m, 'DEFAULT/SingleState/1').used).toBe(0)
    checkInvariants(m)
  })

  it('never moves a block locked by its initial data until the GPU finished its creation frame', () => {
    const rec = recordingSink()
    const m = newModel(SMALL, { explicitGpuFences: true }, rec.sink)
    buffer(m, 1, 512 * KiB)
    buffer(m, 2, 256 * KiB)
    buffer(m, 4, 256 * KiB) // pool 0 full
    m.release(4) // frame 0
    m.beginFrame(1)
    const c = buffer(m, 3, 128 * KiB, ['Static'], { init: true }) // pool 1, locked until frame 1 is done
    buffer(m, 5, 64 * KiB) // pool 1 behind C
    m.gpuDone(0) // D's block is free in pool 0; C is still locked
    expect(m.allocation(3)!.locked).toBe(true)
    m.beginFrame(2) // end of frame 1: E moves, C may not
    expect(rec.moved.map((x) => x.id)).toEqual([5])
    expect(m.allocation(3)!.pool).toBe(c.pool)
    m.gpuDone(1)
    expect(m.allocation(3)!.locked).toBe(false)
    m.beginFrame(3)
    expect(rec.moved.map((x) => x.id)).toEqual([5, 3])
    checkInvariants(m)
  })

  it('rotates between pools: the pool cleared in one frame is not the one cleared in the next (「在池之间轮转」)', () => {
    // §8.2: 「每次最多处理 1 个池（RHIPoolAllocator.DefragMaxPoolsToClear），在池之间轮转」.
    const rec = recordingSink()
    const m = newModel(SMALL, { explicitGpuFences: true }, rec.sink)
    const p0 = buffer(m, 1, 512 * KiB) // pool 0 [0, 512 KiB)
    buffer(m, 2, 256 * KiB) // pool 0 [512 KiB, 768 KiB)
    buffer(m, 3, 256 * KiB) // pool 0 [768 KiB, 1 MiB): full
    const p1 = buffer(m, 4, 512 * KiB) // pool 1 [0, 512 KiB)
    buffer(m, 5, 64 * KiB) // pool 1 [512 KiB, 576 KiB)
    buffer(m, 6, 448 * KiB) // pool 1 [576 KiB, 1 MiB): full
    const p2 = buffer(m, 7, 512 * KiB) // pool 2 [0, 512 KiB)
    buffer(m, 8, 64 * KiB) // pool 2 [512 KiB, 576 KiB)
    expect([p0.poolName, p1.poolName, p2.poolName]).toEqual([
      'DEFAULT/SingleState/0',
      'DEFAULT/SingleState/1',
      'DEFAULT/SingleState/2',
    ])
    for (const id of [3, 4, 6, 7]) m.release(id)
    m.gpuDone(0) // pool 0 uses 768 KiB (75 %), pools 1 and 2 64 KiB each: all three under 90 %
    m.beginFrame(1) // end of frame 0: pool 0 is the fullest (no fuller target); pool 1 is cleared into it
    expect(rec.moved).toEqual([
      { id: 5, fromPool: p1.pool, fromOffset: 512 * KiB, toPool: p0.pool, toOffset: 768 * KiB, bytes: 64 * KiB, frame: 0 },
    ])
    // End of frame 1: pool 1 holds only 5's old block, pending until the GPU finishes frame 0's copy. The rotation
    // goes on to pool 2, whose 64 KiB block moves behind 5 in pool 0.
    m.beginFrame(2)
    expect(rec.moved[1]).toEqual({
      id: 8,
      fromPool: p2.pool,
      fromOffset: 512 * KiB,
      toPool: p0.pool,
      toOffset: 832 * KiB,
      bytes: 64 * KiB,
      frame: 1,
    })
    checkInvariants(m)
  })

  it('does not spend a frame on a pool whose blocks all moved, while they wait for their fence', () => {
    // §8.2 again: one pool per frame, rotating. A pool holding only pending blocks has nothing left to clear.
    const rec = recordingSink()
    const m = newModel({ ...SMALL, 'defrag.maxCopyPerFrame': 64 * KiB }, { explicitGpuFences: true }, rec.sink)
    const p0 = buffer(m, 1, 512 * KiB) // pool 0 [0, 512 KiB)
    buffer(m, 2, 256 * KiB) // pool 0 [512 KiB, 768 KiB)
    buffer(m, 3, 256 * KiB) // pool 0 full
    const p1 = buffer(m, 4, 512 * KiB) // pool 1 [0, 512 KiB)
    buffer(m, 5, 64 * KiB) // pool 1 [512 KiB, 576 KiB)
    buffer(m, 6, 448 * KiB) // pool 1 full
    const p2 = buffer(m, 7, 512 * KiB) // pool 2 [0, 512 KiB)
    buffer(m, 8, 64 * KiB) // pool 2 [512 KiB, 576 KiB)
    buffer(m, 9, 64 * KiB) // pool 2 [576 KiB, 640 KiB)
    buffer(m, 10, 384 * KiB) // pool 2 full
    for (const id of [3, 4, 6, 7, 10]) m.release(id)
    m.gpuDone(0) // pool 0 768 KiB, pool 1 64 KiB (5), pool 2 128 KiB (8, 9)
    const move = (id: number, from: number, fromOffset: number, to: number, toOffset: number, frame: number) => ({
      id,
      fromPool: from,
      fromOffset,
      toPool: to,
      toOffset,
      bytes: 64 * KiB,
      frame,
    })
    m.beginFrame(1) // frame 0: pool 1's 5 fills the 64 KiB copy budget
    m.beginFrame(2) // frame 1: pool 2, from its end: 9
    m.beginFrame(3) // frame 2: pool 0 is the fullest, pool 1 holds only 5's old block (pending): pool 2 again, 8
    expect(rec.moved).toEqual([
      move(5, p1.pool, 512 * KiB, p0.pool, 768 * KiB, 0),
      move(9, p2.pool, 576 * KiB, p0.pool, 832 * KiB, 1),
      move(8, p2.pool, 512 * KiB, p0.pool, 896 * KiB, 2),
    ])
    checkInvariants(m)
  })

  it('leaves the acceleration-structure pool alone', () => {
    const rec = recordingSink()
    const small = { 'asPool.size': 1 * MiB, 'asPool.maxAllocation': 512 * KiB }
    const m = newModel(small, { explicitGpuFences: true }, rec.sink)
    buffer(m, 1, 512 * KiB, ['AccelerationStructure'])
    buffer(m, 2, 512 * KiB, ['AccelerationStructure'])
    buffer(m, 3, 64 * KiB, ['AccelerationStructure']) // a second pool
    m.release(1)
    m.beginFrame(1)
    m.gpuDone(0)
    m.beginFrame(2)
    expect(rec.moved).toEqual([])
  })
})

describe('reserved resources (§7)', () => {
  it('commits whole 64 KiB tiles and never beyond the creation size', () => {
    const rec = recordingSink()
    const m = newModel({}, { explicitGpuFences: true }, rec.sink)
    buffer(m, 1, 100000, ['ReservedResource']) // virtual: 128 KiB
    m.commit(1, 70000)
    const object = rec.objects.find((o) => o.label === 'Reserved #1')!
    expect(m.allocation(1)!.committed).toBe(128 * KiB) // 70000 → 2 tiles
    m.commit(1, 1)
    expect(m.allocation(1)!.committed).toBe(64 * KiB)
    expect(m.totals.get(PLACEMENT_INDEX.Reserved, TOTAL_FIELD.Heap)).toBe(64 * KiB)
    expect(m.totals.get(PLACEMENT_INDEX.Reserved, TOTAL_FIELD.Waste)).toBe(64 * KiB - 1)
    expect(m.residencyManager().objectInfo(object.object)!.bytes).toBe(64 * KiB)
    m.commit(1, 200000)
    expect(rec.warnings).toEqual(['reservedGrow'])
    expect(m.allocation(1)!.committed).toBe(128 * KiB)
    m.commit(99, 4096)
    expect(rec.warnings).toEqual(['reservedGrow', 'commitNotReserved'])
    m.release(1)
    expect(m.totals.get(PLACEMENT_INDEX.Reserved, TOTAL_FIELD.Pending)).toBe(128 * KiB)
    m.gpuDone(0)
    expect(m.totals.get(PLACEMENT_INDEX.Reserved, TOTAL_FIELD.Heap)).toBe(0)
    expect(m.residencyManager().has(object.object)).toBe(false)
  })
})

describe('reserved resources without a commit', () => {
  it('registers no residency object for a reserved resource with nothing committed (§7.1)', () => {
    // §7.1: 「资源对象本身不注册驻留，驻留跟踪落在每个 Backing Heap 上」; nothing committed, no backing heap.
    const rec = recordingSink()
    const resident: [number, number][] = []
    const m = newModel({}, {}, { ...rec.sink, madeResident: (o, b) => resident.push([o, b]) })
    buffer(m, 1, 100000, ['ReservedResource'])
    m.beginFrame(1) // end of frame 0: no use records, the live reserved resource is in use, but holds no tile
    expect(rec.objects).toEqual([])
    expect(m.residencyManager().objects()).toEqual([])
    expect(m.residencyManager().counters()).toMatchObject({ makeResident: 0, madeResidentBytes: 0 })
    // 70000 B commit two 64 KiB tiles: a backing of 128 KiB, made resident at the end of frame 1.
    m.commit(1, 70000)
    m.beginFrame(2)
    expect(rec.objects.map((o) => [o.label, o.bytes])).toEqual([['Reserved #1', 128 * KiB]])
    expect(resident).toEqual([[rec.objects[0].object, 128 * KiB]])
    // Decommitted to nothing: the backing heaps are gone, and so is the residency object.
    m.commit(1, 0)
    expect(m.residencyManager().objects()).toEqual([])
    m.release(1)
    m.beginFrame(5)
    expect(rec.warnings).toEqual([])
  })
})

describe('residency objects', () => {
  it('registers pools and committed DEFAULT resources, not UPLOAD or READBACK memory', () => {
    const rec = recordingSink()
    const m = newModel({}, {}, rec.sink)
    buffer(m, 1, 1024)
    buffer(m, 2, 32 * MiB, ['Static'], { name: 'Big' })
    buffer(m, 3, 1024, ['Dynamic'])
    buffer(m, 4, 1 * MiB, ['Static'], { heap: 'readback' })
    expect(rec.objects.map((o) => [o.label, o.bytes, o.priority])).toEqual([
      ['DEFAULT/SingleState/0', 32 * MiB, 'normal'],
      ['Committed Big', 32 * MiB, 'normal'],
    ])
  })

  it('makes used objects resident and evicts the least recently used over the budget', () => {
    const evicted: number[] = []
    const resident: number[] = []
    const m = newModel(
      {},
      { budget: 30 * MiB, hasUseRecords: true },
      { evicted: (o) => evicted.push(o), madeResident: (o) => resident.push(o) },
    )
    buffer(m, 1, 20 * MiB, ['Static', 'Shared']) // committed: residency object 0
    buffer(m, 2, 20 * MiB, ['Static', 'Shared']) // object 1
    m.use([1])
    m.beginFrame(1)
    expect(resident).toEqual([0])
    m.use([2])
    m.beginFrame(2) // 40 MiB resident > 30 MiB: object 0 was not used in frame 1
    expect(resident).toEqual([0, 1])
    expect(evicted).toEqual([0])
  })

  it('counts every object holding a live resource as used when the capture has no use records', () => {
    const resident: number[] = []
    const m = newModel({}, {}, { madeResident: (o) => resident.push(o) })
    buffer(m, 1, 1024)
    buffer(m, 2, 20 * MiB, ['Static', 'Shared'])
    m.beginFrame(1)
    expect(resident.sort()).toEqual([0, 1])
  })

  it('without use records, evicts a released committed resource waiting for its fence (§9: 「驱逐其他对象」)', () => {
    // §9: 「超出预算时，按最近最少使用的顺序驱逐其他对象」: only objects holding a live resource are in use.
    const log: string[] = []
    const m = newModel(
      {},
      { budget: 30 * MiB },
      {
        madeResident: (o, b, f) => log.push(`+${o}:${b / MiB}@${f}`),
        evicted: (o, b, f) => log.push(`-${o}:${b / MiB}@${f}`),
        overBudget: (f) => log.push(`over@${f}`),
      },
    )
    buffer(m, 1, 20 * MiB, ['Static', 'Shared']) // committed: object 0
    m.beginFrame(1) // end of frame 0: 20 MiB resident
    m.release(1) // pending until frame 1 completes (frame 3 begins): holds no live resource
    buffer(m, 2, 20 * MiB, ['Static', 'Shared']) // object 1
    m.beginFrame(2) // end of frame 1: 1 made resident, 40 > 30 MiB; 0 is not in use and goes → 20 MiB
    expect(log).toEqual(['+0:20@0', '+1:20@1', '-0:20@1'])
    expect(m.residencyManager().residentBytes()).toBe(20 * MiB)
    expect(m.residencyManager().counters().overBudgetFrames).toBe(0)
  })

  it('without use records, evicts an empty pool kept for the clean-up delay', () => {
    const log: string[] = []
    const m = newModel(
      {},
      { budget: 40 * MiB },
      {
        madeResident: (o, b, f) => log.push(`+${o}:${b / MiB}@${f}`),
        evicted: (o, b, f) => log.push(`-${o}:${b / MiB}@${f}`),
        overBudget: (f) => log.push(`over@${f}`),
      },
    )
    buffer(m, 1, 1024) // DEFAULT/SingleState/0: object 0 of 32 MiB
    m.beginFrame(1)
    m.release(1) // the pool now holds only a pending block; it stays 20 frames once empty
    buffer(m, 2, 20 * MiB, ['Static', 'Shared']) // object 1
    m.beginFrame(2) // 32 + 20 = 52 > 40 MiB: the pool is not in use → evicted, 20 MiB left
    expect(log).toEqual(['+0:32@0', '+1:20@1', '-0:32@1'])
    expect(m.pools().map((p) => p.name)).toContain('DEFAULT/SingleState/0')
  })
})

describe('render-graph transients', () => {
  it('places transients at endGraph with their request sizes and counts the heaps in the Transient row', () => {
    const m = newModel()
    m.beginGraph('Scene')
    const format = 'R16G16B16A16_FLOAT'
    m.transient({ e: 'transient', id: 100, kind: 'texture', format, width: 1920, height: 1080, first: 0, last: 3 })
    m.transient({ e: 'transient', id: 101, kind: 'buffer', size: 100000, first: 4, last: 5 })
    const placed = m.endGraph(6)
    expect(placed.map((p) => [p.id, p.placement, p.alignment, p.size])).toEqual([
      // 64 bpp in 64 KiB tiles of 128×64: 15 × 17 = 255 tiles = 16320 KiB
      [100, 'Transient', 64 * KiB, 16320 * KiB],
      // 100000 B rounded up to 64 KiB
      [101, 'Transient', 64 * KiB, 128 * KiB],
    ])
    expect(placed[0].route).toEqual([
      'transient? yes → Transient',
      'texture: alignment max(64 KiB, 64 KiB) = 64 KiB, size 16320 KiB (estimated)',
    ])
    expect(placed[1].poolName).toMatch(/^DEFAULT\/TransientHeap\/\d+$/)
    expect(m.totals.get(PLACEMENT_INDEX.Transient, TOTAL_FIELD.Heap)).toBe(128 * MiB) // one heap of transient.minimumHeapSize
    expect(m.liveAllocations()).toEqual([])
  })

  it('places a transient given by the form number of an equal desc exactly as by its desc', () => {
    const format = 'BC7_UNORM'
    const records = (frame: number): TransientRecord[] => [
      { e: 'transient', id: 10 * frame + 1, kind: 'texture', format, width: 512, height: 512, mips: 10, first: 0, last: 1 },
      { e: 'transient', id: 10 * frame + 2, kind: 'buffer', size: 3000, usage: ['UnorderedAccess'], first: 1, last: 2 },
      { e: 'transient', id: 10 * frame + 3, kind: 'texture', format, width: 512, height: 512, mips: 10, first: 2, last: 2 },
      // an invalid size warns every time: it has no form to repeat
      { e: 'transient', id: 10 * frame + 4, kind: 'buffer', size: -1, first: 2, last: 2 },
    ]
    const a = recordingSink()
    const b = recordingSink()
    const byDesc = newModel({}, {}, a.sink)
    const byForm = newModel({}, {}, b.sink)
    const forms: number[] = []
    for (let frame = 0; frame < 3; frame++) {
      byDesc.beginFrame(frame)
      byForm.beginFrame(frame)
      byDesc.beginGraph('Scene')
      byForm.beginGraph('Scene')
      records(frame).forEach((r, i) => {
        byDesc.transient(r)
        if (frame === 0) forms[i] = byForm.transient(r)
        else if (forms[i] >= 0) byForm.transientForm(forms[i], r.id, r.first, r.last, r.name)
        else byForm.transient(r)
      })
      expect(byForm.endGraph(3).map((p) => [p.id, p.offset, p.size, p.route])).toEqual(
        byDesc.endGraph(3).map((p) => [p.id, p.offset, p.size, p.route]),
      )
    }
    // The two equal textures share a form; the bad buffer has none.
    expect(forms[2]).toBe(forms[0])
    expect(forms[3]).toBe(-1)
    expect(b.warnings).toEqual(a.warnings)
    expect(a.warnings.filter((w) => w === 'badSize')).toHaveLength(3)
    // The same placed-resource cache either way: the repeated executions hit it.
    expect(byForm.transientAllocator().stats()).toEqual(byDesc.transientAllocator().stats())
    expect(byForm.transientAllocator().stats().cacheHits).toBeGreaterThan(0)
  })

  it('warns about a transient outside a graph', () => {
    const rec = recordingSink()
    const m = newModel({}, {}, rec.sink)
    m.transient({ e: 'transient', id: 1, kind: 'buffer', size: 1024, first: 0, last: 0 })
    expect(rec.warnings).toEqual(['transientOutsideGraph'])
  })
})
