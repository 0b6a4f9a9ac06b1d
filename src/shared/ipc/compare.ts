/** Two runs side by side: series, resource differences and leak candidates. */
import type { Bytes } from '../units'
import type { SeriesAnswer, SeriesName } from './series'
import type { ResourceRow } from './snapshot'

export interface CompareSeriesQuery {
  runA: string
  runB: string
  series: SeriesName[]
  /** Frame index range in A's frames; B's frame index i + offsetB stands beside A's i. */
  from: number
  to: number
  resolution: number
  /** B's frames shifted against A's (runs that started at different frames): B's index = A's + offsetB; 0 by default. */
  offsetB?: number
}

export interface CompareSeriesAnswer {
  a: SeriesAnswer
  b: SeriesAnswer
  /** B − A of the bucket maxima, per series. */
  delta: Record<SeriesName, Float64Array>
}

export interface ResourceDiffQuery {
  runA: string
  runB: string
  /** Frame indices to compare at (default: the last frame of each). */
  frameA?: number
  frameB?: number
  status?: ('onlyA' | 'onlyB' | 'changed')[]
  offset: number
  limit: number
}

export interface ResourceDiffEntry {
  status: 'onlyA' | 'onlyB' | 'changed'
  /** How A and B were matched: by name, or by desc when names differ or are absent. */
  match: 'name' | 'desc' | null
  name: string
  a: ResourceRow | null
  b: ResourceRow | null
  /** What differs for 'changed': 'placement', 'size', 'heap', 'pool'. */
  changes: string[]
}

export interface ResourceDiffAnswer {
  total: number
  counts: { onlyA: number; onlyB: number; changed: number; same: number }
  entries: ResourceDiffEntry[]
}

export interface LeakQuery {
  runId: string
  /** Frame indices A < B: resources created after A and still alive at B. */
  from: number
  to: number
  offset: number
  limit: number
  /** False to skip the groups (an export reading every row, page by page); they come by default. */
  groups?: boolean
}

export interface LeakAnswer {
  total: number
  totalBytes: Bytes
  /** Live occupied bytes at B minus at A. */
  growthBytes: Bytes
  rows: ResourceRow[]
  /** Every candidate, grouped by name pattern and by tag: the steady, never-freed groups first, then by bytes. */
  groups: LeakGroup[]
}

/** Leak candidates that share a name pattern (runs of digits folded to #) or a tag. */
export interface LeakGroup {
  by: 'name' | 'tag'
  /** The name pattern ("Mesh_#.VB") or the tag; '' for unnamed or untagged resources. */
  key: string
  /** Candidates in the group: created after A, alive at B. */
  count: number
  /** Their occupied bytes at B. */
  bytes: Bytes
  /** bytes / (B − A): how fast the group grew over the range. */
  bytesPerFrame: number
  /** Resources of the group created in (A, B], freed since or not. */
  created: number
  /** Resources of the group released in (A, B], wherever they were created. */
  freed: number
  /** Frame numbers of the first and last creation in (A, B]. */
  firstCreated: number
  lastCreated: number
  /** Created steadily over the range (three or more, over at least half of it) and never freed. */
  steady: boolean
}
