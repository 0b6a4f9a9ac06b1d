/**
 * A whole replay of a loaded capture through the model of its API, with its snapshots and its report: what
 * `heapscope report`, `diff` and `history add` compute, so their figures are one computation. Bad `--config`
 * pairs throw ConfigError.
 */
import { ConfigError, parseConfigPairs, resolveConfig } from '../../shared/model'
import type { LoadResult } from '../ingest/read'
import { buildRunReport } from './d3d12/report'
import { Replay } from './d3d12/replay'
import { Snapshots } from './d3d12/snapshot'
import { isObservedRun, ObservedReplay } from './observed/replay'
import { buildObservedReport } from './observed/report'
import { ObservedSnapshots } from './observed/snapshot'
import { isVulkanRun, VulkanReplay, vulkanConfigOf } from './vulkan/replay'
import { buildVulkanRunReport } from './vulkan/report'
import { VulkanSnapshots } from './vulkan/snapshot'

/** A Vulkan capture's overrides: `--config` pairs as given (the Vulkan config skips D3D12 keys among them). */
function overridesOf(pairs: readonly string[]): Record<string, string> {
  const overrides: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new ConfigError(`--config expects KEY=VALUE, got "${pair}"`)
    overrides[pair.slice(0, eq).trim()] = pair.slice(eq + 1)
  }
  return overrides
}

export async function replayCapture(result: LoadResult, pairs: readonly string[]) {
  const header = result.store.header
  if (isObservedRun(header)) {
    // an observed trace runs no model: `--config` has nothing to change
    if (pairs.length > 0) throw new ConfigError(`--config: ${result.store.file} is an observed trace (${header.observed}); no model replays it`)
    const replay = await ObservedReplay.run(result.store)
    return { replay, snapshots: new ObservedSnapshots(replay), report: buildObservedReport(result, replay) }
  }
  if (isVulkanRun(header)) {
    const replay = await VulkanReplay.run(result.store, { config: vulkanConfigOf(header, overridesOf(pairs)) })
    return { replay, snapshots: new VulkanSnapshots(replay), report: buildVulkanRunReport(result, replay) }
  }
  const config = resolveConfig(header.config as Record<string, number> | undefined, parseConfigPairs(pairs))
  const replay = await Replay.run(result.store, { config })
  return { replay, snapshots: new Snapshots(replay), report: buildRunReport(result, replay) }
}

export type ReplayedCapture = Awaited<ReturnType<typeof replayCapture>>
