import { describe, expect, it } from 'vitest'
import { TOTAL_SERIES, UPLOAD_SERIES } from '../../../../../src/main/analysis/d3d12/replay'
import {
  CHECK_SERIES,
  isVulkanRun,
  VULKAN_UPLOAD_SERIES,
  VulkanReplay,
  vulkanConfigOf,
  vulkanSeriesName as vk,
} from '../../../../../src/main/analysis/vulkan/replay'
import type { IdTable } from '../../../../../src/main/model/idTable'
import { SERIES } from '../../../../../src/shared/ipc'
import { KiB, MiB } from '../../../../../src/shared/units'
import { HAND_RECORDS, header, storeOf } from './helpers'

async function handReplay(checkpointRecords?: number) {
  const store = storeOf(header(), HAND_RECORDS)
  return VulkanReplay.run(store, { config: vulkanConfigOf(store.header), checkpointRecords })
}

const column = (replay: VulkanReplay, name: string) => Array.from(replay.series.get(name) ?? [])

describe('the Vulkan replay of a hand-made capture', () => {
  it('takes its config from the header and the user, and knows a Vulkan capture from an observed trace', () => {
    const config = vulkanConfigOf(header(), { 'vulkan.blockSize': '2MiB', 'bufferPool.size': '64MiB' })
    expect(config['vulkan.blockSize']).toBe(2 * MiB)
    expect(config['vulkan.dedicatedMinSize']).toBe(512 * KiB)
    expect(() => vulkanConfigOf(header(), { 'vulkan.nope': 1 })).toThrow(/unknown Vulkan config key/)
    expect(isVulkanRun(header())).toBe(true)
    expect(isVulkanRun({ ...header(), source: 'rmv' })).toBe(false)
    expect(isVulkanRun({ ...header(), api: 'd3d12' })).toBe(false)
  })

  it('folds heap 0 (video memory) frame by frame', async () => {
    const r = await handReplay()
    // Frame 1: a 1 MiB block holding the 100000-byte buffer + the 614400-byte dedicated texture:
    // 1048576 + 614400 = 1662976 allocated, 100000 + 614400 = 714400 used. Nothing is freed after.
    expect(column(r, vk.heap(0, 'allocatedBytes'))).toEqual([1662976, 1662976, 1662976, 1662976])
    // Frame 4: the GPU finished frame 2 (4 − 2), so the released buffer's 100000 bytes leave the block (kept empty).
    expect(column(r, vk.heap(0, 'usedBytes'))).toEqual([714400, 714400, 714400, 614400])
    expect(column(r, vk.heap(0, 'freeBytes'))).toEqual([948576, 948576, 948576, 1048576])
    // Released at frame 2, pending until the GPU finished frame 2, at frame 4.
    expect(column(r, vk.heap(0, 'pendingFreeBytes'))).toEqual([0, 100000, 100000, 0])
    expect(column(r, vk.heap(0, 'blockBytes'))).toEqual([1048576, 1048576, 1048576, 1048576])
    expect(column(r, vk.heap(0, 'dedicatedBytes'))).toEqual([614400, 614400, 614400, 614400])
    expect(column(r, vk.heap(0, 'memoryCount'))).toEqual([2, 2, 2, 2])
    // 900 MiB from the header, 800 MiB from frame 3's budget record.
    expect(column(r, vk.heap(0, 'budgetBytes'))).toEqual([900 * MiB, 900 * MiB, 800 * MiB, 800 * MiB])
  })

  it('folds heap 1 (system memory): blocks, per-frame memory and application memory', async () => {
    const r = await handReplay()
    // Frame 1: the uniform buffer's 1 MiB block, one 64 KiB linear block, the 64 KiB application memory:
    // 1048576 + 65536 + 65536 = 1179648. Frame 2: the 64 KiB staging ring and a second linear block (frame 1's
    // is in flight): 1179648 + 2 × 65536 = 1310720.
    expect(column(r, vk.heap(1, 'allocatedBytes'))).toEqual([1179648, 1310720, 1310720, 1310720])
    // Frame 1: 4096 (uniform buffer) + 10 × 256 (uniform data) + 4096 (placed buffer) = 10752.
    // Frame 2: + 10000 staging + 2560 uniform data = 23312. Frame 3: frame 1's linear block reset: 23312 − 2560.
    // Frame 4: frame 2's linear block and staging bytes retired: 20752 − 2560 − 10000 = 8192.
    expect(column(r, vk.heap(1, 'usedBytes'))).toEqual([10752, 23312, 20752, 8192])
    expect(column(r, vk.heap(1, 'frameBytes'))).toEqual([65536, 196608, 196608, 196608])
    expect(column(r, vk.heap(1, 'appBytes'))).toEqual([65536, 65536, 65536, 65536])
    expect(column(r, vk.heap(1, 'memoryCount'))).toEqual([3, 5, 5, 5])
  })

  it('folds each memory type, with the resources in it', async () => {
    const r = await handReplay()
    // Type 0: the block and the dedicated texture; 2 resources, then 1 once the buffer is freed at frame 4.
    expect(column(r, vk.type(0, 'allocatedBytes'))).toEqual([1662976, 1662976, 1662976, 1662976])
    expect(column(r, vk.type(0, 'allocationCount'))).toEqual([2, 2, 2, 1])
    // Type 1: block 1048576 + linear 65536 = 1114112; frame 2 adds the ring and a linear block: 1245184.
    expect(column(r, vk.type(1, 'allocatedBytes'))).toEqual([1114112, 1245184, 1245184, 1245184])
    // 4096 + 2560; + 10000 + 2560; − 2560; − 2560 − 10000.
    expect(column(r, vk.type(1, 'usedBytes'))).toEqual([6656, 19216, 16656, 4096])
    expect(column(r, vk.type(1, 'allocationCount'))).toEqual([1, 1, 1, 1])
    // Type 2: the application memory with the placed buffer.
    expect(column(r, vk.type(2, 'allocatedBytes'))).toEqual([65536, 65536, 65536, 65536])
    expect(column(r, vk.type(2, 'usedBytes'))).toEqual([4096, 4096, 4096, 4096])
    expect(column(r, vk.type(2, 'appBytes'))).toEqual([65536, 65536, 65536, 65536])
  })

  it('keeps the generic totals, live counts, tags and traffic under the D3D12 replay names', async () => {
    const r = await handReplay()
    // 1662976 + 1179648 = 2842624, then 1662976 + 1310720 = 2973696.
    expect(column(r, TOTAL_SERIES.heapBytes)).toEqual([2842624, 2973696, 2973696, 2973696])
    // Used minus pending: 714400 + 10752; 714400 + 23312 − 100000; 714400 + 20752 − 100000; 614400 + 8192.
    expect(column(r, TOTAL_SERIES.occupiedBytes)).toEqual([725152, 637712, 635152, 622592])
    // 100000 + 614400 + 4096 + 4096 = 722592 while the vertex buffer lives, 622592 after its release.
    expect(column(r, TOTAL_SERIES.requestedBytes)).toEqual([722592, 622592, 622592, 622592])
    expect(column(r, SERIES.liveRequested)).toEqual([722592, 622592, 622592, 622592])
    expect(column(r, SERIES.liveCount)).toEqual([4, 3, 3, 3])
    expect(column(r, vk.tag('Meshes', 'occupiedBytes'))).toEqual([100000, 0, 0, 0])
    expect(column(r, vk.tag('Textures', 'count'))).toEqual([1, 1, 1, 1])
    expect(column(r, vk.tag('Upload', 'requestedBytes'))).toEqual([4096, 4096, 4096, 4096])
    // Upload records: 2560; 10000 + 2560; none; none.
    expect(column(r, UPLOAD_SERIES.bytes)).toEqual([2560, 12560, 0, 0])
    expect(column(r, VULKAN_UPLOAD_SERIES.linearBytes)).toEqual([2560, 2560, 0, 0])
    expect(column(r, VULKAN_UPLOAD_SERIES.stagingBytes)).toEqual([0, 10000, 0, 0])
  })

  it('labels series by heap and type with their flags, and drops the types and classes that never held bytes', async () => {
    const r = await handReplay()
    const info = new Map(r.series.list().map((s) => [s.name, s]))
    expect(info.get(vk.heap(1, 'usedBytes'))).toEqual({
      name: 'vkheap.1.usedBytes',
      label: 'Heap 1 (system) used',
      unit: 'bytes',
      group: 'vkheap',
    })
    expect(info.get(vk.heap(0, 'allocatedBytes'))?.label).toBe('Heap 0 (DEVICE_LOCAL) allocated')
    expect(info.get(vk.type(1, 'memoryCount'))).toMatchObject({
      label: 'Type 1 (HOST_VISIBLE|HOST_COHERENT) VkDeviceMemory objects',
      unit: 'count',
      group: 'vktype',
    })
    // Heap 0 never had per-frame or application memory; heap 1 had no dedicated allocation.
    expect(info.has(vk.heap(0, 'frameBytes'))).toBe(false)
    expect(info.has(vk.heap(1, 'dedicatedBytes'))).toBe(false)
    expect(info.has(VULKAN_UPLOAD_SERIES.overflowBytes)).toBe(false)
  })

  it('finds the unflushed write of frame 3 as the check does, and counts it in its frame', async () => {
    const r = await handReplay()
    expect(r.checks.entries).toEqual([
      {
        frame: 2,
        frameNumber: 3,
        rule: 'flush-misaligned',
        severity: 'warning',
        resources: [],
        heap: null,
        range: null,
        message:
          'memory 10 (type 2: HOST_VISIBLE without HOST_COHERENT): bytes [256, 356) written at frame 3 and not ' +
          'flushed with a range aligned to nonCoherentAtomSize 64 before a submit',
      },
    ])
    expect(column(r, CHECK_SERIES.warnings)).toEqual([0, 0, 1, 0])
    expect(column(r, CHECK_SERIES.hazards)).toEqual([0, 0, 0, 0])
    expect(r.diagnostics).toEqual({})
  })

  it('counts what the model could not honour apart from the checks, in the run\'s device summary', async () => {
    const store = storeOf(header(), [
      { e: 'frame', n: 1 },
      // HOST_CACHED required, and no type has it: the seed's fallback, the first allowed DEVICE_LOCAL type.
      { e: 'buffer', id: 1, size: 1000, required: ['HOST_CACHED'], memoryRequirements: { size: 1024, alignment: 256, memoryTypeBits: 3 } },
      // DEVICE_LOCAL required from types 1 and 2, neither of which is: no memory type, not placed.
      { e: 'buffer', id: 2, size: 1000, required: ['DEVICE_LOCAL'], memoryRequirements: { size: 1024, alignment: 256, memoryTypeBits: 6 } },
    ])
    const r = await VulkanReplay.run(store, { config: vulkanConfigOf(store.header) })
    expect(r.diagnostics).toEqual({ 'memory-type-fallback': 1, 'no-memory-type': 1 })
    expect(r.info().diagnostics).toEqual({ 'memory-type-fallback': 1, 'no-memory-type': 1 })
    expect(r.checks.entries).toEqual([])
    expect(column(r, vk.type(0, 'allocationCount'))).toEqual([1])
    expect(column(r, SERIES.liveCount)).toEqual([1])
  })

  it('rebuilds any frame from a checkpoint as a replay from the start does', async () => {
    const dense = await handReplay(1)
    const whole = await handReplay(Infinity)
    expect(dense.checkpointStats().count).toBe(4)
    expect(whole.checkpointStats().count).toBe(1)
    for (let frame = 0; frame < 4; frame++) {
      const a = dense.modelAt(frame)
      const b = whole.modelAt(frame)
      expect(a.model.view()).toEqual(b.model.view())
      expect(a.model.liveAllocations()).toEqual(b.model.liveAllocations())
      const pairs = (t: IdTable) => {
        const out: [number, number][] = []
        t.forEach((record, id) => out.push([id, record]))
        return out
      }
      expect(pairs(a.created)).toEqual(pairs(b.created))
      expect(pairs(a.created).length).toBe(a.created.size)
      // each live resource keeps its create record beside its slot, as the replay's map by id has it
      const live = a.model.liveColumns()
      expect(live.count).toBeGreaterThan(0)
      expect(Array.from(live.record)).toEqual(Array.from(live.id, (id) => a.created.get(id)))
      expect(Array.from(b.model.liveColumns().record)).toEqual(Array.from(live.record))
    }
    // At the end of frame 2 the released buffer is pending in its block; at the end of frame 4 it is gone.
    expect(whole.modelAt(1).model.liveAllocations().map((a) => [a.id, a.pendingFree])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [11, false],
    ])
    expect(whole.modelAt(3).model.liveAllocations().map((a) => a.id)).toEqual([2, 3, 11])
  })
})
