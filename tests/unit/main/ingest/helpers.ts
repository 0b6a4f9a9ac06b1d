import { CaptureError } from '../../../../src/main/ingest/errors'
import { NdjsonScanner } from '../../../../src/main/ingest/scanner'
import { CaptureBuilder, type CaptureStore } from '../../../../src/main/ingest/store'

export const HEADER = '{"format":"heapscope-capture","version":1,"api":"d3d12"}'

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
