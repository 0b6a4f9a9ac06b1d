/** Opening captures: files the host offers, uploads, import options, load progress and outcomes, export. */
import type { Bytes } from '../units'
import type { RunSummary } from './run'

/** A file the host lets the renderer open by id: a shipped demo, a recent file, a command-line argument. */
export interface CaptureEntry {
  fileId: string
  name: string
  /** Where it comes from, for grouping in the start view. */
  origin: 'demo' | 'recent' | 'argument' | 'dialog' | 'history'
  bytes?: Bytes
  description?: string
  /** The folder the file is in: what tells apart files of one name (shared/fileLabels.ts). */
  folder?: string
}

export interface LoadProgress {
  loadId: string
  /**
   * Reading the file, then replaying it through the model. A capture followed as it is written: `following`
   * each time more of its frames have been replayed, with the run's summary; the last one has a summary that is
   * no longer `live` (and `error` when a fault ended it).
   */
  phase: 'reading' | 'replaying' | 'following'
  summary?: RunSummary
  error?: LoadErrorInfo
  /** Replaying: frames replayed of all frames. */
  framesDone?: number
  frames?: number
  bytesRead: Bytes
  totalBytes: Bytes
  records: number
  warnings: number
}

export interface LoadErrorInfo {
  file: string
  message: string
  line: number
  byteOffset: number
  expected: string
}

export type LoadOutcome =
  | { ok: true; summary: RunSummary; error?: LoadErrorInfo }
  | { ok: false; error: LoadErrorInfo; cancelled?: boolean }

/**
 * How an imported trace's time becomes frames (Radeon Memory Visualizer and GPGMM traces; other formats have
 * their own frames and ignore it): the trace's frame markers where it has them, else fixed time buckets; and
 * whether a GPGMM trace is what GPGMM did or its requests for the model.
 */
export interface CaptureImportOptions {
  /** Length of one frame when frames are time buckets, in ms (IMPORT_BUCKET_MS bounds it). */
  bucketMs?: number
  /** Cut frames at the trace's frame markers (presents) when it has them; false: always time buckets. */
  frameMarkers?: boolean
  /**
   * A trace that records what an allocator did (GPGMM) and the requests it was given: replay the requests through
   * this model in place of showing what the allocator did. Absent: the run is observed, what the allocator did.
   */
  model?: ImportModel
}

/**
 * The models an imported trace can be replayed through instead of shown as it happened: the UE 5.8 D3D12 allocator
 * model (a GPGMM trace's requests), the Vulkan model (a VMA dump's blocks and allocations, on the dump's device).
 */
export const IMPORT_MODELS = ['d3d12', 'vulkan'] as const

export type ImportModel = (typeof IMPORT_MODELS)[number]

/** The bucket lengths a load accepts, in ms: a tenth of a millisecond to an hour. */
export const IMPORT_BUCKET_MS = { min: 0.1, max: 3_600_000 } as const

export interface OpenRequest {
  fileId: string
  /** Chosen by the renderer so it can match progress and cancel. */
  loadId: string
  import?: CaptureImportOptions
}

export interface UploadBegin {
  loadId: string
  name: string
  bytes: Bytes
  import?: CaptureImportOptions
}

export interface UploadChunk {
  loadId: string
  data: Uint8Array
}

/**
 * Export a run's capture, whole or a frame range of it. The desktop app asks where to save in a native dialog
 * and writes there; the browser host sends the bytes back for the page to download.
 */
export interface ExportRequest {
  runId: string
  /** Frame index range [from, to); the whole capture when absent. */
  from?: number
  to?: number
  gzip: boolean
}

export type ExportOutcome =
  | { kind: 'saved'; name: string; bytes: Bytes }
  | { kind: 'download'; name: string; data: Uint8Array }
  | { kind: 'cancelled' }
