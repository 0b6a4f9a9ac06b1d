import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCheck } from '../../../../src/main/cli/check'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { recordAt, recordsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { VulkanReplay, vulkanConfigOf } from '../../../../src/main/analysis/vulkan/replay'
import { buildVulkanRunReport } from '../../../../src/main/analysis/vulkan/report'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import type { VulkanCaptureHeader } from '../../../../src/main/model/vulkan/captureTypes'

const FILE = join(__dirname, '../../../fixtures/real/h200-offscreen/h200-offscreen.hscap')

describe('a capture the Vulkan layer recorded on an NVIDIA H200', () => {
  it('reads without a warning, with the device as the driver reported it', async () => {
    const result = await loadCaptureFile(FILE)
    const header = result.store.header as VulkanCaptureHeader
    expect(result.error).toBeUndefined()
    expect(result.store.warnings.counts).toEqual({})
    expect(header.minor).toBe(3)
    expect(header.vulkan?.deviceName).toBe('NVIDIA H200')
    expect(header.vulkan?.memoryHeaps.map((h) => h.flags)).toEqual([['DEVICE_LOCAL'], []])
    expect(header.vulkan?.memoryTypes.map((t) => t.heapIndex)).toEqual([1, 0, 1, 1, 0])
    expect(header.vulkan?.bufferImageGranularity).toBe(1024)
    // submits as frames: 120 submits end 120 frames, and the records before the first are frame 0
    expect(result.store.frames.length).toBe(121)
    // VK_EXT_memory_budget at the start, and a budget record for a heap whenever its usage moved at a frame
    expect(header.vulkan?.memoryHeaps[0].budget).toBe(150056927232)
    expect(header.budget).toBe(150056927232)
    const budgets = []
    for (let i = 0; i < result.store.records.length; i++) if (result.store.records.kind[i] === RECORD_KIND.budget) budgets.push(recordAt(result.store, i))
    expect(budgets).toContainEqual({ e: 'budget', bytes: 101346653184, heap: 1, heapUsage: 8597504 })
    expect(budgets.length).toBeGreaterThanOrEqual(4)
  })

  it('replays to the bytes the program allocated', async () => {
    const result = await loadCaptureFile(FILE)
    const replay = await VulkanReplay.run(result.store, { config: vulkanConfigOf(result.store.header) })
    const report = buildVulkanRunReport(result, replay)
    // 128 KiB block (three buffers up to 81920 + 256, rounded to 64 KiB) + 256 KiB render target + 1 MiB staging
    expect(report.peak.bytes).toBe(131072 + 262144 + 1048576)
    // the render target in DEVICE_LOCAL type 1 (heap 0); the block and the staging memory in type 2 (heap 1)
    expect(report.heaps).toEqual({
      'Heap 0': { peakBytes: 262144, endBytes: 0 },
      'Heap 1': { peakBytes: 131072 + 1048576, endBytes: 0 },
    })
    expect(report.resources).toEqual({ created: 5, released: 5, named: 5, liveAtEnd: 0 })
    expect(report.vulkan).toMatchObject({
      allocations: 3,
      dedicatedAllocations: 1,
      binds: 5,
      bindsAtOffset: 2,
      sharedAllocations: 1,
      names: 7,
      stacks: 6,
      submits: 120,
    })
  })

  it('shows the name a resource had at each frame', async () => {
    const result = await loadCaptureFile(FILE)
    const replay = await VulkanReplay.run(result.store, { config: vulkanConfigOf(result.store.header) })
    const snapshots = new VulkanSnapshots(replay)
    const nameAt = (frame: number, id: number) => {
      const table = snapshots.table(frame)
      return table.text.name[table.id.indexOf(id)]
    }
    expect(nameAt(50, 7)).toBe('Upload.Staging')
    expect(nameAt(70, 7)).toBe('Upload.Staging.Retired')
    expect(nameAt(70, 1)).toBe('Mesh.VB')
    const pools = snapshots.snapshot('run', 70).pools.map((p) => p.name)
    expect(pools).toContain('BufferBlock')
  })

  it('has no hazard and breaks no rule', async () => {
    const result = await loadCaptureFile(FILE)
    const check = await runCheck(recordsOf(result.store), result.store.header)
    expect(check).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })
})
