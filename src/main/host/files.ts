/**
 * The files the renderer may open, by id: the shipped demos, recent files, command-line arguments and dialog
 * choices. The renderer never sends a path; it names an id the host handed out.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CaptureEntry } from '../../shared/ipc'

export class FileRegistry {
  private readonly byId = new Map<string, { path: string; entry: CaptureEntry }>()
  private readonly byPath = new Map<string, string>()

  add(path: string, origin: CaptureEntry['origin'], description?: string): CaptureEntry {
    const full = resolve(path)
    const known = this.byPath.get(full)
    if (known) return this.byId.get(known)!.entry
    const fileId = `f-${randomBytes(9).toString('base64url')}`
    let size: number | undefined
    try {
      size = statSync(full).size
    } catch {
      size = undefined
    }
    const entry: CaptureEntry = { fileId, name: basename(full), origin, bytes: size, description, folder: dirname(full) }
    this.byId.set(fileId, { path: full, entry })
    this.byPath.set(full, fileId)
    return entry
  }

  path(fileId: string): string | undefined {
    return this.byId.get(fileId)?.path
  }

  entries(): CaptureEntry[] {
    return [...this.byId.values()].map((v) => v.entry)
  }
}

/** The project's root in a checkout (out/main/… or src/main/host/… below it), or the packaged resources. */
export function resourcesDir(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath
  if (packaged && existsSync(join(packaged, 'demo'))) return packaged
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'resources', 'demo'))) return join(dir, 'resources')
    dir = dirname(dir)
  }
  return join(process.cwd(), 'resources')
}

const DEMO_DESCRIPTIONS: Record<string, string> = {
  'demo.hscap.gz': 'A few hundred frames of an open-world game: streaming under a budget, render-graph transients, a leak',
}

export function demoCaptures(): { path: string; description?: string }[] {
  const dir = join(resourcesDir(), 'demo')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => /\.(hscap|hscap\.gz)$/.test(f))
    .sort()
    .map((f) => ({ path: join(dir, f), description: DEMO_DESCRIPTIONS[f] }))
}
