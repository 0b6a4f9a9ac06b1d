/** Searching every resource a capture made. */
import type { Bytes } from '../units'

/** A search of every resource the capture ever made, by name, glob, regex or id. */
export interface SearchQuery {
  runId: string
  /** "SceneColor" (a part of the name, any case), "Mesh_*.VB" (a glob of the whole name), "/^T_.*_N$/i" (a regex), "#123" (an id; bare digits match an id or a part of a name). */
  text: string
  offset: number
  limit: number
  /** The index of one match whose placement and size history the answer should carry. */
  historyOf?: number
  /** Frame index to take that history on from (a page after the first: the answer's history.next). */
  historyFrom?: number
}

export interface SearchRow {
  /** The match's index in creation order, for historyOf. */
  index: number
  id: number
  name: string
  tag: string
  kind: 'buffer' | 'texture' | 'transient'
  /** Frame indices of its creation and of its release; release null when alive at the end. */
  created: number
  released: number | null
  /**
   * The bytes its desc asks for. Where the desc gives none (a texture), the model's estimate of them, as the
   * inspector's table gives it (`estimated`), or 0 where the run has no model to estimate them.
   */
  requested: Bytes
  /** `requested` is the model's estimate: the desc gave no size. */
  estimated: boolean
}

/**
 * Where a resource was and what it held, at its creation and at each frame's end where that changed over its life:
 * a defrag move (another pool or offset), commits of a reserved resource (its committed bytes), a resize.
 */
export interface SearchHistoryEntry {
  frame: number
  placement: string
  heap: string
  pool: string | null
  offset: Bytes
  /** Bytes it occupies: a reserved resource's committed bytes. */
  occupied: Bytes
  requested: Bytes
  /** A reserved resource's virtual size; 0 for the others. */
  virtual: Bytes
  /** What differs from the entry before (none on the first). */
  changed: SearchHistoryField[]
}

export const SEARCH_HISTORY_FIELDS = ['placement', 'heap', 'pool', 'offset', 'occupied', 'requested', 'virtual'] as const

export type SearchHistoryField = (typeof SEARCH_HISTORY_FIELDS)[number]

export interface SearchAnswer {
  /** How the text was read. */
  mode: 'text' | 'glob' | 'regex' | 'id'
  /** A regex that does not compile, said as the engine's message; no matches then. */
  error?: string
  total: number
  rows: SearchRow[]
  /** At most SEARCH_HISTORY_LIMIT entries; `next`: the frame index to ask historyFrom for the rest, null at its end. */
  history?: { index: number; entries: SearchHistoryEntry[]; next: number | null }
}
