import { describe, expect, it } from 'vitest'
import { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanCaptureRecord } from '../../../../../src/main/model/vulkan/captureTypes'
import { KiB, MiB } from '../../../../../src/shared/units'
import { recorder, testConfig, testDevice } from './helpers'

const req = (size: number, alignment: number, memoryTypeBits = 0xf) => ({ size, alignment, memoryTypeBits })

function run(records: VulkanCaptureRecord[], config = testConfig(), device = testDevice()) {
  const rec = recorder()
  const model = new VulkanModel(device, config, rec.sink)
  for (const r of records) model.apply(r)
  return { model, ...rec }
}

describe('free-list blocks: best fit, alignment and bufferImageGranularity', () => {
  // Block of 1 MiB in type 0 (DEVICE_LOCAL preferred), granularity 1024.
  const records: VulkanCaptureRecord[] = [
    { e: 'frame', n: 0 },
    { e: 'buffer', id: 1, size: 1000, memoryRequirements: req(1000, 256) }, // [0, 1000)
    { e: 'buffer', id: 2, size: 3000, memoryRequirements: req(3000, 256) }, // roundUp(1000, 256) = 1024 → [1024, 4024)
    // Optimal image after a buffer: the tail [4024, 1 MiB) is the only fit; roundUp(4024, 4096) = 4096, and
    // page(4023) = 3 ≠ page(4096) = 4 → [4096, 8192).
    { e: 'texture', id: 3, width: 32, height: 32, memoryRequirements: req(4096, 4096) },
    // 100 bytes: free segments are [1000, 1024) 24 B, [4024, 4096) 72 B, [8192, 1 MiB): only the tail fits.
    // Its neighbour before is image 3: page(8191) = 7 ≠ page(8192) = 8, no move → [8192, 8292).
    { e: 'buffer', id: 4, size: 100, memoryRequirements: req(100, 16) },
    // 50 bytes: best fit is the 72-byte gap: roundUp(4024, 16) = 4032 → [4032, 4082); its next neighbour, image 3,
    // starts on page 4 while the buffer ends on page 3 (4081 / 1024), so it may sit there.
    { e: 'buffer', id: 5, size: 50, memoryRequirements: req(50, 16) },
    // An optimal image of 100 bytes after buffer 4 (ends 8292): roundUp(8292, 16) = 8304 is on page 8 like byte
    // 8291, so it moves to the next page: 9216.
    { e: 'texture', id: 6, width: 4, height: 4, memoryRequirements: req(100, 16) },
  ]

  it('places each request where the arithmetic says', () => {
    const { model, warnings } = run(records)
    expect(warnings).toEqual([])
    const at = (id: number) => model.placementOf(id)
    expect([1, 2, 3, 4, 5, 6].map((id) => [at(id)?.placement, at(id)?.memory, at(id)?.offset])).toEqual([
      ['FreeList', 0, 0],
      ['FreeList', 0, 1024],
      ['FreeList', 0, 4096],
      ['FreeList', 0, 8192],
      ['FreeList', 0, 4032],
      ['FreeList', 0, 9216],
    ])
    // 1000 + 3000 + 4096 + 100 + 50 + 100
    expect(model.typeUsed[0]).toBe(8346)
    expect(model.typeAllocated[0]).toBe(1 * MiB)
    expect(model.heapUsed[0]).toBe(8346)
    expect(model.typeAllocationCount[0]).toBe(6)
  })

  it('frees a released request only once the GPU finished its frame, and merges the free neighbours', () => {
    const { model, events } = run([
      ...records,
      { e: 'release', id: 2 },
      { e: 'frame', n: 1 }, // completed = 1 - 2 = -1: frame 0 still in flight
    ])
    expect(model.pendingFreeBytes).toBe(3000)
    expect(model.typeUsed[0]).toBe(8346)
    model.apply({ e: 'frame', n: 2 }) // completed = 0
    expect(model.pendingFreeBytes).toBe(0)
    expect(model.typeUsed[0]).toBe(5346) // 8346 − 3000
    expect(events.slice(-2)).toEqual(['f0 pending 2', 'f2 freed 2'])
    // [1000, 1024) + [1024, 4024) + the padding [4024, 4032) before buffer 5 become one free segment.
    const block = model.blocks()[0].freeList
    expect(block?.segments().filter((s) => s.owner < 0).slice(0, 2).map((s) => [s.offset, s.size])).toEqual([
      [1000, 3032],
      [4082, 14],
    ])
  })

  it('follows gpu records instead of frames in flight once the capture has them', () => {
    const { model, events } = run([
      { e: 'frame', n: 5 },
      { e: 'buffer', id: 1, size: 4096, memoryRequirements: req(4096, 256) },
      { e: 'release', id: 1 },
      { e: 'gpu', n: 3 },
      { e: 'frame', n: 6 },
      { e: 'frame', n: 9 }, // frames in flight would say 7 is done; the fences say 3
    ])
    expect(model.pendingFreeBytes).toBe(4096)
    model.apply({ e: 'gpu', n: 5 })
    expect(model.pendingFreeBytes).toBe(0)
    expect(events.slice(-2)).toEqual(['f5 pending 1', 'f9 freed 1'])
  })
})

describe('dedicated allocations and maxMemoryAllocationCount', () => {
  it('gives a request of at least vulkan.dedicatedMinSize, or one asking for it, its own memory', () => {
    const { model } = run([
      { e: 'buffer', id: 1, size: 600 * KiB, memoryRequirements: req(600 * KiB, 256) }, // 614400 ≥ 524288
      { e: 'buffer', id: 2, size: 1024, memoryRequirements: req(1024, 256), dedicated: 'required' },
      { e: 'buffer', id: 3, size: 1024, memoryRequirements: req(1024, 256) },
    ])
    expect(model.memoryObjects().map((m) => [m.memory, m.kind, m.size, m.usedBytes])).toEqual([
      [0, 'dedicated', 614400, 614400],
      [1, 'dedicated', 1024, 1024],
      [2, 'block', 1 * MiB, 1024],
    ])
    expect(model.placementOf(1)?.placement).toBe('Dedicated')
    expect(model.liveMemoryCount).toBe(3)
  })

  it('warns at each vkAllocateMemory above the device limit', () => {
    const mk = (id: number): VulkanCaptureRecord => ({ e: 'buffer', id, size: 1024, memoryRequirements: req(1024, 256), dedicated: 'required' })
    const { warnings } = run([{ e: 'frame', n: 3 }, mk(1), mk(2), mk(3), mk(4), mk(5)], testConfig(), testDevice({ maxMemoryAllocationCount: 3 }))
    expect(warnings.map((w) => w.kind)).toEqual(['alloc-count-exceeded', 'alloc-count-exceeded'])
    expect(warnings[0]).toEqual({
      kind: 'alloc-count-exceeded',
      message: 'vkAllocateMemory of 1024 bytes (dedicated, type 0) at frame 3: 4 live allocations, over maxMemoryAllocationCount 3',
      frame: 3,
    })
  })

  it('does not warn when memory is freed before the limit is crossed', () => {
    const mk = (id: number): VulkanCaptureRecord => ({ e: 'buffer', id, size: 1024, memoryRequirements: req(1024, 256), dedicated: 'required' })
    const { warnings, model } = run(
      [{ e: 'frame', n: 0 }, mk(1), mk(2), { e: 'release', id: 1 }, { e: 'frame', n: 2 }, mk(3)],
      testConfig(),
      testDevice({ maxMemoryAllocationCount: 2 }),
    )
    expect(warnings).toEqual([])
    expect(model.liveMemoryCount).toBe(2)
  })
})

describe('the per-frame linear allocator', () => {
  it('bumps dynamic uniform data through a block per frame in flight and resets a block when its frame is done', () => {
    // 10000 bytes in 10 pieces: each roundUp(1000, 256) = 1024 → 10240 bytes per frame, type 1 (HOST_VISIBLE|HOST_COHERENT).
    const up: VulkanCaptureRecord = { e: 'upload', via: 'fastConstant', bytes: 10000, count: 10 }
    const { model } = run([{ e: 'frame', n: 0 }, up, { e: 'frame', n: 1 }, up])
    // Frame 1 cannot reuse frame 0's block (completed = −1): two blocks of 64 KiB.
    expect(model.memoryObjects().map((m) => [m.kind, m.type, m.size, m.usedBytes])).toEqual([
      ['linear', 1, 65536, 10240],
      ['linear', 1, 65536, 10240],
    ])
    model.apply({ e: 'frame', n: 2 }) // completed = 0: frame 0's block resets
    expect(model.typeUsed[1]).toBe(10240)
    model.apply(up)
    model.apply({ e: 'frame', n: 3 }) // completed = 1
    model.apply(up)
    // Frames 2 and 3 reused blocks 0 and 1: still two memories, 20480 bytes in flight.
    expect(model.memoryObjects().map((m) => [m.memory, m.usedBytes])).toEqual([
      [0, 10240],
      [1, 10240],
    ])
  })

  it('moves to a new block when a frame fills one', () => {
    // 70 pieces of 1024 = 71680 > 65536: 64 pieces in the first block, 6 in a second.
    const { model } = run([{ e: 'frame', n: 0 }, { e: 'upload', via: 'fast', bytes: 70 * 1024, count: 70 }])
    expect(model.memoryObjects().map((m) => m.usedBytes)).toEqual([65536, 6144])
  })

  it('bumps a Volatile buffer and gives its bytes back with its block', () => {
    const { model } = run([
      { e: 'frame', n: 0 },
      { e: 'upload', via: 'fastConstant', bytes: 300 },
      { e: 'buffer', id: 9, size: 200, usage: ['Volatile', 'Uniform'] },
    ])
    // 300 → one 512-byte piece (roundUp 256); the buffer aligns to 256 → [512, 712).
    expect(model.placementOf(9)).toMatchObject({ placement: 'Linear', memory: 0, offset: 512, size: 200, estimated: true })
    model.apply({ e: 'release', id: 9 })
    model.apply({ e: 'frame', n: 1 })
    model.apply({ e: 'frame', n: 2 })
    expect(model.liveAllocations()).toEqual([])
    expect(model.typeUsed[1]).toBe(0)
  })

  it('sends a piece larger than a block to a temporary allocation freed with its frame', () => {
    const { model } = run([{ e: 'frame', n: 0 }, { e: 'upload', via: 'fast', bytes: 100 * KiB }])
    expect(model.memoryObjects().map((m) => [m.kind, m.size])).toEqual([['dedicated', 102400]])
    model.apply({ e: 'frame', n: 2 })
    expect(model.liveMemoryCount).toBe(0)
  })
})

describe('the staging ring', () => {
  it('reuses a frame\'s bytes only after its fence, wrapping to the start', () => {
    const { model, warnings } = run([
      { e: 'frame', n: 0 },
      { e: 'lock', id: 1, bytes: 40000 }, // [0, 40000)
      { e: 'frame', n: 1 },
      // head 40000: 40000 + 30000 > 65536, and wrapping needs 30000 ≤ tail = 0: frame 0 is in flight.
      { e: 'upload', via: 'staging', bytes: 30000 },
    ])
    expect(warnings.map((w) => w.kind)).toEqual(['staging-ring-full'])
    expect(warnings[0].message).toBe(
      'staging of 30000 bytes at frame 1 does not fit the 65536-byte ring (40000 bytes still in flight): a temporary allocation',
    )
    expect(model.memoryObjects().map((m) => [m.kind, m.type, m.size, m.usedBytes])).toEqual([
      ['staging', 1, 65536, 40000], // type 1: the first HOST_VISIBLE type
      ['dedicated', 1, 30000, 30000],
    ])
    model.apply({ e: 'frame', n: 2 }) // completed 0: the ring is empty again
    model.apply({ e: 'upload', via: 'staging', bytes: 30000 })
    expect(warnings.length).toBe(1)
    expect(model.memoryObjects().map((m) => [m.kind, m.usedBytes])).toEqual([
      ['staging', 30000],
      ['dedicated', 30000], // frame 1's overflow, until frame 1 is done
    ])
    model.apply({ e: 'frame', n: 3 })
    // Frame 3's 30000 start at roundUp(30000, 64) = 30016 and end at 60016 ≤ 65536.
    model.apply({ e: 'lock', id: 1, bytes: 30000 })
    expect(model.memoryObjects().map((m) => [m.kind, m.usedBytes])).toEqual([['staging', 60016]])
    expect(warnings.length).toBe(1)
  })
})

describe('buddy blocks for textures', () => {
  it('places textures in power-of-two blocks and merges buddies back', () => {
    const config = testConfig({ 'vulkan.textureAllocator': 1, 'vulkan.buddy.minBlock': 4096 })
    const { model } = run(
      [
        { e: 'frame', n: 0 },
        { e: 'texture', id: 1, memoryRequirements: req(5000, 256) }, // 8192 block at 0
        { e: 'texture', id: 2, memoryRequirements: req(4096, 256) }, // splits [8192, 16384): 4096 at 8192
        { e: 'texture', id: 3, memoryRequirements: req(3000, 256) }, // its buddy at 12288
        { e: 'texture', id: 4, memoryRequirements: req(16384, 16384) }, // next free 16 KiB: 16384
        { e: 'buffer', id: 5, size: 100, memoryRequirements: req(100, 16) }, // buffers stay in free-list blocks
      ],
      config,
    )
    expect([1, 2, 3, 4].map((id) => [model.placementOf(id)?.placement, model.placementOf(id)?.offset, model.placementOf(id)?.size])).toEqual([
      ['Buddy', 0, 8192],
      ['Buddy', 8192, 4096],
      ['Buddy', 12288, 4096],
      ['Buddy', 16384, 16384],
    ])
    expect(model.placementOf(5)?.placement).toBe('FreeList')
    const buddy = model.blocks().find((b) => b.buddy)?.buddy
    expect(buddy?.used).toBe(32768) // 8192 + 4096 + 4096 + 16384
    for (const id of [2, 3]) model.apply({ e: 'release', id })
    model.apply({ e: 'frame', n: 2 })
    // 8192 and 12288 merge into [8192, 16384), which does not merge with [0, 8192) (texture 1).
    expect(buddy?.freeRanges().slice(0, 1)).toEqual([[8192, 8192]])
  })
})

describe('memory type fallback', () => {
  it('takes the seed\'s DEVICE_LOCAL fallback with a warning, and says so when nothing fits', () => {
    const { model, warnings } = run([
      // Only types 0 (DEVICE_LOCAL) and 1 allowed (0b11), HOST_CACHED required: nothing has it.
      { e: 'buffer', id: 1, size: 64, memoryRequirements: req(64, 16, 0b11), required: ['HOST_VISIBLE', 'HOST_CACHED'] },
      { e: 'buffer', id: 2, size: 64, memoryRequirements: req(64, 16, 0) },
    ])
    expect(model.placementOf(1)?.type).toBe(0)
    expect(model.placementOf(2)).toBeNull()
    expect(warnings.map((w) => w.message)).toEqual([
      'buffer 1: no memory type has the wanted flags HOST_VISIBLE|HOST_CACHED; took DEVICE_LOCAL type 0',
      'buffer 2: no memory type in memoryTypeBits 0x0',
    ])
  })
})

describe('checkpoints', () => {
  it('a clone replays on its own and ends where the original ends', () => {
    const head: VulkanCaptureRecord[] = [
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 5000, memoryRequirements: req(5000, 256) },
      { e: 'texture', id: 2, memoryRequirements: req(70000, 4096) },
      { e: 'upload', via: 'fastConstant', bytes: 4096, count: 4 },
      { e: 'lock', id: 1, bytes: 5000 },
    ]
    const tail: VulkanCaptureRecord[] = [
      { e: 'release', id: 1 },
      { e: 'frame', n: 1 },
      { e: 'buffer', id: 3, size: 100, memoryRequirements: req(100, 16) },
      { e: 'frame', n: 4 },
      { e: 'upload', via: 'staging', bytes: 9000 },
    ]
    const { model } = run(head)
    const copy = model.clone()
    const before = JSON.stringify(model.view())
    for (const r of tail) copy.apply(r)
    expect(JSON.stringify(model.view())).toBe(before)
    for (const r of tail) model.apply(r)
    expect(copy.view()).toEqual(model.view())
    expect(copy.liveAllocations()).toEqual(model.liveAllocations())
  })
})

describe('live figures and columns (a report, a frame message, a snapshot: no object per resource)', () => {
  it('are what liveAllocations lists, by memory type, pending frees left out, with its alignment bytes', () => {
    const recs: VulkanCaptureRecord[] = [{ e: 'frame', n: 0 }]
    let id = 1
    for (let f = 1; f <= 12; f++) {
      recs.push({ e: 'frame', n: f })
      for (let k = 0; k < 6; k++) {
        const size = 1000 + 777 * ((f * 7 + k * 13) % 29)
        recs.push({ e: 'buffer', id: id++, size, memoryRequirements: req(size, 256, k % 2 ? 0x2 : 0xf) })
      }
      recs.push({ e: 'texture', id: id++, width: 64, height: 64, memoryRequirements: req(16384 + 1000 * f, 4096, 0x1) })
      // a few of the frame's and of older ones go, some still waiting for the GPU at the end
      recs.push({ e: 'release', id: id - 3 }, { e: 'release', id: id - 20 })
    }
    const { model } = run(recs)
    const listed = model.liveAllocations()
    const live = listed.filter((a) => !a.pendingFree)
    expect(listed.length).toBeGreaterThan(live.length)
    const figures = model.liveFigures()
    expect(figures.count).toBe(live.length)
    const byType = new Array<number>(figures.byType.length).fill(0)
    for (const a of live) byType[a.type]++
    expect(figures.byType).toEqual(byType)
    expect(new Set(live.map((a) => a.type)).size).toBeGreaterThan(1)
    expect(figures.alignmentBytes).toBe(live.reduce((sum, a) => sum + a.size - a.requested, 0))
    // a snapshot's table as columns, in liveAllocations' order, and the pending frees' keys
    const columns = model.liveColumns()
    expect(columns.count).toBe(live.length)
    expect(Array.from(columns.id)).toEqual(live.map((a) => a.id))
    expect(Array.from(columns.offset)).toEqual(live.map((a) => a.offset))
    expect(Array.from(columns.size)).toEqual(live.map((a) => a.size))
    expect(Array.from(columns.requested)).toEqual(live.map((a) => a.requested))
    expect(Array.from(columns.memory)).toEqual(live.map((a) => a.memory))
    expect(Array.from(columns.type)).toEqual(live.map((a) => a.type))
    expect(Array.from(columns.heap)).toEqual(live.map((a) => a.heap))
    expect(Array.from(columns.linear)).toEqual(live.map((a) => (a.linear ? 1 : 0)))
    expect(Array.from(columns.estimated)).toEqual(live.map((a) => (a.estimated ? 1 : 0)))
    // the pool maps' columns: view()'s memories and allocations, the released ones waiting for the GPU marked
    const layout = model.memoryLayout()
    const view = model.view()
    expect(layout.memories).toEqual(view.memories.map(({ allocations: _, ...m }) => m))
    const rows = (k: number) => Array.from({ length: layout.first[k + 1] - layout.first[k] }, (_, i) => layout.first[k] + i)
    view.memories.forEach((m, k) => {
      expect(rows(k).map((r) => [layout.offset[r], layout.size[r]])).toEqual(m.allocations.map((a) => [a.offset, a.size]))
      expect(rows(k).map((r) => layout.id[r])).toEqual(m.allocations.map((a) => a.id ?? Number.NaN))
    })
    const waiting = listed.filter((a) => a.pendingFree).map((a) => `${a.memory}:${a.offset}:${a.id}`)
    const marked = view.memories.flatMap((m, k) => rows(k).filter((r) => layout.pending[r] === 1).map((r) => `${m.memory}:${layout.offset[r]}:${layout.id[r]}`))
    expect(marked.sort()).toEqual(waiting.sort())
    expect(marked.length).toBeGreaterThan(0)
  })
})
