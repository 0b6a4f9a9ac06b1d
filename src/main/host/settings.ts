/**
 * The app's settings, persisted as JSON in the user data folder (or kept in memory where there is none): what
 * the renderer sees (theme, language, last config overrides) and what only the host keeps (window bounds,
 * recent files). The file has a version; older versions are migrated step by step, a corrupt or unreadable file
 * is replaced by the defaults (the bad one kept beside it as .corrupt), never fatal. A file from a newer
 * HeapScope is left alone: this one runs on the defaults and does not write over it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { Settings } from '../../shared/ipc'

export const SETTINGS_VERSION = 2

/** Where and how big the window was, in screen coordinates (DIPs). */
export interface WindowState {
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

export interface RecentFile {
  path: string
  /** When it was last opened, ms since the epoch. */
  openedAt: number
}

/** The file's content at the current version. */
export interface SettingsDocument extends Settings {
  window: WindowState | null
  recent: RecentFile[]
}

export const MAX_RECENT_STORED = 20

export function defaultSettings(): SettingsDocument {
  return { version: SETTINGS_VERSION, theme: 'dark', language: 'en', configOverrides: {}, window: null, recent: [] }
}

const coordinate = z.number().int().min(-100_000).max(100_000)
const extent = z.number().int().min(100).max(100_000)

const schema = z
  .object({
    version: z.literal(SETTINGS_VERSION),
    theme: z.enum(['light', 'dark', 'system']),
    language: z.enum(['en', 'zh-CN']),
    configOverrides: z
      .record(z.string().max(80), z.string().max(64))
      .refine((c) => Object.keys(c).length <= 64, 'at most 64 keys'),
    window: z
      .object({ x: coordinate.optional(), y: coordinate.optional(), width: extent, height: extent, maximized: z.boolean() })
      .strict()
      .nullable(),
    recent: z
      .array(z.object({ path: z.string().min(1).max(4096), openedAt: z.number().int().min(0) }).strict())
      .max(MAX_RECENT_STORED),
  })
  .strict()

type Raw = Record<string, unknown>

/**
 * Migrations from version v to v + 1, applied to the raw object.
 * 0 → 1: a file without a version (written by hand, or before the file had one) keeps the keys version 1 knows.
 * 1 → 2: window bounds and recent files join the file; version 1 kept neither.
 */
export const MIGRATIONS: Record<number, (raw: Raw) => Raw> = {
  0: (raw) => {
    const kept: Raw = {}
    for (const key of ['theme', 'language', 'configOverrides']) if (key in raw) kept[key] = raw[key]
    return kept
  },
  1: (raw) => ({ ...raw, window: null, recent: [] }),
}

export type ParsedSettings =
  | { ok: true; settings: SettingsDocument; migratedFrom?: number }
  | { ok: false; reason: 'invalid' | 'newer'; message: string }

export function parseSettings(raw: unknown): ParsedSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'invalid', message: 'not a JSON object' }
  }
  let value = raw as Raw
  const from = value.version === undefined ? 0 : value.version
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 0) {
    return { ok: false, reason: 'invalid', message: `version ${JSON.stringify(from)} is not a version` }
  }
  if (from > SETTINGS_VERSION) {
    return { ok: false, reason: 'newer', message: `version ${from} is newer than this HeapScope's (${SETTINGS_VERSION})` }
  }
  for (let version = from; version < SETTINGS_VERSION; version++) {
    value = { ...MIGRATIONS[version](value), version: version + 1 }
  }
  // a key the file lacks takes its default; a key it has must be right
  const parsed = schema.safeParse({ ...defaultSettings(), ...value })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { ok: false, reason: 'invalid', message: `${issue.path.join('.') || 'settings'}: ${issue.message}` }
  }
  return from === SETTINGS_VERSION ? { ok: true, settings: parsed.data } : { ok: true, settings: parsed.data, migratedFrom: from }
}

function copy(doc: SettingsDocument): SettingsDocument {
  return {
    ...doc,
    configOverrides: { ...doc.configOverrides },
    window: doc.window && { ...doc.window },
    recent: doc.recent.map((r) => ({ ...r })),
  }
}

export class SettingsStore {
  private current: SettingsDocument = defaultSettings()
  /** Why the file on disk was not used, or could not be written, when that happened. */
  problem: string | undefined
  /** The file belongs to a newer HeapScope: never written over. */
  private readonly readOnly: boolean = false

  constructor(private readonly path?: string) {
    if (!path || !existsSync(path)) return
    let parsed: ParsedSettings
    try {
      parsed = parseSettings(JSON.parse(readFileSync(path, 'utf8')))
    } catch (err) {
      parsed = { ok: false, reason: 'invalid', message: (err as Error).message }
    }
    if (parsed.ok) {
      this.current = parsed.settings
      if (parsed.migratedFrom !== undefined) this.save()
      return
    }
    if (parsed.reason === 'newer') {
      this.readOnly = true
      this.problem = `${path}: ${parsed.message}; using the defaults and leaving the file as it is`
      return
    }
    this.problem = `${path}: ${parsed.message}; replaced by the defaults (the old file is kept as ${path}.corrupt)`
    try {
      renameSync(path, `${path}.corrupt`)
    } catch {
      // keeping the bad file aside is a courtesy, not a requirement
    }
    this.save()
  }

  /** What the renderer sees. */
  get(): Settings {
    const { version, theme, language, configOverrides } = this.current
    return { version, theme, language, configOverrides: { ...configOverrides } }
  }

  update(patch: Partial<Omit<Settings, 'version'>>): Settings {
    this.replace({ ...this.current, ...patch, version: SETTINGS_VERSION })
    return this.get()
  }

  windowState(): WindowState | null {
    return this.current.window && { ...this.current.window }
  }

  setWindowState(state: WindowState): void {
    this.replace({ ...this.current, window: { ...state } })
  }

  recent(): RecentFile[] {
    return this.current.recent.map((r) => ({ ...r }))
  }

  setRecent(recent: RecentFile[]): void {
    this.replace({ ...this.current, recent: recent.slice(0, MAX_RECENT_STORED) })
  }

  /** The whole document, as it would be written. */
  document(): SettingsDocument {
    return copy(this.current)
  }

  private replace(next: SettingsDocument): void {
    const parsed = schema.safeParse(next)
    if (!parsed.success) return
    this.current = parsed.data
    this.save()
  }

  private save(): void {
    if (!this.path || this.readOnly) return
    try {
      mkdirSync(dirname(this.path), { recursive: true })
      const tmp = `${this.path}.tmp`
      writeFileSync(tmp, JSON.stringify(this.current, null, 2))
      renameSync(tmp, this.path)
    } catch (err) {
      // a read-only or full disk costs the settings of this session, not the session
      this.problem = `${this.path}: ${(err as Error).message}; settings are kept in memory only`
    }
  }
}
