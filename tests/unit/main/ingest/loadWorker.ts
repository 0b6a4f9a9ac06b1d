/**
 * Loads captures in a worker thread for the robustness tests, so a load that never ends fails its case instead
 * of stopping the test run: the test terminates the worker when a case takes too long.
 */
import { parentPort } from 'node:worker_threads'
import { CaptureError } from '../../../../src/main/ingest/errors'
import { loadCapture } from '../../../../src/main/ingest/read'
import { chunksOf } from './helpers'

export interface LoadCase {
  bytes: Uint8Array
  chunkSizes: number[]
}

export interface FaultInfo {
  name: string
  message: string
  isCaptureError: boolean
  line: number
  byteOffset: number
  expected: string
}

export type LoadOutcome =
  | { kind: 'loaded'; error?: FaultInfo; partial: boolean; records: number; lines: number }
  | { kind: 'thrown'; error: FaultInfo }

function faultInfo(err: unknown): FaultInfo {
  const e = err as Partial<CaptureError> & { constructor?: { name?: string } }
  return {
    name: e?.constructor?.name ?? typeof err,
    message: err instanceof Error ? err.message : String(err),
    isCaptureError: err instanceof CaptureError,
    line: e?.line ?? -1,
    byteOffset: e?.byteOffset ?? -1,
    expected: e?.expected ?? '',
  }
}

parentPort?.on('message', async ({ bytes, chunkSizes }: LoadCase) => {
  let outcome: LoadOutcome
  try {
    const { store, error } = await loadCapture(chunksOf(bytes, chunkSizes), { file: 'fuzz.hscap', totalBytes: bytes.length })
    outcome = {
      kind: 'loaded',
      error: error && faultInfo(error),
      partial: store.partial,
      records: store.records.length,
      lines: store.lines,
    }
  } catch (err) {
    outcome = { kind: 'thrown', error: faultInfo(err) }
  }
  parentPort!.postMessage(outcome)
})
// the modules are loaded: a case's time bound starts from here, not from the worker's start
parentPort?.postMessage({ kind: 'ready' })
