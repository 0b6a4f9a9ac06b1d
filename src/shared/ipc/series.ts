/** Per-frame series: queries and answers at a resolution. */
import { LIVE_SERIES, type SeriesUnit } from '../series'

/**
 * Per-frame series a run offers, named by a dotted path: `heap.DEFAULT.heapBytes`,
 * `placement.SharedBufferPool.occupiedBytes`, `tag.Textures.occupiedBytes`, `residency.residentBytes`, …
 * A run's summary lists the ones it has.
 */
export const SERIES = {
  liveRequested: LIVE_SERIES.requested,
  liveCount: LIVE_SERIES.count,
} as const

export type SeriesName = string

export interface SeriesInfo {
  name: SeriesName
  label: string
  unit: SeriesUnit
  /** For grouping in a legend: 'heap', 'placement', 'tag', 'residency', 'transient', 'upload', 'resources'. */
  group: string
}

export interface SeriesQuery {
  runId: string
  series: SeriesName[]
  /** Frame index range [from, to). */
  from: number
  to: number
  /** Most buckets wanted; the answer has at most this many. */
  resolution: number
}

export interface SeriesBuckets {
  min: Float64Array
  max: Float64Array
  mean: Float64Array
}

export interface SeriesAnswer {
  runId: string
  /** First frame index of each bucket; buckets cover [from, to). */
  start: Float64Array
  /** The capture's frame number at each bucket start. */
  frame: Float64Array
  /** Frames per bucket (the last may hold fewer). */
  width: number
  series: Record<SeriesName, SeriesBuckets>
}
