/**
 * The Api over the browser host's WebSocket: the same type as the Electron preload's `window.api`, so the
 * stores cannot tell which host they talk to. Calls are matched to replies by id; pushes are dispatched to
 * listeners. The page's token (from its address) authorizes the socket.
 */
import {
  CHANNELS,
  EVENTS,
  type Api,
  type EngineStopped,
  type InvokeMethod,
  type LoadProgress,
  type MenuCommand,
  type PlaybackFrame,
  type RecordStatus,
} from '../../../shared/ipc'
import { decodeMessage, encodeMessage } from '../../../shared/wire'

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string }
type Push = { event: string; payload: unknown }

export function createSocketApi(location: Location = window.location): Api {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const url = `ws://${location.host}/api?token=${encodeURIComponent(token)}`
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const progress = new Set<(p: LoadProgress) => void>()
  const playback = new Set<(f: PlaybackFrame) => void>()
  const menu = new Set<(command: MenuCommand, arg?: string) => void>()
  const engineStopped = new Set<(info: EngineStopped) => void>()
  const recording = new Set<(status: RecordStatus) => void>()
  let nextId = 1
  let socket: Promise<WebSocket> | undefined

  const connect = (): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url)
      ws.binaryType = 'arraybuffer'
      ws.onopen = () => resolve(ws)
      ws.onerror = () => reject(new Error('cannot reach the HeapScope host; is `npm start` still running?'))
      ws.onclose = (event) => {
        socket = undefined
        const error = new Error(`the connection to the HeapScope host closed (${event.code}${event.reason ? `: ${event.reason}` : ''})`)
        for (const p of pending.values()) p.reject(error)
        pending.clear()
      }
      ws.onmessage = (event: MessageEvent<ArrayBuffer>) => {
        const message = decodeMessage(event.data) as Reply | Push
        if ('event' in message) {
          if (message.event === EVENTS.progress) for (const l of progress) l(message.payload as LoadProgress)
          else if (message.event === EVENTS.playback) for (const l of playback) l(message.payload as PlaybackFrame)
          else if (message.event === EVENTS.menu) {
            const { command, arg } = message.payload as { command: MenuCommand; arg?: string }
            for (const l of menu) l(command, arg)
          } else if (message.event === EVENTS.engineStopped) {
            for (const l of engineStopped) l(message.payload as EngineStopped)
          } else if (message.event === EVENTS.recording) {
            for (const l of recording) l(message.payload as RecordStatus)
          }
          return
        }
        const call = pending.get(message.id)
        if (!call) return
        pending.delete(message.id)
        if (message.ok) call.resolve(message.value)
        else call.reject(new Error(message.error))
      }
    })

  const invoke = async <T>(method: InvokeMethod, payload?: unknown): Promise<T> => {
    socket ??= connect()
    const ws = await socket
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      ws.send(encodeMessage({ id, method, channel: CHANNELS[method], payload }))
    })
  }

  return {
    appInfo: () => invoke('appInfo'),
    openCapture: (request) => invoke('openCapture', request),
    openCaptureDialog: (loadId) => invoke('openCaptureDialog', loadId),
    beginUpload: (begin) => invoke('beginUpload', begin),
    uploadChunk: (chunk) => invoke('uploadChunk', chunk),
    endUpload: (loadId) => invoke('endUpload', loadId),
    cancelLoad: (loadId) => invoke('cancelLoad', loadId),
    closeRun: (runId) => invoke('closeRun', runId),
    rerun: (request) => invoke('rerun', request),
    runConfig: (runId) => invoke('runConfig', runId),
    report: (runId) => invoke('report', runId),
    series: (query) => invoke('series', query),
    snapshot: (query) => invoke('snapshot', query),
    resources: (query) => invoke('resources', query),
    resource: (query) => invoke('resource', query),
    transients: (query) => invoke('transients', query),
    residencyEvents: (query) => invoke('residencyEvents', query),
    compareSeries: (query) => invoke('compareSeries', query),
    resourceDiff: (query) => invoke('resourceDiff', query),
    leaks: (query) => invoke('leaks', query),
    startPlayback: (request) => invoke('startPlayback', request),
    ackPlayback: (playbackId, frame) => invoke('ackPlayback', { playbackId, frame }),
    stopPlayback: (playbackId) => invoke('stopPlayback', playbackId),
    settings: () => invoke('settings'),
    updateSettings: (patch) => invoke('updateSettings', patch),
    onProgress: (listener) => listen(progress, listener),
    onPlayback: (listener) => listen(playback, listener),
    onMenu: (listener) => listen(menu, listener),
    recentFiles: () => invoke('recentFiles'),
    clearRecentFiles: () => invoke('clearRecentFiles'),
    exportCapture: (request) => invoke('exportCapture', request),
    onEngineStopped: (listener) => listen(engineStopped, listener),
    hazards: (query) => invoke('hazards', query),
    placements: (query) => invoke('placements', query),
    search: (query) => invoke('search', query),
    followCapture: (request) => invoke('followCapture', request),
    stopFollowing: (loadId) => invoke('stopFollowing', loadId),
    recordInfo: () => invoke('recordInfo'),
    startRecording: (request) => invoke('startRecording', request),
    stopRecording: (loadId) => invoke('stopRecording', loadId),
    onRecording: (listener) => listen(recording, listener),
    openHistory: (path) => invoke('openHistory', path),
    openHistoryDialog: () => invoke('openHistoryDialog'),
    historyTrend: (query) => invoke('historyTrend', query),
    historyRun: (query) => invoke('historyRun', query),
    closeHistory: (historyId) => invoke('closeHistory', historyId),
  }
}

function listen<T>(set: Set<T>, listener: T): () => void {
  set.add(listener)
  return () => {
    set.delete(listener)
  }
}
