/**
 * The history against real DuckDB: generated runs added under builds and labels, then read back with `history
 * query` and `history trend`, every figure checked against `report --json` (and `check --json`) of the same run;
 * the growth gate on hand-made captures whose peaks are worked out from docs/model.md; a Parquet export read back.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../../src/main/cli/index'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { History } from '../../../../src/main/history/db'
import { growthGate } from '../../../../src/main/history/gate'
import { MiB } from '../../../../src/shared/units'

const ROOT = resolve(__dirname, '../../../..')
let out = ''
let err = ''

/** Run the CLI in-process; its exit status, stdout and stderr. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  out = ''
  err = ''
  const code = await main(args)
  return { code, out, err }
}

async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const r = await cli(...args)
  expect(r.code, r.err).toBeLessThan(5)
  return JSON.parse(r.out) as T
}

beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true))
})
afterEach(() => vi.restoreAllMocks())

interface Report {
  peak: { frame: number; bytes: number }
  heaps: Record<string, { peakBytes: number; endBytes: number }>
  byPlacement: Record<string, { peakBytes: number; endBytes: number; count: number }>
  residency: { evictions: number; evictedBytes: number; overBudgetFrames: number }
  resources: { created: number; released: number; liveAtEnd: number }
  frames: number
  records: number
}

/** Generated runs: scenario, seed, build, map label. */
const RUNS = [
  { scenario: 'demo', seed: 1, build: '1.0.1', map: 'forest' },
  { scenario: 'budget-drop', seed: 2, build: '1.0.1', map: 'city' },
  { scenario: 'demo', seed: 3, build: '1.0.2', map: 'forest' },
  { scenario: 'vulkan-hazards', seed: 4, build: '1.0.2', map: 'city' },
  { scenario: 'demo', seed: 5, build: '1.0.3', map: 'forest' },
]

describe('history over generated runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-history-'))
  const db = join(dir, 'runs.duckdb')
  const files: string[] = []
  const reports: Report[] = []
  const hazards: number[] = []

  beforeAll(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
    for (const [i, r] of RUNS.entries()) {
      const file = join(dir, `${i}-${r.scenario}.hscap`)
      expect((await cli('gen', r.scenario, '--frames', '48', '--seed', String(r.seed), '-o', file)).code).toBe(0)
      files.push(file)
      reports.push(await json<Report>('report', file, '--json'))
      const check = await cli('check', file, '--json')
      hazards.push((JSON.parse(check.out) as { hazards: unknown[] }).hazards.length)
      const added = await cli('history', 'add', db, file, '--build', r.build, '--label', `map=${r.map}`, '--label', 'platform=linux')
      expect(added.code, added.err).toBe(0)
      expect(added.out).toMatch(new RegExp(`^run ${i + 1}: `))
    }
    vi.restoreAllMocks()
  }, 120_000)

  it('keeps each run’s figures exactly as report --json and check --json give them', async () => {
    const answer = await json<{ columns: string[]; rows: unknown[][] }>(
      'history', 'query', db,
      `SELECT run_id, build, peak_frame::DOUBLE, peak_bytes::DOUBLE, end_bytes::DOUBLE, evictions::DOUBLE, evicted_bytes::DOUBLE,
              over_budget_frames::DOUBLE, hazards::DOUBLE, resources_created::DOUBLE, frames, records::DOUBLE, path
       FROM runs ORDER BY run_id`,
      '--json',
    )
    expect(answer.rows).toHaveLength(RUNS.length)
    for (const [i, row] of answer.rows.entries()) {
      const r = reports[i]
      const end = Object.values(r.heaps).reduce((sum, h) => sum + h.endBytes, 0)
      expect(row).toEqual([
        i + 1,
        RUNS[i].build,
        r.peak.frame,
        r.peak.bytes,
        end,
        r.residency.evictions,
        r.residency.evictedBytes,
        r.residency.overBudgetFrames,
        hazards[i],
        r.resources.created,
        r.frames,
        r.records,
        files[i],
      ])
    }
    // the generated runs are not all alike: evictions in budget-drop, a hazard in vulkan-hazards
    expect(reports[1].residency.evictions).toBeGreaterThan(0)
    expect(hazards[3]).toBe(1)

    const placements = await json<{ rows: [number, string, number, number, number][] }>(
      'history', 'query', db,
      'SELECT run_id, placement, peak_bytes::DOUBLE, end_bytes::DOUBLE, live_count::DOUBLE FROM run_placements ORDER BY run_id, placement',
      '--json',
    )
    for (const [i, r] of reports.entries()) {
      const mine = placements.rows.filter((p) => p[0] === i + 1).map((p) => [p[1], { peakBytes: p[2], endBytes: p[3], count: p[4] }])
      expect(Object.fromEntries(mine)).toEqual(r.byPlacement)
    }
    const labels = await json<{ rows: unknown[][] }>('history', 'query', db, "SELECT run_id, value FROM run_labels WHERE key = 'map' ORDER BY run_id", '--json')
    expect(labels.rows).toEqual(RUNS.map((r, i) => [i + 1, r.map]))
  })

  it('draws a trend per build: the largest of each build’s runs, builds in the order they came', async () => {
    const trend = await json<{ builds: { build: string; runs: number; runId: number }[]; series: { name: string; values: (number | null)[] }[] }>(
      'history', 'trend', db, '--by', 'heap', '--json',
    )
    expect(trend.builds).toEqual([
      { build: '1.0.1', runs: 2, runId: 2 },
      { build: '1.0.2', runs: 2, runId: 4 },
      { build: '1.0.3', runs: 1, runId: 5 },
    ])
    for (const line of trend.series) {
      const expected = ['1.0.1', '1.0.2', '1.0.3'].map((b) => {
        const mine = reports.filter((_, i) => RUNS[i].build === b).flatMap((r) => r.heaps[line.name]?.peakBytes ?? [])
        // a Vulkan run's heaps are its memory heaps: a build without one has no value there
        return mine.length ? Math.max(...mine) : null
      })
      expect(line.values, line.name).toEqual(expected)
    }
    expect(trend.series.map((s) => s.name)).toContain('DEFAULT')

    // a label narrows the runs: only the forest map, one run per build
    const forest = await json<{ series: { name: string; values: number[] }[] }>('history', 'trend', db, '--label', 'map=forest', '--json')
    expect(forest.series).toEqual([{ name: 'all', values: [reports[0].peak.bytes, reports[2].peak.bytes, reports[4].peak.bytes] }])
    const evictions = await json<{ series: { values: number[] }[] }>('history', 'trend', db, '--metric', 'evictions', '--json')
    expect(evictions.series[0].values[0]).toBe(Math.max(reports[0].residency.evictions, reports[1].residency.evictions))
    const hazardTrend = await json<{ series: { values: number[] }[] }>('history', 'trend', db, '--metric', 'hazards', '--json')
    expect(hazardTrend.series[0].values).toEqual([0, 1, 0])

    const text = await cli('history', 'trend', db, '--by', 'placement')
    expect(text.code).toBe(0)
    expect(text.out).toContain('peak by placement, 3 builds')
    expect(text.out).toMatch(/^TextureReadOnlyPool\s+[▁-█]{3}\s/m)
  })

  it('answers SQL, and says what is wrong with bad SQL, a bad metric grouping or a file that is not a history', async () => {
    const q = await cli('history', 'query', db, "SELECT build, count(*) AS runs FROM runs GROUP BY build ORDER BY build")
    expect(q.out).toBe('build  runs\n1.0.1     2\n1.0.2     2\n1.0.3     1\n(3 rows)\n')
    const bad = await cli('history', 'query', db, 'SELECT nope FROM runs')
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/nope/)
    const grouped = await cli('history', 'trend', db, '--metric', 'hazards', '--by', 'heap')
    expect(grouped.code).toBe(1)
    expect(grouped.err).toContain('--metric hazards is counted per run, not by heap')
    const notHistory = join(dir, 'other.duckdb')
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const other = await DuckDBInstance.create(notHistory)
    const c = await other.connect()
    await c.run('CREATE TABLE t (x INTEGER)')
    c.closeSync()
    other.closeSync()
    const refused = await cli('history', 'add', notHistory, files[0])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('not a HeapScope history database')
    const label = await cli('history', 'add', db, files[0], '--label', 'nokey')
    expect(label.code).toBe(1)
    expect(label.err).toContain('--label expects KEY=VALUE, got "nokey"')
  })

  it('exports a run as Parquet with its metadata, its figures those of report --json and route', async () => {
    const pq = join(dir, 'parquet')
    const exported = await cli('export', files[1], '--parquet', pq, '--build', '1.0.1', '--label', 'map=city')
    expect(exported.code, exported.err).toBe(0)
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(':memory:')
    const c = await instance.connect()
    const one = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJson()
    const r = reports[1]
    const kv = await one(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${pq}/frames.parquet')`)
    const meta = Object.fromEntries(kv.map((x) => [x.k, x.v]))
    expect(meta).toMatchObject({ 'heapscope.schema': 'frames/1', 'heapscope.version': '0.1.0', 'heapscope.build': '1.0.1', 'heapscope.api': 'd3d12' })
    expect(JSON.parse(String(meta['heapscope.labels']))).toEqual({ map: 'city' })
    const peak = await one(`SELECT max(value) AS v, arg_max(frame_number, value)::DOUBLE AS f FROM '${pq}/frames.parquet' WHERE series = 'total.heapBytes'`)
    expect(peak[0]).toEqual({ v: r.peak.bytes, f: r.peak.frame })
    const resources = await one(
      `SELECT count(*)::DOUBLE AS created, count(released_frame)::DOUBLE AS released FROM '${pq}/resources.parquet'`,
    )
    expect(resources[0]).toEqual({ created: r.resources.created, released: r.resources.released })
    const evictions = await one(`SELECT count(*)::DOUBLE AS n, sum(bytes)::DOUBLE AS b FROM '${pq}/events.parquet' WHERE kind = 'evict'`)
    expect(evictions[0]).toEqual({ n: r.residency.evictions, b: r.residency.evictedBytes })
    // the model's placements are route's, line for line
    const route = await cli('route', files[1])
    const lines = route.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const placed = await one(
      `SELECT id::DOUBLE AS id, placement, heap, alignment::DOUBLE AS alignment, occupied_bytes::DOUBLE AS size, "offset"::DOUBLE AS "offset", pool, route
       FROM '${pq}/resources.parquet' WHERE kind <> 'placed' ORDER BY resource`,
    )
    expect(placed.length).toBe(lines.length)
    for (let i = 0; i < lines.length; i += 97) {
      const { estimated: _estimated, ...line } = lines[i]
      expect(placed[i], `resource ${i}`).toEqual(line)
    }
    const types = await one(`SELECT name, type FROM parquet_schema('${pq}/resources.parquet') WHERE name IN ('id', 'offset', 'route', 'released_frame')`)
    expect(types).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', type: 'INT64' })]))
    const compression = await one(`SELECT DISTINCT compression FROM parquet_metadata('${pq}/frames.parquet')`)
    expect(compression).toEqual([{ compression: 'ZSTD' }])
    c.closeSync()
    instance.closeSync()
  })

  it('exports a Vulkan run: its resources on the memory types report names, the findings check makes', async () => {
    const pq = join(dir, 'parquet-vulkan')
    expect((await cli('export', files[3], '--parquet', pq)).code).toBe(0)
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(':memory:')
    const c = await instance.connect()
    const one = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJson()
    const r = reports[3]
    const counts = await one(`SELECT count(*)::DOUBLE AS created, count(released_frame)::DOUBLE AS released FROM '${pq}/resources.parquet'`)
    expect(counts[0]).toEqual({ created: r.resources.created, released: r.resources.released })
    const live = await one(
      `SELECT placement, count(*)::DOUBLE AS n FROM '${pq}/resources.parquet' WHERE released_frame IS NULL AND placement IS NOT NULL GROUP BY placement ORDER BY placement`,
    )
    expect(Object.fromEntries(live.map((x) => [x.placement, x.n]))).toEqual(
      Object.fromEntries(Object.entries(r.byPlacement).map(([p, v]) => [p, v.count])),
    )
    const findings = await one(`SELECT kind, rule, resources FROM '${pq}/events.parquet' WHERE kind = 'hazard'`)
    expect(findings).toEqual([{ kind: 'hazard', rule: 'access-inactive', resources: expect.any(Array) }])
    expect(findings.length).toBe(hazards[3])
    c.closeSync()
    instance.closeSync()
  })
})

const HEADER = '{"format":"heapscope-capture","version":1,"app":"Gate"}'

function capture(dir: string, name: string, records: object[]): string {
  const path = join(dir, name)
  writeFileSync(path, [HEADER, ...records.map((r) => JSON.stringify(r))].join('\n') + '\n')
  return path
}

describe('the growth gate', () => {
  // docs/model.md: 1 KiB lands in a 32 MiB shared buffer pool (a spare pool comes with it: 64 MiB); 20 MiB is over
  // the pool's largest block and goes committed. Base: 64 + 20 = 84 MiB; the grown build commits another 20: 104 MiB.
  const base = [
    { e: 'frame', n: 0 },
    { e: 'buffer', id: 1, size: 1024, usage: ['Static'], name: 'Mesh.VB', tag: 'Meshes' },
    { e: 'buffer', id: 2, size: 20 * MiB, usage: ['Static'], name: 'Big', tag: 'Textures' },
  ]
  const grown = [...base, { e: 'buffer', id: 3, size: 20 * MiB, usage: ['Static'], name: 'Leak', tag: 'Niagara' }]
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-gate-'))
  const db = join(dir, 'gate.duckdb')

  beforeAll(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const a = capture(dir, 'base.hscap', base)
    const b = capture(dir, 'grown.hscap', grown)
    for (const build of ['100', '101', '102', '103']) expect(await main(['history', 'add', db, a, '--build', build, '--label', 'rig=a'])).toBe(0)
    expect(await main(['history', 'add', db, b, '--build', '104', '--label', 'rig=b'])).toBe(0)
    vi.restoreAllMocks()
  })

  it('fails with exit 5 when the newest build grows past P% of the median, naming the placement and tag', async () => {
    const trend = await json<{ series: { values: number[] }[] }>('history', 'trend', db, '--json')
    expect(trend.series[0].values).toEqual([84 * MiB, 84 * MiB, 84 * MiB, 84 * MiB, 104 * MiB])
    // 20 / 84 = 23.8%
    const failed = await cli('history', 'trend', db, '--fail-on-growth', '20', '--window', '3')
    expect(failed.code).toBe(5)
    expect(failed.err).toContain('build 104: peak grew more than 20% over the median of the 3 builds before it: all 104 MiB against a median of 84.0 MiB (+23.8%, +20.0 MiB)')
    expect(failed.err).toContain('placement Committed 40.0 MiB against a median of 20.0 MiB (+100.0%, +20.0 MiB)')
    expect(failed.err).toContain('tag Niagara 20.0 MiB against a median of 0 B (from zero, +20.0 MiB)')
    expect(failed.err).not.toContain('placement SharedBufferPool')
    expect((await cli('history', 'trend', db, '--fail-on-growth', '25', '--window', '3')).code).toBe(0)
    const byTag = await cli('history', 'trend', db, '--by', 'tag', '--fail-on-growth', '50')
    expect(byTag.code).toBe(5)
    expect(byTag.err).toMatch(/: Niagara 20\.0 MiB against a median of 0 B \(from zero, \+20\.0 MiB\)$/m)
    expect((await cli('history', 'trend', db, '--metric', 'end', '--by', 'heap', '--fail-on-growth', '24')).code).toBe(0)
  })

  it('the engine answers the app from a history another process adds to meanwhile', async () => {
    const engine = new LocalEngine()
    const info = await engine.openHistory(db)
    expect(info).toEqual({ historyId: info.historyId, name: 'gate.duckdb', runs: 5, builds: 5, labels: [{ key: 'rig', values: ['a', 'b'] }] })
    // a nightly job adds a build while the app shows the history: the engine holds no lock between queries
    const added = spawnSync(process.execPath, ['--import', 'tsx', 'src/main/cli/run.ts', 'history', 'add', db, join(dir, 'base.hscap'), '--build', '105'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(added.status, added.stderr).toBe(0)
    const narrowed = await engine.historyTrend({ historyId: info.historyId, metric: 'peak', labels: { rig: 'b' } })
    expect(narrowed.builds.map((b) => b.build)).toEqual(['104'])
    const trend = await engine.historyTrend({ historyId: info.historyId, metric: 'peak', by: 'placement' })
    expect(trend.builds.map((b) => b.build)).toEqual(['100', '101', '102', '103', '104', '105'])
    expect(trend.series.find((l) => l.name === 'Committed')?.values).toEqual([20, 20, 20, 20, 40, 20].map((n) => n * MiB))
    expect(await engine.historyRunPath(info.historyId, 6)).toBe(join(dir, 'base.hscap'))
    await expect(engine.historyRunPath(info.historyId, 99)).rejects.toThrow('the history has no run 99')
    await engine.closeHistory(info.historyId)
    await expect(engine.historyTrend({ historyId: info.historyId, metric: 'peak' })).rejects.toThrow(`no history ${info.historyId} is open`)
    await engine.dispose()
  }, 60_000)

  it('opens read-only, sandboxed as the app opens it, and refuses a newer schema', async () => {
    const history = await History.open(db, { readOnly: true })
    expect(await history.runCount()).toBe(6)
    expect(await history.runPath(5)).toBe(join(dir, 'grown.hscap'))
    history.close()
    // as the app's engine opens it: its own file and nothing else
    const sandboxed = await History.open(db, { readOnly: true, sandboxed: true })
    await expect(sandboxed.query(`SELECT * FROM read_csv('${join(dir, 'base.hscap')}')`)).rejects.toThrow(/disabled by configuration/)
    expect((await sandboxed.query('SELECT count(*)::INTEGER AS n FROM runs')).rows).toEqual([[6]])
    sandboxed.close()
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const future = join(dir, 'future.duckdb')
    await History.open(future).then((h) => h.close())
    const instance = await DuckDBInstance.create(future)
    const c = await instance.connect()
    await c.run("UPDATE heapscope_meta SET value = '99' WHERE key = 'schema_version'")
    c.closeSync()
    instance.closeSync()
    await expect(History.open(future, { readOnly: true })).rejects.toThrow('history schema version 99 is newer than this HeapScope reads (1)')
  })
})

describe('growthGate', () => {
  const trend = (values: (number | null)[]) => ({
    metric: 'peak' as const,
    by: null,
    builds: values.map((_, i) => ({ build: `b${i}`, runs: 1, runId: i + 1 })),
    series: [{ name: 'all', values }],
  })

  it('takes the median of the window before the newest build, skipping builds without a value', () => {
    // window 3: median of 300, 120, 110 is 120; 150 is 25% over it
    expect(growthGate(trend([100, 300, 120, 110, 150]), 20, 3)?.grew).toEqual([
      { name: 'all', value: 150, median: 120, growthPercent: 25, growth: 30 },
    ])
    expect(growthGate(trend([100, 300, 120, 110, 150]), 25, 3)?.grew).toEqual([])
    // window 4: median of 100, 300, 120, 110 is 115
    expect(growthGate(trend([100, 300, 120, 110, 150]), 0, 4)?.lines[0].median).toBe(115)
    expect(growthGate(trend([100, null, 120, 150]), 0, 3)?.lines[0].median).toBe(110)
    expect(growthGate(trend([150]), 0, 3)).toBeNull()
  })
})
