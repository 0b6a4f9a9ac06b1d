/**
 * What both hosts set up alike: the engine (a new one started when it dies), the files on offer, recent files,
 * settings and the app info. When the engine dies only its runs are lost: the files on offer, recent files,
 * settings and the window stay, and the renderer is told so it can open the last capture again.
 */
import { EVENTS, type AppInfo, type EngineStopped } from '../../shared/ipc'
import type { Engine } from '../engine/engine'
import { WorkerEngine } from '../engine/workerEngine'
import { demoCaptures, FileRegistry } from './files'
import type { HostContext } from './handlers'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Recordings } from './record'
import { RecentFiles, type RecentOptions } from './recent'
import { SettingsStore } from './settings'
import { HEAPSCOPE_VERSION as VERSION } from '../../shared/version'

export const FORMATS: AppInfo['formats'] = [
  { name: 'HeapScope capture (.hscap, .hscap.gz)', description: 'NDJSON of GPU resource requests, frame by frame' },
  { name: 'VMA / D3D12MA JSON dump', description: 'vmaBuildStatsString / BuildStatsString, UTF-8 or UTF-16' },
  { name: 'GPGMM trace', description: 'Chrome trace-event JSON recorded by GPGMM' },
  { name: 'Radeon Memory Visualizer trace (.rmv)', description: 'recorded by the Radeon Developer Panel' },
  { name: 'Unreal Insights trace (.utrace)', description: 'recorded by UE 5 with -trace=default,memory' },
]

export interface HostSetup {
  host: AppInfo['host']
  /** The built engine worker (engineWorker.js beside the host's entry in out/main). */
  workerPath: string
  /** Files named on the command line; the first is opened at start. */
  args: string[]
  nativeDialogs: boolean
  /** Send an event to the renderer(s): load progress, playback frames, an engine that stopped. */
  push: (event: (typeof EVENTS)[keyof typeof EVENTS], payload: unknown) => void
  /** Where settings persist; in memory when absent. */
  settingsPath?: string
  /** Told when the engine died; the next call starts a new one. */
  engineRestarted?: (error: Error, info: EngineStopped) => void
  /** Demo captures offered at start (default: those shipped in resources/demo). */
  demos?: { path: string; description?: string }[]
  /** Tests pin the clock and the file system's answers. */
  recentOptions?: RecentOptions
  /** A capture another process is writing, followed at start (`--follow FILE`). */
  follow?: string
  /** Where live captures go when the Capture dialog names no file (default: a folder in the system's temp). */
  capturesDir?: string
  /** The capture layer's folder (tests); found where `heapscope record` finds it otherwise. */
  layerDir?: () => string | null
}

export interface HostContextHandle extends HostContext {
  files: FileRegistry
  settingsStore: SettingsStore
  recent: RecentFiles
  /** The id of the file last opened by id or through a dialog, if any. */
  lastOpened(): string | undefined
  /** Open this offered file at start instead of the first argument or the demo (macOS passes files late). */
  startWith(fileId: string): void
  dispose(): Promise<void>
}

export function createHostContext(setup: HostSetup): HostContextHandle {
  const files = new FileRegistry()
  for (const demo of setup.demos ?? demoCaptures()) files.add(demo.path, 'demo', demo.description)
  const argEntries = setup.args.map((path) => files.add(path, 'argument'))
  const followEntry = setup.follow ? files.add(setup.follow, 'argument') : undefined
  const settingsStore = new SettingsStore(setup.settingsPath)
  const recent = new RecentFiles(settingsStore, files, setup.recentOptions)
  // recent files are offered from the start (FileRegistry origin 'recent')
  recent.list()
  let lastOpened: string | undefined
  let startFile = argEntries[0]?.fileId
  let engine: WorkerEngine | undefined

  const getEngine = (): Engine => {
    if (!engine) {
      const current = new WorkerEngine(setup.workerPath)
      current.onExit = (error) => {
        if (engine !== current) return
        engine = undefined
        const info: EngineStopped = {
          message: `The engine stopped (${error.message}). The captures it held are closed; open them again.`,
          ...(lastOpened ? { reopen: lastOpened } : {}),
        }
        setup.push(EVENTS.engineStopped, info)
        setup.engineRestarted?.(error, info)
      }
      engine = current
    }
    return engine
  }

  const recordings = new Recordings({
    engine: getEngine,
    progress: (progress) => setup.push(EVENTS.progress, progress),
    status: (status) => setup.push(EVENTS.recording, status),
    capturesDir: setup.capturesDir ?? join(tmpdir(), 'HeapScope', 'captures'),
    ...(setup.layerDir ? { layerDir: setup.layerDir } : {}),
  })

  return {
    engine: getEngine,
    recordings,
    files,
    settingsStore,
    recent,
    progress: (progress) => setup.push(EVENTS.progress, progress),
    playback: (frame) => setup.push(EVENTS.playback, frame),
    settings: settingsStore,
    opened: (path) => {
      lastOpened = recent.add(path).fileId
    },
    lastOpened: () => lastOpened,
    startWith: (fileId) => {
      startFile = fileId
    },
    info: () => {
      recent.list()
      return {
        host: setup.host,
        version: VERSION,
        nativeDialogs: setup.nativeDialogs,
        captures: files.entries(),
        // after a reload (the engine died, or the user asked) the capture last opened comes back
        ...(followEntry && !lastOpened
          ? { followAtStart: followEntry.fileId }
          : { openAtStart: lastOpened ?? startFile ?? files.entries().find((e) => e.origin === 'demo')?.fileId }),
        formats: FORMATS,
      }
    },
    async dispose() {
      recordings.dispose()
      const current = engine
      engine = undefined
      if (current) {
        // quitting is not the engine dying
        current.onExit = undefined
        await current.dispose()
      }
    },
  }
}
