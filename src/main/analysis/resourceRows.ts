/**
 * Every resource a run created, one row each in create order, as the history's Parquet export keeps them
 * (docs/history.md): a backend that places resources gives them through `BackendRun.resourceRows`.
 */
import type { Bytes } from '../../shared/units'

export type ResourceKind = 'buffer' | 'texture' | 'transient' | 'placed'

export interface ResourceRows {
  length: number
  id: number[]
  kind: ResourceKind[]
  name: (string | null)[]
  tag: (string | null)[]
  placement: (string | null)[]
  heap: (string | null)[]
  pool: (string | null)[]
  offset: (Bytes | null)[]
  requested: (Bytes | null)[]
  occupied: (Bytes | null)[]
  alignment: (Bytes | null)[]
  /** Capture frame numbers. */
  createdFrame: number[]
  releasedFrame: (number | null)[]
  route: (string[] | null)[]
}

export function emptyRows(): ResourceRows {
  return {
    length: 0,
    id: [],
    kind: [],
    name: [],
    tag: [],
    placement: [],
    heap: [],
    pool: [],
    offset: [],
    requested: [],
    occupied: [],
    alignment: [],
    createdFrame: [],
    releasedFrame: [],
    route: [],
  }
}
