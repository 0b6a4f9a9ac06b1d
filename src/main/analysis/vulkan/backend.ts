/**
 * The Vulkan backend: a Vulkan capture's requests (or a VMA dump's) replayed through the Vulkan allocator model
 * (docs/model.md), on the device its header describes. Its checks run inline with the replay.
 */
import type { CaptureHeader } from '../../../shared/capture'
import { VULKAN_CONFIG_KEY_NAMES, VULKAN_CONFIG_KEYS } from '../../model/vulkan/config'
import type { CaptureStore } from '../../ingest/store'
import { ConfigError } from '../../../shared/model'
import { ReplayRun, reportOnly, type Backend, type BackendReplayOptions, type BackendRun, type ConfigOverrides, type ReplayStart } from '../backend'
import { ONLY_FIRST_CHECKPOINT } from '../checkpoints'
import type { ResourceRows } from '../resourceRows'
import { VulkanPlayback } from './playback'
import { isVulkanRun, VulkanReplay, vulkanConfigOf } from './replay'
import { buildVulkanRunReport, vulkanReportReads } from './report'
import { vulkanResourceRows } from './resourceRows'
import { VulkanSnapshots } from './snapshot'

/** `--config` pairs as given: the Vulkan config skips D3D12 keys among them, and throws on unknown ones. */
function overridesOf(pairs: readonly string[]): ConfigOverrides {
  const overrides: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new ConfigError(`--config expects KEY=VALUE, got "${pair}"`)
    overrides[pair.slice(0, eq).trim()] = pair.slice(eq + 1)
  }
  return overrides
}

export const vulkanBackend: Backend<'vulkan', VulkanBackendRun> = {
  id: 'vulkan',
  label: 'Vulkan',
  modelName: 'Vulkan',
  accepts: (header: CaptureHeader) => isVulkanRun(header),
  config: {
    names: VULKAN_CONFIG_KEY_NAMES,
    keys: VULKAN_CONFIG_KEYS,
    resolve: (header, overrides) => vulkanConfigOf(header, overrides),
    pairs: overridesOf,
  },
  replay(store: CaptureStore, options: BackendReplayOptions = {}): ReplayStart<VulkanBackendRun> {
    const config = vulkanConfigOf(store.header, options.overrides ?? {})
    const spacing = options.checkpoints === false ? ONLY_FIRST_CHECKPOINT : {}
    const { replay, done } = VulkanReplay.start(store, {
      config,
      signal: options.signal,
      onProgress: options.onProgress,
      gate: options.gate,
      keepSeries: options.series === 'report' ? vulkanReportReads : undefined,
      reportOnly: reportOnly(options),
      ...spacing,
    })
    return { run: new VulkanBackendRun(replay), done }
  },
}

/** A Vulkan replay as a run: no residency events (Vulkan leaves residency to the driver), no transients. */
export class VulkanBackendRun extends ReplayRun<VulkanReplay, VulkanSnapshots> implements BackendRun {
  protected snapshotsOf(replay: VulkanReplay): VulkanSnapshots {
    return new VulkanSnapshots(replay)
  }

  get config() {
    return this.replay.config
  }

  extras: BackendRun['extras'] = () => ({ vulkan: this.replay.info() })

  playback: BackendRun['playback'] = (request, onFrame, ended) =>
    new VulkanPlayback(this.replay, this.snapshots, request, onFrame, ended)

  report: BackendRun['report'] = (result) => buildVulkanRunReport(result, this.replay)

  resourceRows(): ResourceRows {
    return vulkanResourceRows(this.store, this.replay)
  }

}
