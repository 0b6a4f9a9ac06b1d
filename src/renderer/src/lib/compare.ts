/** The compare view's summary: the `heapscope report` figures of runs A and B side by side, with B − A. */
import type { RunReport } from '../../../shared/ipc'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'

export type DeltaUnit = 'bytes' | 'count' | 'ratio'

export interface DeltaRow {
  /** Message id of the row's label (compare.rows.<id>) and its parameters. */
  id: string
  params?: Record<string, string>
  group: 'capture' | 'heaps' | 'placements' | 'waste' | 'residency' | 'transient'
  unit: DeltaUnit
  a: number
  b: number
  /** b − a. */
  delta: number
  /** (b − a) / a, or null when a is 0. */
  relative: number | null
}

function row(id: string, group: DeltaRow['group'], unit: DeltaUnit, a: number, b: number, params?: Record<string, string>): DeltaRow {
  const delta = b - a
  return { id, params, group, unit, a, b, delta, relative: a === 0 ? null : delta / a }
}

export function reportDeltas(a: RunReport, b: RunReport): DeltaRow[] {
  const rows: DeltaRow[] = [
    row('frames', 'capture', 'count', a.frames, b.frames),
    row('records', 'capture', 'count', a.records, b.records),
    row('created', 'capture', 'count', a.resources.created, b.resources.created),
    row('liveAtEnd', 'capture', 'count', a.resources.liveAtEnd, b.resources.liveAtEnd),
    row('peak', 'heaps', 'bytes', a.peak.bytes, b.peak.bytes),
  ]
  // D3D12's heap types in their order; a Vulkan run's memory heaps ("Heap 0") by name
  const heaps = [...new Set([...HEAP_TYPES, ...Object.keys(a.heaps), ...Object.keys(b.heaps)])].filter((h) => a.heaps[h] || b.heaps[h])
  for (const heap of heaps) {
    const ha = a.heaps[heap] ?? { peakBytes: 0, endBytes: 0 }
    const hb = b.heaps[heap] ?? { peakBytes: 0, endBytes: 0 }
    rows.push(row('heapPeak', 'heaps', 'bytes', ha.peakBytes, hb.peakBytes, { heap }))
    rows.push(row('heapEnd', 'heaps', 'bytes', ha.endBytes, hb.endBytes, { heap }))
  }
  // placements in the model's order, then any the reports name beyond it
  const names = [...PLACEMENTS, ...Object.keys(a.byPlacement ?? {}), ...Object.keys(b.byPlacement ?? {})]
  for (const placement of [...new Set(names)]) {
    const pa = a.byPlacement?.[placement]
    const pb = b.byPlacement?.[placement]
    if (!pa && !pb) continue
    rows.push(row('placementPeak', 'placements', 'bytes', pa?.peakBytes ?? 0, pb?.peakBytes ?? 0, { placement }))
    rows.push(row('placementCount', 'placements', 'count', pa?.count ?? 0, pb?.count ?? 0, { placement }))
  }
  rows.push(
    row('alignment', 'waste', 'bytes', a.waste.alignmentBytes ?? 0, b.waste.alignmentBytes ?? 0),
    row('poolFree', 'waste', 'bytes', a.waste.poolFreeBytes, b.waste.poolFreeBytes),
    row('pendingFree', 'waste', 'bytes', a.waste.pendingFreeBytes ?? 0, b.waste.pendingFreeBytes ?? 0),
    row('evictions', 'residency', 'count', a.residency.evictions, b.residency.evictions),
    row('evictedBytes', 'residency', 'bytes', a.residency.evictedBytes, b.residency.evictedBytes),
    row('makeResident', 'residency', 'count', a.residency.makeResident, b.residency.makeResident),
    row('overBudgetFrames', 'residency', 'count', a.residency.overBudgetFrames, b.residency.overBudgetFrames),
    row('transientHeaps', 'transient', 'count', a.transient?.heaps ?? 0, b.transient?.heaps ?? 0),
    row('aliasingSavings', 'transient', 'bytes', a.transient?.aliasingSavingsBytes ?? 0, b.transient?.aliasingSavingsBytes ?? 0),
    row('aliasingSavingsPeak', 'transient', 'bytes', a.transient?.aliasingSavingsPeakBytes ?? 0, b.transient?.aliasingSavingsPeakBytes ?? 0),
    row('cacheHitRate', 'transient', 'ratio', a.transient?.placedCacheHitRate ?? 0, b.transient?.placedCacheHitRate ?? 0),
  )
  return rows
}
