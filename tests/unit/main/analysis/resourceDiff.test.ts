/**
 * The resources of two runs compared (resourceDiff): every page of every status filter as a plain reference gives
 * it, which matches the rows again for each page and builds every entry; the rows matched once per pair of tables.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resourceDiff, type ComparedRun } from '../../../../src/main/analysis/compare'
import { replayCapture } from '../../../../src/main/analysis/run'
import type { ResourceTable } from '../../../../src/main/analysis/resourceTable'
import { recordLine } from '../../../../src/main/ingest/ndjsonWriter'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { recordAt } from '../../../../src/main/ingest/records'
import type { ResourceDiffAnswer, ResourceDiffEntry, ResourceDiffQuery, ResourceRow } from '../../../../src/shared/ipc'
import { scan } from '../ingest/helpers'

const GOLDEN = join(__dirname, '__golden__')

/** The diff as the rule says it, one page: A's rows by name (in order among equal names), then by desc; every entry built. */
function reference(a: ComparedRun, b: ComparedRun, query: ResourceDiffQuery): ResourceDiffAnswer {
  const tableA = a.snapshots.table(query.frameA ?? a.store.frames.length - 1)
  const tableB = b.snapshots.table(query.frameB ?? b.store.frames.length - 1)
  const descKey = (run: ComparedRun, record: number) => {
    if (record < 0) return ''
    const { id: _id, name: _name, ...rest } = recordAt(run.store, record) as unknown as Record<string, unknown>
    return recordLine(rest as never)
  }
  const keyed = (run: ComparedRun, table: ResourceTable) =>
    Array.from({ length: table.length }, (_, i) => ({ index: i, name: table.text.name[i], key: descKey(run, table.createRecord[i]) }))
  const listA = keyed(a, tableA)
  const listB = keyed(b, tableB)
  const matchA: number[] = listA.map(() => -1)
  const matchedB: boolean[] = listB.map(() => false)
  const how: ('name' | 'desc' | null)[] = listA.map(() => null)
  const byName = new Map<string, number[]>()
  listB.forEach((e, j) => e.name && byName.set(e.name, [...(byName.get(e.name) ?? []), j]))
  listA.forEach((e, i) => {
    const j = e.name ? byName.get(e.name)?.shift() : undefined
    if (j === undefined) return
    ;[matchA[i], matchedB[j], how[i]] = [j, true, 'name']
  })
  const byKey = new Map<string, number[]>()
  listB.forEach((e, j) => !matchedB[j] && byKey.set(e.key, [...(byKey.get(e.key) ?? []), j]))
  listA.forEach((e, i) => {
    if (matchA[i] >= 0) return
    const j = byKey.get(e.key)?.shift()
    if (j === undefined) return
    ;[matchA[i], matchedB[j], how[i]] = [j, true, 'desc']
  })
  const changes = (x: ResourceRow, y: ResourceRow) =>
    [
      x.placement !== y.placement && 'placement',
      x.heap !== y.heap && 'heap',
      x.occupied !== y.occupied && 'size',
      x.requested !== y.requested && 'requested',
    ].filter((c): c is string => c !== false)
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
    if (diff.length === 0) return void counts.same++
    counts.changed++
    if (wanted.has('changed')) entries.push({ status: 'changed', match: how[i], name: e.name, a: rowA, b: rowB, changes: diff })
  })
  listB.forEach((e, j) => {
    if (matchedB[j]) return
    counts.onlyB++
    if (wanted.has('onlyB')) entries.push({ status: 'onlyB', match: null, name: e.name, a: null, b: tableB.row(e.index), changes: [] })
  })
  const offset = Math.max(0, Math.floor(query.offset))
  const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
  return { total: entries.length, counts, entries: entries.slice(offset, offset + limit) }
}

async function run(name: string, pairs: string[] = []): Promise<ComparedRun> {
  const result = await loadCaptureFile(join(GOLDEN, name))
  return (await replayCapture(result, pairs, {})).replay
}

const FILTERS: ResourceDiffQuery['status'][] = [undefined, ['onlyA'], ['onlyB'], ['changed'], ['onlyB', 'changed'], []]

/** Every filter, pages of several sizes at several offsets (past the end too), against the reference. */
function expectAsReference(a: ComparedRun, b: ComparedRun, frames: { frameA?: number; frameB?: number } = {}) {
  let seen = 0
  for (const status of FILTERS) {
    for (const [offset, limit] of [[0, 5000], [0, 7], [13, 50], [1e9, 10], [-5, 3.7], [2, 0]]) {
      const query: ResourceDiffQuery = { runA: 'a', runB: 'b', ...frames, offset, limit, ...(status ? { status } : {}) }
      const answer = resourceDiff(a, b, query)
      expect(answer).toEqual(reference(a, b, query))
      seen += answer.entries.length
    }
  }
  // the comparison saw entries, not only empty pages
  expect(seen).toBeGreaterThan(0)
}

describe('the resources of two runs compared', () => {
  it('pages as the reference does: one capture under two configs (every row matched by name)', async () => {
    const a = await run('demo.hscap.gz')
    // buffers over 64 KiB committed instead of pooled
    const b = await run('demo.hscap.gz', ['bufferPool.maxAllocation=65536'])
    expectAsReference(a, b)
    const all = resourceDiff(a, b, { runA: 'a', runB: 'b', offset: 0, limit: 5000 })
    expect(all.counts.onlyA + all.counts.onlyB).toBe(0)
    expect(all.counts.changed).toBeGreaterThan(0)
  })

  it('pages as the reference does: two captures at their last frames and earlier, and one run at two frames', async () => {
    const a = await run('deferred-60.hscap.gz')
    const b = await run('raytracing-60.hscap.gz')
    expectAsReference(a, b)
    expectAsReference(a, b, { frameA: 20, frameB: 41 })
    // one run against itself at two frames
    expectAsReference(a, a, { frameA: 10, frameB: 50 })
  })

  it('pages as the reference does: unnamed resources matched by their desc, in order among equal descs', async () => {
    // Six buffers of 128 KiB, two unnamed pairs of equal descs, one named, one unnamed of its own desc; B's capture
    // has one buffer fewer of the first pair and one of a new desc. Under a 64 KiB pooled maximum, B's are committed.
    const buffer = (id: number, usage: string[], name?: string) => ({ e: 'buffer', id, size: 131072, usage, ...(name ? { name } : {}) })
    const header = { format: 'heapscope-capture', version: 1, api: 'd3d12' }
    const captureA = [header, { e: 'frame', n: 1 }, buffer(1, ['Static']), buffer(2, ['Static']), buffer(3, ['Static', 'UnorderedAccess']), buffer(4, ['Static', 'UnorderedAccess']), buffer(5, ['Static'], 'Named'), buffer(6, ['Volatile'])]
    const captureB = [header, { e: 'frame', n: 1 }, buffer(11, ['Static']), buffer(13, ['Static', 'UnorderedAccess']), buffer(14, ['Static', 'UnorderedAccess']), buffer(15, ['Static'], 'Named'), buffer(16, ['Static', 'VertexBuffer'])]
    const replayed = async (records: object[], pairs: string[]) => {
      const { store } = scan(records.map((r) => JSON.stringify(r)).join('\n') + '\n')
      return (await replayCapture({ store, format: 'heapscope-capture', notes: [] }, pairs, {})).replay
    }
    const a = await replayed(captureA, [])
    const b = await replayed(captureB, ['bufferPool.maxAllocation=65536'])
    expectAsReference(a, b)
    const all = resourceDiff(a, b, { runA: 'a', runB: 'b', offset: 0, limit: 5000 })
    const summary = all.entries.map((e) => `${e.status} ${e.match} ${e.a?.id ?? '-'}/${e.b?.id ?? '-'} ${e.changes.join(',')}`)
    expect(summary).toEqual([
      'changed desc 1/11 placement',
      'onlyA null 2/- ',
      'changed desc 3/13 placement',
      'changed desc 4/14 placement',
      'changed name 5/15 placement',
      'onlyA null 6/- ',
      'onlyB null -/16 ',
    ])
  })

  it('pages as the reference does: two Vulkan captures', async () => {
    expectAsReference(await run('vulkan-120.hscap.gz'), await run('vulkan-hazards-120.hscap.gz'))
  })

  it('pages of one pair of tables read one match, each with counts of its own', async () => {
    const a = await run('deferred-60.hscap.gz')
    const b = await run('streaming-150.hscap.gz')
    const first = resourceDiff(a, b, { runA: 'a', runB: 'b', offset: 0, limit: 10 })
    first.counts.onlyA = -1
    const again = resourceDiff(a, b, { runA: 'a', runB: 'b', offset: 10, limit: 10 })
    expect(again.counts.onlyA).toBeGreaterThanOrEqual(0)
    expect(again).toEqual(reference(a, b, { runA: 'a', runB: 'b', offset: 10, limit: 10 }))
  })
})
