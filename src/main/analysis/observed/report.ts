/**
 * The figures of an observed run, as `heapscope report --json` prints them (docs/cli.md): the trace's own heaps.
 * The peak is the sum of its live heaps at the frame they are largest, the end what is live after the last frame
 * (0 when the trace frees them all), and `heaps` gives both per memory kind, as the trace names it (RMV's `local`,
 * `invisible`, `system`; a VMA memory type; a GPGMM segment). No model ran: the report has no `byPlacement`, no
 * `transient`, and of `waste` only what the heaps hold outside their placed resources.
 */
import type { RunReport } from '../../../shared/ipc'
import type { LoadResult } from '../../ingest/read'
import { peakEnd, reportEnvelope } from '../reportEnvelope'
import { RESIDENCY_EVENT } from '../residencyEvents'
import { OBSERVED_SERIES, observedSeriesName, type ObservedReplay } from './replay'

export function buildObservedReport(result: LoadResult, replay: ObservedReplay): RunReport {
  const { store } = result
  const s = replay.series
  const total = s.get(OBSERVED_SERIES.heapBytes)
  const placed = s.get(OBSERVED_SERIES.placedBytes)
  const last = store.frames.length - 1

  const heaps: RunReport['heaps'] = {}
  for (const memory of replay.memories) heaps[memory] = peakEnd(s.get(observedSeriesName.memory(memory, 'heapBytes')))

  const events = replay.residencyEvents
  let evictions = 0
  let evictedBytes = 0
  let makeResident = 0
  for (let i = 0; i < events.length; i++) {
    if (events.kind.data[i] === RESIDENCY_EVENT.evict) {
      evictions++
      evictedBytes += events.bytes.data[i]
    } else makeResident++
  }

  return {
    // the peak of the total is the sum of the trace's live heaps at the frame they are largest
    ...reportEnvelope(result, s),
    heaps,
    // what the trace's heaps hold that nothing is placed in, at the end; alignment and pending frees are a model's
    waste: { poolFreeBytes: last >= 0 ? (total?.[last] ?? 0) - (placed?.[last] ?? 0) : 0 },
    residency: { budgetBytes: typeof store.header.budget === 'number' ? store.header.budget : 0, evictions, evictedBytes, makeResident, overBudgetFrames: 0 },
  }
}
