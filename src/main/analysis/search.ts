/**
 * Capture-wide search: every resource the capture ever made (buffers, textures, placed and transient resources),
 * found by a part of its name, a glob, a regex or its id, with the frames of its creation and release. The index is
 * built in one pass over the records when first asked; a query tests each distinct name once, then scans a column.
 */
import { SEARCH_HISTORY_FIELDS, type SearchAnswer, type SearchHistoryEntry, type SearchHistoryField, type SearchQuery, type SearchRow } from '../../shared/ipc'
import type { Bytes } from '../../shared/units'
import { RECORD_KIND, type CaptureStore } from '../ingest/store'
import type { D3D12Model } from '../model/d3d12/model'
import { IdTable } from '../model/idTable'
import { createdIdOf, descRowOf, descTableOf, frameOfRecord, LifeEnds } from './records'
import type { ResourceTable } from './resourceTable'

const KINDS = ['buffer', 'texture', 'transient'] as const
/** Matches a page may carry. */
export const SEARCH_PAGE_LIMIT = 1000
/** Entries of a resource's history an answer carries; the rest come a page at a time. */
export const SEARCH_HISTORY_LIMIT = 100

/** The searches whose hits an index keeps (ResourceIndex.hitsOf). */
const SEARCHES_KEPT = 4

/**
 * Every resource ever made, a row per create record, in record order. It keeps in columns what a search reads on
 * every row (the id, the name) and what no record says of itself (the release); its kind, tag, size and creation it
 * reads from its create record when asked, for the rows a page shows: on 2 000 000 records (a million resources) the
 * columns are 20 MB where all eight were 37, fresh memory that the index's first build faults in page by page.
 */
export class ResourceIndex {
  readonly length: number
  readonly id: Float64Array
  readonly name: Uint32Array
  /** Frame index of the release, -1 when alive at the end. */
  readonly released: Int32Array
  /** Index of the create record. */
  readonly record: Uint32Array

  /** The hits of the last few searches by their text, most recent last: a search's next pages test no name again. */
  private readonly found = new Map<string, Uint32Array>()

  /** The hits of a search's text, from those kept or `find`; the last SEARCHES_KEPT kept. */
  hitsOf(text: string, find: () => Uint32Array): Uint32Array {
    let hits = this.found.get(text)
    if (hits) this.found.delete(text)
    else hits = find()
    this.found.set(text, hits)
    if (this.found.size > SEARCHES_KEPT) this.found.delete(this.found.keys().next().value!)
    return hits
  }

  constructor(readonly store: CaptureStore) {
    const { kind, ref } = store.records
    const records = store.records.length
    const firstRecord = store.frames.firstRecord
    const frames = store.frames.length
    // the rows are the create records: counted first, so that each column is made once at its length
    let n = 0
    for (let i = 0; i < records; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) n++
    }
    const ids = new Float64Array(n)
    const names = new Uint32Array(n)
    const released = new Int32Array(n)
    const record = new Uint32Array(n)
    // id → row of its live resource: a flat table for the ids a capture numbers densely (model/idTable.ts)
    const live = new IdTable()
    const ends = new LifeEnds()
    let frame = 0
    let row = 0
    for (let i = 0; i < records; i++) {
      while (frame + 1 < frames && firstRecord[frame + 1] <= i) frame++
      const k = kind[i]
      const r = ref[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
        // a transient's id is its own: the desc row it shares is the first transient's of that desc
        const id = k === RECORD_KIND.transient ? store.transients.id.data[r] : createdIdOf(store, i)
        ids[row] = id
        names[row] = descTableOf(store, i).name.data[descRowOf(store, i)]
        record[row] = i
        // a transient lives within its graph execution, in its frame
        released[row] = k === RECORD_KIND.transient ? frame : -1
        if (k !== RECORD_KIND.transient) live.set(id, row)
        row++
      }
      if (!LifeEnds.reads(k)) continue
      for (const id of ends.read(store, i)) {
        const at = live.get(id)
        if (at === undefined) continue
        released[at] = frame
        live.delete(id)
      }
    }
    this.length = n
    this.id = ids
    this.name = names
    this.released = released
    this.record = record
  }

  /** Frame index of row `i`'s creation. */
  createdOf(i: number): number {
    return frameOfRecord(this.store.frames.firstRecord, this.record[i])
  }

  /** Row `i`'s kind (0 buffer, 1 texture, 2 transient), its tag's string id and the bytes its desc asks for (0 for none). */
  descOf(i: number): { kind: number; tag: number; requested: Bytes } {
    const store = this.store
    const at = this.record[i]
    const descs = descTableOf(store, at)
    const row = descRowOf(store, at)
    const size = descs.size.data[row]
    const kind = store.records.kind[at] === RECORD_KIND.transient ? 2 : descs === store.buffers ? 0 : 1
    return { kind, tag: descs.tag.data[row], requested: Number.isNaN(size) ? 0 : size }
  }

  private byId: Map<number, number[]> | undefined

  /** The name of the resource `id` was at frame index `frame` (ids come back after a release); '' when unknown. */
  nameAt(id: number, frame: number): string {
    if (!this.byId) {
      this.byId = new Map()
      for (let i = 0; i < this.length; i++) {
        const rows = this.byId.get(this.id[i])
        if (rows) rows.push(i)
        else this.byId.set(this.id[i], [i])
      }
    }
    const rows = this.byId.get(id) ?? []
    // the last made at or before the frame
    let best = -1
    for (const i of rows) if (this.createdOf(i) <= frame) best = i
    return best < 0 ? '' : (this.store.strings.get(this.name[best]) ?? '')
  }

  row(i: number, index: number): SearchRow {
    const strings = this.store.strings
    const { kind, tag, requested } = this.descOf(i)
    return {
      index,
      id: this.id[i],
      name: strings.get(this.name[i]) ?? '',
      tag: strings.get(tag) ?? '',
      kind: KINDS[kind],
      created: this.createdOf(i),
      released: this.released[i] < 0 ? null : this.released[i],
      requested,
      estimated: false,
    }
  }
}

interface Matcher {
  mode: SearchAnswer['mode']
  name?: (name: string) => boolean
  id?: number
  error?: string
}

/** How a search text reads: /regex/flags, a glob with * or ?, #id, bare digits (an id or a part of a name), or a part of a name. */
export function matcherOf(text: string): Matcher {
  const t = text.trim()
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(t)
  if (regex) {
    try {
      const re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''))
      return { mode: 'regex', name: (name) => re.test(name) }
    } catch (err) {
      return { mode: 'regex', error: (err as Error).message }
    }
  }
  const id = /^(?:#|id:)\s*(\d+)$/i.exec(t)
  if (id) return { mode: 'id', id: Number(id[1]) }
  if (/[*?]/.test(t)) {
    const source = t.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
    const re = new RegExp(`^${source}$`, 'i')
    return { mode: 'glob', name: (name) => re.test(name) }
  }
  const lower = t.toLowerCase()
  const part = (name: string) => name.toLowerCase().includes(lower)
  if (/^\d+$/.test(t)) return { mode: 'id', id: Number(t), name: part }
  return { mode: 'text', name: part }
}

/** The rows of the index that match, in creation order. */
export function matches(index: ResourceIndex, matcher: Matcher): Uint32Array {
  if (matcher.error) return new Uint32Array(0)
  const strings = index.store.strings
  // each distinct name tested once: by string id, 0 not yet, HIT or MISS (a string interned since, past the
  // states, is tested each time)
  const HIT = 1
  const MISS = 2
  const tested = new Uint8Array(strings.size)
  const byName = matcher.name
  const names = index.name
  const ids = index.id
  const id = matcher.id
  let out = new Uint32Array(64)
  let n = 0
  for (let i = 0; i < index.length; i++) {
    let hit = id !== undefined && ids[i] === id
    if (!hit && byName) {
      const nameId = names[i]
      const state = nameId < tested.length ? tested[nameId] : 0
      if (state === 0) {
        hit = byName(strings.get(nameId) ?? '')
        if (nameId < tested.length) tested[nameId] = hit ? HIT : MISS
      } else hit = state === HIT
    }
    if (!hit) continue
    if (n === out.length) {
      const grown = new Uint32Array(2 * n)
      grown.set(out)
      out = grown
    }
    out[n++] = i
  }
  return out.slice(0, n)
}

/** The fields of `entry` that differ from `before`'s. */
function changesOf(before: SearchHistoryEntry | undefined, entry: Omit<SearchHistoryEntry, 'changed'>): SearchHistoryField[] {
  if (!before) return []
  return SEARCH_HISTORY_FIELDS.filter((f) => before[f] !== entry[f])
}

/**
 * A resource's state in each of `tables` (frame index, live table) where it is, consecutive repeats dropped; the
 * id's row made at `createdNumber` (an id may be used again after a release).
 */
export function historyOf(id: number, createdNumber: number, tables: [number, ResourceTable][]): SearchHistoryEntry[] {
  const out: SearchHistoryEntry[] = []
  for (const [frame, table] of tables) {
    let row = -1
    for (let i = 0; i < table.length && row < 0; i++) if (table.id[i] === id && table.created[i] === createdNumber) row = i
    if (row < 0) continue
    const r = table.row(row)
    const state = { frame, placement: r.placement, heap: r.heap, pool: r.pool, offset: r.offset, occupied: r.occupied, requested: r.requested, virtual: r.virtual ?? 0 }
    const changed = changesOf(out[out.length - 1], state)
    if (out.length && !changed.length) continue
    out.push({ ...state, changed })
  }
  return out
}

/** The model after each frame index from `from` to `to`, with the live creates (id to create record); false stops it. */
export type ModelWalk = (from: number, to: number, visit: (frame: number, model: D3D12Model, created: Map<number, number>) => boolean | void) => void

/**
 * The history of the resource the model placed from create record `record` (id `id`), walked over its life
 * [created, last] one frame at a time: its state at creation, then at each frame's end where it differs. At most
 * `limit` entries from frame index `from` on; `next` is the frame of the first left out.
 */
export function walkHistory(
  walk: ModelWalk,
  id: number,
  record: number,
  created: number,
  last: number,
  from: number,
  limit: number,
): { entries: SearchHistoryEntry[]; next: number | null } {
  const entries: SearchHistoryEntry[] = []
  let next: number | null = null
  let before: SearchHistoryEntry | undefined
  const start = Math.max(created, Math.min(last, Math.floor(from)))
  // a later page starts a frame early, to know what the first of its frames changed
  walk(start > created ? start - 1 : start, last, (frame, model, live) => {
    if (live.get(id) !== record) return
    const r = model.liveRow(id)
    if (!r) return
    const state = { frame, placement: r.placement, heap: r.heap, pool: r.poolName, offset: r.offset, occupied: r.occupied, requested: r.requested, virtual: r.virtual }
    const changed = changesOf(before, state)
    if (frame < start) {
      before = { ...state, changed }
      return
    }
    if (before && !changed.length) return
    if (entries.length >= limit) {
      next = frame
      return false
    }
    before = { ...state, changed }
    entries.push(before)
  })
  return { entries, next }
}

/**
 * One page of a search. The history asked for: for a buffer or texture the model places (`walk` given), every change
 * over its life; else (a resource the application placed, a transient, a Vulkan run, where nothing moves) its state
 * at creation and at the last frame it lived, from `table(frame)`, the live resources at a frame index. A texture
 * whose desc gives no size shows the bytes `estimate` gives for its create record, where it gives them.
 */
export function search(
  index: ResourceIndex,
  query: SearchQuery,
  table: (frame: number) => ResourceTable,
  walk?: ModelWalk,
  estimate?: (record: number) => Bytes | null,
): SearchAnswer {
  const matcher = matcherOf(query.text)
  const answer: SearchAnswer = { mode: matcher.mode, total: 0, rows: [] }
  if (matcher.error) {
    answer.error = matcher.error
    return answer
  }
  if (query.text.trim() === '') return answer
  const hits = index.hitsOf(query.text, () => matches(index, matcher))
  answer.total = hits.length
  const offset = Math.max(0, Math.floor(query.offset))
  const limit = Math.max(0, Math.min(SEARCH_PAGE_LIMIT, Math.floor(query.limit)))
  for (let k = offset; k < Math.min(hits.length, offset + limit); k++) {
    const row = index.row(hits[k], k)
    if (row.kind === 'texture' && row.requested === 0 && estimate) {
      const bytes = estimate(index.record[hits[k]])
      if (bytes !== null && bytes > 0) {
        row.requested = bytes
        row.estimated = true
      }
    }
    answer.rows.push(row)
  }
  const h = query.historyOf
  if (h !== undefined && h >= 0 && h < hits.length) {
    const i = hits[h]
    const created = index.createdOf(i)
    const last = index.released[i] < 0 ? index.store.frames.length - 1 : Math.max(created, index.released[i] - 1)
    const k = index.store.records.kind[index.record[i]]
    if (walk && (k === RECORD_KIND.buffer || k === RECORD_KIND.texture)) {
      const from = Number.isFinite(query.historyFrom) ? Number(query.historyFrom) : created
      answer.history = { index: h, ...walkHistory(walk, index.id[i], index.record[i], created, last, from, SEARCH_HISTORY_LIMIT) }
    } else {
      const frames = [...new Set([created, last])]
      answer.history = { index: h, entries: historyOf(index.id[i], index.store.frames.n[created], frames.map((f) => [f, table(f)])), next: null }
    }
  }
  return answer
}
