/**
 * DuckDB, embedded: the history database and the Parquet writer. The native module is loaded on first use only,
 * so the engine and the CLI start without it and a machine without its binary fails only here, with a message.
 * It runs in the main process's engine worker and the CLI, never in the renderer.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api'

type DuckDBModule = typeof import('@duckdb/node-api')

let loaded: Promise<DuckDBModule> | undefined

export class HistoryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HistoryError'
  }
}

export function duckdb(): Promise<DuckDBModule> {
  loaded ??= import('@duckdb/node-api').catch((err: unknown) => {
    loaded = undefined
    throw new HistoryError(`DuckDB could not be loaded (@duckdb/node-api and its binary for ${process.platform}-${process.arch}): ${(err as Error).message}`)
  })
  return loaded
}

export interface Database {
  instance: DuckDBInstance
  connection: DuckDBConnection
}

export interface OpenOptions {
  /** Several readers may share a file; one writer may not. */
  readOnly?: boolean
  /** No file but the database itself: what the app opens runs only its own queries. */
  sandboxed?: boolean
}

/**
 * A database file (or `:memory:`). Extensions are never installed or loaded behind the user's back (Parquet and
 * JSON are built into the binary): nothing is downloaded.
 */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<Database> {
  const { DuckDBInstance } = await duckdb()
  const settings: Record<string, string> = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' }
  if (options.readOnly) settings.access_mode = 'READ_ONLY'
  if (options.sandboxed) settings.enable_external_access = 'false'
  let instance: DuckDBInstance
  try {
    instance = await DuckDBInstance.create(path, settings)
  } catch (err) {
    throw new HistoryError(`${path}: cannot open as a DuckDB database: ${(err as Error).message}`)
  }
  return { instance, connection: await instance.connect() }
}

export function closeDatabase(db: Database): void {
  db.connection.closeSync()
  db.instance.closeSync()
}

/** A SQL string literal. */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** Rows of a query as plain objects, numbers as numbers (BIGINT and DECIMAL read back as JSON numbers or strings). */
export async function rows(connection: DuckDBConnection, sql: string, values?: DuckDBValue[]): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(sql, values)
  return reader.getRowObjectsJson() as Record<string, unknown>[]
}
