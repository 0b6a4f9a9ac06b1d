/**
 * The head of every run's report (`heapscope report --json`, docs/cli.md), whichever backend replayed it: the
 * capture (file, format, API, frames, records, whether it was cut short, its warnings), its resources counted
 * from the records, and the peak of the all-heaps total. Each backend's report adds its heaps and figures after.
 */
import type { RunReport } from '../../shared/ipc'
import type { Bytes } from '../../shared/units'
import type { LoadResult } from '../ingest/read'
import { RECORD_KIND, type CaptureStore } from '../ingest/store'
import { TOTAL_SERIES } from '../../shared/series'
import { CaptureNames } from './names'
import type { SeriesTable } from './seriesTable'

export type ReportEnvelope = Pick<
  RunReport,
  'file' | 'format' | 'api' | 'frames' | 'records' | 'partial' | 'error' | 'warnings' | 'resources' | 'peak'
>

/** The series reportEnvelope reads. */
export const ENVELOPE_SERIES: readonly string[] = [TOTAL_SERIES.heapBytes]

/** The report's head, in the order `report --json` prints it. */
export function reportEnvelope(result: LoadResult, series: SeriesTable): ReportEnvelope {
  const { store } = result
  const total = series.get(TOTAL_SERIES.heapBytes)
  const peakFrame = peakIndex(total)
  return {
    file: store.file,
    format: result.format,
    api: store.header.api ?? 'd3d12',
    frames: store.frames.length,
    records: store.records.length,
    partial: store.partial,
    ...(result.error ? { error: result.error.message } : {}),
    warnings: { ...store.warnings.counts } as Record<string, number>,
    resources: countResources(store),
    peak: { frame: store.frames.length ? store.frames.n[peakFrame] : 0, bytes: total?.[peakFrame] ?? 0 },
  }
}

export interface PeakEnd {
  peakBytes: Bytes
  endBytes: Bytes
}

/**
 * Resource counts straight from the records: creates, releases, names, and what is alive at the end. A resource
 * counts as named when its create has a name or a `name` record (1.3) names it while it lives.
 */
export function countResources(store: CaptureStore): RunReport['resources'] {
  let created = 0
  let released = 0
  let named = 0
  const names = new CaptureNames(store)
  // live resources created without a name, by id → their create record, when the capture names things later
  const unnamed = names.empty ? undefined : new Map<number, number>()
  const namedLater = (id: number, end: number) => {
    const create = unnamed?.get(id)
    if (create === undefined) return
    if (names.resource(id, create, end) !== undefined) named++
    unnamed?.delete(id)
  }
  // The columns in locals: a one-shot report runs this loop once, mostly before the engine has optimised it, and
  // the interpreter pays for every property read in it.
  const { kind, ref, length } = store.records
  const bufferName = store.buffers.name.data
  const textureName = store.textures.name.data
  const ops = store.ops
  for (let i = 0; i < length; i++) {
    const k = kind[i]
    if (k === RECORD_KIND.buffer) {
      created++
      if (bufferName[ref[i]] !== 0) named++
      else unnamed?.set(store.buffers.id.data[ref[i]], i)
    } else if (k === RECORD_KIND.texture) {
      created++
      if (textureName[ref[i]] !== 0) named++
      else unnamed?.set(store.textures.id.data[ref[i]], i)
    } else if (k === RECORD_KIND.transient || k === RECORD_KIND.placed) {
      const table = k === RECORD_KIND.transient ? store.transients : store.placed
      const r = ref[i]
      const desc = table.desc.data[r]
      created++
      const nameId = table.kind.data[r] === 0 ? bufferName[desc] : textureName[desc]
      if (nameId !== 0) named++
      // a transient is gone when its graph ends
      if (k === RECORD_KIND.transient) released++
    } else if (k === RECORD_KIND.release) {
      released++
      if (unnamed) namedLater(ops[ref[i]], i)
    }
  }
  if (unnamed) for (const id of [...unnamed.keys()]) namedLater(id, store.records.length)
  return { created, released, named, liveAtEnd: created - released }
}

/** The index of a column's first largest value (0 for a missing or empty column). */
export function peakIndex(column: Float64Array | undefined): number {
  let peak = 0
  if (column) for (let f = 1; f < column.length; f++) if (column[f] > column[peak]) peak = f
  return peak
}

/** A column's largest value and its last, zero for a missing or empty column. */
export function peakEnd(column: Float64Array | undefined): PeakEnd {
  if (!column || column.length === 0) return { peakBytes: 0, endBytes: 0 }
  let peak = 0
  for (let i = 0; i < column.length; i++) if (column[i] > peak) peak = column[i]
  return { peakBytes: peak, endBytes: column[column.length - 1] }
}
