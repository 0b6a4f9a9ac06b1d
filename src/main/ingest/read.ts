/**
 * Loading a capture: bytes from a file or a stream of chunks, gunzipped when they start with the gzip magic,
 * then either scanned as NDJSON or handed whole to the importer whose format the content matches.
 * Progress is reported as bytes read of the total; a fatal fault keeps what came before it as a partial store.
 */
import { stat } from 'node:fs'
import { basename } from 'node:path'
import { CancelledError, CaptureError, UnrecognisedFormatError } from './errors'
import { RecordScratch } from './fields'
import { fileChunks } from './fileChunks'
import { gunzip } from './gunzip'
import type { ImportOptions } from './importers/options'
import { decodeHead, SNIFF_BYTES } from './importers/source'
import { primeLoad } from './prime'
import { NdjsonScanner } from './scanner'
import type { CaptureStore } from './store'
import { CaptureBuilder } from './storeBuilder'
import { GZIP_0, GZIP_1 } from './captureBytes'
import type { TraceRun } from '../../shared/ipc'

/** 256 KiB: two read buffers and the scanner's own fit in few pages (bench/README.md, "Fresh memory: chunks read into two buffers"). */
export const DEFAULT_CHUNK_SIZE = 1 << 18
/** Foreign formats are read whole; refuse more than this rather than exhaust memory. */
export const MAX_IMPORT_BYTES = 1 << 30

export interface LoadProgress {
  /** Bytes of the source read so far (compressed bytes for gzip). */
  bytesRead: number
  totalBytes: number
  records: number
  warnings: number
}

export interface LoadOptions {
  /** The name messages use. */
  file: string
  /** Size of the source, for progress; 0 when unknown. */
  totalBytes?: number
  signal?: AbortSignal
  onProgress?: (progress: LoadProgress) => void
  /** Minimum time between two progress calls. */
  progressIntervalMs?: number
  /** Accept bare records without a header (the `route` command). */
  headerOptional?: boolean
  /** Options of the importer of a foreign format (how an RMV or GPGMM trace's time becomes frames). */
  import?: ImportOptions
  /**
   * Called after each chunk the NDJSON scanner took, with the builder the records went to: a pipelined load
   * (pipeline.ts) sends on what the store gained.
   */
  onScanned?: (builder: CaptureBuilder) => void
  /** The builder keeps its columns in memory another thread reads (CaptureBuilder.toShared): a pipelined load. */
  sharedColumns?: boolean
  /** Read capture lines only: a foreign format or a JSON document throws NotCaptureLinesError, unread. */
  linesOnly?: boolean
  /**
   * Read the primer before the process's first load of capture lines (prime.ts), so that the optimising compiler's
   * code for the scanner and the builder keeps every path (the default). A process that runs without that compiler
   * (a small capture's command, cli/shortRun.ts) has nothing for it to serve: false skips it, about 7 ms.
   */
  prime?: boolean
}

/** A load asked for capture lines only (`linesOnly`) met a file an importer reads whole. */
export class NotCaptureLinesError extends Error {
  constructor(readonly file: string) {
    super(`${file}: not HeapScope capture lines; an importer reads it whole`)
    this.name = 'NotCaptureLinesError'
  }
}

export interface LoadResult {
  store: CaptureStore
  /** The fatal fault that stopped the load; the store then holds what came before it (`partial`). */
  error?: CaptureError
  /** The format read: 'heapscope-capture' or an importer's name. */
  format: string
  /** Importer notes (totals that disagree with the dump's own, fields not mapped, …). */
  notes: string[]
  /** An allocator's trace that holds requests: observed, or its requests through a model. */
  trace?: TraceRun
}

export async function loadCaptureFile(
  path: string,
  options: Partial<LoadOptions> & { chunkSize?: number; syncReads?: boolean } = {},
): Promise<LoadResult> {
  // node:fs's callback, not node:fs/promises (fileChunks.ts says why)
  const totalBytes = await new Promise<number>((resolve, reject) =>
    stat(path, (err, s) =>
      err ? reject(new CaptureError(options.file ?? basename(path), 0, 0, 'a readable file', err.message)) : resolve(s.size),
    ),
  )
  const chunks = fileChunks(path, options.chunkSize ?? DEFAULT_CHUNK_SIZE, options.syncReads === true)
  try {
    return await loadCapture(chunks, { file: basename(path), totalBytes, ...options })
  } finally {
    await chunks.return(undefined)
  }
}

/**
 * Load from any stream of byte chunks (a file's, chunks sent by a renderer, a test's tiny slices). A chunk need
 * only stay valid until the next is asked for (fileChunks reuses its buffers): what is kept longer is copied.
 */
export async function loadCapture(source: AsyncIterable<Uint8Array>, options: LoadOptions): Promise<LoadResult> {
  const progress: LoadProgress = { bytesRead: 0, totalBytes: options.totalBytes ?? 0, records: 0, warnings: 0 }
  const builder = new CaptureBuilder()
  if (options.sharedColumns) builder.toShared()
  const interval = options.progressIntervalMs ?? 50
  let lastReport = 0
  const report = (force: boolean) => {
    if (!options.onProgress) return
    const now = performance.now()
    if (!force && now - lastReport < interval) return
    lastReport = now
    progress.records = builder.recordCount
    progress.warnings = builder.warningCount()
    options.onProgress({ ...progress })
  }

  // Count raw bytes as they are read, whatever decompression follows.
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      if (options.signal?.aborted) throw new CancelledError()
      progress.bytesRead += chunk.length
      yield chunk
    }
  }

  const raw = counted()
  const first = await raw.next()
  if (first.done) {
    throw new CaptureError(options.file, 0, 0, 'a capture header line', 'the file is empty')
  }
  const head = first.value
  const gzip = head.length >= 2 && head[0] === GZIP_0 && head[1] === GZIP_1
  async function* replayed(): AsyncGenerator<Uint8Array> {
    yield head
    yield* raw
  }
  const bytes: AsyncIterable<Uint8Array> = gzip ? gunzip(replayed(), options.file, () => progress.bytesRead) : replayed()

  // Gather the first few KiB to tell the format by content, whatever the chunk size.
  const iterator = bytes[Symbol.asyncIterator]()
  const headChunks: Uint8Array[] = []
  let headLength = 0
  while (headLength < SNIFF_BYTES) {
    // a chunk kept while the next is read is a copy
    if (headChunks.length > 0) headChunks[headChunks.length - 1] = headChunks[headChunks.length - 1].slice()
    const next = await iterator.next()
    if (next.done) break
    headChunks.push(next.value)
    headLength += next.value.length
  }
  if (headLength === 0) throw new CaptureError(options.file, 0, 0, 'a capture header line', 'the file is empty')
  const headBytes = new Uint8Array(headLength)
  headChunks.reduce((at, chunk) => (headBytes.set(chunk, at), at + chunk.length), 0)
  async function* plain(): AsyncGenerator<Uint8Array> {
    yield* headChunks
    for (;;) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }

  // A file whose first line is a capture header or record is capture lines: no importer is loaded or asked.
  const foreign = CAPTURE_LINE.test(decodeHead(headBytes)) ? null : (await importers()).sniffFormat(headBytes)
  if (options.linesOnly && (foreign || isJsonDocument(headBytes))) throw new NotCaptureLinesError(options.file)
  if (foreign) return importWhole(foreign, plain(), builder, options, progress, report)
  if (isJsonDocument(headBytes)) return importWhole(null, plain(), builder, options, progress, report, headBytes)

  if (options.prime !== false) primeLoad()
  const scanner = new NdjsonScanner(builder, { file: options.file, headerOptional: options.headerOptional })
  if (!gzip && progress.totalBytes > 0) {
    builder.share.parsed = () => scanner.position
    builder.share.total = progress.totalBytes
  }
  let error: CaptureError | undefined
  try {
    for await (const chunk of plain()) {
      if (progress.totalBytes > 0) builder.share.read = Math.min(1, progress.bytesRead / progress.totalBytes)
      scanner.push(chunk)
      options.onScanned?.(builder)
      report(false)
    }
    scanner.finish()
  } catch (err) {
    // a line's byte offset in a .gz capture counts the decompressed stream
    if (err instanceof CaptureError) error = gzip && !err.decompressed ? err.inDecompressedStream() : err
    else if (err instanceof CancelledError) throw err
    else throw err
  }
  if (!error && scanner.lines === 0) {
    error = new CaptureError(options.file, 0, 0, 'a capture header line', 'the file holds no lines')
  }
  report(true)
  const store = builder.finish(options.file, progress.bytesRead, scanner.lines, error !== undefined)
  return { store, error, format: 'heapscope-capture', notes: [] }
}

/** The one-line start of a capture: its header, or (for `route`) a bare record. */
const CAPTURE_LINE = /^\s*\{\s*"(?:format|e)"\s*:/

/**
 * The importers of foreign formats, loaded the first time a file is not capture lines: a capture's load (and so a
 * `report` of one) never parses their code.
 */
const importers = () => import('./importers')

/**
 * Whether a file that no importer's head recognised is a JSON document rather than capture lines: it starts with
 * `{` or `[`, its first line is not a capture header or record, nor is its second (a capture whose header is
 * broken), and it is not one line of broken JSON (a truncated header). A pretty-printed dump, a trace-event array
 * or a one-line object of other keys is such a document: it is offered to every importer whole, and refused with
 * their reasons, never scanned as lines.
 */
function isJsonDocument(head: Uint8Array): boolean {
  const text = decodeHead(head)
  const start = text.search(/\S/)
  if (start < 0 || (text[start] !== '{' && text[start] !== '[')) return false
  const lines = text.slice(start).split('\n')
  if (CAPTURE_LINE.test(lines[0]) || (lines.length > 1 && CAPTURE_LINE.test(lines[1]))) return false
  const oneLine = lines.length === 1 || (lines.length === 2 && lines[1].trim() === '')
  if (!oneLine) return true
  if (head.length >= SNIFF_BYTES) return true
  try {
    const value: unknown = JSON.parse(lines[0])
    return !(typeof value === 'object' && value !== null && ('format' in value || 'e' in value))
  } catch {
    return false
  }
}

const CAPTURE_REFUSAL = {
  format: 'heapscope-capture',
  reason: 'its first line is not a capture header, {"format":"heapscope-capture","version":…} on one line',
}

/** Read a foreign file whole and import it; `format` null when no importer's head recognised it. */
async function importWhole(
  format: string | null,
  chunks: AsyncIterable<Uint8Array>,
  builder: CaptureBuilder,
  options: LoadOptions,
  progress: LoadProgress,
  report: (force: boolean) => void,
  head?: Uint8Array,
): Promise<LoadResult> {
  const parts: Uint8Array[] = []
  let length = 0
  for await (const chunk of chunks) {
    length += chunk.length
    if (length > MAX_IMPORT_BYTES) {
      throw new CaptureError(options.file, 0, length, `a ${format ?? 'JSON'} file under ${MAX_IMPORT_BYTES} bytes`)
    }
    parts.push(chunk.slice())
    report(false)
  }
  const bytes = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  parts.length = 0
  const { importCapture, refusalsOf } = await importers()
  const imported = importCapture({ name: options.file, bytes }, options.import)
  if (!imported && format === null) {
    throw new UnrecognisedFormatError(options.file, [CAPTURE_REFUSAL, ...refusalsOf(head ?? bytes)])
  }
  if (!imported) throw new CaptureError(options.file, 0, 0, `a ${format} file`, 'its content does not match')
  builder.header = imported.header
  const scratch = new RecordScratch()
  for (let i = 0; i < imported.records.length; i++) {
    builder.line = i + 1
    builder.offset = 0
    scratch.fromObject(imported.records[i], builder.strings)
    builder.add(scratch)
  }
  report(true)
  const store = builder.finish(options.file, progress.bytesRead, imported.records.length, false)
  return { store, format: imported.format, notes: imported.notes, ...(imported.trace ? { trace: imported.trace } : {}) }
}
