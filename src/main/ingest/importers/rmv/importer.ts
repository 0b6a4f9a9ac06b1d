/**
 * The RMV entry for the importers' dispatcher: sniff by magic, import as capture records, and report a broken
 * trace as an ImportError that names the file and byte. Residency and page-table series stay in rmvToObserved's
 * answer; here they are summed up in notes.
 */
import { ImportError, type ImportedCapture, type ImportSource } from '../source'
import { detectContainer } from './container'
import { RmvFormatError } from './errors'
import { rmvToObserved, type RmvObservedOptions } from './observed'
import { parseRmv, type ParseRmvOptions } from './trace'

export const RMV_FORMAT = 'rmv'

export function sniffRmv(head: Uint8Array): boolean {
  return detectContainer(head) !== null
}

export function importRmv(source: ImportSource, options: ParseRmvOptions & RmvObservedOptions = {}): ImportedCapture | null {
  if (!sniffRmv(source.bytes)) return null
  try {
    const observed = rmvToObserved(parseRmv(source.bytes, options), options)
    const notes = [
      observed.framesFrom === 'markers'
        ? `frames from ${observed.frameCount - 1} present markers`
        : `frames are ${observed.bucketMs} ms time buckets (the trace has no present markers)`,
      `${observed.residency.length} residency events and per-frame page-table totals are not capture records`,
      ...Object.entries(observed.warnings).map(([kind, count]) => `${kind}: ${count}`),
    ]
    return { header: observed.header, records: observed.records, format: RMV_FORMAT, notes }
  } catch (error) {
    if (error instanceof RmvFormatError) throw new ImportError(source.name, error.message, { offset: error.offset, expected: error.expected })
    throw error
  }
}
