/**
 * A replay for figures alone (`report`, `diff`, `history add`, `export`) keeps no checkpoints: its report must be
 * the one a replay with dense checkpoints gives, byte for byte, on a D3D12 capture, a leaking over-budget stress
 * capture and a Vulkan capture; a snapshot of it is still exact, replayed from the start.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BackendRun } from '../../../../src/main/analysis/backend'
import type { D3D12BackendRun } from '../../../../src/main/analysis/d3d12/backend'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../../../../src/main/analysis/d3d12/report'
import { replayCapture } from '../../../../src/main/analysis/run'
import { VulkanReplay } from '../../../../src/main/analysis/vulkan/replay'
import { buildVulkanRunReport } from '../../../../src/main/analysis/vulkan/report'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import type { VulkanBackendRun } from '../../../../src/main/analysis/vulkan/backend'
import { loadCaptureFile, type LoadResult } from '../../../../src/main/ingest/read'
import { generatedStore, loaded } from './vulkan/helpers'

const CAPTURE = join(__dirname, '__golden__', 'deferred-60.hscap.gz')
const VULKAN_CAPTURE = join(__dirname, '__golden__', 'vulkan-120.hscap.gz')

/** The checkpoints a run's replay holds (both backends' runs keep their replay as `replay`). */
function checkpointsOf(run: BackendRun): number {
  return (run as unknown as { replay: { checkpointStats(): { count: number } } }).replay.checkpointStats().count
}

/** The D3D12 replay of a capture with a checkpoint every `every` records, and one without checkpoints. */
async function d3d12BothWays(result: LoadResult, every: number) {
  const none = await replayCapture(result, [], { checkpoints: false })
  expect(none.backend.id).toBe('d3d12')
  const config = (none.replay as D3D12BackendRun).config
  const dense = await Replay.run(result.store, { config, checkpointRecords: every, checkpointBytes: Number.POSITIVE_INFINITY })
  return { none, noneReplay: (none.replay as D3D12BackendRun).replay, dense }
}

describe('a replay without checkpoints', () => {
  it('reports a D3D12 capture byte for byte as a replay with dense checkpoints, holding one', async () => {
    const result = await loadCaptureFile(CAPTURE)
    const { none, dense } = await d3d12BothWays(result, 300)
    expect(dense.checkpointStats().count).toBeGreaterThan(20)
    expect(checkpointsOf(none.replay)).toBe(1)
    expect(JSON.stringify(none.report)).toBe(JSON.stringify(buildRunReport(result, dense)))
    // the CLI's path: the replay with default spacing reports the same too
    const kept = await replayCapture(result, [])
    expect(JSON.stringify(none.report)).toBe(JSON.stringify(kept.report))
  })

  it('reports a generated stress capture byte for byte as one with checkpoints, and its snapshots are the same', async () => {
    const result = loaded(await generatedStore('stress', 120, 3))
    expect(result.store.records.length).toBeGreaterThan(10_000)
    const { none, noneReplay, dense } = await d3d12BothWays(result, 2_000)
    expect(dense.checkpointStats().count).toBeGreaterThan(4)
    expect(checkpointsOf(none.replay)).toBe(1)
    expect(JSON.stringify(none.report)).toBe(JSON.stringify(buildRunReport(result, dense)))
    for (const frame of [0, 57, 119]) {
      const a = dense.modelAt(frame).model
      const b = noneReplay.modelAt(frame).model
      expect(b.liveTable()).toEqual(a.liveTable())
      expect(b.poolBlocks()).toEqual(a.poolBlocks())
    }
  })

  it('reports a Vulkan capture byte for byte as a replay with dense checkpoints', async () => {
    const result = await loadCaptureFile(VULKAN_CAPTURE)
    const none = await replayCapture(result, [], { checkpoints: false })
    expect(none.backend.id).toBe('vulkan')
    const run = none.replay as VulkanBackendRun
    const dense = await VulkanReplay.run(result.store, { config: run.config, checkpointRecords: 100, checkpointBytes: Number.POSITIVE_INFINITY })
    expect(dense.checkpointStats().count).toBeGreaterThan(20)
    expect(checkpointsOf(run)).toBe(1)
    expect(JSON.stringify(none.report)).toBe(JSON.stringify(buildVulkanRunReport(result, dense)))
    expect(none.snapshots.snapshot('run', 77)).toEqual(new VulkanSnapshots(dense).snapshot('run', 77))
  })
})
