/**
 * The history database: one DuckDB file holding each added run's figures (docs/history.md has the schema). Runs are
 * never changed once added; a build is the order its first run was added in, so a nightly job's builds line up
 * in time. Trends read one metric per build (the largest of the build's runs, so a build with several captures
 * is judged by its worst), in total or by heap, placement or tag.
 */
import type { DuckDBValue } from '@duckdb/node-api'
import type { HistoryGroup as TrendGroup, HistoryMetric as TrendMetric, HistoryTrend } from '../../shared/ipc'
import { closeDatabase, HistoryError, literal, openDatabase, rows, type Database, type OpenOptions } from './duckdb'
import type { RunFigures } from './figures'

/** Version of the database's tables; a newer database is refused, an older one upgraded. */
export const HISTORY_SCHEMA_VERSION = 1

export {
  HISTORY_METRICS as TREND_METRICS,
  HISTORY_GROUPS as TREND_GROUPS,
  type HistoryMetric as TrendMetric,
  type HistoryGroup as TrendGroup,
} from '../../shared/ipc'

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS heapscope_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY,
    added_at TIMESTAMP NOT NULL,
    path VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    app VARCHAR,
    platform VARCHAR,
    adapter VARCHAR,
    captured VARCHAR,
    api VARCHAR NOT NULL,
    format VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    heapscope_version VARCHAR NOT NULL,
    frames INTEGER NOT NULL,
    records BIGINT NOT NULL,
    partial BOOLEAN NOT NULL,
    peak_frame BIGINT NOT NULL,
    peak_bytes BIGINT NOT NULL,
    end_bytes BIGINT NOT NULL,
    resources_created BIGINT NOT NULL,
    resources_released BIGINT NOT NULL,
    resources_live_at_end BIGINT NOT NULL,
    evictions BIGINT NOT NULL,
    evicted_bytes BIGINT NOT NULL,
    over_budget_frames BIGINT NOT NULL,
    hazards BIGINT NOT NULL,
    report VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS run_labels (run_id INTEGER NOT NULL, key VARCHAR NOT NULL, value VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS run_heaps (run_id INTEGER NOT NULL, heap VARCHAR NOT NULL, peak_bytes BIGINT NOT NULL, end_bytes BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS run_placements (run_id INTEGER NOT NULL, placement VARCHAR NOT NULL, peak_bytes BIGINT NOT NULL, end_bytes BIGINT NOT NULL, live_count BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS run_tags (run_id INTEGER NOT NULL, tag VARCHAR NOT NULL, peak_bytes BIGINT NOT NULL, end_bytes BIGINT NOT NULL, live_count BIGINT NOT NULL)`,
]

export interface TrendQuery {
  metric: TrendMetric
  by?: TrendGroup
  /** Only runs carrying all these labels. */
  labels?: Record<string, string>
}

export type Trend = HistoryTrend

export interface QueryAnswer {
  columns: string[]
  rows: unknown[][]
}

/** The column a metric reads, in `runs` (no group) or in the group's table. */
function metricColumn(metric: TrendMetric, by: TrendGroup | undefined): { table: string; key: string | null; column: string } {
  if (metric === 'evictions' || metric === 'hazards') {
    if (by) throw new HistoryError(`--metric ${metric} is counted per run, not by ${by}: leave --by out`)
    return { table: 'runs', key: null, column: metric }
  }
  const column = metric === 'peak' ? 'peak_bytes' : 'end_bytes'
  if (!by) return { table: 'runs', key: null, column }
  return { table: `run_${by}s`, key: by, column }
}

const int = (n: number) => BigInt(Math.round(n))
const INSERT_ROWS = 256

export class History {
  private constructor(
    private readonly db: Database,
    readonly path: string,
  ) {}

  /** Open (and, unless read-only, create) a history database. */
  static async open(path: string, options: OpenOptions = {}): Promise<History> {
    const db = await openDatabase(path, options)
    const history = new History(db, path)
    try {
      await history.checkSchema(options.readOnly ?? false)
    } catch (err) {
      closeDatabase(db)
      throw err
    }
    return history
  }

  private async checkSchema(readOnly: boolean): Promise<void> {
    const c = this.db.connection
    const tables = await rows(c, `SELECT table_name FROM information_schema.tables WHERE table_name = 'heapscope_meta'`)
    if (tables.length === 0) {
      const any = await rows(c, `SELECT count(*)::INTEGER AS n FROM information_schema.tables`)
      if (readOnly || Number(any[0].n) > 0) throw new HistoryError(`${this.path}: not a HeapScope history database (no heapscope_meta table)`)
      for (const statement of SCHEMA) await c.run(statement)
      await c.run(`INSERT INTO heapscope_meta VALUES ('schema_version', ${literal(String(HISTORY_SCHEMA_VERSION))})`)
      return
    }
    const meta = await rows(c, `SELECT value FROM heapscope_meta WHERE key = 'schema_version'`)
    const version = Number(meta[0]?.value)
    if (!Number.isInteger(version)) throw new HistoryError(`${this.path}: heapscope_meta has no schema_version`)
    if (version > HISTORY_SCHEMA_VERSION) {
      throw new HistoryError(`${this.path}: history schema version ${version} is newer than this HeapScope reads (${HISTORY_SCHEMA_VERSION})`)
    }
  }

  close(): void {
    closeDatabase(this.db)
  }

  /** Add runs' figures in one transaction (all of them or none); their ids, in order. */
  async add(runs: readonly RunFigures[]): Promise<number[]> {
    const c = this.db.connection
    await c.run('BEGIN TRANSACTION')
    try {
      const next = await rows(c, `SELECT (coalesce(max(run_id), 0) + 1)::INTEGER AS id FROM runs`)
      const first = Number(next[0].id)
      const ids = runs.map((_, i) => first + i)
      // rows a statement at a time, a few hundred to a statement
      const insert = async (table: string, tuples: DuckDBValue[][]) => {
        for (let from = 0; from < tuples.length; from += INSERT_ROWS) {
          const part = tuples.slice(from, from + INSERT_ROWS)
          const width = part[0].length
          const sql = part.map((_, r) => `(${Array.from({ length: width }, (_, k) => `$${r * width + k + 1}`).join(', ')})`)
          await c.run(`INSERT INTO ${table} VALUES ${sql.join(', ')}`, part.flat())
        }
      }
      const runRows: DuckDBValue[][] = []
      const labels: DuckDBValue[][] = []
      const heaps: DuckDBValue[][] = []
      const placements: DuckDBValue[][] = []
      const tags: DuckDBValue[][] = []
      const addedAt = new Date().toISOString().replace('T', ' ').replace('Z', '')
      for (const [i, figures] of runs.entries()) {
        const id = ids[i]
        const { meta, report } = figures
        runRows.push([
          id,
          addedAt,
          meta.path,
          meta.file,
          meta.build ?? `#${id}`,
          meta.app,
          meta.platform,
          meta.adapter,
          meta.captured,
          meta.api,
          meta.format,
          meta.config,
          meta.heapscopeVersion,
          report.frames,
          int(report.records),
          report.partial,
          int(report.peak.frame),
          int(report.peak.bytes),
          int(figures.endBytes),
          int(report.resources.created),
          int(report.resources.released),
          int(report.resources.liveAtEnd),
          int(report.residency.evictions),
          int(report.residency.evictedBytes),
          int(report.residency.overBudgetFrames),
          int(figures.hazards),
          JSON.stringify(report),
        ])
        for (const [k, v] of Object.entries(meta.labels)) labels.push([id, k, v])
        for (const [heap, v] of Object.entries(report.heaps)) heaps.push([id, heap, int(v.peakBytes), int(v.endBytes)])
        for (const [p, v] of Object.entries(report.byPlacement ?? {})) placements.push([id, p, int(v.peakBytes), int(v.endBytes), int(v.count)])
        for (const [t, v] of Object.entries(figures.tags)) tags.push([id, t, int(v.peakBytes), int(v.endBytes), int(v.count)])
      }
      await insert('runs', runRows)
      await insert('run_labels', labels)
      await insert('run_heaps', heaps)
      await insert('run_placements', placements)
      await insert('run_tags', tags)
      await c.run('COMMIT')
      return ids
    } catch (err) {
      await c.run('ROLLBACK')
      throw err
    }
  }

  /** Any SQL; DuckDB's own error message when it is wrong. */
  async query(sql: string): Promise<QueryAnswer> {
    let reader
    try {
      reader = await this.db.connection.runAndReadAll(sql)
    } catch (err) {
      throw new HistoryError((err as Error).message)
    }
    return { columns: reader.columnNames(), rows: reader.getRowsJson() as unknown[][] }
  }

  /** The capture path a run was added from. */
  async runPath(runId: number): Promise<string | null> {
    const found = await rows(this.db.connection, 'SELECT path FROM runs WHERE run_id = $1', [runId])
    return found.length ? String(found[0].path) : null
  }

  /** Each label key with its values (the first `limit` of each, in order). */
  async labels(limit = 200): Promise<{ key: string; values: string[] }[]> {
    const found = await rows(
      this.db.connection,
      'SELECT key, list(DISTINCT value ORDER BY value) AS "values" FROM run_labels GROUP BY key ORDER BY key',
    )
    return found.map((r) => ({ key: String(r.key), values: (r.values as unknown[]).slice(0, limit).map(String) }))
  }

  async runCount(): Promise<number> {
    const found = await rows(this.db.connection, 'SELECT count(*)::INTEGER AS n FROM runs')
    return Number(found[0].n)
  }

  async trend(query: TrendQuery): Promise<Trend> {
    const { table, key, column } = metricColumn(query.metric, query.by)
    const params: DuckDBValue[] = []
    const filters = Object.entries(query.labels ?? {}).map(([k, v]) => {
      params.push(k, v)
      return `run_id IN (SELECT run_id FROM run_labels WHERE key = $${params.length - 1} AND value = $${params.length})`
    })
    const where = filters.length ? `WHERE ${filters.join(' AND ')}` : ''
    const c = this.db.connection
    const builds = await rows(
      c,
      `SELECT build, count(*)::INTEGER AS runs, min(run_id)::INTEGER AS first_run, max(run_id)::INTEGER AS last_run
       FROM runs ${where} GROUP BY build ORDER BY first_run`,
      params,
    )
    const source = table === 'runs' ? 'runs' : `runs JOIN ${table} USING (run_id)`
    const values = await rows(
      c,
      `SELECT build, ${key ?? `'all'`} AS name, max(${table}.${column})::DOUBLE AS value
       FROM ${source} ${where} GROUP BY build, name ORDER BY name`,
      params,
    )
    const index = new Map(builds.map((b, i) => [String(b.build), i]))
    const byName = new Map<string, (number | null)[]>()
    for (const v of values) {
      const name = String(v.name)
      let line = byName.get(name)
      if (!line) byName.set(name, (line = new Array<number | null>(builds.length).fill(null)))
      line[index.get(String(v.build))!] = Number(v.value)
    }
    return {
      metric: query.metric,
      by: query.by ?? null,
      builds: builds.map((b) => ({ build: String(b.build), runs: Number(b.runs), runId: Number(b.last_run) })),
      series: [...byName].map(([name, line]) => ({ name, values: line })),
    }
  }
}
