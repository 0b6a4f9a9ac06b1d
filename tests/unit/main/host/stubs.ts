/** An engine that records what reaches it, and a host context over it, for the handler and browser host tests. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Engine } from '../../../../src/main/engine/engine'
import { FileRegistry } from '../../../../src/main/host/files'
import type { HostContext } from '../../../../src/main/host/handlers'
import { RecentFiles } from '../../../../src/main/host/recent'
import { SettingsStore } from '../../../../src/main/host/settings'
import type { AppInfo, LoadOutcome, RunSummary } from '../../../../src/shared/ipc'

export interface EngineCall {
  method: string
  args: unknown[]
}

/** Every method records its call and answers with `answers[method]` (or undefined). */
export function recordingEngine(answers: Record<string, (...args: unknown[]) => unknown> = {}): {
  engine: Engine
  calls: EngineCall[]
} {
  const calls: EngineCall[] = []
  const engine = new Proxy(
    {},
    {
      get: (_target, prop) => {
        // not a thenable: an awaited engine is the engine
        if (typeof prop !== 'string' || prop === 'then') return undefined
        return (...args: unknown[]) => {
          calls.push({ method: prop, args })
          const answer = answers[prop]
          return Promise.resolve(answer ? answer(...args) : undefined)
        }
      },
    },
  )
  return { engine: engine as Engine, calls }
}

export function summary(runId: string, file: string): RunSummary {
  return {
    runId,
    file,
    format: 'hscap',
    api: 'd3d12',
    backend: 'd3d12',
    capabilities: { whatIf: true, residency: true, transients: true },
    frames: 3,
    firstFrame: 0,
    lastFrame: 2,
    records: 10,
    sourceBytes: 100,
    partial: false,
    warnings: {},
    warningSamples: [],
    notes: [],
    series: [],
  }
}

export const okOutcome = (file = 'offered.hscap'): LoadOutcome => ({ ok: true, summary: summary('run-1', file) })

export interface TestContext {
  ctx: HostContext
  calls: EngineCall[]
  files: FileRegistry
  settings: SettingsStore
  recent: RecentFiles
  /** The one file offered (as a demo) and its id. */
  offeredPath: string
  offeredId: string
  dir: string
  opened: string[]
}

export function testContext(answers: Record<string, (...args: unknown[]) => unknown> = {}): TestContext {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-host-'))
  const offeredPath = join(dir, 'offered.hscap')
  writeFileSync(offeredPath, '{"format":"heapscope-capture","version":1}\n')
  const files = new FileRegistry()
  const offeredId = files.add(offeredPath, 'demo').fileId
  const settings = new SettingsStore(join(dir, 'settings.json'))
  const recent = new RecentFiles(settings, files)
  const { engine, calls } = recordingEngine({ load: () => okOutcome(), summary: () => summary('run-1', 'offered.hscap'), ...answers })
  const opened: string[] = []
  const info: AppInfo = { host: 'browser', version: '0', nativeDialogs: false, captures: files.entries(), formats: [] }
  const ctx: HostContext = {
    engine: () => engine,
    files,
    info: () => info,
    opened: (path) => {
      opened.push(path)
      recent.add(path)
    },
    progress: () => undefined,
    playback: () => undefined,
    settings,
    recent,
  }
  return { ctx, calls, files, settings, recent, offeredPath, offeredId, dir, opened }
}
