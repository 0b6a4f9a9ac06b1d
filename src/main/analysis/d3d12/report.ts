/**
 * The figures of a whole run, as `heapscope report --json` prints them (docs/cli.md), computed from the replay's
 * series and counters. Bytes are what the heaps hold: the model's pools and committed resources, plus the
 * application's own heaps (manual heaps, imported dumps).
 */
import type { RunReport } from '../../../shared/ipc'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { LoadResult } from '../../ingest/read'
import { ENVELOPE_SERIES, peakEnd, peakIndex, reportEnvelope } from '../reportEnvelope'
import { RESIDENCY_SERIES, seriesName, TRANSIENT_SERIES, type Replay } from './replay'

export { countResources, peakEnd, peakIndex, type PeakEnd } from '../reportEnvelope'

/**
 * The series buildRunReport reads, and all a replay read for its report alone keeps (SeriesTableOptions.keep):
 * the others would each cost a column, a page of fresh memory per 512 frames, that no one reads.
 */
const REPORT_SERIES: ReadonlySet<string> = new Set([
  ...ENVELOPE_SERIES,
  ...HEAP_TYPES.flatMap((heap) => [
    seriesName.heap(heap, 'heapBytes'),
    seriesName.manual(heap, 'heapBytes'),
    seriesName.heap(heap, 'alignmentWasteBytes'),
    seriesName.heap(heap, 'poolFreeBytes'),
    seriesName.heap(heap, 'pendingFreeBytes'),
  ]),
  ...PLACEMENTS.map((placement) => seriesName.placement(placement, 'heapBytes')),
  RESIDENCY_SERIES.overBudget,
  RESIDENCY_SERIES.budget,
  TRANSIENT_SERIES.savingBytes,
])

/** Whether buildRunReport reads a series. */
export const reportReads = (name: string): boolean => REPORT_SERIES.has(name)

export function buildRunReport(result: LoadResult, replay: Replay): RunReport {
  const { store } = result
  const s = replay.series
  const last = store.frames.length - 1
  const at = (name: string) => (last >= 0 ? (s.get(name)?.[last] ?? 0) : 0)

  const heaps = {} as RunReport['heaps']
  for (const heap of HEAP_TYPES) {
    const model = s.get(seriesName.heap(heap, 'heapBytes'))
    const manual = s.get(seriesName.manual(heap, 'heapBytes'))
    const sum = new Float64Array(store.frames.length)
    for (let f = 0; f < sum.length; f++) sum[f] = (model?.[f] ?? 0) + (manual?.[f] ?? 0)
    heaps[heap] = peakEnd(sum)
  }

  const live = replay.finalModel().livePlacements()
  const reserved: RunReport['reserved'] = live.reserved.count > 0 ? live.reserved : undefined
  const byPlacement: RunReport['byPlacement'] = {}
  for (const [p, placement] of PLACEMENTS.entries()) {
    const column = s.get(seriesName.placement(placement, 'heapBytes'))
    const figures = peakEnd(column)
    const count = live.counts[p]
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

  // counted as they came, rows kept or not
  const { evictions, evictedBytes, madeResident: makeResident } = replay.residencyEvents
  const overBudget = s.get(RESIDENCY_SERIES.overBudget)
  let overBudgetFrames = 0
  if (overBudget) for (let f = 0; f < overBudget.length; f++) overBudgetFrames += overBudget[f]

  let savings = 0
  for (let g = 0; g < replay.graphs.length; g++) savings += replay.graphs.savingBytes.data[g]
  const perFrame = s.get(TRANSIENT_SERIES.savingBytes)
  const savingPeak = peakIndex(perFrame)
  const lookups = replay.cacheHits + replay.cacheMisses

  return {
    ...reportEnvelope(result, s),
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
