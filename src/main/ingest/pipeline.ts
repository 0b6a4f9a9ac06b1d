/**
 * A pipelined load: a capture file read, scanned and built into a store in a worker thread (pipeWorker.ts), which
 * posts the store as it grows, in increments (increments.ts); this thread appends them to a store of its own
 * (PipedStore) that a replay can follow as it grows (analysis/run.ts). The load's outcome is the one-thread
 * load's (loadCaptureFile): the same store, the same fatal fault with what came before it, the same thrown errors.
 *
 * Capture lines only, plain or gzip-compressed: a file an importer reads whole, a worker that cannot start or
 * stops, or a store whose layout the increments do not follow end the pipelined load as `unpiped`, and the
 * caller loads the file on its own thread instead.
 */
import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { CancelledError, CaptureError, TruncatedGzipError } from './errors'
import { builderView, IncrementTaker, StoreAppender, StoreLayoutError, type PipedStore, type StoreIncrement } from './increments'
import { loadCaptureFile, NotCaptureLinesError, type LoadOptions, type LoadProgress, type LoadResult } from './read'

/** An increment is sent once this many records are waiting, or once the oldest has waited INCREMENT_MS. */
export const INCREMENT_RECORDS = 1 << 16
export const INCREMENT_MS = 8

/** What the worker is asked to load. */
export interface PipeJob {
  path: string
  file?: string
  chunkSize?: number
  headerOptional?: boolean
  /** Send every increment at once, however small (tests: many increments from a small capture). */
  eager?: boolean
}

/** An error as it crosses threads: its class, message and fields, made again on this side (errorOf). */
export interface SentError {
  name: string
  message: string
  file?: string
  line?: number
  byteOffset?: number
  expected?: string
  detail?: string
  decompressed?: boolean
  compressedBytes?: number
  code?: string
}

export type PipeMessage =
  | { type: 'increment'; increment: StoreIncrement; progress: LoadProgress }
  | {
      type: 'end'
      increment: StoreIncrement
      progress: LoadProgress
      sourceBytes: number
      lines: number
      partial: boolean
      error?: SentError
    }
  | { type: 'thrown'; error: SentError }
  | { type: 'unpiped'; reason: string }

function sentError(err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) }
  const sent: SentError = { name: err.name, message: err.message }
  if (err instanceof CaptureError) {
    Object.assign(sent, {
      file: err.file,
      line: err.line,
      byteOffset: err.byteOffset,
      expected: err.expected,
      detail: err.detail,
      decompressed: err.decompressed,
    })
  }
  if (err instanceof TruncatedGzipError) sent.compressedBytes = err.compressedBytes
  const code = (err as NodeJS.ErrnoException).code
  if (typeof code === 'string') sent.code = code
  return sent
}

/** The error a SentError was: the same class, fields and message. */
export function errorOf(sent: SentError): Error {
  let err: Error
  if (sent.name === 'TruncatedGzipError') {
    err = new TruncatedGzipError(sent.file ?? '', sent.byteOffset ?? 0, sent.compressedBytes ?? 0, sent.detail ?? '')
  } else if (sent.name === 'CaptureError') {
    err = new CaptureError(sent.file ?? '', sent.line ?? 0, sent.byteOffset ?? 0, sent.expected ?? '', sent.detail, {
      decompressed: sent.decompressed,
    })
  } else if (sent.name === 'CancelledError') err = new CancelledError()
  else {
    err = new Error(sent.message)
    err.name = sent.name
    if (sent.code !== undefined) (err as NodeJS.ErrnoException).code = sent.code
  }
  err.message = sent.message
  return err
}

/**
 * The worker's side: load the file, posting increments as the store grows, then the last one and the outcome.
 * `post` sends a message with the array buffers it transfers.
 */
export async function runPipedLoad(
  job: PipeJob,
  post: (message: PipeMessage, transfer: ArrayBuffer[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  const taker = new IncrementTaker()
  let progress: LoadProgress = { bytesRead: 0, totalBytes: 0, records: 0, warnings: 0 }
  let sent = performance.now()
  const options: Partial<LoadOptions> & { chunkSize?: number; syncReads?: boolean } = {
    linesOnly: true,
    // sent as they are, without a copy (increments.ts)
    sharedColumns: true,
    // the worker does nothing else while a chunk is read (fileChunks.ts)
    syncReads: true,
    onProgress: (p) => (progress = p),
    onScanned: (builder) => {
      const waiting = taker.pending(builder.recordCount)
      if (waiting === 0) return
      const now = performance.now()
      if (!job.eager && waiting < INCREMENT_RECORDS && now - sent < INCREMENT_MS) return
      sent = now
      const { increment, transfer } = taker.take(builderView(builder), builder.share.fraction)
      post({ type: 'increment', increment, progress: { ...progress, records: builder.recordCount } }, transfer)
    },
  }
  if (signal) options.signal = signal
  if (job.file !== undefined) options.file = job.file
  if (job.chunkSize !== undefined) options.chunkSize = job.chunkSize
  if (job.headerOptional !== undefined) options.headerOptional = job.headerOptional
  try {
    const result = await loadCaptureFile(job.path, options)
    const store = result.store
    const { increment, transfer } = taker.take(store, 1, true)
    post(
      {
        type: 'end',
        increment,
        progress,
        sourceBytes: store.sourceBytes,
        lines: store.lines,
        partial: store.partial,
        ...(result.error ? { error: sentError(result.error) } : {}),
      },
      transfer,
    )
  } catch (err) {
    if (err instanceof NotCaptureLinesError || err instanceof StoreLayoutError) post({ type: 'unpiped', reason: err.message }, [])
    else post({ type: 'thrown', error: sentError(err) }, [])
  }
}

/**
 * What the worker is told: load a file, or stop the load under way, closing the file (a worker terminated at once
 * would leave it open); a stopped worker ends.
 */
export type PipeCommand = { type: 'load'; job: PipeJob } | { type: 'stop' }

/** How long a stopped worker has to end its load before it is terminated. */
const STOP_GRACE_MS = 1000

/**
 * How long a worker whose load ended waits for the next load before it ends. A worker's engine starts cold: its
 * modules compiled, its hot functions optimised anew as they run. A second load within this time (a `diff`'s second
 * capture, the captures of a `history add`, the bench's runs) goes to the worker already warm (bench/README.md,
 * "The ingest worker kept warm between loads"). While it waits it refers to no load's data, holds nothing that
 * keeps the process running, and is ended with the process.
 */
export const SPARE_WORKER_MS = 10_000
let spareMs = SPARE_WORKER_MS

/** The ingest worker waiting for a load, and what ends it: the time it may wait, or its own exit. */
let spare: { worker: Worker; timer: ReturnType<typeof setTimeout>; exited: () => void } | undefined

/** The waiting worker, no longer waiting; undefined where none waits. */
function takeSpare(): Worker | undefined {
  if (!spare) return undefined
  const { worker, timer, exited } = spare
  spare = undefined
  clearTimeout(timer)
  worker.off('exit', exited)
  worker.ref()
  return worker
}

/** The worker waiting for the next load, if any, and how long the next one kept waits (tests). */
export function spareWorker(waitMs?: number): Worker | undefined {
  if (waitMs !== undefined) spareMs = waitMs
  return spare?.worker
}

/** Keep a worker whose load ended for the next load; a second one waiting ends (one is enough). */
function keepSpare(worker: Worker): void {
  if (spare) {
    void worker.terminate()
    return
  }
  const exited = () => {
    if (spare?.worker !== worker) return
    clearTimeout(spare.timer)
    spare = undefined
  }
  const timer = setTimeout(() => {
    if (spare?.worker !== worker) return
    spare = undefined
    worker.off('exit', exited)
    void worker.terminate()
  }, spareMs)
  timer.unref()
  worker.on('exit', exited)
  worker.unref()
  spare = { worker, timer, exited }
}

/** How a pipelined load ended: the capture loaded, an error the one-thread load would throw, or not pipelined. */
export type PipedEnd = { result: LoadResult } | { thrown: Error } | { unpiped: string }

export interface PipedLoad {
  /** The store as it grows; after the end, the whole capture. */
  readonly store: PipedStore
  /** Told after each increment how many complete frames the store shows (set by the replay that follows it). */
  onGrow: ((frames: number) => void) | undefined
  readonly ended: Promise<PipedEnd>
  /** Stop the worker (the load is not needed any more). */
  stop(): void
}

export interface PipedLoadOptions {
  /** The name messages use (the file's base name by default). */
  file?: string
  chunkSize?: number
  headerOptional?: boolean
  onProgress?: (progress: LoadProgress) => void
  eager?: boolean
  /**
   * Make the worker (tests: one that fails), which is sent the job and ended with its load. By default a waiting
   * worker takes the job (SPARE_WORKER_MS), or a new built or source ingest worker; it waits for the next once its
   * load has ended.
   */
  worker?: () => Worker | undefined
}

/**
 * A new ingest worker: built, `ingestWorker.js` beside the bundle's entry (or one folder up from a shared chunk);
 * from the sources (tests, tsx), pipeWorker.ts through tsx. Undefined where there is none.
 */
export function ingestWorker(): Worker | undefined {
  const here = import.meta.url
  if (here.endsWith('.ts')) {
    const source = fileURLToPath(new URL('./pipeWorker.ts', here))
    const entry = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(here)}))`
    return new Worker(entry, { eval: true })
  }
  for (const place of ['./ingestWorker.js', '../ingestWorker.js']) {
    const url = new URL(place, here)
    if (existsSync(url)) return new Worker(url)
  }
  return undefined
}

/** Start a pipelined load of a file; undefined where no worker can start (load it on this thread). */
export function startPipedLoad(path: string, options: PipedLoadOptions = {}): PipedLoad | undefined {
  const job: PipeJob = { path }
  if (options.file !== undefined) job.file = options.file
  if (options.chunkSize !== undefined) job.chunkSize = options.chunkSize
  if (options.headerOptional !== undefined) job.headerOptional = options.headerOptional
  if (options.eager) job.eager = true
  let worker: Worker | undefined
  // only the default workers wait for the next load
  const keep = options.worker === undefined
  try {
    worker = options.worker ? options.worker() : (takeSpare() ?? ingestWorker())
  } catch {
    worker = undefined
  }
  if (!worker) return undefined
  const w = worker
  const appender = new StoreAppender(options.file ?? basename(path))
  let settle!: (end: PipedEnd) => void
  let over = false
  /** Whether the worker's load ended and the worker went back (to wait for the next, or ended). */
  let freed = false
  const halt = () => {
    if (freed) return
    w.postMessage({ type: 'stop' } satisfies PipeCommand)
    setTimeout(() => void w.terminate(), STOP_GRACE_MS).unref()
  }
  const ended = new Promise<PipedEnd>((resolve) => (settle = resolve))
  const end = (outcome: PipedEnd) => {
    if (over) return
    over = true
    settle(outcome)
  }
  /** The worker's load ended as it should (its last message): it is free for the next. */
  const free = () => {
    freed = true
    w.off('message', told)
    w.off('error', failed)
    w.off('exit', exited)
    if (keep) keepSpare(w)
    else void w.terminate()
  }
  const load: PipedLoad = {
    store: appender.store,
    onGrow: undefined,
    ended,
    stop: () => {
      end({ unpiped: 'stopped' })
      halt()
    },
  }
  const told = (message: PipeMessage) => {
    if (over) return
    try {
      switch (message.type) {
        case 'increment': {
          const frames = appender.append(message.increment)
          options.onProgress?.(message.progress)
          load.onGrow?.(frames)
          return
        }
        case 'end': {
          appender.finish(message.increment, message.sourceBytes, message.lines, message.partial)
          options.onProgress?.(message.progress)
          const result: LoadResult = {
            store: appender.store,
            ...(message.error ? { error: errorOf(message.error) as CaptureError } : {}),
            format: 'heapscope-capture',
            notes: [],
          }
          end({ result })
          free()
          return
        }
        case 'thrown':
          end({ thrown: errorOf(message.error) })
          free()
          return
        case 'unpiped':
          end({ unpiped: message.reason })
          free()
          return
      }
    } catch (err) {
      // an increment that does not fit the store: the load goes on one thread
      end({ unpiped: err instanceof Error ? err.message : String(err) })
      halt()
    }
  }
  const failed = (err: Error) => end({ unpiped: `the ingest worker failed: ${err.message}` })
  const exited = (code: number) => end({ unpiped: `the ingest worker stopped (exit code ${code})` })
  w.on('message', told)
  w.on('error', failed)
  w.on('exit', exited)
  w.postMessage({ type: 'load', job } satisfies PipeCommand)
  return load
}
