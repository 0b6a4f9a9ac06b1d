/**
 * The compare view's summary: the `heapscope report` figures of runs A and B side by side, with B − A. A figure one
 * report lacks is null on that side, never 0, as `heapscope diff` shows it ('—', docs/cli.md): an observed trace
 * has no model's placements, transients, alignment or pending-free waste; a run names only its own heaps (RMV's
 * `local`, a Vulkan run's `Heap 0`, D3D12's `DEFAULT`).
 */
import type { RunReport } from '../../../shared/ipc'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'

export type DeltaUnit = 'bytes' | 'count' | 'ratio'

export interface DeltaRow {
  /** Message id of the row's label (compare.rows.<id>) and its parameters. */
  id: string
  params?: Record<string, string>
  group: 'capture' | 'heaps' | 'placements' | 'waste' | 'residency' | 'transient'
  unit: DeltaUnit
  /** The figure in A and in B; null where that report lacks it. */
  a: number | null
  b: number | null
  /** b − a; null unless both reports have the figure. */
  delta: number | null
  /** (b − a) / a, or null when a is 0 or either side lacks the figure. */
  relative: number | null
}

function row(id: string, group: DeltaRow['group'], unit: DeltaUnit, a: number | null | undefined, b: number | null | undefined, params?: Record<string, string>): DeltaRow {
  const fa = a ?? null
  const fb = b ?? null
  const delta = fa === null || fb === null ? null : fb - fa
  return { id, params, group, unit, a: fa, b: fb, delta, relative: delta === null || fa === 0 ? null : delta / fa! }
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
    rows.push(row('heapPeak', 'heaps', 'bytes', a.heaps[heap]?.peakBytes, b.heaps[heap]?.peakBytes, { heap }))
    rows.push(row('heapEnd', 'heaps', 'bytes', a.heaps[heap]?.endBytes, b.heaps[heap]?.endBytes, { heap }))
  }
  // placements in the model's order, then any the reports name beyond it; a placement a model left empty is 0 on
  // that side, one of a run where no model ran is absent
  const names = [...PLACEMENTS, ...Object.keys(a.byPlacement ?? {}), ...Object.keys(b.byPlacement ?? {})]
  const placed = (r: RunReport, placement: string, key: 'peakBytes' | 'count') => (r.byPlacement ? (r.byPlacement[placement]?.[key] ?? 0) : null)
  for (const placement of [...new Set(names)]) {
    if (!a.byPlacement?.[placement] && !b.byPlacement?.[placement]) continue
    rows.push(row('placementPeak', 'placements', 'bytes', placed(a, placement, 'peakBytes'), placed(b, placement, 'peakBytes'), { placement }))
    rows.push(row('placementCount', 'placements', 'count', placed(a, placement, 'count'), placed(b, placement, 'count'), { placement }))
  }
  rows.push(
    row('alignment', 'waste', 'bytes', a.waste.alignmentBytes, b.waste.alignmentBytes),
    row('poolFree', 'waste', 'bytes', a.waste.poolFreeBytes, b.waste.poolFreeBytes),
    row('pendingFree', 'waste', 'bytes', a.waste.pendingFreeBytes, b.waste.pendingFreeBytes),
    row('evictions', 'residency', 'count', a.residency.evictions, b.residency.evictions),
    row('evictedBytes', 'residency', 'bytes', a.residency.evictedBytes, b.residency.evictedBytes),
    row('makeResident', 'residency', 'count', a.residency.makeResident, b.residency.makeResident),
    row('overBudgetFrames', 'residency', 'count', a.residency.overBudgetFrames, b.residency.overBudgetFrames),
    row('transientHeaps', 'transient', 'count', a.transient?.heaps, b.transient?.heaps),
    row('aliasingSavings', 'transient', 'bytes', a.transient?.aliasingSavingsBytes, b.transient?.aliasingSavingsBytes),
    row('aliasingSavingsPeak', 'transient', 'bytes', a.transient?.aliasingSavingsPeakBytes, b.transient?.aliasingSavingsPeakBytes),
    row('cacheHitRate', 'transient', 'ratio', a.transient?.placedCacheHitRate, b.transient?.placedCacheHitRate),
  )
  return rows
}
