/**
 * The browser host as an attacker's page sees it, in Chromium: the app's own page works and refuses eval and
 * inline scripts; a page of another origin cannot open the host's socket even with the token, cannot read
 * the app's page, cannot frame it; without the token there is no app at all.
 */
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injectScripts, launchChromium, startHost, type Host } from './browser'

describe('browser host security, in Chromium', () => {
  let host: Host
  let browser: Browser
  let page: Page
  let evil: Server
  let evilOrigin: string
  let hostOrigin: string
  let token: string

  beforeAll(async () => {
    // settings and recent files of this run stay out of the user's own
    process.env.HEAPSCOPE_USER_DATA = mkdtempSync(join(tmpdir(), 'heapscope-security-'))
    host = await startHost()
    const url = new URL(host.url)
    hostOrigin = url.origin
    token = url.searchParams.get('token')!
    // another site on the same machine: a page that knows the host's address, and even its token
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>elsewhere</title><body></body>')
    })
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()))
    evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`
    browser = await launchChromium()
    page = await browser.newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
    await new Promise<void>((r) => (evil ? evil.close(() => r()) : r()))
    delete process.env.HEAPSCOPE_USER_DATA
  })

  it('the app’s page works, and refuses scripts it did not ship', async () => {
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    const response = await page.goto(host.url)
    const policy = response?.headers()['content-security-policy'] ?? ''
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toMatch(/unsafe-eval|unsafe-inline/)
    await page.getByTestId('frame-count').waitFor({ timeout: 30_000 })
    // scripts the page did not ship are refused: inline, and from data: (code evaluated by the test driver
    // itself is exempt from CSP, so eval is checked in the policy's text below)
    const result = await injectScripts(page)
    expect(result).toEqual({ inline: null, data: 'refused', ran: null })
    await expect.poll(() => violations.length).toBeGreaterThan(0)
  })

  it('another origin cannot open the socket, even with the token', async () => {
    const other = await browser.newPage()
    await other.goto(evilOrigin)
    const outcome = await other.evaluate(
      ({ origin, token }) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`${origin.replace('http', 'ws')}/api?token=${token}`)
          ws.onopen = () => resolve('open')
          ws.onclose = (e) => resolve(`closed ${e.code}`)
        }),
      { origin: hostOrigin, token },
    )
    // refused during the handshake: the page only sees an abnormal close
    expect(outcome).toBe('closed 1006')
    await other.close()
  })

  it('another origin cannot read the app’s page, nor frame it', async () => {
    const other = await browser.newPage()
    await other.goto(evilOrigin)
    const read = await other.evaluate(async (url) => {
      try {
        const res = await fetch(url)
        return `read ${(await res.text()).length} bytes`
      } catch (err) {
        return (err as Error).name
      }
    }, host.url)
    expect(read).toBe('TypeError')
    await other.evaluate((url) => {
      const frame = document.createElement('iframe')
      frame.src = url
      document.body.append(frame)
    }, host.url)
    await other.waitForTimeout(1500)
    const framed = other.frames().find((f) => f !== other.mainFrame())
    // the frame never shows the app: Chromium puts its error page in place of a page that refuses framing
    expect(framed?.url() ?? '').not.toBe(host.url)
    expect(await framed?.locator('[data-testid=frame-count]').count().catch(() => 0)).toBe(0)
    await other.close()
  })

  it('without the token there is no app', async () => {
    const bare = await browser.newPage()
    const response = await bare.goto(`${hostOrigin}/`)
    expect(response?.status()).toBe(403)
    expect(await bare.locator('#app').count()).toBe(0)
    const wrong = await bare.goto(`${hostOrigin}/?token=${token.slice(0, -2)}xx`)
    expect(wrong?.status()).toBe(403)
    await bare.close()
  })
})
