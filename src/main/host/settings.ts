/**
 * The app's settings, persisted as JSON in the user data folder (or kept in memory where there is none).
 * The file has a version; older versions are migrated step by step, and a corrupt or unreadable file is
 * replaced by the defaults (the bad one kept beside it as .corrupt), never fatal.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { Settings } from '../../shared/ipc'

export const SETTINGS_VERSION = 1

export function defaultSettings(): Settings {
  return { version: SETTINGS_VERSION, theme: 'dark', language: 'en', configOverrides: {} }
}

const schema = z.object({
  version: z.literal(SETTINGS_VERSION),
  theme: z.enum(['light', 'dark', 'system']),
  language: z.enum(['en', 'zh-CN']),
  configOverrides: z.record(z.string().max(80), z.string().max(64)),
})

/** Migrations from version v to v + 1, applied to the raw object. Version 1 is the first. */
const MIGRATIONS: Record<number, (raw: Record<string, unknown>) => Record<string, unknown>> = {}

export function parseSettings(raw: unknown): Settings | null {
  if (typeof raw !== 'object' || raw === null) return null
  let value = raw as Record<string, unknown>
  let version = typeof value.version === 'number' ? value.version : 0
  while (version < SETTINGS_VERSION && MIGRATIONS[version]) {
    value = { ...MIGRATIONS[version](value), version: version + 1 }
    version++
  }
  const parsed = schema.safeParse({ ...defaultSettings(), ...value, version })
  return parsed.success ? parsed.data : null
}

export class SettingsStore {
  private current: Settings
  /** Why the file on disk was not used, when it was not. */
  readonly problem: string | undefined

  constructor(private readonly path?: string) {
    this.current = defaultSettings()
    if (!path || !existsSync(path)) return
    try {
      const parsed = parseSettings(JSON.parse(readFileSync(path, 'utf8')))
      if (parsed) this.current = parsed
      else this.problem = `${path}: not a valid settings file; using the defaults`
    } catch (err) {
      this.problem = `${path}: ${(err as Error).message}; using the defaults`
    }
    if (this.problem) {
      try {
        renameSync(path, `${path}.corrupt`)
      } catch {
        // keeping the bad file aside is a courtesy, not a requirement
      }
      this.save()
    }
  }

  get(): Settings {
    return { ...this.current, configOverrides: { ...this.current.configOverrides } }
  }

  update(patch: Partial<Omit<Settings, 'version'>>): Settings {
    const next = parseSettings({ ...this.current, ...patch })
    if (next) {
      this.current = next
      this.save()
    }
    return this.get()
  }

  private save(): void {
    if (!this.path) return
    mkdirSync(dirname(this.path), { recursive: true })
    const tmp = `${this.path}.tmp`
    writeFileSync(tmp, JSON.stringify(this.current, null, 2))
    renameSync(tmp, this.path)
  }
}
