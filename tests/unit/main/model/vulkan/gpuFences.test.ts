/**
 * A Vulkan capture with `gpu` records: only they say which frames the GPU finished, from the first frame on, as
 * in the D3D12 replay. §7.2: 「当某个fence被vkWaitForFences等待完成后，释放队列里所有"在第N帧提交"的资源就可以安全
 * 销毁了」; §7.3: 「确保GPU读完了才能覆盖」. Frames-in-flight counting (frame n − 2 done when frame n begins) is for
 * captures without them.
 */
import { describe, expect, it } from 'vitest'
import { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanCaptureRecord } from '../../../../../src/main/model/vulkan/captureTypes'
import {
  VulkanReplay,
  vulkanConfigOf,
  vulkanSeriesName as vk,
} from '../../../../../src/main/analysis/vulkan/replay'
import { runCheck } from '../../../../../src/main/cli/check'
import { recorder, testConfig, testDevice } from './helpers'
import { header, storeOf } from '../../analysis/vulkan/helpers'

const req = (size: number, alignment: number, memoryTypeBits = 0xf) => ({ size, alignment, memoryTypeBits })

function fenced(records: VulkanCaptureRecord[], device = testDevice()) {
  const rec = recorder()
  const model = new VulkanModel(device, testConfig(), rec.sink, { gpuRecords: true })
  for (const r of records) model.apply(r)
  return { model, ...rec }
}

describe('a Vulkan capture with gpu records', () => {
  it('keeps a release pending until the gpu record of its frame, not framesInFlight frames later', () => {
    const { model, events } = fenced([
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 4096, memoryRequirements: req(4096, 256) },
      { e: 'release', id: 1 },
      { e: 'frame', n: 1 },
      { e: 'frame', n: 2 }, // frames in flight would complete frame 0 here
    ])
    expect(model.pendingFreeBytes).toBe(4096)
    model.apply({ e: 'gpu', n: 0 })
    expect(model.pendingFreeBytes).toBe(0)
    expect(events.slice(-2)).toEqual(['f0 pending 1', 'f2 freed 1'])
  })

  it("does not reset frame 0's linear block at frame 2 while the GPU may still read it", () => {
    // Each frame bumps 10 pieces of roundUp(1000, 256) = 1024 bytes: 10240 in its own 64 KiB block.
    const up: VulkanCaptureRecord = { e: 'upload', via: 'fastConstant', bytes: 10000, count: 10 }
    const { model } = fenced([{ e: 'frame', n: 0 }, up, { e: 'frame', n: 1 }, up, { e: 'frame', n: 2 }, up])
    // No gpu record yet: frames 0, 1 and 2 are all in flight, three blocks of 10240 bytes each.
    expect(model.memoryObjects().map((m) => [m.kind, m.usedBytes])).toEqual([
      ['linear', 10240],
      ['linear', 10240],
      ['linear', 10240],
    ])
    model.apply({ e: 'gpu', n: 0 }) // frame 0 done: its block is reset
    expect(model.typeUsed[1]).toBe(20480)
  })

  it('does not reuse the staging ring before the fence of the frame that filled it', () => {
    const { model, warnings } = fenced([
      { e: 'frame', n: 0 },
      { e: 'lock', id: 1, bytes: 40000 }, // ring [0, 40000)
      { e: 'frame', n: 1 },
      { e: 'frame', n: 2 },
      // 40000 + 30000 > 65536 and wrapping needs frame 0's bytes: no gpu record has said it is done
      { e: 'upload', via: 'staging', bytes: 30000 },
    ])
    expect(warnings.map((w) => w.kind)).toEqual(['staging-ring-full'])
    expect(model.memoryObjects().map((m) => [m.kind, m.usedBytes])).toEqual([
      ['staging', 40000],
      ['dedicated', 30000],
    ])
  })

  it('counts memory still waiting for its fence against maxMemoryAllocationCount', () => {
    const mk = (id: number): VulkanCaptureRecord => ({
      e: 'buffer',
      id,
      size: 1024,
      memoryRequirements: req(1024, 256),
      dedicated: 'required',
    })
    // 1 released at frame 0 is still allocated at frame 2: 1, 2 and 3 are three live allocations, over 2.
    const { warnings } = fenced(
      [{ e: 'frame', n: 0 }, mk(1), mk(2), { e: 'release', id: 1 }, { e: 'frame', n: 2 }, mk(3)],
      testDevice({ maxMemoryAllocationCount: 2 }),
    )
    expect(warnings).toEqual([
      {
        kind: 'alloc-count-exceeded',
        message: 'vkAllocateMemory of 1024 bytes (dedicated, type 0) at frame 2: 3 live allocations, over maxMemoryAllocationCount 2',
        frame: 2,
      },
    ])
  })

  it('is what the replay and check do when the store has gpu records', async () => {
    const records = [
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 4096, memoryRequirements: req(4096, 256) },
      { e: 'release', id: 1 },
      { e: 'frame', n: 1 },
      { e: 'frame', n: 2 },
      { e: 'frame', n: 3 },
      { e: 'gpu', n: 0 },
      { e: 'frame', n: 4 },
    ]
    const store = storeOf(header(), records)
    expect(store.hasGpuRecords).toBe(true)
    const replay = await VulkanReplay.run(store, { config: vulkanConfigOf(store.header) })
    // The gpu record of frame 0 comes in frame 3: frames 0 to 2 end with the 4096 bytes still pending.
    expect(Array.from(replay.series.get(vk.heap(0, 'pendingFreeBytes')) ?? [])).toEqual([4096, 4096, 4096, 0, 0])
    const device = testDevice({ maxMemoryAllocationCount: 2 })
    const dedicated = (id: number) => ({ e: 'buffer' as const, id, size: 1024, memoryRequirements: req(1024, 256), dedicated: 'required' as const })
    const check = await runCheck(
      [{ e: 'frame', n: 0 }, dedicated(1), dedicated(2), { e: 'release', id: 1 }, { e: 'frame', n: 2 }, dedicated(3)],
      { ...header(), vulkan: device },
      { gpuRecords: true },
    )
    expect(check.warnings).toEqual({ 'alloc-count-exceeded': 1 })
  })
})
