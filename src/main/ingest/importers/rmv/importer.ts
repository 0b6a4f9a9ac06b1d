/**
 * The RMV entry for the importers' dispatcher: sniff by magic, import as capture records, and report a broken
 * trace as an ImportError that names the file and byte. Page-table series stay in rmvToObserved's answer; here
 * they are summed up in notes.
 */
import type { AnyCaptureRecord } from '../../../../shared/capture'
import { ImportError, type ImportedCapture, type ImportSource } from '../source'
import { detectContainer } from './container'
import { RmvFormatError } from './errors'
import { rmvToObserved, type RmvObservedOptions } from './observed'
import { parseRmv, type ParseRmvOptions } from './trace'
import { zstdDecompress } from './zstd'

export const RMV_FORMAT = 'rmv'

export function sniffRmv(head: Uint8Array): boolean {
  return detectContainer(head) !== null
}

export function importRmv(source: ImportSource, options: ParseRmvOptions & RmvObservedOptions = {}): ImportedCapture<AnyCaptureRecord> | null {
  if (!sniffRmv(source.bytes)) return null
  try {
    const trace = parseRmv(source.bytes, { decompress: zstdDecompress, ...options })
    const observed = rmvToObserved(trace, options)
    let evictions = 0
    for (const r of observed.residency) if (r.kind === 'evict') evictions++
    const cut = trace.truncated
    const notes = [
      ...(cut
        ? [`the trace is truncated: the file ends at byte ${cut.fileLength}, inside its ${cut.chunk} chunk at byte ${cut.chunkOffset}; what the chunks before it hold is shown`]
        : []),
      observed.framesFrom === 'markers'
        ? `frames from ${observed.frameCount - 1} present markers`
        : options.frameMarkers === false
          ? `frames are ${observed.bucketMs} ms time buckets`
          : `frames are ${observed.bucketMs} ms time buckets (the trace has no present markers)`,
      `residency: ${observed.residency.length - evictions} make-resident and ${evictions} evict requests`,
      'per-frame page-table totals are not capture records',
      ...Object.entries(observed.warnings).map(([kind, count]) => `${kind}: ${count}`),
    ]
    // what the driver did, with no requests a model could place
    return { header: observed.header, records: observed.records, format: RMV_FORMAT, notes, trace: { kind: 'observed', requests: 0 } }
  } catch (error) {
    if (error instanceof RmvFormatError) throw new ImportError(source.name, error.message, { offset: error.offset, expected: error.expected })
    // import options out of range (buckets too short for the trace): the user's choice, said as such
    if (error instanceof RangeError) throw new ImportError(source.name, error.message)
    throw error
  }
}
