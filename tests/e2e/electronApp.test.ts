/**
 * The desktop app end to end, driven through playwright-core's `_electron`: it opens on the demo capture from
 * its own scheme, its window is locked down (webPreferences, CSP, navigation and new windows), its menus are
 * there with recent files, and a menu command reaches the renderer and the settings. Runs where Electron's
 * binary is installed (and, on Linux, there is a display); elsewhere it is skipped and says why.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron, type ElectronApplication, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injectScripts, ROOT } from './browser'

const APP_INDEX = 'app://heapscope/index.html'

/** Electron's binary, or why there is none. */
function electronBinary(): { path: string } | { reason: string } {
  let path: unknown
  try {
    path = createRequire(import.meta.url)('electron')
  } catch (err) {
    return { reason: (err as Error).message.split('\n')[0] }
  }
  if (typeof path !== 'string' || !existsSync(path)) return { reason: `no Electron binary at ${String(path)}` }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (set DISPLAY, or run under xvfb-run)' }
  }
  return { path }
}

const electron = electronBinary()
if ('reason' in electron) {
  console.warn(
    `\n[electron e2e] SKIPPED: ${electron.reason}.\n` +
      '[electron e2e] To run this lane: node node_modules/electron/install.js (downloads Electron), then npm run test:e2e.\n',
  )
}

describe.skipIf('reason' in electron)('the desktop app, end to end', () => {
  let app: ElectronApplication
  let page: Page
  let userData: string
  const settingsFile = () => JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as Record<string, unknown>

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('out/ is missing: run npx electron-vite build first')
    userData = mkdtempSync(join(tmpdir(), 'heapscope-electron-'))
    app = await _electron.launch({
      executablePath: (electron as { path: string }).path,
      args: [ROOT],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), HEAPSCOPE_USER_DATA: userData, ELECTRON_RENDERER_URL: '' },
    })
    page = await app.firstWindow()
    await page.getByTestId('frame-count').waitFor({ timeout: 60_000 })
  })

  afterAll(async () => {
    await app?.close()
  })

  it('opens on the demo capture, served from the app’s own scheme', async () => {
    expect(page.url()).toBe(APP_INDEX)
    expect(Number(await page.getByTestId('frame-count').textContent())).toBeGreaterThan(100)
    expect(app.windows()).toHaveLength(1)
  })

  it('runs the window sandboxed, isolated, without Node', async () => {
    // Electron keeps a window's webPreferences behind an undocumented method; where it is gone, the page's own
    // view below still shows isolation (window.api only exists under contextIsolation) and no Node
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0].webContents as unknown as { getLastWebPreferences?: () => unknown }
      return typeof contents.getLastWebPreferences === 'function' ? contents.getLastWebPreferences() : null
    })
    if (prefs) {
      expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false })
    } else console.warn('[electron e2e] webContents.getLastWebPreferences is gone: webPreferences checked through the page only')
    const { CHANNELS } = (await import(join(ROOT, 'src/shared/ipc/channels.ts'))) as { CHANNELS: Record<string, string> }
    const globals = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>
      return { require: typeof w.require, process: typeof w.process, module: typeof w.module, api: Object.keys(w.api as object).sort() }
    })
    expect(globals).toMatchObject({ require: 'undefined', process: 'undefined', module: 'undefined' })
    // window.api is the Api and nothing else: one method per channel, and the subscriptions
    expect(globals.api).toEqual([...Object.keys(CHANNELS), 'onEngineStopped', 'onMenu', 'onPlayback', 'onProgress'].sort())
  })

  it('refuses scripts it did not ship (CSP), and allows no eval', async () => {
    const policy = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'))
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("connect-src 'self';")
    expect(policy).not.toMatch(/unsafe-eval|unsafe-inline/)
    // scripts the page did not ship are refused: inline, and from data: (code evaluated by the test driver
    // itself is exempt from CSP, so eval is checked in the policy's text below)
    const result = await injectScripts(page)
    expect(result).toEqual({ inline: null, data: 'refused', ran: null })
  })

  it('blocks navigation away and new windows', async () => {
    await page.evaluate(() => {
      location.href = 'https://example.com/'
    })
    await page.waitForTimeout(1000)
    expect(page.url()).toBe(APP_INDEX)
    expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true)
    await page.waitForTimeout(500)
    expect(app.windows()).toHaveLength(1)
    // the app's own page is still there and working
    expect(Number(await page.getByTestId('frame-count').textContent())).toBeGreaterThan(100)
  })

  it('has its menus and accelerators, and the demo among recent files', async () => {
    const menu = await app.evaluate(({ Menu }) => {
      const m = Menu.getApplicationMenu()!
      const item = (id: string) => {
        const i = m.getMenuItemById(id)
        return i ? { label: i.label, accelerator: i.accelerator ?? null } : null
      }
      return {
        top: m.items.map((i) => i.label.replace('&', '')),
        open: item('file.open'),
        compare: item('file.compareWith'),
        export: item('file.export'),
        quit: item('file.quit'),
        zoomIn: item('view.zoomIn'),
        about: item('help.about'),
        format: item('help.format'),
        recent: item('file.openRecent.0'),
      }
    })
    expect(menu.top).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Window', 'Help']))
    expect(menu.open).toEqual({ label: 'Open…', accelerator: 'CmdOrCtrl+O' })
    expect(menu.compare?.accelerator).toBe('CmdOrCtrl+Shift+O')
    expect(menu.export?.accelerator).toBe('CmdOrCtrl+E')
    expect(menu.quit).not.toBeNull()
    expect(menu.zoomIn?.accelerator).toBe('CmdOrCtrl+=')
    expect(menu.about).not.toBeNull()
    expect(menu.format).not.toBeNull()
    expect(menu.recent?.label).toBe('demo.hscap.gz')
  })

  it('a menu command reaches the renderer, and theme and language reach the settings', async () => {
    const received = page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const off = (window as unknown as { api: { onMenu(l: (c: string) => void): () => void } }).api.onMenu((command) => {
            off()
            resolve(command)
          })
        }),
    )
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById('view.theme.light')!.click())
    expect(await received).toBe('theme:light')
    expect(settingsFile().theme).toBe('light')
    const checked = await app.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById('view.theme.light')!.checked)
    expect(checked).toBe(true)
  })

  it('remembers the window and the recent files when it quits', async () => {
    await app.close()
    const saved = settingsFile()
    expect(saved.window).toMatchObject({ width: expect.any(Number), height: expect.any(Number), maximized: false })
    expect((saved.recent as { path: string }[]).map((r) => r.path)).toEqual([join(ROOT, 'resources/demo/demo.hscap.gz')])
  })
})
