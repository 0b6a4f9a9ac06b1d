/**
 * The browser host: the same app in a browser tab. HTTP serves the built renderer; a WebSocket carries the
 * Api (the same handlers as Electron's ipcMain). It listens on 127.0.0.1 only and requires a random token:
 * the page is opened as /?token=…, which sets a same-site cookie for its assets; the socket must present the
 * token, name this host (no DNS rebinding) and come from the page's own origin. Messages have a size limit,
 * must be binary and well formed, and a page has a bounded number of calls in flight.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { WebSocketServer, type WebSocket } from 'ws'
import { z } from 'zod'
import { decodeMessage, encodeMessage } from '../../shared/wire'
import type { Handlers } from './handlers'
import { MAX_CHUNK_BYTES, type HandlerName } from './schemas'

export const MAX_MESSAGE_BYTES = MAX_CHUNK_BYTES + 64 * 1024
/** Calls a page may have unanswered at once; more are refused, not queued. */
export const MAX_CALLS_IN_FLIGHT = 256
/** Close codes the socket is refused with. */
export const CLOSE = { notBinary: 1003, malformed: 1007, tooBig: 1009 } as const

const callSchema = z.object({
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  method: z.string().max(64),
  channel: z.string().max(64).optional(),
  payload: z.unknown().optional(),
})

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

export interface BrowserHostOptions {
  /** The built renderer (index.html and assets). */
  rendererDir: string
  handlers: Handlers
  port?: number
  /** Fixed token (tests); random otherwise. */
  token?: string
}

export interface BrowserHost {
  url: string
  port: number
  token: string
  /** Push an event (load progress, playback frames, …) to every connected page. */
  push(event: string, payload: unknown): void
  close(): Promise<void>
}

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Cookies are not kept apart by port: each host names its cookie after its own. */
const cookieName = (port: number) => `heapscope_token_${port}`

function cookieToken(req: IncomingMessage, port: number): string | undefined {
  const header = req.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const [k, v] = part.trim().split('=')
    if (k === cookieName(port)) return v
  }
  return undefined
}

const sameHost = (host: string | undefined, port: number) => host === `127.0.0.1:${port}` || host === `localhost:${port}`

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  const sockets = new Set<WebSocket>()
  let port = 0

  const refuse = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
    res.end(text)
  }

  const serveFile = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    if (!sameHost(req.headers.host, port)) return refuse(res, 421, 'wrong host')
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed')
    const queryToken = url.searchParams.get('token') ?? undefined
    const authorized = sameToken(queryToken, token) || sameToken(cookieToken(req, port), token)
    if (!authorized) return refuse(res, 403, 'HeapScope: open the address printed by `npm start` (it carries the token)')
    const path = url.pathname === '/' ? '/index.html' : decodeURIComponent(url.pathname)
    const file = normalize(join(options.rendererDir, path))
    if (!file.startsWith(normalize(options.rendererDir) + sep)) return refuse(res, 404, 'not found')
    let body: Buffer
    try {
      body = await readFile(file)
    } catch {
      return refuse(res, 404, 'not found')
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-frame-options': 'DENY',
    }
    if (extname(file) === '.html') {
      headers['content-security-policy'] = contentSecurityPolicy(port)
      headers['set-cookie'] = `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`
    }
    res.writeHead(200, headers)
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  const server: Server = createServer((req, res) => {
    serveFile(req, res).catch((err: unknown) => refuse(res, 500, String(err)))
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  wss.on('error', () => undefined)
  server.on('clientError', (_err, socket) => socket.destroy())

  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    let url: URL
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    } catch {
      socket.destroy()
      return
    }
    const origin = req.headers.origin
    const okOrigin = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
    const okToken =
      sameToken(url.searchParams.get('token') ?? undefined, token) || sameToken(cookieToken(req, port), token)
    if (url.pathname !== '/api' || !okOrigin || !okToken || !sameHost(req.headers.host, port)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws)
    let inFlight = 0
    ws.on('close', () => sockets.delete(ws))
    // a frame over maxPayload or a broken frame: ws closes the socket (1009, 1002) and reports it here; unheard,
    // it would throw and end the host
    ws.on('error', () => sockets.delete(ws))
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return ws.close(CLOSE.notBinary, 'binary messages only')
      let decoded: unknown
      try {
        decoded = decodeMessage(data as Buffer)
      } catch {
        return ws.close(CLOSE.malformed, 'malformed message')
      }
      const parsed = callSchema.safeParse(decoded)
      if (!parsed.success) return ws.close(CLOSE.malformed, 'not a call')
      const call = parsed.data
      const reply = (message: unknown) => {
        if (ws.readyState === ws.OPEN) ws.send(encodeMessage(message))
      }
      const handler = Object.hasOwn(options.handlers, call.method) ? options.handlers[call.method as HandlerName] : undefined
      if (!handler) return reply({ id: call.id, ok: false, error: `unknown method ${call.method}` })
      if (inFlight >= MAX_CALLS_IN_FLIGHT) {
        return reply({ id: call.id, ok: false, error: `more than ${MAX_CALLS_IN_FLIGHT} calls in flight` })
      }
      inFlight++
      handler(call.payload)
        .then(
          (value) => reply({ id: call.id, ok: true, value }),
          (err: unknown) => reply({ id: call.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => inFlight--)
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    push(event, payload) {
      const message = encodeMessage({ event, payload })
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message)
    },
    async close() {
      for (const ws of sockets) ws.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
