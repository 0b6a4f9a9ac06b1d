/**
 * A whole replay of a loaded capture by the backend that accepts it, with its snapshots and its report: what
 * `heapscope report`, `diff`, `check`, `export` and `history add` compute, so their figures are one computation.
 * Bad `--config` pairs throw ConfigError.
 *
 * `loadAndReplay` reads a capture file and replays it at once: the read, scan and store build run in a worker
 * thread (ingest/pipeline.ts) and the replay follows the store as it grows, so the two take about as long as the
 * longer of them, not their sum. The load and the replay are the one-thread path's (loadCaptureFile, then
 * replayCapture), figure for figure.
 */
import { availableParallelism } from 'node:os'
import { ConfigError } from '../../shared/model'
import { captureBytes } from '../ingest/captureBytes'
import { startPipedLoad, type PipedLoadOptions } from '../ingest/pipeline'
import { loadCaptureFile, type LoadOptions, type LoadResult } from '../ingest/read'
import type { Backend, BackendRun, ConfigOverrides, ReplayStart } from './backend'
import { BACKENDS, backendFor } from './backends'
import { GrowingStoreGate } from './frameGate'

/** `--config` pairs as the backend's overrides; a backend that runs no model takes none. */
function overridesOf(backend: Backend, pairs: readonly string[]): ConfigOverrides {
  if (backend.config) return backend.config.pairs(pairs)
  if (pairs.length > 0) throw new ConfigError(`--config does not apply: the ${backend.id} backend runs no model`)
  return {}
}

export interface ReplayCaptureOptions {
  /**
   * false: keep no checkpoints (BackendReplayOptions.checkpoints), for a caller that reads the report, series,
   * residency and resource rows but asks for no snapshot: the same figures, byte for byte, sooner.
   */
  checkpoints?: boolean
  /** false: count the residency events without keeping their rows (BackendReplayOptions.residencyEvents). */
  residencyEvents?: boolean
  /** 'report': keep only the series the report reads (BackendReplayOptions.series). */
  series?: 'all' | 'report'
}

export async function replayCapture(result: LoadResult, pairs: readonly string[], options: ReplayCaptureOptions = {}) {
  const store = result.store
  const backend = backendFor(store.header, store, BACKENDS)
  const started = backend.replay(store, {
    overrides: overridesOf(backend, pairs),
    checkpoints: options.checkpoints,
    residencyEvents: options.residencyEvents,
    series: options.series,
  })
  await started.done
  const replay = started.run
  return { backend, replay, snapshots: replay.snapshots, report: replay.report(result) }
}

export type ReplayedCapture = Awaited<ReturnType<typeof replayCapture>>

export interface LoadAndReplayOptions extends ReplayCaptureOptions {
  /** How the file is read (its name in messages, progress, an importer's options; on this thread, `syncReads`). */
  load?: Partial<LoadOptions> & { chunkSize?: number; syncReads?: boolean }
  /**
   * true: load on this thread, then replay, no worker; false: load in a worker thread, the replay following it;
   * absent: a worker for a capture of PIPELINE_MIN_BYTES or more on a machine of PIPELINE_MIN_CORES or more
   * (pipelineWorthIt).
   */
  oneThread?: boolean
  /** The pipelined load's own options (tests: eager increments, a worker that fails). */
  pipe?: Pick<PipedLoadOptions, 'eager' | 'worker'>
}

/** A capture being loaded and replayed: the load's outcome as soon as it has ended, the replay's when it has. */
export interface LoadingReplay {
  /** Resolves as loadCaptureFile would: the store, with a fatal fault and what came before it; or rejects as it. */
  loaded: Promise<LoadResult>
  /**
   * The replay of the loaded capture, as replayCapture gives it. A load that ended in a fault before its first
   * record has nothing to replay: this rejects with that fault (after `loaded` resolved with it).
   */
  replayed: Promise<ReplayedCapture>
}

const ignore = () => undefined

/**
 * The cores a pipelined load needs to be worth its cost. Measured with the built CLI (bench/README.md, "The load
 * in a worker thread, by cores" and "Two cores pipeline large captures"): on one core the worker only
 * takes turns with the replay. On two, the engine's own background threads (the optimising compiler, the collector)
 * already keep the second core busy and the worker slows the replay beside it by about a third: a report of 250 000
 * to 1 000 000 records (up to 109 MB) was 1 to 25 % slower, one of 163 MB 3 % faster and one of 218 MB 8 % faster
 * (stress captures, whose replay outweighs their load); one of 398 MB whose replay is light, 2 % slower. On sixteen
 * it was faster on every capture of 64 MiB or more.
 */
export const PIPELINE_MIN_CORES = 2

/**
 * The capture bytes a pipelined load needs to be worth its cost: the worker's own start (a second engine, its
 * modules compiled) and the replay's upkeep of a growing store are paid before it saves anything. On sixteen cores
 * (bench/README.md, "A short run: one thread, and half the inlining budget"), one-shot reports of a 19 MB and a 28 MB capture were
 * faster on one thread, and one of 218 MB took 4.0 s in a worker against 5.5 s on one thread.
 */
export const PIPELINE_MIN_BYTES = 64 * 1024 * 1024

/** The same on two cores, where the worker's load and the replay share the core the engine's threads leave. */
export const PIPELINE_MIN_BYTES_TWO_CORES = 128 * 1024 * 1024

/**
 * Whether a load should run in a worker thread beside the replay: by the bytes of capture lines to read
 * (ingest/captureBytes.ts; -1 where unknown, a pipe say, which stays on one thread) and the cores the process may use.
 */
export function pipelineWorthIt(bytes: number, cores = availableParallelism()): boolean {
  if (cores < PIPELINE_MIN_CORES) return false
  return bytes >= (cores === 2 ? PIPELINE_MIN_BYTES_TWO_CORES : PIPELINE_MIN_BYTES)
}

/**
 * Load a capture file and replay it, the replay following the load: `report`, `diff`, `check`, `export` and
 * `history add` read their captures so. Capture lines (plain or gzip) large enough for the machine's cores
 * (pipelineWorthIt) are loaded in a worker thread; a smaller capture, a file an importer reads,
 * or a machine where no worker starts, is loaded on this thread first, then replayed.
 *
 * The models ask the store once, as they start, whether the capture has `gpu` and `use` records. A replay starts
 * with the first complete frames, with what the store says then; should a later increment bring the first such
 * record, that replay is dropped and a new one starts from frame 0 (on real captures they come in the first
 * frames, so this costs little), and the replay that ends is always one that began with the capture's own answer.
 */
export function loadAndReplay(path: string, pairs: readonly string[], options: LoadAndReplayOptions = {}): LoadingReplay {
  const replayLoaded = (result: LoadResult) => {
    if (result.error && result.store.records.length === 0) throw result.error
    return replayCapture(result, pairs, options)
  }
  const load = (options.oneThread ?? !pipelineWorthIt(captureBytes(path)))
    ? undefined
    : startPipedLoad(path, {
        file: options.load?.file,
        chunkSize: options.load?.chunkSize,
        headerOptional: options.load?.headerOptional,
        onProgress: options.load?.onProgress,
        ...options.pipe,
      })
  if (!load) {
    const loaded = loadCaptureFile(path, options.load)
    const replayed = loaded.then(replayLoaded)
    replayed.catch(ignore)
    return { loaded, replayed }
  }

  const store = load.store
  let following: { backend: Backend; start: ReplayStart<BackendRun>; gate: GrowingStoreGate; gpu: boolean; use: boolean } | undefined
  /** A config the backend refused as the replay would start: said once the load has ended, as the one-thread path does. */
  let refused: { error: unknown } | undefined
  const follow = () => {
    try {
      const backend = backendFor(store.header, store, BACKENDS)
      const gate = new GrowingStoreGate()
      const start = backend.replay(store, {
        overrides: overridesOf(backend, pairs),
        checkpoints: options.checkpoints,
        residencyEvents: options.residencyEvents,
        series: options.series,
        gate,
      })
      // a replay that fails while the load goes on is said once the load has ended (below), not as it happens
      start.done.catch(ignore)
      following = { backend, start, gate, gpu: store.hasGpuRecords, use: store.hasUseRecords }
    } catch (error) {
      refused = { error }
    }
  }
  const stale = () => following !== undefined && (following.gpu !== store.hasGpuRecords || following.use !== store.hasUseRecords)
  /** Drop the replay under way: it ends where it waits (it only waits between increments), and is not read. */
  const drop = () => {
    if (!following) return
    following.gate.end(following.gate.offered)
    following = undefined
  }
  load.onGrow = (frames) => {
    if (refused || frames === 0) return
    if (stale()) drop()
    if (!following) follow()
    following?.gate.offer(frames)
  }

  const loaded = load.ended.then((end) => {
    if ('result' in end) return end.result
    if ('thrown' in end) throw end.thrown
    // not pipelined (a file an importer reads, a worker that stopped): loaded on this thread
    return loadCaptureFile(path, options.load)
  })
  const replayed = load.ended.then(async (end): Promise<ReplayedCapture> => {
    if (!('result' in end)) {
      drop()
      return replayLoaded(await loaded)
    }
    const result = end.result
    if (result.error && result.store.records.length === 0) {
      drop()
      throw result.error
    }
    if (refused) throw refused.error
    if (stale()) drop()
    // a capture shorter than one complete frame: its replay starts now, over the whole of it
    if (!following) return replayCapture(result, pairs, options)
    const { backend, start, gate } = following
    gate.end(store.frames.length)
    await start.done
    const replay = start.run
    // the snapshots catch up with the whole replay, as a followed capture's do when it ends
    replay.grown()
    return { backend, replay, snapshots: replay.snapshots, report: replay.report(result) }
  })
  replayed.catch(ignore)
  loaded.catch(ignore)
  return { loaded, replayed }
}
