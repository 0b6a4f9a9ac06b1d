/**
 * Observed residency: the `resident` and `evict` records (capture format 1.2) that a driver-level trace (Radeon
 * Memory Visualizer) writes for the application heaps it saw, folded into the replay's residency series and
 * events. The model's own residency manager is not involved: these are what the driver really did.
 *
 * A heap is resident or not, as RMV keeps it (PAL makes resident and evicts whole allocations): `resident` makes
 * `bytes` more of it resident (all of it when absent), `evict` takes `bytes` of it out (all of it when absent), and
 * a freed heap is resident no more. Every record is one event, whatever the heap's state before it, with its
 * `bytes` or the heap's size. Resident bytes count every observed heap, whatever its type: the trace's residency
 * list holds system-memory allocations too.
 */
import type { Bytes } from '../../shared/units'
import { RECORD_KIND, type CaptureStore } from '../ingest/store'
import { RESIDENCY_EVENT, type ResidencyEvents } from './residencyEvents'

/** The residency columns of the replay's series that observed residency adds to. */
export interface ResidencyColumns {
  resident: Float64Array
  evictedBytes: Float64Array
  evictions: Float64Array
  madeBytes: Float64Array
  made: Float64Array
}

/**
 * The value of the integer member `key` (written `"key":` with its quotes) of a record kept as JSON, or NaN when
 * the record has none or it is not a plain non-negative integer. Reads the string in place: no parse, no object.
 * A quote inside a string value is escaped, so `"key":` never matches inside one.
 */
export function integerMember(json: string, key: string): number {
  const at = json.indexOf(`"${key}":`)
  if (at < 0) return NaN
  let i = at + key.length + 3
  while (json.charCodeAt(i) === 0x20) i++
  let value = 0
  const start = i
  for (; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c < 0x30 || c > 0x39) break
    value = value * 10 + (c - 0x30)
  }
  if (i === start) return NaN
  const next = json.charCodeAt(i)
  // a fraction or an exponent: not a byte count
  if (next === 0x2e || next === 0x65 || next === 0x45) return NaN
  return value
}

export class ObservedResidency {
  /** Resident bytes of each observed heap that has any, by heap id. */
  private readonly residentOf = new Map<number, Bytes>()
  /** Resident bytes of all observed heaps. */
  residentBytes: Bytes = 0
  /** What the records of the frame being replayed did, added to its series by `sample`. */
  private made = 0
  private madeBytes: Bytes = 0
  private evictions = 0
  private evictedBytes: Bytes = 0

  constructor(private readonly events: ResidencyEvents) {}

  /**
   * Record `index` of the store, a `resident` or an `evict`, in frame index `frame`. `heaps` holds the live
   * application heaps by id with their sizes (the replay's own table of `heap` records).
   */
  apply(store: CaptureStore, index: number, frame: number, heaps: ReadonlyMap<number, { readonly size: Bytes }>): void {
    const kind = store.records.kind[index]
    if (kind !== RECORD_KIND.resident && kind !== RECORD_KIND.evict) return
    const json = store.raw[store.records.ref[index]]
    const heap = integerMember(json, 'heap')
    if (Number.isNaN(heap)) return
    const given = integerMember(json, 'bytes')
    const live = heaps.get(heap)
    const size = live?.size ?? 0
    const bytes = Number.isNaN(given) ? size : given
    const before = this.residentOf.get(heap) ?? 0
    let after = before
    if (kind === RECORD_KIND.resident) {
      if (live) after = Number.isNaN(given) ? size : Math.min(size, before + given)
      this.made++
      this.madeBytes += bytes
    } else {
      after = Number.isNaN(given) ? 0 : Math.max(0, before - given)
      this.evictions++
      this.evictedBytes += bytes
    }
    this.setResident(heap, before, after)
    const events = this.events
    events.push(frame, kind === RECORD_KIND.resident ? RESIDENCY_EVENT.makeResident : RESIDENCY_EVENT.evict, heap, bytes)
  }

  /** The heap is destroyed: whatever of it was resident is not any more (no event: nothing was evicted). */
  free(heap: number): void {
    const before = this.residentOf.get(heap)
    if (before !== undefined) this.setResident(heap, before, 0)
  }

  /** Add this frame's observed residency to the replay's columns at `frame`, and start the next frame afresh. */
  sample(frame: number, columns: ResidencyColumns): void {
    columns.resident[frame] += this.residentBytes
    columns.made[frame] += this.made
    columns.madeBytes[frame] += this.madeBytes
    columns.evictions[frame] += this.evictions
    columns.evictedBytes[frame] += this.evictedBytes
    this.made = this.madeBytes = this.evictions = this.evictedBytes = 0
  }

  private setResident(heap: number, before: Bytes, after: Bytes): void {
    if (after > 0) this.residentOf.set(heap, after)
    else this.residentOf.delete(heap)
    this.residentBytes += after - before
  }
}
