/**
 * The host's handlers: one function per Api method, the same for the Electron main process and the browser
 * host. Each validates its payload, then asks the engine. Transport code (ipcMain, the WebSocket) only routes.
 */
import { basename, resolve } from 'node:path'
import type {
  AppInfo,
  CaptureEntry,
  CaptureImportOptions,
  ExportOutcome,
  ExportRequest,
  LoadOutcome,
  LoadProgress,
  PlaybackFrame,
  Settings,
} from '../../shared/ipc'
import type { Engine } from '../engine/engine'
import type { FileRegistry } from './files'
import type { Recordings } from './record'
import { parsePayload, PayloadError, type HandlerName } from './schemas'

export interface HostContext {
  engine: () => Engine
  files: FileRegistry
  info: () => AppInfo
  /** The native open dialog, where the host has one: the chosen path, or null. */
  showOpenDialog?: () => Promise<string | null>
  /** Called with each file a load succeeded on (recent files). */
  opened?: (path: string) => void
  progress: (progress: LoadProgress) => void
  playback: (frame: PlaybackFrame) => void
  /** The app's settings, persisted by the host. */
  settings: { get(): Settings; update(patch: Partial<Omit<Settings, 'version'>>): Settings }
  /** Recent files, where the host keeps them. */
  recent?: { list(): CaptureEntry[]; clear(): void }
  /** The native open dialog for a history database, where the host has one: the chosen path, or null. */
  showHistoryDialog?: () => Promise<string | null>
  /** The native save dialog, where the host has one: the chosen path, or null. Without it, exports download. */
  showSaveDialog?: (suggestedName: string) => Promise<string | null>
  /** Programs started under the capture layer, their captures followed live; absent where the host runs none. */
  recordings?: Recordings
}

/** The name an export is offered under: the capture's own name, the frame range, the format's extension. */
export function exportName(file: string, request: Pick<ExportRequest, 'from' | 'to' | 'gzip'>): string {
  const stem =
    basename(file)
      .replace(/\.(hscap\.gz|hscap|json|rmv|gz)$/i, '')
      .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
      .slice(0, 120) || 'capture'
  const range = request.from !== undefined || request.to !== undefined ? `.frames-${request.from ?? 0}-${request.to ?? 'end'}` : ''
  return `${stem}${range}.hscap${request.gzip ? '.gz' : ''}`
}

export type Handlers = Record<HandlerName, (payload: unknown) => Promise<unknown>>

export function createHandlers(ctx: HostContext): Handlers {
  const uploads = new Map<string, Promise<LoadOutcome>>()
  const recordings = (): Recordings => {
    if (!ctx.recordings) throw new Error('this host does not run programs')
    return ctx.recordings
  }

  const openPath = async (path: string, loadId: string, options?: CaptureImportOptions): Promise<LoadOutcome> => {
    const source = options ? { kind: 'file' as const, path, import: options } : { kind: 'file' as const, path }
    const outcome = await ctx.engine().load(loadId, source, ctx.progress)
    if (outcome.ok) ctx.opened?.(path)
    return outcome
  }

  return {
    appInfo: async (payload) => {
      parsePayload('appInfo', payload)
      return ctx.info()
    },
    openCapture: async (payload) => {
      const { fileId, loadId, import: options } = parsePayload('openCapture', payload)
      const path = ctx.files.path(fileId)
      if (!path) throw new PayloadError('openCapture', `no file ${fileId} was offered to open`)
      return openPath(path, loadId, options)
    },
    openCaptureDialog: async (payload) => {
      const loadId = parsePayload('openCaptureDialog', payload)
      if (!ctx.showOpenDialog) return null
      const path = await ctx.showOpenDialog()
      if (!path) return null
      ctx.files.add(path, 'dialog')
      return openPath(path, loadId)
    },
    beginUpload: async (payload) => {
      const { loadId, name, bytes, import: options } = parsePayload('beginUpload', payload)
      if (uploads.has(loadId)) throw new PayloadError('beginUpload', `upload ${loadId} is already open`)
      const source = options ? { kind: 'stream' as const, name, bytes, import: options } : { kind: 'stream' as const, name, bytes }
      const outcome = ctx.engine().load(loadId, source, ctx.progress)
      uploads.set(loadId, outcome)
      // a load that ends early (a fault on line 5) is still collected by endUpload
      outcome.catch(() => undefined)
    },
    uploadChunk: async (payload) => {
      const { loadId, data } = parsePayload('uploadChunk', payload)
      if (!uploads.has(loadId)) throw new PayloadError('uploadChunk', `no upload ${loadId}`)
      return ctx.engine().feed(loadId, data)
    },
    endUpload: async (payload) => {
      const loadId = parsePayload('endUpload', payload)
      const outcome = uploads.get(loadId)
      if (!outcome) throw new PayloadError('endUpload', `no upload ${loadId}`)
      await ctx.engine().feed(loadId, null)
      try {
        return await outcome
      } finally {
        uploads.delete(loadId)
      }
    },
    cancelLoad: async (payload) => {
      await ctx.engine().cancel(parsePayload('cancelLoad', payload))
    },
    closeRun: async (payload) => {
      await ctx.engine().close(parsePayload('closeRun', payload))
    },
    rerun: async (payload) => {
      const { runId, loadId, config } = parsePayload('rerun', payload)
      return ctx.engine().rerun(loadId, runId, config, ctx.progress)
    },
    runConfig: async (payload) => ctx.engine().runConfig(parsePayload('runConfig', payload)),
    report: async (payload) => ctx.engine().report(parsePayload('report', payload)),
    series: async (payload) => ctx.engine().series(parsePayload('series', payload)),
    snapshot: async (payload) => ctx.engine().snapshot(parsePayload('snapshot', payload)),
    resources: async (payload) => ctx.engine().resources(parsePayload('resources', payload)),
    resource: async (payload) => ctx.engine().resource(parsePayload('resource', payload)),
    transients: async (payload) => ctx.engine().transients(parsePayload('transients', payload)),
    residencyEvents: async (payload) => ctx.engine().residencyEvents(parsePayload('residencyEvents', payload)),
    compareSeries: async (payload) => ctx.engine().compareSeries(parsePayload('compareSeries', payload)),
    resourceDiff: async (payload) => ctx.engine().resourceDiff(parsePayload('resourceDiff', payload)),
    leaks: async (payload) => ctx.engine().leaks(parsePayload('leaks', payload)),
    startPlayback: async (payload) => ctx.engine().startPlayback(parsePayload('startPlayback', payload), ctx.playback),
    ackPlayback: async (payload) => {
      const { playbackId, frame } = parsePayload('ackPlayback', payload)
      await ctx.engine().ackPlayback(playbackId, frame)
    },
    stopPlayback: async (payload) => ctx.engine().stopPlayback(parsePayload('stopPlayback', payload)),
    settings: async (payload) => {
      parsePayload('settings', payload)
      return ctx.settings.get()
    },
    updateSettings: async (payload) => ctx.settings.update(parsePayload('updateSettings', payload)),
    recentFiles: async (payload) => {
      parsePayload('recentFiles', payload)
      return ctx.recent?.list() ?? []
    },
    clearRecentFiles: async (payload) => {
      parsePayload('clearRecentFiles', payload)
      ctx.recent?.clear()
    },
    followCapture: async (payload) => {
      const { fileId, loadId } = parsePayload('followCapture', payload)
      const path = ctx.files.path(fileId)
      if (!path) throw new PayloadError('followCapture', `no file ${fileId} was offered to follow`)
      return ctx.engine().follow(loadId, { path }, ctx.progress)
    },
    stopFollowing: async (payload) => {
      await ctx.engine().endFollow(parsePayload('stopFollowing', payload))
    },
    recordInfo: async (payload) => {
      parsePayload('recordInfo', payload)
      return recordings().info()
    },
    startRecording: async (payload) => {
      const request = parsePayload('startRecording', payload)
      return recordings().start(request)
    },
    stopRecording: async (payload) => {
      const loadId = parsePayload('stopRecording', payload)
      recordings().stop(loadId)
    },
    hazards: async (payload) => ctx.engine().hazards(parsePayload('hazards', payload)),
    placements: async (payload) => ctx.engine().placements(parsePayload('placements', payload)),
    search: async (payload) => ctx.engine().search(parsePayload('search', payload)),
    openHistory: async (payload) => {
      const path = parsePayload('openHistory', payload)
      // where the host has its own dialog, the page never names a file
      if (ctx.showHistoryDialog) throw new PayloadError('openHistory', 'this host opens histories from its dialog')
      return ctx.engine().openHistory(resolve(path))
    },
    openHistoryDialog: async (payload) => {
      parsePayload('openHistoryDialog', payload)
      if (!ctx.showHistoryDialog) return null
      const path = await ctx.showHistoryDialog()
      return path ? ctx.engine().openHistory(path) : null
    },
    historyTrend: async (payload) => ctx.engine().historyTrend(parsePayload('historyTrend', payload)),
    historyRun: async (payload) => {
      const { historyId, runId } = parsePayload('historyRun', payload)
      // the history names the capture; the page gets an id for it, as for any file on offer
      return ctx.files.add(await ctx.engine().historyRunPath(historyId, runId), 'history')
    },
    closeHistory: async (payload) => ctx.engine().closeHistory(parsePayload('closeHistory', payload)),
    exportCapture: async (payload): Promise<ExportOutcome> => {
      const { runId, from, to, gzip } = parsePayload('exportCapture', payload)
      const engine = ctx.engine()
      const name = exportName((await engine.summary(runId)).file, { from, to, gzip })
      const options = { from, to, gzip }
      // the renderer never names where to write: the user does, in the host's own dialog
      if (ctx.showSaveDialog) {
        const path = await ctx.showSaveDialog(name)
        if (!path) return { kind: 'cancelled' }
        const written = await engine.exportCapture(runId, options, { kind: 'file', path })
        return { kind: 'saved', name: basename(path), bytes: written.bytes }
      }
      const written = await engine.exportCapture(runId, options, { kind: 'bytes' })
      if (!written.data) throw new Error('the engine returned no bytes to download')
      return { kind: 'download', name, data: written.data }
    },
  }
}
