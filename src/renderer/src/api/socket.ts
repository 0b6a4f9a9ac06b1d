/**
 * The Api over the browser host's WebSocket: the same type as the Electron preload's `window.api`, so the
 * stores cannot tell which host they talk to. Calls are matched to replies by id; pushes are dispatched to
 * listeners. The page's token (from its address) authorizes the socket.
 */
import { CHANNELS, EVENTS, type Api, type InvokeMethod, type LoadProgress } from '../../../shared/ipc'
import { decodeMessage, encodeMessage } from '../../../shared/wire'

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string }
type Push = { event: string; payload: unknown }

export function createSocketApi(location: Location = window.location): Api {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const url = `ws://${location.host}/api?token=${encodeURIComponent(token)}`
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const progress = new Set<(p: LoadProgress) => void>()
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
    series: (query) => invoke('series', query),
    onProgress(listener) {
      progress.add(listener)
      return () => {
        progress.delete(listener)
      }
    },
  }
}
