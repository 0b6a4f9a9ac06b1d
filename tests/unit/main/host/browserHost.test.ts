/**
 * The browser host held to the desktop app's standard: only this host's page, with the token, from its own
 * origin, may call; messages are binary, well formed and bounded; unknown methods and bad payloads are refused
 * with the same schemas as in Electron.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { CLOSE, MAX_CALLS_IN_FLIGHT, MAX_MESSAGE_BYTES, startBrowserHost, type BrowserHost } from '../../../../src/main/host/browserHost'
import { createHandlers, type Handlers } from '../../../../src/main/host/handlers'
import { decodeMessage, encodeMessage } from '../../../../src/shared/wire'
import { testContext } from './stubs'

const TOKEN = 'test-token-0123456789abcdef'

function rendererDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-renderer-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>HeapScope</title>')
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
  // beside the renderer, where a path that climbs out would land
  writeFileSync(join(dir, '..', 'secret.txt'), 'not for the page')
  return dir
}

let host: BrowserHost | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

async function start(handlers?: Handlers): Promise<BrowserHost> {
  host = await startBrowserHost({ rendererDir: rendererDir(), handlers: handlers ?? createHandlers(testContext().ctx), token: TOKEN })
  return host
}

const origin = (h: BrowserHost) => `http://127.0.0.1:${h.port}`

/** Opens a socket; resolves with it once open, or with the HTTP status the upgrade was refused with. */
function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { ...options, maxPayload: 256 * 1024 * 1024 })
    ws.once('open', () => resolve({ ws }))
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode })
      res.resume()
    })
    ws.once('error', (err) => reject(err))
  })
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data: Buffer) => resolve(decodeMessage(data))))
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)))
}

/** A raw HTTP GET, so the test controls the Host header and the path byte for byte. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on('error', reject)
      req.end()
    },
  )
}

describe('browser host: who may connect', () => {
  it('listens on 127.0.0.1 only', async () => {
    const h = await start()
    expect(h.url).toBe(`http://127.0.0.1:${h.port}/?token=${TOKEN}`)
  })

  it('accepts the page’s own origin with the token', async () => {
    const h = await start()
    const { ws } = await connect(`ws://127.0.0.1:${h.port}/api?token=${TOKEN}`, { origin: origin(h) })
    ws!.send(encodeMessage({ id: 1, method: 'settings', payload: null }))
    expect(await nextMessage(ws!)).toEqual({ id: 1, ok: true, value: { version: 2, theme: 'dark', language: 'en', configOverrides: {} } })
    // as the page's client sends a call without a payload: the key is left out, not null
    ws!.send(encodeMessage({ id: 2, method: 'recentFiles', channel: 'recent:list', payload: undefined }))
    expect(await nextMessage(ws!)).toEqual({ id: 2, ok: true, value: [] })
    ws!.close()
  })

  for (const [why, path, opts] of [
    ['a missing token', '/api', (h: BrowserHost) => ({ origin: origin(h) })],
    ['a wrong token', '/api?token=guess', (h: BrowserHost) => ({ origin: origin(h) })],
    ['a token one character short', `/api?token=${TOKEN.slice(0, -1)}`, (h: BrowserHost) => ({ origin: origin(h) })],
    ['another site’s origin', `/api?token=${TOKEN}`, () => ({ origin: 'https://evil.example' })],
    ['another port’s origin', `/api?token=${TOKEN}`, (h: BrowserHost) => ({ origin: `http://127.0.0.1:${h.port + 1}` })],
    ['no origin at all', `/api?token=${TOKEN}`, () => ({})],
    ['a rebound host name', `/api?token=${TOKEN}`, (h: BrowserHost) => ({ origin: origin(h), headers: { host: `evil.example:${h.port}` } })],
    ['another path', `/socket?token=${TOKEN}`, (h: BrowserHost) => ({ origin: origin(h) })],
    ['the token in a cookie of another port', '/api', (h: BrowserHost) => ({ origin: origin(h), headers: { cookie: `heapscope_token_${h.port + 1}=${TOKEN}` } })],
  ] as const) {
    it(`refuses ${why}`, async () => {
      const h = await start()
      expect(await connect(`ws://127.0.0.1:${h.port}${path}`, opts(h))).toEqual({ status: 403 })
    })
  }

  it('accepts the token from the page’s cookie', async () => {
    const h = await start()
    const { ws } = await connect(`ws://127.0.0.1:${h.port}/api`, { origin: origin(h), headers: { cookie: `heapscope_token_${h.port}=${TOKEN}` } })
    expect(ws).toBeDefined()
    ws!.close()
  })
})

describe('browser host: what a connected page may send', () => {
  async function open() {
    const h = await start()
    const { ws } = await connect(`ws://127.0.0.1:${h.port}/api?token=${TOKEN}`, { origin: origin(h) })
    return ws!
  }

  it('closes on a message over the size limit', async () => {
    const ws = await open()
    const gone = closed(ws)
    ws.send(new Uint8Array(MAX_MESSAGE_BYTES + 1))
    expect(await gone).toBe(CLOSE.tooBig)
  })

  it('closes on a text message', async () => {
    const ws = await open()
    const gone = closed(ws)
    ws.send(JSON.stringify({ id: 1, method: 'appInfo' }))
    expect(await gone).toBe(CLOSE.notBinary)
  })

  it('closes on bytes that are no message', async () => {
    const ws = await open()
    const gone = closed(ws)
    ws.send(new Uint8Array([255, 255, 255, 255, 1]))
    expect(await gone).toBe(CLOSE.malformed)
  })

  it('closes on a message that is no call', async () => {
    for (const message of [null, 7, 'appInfo', { method: 'appInfo' }, { id: '1', method: 'appInfo' }, { id: 1, method: 'x'.repeat(65) }]) {
      const ws = await open()
      const gone = closed(ws)
      ws.send(encodeMessage(message))
      expect(await gone).toBe(CLOSE.malformed)
      await host?.close()
      host = undefined
    }
  })

  it('answers an unknown method with an error, inherited names included, and stays open', async () => {
    const ws = await open()
    for (const [id, method] of ['readFile', 'constructor', '__proto__', 'hasOwnProperty', 'toString'].entries()) {
      ws.send(encodeMessage({ id, method, payload: '/etc/passwd' }))
      expect(await nextMessage(ws)).toEqual({ id, ok: false, error: `unknown method ${method}` })
    }
    expect(ws.readyState).toBe(WebSocket.OPEN)
    ws.close()
  })

  it('refuses bad payloads with the same schemas as Electron', async () => {
    const ws = await open()
    ws.send(encodeMessage({ id: 1, method: 'openCapture', payload: { fileId: '/etc/passwd', loadId: 'l' } }))
    const reply = (await nextMessage(ws)) as { ok: boolean; error: string }
    expect(reply.ok).toBe(false)
    expect(reply.error).toMatch(/^openCapture: refused payload: fileId:/)
    ws.send(encodeMessage({ id: 2, method: 'exportCapture', payload: { runId: 'run-1', gzip: true, path: '/tmp/x' } }))
    expect(((await nextMessage(ws)) as { error: string }).error).toMatch(/^exportCapture: refused payload/)
    ws.close()
  })

  it(`refuses calls past ${MAX_CALLS_IN_FLIGHT} in flight, then takes calls again once they are answered`, async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((r) => (release = r))
    const handlers = { ...createHandlers(testContext().ctx), settings: () => held.then(() => 'done') } as Handlers
    const h = await start(handlers)
    const { ws } = await connect(`ws://127.0.0.1:${h.port}/api?token=${TOKEN}`, { origin: origin(h) })
    const replies: { id: number; ok: boolean; error?: string }[] = []
    ws!.on('message', (data: Buffer) => replies.push(decodeMessage(data) as (typeof replies)[number]))
    for (let id = 0; id <= MAX_CALLS_IN_FLIGHT; id++) ws!.send(encodeMessage({ id, method: 'settings', payload: null }))
    await expect.poll(() => replies.length).toBe(1)
    expect(replies[0]).toEqual({ id: MAX_CALLS_IN_FLIGHT, ok: false, error: `more than ${MAX_CALLS_IN_FLIGHT} calls in flight` })
    release()
    await expect.poll(() => replies.length).toBe(MAX_CALLS_IN_FLIGHT + 1)
    expect(replies.filter((r) => r.ok)).toHaveLength(MAX_CALLS_IN_FLIGHT)
    ws!.send(encodeMessage({ id: 999, method: 'settings', payload: null }))
    await expect.poll(() => replies.at(-1)).toEqual({ id: 999, ok: true, value: 'done' })
    ws!.close()
  })
})

describe('browser host: the page and its files', () => {
  it('refuses the page without the token', async () => {
    const h = await start()
    expect((await get(h.port, '/')).status).toBe(403)
    expect((await get(h.port, '/?token=nope')).status).toBe(403)
  })

  it('serves the page with the token, with its CSP and a cookie for this port only', async () => {
    const h = await start()
    const page = await get(h.port, `/?token=${TOKEN}`)
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${h.port}`)
    expect(page.headers['x-frame-options']).toBe('DENY')
    expect(page.headers['set-cookie']).toEqual([`heapscope_token_${h.port}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`])
    const asset = await get(h.port, '/assets/app.js', { cookie: `heapscope_token_${h.port}=${TOKEN}` })
    expect(asset.status).toBe(200)
    expect(asset.body).toBe('console.log(1)')
  })

  it('refuses a rebound host name', async () => {
    const h = await start()
    expect((await get(h.port, `/?token=${TOKEN}`, { host: `evil.example:${h.port}` })).status).toBe(421)
  })

  it('serves nothing outside the renderer folder', async () => {
    const h = await start()
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
      const res = await get(h.port, `${path}?token=${TOKEN}`)
      expect(res.status, path).toBe(404)
      expect(res.body).not.toContain('not for the page')
    }
  })

  it('answers GET and HEAD only', async () => {
    const h = await start()
    expect((await get(h.port, `/?token=${TOKEN}`, {}, 'POST')).status).toBe(405)
  })
})
