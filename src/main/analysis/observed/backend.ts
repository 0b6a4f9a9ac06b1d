/**
 * The observed backend: a trace of what an allocator or a driver did (RMV, GPGMM's own heaps, a VMA or D3D12MA
 * dump, an Unreal Insights .utrace; capture header `observed`, format 1.5) shown as it happened, with no model. It
 * has no config, so no what-if is offered; residency is the trace's own. It comes first in the list: an observed
 * capture never reaches a model's backend.
 */
import type { CaptureHeader } from '../../../shared/capture'
import type { CaptureStore } from '../../ingest/store'
import { ReplayRun, type Backend, type BackendReplayOptions, type BackendRun, type ReplayStart } from '../backend'
import type { ResourceRows } from '../resourceRows'
import { ObservedPlayback } from './playback'
import { isObservedRun, ObservedReplay } from './replay'
import { observedResourceRows } from './resourceRows'
import { buildObservedReport } from './report'
import { ObservedSnapshots } from './snapshot'

export const observedBackend: Backend<'observed', ObservedBackendRun> = {
  id: 'observed',
  label: 'observed',
  accepts: (header: CaptureHeader) => isObservedRun(header),
  replay(store: CaptureStore, options: BackendReplayOptions = {}): ReplayStart<ObservedBackendRun> {
    // the trace's placements are checked as a capture's are, frame by frame as the replay goes
    const { replay, done } = ObservedReplay.start(store, { signal: options.signal, onProgress: options.onProgress, gate: options.gate })
    return { run: new ObservedBackendRun(replay), done }
  },
}

/** An observed replay as a run: the trace's residency events, no transients, no config. */
export class ObservedBackendRun extends ReplayRun<ObservedReplay, ObservedSnapshots> implements BackendRun {
  /** No model runs: no config values. */
  readonly config = undefined

  protected snapshotsOf(replay: ObservedReplay): ObservedSnapshots {
    return new ObservedSnapshots(replay)
  }

  get residency() {
    return this.replay.residencyEvents
  }

  playback: BackendRun['playback'] = (request, onFrame, ended) => new ObservedPlayback(this.replay, this.snapshots, request, onFrame, ended)

  report: BackendRun['report'] = (result) => buildObservedReport(result, this.replay)

  resourceRows(): ResourceRows {
    return observedResourceRows(this.replay)
  }

}
