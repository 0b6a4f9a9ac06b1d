/**
 * The options the importers take, and the user's import options as each importer takes them. Apart from the
 * importers: a capture's load and the command line read them without loading any importer (read.ts loads those
 * only for a file that is not capture lines).
 */
import type { CaptureImportOptions, ImportModel } from '../../../shared/ipc'
import type { GpgmmImportOptions } from './gpgmm'
import type { ParseRmvOptions, RmvObservedOptions } from './rmv'
import type { VmaImportOptions } from './vma'

export interface ImportOptions {
  gpgmm?: GpgmmImportOptions
  rmv?: ParseRmvOptions & RmvObservedOptions
  vma?: VmaImportOptions
  /** The model the user asked to replay the trace through, for the importers whose traces it does not fit. */
  model?: ImportModel
}

/** The user's import options as each time-based importer takes them: RMV traces, and GPGMM traces. */
export function importOptionsOf(frames: CaptureImportOptions | undefined): ImportOptions {
  if (!frames) return {}
  const rmv: RmvObservedOptions = {}
  const gpgmm: GpgmmImportOptions = {}
  if (frames.bucketMs !== undefined) {
    rmv.bucketMs = frames.bucketMs
    gpgmm.frameMicros = frames.bucketMs * 1000
  }
  if (frames.frameMarkers !== undefined) {
    rmv.frameMarkers = frames.frameMarkers
    if (!frames.frameMarkers) gpgmm.frames = 'time'
  }
  if (frames.model === 'd3d12') gpgmm.requests = true
  return {
    rmv,
    gpgmm,
    ...(frames.model === 'vulkan' ? { vma: { model: true } } : {}),
    ...(frames.model ? { model: frames.model } : {}),
  }
}
