/**
 * A backend: what turns a loaded capture store into a run, for one kind of source. The D3D12 and Vulkan backends
 * replay a capture's requests through an allocator model; an observed trace (what a driver or an allocator did)
 * is shown as it happened. The engine, the CLI and the history never test the API: they ask the list of backends
 * (backends.ts) which one takes a capture, and speak to the run it gives through this interface.
 *
 * A capability a backend lacks is absent (no residency events, no transients, no config where no model runs, so
 * no what-if), never an empty or zero-filled stand-in.
 */
import type {
  ConfigEntry,
  PlaybackFrame,
  PlaybackRequest,
  ResourceDetails,
  ResourcePage,
  ResourceQuery,
  RunCapabilities,
  RunReport,
  RunSummary,
  Snapshot,
  TransientExecution,
} from '../../shared/ipc'
import type { ConfigKeyInfo } from '../../shared/model'
import type { Bytes } from '../../shared/units'
import type { CaptureHeader } from '../../shared/capture'
import type { LoadResult } from '../ingest/read'
import type { CaptureStore } from '../ingest/store'
import type { ResourceTable } from './resourceTable'
import type { HazardLog } from './hazards'
import type { ResidencyEvents } from './residencyEvents'
import type { ResourceRows } from './resourceRows'
import type { ModelWalk } from './search'
import type { SeriesTable } from './seriesTable'

export interface ReplayProgress {
  framesDone: number
  frames: number
}

/**
 * A capture still being written (followed live). The replay goes through the frames the store holds, then waits
 * here for more with its model, series and checkpoints as they are, and goes on from there: a capture that grows
 * is replayed once, as a loaded one is.
 */
export interface FrameGate {
  /**
   * Called by a replay that has replayed `done` frames and found no more: resolves with the store's frame count
   * once it holds more than `done`, or once the capture has ended (then `ended` is true, and the count is the
   * store's final one, which may be `done`).
   */
  wait(done: number): Promise<number>
  readonly ended: boolean
}

/** Config overrides as the app and the CLI give them: key to value, before the backend's resolver reads them. */
export type ConfigOverrides = Record<string, string | number | boolean>

/** The config of a backend whose replay runs a model: its keys, and how a run's values are resolved. */
export interface BackendConfig {
  /** The keys in the order they are shown (the what-if view, `runConfig`). */
  names: readonly string[]
  keys: Readonly<Record<string, ConfigKeyInfo>>
  /**
   * The values a run replays with: the defaults, then the capture header's config, then the overrides. An unknown
   * key or a bad value throws ConfigError.
   */
  resolve(header: CaptureHeader, overrides: ConfigOverrides): Record<string, number>
  /** `--config KEY=VALUE` pairs as overrides; a malformed pair throws ConfigError. */
  pairs(pairs: readonly string[]): ConfigOverrides
}

export interface BackendReplayOptions {
  /** The user's overrides on top of the capture's config (ignored where the backend has no config). */
  overrides?: ConfigOverrides
  signal?: AbortSignal
  onProgress?: (progress: ReplayProgress) => void
  /**
   * The capture is still being written (a followed capture): the store grows, and the replay waits at this gate
   * for more frames until it ends.
   */
  gate?: FrameGate
  /**
   * false: keep no checkpoint past the first (the empty model at frame 0), for a replay that only reports its
   * whole-capture figures (`report`, `diff`, `history add`, `export`): the same figures, without the copies. A
   * snapshot of such a run is still exact, replayed from the start.
   */
  checkpoints?: boolean
  /**
   * false: count the residency events without keeping a row of each, for a replay read only for its report
   * (`report`): the same figures; its `residency` holds no rows (ResidencyEvents.keepRows).
   */
  residencyEvents?: boolean
  /**
   * 'report': keep only the series the run's report reads (SeriesTableOptions.keep), for a replay read only for its
   * report (`report`): the same figures; its `series` holds those alone. Default 'all'. With `checkpoints: false`
   * too, the replay skips what feeds nothing its report reads (reportOnly).
   */
  series?: 'all' | 'report'
}

/** Whether a replay is read for its report alone, with no checkpoint past the first (BackendReplayOptions.series). */
export function reportOnly(options: BackendReplayOptions): boolean {
  return options.series === 'report' && options.checkpoints === false
}

/** A replay begun: the run at once (it answers for the frames replayed so far), and the end of its replay. */
export interface ReplayStart<Run extends BackendRun = BackendRun> {
  run: Run
  /** Resolves when every frame the store holds (or the gate offered, until it ended) has been replayed. */
  done: Promise<void>
}

/** A run's live resources, snapshots and inspector at any frame index, over checkpoints and a cache. */
export interface BackendSnapshots {
  /** `blocks` false: the pools' blocks may be left out (Snapshot.blocksLeftOut says whether they were). */
  snapshot(runId: string, frame: number, blocks?: boolean): Snapshot
  resources(query: ResourceQuery): ResourcePage
  details(runId: string, frame: number, id: number): ResourceDetails | null
  /** The render-graph executions of a frame (empty where it ran none): only where the backend has transients. */
  transients?(frame: number): TransientExecution[]
  /** The live resources at a frame index, as columns. */
  table(frame: number): ResourceTable
  /** The frame index a query for `frame` answers for (clamped to the run's frames). */
  state(frame: number): { frame: number }
  /** Build (and cache) the snapshot of a frame index ahead of being asked for it. */
  warm(frame: number): void
}

/** A playback under way: frames sent at the requested rate, held back until the last one is acknowledged. */
export interface RunPlayback {
  start(): void
  stop(): void
  ack(frame: number): void
}

/** What a backend's replay gives: everything the engine and the CLI ask of one run. */
export interface BackendRun {
  readonly store: CaptureStore
  /** The config values the replay used (absent where no model runs). */
  readonly config?: Readonly<Record<string, number>>
  /** The per-frame series. */
  readonly series: SeriesTable
  /** What `heapscope check` finds, frame by frame: every backend's hazards and warnings in one log. */
  readonly checks: HazardLog
  /** Snapshots at any frame: remade by `grown` as a followed capture grows. */
  readonly snapshots: BackendSnapshots
  playback(request: PlaybackRequest, onFrame: (frame: PlaybackFrame) => void, ended: () => void): RunPlayback
  /** `heapscope report --json`'s figures. */
  report(result: LoadResult): RunReport
  /** More frames were replayed (or the capture ended): checks and snapshots catch up with the replay. */
  grown(): void
  /** Build the snapshot of a frame index ahead of its first query (after a large load). */
  warm(frame: number): void

  // optional capabilities: absent where the backend has none

  /** Residency events (make resident, evict, over budget), in frame order. */
  readonly residency?: ResidencyEvents
  /** The backend models render-graph transients (the transients view, `transients` answers). */
  readonly transients?: true
  /** What the run's summary shows beyond the common fields (a Vulkan run's device: `vulkan`). */
  extras?(): Partial<RunSummary>
  /** The model after each frame, for a resource's history in search answers. */
  readonly walk?: ModelWalk
  /**
   * The bytes the model estimates a texture's create record asks for, where its desc gives no size (search rows);
   * null where it gives none either.
   */
  estimatedRequest?(record: number): Bytes | null
  /** Every resource the run created, placed again, as the history's Parquet export keeps them. */
  resourceRows?(): ResourceRows
}

/** What a backend's run reads from its replay. */
export interface RunReplay {
  readonly store: CaptureStore
  readonly series: SeriesTable
  readonly checks: HazardLog
}

/**
 * The part of a run every backend shares: its store, series and checks are its replay's, and its snapshots are
 * made again as a followed capture grows. A backend's run adds what it shows and what it can.
 */
export abstract class ReplayRun<Replay extends RunReplay, Snapshots extends BackendSnapshots> {
  snapshots: Snapshots

  constructor(readonly replay: Replay) {
    this.snapshots = this.snapshotsOf(replay)
  }

  /** Fresh snapshots over the replay as it stands. */
  protected abstract snapshotsOf(replay: Replay): Snapshots

  get store(): CaptureStore {
    return this.replay.store
  }

  get series(): SeriesTable {
    return this.replay.series
  }

  get checks(): HazardLog {
    return this.replay.checks
  }

  grown(): void {
    this.snapshots = this.snapshotsOf(this.replay)
  }

  warm(frame: number): void {
    this.snapshots.warm(frame)
  }
}

/** A backend, typed by its id and the run its replay gives (the engine's runs are told apart by them). */
export interface Backend<Id extends string = string, Run extends BackendRun = BackendRun> {
  /** The backend's name, as RunSummary.backend gives it: 'd3d12', 'vulkan', 'observed'. */
  readonly id: Id
  /** Its name in messages ('D3D12', 'Vulkan'); the id where absent. */
  readonly label?: string
  /**
   * The model its replay places requests through, as the app names it ('UE 5.8 D3D12', 'Vulkan': "modelled by the
   * UE 5.8 D3D12 model"); absent where no model runs. RunSummary.modelName.
   */
  readonly modelName?: string
  /**
   * Whether this backend replays a capture with this header (the store as it is when the replay starts: a followed
   * capture's holds its first frames). The list asks each in order; the first that accepts replays it.
   */
  accepts(header: CaptureHeader, store?: CaptureStore): boolean
  /** The config keys and their resolver; absent where no model runs (no what-if is offered). */
  readonly config?: BackendConfig
  /** Replay a store. A config override the backend does not know throws ConfigError before the replay starts. */
  replay(store: CaptureStore, options?: BackendReplayOptions): ReplayStart<Run>
}

/** The capabilities a run shows (RunSummary.capabilities): each present only where the backend has it. */
export function capabilitiesOf(backend: Backend, run: BackendRun): RunCapabilities {
  return {
    ...(backend.config ? { whatIf: true as const } : {}),
    ...(run.residency ? { residency: true as const } : {}),
    ...(run.transients ? { transients: true as const } : {}),
  }
}

/** Each config key of a backend: its default, the capture's value where it sets one, and the value the run used. */
export function configEntries(config: BackendConfig, header: CaptureHeader, values: Readonly<Record<string, number>>): ConfigEntry[] {
  const captured = (header.config ?? {}) as Record<string, unknown>
  return config.names.map((key) => {
    const info = config.keys[key]
    const capture = typeof captured[key] === 'number' ? (captured[key] as number) : undefined
    return {
      key,
      default: info.default,
      ...(capture === undefined ? {} : { capture }),
      value: values[key],
      kind: info.kind,
      seed: info.seed,
      help: info.help,
      ...('values' in info ? { values: info.values } : {}),
    }
  })
}
