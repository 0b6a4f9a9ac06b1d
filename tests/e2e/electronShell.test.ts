/**
 * The built desktop entry (out/main/index.js) run in node under a stand-in for Electron, with the real engine
 * worker: what it sets up before and after `ready`, the page it serves and how, the IPC it answers, its menus,
 * navigation, a second launch, export and window state. This lane runs everywhere (after a build); the one in
 * electronApp.test.ts runs the same entry in Electron itself where its binary is installed.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cli, ROOT } from './browser'
import { app, state, type BrowserWindow } from './fakeElectron'

vi.mock('electron', () => import('./fakeElectron'))

const APP_INDEX = 'app://heapscope/index.html'
const DEMO = join(ROOT, 'resources/demo/demo.hscap.gz')
const fromApp = { senderFrame: { url: APP_INDEX, parent: null } }

type MenuItem = { id?: string; label?: string; accelerator?: string; checked?: boolean; click?: () => void; submenu?: MenuItem[] }

function menuItem(id: string): MenuItem {
  const walk = (items: MenuItem[]): MenuItem | undefined => {
    for (const item of items) {
      if (item.id === id) return item
      const found = item.submenu && walk(item.submenu)
      if (found) return found
    }
    return undefined
  }
  const item = walk((state.menu?.template ?? []) as MenuItem[])
  if (!item) throw new Error(`no menu item ${id}`)
  return item
}

const invoke = (channel: string, payload?: unknown, event: unknown = fromApp) => {
  const handler = state.ipc.get(channel) as ((event: unknown, payload?: unknown) => Promise<unknown>) | undefined
  if (!handler) throw new Error(`no IPC handler for ${channel}`)
  return handler(event, payload)
}

describe('the desktop entry under a stand-in Electron', () => {
  let userData: string
  let window: BrowserWindow
  const settings = () => JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as Record<string, unknown>

  beforeAll(async () => {
    userData = mkdtempSync(join(tmpdir(), 'heapscope-shell-'))
    process.env.HEAPSCOPE_USER_DATA = userData
    await import(join(ROOT, 'out/main/index.js'))
  })

  afterAll(() => {
    app.emit('will-quit')
    delete process.env.HEAPSCOPE_USER_DATA
  })

  it('before ready: every renderer sandboxed, the app scheme privileged, settings where asked', () => {
    expect(state.sandboxEnabled).toBe(true)
    expect(state.schemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
    ])
    expect(state.paths.userData).toBe(userData)
    expect(state.windows).toHaveLength(0)
  })

  it('on ready: one locked-down window on the app page, permissions denied', async () => {
    app.becomeReady()
    await vi.waitFor(() => expect(state.windows).toHaveLength(1))
    window = state.windows[0]
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    })
    expect(window.webContents.url).toBe(APP_INDEX)
    let granted: boolean | undefined
    ;(state.permissionRequest as unknown as (c: unknown, p: string, cb: (ok: boolean) => void) => void)({}, 'media', (ok) => (granted = ok))
    expect(granted).toBe(false)
    expect((state.permissionCheck as unknown as () => boolean)()).toBe(false)
    expect((state.devicePermission as unknown as () => boolean)()).toBe(false)
  })

  it('serves the built page with its CSP, and nothing outside it', async () => {
    const handle = state.protocols.get('app')!
    const page = await handle(new Request(APP_INDEX))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await page.text()).toContain('<div id="app">')
    expect((await handle(new Request('app://heapscope/..%2f..%2fpackage.json'))).status).toBe(404)
    expect((await handle(new Request('app://heapscope/missing.js'))).status).toBe(404)
    expect((await handle(new Request(APP_INDEX, { method: 'POST', body: 'x' }))).status).toBe(404)
  })

  it('answers the app page over IPC, and only it', async () => {
    const info = (await invoke('app:info')) as { host: string; captures: { fileId: string; name: string }[]; openAtStart: string }
    expect(info.host).toBe('electron')
    expect(info.captures.find((c) => c.fileId === info.openAtStart)?.name).toBe('demo.hscap.gz')
    await expect(invoke('app:info', undefined, { senderFrame: { url: 'https://evil.example/', parent: null } })).rejects.toThrow(/refused/)
    await expect(invoke('capture:open', { fileId: '/etc/passwd', loadId: 'l' })).rejects.toThrow(/refused payload/)
  })

  it('opens the demo in the engine worker; it becomes a recent file in the menu and the settings', async () => {
    const info = (await invoke('app:info')) as { openAtStart: string }
    const outcome = (await invoke('capture:open', { fileId: info.openAtStart, loadId: 'load-1' })) as { ok: boolean; summary: { frames: number } }
    expect(outcome.ok).toBe(true)
    expect(outcome.summary.frames).toBeGreaterThan(100)
    expect(menuItem('file.openRecent.0').label).toBe('demo.hscap.gz')
    expect(settings().recent).toEqual([{ path: DEMO, openedAt: expect.any(Number) }])
    menuItem('file.openRecent.0').click!()
    expect(window.webContents.sent.at(-1)).toEqual(['menu:command', 'openRecent', info.openAtStart])
  })

  it('menus send their commands; theme and language are saved and checked', () => {
    menuItem('file.open').click!()
    expect(window.webContents.sent.at(-1)).toEqual(['menu:command', 'open', undefined])
    expect(menuItem('file.open').accelerator).toBe('CmdOrCtrl+O')
    menuItem('view.theme.light').click!()
    expect(window.webContents.sent.at(-1)).toEqual(['menu:command', 'theme:light', undefined])
    expect(settings().theme).toBe('light')
    expect(menuItem('view.theme.light').checked).toBe(true)
    menuItem('view.language.zh-CN').click!()
    expect(settings().language).toBe('zh-CN')
    expect(menuItem('file.open').label).toBe('打开…')
    menuItem('view.reload').click!()
    expect(window.webContents.reloads).toBe(1)
  })

  it('blocks navigation away, frames, redirects and new windows', () => {
    const navigate = (event: string, url: string, isMainFrame = true) => {
      let prevented = false
      window.webContents.emit(event, { url, isMainFrame, preventDefault: () => (prevented = true) })
      return prevented
    }
    expect(navigate('will-navigate', 'https://example.com/')).toBe(true)
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(navigate('will-navigate', APP_INDEX)).toBe(false)
    expect(navigate('will-frame-navigate', APP_INDEX, false)).toBe(true)
    expect(navigate('will-redirect', APP_INDEX)).toBe(true)
    expect(navigate('will-attach-webview', APP_INDEX)).toBe(true)
    expect(window.webContents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
  })

  it('a second launch with a capture sends it to the running window', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-second-'))
    copyFileSync(DEMO, join(dir, 'again.hscap.gz'))
    app.emit('second-instance', {}, ['/opt/HeapScope/heapscope', '--flag', 'again.hscap.gz'], dir)
    const [channel, command, fileId] = window.webContents.sent.at(-1)!
    expect([channel, command]).toEqual(['menu:command', 'openFile'])
    const sent = window.webContents.sent.length
    app.emit('second-instance', {}, ['/opt/HeapScope/heapscope'], dir)
    expect(window.webContents.sent).toHaveLength(sent)
    return invoke('capture:open', { fileId, loadId: 'load-2' }).then((o) => expect((o as { ok: boolean }).ok).toBe(true))
  })

  it('a second launch with --follow sends the capture to follow; follow:start follows it until follow:stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-follow-'))
    const { runGen } = (await import(join(ROOT, 'src/main/cli/gen.ts'))) as {
      runGen(scenario: string, options: { frames: number }, write: (chunk: string) => void): Promise<unknown>
    }
    let text = ''
    await runGen('vulkan', { frames: 12 }, (chunk) => void (text += chunk))
    writeFileSync(join(dir, 'growing.hscap'), text)
    app.emit('second-instance', {}, ['/opt/HeapScope/heapscope', '--follow', 'growing.hscap'], dir)
    const [channel, command, fileId] = window.webContents.sent.at(-1)!
    expect([channel, command]).toEqual(['menu:command', 'followFile'])
    const outcome = (await invoke('follow:start', { fileId, loadId: 'follow-1' })) as { ok: boolean; summary: { live?: boolean; frames: number } }
    // the last frame is still open while the file is followed
    expect(outcome).toMatchObject({ ok: true, summary: { live: true, frames: 11 } })
    await invoke('follow:stop', 'follow-1')
    const info = (await invoke('record:info')) as { capturesDir: string; layerDir: string | null }
    expect(info.capturesDir.endsWith(`${sep}captures`)).toBe(true)
  })

  it('exports through the save dialog, written by the engine worker where the user chose', async () => {
    // what a reload would open now: the capture last opened, again.hscap.gz
    const info = (await invoke('app:info')) as { openAtStart: string }
    const opened = (await invoke('capture:open', { fileId: info.openAtStart, loadId: 'load-3' })) as { summary: { runId: string } }
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-exported-')), 'first-ten.hscap.gz')
    state.saveDialog.push(path)
    const outcome = await invoke('capture:export', { runId: opened.summary.runId, from: 0, to: 10, gzip: true })
    expect(state.saveDialogOptions.at(-1)).toMatchObject({ defaultPath: '/home/user/Documents/again.frames-0-10.hscap.gz' })
    expect(outcome).toMatchObject({ kind: 'saved', name: 'first-ten.hscap.gz' })
    const { loadCaptureFile } = (await import(join(ROOT, 'src/main/ingest/read.ts'))) as {
      loadCaptureFile(path: string): Promise<{ store: { frames: { length: number } } }>
    }
    // frames 0 … 9
    expect((await loadCaptureFile(path)).store.frames.length).toBe(10)
    state.saveDialog.push(null)
    expect(await invoke('capture:export', { runId: opened.summary.runId, gzip: true })).toEqual({ kind: 'cancelled' })
  })

  it('opens a history database through its dialog, never by a path from the page, in the engine worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-history-'))
    const db = join(dir, 'runs.duckdb')
    const nightly = join(dir, 'nightly.hscap.gz')
    copyFileSync(DEMO, nightly)
    await cli('history', 'add', db, nightly, '--build', '7.1', '--label', 'map=demo')
    await expect(invoke('history:open', db)).rejects.toThrow('this host opens histories from its dialog')
    state.openDialog.push(null)
    expect(await invoke('history:openDialog')).toBeNull()
    state.openDialog.push(db)
    const info = (await invoke('history:openDialog')) as { historyId: string; runs: number; builds: number; labels: unknown }
    expect(info).toMatchObject({ name: 'runs.duckdb', runs: 1, builds: 1, labels: [{ key: 'map', values: ['demo'] }] })
    const trend = (await invoke('history:trend', { historyId: info.historyId, metric: 'peak', by: 'heap' })) as { builds: unknown[] }
    expect(trend.builds).toEqual([{ build: '7.1', runs: 1, runId: 1 }])
    const entry = (await invoke('history:run', { historyId: info.historyId, runId: 1 })) as { fileId: string; origin: string }
    expect(entry.origin).toBe('history')
    const opened = (await invoke('capture:open', { fileId: entry.fileId, loadId: 'load-history' })) as { ok: boolean; summary: { file: string } }
    expect(opened).toMatchObject({ ok: true, summary: { file: 'nightly.hscap.gz' } })
    await invoke('history:close', info.historyId)
  })

  it('remembers the window when it closes', () => {
    window.emit('close')
    expect(settings().window).toEqual({ x: 100, y: 80, width: 1440, height: 900, maximized: false })
  })
})
