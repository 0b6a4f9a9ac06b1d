/**
 * A store, or a frame range of it, written back out as a capture: NDJSON lines (recordLine) batched into chunks
 * (NdjsonSink), UTF-8, gzip when asked. Reading what was written gives the same records, unknown keys included.
 *
 * A frame range is a capture of its own. Its first frame record comes first; then every resource created before
 * the range and still live at its start is created again, in the order it was first created (manual heaps, with
 * placed resources after their heap; a reserved resource with the bytes last committed to it; a render graph
 * still open, with its live transients); then the range's records. The header's budget is the one in force at
 * the start. Since every resource live at the start is created again, every release in the range is of a
 * resource the export creates: a release whose create the export lacks cannot occur.
 */
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { AnyCaptureRecord, CaptureHeader } from '../../shared/capture'
import { NdjsonSink, recordLine } from './ndjsonWriter'
import { recordAt } from './records'
import { RECORD_KIND, recordRange, type CaptureStore } from './store'

export interface WriteOptions {
  /** Frame index range [from, to) of the store's frames; the whole capture when absent. */
  from?: number
  to?: number
  gzip?: boolean
  /** Characters of NDJSON per chunk before encoding (and compression). */
  chunkSize?: number
}

export interface WriteResult {
  /** Records written, the header not counted. */
  records: number
  /** Bytes handed to the output (compressed bytes for gzip). */
  bytes: number
}

/** Id of a record that creates a resource or a heap, or of what a release, free or commit is about. */
function idOf(store: CaptureStore, index: number): number {
  const ref = store.records.ref[index]
  switch (store.records.kind[index]) {
    case RECORD_KIND.buffer:
      return store.buffers.id.data[ref]
    case RECORD_KIND.texture:
      return store.textures.id.data[ref]
    case RECORD_KIND.placed:
      return store.placed.id.data[ref]
    case RECORD_KIND.transient:
      return store.transients.id.data[ref]
    default:
      return store.ops[ref]
  }
}

/** The state at record `start`: what to create again there, in record order, and the budget in force. */
function stateAt(store: CaptureStore, start: number): { creates: number[]; budget: number | undefined } {
  const { kind, ref } = store.records
  // id → index of the record that created it (resources and heaps have separate ids), and of its last commit
  const live = new Map<number, number>()
  const heaps = new Map<number, number>()
  const commits = new Map<number, number>()
  let graph = -1
  let transients: number[] = []
  let budget: number | undefined
  for (let i = 0; i < start; i++) {
    switch (kind[i]) {
      case RECORD_KIND.buffer:
      case RECORD_KIND.texture:
      case RECORD_KIND.placed:
        live.set(idOf(store, i), i)
        break
      case RECORD_KIND.release: {
        const id = idOf(store, i)
        live.delete(id)
        commits.delete(id)
        break
      }
      case RECORD_KIND.commit:
        commits.set(idOf(store, i), i)
        break
      case RECORD_KIND.heap:
        heaps.set(idOf(store, i), i)
        break
      case RECORD_KIND.free:
        heaps.delete(idOf(store, i))
        break
      case RECORD_KIND.graph:
        graph = i
        transients = []
        break
      case RECORD_KIND.transient:
        transients.push(i)
        break
      case RECORD_KIND.endgraph:
        graph = -1
        transients = []
        break
      case RECORD_KIND.budget:
        budget = store.ops[ref[i]]
        break
    }
  }
  const creates = [...live.values(), ...heaps.values()]
  // the last commit of each live resource since it was created (a commit of an id not live is not state)
  for (const [id, index] of commits) if ((live.get(id) ?? Infinity) < index) creates.push(index)
  if (graph >= 0) creates.push(graph, ...transients)
  // a commit sorts after the create of its resource, a placed resource after its heap: record order is theirs
  return { creates: creates.sort((a, b) => a - b), budget }
}

export interface Export {
  /** The store's header, with the budget in force at the range's start. */
  header: CaptureHeader
  /** The range's first frame record, the state at its start, then the rest of the range. */
  records: Iterable<AnyCaptureRecord>
}

/** What a capture of `from`…`to` of the store's frames holds. */
export function exportOf(store: CaptureStore, from?: number, to?: number): Export {
  const { start, end } = recordRange(store, from, to)
  if (start === 0 || start >= end) return { header: store.header, records: recordIndices(store, [], start, end) }
  const { creates, budget } = stateAt(store, start)
  // a range after the first frame starts with its frame record: the state comes after it, in that frame
  const head = store.records.kind[start] === RECORD_KIND.frame ? [start] : []
  return {
    header: budget === undefined ? store.header : { ...store.header, budget },
    records: recordIndices(store, [...head, ...creates], start + head.length, end),
  }
}

/** The records at the indices `first`, then at start…end; iterable more than once. */
function recordIndices(store: CaptureStore, first: number[], start: number, end: number): Iterable<AnyCaptureRecord> {
  return {
    *[Symbol.iterator]() {
      for (const index of first) yield recordAt(store, index)
      for (let i = start; i < end; i++) yield recordAt(store, i)
    },
  }
}

/** The export as chunks of UTF-8 NDJSON. */
async function* ndjsonChunks(store: CaptureStore, options: WriteOptions, count: { records: number }): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder()
  const ready: string[] = []
  const sink = new NdjsonSink((chunk) => void ready.push(chunk), options.chunkSize)
  const { header, records } = exportOf(store, options.from, options.to)
  sink.line(recordLine(header))
  for (const record of records) {
    sink.line(recordLine(record))
    count.records++
    while (ready.length > 0) yield encoder.encode(ready.shift())
  }
  await sink.flush()
  while (ready.length > 0) yield encoder.encode(ready.shift())
}

/**
 * Write the store (or `from`…`to` of its frames) as a capture through `write`, awaiting it whenever it returns
 * a promise (an output stream's backpressure).
 */
export async function writeCapture(
  store: CaptureStore,
  write: (chunk: Uint8Array) => void | Promise<void>,
  options: WriteOptions = {},
): Promise<WriteResult> {
  const result: WriteResult = { records: 0, bytes: 0 }
  const source = Readable.from(ndjsonChunks(store, options, result), { objectMode: false })
  const output = async (chunks: AsyncIterable<Uint8Array>) => {
    for await (const chunk of chunks) {
      result.bytes += chunk.length
      await write(chunk)
    }
  }
  if (options.gzip) await pipeline(source, createGzip(), output)
  else await pipeline(source, output)
  return result
}

/** Write the capture to a file. */
export async function writeCaptureFile(store: CaptureStore, path: string, options: WriteOptions = {}): Promise<WriteResult> {
  // Open first, so a path that cannot be written rejects here instead of erroring a stream nobody listens to.
  const file = await open(path, 'w')
  try {
    const result = await writeCapture(store, async (chunk) => {
      await file.write(chunk)
    }, options)
    await file.close()
    return result
  } catch (err) {
    await file.close().catch(() => undefined)
    throw err
  }
}

/** The capture as one array of bytes (a download). */
export async function captureBytes(store: CaptureStore, options: WriteOptions = {}): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  const { bytes } = await writeCapture(store, (chunk) => void parts.push(chunk), options)
  const out = new Uint8Array(bytes)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
