/**
 * `heapscope export FILE --parquet DIR`: a run as three Parquet files (frames, resources, events), typed and
 * zstd-compressed, written by DuckDB's COPY … (FORMAT parquet), each carrying the run's metadata and the schema
 * version as Parquet key-value metadata. The schema is in docs/history.md; a change to it bumps PARQUET_SCHEMA_VERSION.
 */
import { mkdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import type { HazardLog } from '../analysis/hazards'
import { RESIDENCY_EVENT } from '../analysis/residencyEvents'
import type { ReplayedCapture } from '../analysis/run'
import type { BackendRun } from '../analysis/backend'
import type { LoadResult } from '../ingest/read'
import { closeDatabase, duckdb, literal, openDatabase } from './duckdb'
import type { RunFigures } from './figures'
import { resourceRows } from './resources'

export const PARQUET_SCHEMA_VERSION = 1

export const PARQUET_TABLES = {
  frames: `frame INTEGER NOT NULL, frame_number BIGINT NOT NULL, series VARCHAR NOT NULL, "group" VARCHAR NOT NULL,
    unit VARCHAR NOT NULL, value DOUBLE NOT NULL`,
  resources: `resource INTEGER NOT NULL, id BIGINT NOT NULL, kind VARCHAR NOT NULL, name VARCHAR, tag VARCHAR,
    placement VARCHAR, heap VARCHAR, pool VARCHAR, "offset" BIGINT, requested_bytes BIGINT, occupied_bytes BIGINT,
    alignment BIGINT, created_frame BIGINT NOT NULL, released_frame BIGINT, route VARCHAR[]`,
  events: `kind VARCHAR NOT NULL, frame INTEGER NOT NULL, frame_number BIGINT NOT NULL, object BIGINT, bytes BIGINT,
    rule VARCHAR, resources BIGINT[], heap BIGINT, range_start BIGINT, range_end BIGINT, message VARCHAR`,
} as const
export type ParquetTable = keyof typeof PARQUET_TABLES

export interface ExportedFile {
  table: ParquetTable
  path: string
  rows: number
  bytes: number
}

const RESIDENCY_KINDS = Object.fromEntries(Object.entries(RESIDENCY_EVENT).map(([k, v]) => [v, k])) as Record<number, string>

/** The key-value metadata of every file: the schema version, HeapScope's version and the run's metadata. */
export function parquetMetadata(figures: RunFigures, table: ParquetTable): Record<string, string> {
  const m = figures.meta
  const out: Record<string, string> = {
    'heapscope.schema': `${table}/${PARQUET_SCHEMA_VERSION}`,
    'heapscope.version': m.heapscopeVersion,
    'heapscope.file': m.file,
    'heapscope.format': m.format,
    'heapscope.api': m.api,
    'heapscope.config': m.config,
    'heapscope.labels': JSON.stringify(m.labels),
  }
  for (const [key, value] of [
    ['app', m.app],
    ['build', m.build],
    ['platform', m.platform],
    ['adapter', m.adapter],
    ['captured', m.captured],
  ] as const) {
    if (value !== null) out[`heapscope.${key}`] = value
  }
  return out
}

const big = (n: number) => BigInt(Math.round(n))

async function fillFrames(c: DuckDBConnection, replayed: ReplayedCapture, frameNumbers: Float64Array): Promise<number> {
  const a = await c.createAppender('frames')
  const series = replayed.replay.series
  let n = 0
  for (const info of series.list()) {
    const column = series.get(info.name)
    if (!column) continue
    for (let f = 0; f < column.length; f++) {
      a.appendInteger(f)
      a.appendBigInt(big(frameNumbers[f]))
      a.appendVarchar(info.name)
      a.appendVarchar(info.group)
      a.appendVarchar(info.unit)
      a.appendDouble(column[f])
      a.endRow()
      n++
    }
  }
  a.closeSync()
  return n
}

async function fillResources(c: DuckDBConnection, replayed: ReplayedCapture): Promise<number> {
  const { LIST, VARCHAR } = await duckdb()
  const routeType = LIST(VARCHAR)
  const rows = resourceRows(replayed.replay)
  const a = await c.createAppender('resources')
  const bigOrNull = (v: number | null) => (v === null ? a.appendNull() : a.appendBigInt(big(v)))
  const textOrNull = (v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v))
  for (let r = 0; r < rows.length; r++) {
    a.appendInteger(r)
    a.appendBigInt(big(rows.id[r]))
    a.appendVarchar(rows.kind[r])
    textOrNull(rows.name[r])
    textOrNull(rows.tag[r])
    textOrNull(rows.placement[r])
    textOrNull(rows.heap[r])
    textOrNull(rows.pool[r])
    bigOrNull(rows.offset[r])
    bigOrNull(rows.requested[r])
    bigOrNull(rows.occupied[r])
    bigOrNull(rows.alignment[r])
    a.appendBigInt(big(rows.createdFrame[r]))
    bigOrNull(rows.releasedFrame[r])
    const route = rows.route[r]
    if (route === null) a.appendNull()
    else a.appendList(route, routeType)
    a.endRow()
  }
  a.closeSync()
  return rows.length
}

async function fillEvents(c: DuckDBConnection, replayed: ReplayedCapture, checks: HazardLog, frameNumbers: Float64Array): Promise<number> {
  const { BIGINT, LIST } = await duckdb()
  const idsType = LIST(BIGINT)
  const a = await c.createAppender('events')
  let n = 0
  const replay: BackendRun = replayed.replay
  const events = replay.residency
  if (events) {
    for (let i = 0; i < events.length; i++) {
      const frame = events.frame.data[i]
      const object = events.object.data[i]
      a.appendVarchar(RESIDENCY_KINDS[events.kind.data[i]])
      a.appendInteger(frame)
      a.appendBigInt(big(frameNumbers[frame] ?? 0))
      if (object < 0) a.appendNull()
      else a.appendBigInt(big(object))
      a.appendBigInt(big(events.bytes.data[i]))
      for (let k = 0; k < 6; k++) a.appendNull()
      a.endRow()
      n++
    }
  }
  for (const e of checks.entries) {
    a.appendVarchar(e.severity)
    a.appendInteger(e.frame)
    a.appendBigInt(big(e.frameNumber))
    a.appendNull()
    a.appendNull()
    a.appendVarchar(e.rule)
    a.appendList(e.resources.map(big), idsType)
    if (e.heap === null) a.appendNull()
    else a.appendBigInt(big(e.heap))
    if (e.range === null) {
      a.appendNull()
      a.appendNull()
    } else {
      a.appendBigInt(big(e.range[0]))
      a.appendBigInt(big(e.range[1]))
    }
    a.appendVarchar(e.message)
    a.endRow()
    n++
  }
  a.closeSync()
  return n
}

/** Write the run's three files into `dir` (made if missing); what was written. */
export async function exportParquet(
  dir: string,
  result: LoadResult,
  replayed: ReplayedCapture,
  checks: HazardLog,
  figures: RunFigures,
): Promise<ExportedFile[]> {
  await mkdir(dir, { recursive: true })
  const db = await openDatabase(':memory:')
  const c = db.connection
  try {
    const frameNumbers = result.store.frames.n
    const counts: Record<ParquetTable, number> = { frames: 0, resources: 0, events: 0 }
    for (const [table, columns] of Object.entries(PARQUET_TABLES)) await c.run(`CREATE TABLE ${table} (${columns})`)
    counts.frames = await fillFrames(c, replayed, frameNumbers)
    counts.resources = await fillResources(c, replayed)
    counts.events = await fillEvents(c, replayed, checks, frameNumbers)
    const out: ExportedFile[] = []
    for (const table of Object.keys(PARQUET_TABLES) as ParquetTable[]) {
      const path = resolve(join(dir, `${table}.parquet`))
      const kv = Object.entries(parquetMetadata(figures, table))
        .map(([k, v]) => `${literal(k)}: ${literal(v)}`)
        .join(', ')
      await c.run(`COPY ${table} TO ${literal(path)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA {${kv}})`)
      out.push({ table, path, rows: counts[table], bytes: (await stat(path)).size })
    }
    return out
  } finally {
    closeDatabase(db)
  }
}
