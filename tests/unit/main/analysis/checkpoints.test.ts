import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { VulkanReplay, vulkanConfigOf } from '../../../../src/main/analysis/vulkan/replay'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { resolveConfig } from '../../../../src/shared/model'

const CAPTURE = join(__dirname, '__golden__', 'deferred-60.hscap.gz')
const VULKAN_CAPTURE = join(__dirname, '__golden__', 'vulkan-120.hscap.gz')

describe('checkpoints', () => {
  it('are thinned to every other one, twice as far apart, when they outgrow their budget; snapshots stay the same', async () => {
    const { store } = await loadCaptureFile(CAPTURE)
    const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
    const dense = await Replay.run(store, { config, checkpointRecords: 300, checkpointBytes: Number.POSITIVE_INFINITY })
    const all = dense.checkpointStats()
    // 19 779 records in 60 frames, a checkpoint at the first frame boundary 300 records on: dozens of them.
    expect(all.count).toBeGreaterThan(20)
    expect(all.bytes).toBeGreaterThan(0)
    // A budget of a quarter of what they hold: halved at least twice.
    const thin = await Replay.run(store, { config, checkpointRecords: 300, checkpointBytes: all.bytes / 4 })
    const kept = thin.checkpointStats()
    expect(kept.bytes).toBeLessThanOrEqual(all.bytes / 4)
    expect(kept.count).toBeLessThanOrEqual(Math.ceil(all.count / 4) + 1)
    expect(kept.maxRecords).toBeGreaterThanOrEqual(4 * 300)
    for (const frame of [0, 7, 30, 59]) {
      const a = dense.modelAt(frame).model
      const b = thin.modelAt(frame).model
      expect(b.liveTable()).toEqual(a.liveTable())
      expect(b.poolBlocks()).toEqual(a.poolBlocks())
      expect(Array.from(b.totals.byRow)).toEqual(Array.from(a.totals.byRow))
      expect(b.residencyManager().totals()).toEqual(a.residencyManager().totals())
    }
  })

  it('of a Vulkan replay keep to the same budget, thinned the same way; snapshots stay the same', async () => {
    const { store } = await loadCaptureFile(VULKAN_CAPTURE)
    const config = vulkanConfigOf(store.header)
    const dense = await VulkanReplay.run(store, { config, checkpointRecords: 100, checkpointBytes: Number.POSITIVE_INFINITY })
    const all = dense.checkpointStats()
    // 3 479 records in 120 frames, a checkpoint at the first frame boundary 100 records on
    expect(all.count).toBeGreaterThan(20)
    expect(all.bytes).toBeGreaterThan(0)
    const thin = await VulkanReplay.run(store, { config, checkpointRecords: 100, checkpointBytes: all.bytes / 4 })
    const kept = thin.checkpointStats()
    expect(kept.bytes).toBeLessThanOrEqual(all.bytes / 4)
    expect(kept.count).toBeLessThanOrEqual(Math.ceil(all.count / 4) + 1)
    expect(kept.maxRecords).toBeGreaterThanOrEqual(4 * 100)
    for (const frame of [0, 30, 77, 119]) {
      const a = new VulkanSnapshots(dense).snapshot('run', frame)
      const b = new VulkanSnapshots(thin).snapshot('run', frame)
      expect(b).toEqual(a)
    }
  })
})
