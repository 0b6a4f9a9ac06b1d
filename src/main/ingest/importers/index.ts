/**
 * The importers of foreign formats behind one dispatcher. A format is detected by content, never by file name:
 * each entry recognises its format from the first few KiB, and its importer returns null when the content is not
 * its format after all, or throws an ImportError when it is but is broken.
 */
import { attemptToImportGpgmm, GPGMM_FORMAT, sniffGpgmm, type GpgmmImportOptions } from './gpgmm'
import type { AnyCaptureRecord } from '../../../shared/capture'
import type { CaptureImportOptions } from '../../../shared/ipc'
import { decodeHead, SNIFF_BYTES, type ImportedCapture, type ImportSource } from './source'
import { importRmv, RMV_FORMAT, sniffRmv, type ParseRmvOptions, type RmvObservedOptions } from './rmv'
import { importUtrace, sniffUtrace, UTRACE_FORMAT } from './utrace'
import { attemptToImportVma, sniffVma, VMA_FORMAT } from './vma'

export { attemptToImportGpgmm, DEFAULT_FRAME_MICROS, type GpgmmImportOptions } from './gpgmm'
export { ImportError, SNIFF_BYTES, type ImportedCapture, type ImportSource } from './source'
export { attemptToImportVma } from './vma'

export interface ImportOptions {
  gpgmm?: GpgmmImportOptions
  rmv?: ParseRmvOptions & RmvObservedOptions
}

/** The user's frame options as each time-based importer takes them: RMV traces, and GPGMM traces. */
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
  return { rmv, gpgmm }
}

export interface Importer {
  /** The format's name, as sniffFormat and ImportedCapture.format give it. */
  name: string
  /** Whether the first bytes of a file (at most SNIFF_BYTES, BOM included) look like this format. */
  sniff(head: Uint8Array): boolean
  import(source: ImportSource, options: ImportOptions): ImportedCapture<AnyCaptureRecord> | null
}

/** The importers, in the order they are tried. */
export const IMPORTERS: readonly Importer[] = [
  { name: VMA_FORMAT, sniff: (head) => sniffVma(decodeHead(head)), import: (source) => attemptToImportVma(source) },
  {
    name: GPGMM_FORMAT,
    sniff: (head) => sniffGpgmm(decodeHead(head)),
    import: (source, options) => attemptToImportGpgmm(source, options.gpgmm),
  },
  { name: RMV_FORMAT, sniff: sniffRmv, import: (source, options) => importRmv(source, options.rmv) },
  { name: UTRACE_FORMAT, sniff: sniffUtrace, import: (source, options) => importUtrace(source, options.rmv) },
]

/** The format of a file from its first few KiB, or null when no importer recognises it. */
export function sniffFormat(head: Uint8Array): string | null {
  const bytes = head.subarray(0, SNIFF_BYTES)
  for (const importer of IMPORTERS) if (importer.sniff(bytes)) return importer.name
  return null
}

/**
 * Import a foreign file by its content. The importers whose format the head shows go first; then the others,
 * since some look past the head (a GPGMM trace whose first events are another library's).
 */
export function importCapture(source: ImportSource, options: ImportOptions = {}): ImportedCapture<AnyCaptureRecord> | null {
  const head = source.bytes.subarray(0, SNIFF_BYTES)
  const sniffed = IMPORTERS.filter((importer) => importer.sniff(head))
  for (const importer of sniffed) {
    const imported = importer.import(source, options)
    if (imported) return imported
  }
  for (const importer of IMPORTERS) {
    if (sniffed.includes(importer)) continue
    const imported = importer.import(source, options)
    if (imported) return imported
  }
  return null
}
