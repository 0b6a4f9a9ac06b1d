/**
 * The importers of foreign formats behind one dispatcher. A format is detected by content, never by file name:
 * each entry recognises its format from the first few KiB, and its importer returns null when the content is not
 * its format after all, or throws an ImportError when it is but is broken.
 */
import { attemptToImportGpgmm, GPGMM_FORMAT, looksLikeTraceEvents, sniffGpgmm } from './gpgmm'
import type { AnyCaptureRecord } from '../../../shared/capture'
import type { ImportOptions } from './options'
import { decodeHead, ImportError, SNIFF_BYTES, type ImportedCapture, type ImportSource } from './source'
import { importRmv, RMV_FORMAT, sniffRmv } from './rmv'
import { importUtrace, sniffUtrace, UTRACE_FORMAT } from './utrace'
import { attemptToImportVma, refuseVma, sniffVma, VMA_FORMAT } from './vma'

export { attemptToImportGpgmm, DEFAULT_FRAME_MICROS, type GpgmmImportOptions } from './gpgmm'
export { ImportError, SNIFF_BYTES, type ImportedCapture, type ImportSource } from './source'
export { attemptToImportVma } from './vma'
export { importOptionsOf, type ImportOptions } from './options'

export interface Importer {
  /** The format's name, as sniffFormat and ImportedCapture.format give it. */
  name: string
  /** Whether the first bytes of a file (at most SNIFF_BYTES, BOM included) look like this format. */
  sniff(head: Uint8Array): boolean
  /** Why a file this importer did not take is not its format, from its head: the message of a file none takes. */
  refuse(head: Uint8Array): string
  import(source: ImportSource, options: ImportOptions): ImportedCapture<AnyCaptureRecord> | null
  /** The format records time, not frames: its frames are cut at its frame markers or in buckets of `bucketMs`. */
  timed?: true
}

/** The importers, in the order they are tried. */
export const IMPORTERS: readonly Importer[] = [
  {
    name: VMA_FORMAT,
    sniff: (head) => sniffVma(decodeHead(head)),
    refuse: (head) => refuseVma(decodeHead(head)),
    import: (source, options) => attemptToImportVma(source, options.vma),
  },
  {
    name: GPGMM_FORMAT,
    timed: true,
    sniff: (head) => sniffGpgmm(decodeHead(head)),
    refuse: (head) =>
      looksLikeTraceEvents(decodeHead(head))
        ? 'it is a trace-event file, but none of its events is a GPGMM allocator, heap or allocation event'
        : 'it is neither an array of trace events nor an object with a "traceEvents" array',
    import: (source, options) => {
      const imported = attemptToImportGpgmm(source, options.gpgmm)
      if (imported && options.model !== undefined && options.model !== 'd3d12') {
        throw new ImportError(source.name, `a GPGMM trace's requests replay through the d3d12 model, not ${options.model}`)
      }
      return imported
    },
  },
  {
    name: RMV_FORMAT,
    timed: true,
    sniff: sniffRmv,
    refuse: () => 'it does not start with the RDF magic "AMD_RDF " or the RMT chunk magic "MINI"',
    import: (source, options) => importRmv(source, options.rmv),
  },
  {
    name: UTRACE_FORMAT,
    timed: true,
    sniff: sniffUtrace,
    refuse: () => 'it does not start with the Unreal Insights trace magic "2CRT" (or the older "ECRT")',
    import: (source, options) => importUtrace(source, options.rmv),
  },
]

/** Whether a format's frames are cut from its time (the user chooses their length). */
export function isTimedFormat(format: string): boolean {
  return IMPORTERS.some((importer) => importer.name === format && importer.timed)
}

/** A format that did not take a file, and why. */
export interface Refusal {
  format: string
  reason: string
}

/** Why each importer refuses a file, in the order they were tried. */
export function refusalsOf(head: Uint8Array): Refusal[] {
  const bytes = head.subarray(0, SNIFF_BYTES)
  return IMPORTERS.map((importer) => ({ format: importer.name, reason: importer.refuse(bytes) }))
}

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
