/**
 * Comparing runs: two captures, or one capture under two configs. Series aligned by frame index with their
 * deltas; resources only in A, only in B, and in both with another placement or size (matched by name, then by
 * desc); and leak candidates within one run: created after frame A, still alive at frame B.
 */
import type {
  CompareSeriesAnswer,
  CompareSeriesQuery,
  LeakAnswer,
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

interface Keyed {
  index: number
  name: string
  key: string
}

function keyed(run: ComparedRun, table: ResourceTable): Keyed[] {
  const out: Keyed[] = []
  for (let i = 0; i < table.length; i++) {
    out.push({ index: i, name: table.text.name[i], key: descKey(run, table.createRecord[i]) })
  }
  return out
}

function changes(a: ResourceRow, b: ResourceRow): string[] {
  const out: string[] = []
  if (a.placement !== b.placement) out.push('placement')
  if (a.heap !== b.heap) out.push('heap')
  if (a.occupied !== b.occupied) out.push('size')
  if (a.requested !== b.requested) out.push('requested')
  return out
}

/** Match A's live resources against B's: by name first (in creation order among equal names), then by desc. */
export function resourceDiff(a: ComparedRun, b: ComparedRun, query: ResourceDiffQuery): ResourceDiffAnswer {
  const frameA = query.frameA ?? a.store.frames.length - 1
  const frameB = query.frameB ?? b.store.frames.length - 1
  const tableA = a.snapshots.table(frameA)
  const tableB = b.snapshots.table(frameB)
  const listA = keyed(a, tableA)
  const listB = keyed(b, tableB)
  const matchedB = new Uint8Array(listB.length)
  const matchA = new Int32Array(listA.length).fill(-1)
  const how: ('name' | 'desc' | null)[] = new Array(listA.length).fill(null)

  const byName = new Map<string, number[]>()
  listB.forEach((e, i) => {
    if (!e.name) return
    const list = byName.get(e.name)
    if (list) list.push(i)
    else byName.set(e.name, [i])
  })
  listA.forEach((e, i) => {
    if (!e.name) return
    const candidates = byName.get(e.name)
    const j = candidates?.shift()
    if (j !== undefined) {
      matchA[i] = j
      matchedB[j] = 1
      how[i] = 'name'
    }
  })
  const byKey = new Map<string, number[]>()
  listB.forEach((e, i) => {
    if (matchedB[i]) return
    const list = byKey.get(e.key)
    if (list) list.push(i)
    else byKey.set(e.key, [i])
  })
  listA.forEach((e, i) => {
    if (matchA[i] >= 0) return
    const j = byKey.get(e.key)?.shift()
    if (j !== undefined) {
      matchA[i] = j
      matchedB[j] = 1
      how[i] = 'desc'
    }
  })

  const entries: ResourceDiffEntry[] = []
  const counts = { onlyA: 0, onlyB: 0, changed: 0, same: 0 }
  const wanted = new Set(query.status ?? ['onlyA', 'onlyB', 'changed'])
  listA.forEach((e, i) => {
    const rowA = tableA.row(e.index)
    if (matchA[i] < 0) {
      counts.onlyA++
      if (wanted.has('onlyA')) entries.push({ status: 'onlyA', match: null, name: e.name, a: rowA, b: null, changes: [] })
      return
    }
    const rowB = tableB.row(listB[matchA[i]].index)
    const diff = changes(rowA, rowB)
    if (diff.length === 0) {
      counts.same++
      return
    }
    counts.changed++
    if (wanted.has('changed')) entries.push({ status: 'changed', match: how[i], name: e.name, a: rowA, b: rowB, changes: diff })
  })
  listB.forEach((e, j) => {
    if (matchedB[j]) return
    counts.onlyB++
    if (wanted.has('onlyB')) {
      entries.push({ status: 'onlyB', match: null, name: e.name, a: null, b: tableB.row(e.index), changes: [] })
    }
  })
  const offset = Math.max(0, Math.floor(query.offset))
  const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
  return { total: entries.length, counts, entries: entries.slice(offset, offset + limit) }
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
  const groups = query.groups === false ? [] : leakGroups(run.store, run.snapshots.table(from), table, from, to)
  return { total, totalBytes, growthBytes: growth, rows, groups }
}
