/**
 * The .utrace entry for the importers' dispatcher: sniff by magic, read a chunk at a time, map Video memory to
 * capture records, and report a broken trace as an ImportError that names the file and byte. What the records
 * cannot say (System memory, bookmarks, how frames were cut) goes into notes.
 */
import type { AnyCaptureRecord } from '../../../../shared/capture'
import { ImportError, ImportNotes, type ImportedCapture, type ImportSource } from '../source'
import { UtraceFormatError } from './errors'
import { utraceToObserved, type UtraceObservedOptions } from './observed'
import { UTRACE_MAGIC, UTRACE_OLD_MAGIC } from './reader'
import { readUtrace, type ReadUtraceOptions } from './trace'

export const UTRACE_FORMAT = 'utrace'

export type UtraceImportOptions = ReadUtraceOptions & UtraceObservedOptions

export function sniffUtrace(head: Uint8Array): boolean {
  if (head.length < 4) return false
  const magic = String.fromCharCode(head[0], head[1], head[2], head[3])
  return magic === UTRACE_MAGIC || magic === UTRACE_OLD_MAGIC
}

export function importUtrace(source: ImportSource, options: UtraceImportOptions = {}): ImportedCapture<AnyCaptureRecord> | null {
  if (!sniffUtrace(source.bytes)) return null
  try {
    const trace = readUtrace(source.bytes, options)
    const observed = utraceToObserved(trace, options)
    const notes = new ImportNotes()
    const s = trace.stream
    notes.add(
      'stream',
      `transport ${s.transport}, protocol ${s.protocol}: ${s.packets} packets (${s.compressedPackets} LZ4), ${s.threads} threads, ${s.events} events, ${s.skipped} of them of no use here and stepped over`,
    )
    notes.add(
      'frames',
      observed.framesFrom === 'markers'
        ? `frames from ${observed.frameCount - 1} ${observed.frameType} frame starts (Misc.BeginFrame)`
        : observed.framesFrom === 'buckets'
          ? `frames are ${observed.bucketMs} ms time buckets${options.frameMarkers === false ? '' : ' (the trace has no frame events)'}`
          : 'the trace has no time (no frame events, no Memory.Marker): everything is in frame 0',
    )
    if (!trace.memory) notes.add('memory', 'the trace has no Memory.Init: it was not recorded with the memory channel (-trace=default,memory)')
    const c = observed.counts
    notes.add('video', `Video memory: ${c.heaps} heaps, ${c.placed} placed resources, ${c.committed} committed resources`)
    if (trace.otherRoots.allocs > 0 || trace.otherRoots.frees > 0) {
      notes.add(
        'system',
        `System memory is left out: ${trace.otherRoots.allocs} allocations (${trace.otherRoots.bytes} bytes in all) and ${trace.otherRoots.frees} frees of other root heaps`,
      )
    }
    if (trace.callstacks.size > 0) notes.add('callstacks', `${trace.callstacks.size} call stacks, ${trace.modules.length} modules`)
    for (const b of observed.bookmarks) notes.add('bookmark', `bookmark at frame ${b.frame}: ${b.text}`)
    for (const [event, u] of trace.unread) {
      notes.add('unread', `${event}: ${u.count} events not read, its declaration has no field "${u.field}" (it has: ${u.fields})`)
    }
    for (const [kind, count] of Object.entries(observed.warnings)) notes.add('warning', `${kind}: ${count}`)
    if (s.truncated) notes.add('truncated', s.truncated.what)
    for (const t of s.unfinishedThreads) notes.add('unfinished', `thread ${t.thread} ends inside an event (${t.bytes} bytes left unread)`)
    // what UE's allocators did, with no requests a model could place
    return { header: observed.header, records: observed.records, format: UTRACE_FORMAT, notes: notes.list(), trace: { kind: 'observed', requests: 0 } }
  } catch (error) {
    if (error instanceof UtraceFormatError) throw new ImportError(source.name, error.message, { offset: error.offset, expected: error.expected })
    if (error instanceof RangeError) throw new ImportError(source.name, error.message)
    throw error
  }
}
