/**
 * Recent files: the captures last opened successfully, newest first, kept in the settings file. Each one the
 * renderer sees is offered by id through the FileRegistry (origin 'recent'), never by path. A recent file that
 * is gone (deleted, or on a drive not mounted now) is not offered but stays remembered.
 */
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { CaptureEntry } from '../../shared/ipc'
import type { FileRegistry } from './files'
import type { RecentFile, SettingsStore } from './settings'

/** How many recent files the menu and the start view offer. */
export const MAX_RECENT = 10

/** The key two paths are the same file under: Windows and macOS file systems ignore case by default. */
export function pathKey(path: string, platform: NodeJS.Platform = process.platform): string {
  const full = resolve(path)
  return platform === 'win32' || platform === 'darwin' ? full.toLowerCase() : full
}

export interface RecentOptions {
  exists?: (path: string) => boolean
  now?: () => number
  platform?: NodeJS.Platform
}

export class RecentFiles {
  /** Told after the list changed (the desktop app rebuilds its Open Recent menu). */
  onChange: (() => void) | undefined
  private readonly exists: (path: string) => boolean
  private readonly now: () => number
  private readonly platform: NodeJS.Platform

  constructor(
    private readonly store: SettingsStore,
    private readonly files: FileRegistry,
    options: RecentOptions = {},
  ) {
    this.exists = options.exists ?? existsSync
    this.now = options.now ?? Date.now
    this.platform = options.platform ?? process.platform
  }

  /** The recent files there are now, newest first, at most MAX_RECENT, each with the id to open it by. */
  list(): CaptureEntry[] {
    const out: CaptureEntry[] = []
    for (const recent of this.store.recent()) {
      if (out.length === MAX_RECENT) break
      if (!this.exists(recent.path)) continue
      const entry = this.files.add(recent.path, 'recent')
      out.push({ ...entry, origin: 'recent', description: dirname(resolve(recent.path)) })
    }
    return out
  }

  /** A file just opened: to the front of the list. Returns the entry it is offered under. */
  add(path: string): CaptureEntry {
    const full = resolve(path)
    const key = pathKey(full, this.platform)
    const rest = this.store.recent().filter((r: RecentFile) => pathKey(r.path, this.platform) !== key)
    this.store.setRecent([{ path: full, openedAt: this.now() }, ...rest])
    const entry = this.files.add(full, 'recent')
    this.onChange?.()
    return entry
  }

  clear(): void {
    this.store.setRecent([])
    this.onChange?.()
  }
}
