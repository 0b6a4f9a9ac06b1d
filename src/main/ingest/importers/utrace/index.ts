/**
 * Unreal Insights traces (.utrace): the reader (readUtrace → UtraceTrace), the mapping of Video memory to observed
 * data (utraceToObserved) and the dispatcher's entry (importUtrace). See docs/utrace.md.
 */
export { UtraceFormatError } from './errors'
export { decodeLz4Block, Lz4Error } from './lz4'
export { EventView, readDeclaration, EVENT_FLAG, FIRST_USER_UID, type UtraceEventType, type UtraceField } from './events'
export { UtraceReader, UTRACE_MAGIC, TRANSPORT_VERSIONS, PROTOCOL_VERSIONS, type UtraceHandler, type UtraceStreamSummary } from './reader'
export { readUtrace, mergeBySerial, ROOT_SYSTEM, ROOT_VIDEO, type UtraceTrace, type UtraceTimedEvent, type ReadUtraceOptions } from './trace'
export { utraceToObserved, DEFAULT_BUCKET_MS, type UtraceObserved, type UtraceObservedOptions } from './observed'
export { UTRACE_FORMAT, sniffUtrace, importUtrace, type UtraceImportOptions } from './importer'
