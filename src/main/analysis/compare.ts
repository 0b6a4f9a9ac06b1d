/**
 * Comparing runs: two captures, or one capture under two configs. Series aligned by frame index with their
 * deltas; resources only in A, only in B, and in both with another placement or size (matched by name, then by
 * desc); and leak candidates within one run: created after frame A, still alive at frame B.
 */
import type {
  CompareSeriesAnswer,
  CompareSeriesQuery,
  LeakAnswer,
  LeakGroup,
  LeakQuery,
  ResourceDiffAnswer,
  ResourceDiffEntry,
  ResourceDiffQuery,
  ResourceRow,
} from '../../shared/ipc'
import { recordLine } from '../ingest/ndjsonWriter'
import { recordAt } from '../ingest/records'
import type { CaptureStore } from '../ingest/store'
import { leakGroups } from './leakGroups'
import type { SeriesTable } from './seriesTable'
import type { ResourceTable } from './resourceTable'

/** A run of any backend: its capture and series, and its live resources at any frame (a BackendRun). */
export interface ComparedRun {
  store: CaptureStore
  series: SeriesTable
  snapshots: { table(frame: number): ResourceTable }
}

export function compareSeries(a: ComparedRun, b: ComparedRun, query: CompareSeriesQuery): CompareSeriesAnswer {
  const base = { series: query.series, from: query.from, to: query.to, resolution: query.resolution }
  const answerA = a.series.query({ runId: query.runA, ...base })
  const shift = Math.trunc(query.offsetB ?? 0)
  if (shift === 0) {
    // B over the same frame indices, bucketed the same way (B may be shorter: its missing buckets are NaN)
    const answerB = b.series.query({ runId: query.runB, ...base, to: Math.min(query.to, b.store.frames.length) })
    return { a: answerA, b: answerB, delta: deltaOf(query.series, answerA, answerB) }
  }
  // B shifted: A's buckets' frames i stand beside B's i + shift, one frame a bucket of A's bucketing, so that both
  // lie on A's axis; B's frames outside its capture are NaN
  const answerB = shiftedAnswer(b, query, answerA, shift)
  return { a: answerA, b: answerB, delta: deltaOf(query.series, answerA, answerB) }
}

function deltaOf(series: readonly string[], answerA: CompareSeriesAnswer['a'], answerB: CompareSeriesAnswer['b']): Record<string, Float64Array> {
  const delta: Record<string, Float64Array> = {}
  for (const name of series) {
    const sa = answerA.series[name]
    const sb = answerB.series[name]
    const d = new Float64Array(answerA.start.length).fill(NaN)
    for (let i = 0; i < d.length; i++) {
      const va = sa ? sa.max[i] : 0
      const vb = sb && i < sb.max.length ? sb.max[i] : NaN
      d[i] = vb - va
    }
    delta[name] = d
  }
  return delta
}

/** B's series on A's buckets, B's frame index = A's + shift: each bucket the min, max and mean of B's frames in it. */
function shiftedAnswer(b: ComparedRun, query: CompareSeriesQuery, answerA: CompareSeriesAnswer['a'], shift: number): CompareSeriesAnswer['b'] {
  const framesB = b.store.frames.length
  const n = answerA.start.length
  const width = answerA.width
  const series: CompareSeriesAnswer['b']['series'] = {}
  for (const name of query.series) {
    const column = b.series.get(name)
    if (!column) continue
    const min = new Float64Array(n).fill(NaN)
    const max = new Float64Array(n).fill(NaN)
    const mean = new Float64Array(n).fill(NaN)
    for (let k = 0; k < n; k++) {
      const lo = Math.max(0, answerA.start[k] + shift)
      const hi = Math.min(framesB, answerA.start[k] + width + shift)
      if (hi <= lo) continue
      let a = Infinity
      let z = -Infinity
      let sum = 0
      for (let f = lo; f < hi; f++) {
        const v = column[f]
        a = Math.min(a, v)
        z = Math.max(z, v)
        sum += v
      }
      min[k] = a
      max[k] = z
      mean[k] = sum / (hi - lo)
    }
    series[name] = { min, max, mean }
  }
  return { ...answerA, runId: query.runB, series }
}

/** A desc without identity (id, name): what "the same request" means when names do not match. */
function descKey(run: ComparedRun, record: number): string {
  if (record < 0) return ''
  const r = recordAt(run.store, record) as unknown as Record<string, unknown>
  const { id: _id, name: _name, ...rest } = r
  return recordLine(rest as never)
}

/** An entry's status, as TableMatch numbers it. */
const STATUS = { onlyA: 0, changed: 1, onlyB: 2 } as const
const STATUS_NAMES = ['onlyA', 'changed', 'onlyB'] as const
const MATCH_NAMES = [null, 'name', 'desc'] as const
/** What differs between matched rows, one bit each, in the order `changes` lists them. */
const CHANGE_NAMES = ['placement', 'heap', 'size', 'requested'] as const

/**
 * Two tables' rows matched (resourceDiff): every entry of the diff in its order (A's rows that have no match or
 * differ from theirs, in A's order, then B's rows with no match, in B's), without the row objects a page builds.
 */
interface TableMatch {
  /** Each entry's status (STATUS), its row in A and in B (-1: none), how the two were matched (MATCH_NAMES) and
   * what differs (CHANGE_NAMES bits). */
  status: Uint8Array
  a: Int32Array
  b: Int32Array
  how: Uint8Array
  changes: Uint8Array
  counts: ResourceDiffAnswer['counts']
}

/**
 * What was worked out for a pair of tables, made once. A snapshot table stays the same object while its state is
 * cached, so the pages of one question work it out once; a table let go is never asked for again, and takes what
 * was kept for it along.
 */
class PerTablePair<V> {
  private readonly kept = new WeakMap<ResourceTable, WeakMap<ResourceTable, V>>()

  get(first: ResourceTable, second: ResourceTable, make: () => V): V {
    let bySecond = this.kept.get(first)
    let value = bySecond?.get(second)
    if (value === undefined) {
      value = make()
      if (!bySecond) this.kept.set(first, (bySecond = new WeakMap()))
      bySecond.set(second, value)
    }
    return value
  }
}

/** The matches made so far, by table A, then table B. */
const matches = new PerTablePair<TableMatch>()

/** A's live resources matched against B's: by name first (in creation order among equal names), then by desc. */
function matchTables(a: ComparedRun, b: ComparedRun, tableA: ResourceTable, tableB: ResourceTable): TableMatch {
  const namesA = tableA.text.name
  const namesB = tableB.text.name
  const matchA = new Int32Array(tableA.length).fill(-1)
  const matchedB = new Uint8Array(tableB.length)
  const how = new Uint8Array(tableA.length)

  /**
   * A's rows not matched yet against B's not matched yet, by a key each (undefined: none), in order among equal
   * keys: each key's candidates in B's order, the next taken from a count on, no array shifted.
   */
  const matchBy = (keyA: (i: number) => string | undefined, keyB: (j: number) => string | undefined, code: number) => {
    const byKey = new Map<string, number[]>()
    for (let j = 0; j < tableB.length; j++) {
      if (matchedB[j]) continue
      const key = keyB(j)
      if (key === undefined) continue
      const list = byKey.get(key)
      if (list) list.push(j)
      else byKey.set(key, [j])
    }
    const taken = new Map<string, number>()
    for (let i = 0; i < tableA.length; i++) {
      if (matchA[i] >= 0) continue
      const key = keyA(i)
      if (key === undefined) continue
      const candidates = byKey.get(key)
      if (candidates === undefined) continue
      const k = taken.get(key) ?? 0
      if (k >= candidates.length) continue
      taken.set(key, k + 1)
      matchA[i] = candidates[k]
      matchedB[candidates[k]] = 1
      how[i] = code
    }
  }
  // by name (an empty name matches nothing), then by desc: only the rows no name matched need their key
  matchBy(
    (i) => namesA[i] || undefined,
    (j) => namesB[j] || undefined,
    1,
  )
  matchBy(
    (i) => descKey(a, tableA.createRecord[i]),
    (j) => descKey(b, tableB.createRecord[j]),
    2,
  )

  const textA = tableA.text
  const textB = tableB.text
  const counts = { onlyA: 0, onlyB: 0, changed: 0, same: 0 }
  const status: number[] = []
  const rowA: number[] = []
  const rowB: number[] = []
  const matchHow: number[] = []
  const changed: number[] = []
  for (let i = 0; i < tableA.length; i++) {
    const j = matchA[i]
    if (j < 0) {
      counts.onlyA++
      status.push(STATUS.onlyA)
      rowA.push(i)
      rowB.push(-1)
      matchHow.push(0)
      changed.push(0)
      continue
    }
    const bits =
      (textA.placement[i] !== textB.placement[j] ? 1 : 0) |
      (textA.heap[i] !== textB.heap[j] ? 2 : 0) |
      (tableA.occupied[i] !== tableB.occupied[j] ? 4 : 0) |
      (tableA.requested[i] !== tableB.requested[j] ? 8 : 0)
    if (bits === 0) {
      counts.same++
      continue
    }
    counts.changed++
    status.push(STATUS.changed)
    rowA.push(i)
    rowB.push(j)
    matchHow.push(how[i])
    changed.push(bits)
  }
  for (let j = 0; j < tableB.length; j++) {
    if (matchedB[j]) continue
    counts.onlyB++
    status.push(STATUS.onlyB)
    rowA.push(-1)
    rowB.push(j)
    matchHow.push(0)
    changed.push(0)
  }
  return {
    status: Uint8Array.from(status),
    a: Int32Array.from(rowA),
    b: Int32Array.from(rowB),
    how: Uint8Array.from(matchHow),
    changes: Uint8Array.from(changed),
    counts,
  }
}

/**
 * A page of the resources only in A, only in B, and in both with another placement, heap, size or requested size,
 * at the frames asked (the last of each by default). The rows are matched once per pair of tables (matchTables,
 * kept in `matches`); each page then builds only its own entries.
 */
export function resourceDiff(a: ComparedRun, b: ComparedRun, query: ResourceDiffQuery): ResourceDiffAnswer {
  const frameA = query.frameA ?? a.store.frames.length - 1
  const frameB = query.frameB ?? b.store.frames.length - 1
  const tableA = a.snapshots.table(frameA)
  const tableB = b.snapshots.table(frameB)
  const match = matches.get(tableA, tableB, () => matchTables(a, b, tableA, tableB))
  let wanted = 0
  for (const s of query.status ?? STATUS_NAMES) wanted |= 1 << STATUS[s]
  const offset = Math.max(0, Math.floor(query.offset))
  const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
  const entries: ResourceDiffEntry[] = []
  let total = 0
  for (let k = 0; k < match.status.length; k++) {
    if ((wanted & (1 << match.status[k])) === 0) continue
    if (total >= offset && entries.length < limit) {
      const i = match.a[k]
      const j = match.b[k]
      const bits = match.changes[k]
      entries.push({
        status: STATUS_NAMES[match.status[k]],
        match: MATCH_NAMES[match.how[k]],
        name: i >= 0 ? tableA.text.name[i] : tableB.text.name[j],
        a: i >= 0 ? tableA.row(i) : null,
        b: j >= 0 ? tableB.row(j) : null,
        changes: CHANGE_NAMES.filter((_, bit) => (bits & (1 << bit)) !== 0),
      })
    }
    total++
  }
  return { total, counts: { ...match.counts }, entries }
}

/**
 * The leak groups found so far, by the table at the range's end, then the table at its start (each a frame's): the
 * pages of one range walk its records once.
 */
const leakGroupsFound = new PerTablePair<LeakGroup[]>()

function groupsOf(run: ComparedRun, atA: ResourceTable, atB: ResourceTable, from: number, to: number): LeakGroup[] {
  const groups = leakGroupsFound.get(atB, atA, () => leakGroups(run.store, atA, atB, from, to))
  // each answer's own objects: the kept ones stay as they were found
  return groups.map((g) => ({ ...g }))
}

/** Resources created after frame index `from` and still alive at frame index `to`, biggest first. */
export function leaks(run: ComparedRun, query: LeakQuery, occupiedSeries: Float64Array | undefined): LeakAnswer {
  const frames = run.store.frames
  const from = Math.max(0, Math.min(frames.length - 1, Math.floor(query.from)))
  const to = Math.max(from, Math.min(frames.length - 1, Math.floor(query.to)))
  const table = run.snapshots.table(to)
  const after = frames.n[from]
  const order = table.order('occupied', true)
  const rows: ResourceRow[] = []
  let total = 0
  let totalBytes = 0
  const offset = Math.max(0, Math.floor(query.offset))
  const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
  for (let k = 0; k < order.length; k++) {
    const i = order[k]
    if (table.created[i] <= after) continue
    if (total >= offset && rows.length < limit) rows.push(table.row(i))
    total++
    totalBytes += table.occupied[i]
  }
  const growth = occupiedSeries ? occupiedSeries[to] - occupiedSeries[from] : 0
  const groups = query.groups === false ? [] : groupsOf(run, run.snapshots.table(from), table, from, to)
  return { total, totalBytes, growthBytes: growth, rows, groups }
}
