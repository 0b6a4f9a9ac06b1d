/**
 * Residency events of a run, in frame order: what a residency manager (a model's, or a driver's in an observed
 * trace) made resident, evicted, or found over budget. A backend with residency gives them as
 * `BackendRun.residency`.
 */
import { float64Column, uint8Column, type Column } from '../ingest/columns'

export const RESIDENCY_EVENT = { makeResident: 0, evict: 1, overBudget: 2 } as const

export class ResidencyEvents {
  readonly frame = float64Column()
  readonly kind: Column<Uint8Array> = uint8Column()
  readonly object = float64Column()
  readonly bytes = float64Column()
  get length(): number {
    return this.frame.length
  }
}
