/**
 * The IPC contract between the renderer and a host (the Electron main process, or the browser host over a
 * WebSocket). Channels are `domain:verb`; every payload type is here; `Api` is what `window.api` offers,
 * identical for both hosts. The renderer pulls what it shows; pushes are for progress only.
 */
import type { Bytes } from './units'
import type { WarningKind } from './capture'

/** The channel of each Api method: the renderer invokes it, the host handles it. */
export const CHANNELS = {
  appInfo: 'app:info',
  openCapture: 'capture:open',
  openCaptureDialog: 'capture:openDialog',
  beginUpload: 'upload:begin',
  uploadChunk: 'upload:chunk',
  endUpload: 'upload:end',
  cancelLoad: 'capture:cancel',
  closeRun: 'run:close',
  series: 'series:get',
} as const satisfies Record<Exclude<keyof Api, 'onProgress'>, string>
export type InvokeMethod = keyof typeof CHANNELS

/** Channels the host pushes on. */
export const EVENTS = {
  progress: 'capture:progress',
} as const

/** A file the host lets the renderer open by id: a shipped demo, a recent file, a command-line argument. */
export interface CaptureEntry {
  fileId: string
  name: string
  /** Where it comes from, for grouping in the start view. */
  origin: 'demo' | 'recent' | 'argument' | 'dialog'
  bytes?: Bytes
  description?: string
}

export interface AppInfo {
  host: 'electron' | 'browser'
  version: string
  /** The host can show native open dialogs; otherwise the renderer uploads files the user picks. */
  nativeDialogs: boolean
  /** Files offered at start: the demo captures, recent files, and what the command line asked to open. */
  captures: CaptureEntry[]
  /** The file the app should open at start, if any. */
  openAtStart?: string
  /** Formats the engine reads, for the start view. */
  formats: { name: string; description: string }[]
}

export interface LoadProgress {
  loadId: string
  /** Reading the file, then replaying it through the model. */
  phase: 'reading' | 'replaying'
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

export interface RunSummary {
  runId: string
  file: string
  format: string
  api: 'd3d12' | 'vulkan'
  app?: string
  adapter?: string
  frames: number
  /** The capture's own numbers of the first and last frame. */
  firstFrame: number
  lastFrame: number
  records: number
  sourceBytes: Bytes
  partial: boolean
  warnings: Partial<Record<WarningKind, number>>
  warningSamples: { kind: WarningKind; line: number; offset: number; message: string }[]
  notes: string[]
  /** The per-frame series this run has. */
  series: SeriesInfo[]
}

export type LoadOutcome =
  | { ok: true; summary: RunSummary; error?: LoadErrorInfo }
  | { ok: false; error: LoadErrorInfo; cancelled?: boolean }

export interface OpenRequest {
  fileId: string
  /** Chosen by the renderer so it can match progress and cancel. */
  loadId: string
}

export interface UploadBegin {
  loadId: string
  name: string
  bytes: Bytes
}

export interface UploadChunk {
  loadId: string
  data: Uint8Array
}

/**
 * Per-frame series a run offers, named by a dotted path: `heap.DEFAULT.heapBytes`,
 * `placement.SharedBufferPool.occupiedBytes`, `tag.Textures.occupiedBytes`, `residency.residentBytes`, …
 * A run's summary lists the ones it has.
 */
export const SERIES = {
  liveRequested: 'requested.live',
  liveCount: 'resources.live',
} as const
export type SeriesName = string

export interface SeriesInfo {
  name: SeriesName
  label: string
  unit: 'bytes' | 'count' | 'flag'
  /** For grouping in a legend: 'heap', 'placement', 'tag', 'residency', 'transient', 'upload', 'resources'. */
  group: string
}

export interface SeriesQuery {
  runId: string
  series: SeriesName[]
  /** Frame index range [from, to). */
  from: number
  to: number
  /** Most buckets wanted; the answer has at most this many. */
  resolution: number
}

export interface SeriesBuckets {
  min: Float64Array
  max: Float64Array
  mean: Float64Array
}

export interface SeriesAnswer {
  runId: string
  /** First frame index of each bucket; buckets cover [from, to). */
  start: Float64Array
  /** The capture's frame number at each bucket start. */
  frame: Float64Array
  /** Frames per bucket (the last may hold fewer). */
  width: number
  series: Record<SeriesName, SeriesBuckets>
}

export type Unsubscribe = () => void

/** What the renderer can ask of a host. Both hosts implement exactly this. */
export interface Api {
  appInfo(): Promise<AppInfo>
  openCapture(request: OpenRequest): Promise<LoadOutcome>
  /** Show the host's open dialog and load the choice; null when cancelled or when there is no native dialog. */
  openCaptureDialog(loadId: string): Promise<LoadOutcome | null>
  /**
   * Stream a file the user picked in the page (drag and drop, file input) to the engine: begin, chunks in
   * order (each resolves when the engine has taken it; `false` means the load already ended), then end,
   * which resolves with the outcome.
   */
  beginUpload(begin: UploadBegin): Promise<void>
  uploadChunk(chunk: UploadChunk): Promise<boolean>
  endUpload(loadId: string): Promise<LoadOutcome>
  cancelLoad(loadId: string): Promise<void>
  closeRun(runId: string): Promise<void>
  series(query: SeriesQuery): Promise<SeriesAnswer>
  onProgress(listener: (progress: LoadProgress) => void): Unsubscribe
}
