/**
 * The D3D12 backend: a capture's requests replayed through the UE 5.8 D3D12 allocator model (docs/model.md). It
 * takes every capture no backend before it in the list took, so it stays last.
 */
import { CONFIG_KEY_NAMES, CONFIG_KEYS, parseConfigPairs, resolveConfig } from '../../../shared/model'
import type { TextureDesc } from '../../../shared/capture'
import type { Bytes } from '../../../shared/units'
import { recordAt } from '../../ingest/records'
import type { CaptureStore } from '../../ingest/store'
import { decideTexture, newGeometry, newTextureDecision, readGeometry } from '../../model/d3d12/texture'
import { ReplayRun, reportOnly, type Backend, type BackendReplayOptions, type BackendRun, type ReplayStart } from '../backend'
import { ONLY_FIRST_CHECKPOINT } from '../checkpoints'
import type { ResourceRows } from '../resourceRows'
import type { ModelWalk } from '../search'
import { Playback } from './playback'
import { Replay } from './replay'
import { buildRunReport, reportReads } from './report'
import { d3d12ResourceRows } from './resourceRows'
import { Snapshots } from './snapshot'

export const d3d12Backend: Backend<'d3d12', D3D12BackendRun> = {
  id: 'd3d12',
  label: 'D3D12',
  modelName: 'UE 5.8 D3D12',
  accepts: () => true,
  config: {
    names: CONFIG_KEY_NAMES,
    keys: CONFIG_KEYS,
    resolve: (header, overrides) => resolveConfig(header.config, overrides),
    pairs: parseConfigPairs,
  },
  replay(store: CaptureStore, options: BackendReplayOptions = {}): ReplayStart<D3D12BackendRun> {
    const config = resolveConfig(store.header.config, options.overrides ?? {})
    const { gate } = options
    const spacing = options.checkpoints === false ? ONLY_FIRST_CHECKPOINT : {}
    const { replay, done } = Replay.start(store, {
      config,
      signal: options.signal,
      onProgress: options.onProgress,
      gate,
      residencyEvents: options.residencyEvents,
      keepSeries: options.series === 'report' ? reportReads : undefined,
      reportOnly: reportOnly(options),
      ...spacing,
    })
    return { run: new D3D12BackendRun(replay), done }
  },
}

/** A D3D12 replay as a run: the replay checks the placed resources frame by frame as it goes. */
export class D3D12BackendRun extends ReplayRun<Replay, Snapshots> implements BackendRun {
  readonly transients = true as const

  protected snapshotsOf(replay: Replay): Snapshots {
    return new Snapshots(replay)
  }

  get config() {
    return this.replay.config
  }

  get residency() {
    return this.replay.residencyEvents
  }

  readonly walk: ModelWalk = (from, to, visit) => this.replay.walk(from, to, visit)

  estimatedRequest(record: number): Bytes | null {
    const desc = recordAt(this.store, record) as TextureDesc
    const decision = newTextureDecision()
    decideTexture(readGeometry(desc, newGeometry()), this.replay.config, null, decision)
    return decision.estimated ? decision.requested : null
  }

  resourceRows(): ResourceRows {
    return d3d12ResourceRows(this.store, this.replay.config)
  }

  playback: BackendRun['playback'] = (request, onFrame, ended) => new Playback(this.replay, request, onFrame, ended)

  report: BackendRun['report'] = (result) => buildRunReport(result, this.replay)

}
