/**
 * Residency events of a run, in frame order: what a residency manager (a model's, or a driver's in an observed
 * trace) made resident, evicted, or found over budget. A backend with residency gives them as
 * `BackendRun.residency`.
 */
import type { Bytes } from '../../shared/units'
import { float64Column, uint8Column, type Column } from '../ingest/columns'

export const RESIDENCY_EVENT = { makeResident: 0, evict: 1, overBudget: 2 } as const

export class ResidencyEvents {
  readonly frame = float64Column()
  readonly kind: Column<Uint8Array> = uint8Column()
  readonly object = float64Column()
  readonly bytes = float64Column()
  /** The events pushed, by kind, and the bytes of the evictions, in push order: whether or not rows are kept. */
  evictions = 0
  evictedBytes: Bytes = 0.5
  madeResident = 0
  overBudget = 0

  /**
   * `keepRows` false: count the events, keep no row of them, for a run read only for its figures (`report`). A
   * stress capture of 2 000 000 records makes 1.1 million events, whose columns took 16 000 of its report's 75 000
   * page faults (bench/README.md, "The report counts residency events without keeping them").
   */
  constructor(readonly keepRows = true) {
    // a double from the start: the first count past 2^30 would otherwise change the object's shape mid-replay
    this.evictedBytes = 0
  }

  get length(): number {
    return this.frame.length
  }

  push(frame: number, kind: number, object: number, bytes: Bytes): void {
    if (kind === RESIDENCY_EVENT.evict) {
      this.evictions++
      this.evictedBytes += bytes
    } else if (kind === RESIDENCY_EVENT.makeResident) this.madeResident++
    else this.overBudget++
    if (!this.keepRows) return
    this.frame.push(frame)
    this.kind.push(kind)
    this.object.push(object)
    this.bytes.push(bytes)
  }
}
