/**
 * The figures of a whole run, as `heapscope report --json` prints them (docs/cli.md), computed from the replay's
 * series and counters. Bytes are what the heaps hold: the model's pools and committed resources, plus the
 * application's own heaps (manual heaps, imported dumps).
 */
import type { RunReport } from '../../../shared/ipc'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { Bytes } from '../../../shared/units'
import { RECORD_KIND, type CaptureStore } from '../../ingest/store'
import type { LoadResult } from '../../ingest/read'
import { CaptureNames } from '../names'
import { RESIDENCY_EVENT, RESIDENCY_SERIES, seriesName, TOTAL_SERIES, TRANSIENT_SERIES, type Replay } from './replay'

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
  const { kind, ref } = store.records
  for (let i = 0; i < store.records.length; i++) {
    const k = kind[i]
    const r = ref[i]
    if (k === RECORD_KIND.buffer) {
      created++
      if (store.buffers.name.data[r] !== 0) named++
      else unnamed?.set(store.buffers.id.data[r], i)
    } else if (k === RECORD_KIND.texture) {
      created++
      if (store.textures.name.data[r] !== 0) named++
      else unnamed?.set(store.textures.id.data[r], i)
    } else if (k === RECORD_KIND.transient || k === RECORD_KIND.placed) {
      const table = k === RECORD_KIND.transient ? store.transients : store.placed
      const desc = table.desc.data[r]
      created++
      const nameId = table.kind.data[r] === 0 ? store.buffers.name.data[desc] : store.textures.name.data[desc]
      if (nameId !== 0) named++
      // a transient is gone when its graph ends
      if (k === RECORD_KIND.transient) released++
    } else if (k === RECORD_KIND.release) {
      released++
      if (unnamed) namedLater(store.ops[r], i)
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

export function buildRunReport(result: LoadResult, replay: Replay): RunReport {
  const { store } = result
  const s = replay.series
  const last = store.frames.length - 1
  const at = (name: string) => (last >= 0 ? (s.get(name)?.[last] ?? 0) : 0)

  const total = s.get(TOTAL_SERIES.heapBytes)
  const peakFrame = peakIndex(total)

  const heaps = {} as RunReport['heaps']
  for (const heap of HEAP_TYPES) {
    const model = s.get(seriesName.heap(heap, 'heapBytes'))
    const manual = s.get(seriesName.manual(heap, 'heapBytes'))
    const sum = new Float64Array(store.frames.length)
    for (let f = 0; f < sum.length; f++) sum[f] = (model?.[f] ?? 0) + (manual?.[f] ?? 0)
    heaps[heap] = peakEnd(sum)
  }

  const live = replay.finalModel().liveAllocations()
  const counts = new Map<string, number>()
  let reserved: RunReport['reserved']
  for (const a of live) {
    counts.set(a.placement, (counts.get(a.placement) ?? 0) + 1)
    if (a.placement !== 'Reserved') continue
    reserved ??= { count: 0, virtualBytes: 0, committedBytes: 0 }
    reserved.count++
    reserved.virtualBytes += a.size
    reserved.committedBytes += a.committed
  }
  const byPlacement: RunReport['byPlacement'] = {}
  for (const placement of PLACEMENTS) {
    const column = s.get(seriesName.placement(placement, 'heapBytes'))
    const figures = peakEnd(column)
    const count = counts.get(placement) ?? 0
    if (figures.peakBytes === 0 && count === 0) continue
    byPlacement[placement] = { ...figures, count }
  }

  let alignment = 0
  let poolFree = 0
  let pending = 0
  for (const heap of HEAP_TYPES) {
    alignment += at(seriesName.heap(heap, 'alignmentWasteBytes'))
    poolFree += at(seriesName.heap(heap, 'poolFreeBytes'))
    pending += at(seriesName.heap(heap, 'pendingFreeBytes'))
  }

  const events = replay.residencyEvents
  let evictions = 0
  let evictedBytes = 0
  let makeResident = 0
  for (let i = 0; i < events.length; i++) {
    const kind = events.kind.data[i]
    if (kind === RESIDENCY_EVENT.evict) {
      evictions++
      evictedBytes += events.bytes.data[i]
    } else if (kind === RESIDENCY_EVENT.makeResident) makeResident++
  }
  const overBudget = s.get(RESIDENCY_SERIES.overBudget)
  let overBudgetFrames = 0
  if (overBudget) for (let f = 0; f < overBudget.length; f++) overBudgetFrames += overBudget[f]

  let savings = 0
  for (let g = 0; g < replay.graphs.length; g++) savings += replay.graphs.savingBytes.data[g]
  const perFrame = s.get(TRANSIENT_SERIES.savingBytes)
  const savingPeak = peakIndex(perFrame)
  const lookups = replay.cacheHits + replay.cacheMisses

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
    heaps,
    byPlacement,
    waste: { alignmentBytes: alignment, poolFreeBytes: poolFree, pendingFreeBytes: pending },
    residency: {
      // without a budget the model runs with an unlimited one: report it as 0, "none"
      budgetBytes: at(RESIDENCY_SERIES.budget) >= Number.MAX_SAFE_INTEGER ? 0 : at(RESIDENCY_SERIES.budget),
      evictions,
      evictedBytes,
      makeResident,
      overBudgetFrames,
    },
    transient: {
      graphs: replay.graphs.length,
      heaps: replay.transientHeaps,
      aliasingSavingsBytes: savings,
      aliasingSavingsPeakBytes: perFrame?.[savingPeak] ?? 0,
      aliasingSavingsPeakFrame: store.frames.length ? store.frames.n[savingPeak] : 0,
      placedCacheHitRate: lookups === 0 ? 0 : replay.cacheHits / lookups,
    },
    ...(reserved ? { reserved } : {}),
  }
}
