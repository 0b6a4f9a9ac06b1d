/**
 * The observed backend: a trace of what an allocator or a driver did (RMV, GPGMM's own heaps, a VMA or D3D12MA
 * dump, an Unreal Insights .utrace; capture header `observed`, format 1.5) shown as it happened, with no model. It
 * has no config, so no what-if is offered; residency is the trace's own. It comes first in the list: an observed
 * capture never reaches a model's backend.
 */
import type { CaptureHeader } from '../../../shared/capture'
import type { CaptureStore } from '../../ingest/store'
import type { Backend, BackendReplayOptions, BackendRun, ReplayStart } from '../backend'
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
export class ObservedBackendRun implements BackendRun {
  snapshots: ObservedSnapshots
  /** No model runs: no config values. */
  readonly config = undefined

  constructor(readonly replay: ObservedReplay) {
    this.snapshots = new ObservedSnapshots(replay)
  }

  get store(): CaptureStore {
    return this.replay.store
  }

  get series() {
    return this.replay.series
  }

  get checks() {
    return this.replay.checks
  }

  get residency() {
    return this.replay.residencyEvents
  }

  playback: BackendRun['playback'] = (request, onFrame, ended) => new ObservedPlayback(this.replay, this.snapshots, request, onFrame, ended)

  report: BackendRun['report'] = (result) => buildObservedReport(result, this.replay)

  resourceRows(): ResourceRows {
    return observedResourceRows(this.replay)
  }

  grown(): void {
    this.snapshots = new ObservedSnapshots(this.replay)
  }

  warm(frame: number): void {
    this.snapshots.warm(frame)
  }
}
