/**
 * What an allocator model tells the analysis while it replays. A sink is a set of methods, not event
 * objects, so a replay of millions of records allocates nothing per event; every method is optional.
 */
import type { Bytes, Frame } from '../../shared/units'
import type { HeapType, Placement } from '../../shared/model'

/** A residency object: a committed resource, a pool heap or pooled buffer, a transient heap, a reserved resource's backing. */
export type ResidencyObjectId = number
export type ResidencyPriority = 'normal' | 'high'

export interface PoolInfo {
  /** Dense id, unique over the replay (never reused). */
  pool: number
  /** "DEFAULT/SingleState/0": heap type, strategy or pool family, index within the family. */
  name: string
  placement: Placement
  heap: HeapType
  bytes: Bytes
}

export interface PlacementInfo {
  id: number
  placement: Placement
  heap: HeapType
  /** Pool the request landed in, -1 for committed and reserved resources. */
  pool: number
  offset: Bytes
  /** Occupied bytes, padding included. */
  size: Bytes
  /** Bytes the request asked for (a texture's driver or estimated size). */
  requested: Bytes
  alignment: Bytes
  /**
   * The model's number for the resource while it is live: no two live resources share one, and a number is
   * reused once its resource is released (for a listener's own table of what is live; see releasePending).
   */
  slot?: number
}

export interface TransientPlacementInfo {
  id: number
  /** The graph execution, counted from 0 over the replay. */
  execution: number
  heap: number
  offset: Bytes
  size: Bytes
  first: number
  last: number
  cacheHit: boolean
}

export interface ModelSink {
  poolCreated?(info: PoolInfo, frame: Frame): void
  poolDestroyed?(pool: number, frame: Frame): void
  placed?(info: PlacementInfo, frame: Frame): void
  /**
   * A release was requested; the bytes stay pending until the GPU finished the release's frame. `slot`: the number
   * `placed` gave the resource, when the model gives one.
   */
  releasePending?(id: number, frame: Frame, slot?: number): void
  /** The bytes of a released request are free for reuse. */
  freed?(id: number, frame: Frame): void
  /** Defrag moved a block. */
  moved?(id: number, fromPool: number, fromOffset: Bytes, toPool: number, toOffset: Bytes, bytes: Bytes, frame: Frame): void
  transientHeapCreated?(heap: number, bytes: Bytes, frame: Frame): void
  transientHeapDestroyed?(heap: number, frame: Frame): void
  transientPlaced?(info: TransientPlacementInfo, frame: Frame): void
  residencyObjectCreated?(object: ResidencyObjectId, bytes: Bytes, priority: ResidencyPriority, label: string, frame: Frame): void
  residencyObjectDestroyed?(object: ResidencyObjectId, frame: Frame): void
  madeResident?(object: ResidencyObjectId, bytes: Bytes, frame: Frame): void
  evicted?(object: ResidencyObjectId, bytes: Bytes, frame: Frame): void
  /** Everything resident is in use and the total still exceeds the budget. */
  overBudget?(frame: Frame, residentBytes: Bytes, budget: Bytes): void
  /** Something in the request stream the model could not honour (a reserved buffer grown past its size, …). */
  warning?(kind: string, message: string, frame: Frame): void
}
