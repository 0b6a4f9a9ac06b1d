/**
 * The engine: the only place that holds captures. It loads (from a file path or from chunks fed to it),
 * keeps each loaded run, and answers queries. `LocalEngine` runs in the calling thread (CLI, tests, and the
 * worker's own side); hosts use it through `WorkerEngine`, which runs it in a worker thread.
 */
import { open, rename, rm } from 'node:fs/promises'
import { basename } from 'node:path'
import type {
  CaptureImportOptions,
  CompareSeriesAnswer,
  CompareSeriesQuery,
  ConfigEntry,
  HazardsAnswer,
  HazardsQuery,
  HistoryInfo,
  HistoryTrend,
  HistoryTrendQuery,
  LeakAnswer,
  LeakQuery,
  LoadErrorInfo,
  LoadOutcome,
  LoadProgress,
  PlacementsAnswer,
  PlacementsQuery,
  SearchAnswer,
  SearchQuery,
  PlaybackFrame,
  PlaybackRequest,
  ResidencyEventsAnswer,
  ResidencyEventsQuery,
  ResourceDetails,
  ResourceDiffAnswer,
  ResourceDiffQuery,
  ResourcePage,
  ResourceQuery,
  RunReport,
  RunSummary,
  SeriesAnswer,
  SeriesQuery,
  Snapshot,
  SnapshotQuery,
  TransientAnswer,
  TransientQuery,
} from '../../shared/ipc'
import { partitionPoint } from '../../shared/search'
import { capabilitiesOf, configEntries, type Backend, type BackendRun, type RunPlayback } from '../analysis/backend'
import { GrowingStoreGate } from '../analysis/frameGate'
import { BACKENDS, backendFor } from '../analysis/backends'
import { compareSeries, leaks, resourceDiff } from '../analysis/compare'
import type { HazardLog } from '../analysis/hazards'
import { PlacementLayouts } from '../analysis/placements'
import { ResourceIndex, search } from '../analysis/search'
import { TOTAL_SERIES } from '../../shared/series'
import { ResidencyEvents } from '../analysis/residencyEvents'
import { leaveOutBlocks, WARM_RECORDS, WARM_SNAPSHOTS, warmFrame } from '../analysis/snapshotCache'
import { CancelledError, CaptureError } from '../ingest/errors'
import { ImportError, importOptionsOf, isTimedFormat } from '../ingest/importers'
import { loadCapture, loadCaptureFile, type LoadResult } from '../ingest/read'
import { captureBytes, writeCapture } from '../ingest/writer'
import type { CaptureStore } from '../ingest/store'
import { CaptureBuilder } from '../ingest/storeBuilder'
import { GrowingStore } from '../ingest/growing'
import { NdjsonScanner } from '../ingest/scanner'
import { FileTail, type TailOptions } from '../ingest/tail'
import { History } from '../history/db'

/** A capture another process is writing, read as it grows (`follow`). */
export interface FollowSource {
  path: string
  name?: string
}

export type LoadSource = (
  | { kind: 'file'; path: string; name?: string }
  /** Bytes arrive through `feed`; `bytes` is the total for progress. */
  | { kind: 'stream'; name: string; bytes: number }
) & {
  /** How an imported trace's time becomes frames; native captures ignore it. */
  import?: CaptureImportOptions
}

/** A run's capture written out: whole, or the frame index range [from, to); gzip-compressed when asked. */
export interface ExportOptions {
  from?: number
  to?: number
  gzip: boolean
}

/** Where an export goes: a file the user chose in a native dialog, or bytes handed back (a browser download). */
export type ExportTarget = { kind: 'file'; path: string } | { kind: 'bytes' }

export interface ExportResult {
  bytes: number
  /** The capture's bytes, for an export to `{ kind: 'bytes' }`. */
  data?: Uint8Array
}

export interface Engine {
  load(loadId: string, source: LoadSource, onProgress?: (progress: LoadProgress) => void): Promise<LoadOutcome>
  /** Give a stream load its next chunk, or null at the end. False when the load has already ended. */
  feed(loadId: string, chunk: Uint8Array | null): Promise<boolean>
  cancel(loadId: string): Promise<void>
  /**
   * Follow a capture being written: resolves once its first frames have been replayed (FOLLOW_FIRST_FRAMES, or the
   * capture ended before), with a run that then grows. Each time more frames have been replayed, `onProgress` gets a
   * `following` event with the run's summary; the last one (its summary no longer `live`) comes when following
   * ended and the run became a loaded run. The file need not exist yet.
   */
  follow(loadId: string, source: FollowSource, onProgress?: (progress: LoadProgress) => void): Promise<LoadOutcome>
  /** Stop following: what the file holds now is read, and the run becomes a loaded run. */
  endFollow(loadId: string): Promise<void>
  /** The capture of `runId` replayed under other config values, as a new run. */
  rerun(
    loadId: string,
    runId: string,
    config: Record<string, string | number | boolean>,
    onProgress?: (progress: LoadProgress) => void,
  ): Promise<LoadOutcome>
  close(runId: string): Promise<void>
  summary(runId: string): Promise<RunSummary>
  runConfig(runId: string): Promise<ConfigEntry[]>
  report(runId: string): Promise<RunReport>
  series(query: SeriesQuery): Promise<SeriesAnswer>
  snapshot(query: SnapshotQuery): Promise<Snapshot>
  resources(query: ResourceQuery): Promise<ResourcePage>
  resource(query: { runId: string; frame: number; id: number }): Promise<ResourceDetails | null>
  transients(query: TransientQuery): Promise<TransientAnswer>
  residencyEvents(query: ResidencyEventsQuery): Promise<ResidencyEventsAnswer>
  compareSeries(query: CompareSeriesQuery): Promise<CompareSeriesAnswer>
  resourceDiff(query: ResourceDiffQuery): Promise<ResourceDiffAnswer>
  leaks(query: LeakQuery): Promise<LeakAnswer>
  startPlayback(request: PlaybackRequest, onFrame: (frame: PlaybackFrame) => void): Promise<void>
  ackPlayback(playbackId: string, frame: number): Promise<void>
  stopPlayback(playbackId: string): Promise<void>
  /** Write a run's capture out, whole or a frame range of it (a range creates again what is live at its start). */
  exportCapture(runId: string, options: ExportOptions, target: ExportTarget): Promise<ExportResult>
  /** The aliasing hazards and Vulkan warnings of a run, a page at a time. */
  hazards(query: HazardsQuery): Promise<HazardsAnswer>
  /** A frame's application heaps with their placed resources over the frame's steps, and its hazards. */
  placements(query: PlacementsQuery): Promise<PlacementsAnswer>
  search(query: SearchQuery): Promise<SearchAnswer>
  /** Open a history database read-only (the host chose the path). */
  openHistory(path: string): Promise<HistoryInfo>
  historyTrend(query: HistoryTrendQuery): Promise<HistoryTrend>
  /** The capture path a history keeps for one of its runs. */
  historyRunPath(historyId: string, runId: number): Promise<string>
  closeHistory(historyId: string): Promise<void>
  dispose(): Promise<void>
}

/**
 * A loaded capture replayed by the backend that accepted it (analysis/backends.ts). Every run has this one shape,
 * whatever its source: what a backend offers beyond the common interface is among its run's optional capabilities.
 */
export interface Run {
  id: string
  /** The backend that replayed the run (its id is RunSummary.backend). */
  backend: Backend
  /** What the backend's replay gave: series, checks, snapshots, playback, report and its capabilities. */
  replay: BackendRun
  /** The config values the replay used (none where no model runs). */
  config?: Readonly<Record<string, number>>
  store: CaptureStore
  result: LoadResult
  /** The capture is still being written: the run grows (its store, replay and checks), its snapshots are remade. */
  live?: boolean
  /** The overrides this run was replayed with, on top of the capture's config. */
  overrides: Record<string, string | number | boolean>
  summary: RunSummary
}

export class EngineError extends Error {}

interface Following {
  /** Read what the file holds now, and end following. */
  end: () => Promise<void>
  /** End following; a capture not shown as a run yet is not shown at all (the load is cancelled). */
  cancel: () => Promise<void>
  /** The run, once there is one. */
  runId: () => string | undefined
}

const GZIP_MAGIC = [0x1f, 0x8b]

/**
 * A followed capture's replay starts once this many frames are complete (or a `gpu` record came, or the capture
 * ended). The models ask the store once, as they start, whether the capture completes frames by `gpu` records; a
 * capture that does has its first one within its first frames in flight, so by then the store can say.
 */
export const FOLLOW_FIRST_FRAMES = 8

/** Chunks handed over one at a time: `push` resolves when the reader has taken the chunk. */
class ChunkQueue implements AsyncIterable<Uint8Array> {
  private waiting: ((chunk: Uint8Array | null) => void) | undefined
  private pending: { chunk: Uint8Array | null; taken: (accepted: boolean) => void }[] = []
  closed = false

  push(chunk: Uint8Array | null): Promise<boolean> {
    if (this.closed) return Promise.resolve(false)
    return new Promise((taken) => {
      if (this.waiting) {
        const w = this.waiting
        this.waiting = undefined
        w(chunk)
        taken(true)
      } else this.pending.push({ chunk, taken })
    })
  }

  /** The reader stopped: refuse what is queued and what comes. */
  close(): void {
    this.closed = true
    for (const p of this.pending) p.taken(false)
    this.pending = []
    this.waiting?.(null)
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      let chunk: Uint8Array | null
      const next = this.pending.shift()
      if (next) {
        chunk = next.chunk
        next.taken(true)
      } else {
        if (this.closed) return
        chunk = await new Promise<Uint8Array | null>((resolve) => (this.waiting = resolve))
      }
      if (chunk === null) return
      yield chunk
    }
  }
}

function errorInfo(err: unknown, file: string): LoadErrorInfo {
  if (err instanceof CaptureError) {
    return { file: err.file, message: err.message, line: err.line, byteOffset: err.byteOffset, expected: err.expected }
  }
  if (err instanceof ImportError) {
    return { file, message: err.message, line: err.line ?? 0, byteOffset: err.offset ?? 0, expected: '' }
  }
  const message = err instanceof Error ? err.message : String(err)
  return { file, message: `${file}: ${message}`, line: 0, byteOffset: 0, expected: '' }
}

/**
 * The backend a run names and what it offers. A trace imported as what its allocator or driver did is the observed
 * backend's (its header says `observed`): no model, so no what-if or transients, and the trace's own residency.
 */
function summaryBackend(backend: Backend, run: BackendRun): Pick<RunSummary, 'backend' | 'modelName' | 'capabilities'> {
  return { backend: backend.id, ...(backend.modelName ? { modelName: backend.modelName } : {}), capabilities: capabilitiesOf(backend, run) }
}

/** A run's summary before its replay: the capture's figures, its backend and that backend's capabilities. */
export function summarize(runId: string, result: LoadResult, backend: Backend, run: BackendRun): RunSummary {
  const { store } = result
  const header = store.header
  return {
    runId,
    file: store.file,
    format: result.format,
    api: header.api ?? 'd3d12',
    ...summaryBackend(backend, run),
    app: typeof header.app === 'string' ? header.app : undefined,
    adapter: typeof header.adapter?.name === 'string' ? header.adapter.name : undefined,
    frames: store.frames.length,
    firstFrame: store.frames.length ? store.frames.n[0] : 0,
    lastFrame: store.frames.length ? store.frames.n[store.frames.length - 1] : 0,
    records: store.records.length,
    sourceBytes: store.sourceBytes,
    partial: store.partial,
    warnings: { ...store.warnings.counts },
    warningSamples: store.warnings.samples.map((w) => ({ ...w })),
    notes: result.notes,
    series: [],
    ...(result.trace ? { trace: result.trace } : {}),
    ...(isTimedFormat(result.format) ? { timed: true } : {}),
  }
}

const NO_RESIDENCY_EVENTS = new ResidencyEvents()

/** A warming snapshot waits until no series or snapshot query came for this long: it never delays someone's zoom. */
export const WARM_IDLE_MS = 150

function checkSummary(checks: HazardLog): RunSummary['checks'] {
  return {
    aliasing: checks.aliasing,
    hazards: checks.hazardCount,
    hazardRules: { ...checks.hazardRules },
    warnings: { ...checks.warnings },
  }
}

/**
 * A backend's run kept by the engine. Its summary is the capture's until the replay has run (`replayedSummary`).
 * The engine holds runs of whichever backend the list gave, all of one shape.
 */
function runOf(id: string, backend: Backend, replay: BackendRun, result: LoadResult, overrides: Record<string, string | number | boolean>): Run {
  const summary = summarize(id, result, backend, replay)
  return { id, backend, replay, config: replay.config, store: result.store, result, overrides, summary }
}

/** A replayed run's summary: the capture's, with the series, what its backend adds and the checks' counts. */
function replayedSummary(run: Run, live: boolean): RunSummary {
  const replay: BackendRun = run.replay
  const summary = summarize(run.id, run.result, run.backend, replay)
  return { ...summary, ...(live ? { live: true } : {}), series: replay.series.list(), ...replay.extras?.(), checks: checkSummary(replay.checks) }
}

export interface LocalEngineOptions {
  /** How a followed capture's file is watched and read (tests make the intervals short). */
  tail?: TailOptions
  /** The backends asked, in order, which replays a capture (analysis/backends.ts's BACKENDS unless given). */
  backends?: readonly Backend[]
}

export class LocalEngine implements Engine {
  constructor(private readonly options: LocalEngineOptions = {}) {}

  private backendFor(store: CaptureStore): Backend {
    return backendFor(store.header, store, this.options.backends ?? BACKENDS)
  }

  private readonly runs = new Map<string, Run>()
  private readonly loads = new Map<string, { abort: AbortController; queue?: ChunkQueue }>()
  private readonly follows = new Map<string, Following>()
  private nextRun = 1
  /** When the last series or snapshot query came (performance.now()), for the warming after a load. */
  private lastQuery = 0

  async load(loadId: string, source: LoadSource, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    if (this.loads.has(loadId)) throw new EngineError(`load ${loadId} is already running`)
    const abort = new AbortController()
    const queue = source.kind === 'stream' ? new ChunkQueue() : undefined
    this.loads.set(loadId, { abort, queue })
    const name = source.kind === 'file' ? (source.name ?? basename(source.path)) : source.name
    const reading = onProgress && ((p: Omit<LoadProgress, 'loadId' | 'phase'>) => onProgress({ loadId, phase: 'reading', ...p }))
    try {
      const options = { file: name, signal: abort.signal, onProgress: reading, import: importOptionsOf(source.import) }
      const result =
        source.kind === 'file'
          ? await loadCaptureFile(source.path, options)
          : await loadCapture(queue!, { ...options, totalBytes: source.bytes })
      if (abort.signal.aborted) throw new CancelledError()
      if (result.store.records.length === 0 && result.error) return { ok: false, error: errorInfo(result.error, name) }
      const run = await this.addRun(result, {
        signal: abort.signal,
        onProgress: (p) =>
          onProgress?.({
            loadId,
            phase: 'replaying',
            bytesRead: result.store.sourceBytes,
            totalBytes: result.store.sourceBytes,
            records: result.store.records.length,
            warnings: 0,
            ...p,
          }),
      })
      this.warmSoon(run)
      return result.error
        ? { ok: true, summary: run.summary, error: errorInfo(result.error, name) }
        : { ok: true, summary: run.summary }
    } catch (err) {
      if (err instanceof CancelledError || abort.signal.aborted) {
        return { ok: false, cancelled: true, error: { ...errorInfo(err, name), message: `${name}: load cancelled` } }
      }
      return { ok: false, error: errorInfo(err, name) }
    } finally {
      queue?.close()
      this.loads.delete(loadId)
    }
  }

  /** Snapshots spread over a large run, rebuilt between queries once its load has answered (WARM_RECORDS). */
  private warmSoon(run: Run): void {
    if (run.store.records.length < WARM_RECORDS) return
    const replay: BackendRun = run.replay
    const frames = run.store.frames.length
    let k = 0
    const step = () => {
      // a run closed meanwhile is left alone
      if (k >= WARM_SNAPSHOTS || this.runs.get(run.id) !== run) return
      const idle = performance.now() - this.lastQuery
      if (idle < WARM_IDLE_MS) {
        setTimeout(step, WARM_IDLE_MS - idle)
        return
      }
      replay.warm(warmFrame(k, frames))
      k++
      setTimeout(step, 0)
    }
    setTimeout(step, 0)
  }

  /** Replay a loaded store through the model and keep it as a run (the CLI and tests hand stores in directly). */
  async addRun(
    result: LoadResult,
    options: {
      config?: Record<string, string | number | boolean>
      signal?: AbortSignal
      onProgress?: (p: { framesDone: number; frames: number }) => void
    } = {},
  ): Promise<Run> {
    const overrides = options.config ?? {}
    const { store } = result
    const id = `run-${this.nextRun++}`
    const backend = this.backendFor(store)
    const started = backend.replay(store, { overrides, signal: options.signal, onProgress: options.onProgress })
    await started.done
    const run = runOf(id, backend, started.run, result, overrides)
    run.summary = replayedSummary(run, false)
    this.runs.set(id, run)
    return run
  }

  async rerun(
    loadId: string,
    runId: string,
    config: Record<string, string | number | boolean>,
    onProgress?: (p: LoadProgress) => void,
  ): Promise<LoadOutcome> {
    const source = this.run(runId)
    const abort = new AbortController()
    this.loads.set(loadId, { abort })
    const name = source.store.file
    try {
      const run = await this.addRun(source.result, {
        config,
        signal: abort.signal,
        onProgress: (p) =>
          onProgress?.({
            loadId,
            phase: 'replaying',
            bytesRead: source.store.sourceBytes,
            totalBytes: source.store.sourceBytes,
            records: source.store.records.length,
            warnings: 0,
            ...p,
          }),
      })
      return { ok: true, summary: run.summary }
    } catch (err) {
      if (abort.signal.aborted) {
        return { ok: false, cancelled: true, error: { ...errorInfo(err, name), message: `${name}: replay cancelled` } }
      }
      return { ok: false, error: errorInfo(err, name) }
    } finally {
      this.loads.delete(loadId)
    }
  }

  async follow(loadId: string, source: FollowSource, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    if (this.loads.has(loadId) || this.follows.has(loadId)) throw new EngineError(`load ${loadId} is already running`)
    const name = source.name ?? basename(source.path)
    const builder = new CaptureBuilder()
    const scanner = new NdjsonScanner(builder, { file: name })
    const store = new GrowingStore(builder, name)
    let run: Run | undefined
    let replayDone: Promise<void> | undefined
    let fault: CaptureError | undefined
    let ending: Promise<void> | undefined
    let cancelled = false
    let answered = false
    let answer!: (outcome: LoadOutcome) => void
    const outcome = new Promise<LoadOutcome>((resolve) => (answer = resolve))
    const settle = (o: LoadOutcome) => {
      if (answered) return
      answered = true
      answer(o)
    }

    /** The replay has replayed `done` frames, all there are so far: the run shows them. */
    const caughtUp = (done: number) => {
      if (!run || done === 0) return
      this.grown(run)
      if (!answered) settle({ ok: true, summary: run.summary })
      else onProgress?.({ loadId, phase: 'following', bytesRead: store.sourceBytes, totalBytes: store.sourceBytes, records: store.records.length, warnings: builder.warningCount(), summary: run.summary })
    }
    const gate = new GrowingStoreGate(caughtUp)

    const startRun = () => {
      const id = `run-${this.nextRun++}`
      const result: LoadResult = { store, format: 'heapscope-capture', notes: [] }
      const backend = this.backendFor(store)
      const started = backend.replay(store, { gate })
      run = runOf(id, backend, started.run, result, {})
      run.live = true
      replayDone = started.done
      this.runs.set(id, run)
      // a replay that went through all the frames at once waited before the run was there to show them
      const at = gate.waitingAt()
      if (at !== undefined) caughtUp(at)
    }

    const fail = (err: CaptureError) => {
      fault ??= err
      void end()
    }

    const tail = new FileTail(source.path, {
      onBytes: (chunk) => {
        if (fault) return
        if (scanner.bytes === 0 && chunk[0] === GZIP_MAGIC[0] && chunk[1] === GZIP_MAGIC[1]) {
          fail(new CaptureError(name, 0, 0, 'a plain (not compressed) HeapScope capture', 'a capture is followed as it is written, so it cannot be gzip-compressed'))
          return
        }
        try {
          scanner.push(chunk)
        } catch (err) {
          if (err instanceof CaptureError) fail(err)
          else fail(new CaptureError(name, scanner.lines, scanner.bytes, 'a readable capture', err instanceof Error ? err.message : String(err)))
        }
      },
      onBatch: () => {
        if (fault || gate.ended) return
        const frames = store.update(scanner.bytes, scanner.lines)
        if (!run && (frames >= FOLLOW_FIRST_FRAMES || (frames > 0 && store.hasGpuRecords))) startRun()
        gate.offer(frames)
        if (!run) onProgress?.({ loadId, phase: 'reading', bytesRead: scanner.bytes, totalBytes: 0, records: builder.recordCount, warnings: builder.warningCount() })
      },
      onError: (err) => fail(new CaptureError(name, 0, tail.position, 'a readable file', err.message)),
    }, this.options.tail)

    const end = (): Promise<void> => {
      ending ??= (async () => {
        await tail.stop()
        this.follows.delete(loadId)
        if (!fault) {
          try {
            scanner.finish()
          } catch (err) {
            if (err instanceof CaptureError) fault = err
            else throw err
          }
        }
        if (!fault && scanner.lines === 0) {
          fault = new CaptureError(name, 0, 0, 'a capture header line', tail.position === 0 ? 'nothing was written to the file' : 'the file holds no lines')
        }
        const finished = builder.finish(name, scanner.bytes, scanner.lines, fault !== undefined)
        const frames = store.finish(finished)
        if (!run && cancelled) {
          settle({ ok: false, cancelled: true, error: { ...errorInfo(new Error('load cancelled'), name), message: `${name}: load cancelled` } })
          return
        }
        if (!run) {
          if (finished.records.length === 0) {
            settle({ ok: false, error: errorInfo(fault ?? new CaptureError(name, 0, 0, 'a capture record', 'the capture holds no records'), name) })
            return
          }
          startRun()
        }
        gate.end(frames)
        await replayDone
        const r = run!
        r.live = false
        r.result = fault ? { ...r.result, error: fault } : r.result
        this.grown(r)
        const error = fault ? errorInfo(fault, name) : undefined
        settle(error ? { ok: true, summary: r.summary, error } : { ok: true, summary: r.summary })
        onProgress?.({ loadId, phase: 'following', bytesRead: store.sourceBytes, totalBytes: store.sourceBytes, records: store.records.length, warnings: builder.warningCount(), summary: r.summary, ...(error ? { error } : {}) })
      })().catch((err: unknown) => {
        const error = errorInfo(err, name)
        settle({ ok: false, error })
        if (!run) return
        // the run stays as far as it got, and is no longer live
        run.live = false
        const { live: _, ...summary } = run.summary
        run.summary = summary
        onProgress?.({ loadId, phase: 'following', bytesRead: store.sourceBytes, totalBytes: store.sourceBytes, records: store.records.length, warnings: builder.warningCount(), summary, error })
      })
      return ending
    }

    const cancel = () => {
      cancelled = true
      return end()
    }
    this.follows.set(loadId, { end, cancel, runId: () => run?.id })
    tail.start()
    return outcome
  }

  /** A followed run after more frames (or its end): its summary, checks and snapshots cover what arrived. */
  private grown(run: Run): void {
    run.replay.grown()
    run.summary = replayedSummary(run, run.live === true)
    this.placementLayouts.delete(run)
    // the resources made since are in the index the next search builds
    this.resourceIndexes.delete(run)
  }

  async endFollow(loadId: string): Promise<void> {
    await this.follows.get(loadId)?.end()
  }

  async feed(loadId: string, chunk: Uint8Array | null): Promise<boolean> {
    const load = this.loads.get(loadId)
    if (!load?.queue) return false
    return load.queue.push(chunk)
  }

  async cancel(loadId: string): Promise<void> {
    await this.follows.get(loadId)?.cancel()
    const load = this.loads.get(loadId)
    if (!load) return
    load.abort.abort()
    load.queue?.close()
  }

  async close(runId: string): Promise<void> {
    for (const following of this.follows.values()) if (following.runId() === runId) await following.end()
    this.runs.delete(runId)
    for (const [id, playback] of this.playbacks) {
      if (playback.runId === runId) {
        playback.playback.stop()
        this.playbacks.delete(id)
      }
    }
  }

  run(runId: string): Run {
    const run = this.runs.get(runId)
    if (!run) throw new EngineError(`no run ${runId}`)
    return run
  }

  async summary(runId: string): Promise<RunSummary> {
    return this.run(runId).summary
  }

  async runConfig(runId: string): Promise<ConfigEntry[]> {
    const run = this.run(runId)
    const config = run.backend.config
    return config && run.config ? configEntries(config, run.store.header, run.config) : []
  }

  async report(runId: string): Promise<RunReport> {
    const run = this.run(runId)
    return run.replay.report(run.result)
  }

  async series(query: SeriesQuery): Promise<SeriesAnswer> {
    this.lastQuery = performance.now()
    return this.run(query.runId).replay.series.query(query)
  }

  async snapshot(query: SnapshotQuery): Promise<Snapshot> {
    this.lastQuery = performance.now()
    // a backend that works the blocks out whatever it is asked leaves them out here, before they are sent
    const blocks = query.blocks !== false
    const snapshot = this.run(query.runId).replay.snapshots.snapshot(query.runId, query.frame, blocks)
    return blocks ? snapshot : leaveOutBlocks(snapshot)
  }

  async resources(query: ResourceQuery): Promise<ResourcePage> {
    this.lastQuery = performance.now()
    return this.run(query.runId).replay.snapshots.resources(query)
  }

  async resource(query: { runId: string; frame: number; id: number }): Promise<ResourceDetails | null> {
    return this.run(query.runId).replay.snapshots.details(query.runId, query.frame, query.id)
  }

  async transients(query: TransientQuery): Promise<TransientAnswer> {
    const snapshots = this.run(query.runId).replay.snapshots
    // a backend without transients answers none
    const executions = snapshots.transients?.(query.frame) ?? []
    return { runId: query.runId, frame: snapshots.state(query.frame).frame, executions }
  }

  async residencyEvents(query: ResidencyEventsQuery): Promise<ResidencyEventsAnswer> {
    const run = this.run(query.runId)
    // a backend without residency (Vulkan leaves it to the driver) has no events
    const replay: BackendRun = run.replay
    const events = replay.residency ?? NO_RESIDENCY_EVENTS
    const from = Math.max(0, Math.floor(query.from))
    const to = Math.floor(query.to)
    const limit = Math.max(0, Math.min(1_000_000, Math.floor(query.limit)))
    // events are in frame order: binary search the start
    const frames = events.frame.data
    const lo = partitionPoint(events.length, (i) => frames[i] < from)
    let end = lo
    while (end < events.length && frames[end] < to) end++
    const count = Math.min(limit, end - lo)
    return {
      runId: query.runId,
      frame: events.frame.data.slice(lo, lo + count),
      kind: events.kind.data.slice(lo, lo + count),
      object: events.object.data.slice(lo, lo + count),
      bytes: events.bytes.data.slice(lo, lo + count),
      truncated: end - lo > count,
    }
  }

  async compareSeries(query: CompareSeriesQuery): Promise<CompareSeriesAnswer> {
    return compareSeries(this.run(query.runA).replay, this.run(query.runB).replay, query)
  }

  async resourceDiff(query: ResourceDiffQuery): Promise<ResourceDiffAnswer> {
    return resourceDiff(this.run(query.runA).replay, this.run(query.runB).replay, query)
  }

  async leaks(query: LeakQuery): Promise<LeakAnswer> {
    const run = this.run(query.runId)
    return leaks(run.replay, query, run.replay.series.get(TOTAL_SERIES.occupiedBytes))
  }

  async hazards(query: HazardsQuery): Promise<HazardsAnswer> {
    const run = this.run(query.runId)
    const answer = run.replay.checks.page(query)
    // each finding's resources by name, as the capture named them at its frame
    const index = this.resourceIndex(run)
    answer.entries = answer.entries.map((e) => ({ ...e, names: e.resources.map((id) => index.nameAt(id, e.frame)) }))
    return answer
  }

  /** Each run's index of every resource it ever made, built on the first search (again once a followed run grew). */
  private readonly resourceIndexes = new WeakMap<Run, ResourceIndex>()

  private resourceIndex(run: Run): ResourceIndex {
    let index = this.resourceIndexes.get(run)
    if (!index) {
      index = new ResourceIndex(run.store)
      this.resourceIndexes.set(run, index)
    }
    return index
  }

  async search(query: SearchQuery): Promise<SearchAnswer> {
    const run = this.run(query.runId)
    const replay: BackendRun = run.replay
    return search(this.resourceIndex(run), query, (frame) => replay.snapshots.table(frame), replay.walk, replay.estimatedRequest?.bind(replay))
  }

  /** Each run's placement layouts, made when first asked for (most runs never are). */
  private readonly placementLayouts = new WeakMap<Run, PlacementLayouts>()

  async placements(query: PlacementsQuery): Promise<PlacementsAnswer> {
    const run = this.run(query.runId)
    let layouts = this.placementLayouts.get(run)
    if (!layouts) {
      layouts = new PlacementLayouts(run.store)
      this.placementLayouts.set(run, layouts)
    }
    return layouts.layout(query.runId, query.frame)
  }

  private readonly playbacks = new Map<string, { runId: string; playback: RunPlayback }>()

  async startPlayback(request: PlaybackRequest, onFrame: (frame: PlaybackFrame) => void): Promise<void> {
    await this.stopPlayback(request.playbackId)
    const run = this.run(request.runId)
    const ended = () => this.playbacks.delete(request.playbackId)
    const playback = run.replay.playback(request, onFrame, ended)
    this.playbacks.set(request.playbackId, { runId: request.runId, playback })
    playback.start()
  }

  async ackPlayback(playbackId: string, frame: number): Promise<void> {
    this.playbacks.get(playbackId)?.playback.ack(frame)
  }

  async stopPlayback(playbackId: string): Promise<void> {
    const entry = this.playbacks.get(playbackId)
    if (!entry) return
    entry.playback.stop()
    this.playbacks.delete(playbackId)
  }

  async exportCapture(runId: string, options: ExportOptions, target: ExportTarget): Promise<ExportResult> {
    const { store } = this.run(runId)
    const write = { from: options.from, to: options.to, gzip: options.gzip }
    if (target.kind === 'bytes') {
      const data = await captureBytes(store, write)
      return { bytes: data.length, data }
    }
    // written beside, then renamed: a failed export never leaves half a file where the user pointed. Through a
    // file handle, so a failure (no folder, no space) rejects here instead of surfacing as a stream error
    const partial = `${target.path}.part`
    const file = await open(partial, 'w')
    try {
      const { bytes } = await writeCapture(store, async (chunk) => void (await file.write(chunk)), write)
      await file.close()
      await rename(partial, target.path)
      return { bytes }
    } catch (err) {
      await file.close().catch(() => undefined)
      await rm(partial, { force: true })
      throw err
    }
  }

  /** History databases by id: their paths. Each query opens the file read-only and closes it, so a nightly
   * `history add` (one writer, the file locked) is never kept out by a window left open, and every answer is fresh. */
  private readonly histories = new Map<string, string>()
  private nextHistory = 1

  private async withHistory<T>(path: string, use: (history: History) => Promise<T>): Promise<T> {
    const history = await History.open(path, { readOnly: true, sandboxed: true })
    try {
      return await use(history)
    } finally {
      history.close()
    }
  }

  async openHistory(path: string): Promise<HistoryInfo> {
    const info = await this.withHistory(path, async (history) => ({
      runs: await history.runCount(),
      builds: (await history.trend({ metric: 'peak' })).builds.length,
      labels: await history.labels(),
    }))
    const historyId = `history-${this.nextHistory++}`
    this.histories.set(historyId, path)
    return { historyId, name: basename(path), ...info }
  }

  private historyPath(historyId: string): string {
    const path = this.histories.get(historyId)
    if (!path) throw new Error(`no history ${historyId} is open`)
    return path
  }

  async historyTrend(query: HistoryTrendQuery): Promise<HistoryTrend> {
    return this.withHistory(this.historyPath(query.historyId), (h) => h.trend({ metric: query.metric, by: query.by, labels: query.labels }))
  }

  async historyRunPath(historyId: string, runId: number): Promise<string> {
    const path = await this.withHistory(this.historyPath(historyId), (h) => h.runPath(runId))
    if (path === null) throw new Error(`the history has no run ${runId}`)
    return path
  }

  async closeHistory(historyId: string): Promise<void> {
    this.histories.delete(historyId)
  }

  async dispose(): Promise<void> {
    this.histories.clear()
    for (const load of this.loads.values()) load.abort.abort()
    await Promise.all([...this.follows.values()].map((f) => f.end()))
    for (const { playback } of this.playbacks.values()) playback.stop()
    this.playbacks.clear()
    this.runs.clear()
  }
}
