import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { FreeListBlock } from '../../../../../src/main/model/vulkan/freeList'
import { BuddyBlock } from '../../../../../src/main/model/vulkan/buddy'
import { StagingRing } from '../../../../../src/main/model/vulkan/stagingRing'
import { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanCaptureRecord } from '../../../../../src/main/model/vulkan/captureTypes'
import { VULKAN_PLACEMENTS } from '../../../../../src/main/model/vulkan/events'
import type { ResourceNeeds } from '../../../../../src/main/model/vulkan/requirements'
import { recorder, testConfig, testDevice } from './helpers'
import { runs } from '../../../../properties'

type Op = { kind: 'alloc'; size: number; alignLog: number; linear: boolean } | { kind: 'free'; pick: number }

const ops = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('alloc' as const),
      size: fc.integer({ min: 1, max: 20000 }),
      alignLog: fc.integer({ min: 0, max: 12 }),
      linear: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('free' as const), pick: fc.nat() }),
  ),
  { maxLength: 120 },
)

describe('free-list block invariants', () => {
  it('segments tile the block, used + free = size, nothing overlaps, alignment and granularity hold', () => {
    fc.assert(
      fc.property(ops, fc.constantFrom(1, 256, 1024, 4096), (list: Op[], granularity) => {
        const block = new FreeListBlock(65536, granularity)
        const live: { handle: number; segment: number; size: number; align: number; linear: boolean }[] = []
        let next = 0
        for (const op of list) {
          if (op.kind === 'alloc') {
            const align = 2 ** op.alignLog
            const offset = block.allocate(next, op.size, align, op.linear)
            if (offset >= 0) {
              expect(offset % align).toBe(0)
              expect(block.offsetOf(next)).toBe(offset)
              live.push({ handle: next, segment: block.lastSegment, size: op.size, align, linear: op.linear })
            }
            next++
          } else if (live.length) {
            // by the segment the allocation was placed in (as the model releases), or by its handle
            const [gone] = live.splice(op.pick % live.length, 1)
            if (op.pick % 2 === 0) expect(block.releaseSegment(gone.segment)).toBe(true)
            else expect(block.release(gone.handle)).toBe(true)
            expect(block.releaseSegment(gone.segment)).toBe(false)
            expect(block.offsetOf(gone.handle)).toBe(-1)
          }
          const segments = block.segments()
          let at = 0
          let used = 0
          let free = 0
          for (let i = 0; i < segments.length; i++) {
            const s = segments[i]
            expect(s.offset).toBe(at)
            at += s.size
            if (s.owner >= 0) used += s.size
            else {
              free += s.size
              if (i > 0) expect(segments[i - 1].owner, 'free neighbours are merged').toBeGreaterThanOrEqual(0)
            }
          }
          expect(at).toBe(65536)
          expect(used).toBe(block.used)
          expect(used + free).toBe(block.size)
          expect(block.allocationCount).toBe(live.length)
          const owned = segments.filter((s) => s.owner >= 0)
          for (let i = 0; i < owned.length; i++) {
            for (let j = i + 1; j < owned.length; j++) {
              const a = owned[i]
              const b = owned[j]
              if (a.linear === b.linear) continue
              // a before b: a's last page must be before b's first page.
              expect(Math.floor((a.offset + a.size - 1) / granularity)).toBeLessThan(Math.floor(b.offset / granularity))
            }
          }
        }
        for (const l of live) block.release(l.handle)
        expect(block.segments()).toEqual([{ offset: 0, size: 65536, owner: -1, linear: false }])
      }),
      { numRuns: runs(300) },
    )
  })

  it('best fit takes the smallest free segment that fits', () => {
    const block = new FreeListBlock(10000, 1)
    // Used [0,100) [100,600) [600,700) [700,1700) [1700,1800), then free.
    for (const [h, size] of [[0, 100], [1, 500], [2, 100], [3, 1000], [4, 100]]) block.allocate(h, size, 1, true)
    block.release(3) // free 1000 at 700
    block.release(1) // free 500 at 100
    // 400 bytes: the free segments are 500, 1000 and the 8200 tail: best fit is the 500 at 100.
    expect(block.allocate(5, 400, 1, true)).toBe(100)
    // 600 bytes: 100 left at 500 is too small, the 1000 at 700 fits.
    expect(block.allocate(6, 600, 1, true)).toBe(700)
  })
})

describe('buddy block invariants', () => {
  it('blocks are powers of two at multiples of their size, never overlap, and merge back whole', () => {
    fc.assert(
      fc.property(ops, (list: Op[]) => {
        const buddy = new BuddyBlock(65536, 512)
        const live: number[] = []
        let next = 0
        for (const op of list) {
          if (op.kind === 'alloc') {
            const offset = buddy.allocate(next, op.size, 2 ** op.alignLog)
            if (offset >= 0) live.push(next)
            next++
          } else if (live.length) {
            expect(buddy.release(live.splice(op.pick % live.length, 1)[0])).toBe(true)
          }
          const allocations = buddy.allocations()
          const ranges = [...allocations.map((a) => [a.offset, a.size]), ...buddy.freeRanges()].sort((a, b) => a[0] - b[0])
          let at = 0
          for (const [offset, size] of ranges) {
            expect(offset).toBe(at)
            expect(offset % size).toBe(0)
            expect(Math.log2(size) % 1).toBe(0)
            at += size
          }
          expect(at).toBe(65536)
          expect(buddy.used).toBe(allocations.reduce((s, a) => s + a.size, 0))
          for (const a of allocations) expect(a.size).toBeGreaterThanOrEqual(a.requested)
        }
        for (const h of live) buddy.release(h)
        expect(buddy.freeRanges()).toEqual([[0, 65536]])
      }),
      { numRuns: runs(300) },
    )
  })
})

describe('staging ring invariants', () => {
  it('in-flight regions never overlap and all come back once their frames are done', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 3 })), { maxLength: 80 }), (steps) => {
        const ring = new StagingRing(16384)
        let frame = 0
        const live: { frame: number; start: number; end: number }[] = []
        for (const [size, advance] of steps) {
          frame += advance
          const completed = frame - 2
          ring.retire(completed)
          for (let i = live.length - 1; i >= 0; i--) if (live[i].frame <= completed) live.splice(i, 1)
          const start = ring.allocate(size, 64, frame)
          if (start < 0) continue
          expect(start % 64).toBe(0)
          expect(start + size).toBeLessThanOrEqual(16384)
          for (const l of live) expect(start >= l.end || start + size <= l.start, 'regions in flight overlap').toBe(true)
          live.push({ frame, start, end: start + size })
          expect(ring.usedBytes()).toBeGreaterThanOrEqual(live.reduce((s, l) => s + (l.end - l.start), 0))
        }
        ring.retire(frame)
        expect(ring.usedBytes()).toBe(0)
      }),
      { numRuns: runs(300) },
    )
  })
})

describe('model invariants over random captures', () => {
  const id = fc.integer({ min: 1, max: 40 })
  const buffer = fc.record({
    e: fc.constant('buffer' as const),
    id,
    size: fc.integer({ min: 1, max: 300000 }),
    alignLog: fc.integer({ min: 0, max: 12 }),
    usage: fc.constantFrom([], ['Volatile'], ['Dynamic'], ['Uniform']),
  })
  const texture = fc.record({
    e: fc.constant('texture' as const),
    id,
    size: fc.integer({ min: 1, max: 700000 }),
    alignLog: fc.integer({ min: 0, max: 16 }),
    tiling: fc.constantFrom('linear' as const, 'optimal' as const),
  })
  const upload = fc.record({
    e: fc.constant('upload' as const),
    via: fc.constantFrom('fast' as const, 'fastConstant' as const, 'staging' as const),
    bytes: fc.integer({ min: 1, max: 80000 }),
  })
  const record = fc.oneof(
    { weight: 4, arbitrary: buffer },
    { weight: 3, arbitrary: texture },
    { weight: 3, arbitrary: fc.record({ e: fc.constant('release' as const), id }) },
    { weight: 2, arbitrary: fc.record({ e: fc.constant('frame' as const) }) },
    { weight: 1, arbitrary: upload },
  )

  it('live allocations of one memory never overlap, totals are the sums, and everything is freed in the end', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 150 }), fc.constantFrom(0, 1), (list, textureAllocator) => {
        const rec = recorder()
        const config = testConfig({ 'vulkan.textureAllocator': textureAllocator, 'vulkan.emptyBlocksKept': 0 })
        const model = new VulkanModel(testDevice(), config, rec.sink)
        let frame = 0
        const ids = new Set<number>()
        const toRecord = (r: (typeof list)[number]): VulkanCaptureRecord => {
          switch (r.e) {
            case 'buffer': {
              const memoryRequirements = { size: r.size, alignment: 2 ** r.alignLog, memoryTypeBits: 0xf }
              return { e: 'buffer', id: r.id, size: r.size, usage: r.usage as never, memoryRequirements }
            }
            case 'texture': {
              const memoryRequirements = { size: r.size, alignment: 2 ** r.alignLog, memoryTypeBits: 0xf }
              return { e: 'texture', id: r.id, tiling: r.tiling, memoryRequirements }
            }
            case 'frame':
              return { e: 'frame', n: ++frame }
            default:
              return r
          }
        }
        for (const r of list) {
          const out = toRecord(r)
          if (out.e === 'buffer' || out.e === 'texture') ids.add(out.id)
          model.apply(out)
          const live = model.liveAllocations().filter((a) => a.placement !== 'Linear')
          for (let i = 1; i < live.length; i++) {
            const a = live[i - 1]
            const b = live[i]
            if (a.memory !== b.memory) continue
            expect(a.offset + a.size, `${a.id} and ${b.id} overlap`).toBeLessThanOrEqual(b.offset)
          }
          for (const a of live) expect(a.offset % a.alignment).toBe(0)
          // bufferImageGranularity 1024: a linear and an optimal resource of one memory never share a page.
          for (const a of live) {
            for (const b of live) {
              if (a.memory !== b.memory || a.linear === b.linear || a.offset >= b.offset) continue
              const lastPage = Math.floor((a.offset + a.size - 1) / 1024)
              expect(lastPage, `${a.id} and ${b.id} share a page`).toBeLessThan(Math.floor(b.offset / 1024))
            }
          }
          const memories = model.memoryObjects()
          for (let t = 0; t < 4; t++) {
            const of = memories.filter((m) => m.type === t)
            expect(model.typeAllocated[t]).toBe(of.reduce((s, m) => s + m.size, 0))
            expect(model.typeUsed[t]).toBe(of.reduce((s, m) => s + m.usedBytes, 0))
          }
          for (const m of memories) {
            expect(m.usedBytes).toBeGreaterThanOrEqual(0)
            expect(m.usedBytes).toBeLessThanOrEqual(m.size)
          }
          expect(model.liveMemoryCount).toBe(memories.length)
        }
        expect(rec.warnings.filter((w) => w.kind !== 'staging-ring-full')).toEqual([])
        for (const id of ids) model.apply({ e: 'release', id })
        model.apply({ e: 'frame', n: frame + 3 })
        expect(model.liveAllocations()).toEqual([])
        expect(model.pendingFreeBytes).toBe(0)
        // Only the per-frame linear blocks and the staging ring stay, empty.
        expect(model.memoryObjects().filter((m) => m.kind !== 'linear' && m.kind !== 'staging')).toEqual([])
        expect([...model.typeUsed]).toEqual([0, 0, 0, 0])
      }),
      { numRuns: runs(200) },
    )
  })
})

/**
 * VMA's walk over a memory type's free-list blocks, as the model did it before its index: every block in creation
 * order, the first where the best fit finds a segment. Put in a model in place of its indexed search.
 */
function linearFreeList(model: VulkanModel): VulkanModel {
  type Inner = {
    memories: Map<number, { memory: number; freeList: FreeListBlock | null }>
    blocksByType: number[][]
    device: { bufferImageGranularity: number }
    blockSizeFor(type: number): number
    createMemory(kind: string, type: number, size: number, captureId: number): { memory: number; freeList: FreeListBlock | null }
    settle(slot: number, placement: number, state: unknown, offset: number, size: number): void
    placeFreeList(slot: number, type: number, n: ResourceNeeds): boolean
  }
  const m = model as unknown as Inner
  m.placeFreeList = (slot, type, n) => {
    let best: { memory: number; freeList: FreeListBlock | null } | null = null
    for (const id of m.blocksByType[type]) {
      const state = m.memories.get(id)!
      if (state.freeList!.bestFit(n.size, n.alignment, n.linear) >= 0) {
        best = state
        break
      }
    }
    if (!best) {
      const block = new FreeListBlock(m.blockSizeFor(type), m.device.bufferImageGranularity)
      if (block.bestFit(n.size, n.alignment, n.linear) < 0) return false
      best = m.createMemory('block', type, block.size, -1)
      best.freeList = block
      m.blocksByType[type].push(best.memory)
    }
    const offset = best.freeList!.allocate(slot, n.size, n.alignment, n.linear)
    if (offset < 0) return false
    m.settle(slot, VULKAN_PLACEMENTS.indexOf('FreeList'), best, offset, n.size)
    return true
  }
  return model
}

describe('the free-list block search', () => {
  const size = fc.oneof(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 4096, max: 600_000 }))
  const record = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        e: fc.constant('buffer' as const),
        size,
        alignLog: fc.integer({ min: 0, max: 12 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        e: fc.constant('texture' as const),
        size,
        alignLog: fc.integer({ min: 0, max: 16 }),
        tiling: fc.constantFrom('linear' as const, 'optimal' as const),
      }),
    },
    { weight: 2, arbitrary: fc.record({ e: fc.constant('release' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ e: fc.constant('frame' as const) }) },
  )

  it('puts every resource where a walk over the blocks in creation order does, with dozens of blocks', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 50, maxLength: 400, size: 'max' }), fc.nat(), (list, cut) => {
        const config = testConfig({ 'vulkan.textureAllocator': 0, 'vulkan.emptyBlocksKept': 1 })
        let indexed = new VulkanModel(testDevice(), config)
        let walked = linearFreeList(new VulkanModel(testDevice(), config))
        const live: number[] = []
        let nextId = 1
        let frame = 0
        list.forEach((r, i) => {
          if (i === cut % list.length) {
            // A copy indexes its blocks again; a checkpoint's copy has tables cut to their rows, grown as it goes on.
            indexed = indexed.clone({}, cut % 2 === 0)
            walked = linearFreeList(walked.clone({}))
          }
          let out: VulkanCaptureRecord
          if (r.e === 'buffer') {
            out = { e: 'buffer', id: nextId, size: r.size, memoryRequirements: { size: r.size, alignment: 2 ** r.alignLog, memoryTypeBits: 0xf } }
            live.push(nextId++)
          } else if (r.e === 'texture') {
            const memoryRequirements = { size: r.size, alignment: 2 ** r.alignLog, memoryTypeBits: 0xf }
            out = { e: 'texture', id: nextId, tiling: r.tiling, memoryRequirements }
            live.push(nextId++)
          } else if (r.e === 'release') {
            if (live.length === 0) return
            out = { e: 'release', id: live.splice(r.pick % live.length, 1)[0] }
          } else {
            out = { e: 'frame', n: ++frame }
          }
          indexed.apply(out)
          walked.apply(out)
        })
        expect(indexed.liveAllocations()).toEqual(walked.liveAllocations())
        expect(indexed.memoryObjects()).toEqual(walked.memoryObjects())
        const segments = (m: VulkanModel) => m.blocks().map((b) => b.freeList?.segments())
        expect(segments(indexed)).toEqual(segments(walked))
      }),
      { numRuns: runs(60) },
    )
  })
})
