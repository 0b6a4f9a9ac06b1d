import { runGen } from '../../../../src/main/cli/gen'
import { CaptureError } from '../../../../src/main/ingest/errors'
import { RecordScratch } from '../../../../src/main/ingest/fields'
import { recordsOf } from '../../../../src/main/ingest/records'
import { NdjsonScanner } from '../../../../src/main/ingest/scanner'
import type { CaptureStore } from '../../../../src/main/ingest/store'
import { CaptureBuilder } from '../../../../src/main/ingest/storeBuilder'

export const HEADER = '{"format":"heapscope-capture","version":1,"api":"d3d12"}'

/** A store of one use record per list, built as an importer would. */
export function useStoreOf(lists: number[][]): CaptureStore {
  const builder = new CaptureBuilder()
  const scratch = new RecordScratch()
  for (const ids of lists) {
    scratch.fromObject({ e: 'use', ids }, builder.strings)
    builder.add(scratch)
  }
  return builder.finish('use.hscap', 0, lists.length, false)
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

/** Scan `text` cut into chunks of `chunkSize` bytes; returns the store and the fatal error, if any. */
export function scan(
  text: string | Uint8Array,
  chunkSize = 1 << 20,
  options: { headerOptional?: boolean } = {},
): { store: CaptureStore; error?: CaptureError } {
  const bytes = typeof text === 'string' ? bytesOf(text) : text
  const builder = new CaptureBuilder()
  const scanner = new NdjsonScanner(builder, { file: 'test.hscap', ...options })
  let error: CaptureError | undefined
  try {
    for (let i = 0; i < bytes.length; i += chunkSize) scanner.push(bytes.subarray(i, Math.min(bytes.length, i + chunkSize)))
    scanner.finish()
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err
    error = err
  }
  return { store: builder.finish('test.hscap', bytes.length, scanner.lines, error !== undefined), error }
}

export function lines(...records: object[]): string {
  return [HEADER, ...records.map((r) => JSON.stringify(r))].join('\n') + '\n'
}

/** A capture from the project's generator, as text. */
export async function generated(scenario: string, frames: number, seed = 1): Promise<string> {
  let text = ''
  await runGen(scenario, { frames, seed }, (chunk) => {
    text += chunk
  })
  return text
}

/** The bytes as a stream of chunks of the given sizes, cycling through them (1 byte up). */
export async function* chunksOf(bytes: Uint8Array, sizes: number | readonly number[]): AsyncGenerator<Uint8Array> {
  const list = typeof sizes === 'number' ? [sizes] : sizes
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, list[i % list.length])
    yield bytes.slice(at, Math.min(bytes.length, at + size))
    at += size
  }
}

/**
 * Everything a store holds, as plain data to compare two stores by. `numbers`: with the number the scanner gave
 * each extra-keys text (RecordExtras.idAt), which a store built from objects (importers) does not have.
 */
export function dumpStore(store: CaptureStore, options: { numbers?: boolean } = {}): Record<string, unknown> {
  const tables = { buffers: store.buffers, textures: store.textures, transients: store.transients, placed: store.placed }
  const strings: (string | undefined)[] = []
  for (let id = 1; id < store.strings.size; id++) strings.push(store.strings.get(id))
  return {
    header: store.header,
    records: [...recordsOf(store)],
    kind: Array.from(store.records.kind),
    ref: Array.from(store.records.ref),
    frames: [Array.from(store.frames.n), Array.from(store.frames.t), Array.from(store.frames.firstRecord)],
    ops: Array.from(store.ops),
    useIds: Array.from(store.useIds),
    tables: Object.fromEntries(
      Object.entries(tables).map(([name, table]) => [name, table.columns().map((c) => Array.from(c.view()))]),
    ),
    strings,
    extras: options.numbers ? [...store.extras].map(([record, text], i) => [record, text, store.extras.idAt(i)]) : [...store.extras],
    warnings: store.warnings,
    hasUseRecords: store.hasUseRecords,
    hasGpuRecords: store.hasGpuRecords,
    lines: store.lines,
    partial: store.partial,
  }
}

/** Where each line (1-based) starts and where it ends: its line feed, or the end of the bytes. */
export function lineSpans(bytes: Uint8Array): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = []
  let start = 0
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      spans.push({ start, end: i })
      start = i + 1
    }
  }
  if (start < bytes.length) spans.push({ start, end: bytes.length })
  return spans
}
