/** What both hosts set up alike: the engine (restarted if it dies), the files on offer, the app info. */
import { EVENTS, type AppInfo } from '../../shared/ipc'
import type { Engine } from '../engine/engine'
import { WorkerEngine } from '../engine/workerEngine'
import { demoCaptures, FileRegistry } from './files'
import type { HostContext } from './handlers'
import { SettingsStore } from './settings'

export const VERSION = '0.1.0'

export const FORMATS: AppInfo['formats'] = [
  { name: 'HeapScope capture (.hscap, .hscap.gz)', description: 'NDJSON of GPU resource requests, frame by frame' },
  { name: 'VMA / D3D12MA JSON dump', description: 'vmaBuildStatsString / BuildStatsString, UTF-8 or UTF-16' },
  { name: 'GPGMM trace', description: 'Chrome trace-event JSON recorded by GPGMM' },
]

export interface HostSetup {
  host: AppInfo['host']
  /** The built engine worker (engineWorker.js beside the host's entry in out/main). */
  workerPath: string
  /** Files named on the command line; the first is opened at start. */
  args: string[]
  nativeDialogs: boolean
  /** Send an event to the renderer(s): load progress, playback frames, menu commands. */
  push: (event: (typeof EVENTS)[keyof typeof EVENTS], payload: unknown) => void
  /** Where settings persist; in memory when absent. */
  settingsPath?: string
  /** Told when the engine died and a new one took its place. */
  engineRestarted?: (error: Error) => void
}

export function createHostContext(setup: HostSetup): HostContext & { dispose(): Promise<void> } {
  const files = new FileRegistry()
  for (const demo of demoCaptures()) files.add(demo.path, 'demo', demo.description)
  const argEntries = setup.args.map((path) => files.add(path, 'argument'))
  let engine: WorkerEngine | undefined
  const getEngine = (): Engine => {
    if (!engine) {
      const current = new WorkerEngine(setup.workerPath)
      current.onExit = (error) => {
        if (engine === current) engine = undefined
        setup.engineRestarted?.(error)
      }
      engine = current
    }
    return engine
  }
  const settings = new SettingsStore(setup.settingsPath)
  return {
    engine: getEngine,
    files,
    progress: (progress) => setup.push(EVENTS.progress, progress),
    playback: (frame) => setup.push(EVENTS.playback, frame),
    settings,
    info: () => ({
      host: setup.host,
      version: VERSION,
      nativeDialogs: setup.nativeDialogs,
      captures: files.entries(),
      openAtStart: argEntries[0]?.fileId ?? files.entries().find((e) => e.origin === 'demo')?.fileId,
      formats: FORMATS,
    }),
    async dispose() {
      await engine?.dispose()
    },
  }
}
