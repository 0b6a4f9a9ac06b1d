/**
 * Radeon Memory Visualizer traces (.rmv): the reader (parseRmv → RmvTrace) and the mapping to observed data
 * (rmvToObserved). See docs/rmv.md for the layouts read and what maps to what.
 */
import { detectContainer } from './container'
import { rmvToObserved, type RmvObserved, type RmvObservedOptions } from './observed'
import { parseRmv, type ParseRmvOptions } from './trace'

export { RmvFormatError } from './errors'
export { detectContainer, type RmvDecompress } from './container'
export { parseRmv, eventAt, clockToMs, type ParseRmvOptions, type RmvEvent } from './trace'
export {
  rmvToObserved,
  heapKindOf,
  DEFAULT_BUCKET_MS,
  type RmvObserved,
  type RmvObservedOptions,
  type RmvObservedHeap,
  type RmvObservedResource,
  type RmvResidencyEvent,
} from './observed'
export { rmtFormatName, rmtFormatToDxgi } from './formats'
export { RMV_FORMAT, sniffRmv, importRmv } from './importer'
export * from './types'

/** Reads an .rmv trace as observed data, or null when the bytes are not an RMV trace (by content, not name). */
export function attemptToImportRmv(
  bytes: Uint8Array,
  options: ParseRmvOptions & RmvObservedOptions = {},
): RmvObserved | null {
  if (detectContainer(bytes) === null) return null
  return rmvToObserved(parseRmv(bytes, options), options)
}
