import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Checkpoints, type Checkpoint } from '../../../../src/main/analysis/checkpoints'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { VulkanReplay, vulkanConfigOf } from '../../../../src/main/analysis/vulkan/replay'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import type { CaptureStore } from '../../../../src/main/ingest/store'
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
    // Spaced up front or thinned: a third as many at most (10 of 30), at least four times as far apart.
    expect(kept.count).toBeLessThanOrEqual(Math.ceil(all.count / 3))
    expect(kept.maxRecords).toBeGreaterThanOrEqual(4 * 100)
    for (const frame of [0, 30, 77, 119]) {
      const a = new VulkanSnapshots(dense).snapshot('run', frame)
      const b = new VulkanSnapshots(thin).snapshot('run', frame)
      expect(b).toEqual(a)
    }
  })

  it('are spaced up front from what the last ones hold, so that a steady capture fits its budget without a thinning', () => {
    // 1 000 000 records, a frame every 100; a whole copy of 8 MiB starts each chain, chained ones hold 1 MiB.
    const MiB = 2 ** 20
    const frames = 10_000
    const store = { records: { length: 100 * frames }, frames: { firstRecord: Float64Array.from({ length: frames }, (_, f) => 100 * f) } }
    const run = (checkpointBytes: number) => {
      const checkpoints = new Checkpoints<null>(store as unknown as CaptureStore, { checkpointRecords: 10_000, checkpointBytes })
      let absorbed = 0
      let made = 0
      for (let frame = 0; frame < frames; frame++) {
        if (!checkpoints.due(100 * frame)) continue
        const whole = checkpoints.wholeDue()
        const cp: Checkpoint<null> = {
          frame,
          model: null,
          bytes: whole ? 8 * MiB : MiB,
          liveIds: new Float64Array(0),
          liveRecords: new Float64Array(0),
          chain: {
            whole: () => whole,
            absorbPrevious: () => {
              absorbed++
              return 2 * MiB
            },
          },
        }
        made++
        checkpoints.add(cp)
      }
      return { ...checkpoints.stats(), absorbed, made }
    }
    // Room for all 100 at 10 000 records apart: kept as asked.
    expect(run(200 * MiB)).toMatchObject({ count: 100, maxRecords: 10_000, absorbed: 0, made: 100 })
    // Room for 56 chained ones after the whole copy: at the second checkpoint (9 MiB held, 990 000 records left)
    // the plan counts each to come at 1 MiB × 9/8 (a whole copy's share) × PLAN_MARGIN 1.1 = 1.2375 MiB, so
    // 990 000 × 1.2375 / 55 = 22 275 records apart: at frame boundaries 22 300, 44 more checkpoints after the
    // second (the last at record 10 000 + 44 × 22 300 = 991 200), 8 + 45 × 1 = 53 MiB in all. Nothing made is
    // thrown away.
    expect(run(64 * MiB)).toMatchObject({ count: 46, maxRecords: 22_300, bytes: 53 * MiB, absorbed: 0, made: 46 })
    // A budget the plan cannot meet (the whole copy alone fills it) still thins.
    expect(run(10 * MiB).absorbed).toBeGreaterThan(0)
  })
})
