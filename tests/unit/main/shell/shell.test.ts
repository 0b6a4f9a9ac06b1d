/** The desktop shell's pure parts: menus, window placement, the app:// scheme, command-line captures. */
import type { MenuItemConstructorOptions } from 'electron'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { captureArgs, followArg } from '../../../../src/main/shell/args'
import { menuLabel, menuTemplate, settingsPatchFor, type MenuState } from '../../../../src/main/shell/menu'
import { appResponseHeaders, DESKTOP_CSP, isAppUrl, resolveAppUrl } from '../../../../src/main/shell/protocol'
import { restoreWindow } from '../../../../src/main/shell/windowState'
import type { CaptureEntry, MenuCommand } from '../../../../src/shared/ipc'

const recent: CaptureEntry[] = [
  { fileId: 'f-1', name: 'city.hscap.gz', origin: 'recent', description: '/captures/monday/city', folder: '/captures/monday/city' },
  { fileId: 'f-2', name: 'R&D.hscap', origin: 'recent', description: '/captures', folder: '/captures' },
  { fileId: 'f-3', name: 'city.hscap.gz', origin: 'recent', description: '/captures/tuesday/city', folder: '/captures/tuesday/city' },
]

function menu(state: Partial<MenuState> = {}) {
  const sent: [MenuCommand, string | undefined][] = []
  let cleared = 0
  let reloads = 0
  const template = menuTemplate(
    { platform: 'linux', appName: 'HeapScope', recent, theme: 'dark', language: 'en', devTools: false, ...state },
    { command: (c, a) => sent.push([c, a]), clearRecent: () => cleared++, reload: () => reloads++ },
  )
  const all: MenuItemConstructorOptions[] = []
  const walk = (items: MenuItemConstructorOptions[]) => {
    for (const item of items) {
      all.push(item)
      if (Array.isArray(item.submenu)) walk(item.submenu as MenuItemConstructorOptions[])
    }
  }
  walk(template)
  const byId = (id: string) => {
    const item = all.find((i) => i.id === id)
    if (!item) throw new Error(`no menu item ${id}`)
    return item
  }
  const click = (id: string) => (byId(id).click as () => void)()
  return { template, all, byId, click, sent, cleared: () => cleared, reloads: () => reloads }
}

describe('menus', () => {
  it('File, Edit, View, Window, Help on Windows and Linux; the app menu first on macOS', () => {
    expect(menu().template.map((m) => m.id)).toEqual(['file', 'edit', 'view', 'window', 'help'])
    expect(menu({ platform: 'darwin' }).template.map((m) => m.id)).toEqual(['app', 'file', 'edit', 'view', 'window', 'help'])
  })

  it('each File and View command goes to the renderer, with its accelerator', () => {
    const m = menu()
    const expected: [string, MenuCommand, string | undefined][] = [
      ['file.open', 'open', 'CmdOrCtrl+O'],
      ['file.compareWith', 'compareWith', 'CmdOrCtrl+Shift+O'],
      ['file.capture', 'capture', 'CmdOrCtrl+Shift+R'],
      ['file.export', 'export', 'CmdOrCtrl+E'],
      ['file.closeRun', 'closeRun', 'CmdOrCtrl+Shift+W'],
      ['view.theme.light', 'theme:light', undefined],
      ['view.theme.system', 'theme:system', undefined],
      ['view.language.zh-CN', 'language:zh-CN', undefined],
      ['view.zoomIn', 'zoom:in', 'CmdOrCtrl+='],
      ['view.zoomOut', 'zoom:out', 'CmdOrCtrl+-'],
      ['view.zoomReset', 'zoom:reset', 'CmdOrCtrl+0'],
      ['help.format', 'help:format', undefined],
      ['help.about', 'about', undefined],
    ]
    for (const [id, command, accelerator] of expected) {
      m.click(id)
      expect(m.sent.at(-1), id).toEqual([command, undefined])
      expect(m.byId(id).accelerator, id).toBe(accelerator)
    }
    expect(m.sent).toHaveLength(expected.length)
  })

  it('Quit and Reload are the host’s own', () => {
    const m = menu()
    expect(m.byId('file.quit')).toMatchObject({ role: 'quit', accelerator: 'Ctrl+Q' })
    m.click('view.reload')
    expect(m.reloads()).toBe(1)
    expect(m.sent).toEqual([])
    expect(menu({ platform: 'darwin' }).byId('file.quit')).toMatchObject({ role: 'quit', accelerator: 'Cmd+Q' })
  })

  it('Open Recent lists the recent files by id, names told apart by the end of their folder, & escaped', () => {
    const m = menu()
    const items = m.byId('file.openRecent').submenu as MenuItemConstructorOptions[]
    expect(items.map((i) => i.label ?? i.type)).toEqual([
      'city.hscap.gz — monday/city',
      'R&&D.hscap',
      'city.hscap.gz — tuesday/city',
      'separator',
      'Clear Recent',
    ])
    m.click('file.openRecent.2')
    expect(m.sent).toEqual([['openRecent', 'f-3']])
    m.click('file.clearRecent')
    expect(m.cleared()).toBe(1)
  })

  it('an empty Open Recent says so, and cannot be cleared', () => {
    const m = menu({ recent: [] })
    expect(m.byId('file.noRecent')).toMatchObject({ enabled: false, label: 'No Recent Files' })
    expect(m.byId('file.clearRecent').enabled).toBe(false)
  })

  it('theme and language are radio items checked from the settings', () => {
    const m = menu({ theme: 'system', language: 'zh-CN' })
    expect(['light', 'dark', 'system'].map((t) => m.byId(`view.theme.${t}`).checked)).toEqual([false, false, true])
    expect(m.byId('view.language.zh-CN')).toMatchObject({ type: 'radio', checked: true, label: '简体中文' })
    expect(m.byId('view.language.en')).toMatchObject({ checked: false, label: 'English' })
  })

  it('labels follow the language', () => {
    const m = menu({ language: 'zh-CN' })
    expect(m.byId('file').label).toBe('文件(&F)')
    expect(m.byId('file.open').label).toBe('打开…')
    expect(m.byId('view.theme.dark').label).toBe('深色')
  })

  it('developer tools only in a checkout', () => {
    expect(menu().all.some((i) => i.role === 'toggleDevTools')).toBe(false)
    expect(menu({ devTools: true }).byId('view.devTools').role).toBe('toggleDevTools')
  })

  it('theme and language commands change the settings, the others do not', () => {
    expect(settingsPatchFor('theme:light')).toEqual({ theme: 'light' })
    expect(settingsPatchFor('language:zh-CN')).toEqual({ language: 'zh-CN' })
    expect(settingsPatchFor('zoom:in')).toBeNull()
    expect(settingsPatchFor('open')).toBeNull()
    expect(menuLabel('A&B&&C')).toBe('A&&B&&&&C')
  })
})

describe('window placement', () => {
  const primary = { x: 0, y: 0, width: 1920, height: 1040 }
  const left = { x: -2560, y: 0, width: 2560, height: 1400 }

  it('first run: the default size, centred', () => {
    expect(restoreWindow(null, [primary])).toEqual({ width: 1440, height: 900, maximized: false })
    // a small screen: no larger than its work area
    expect(restoreWindow(null, [{ x: 0, y: 0, width: 1280, height: 720 }])).toEqual({ width: 1280, height: 720, maximized: false })
  })

  it('where it was, on the second screen, maximized or not', () => {
    const saved = { x: -2400, y: 100, width: 2000, height: 1200, maximized: true }
    expect(restoreWindow(saved, [primary, left])).toEqual(saved)
  })

  it('spanning two screens stays as it was', () => {
    const saved = { x: -1000, y: 50, width: 2500, height: 1000, maximized: false }
    expect(restoreWindow(saved, [primary, left])).toEqual(saved)
  })

  it('on a screen that is gone: centred on the primary, no larger than it', () => {
    const saved = { x: -2400, y: 100, width: 2000, height: 1200, maximized: false }
    expect(restoreWindow(saved, [primary])).toEqual({ width: 1920, height: 1040, maximized: false })
  })

  it('with only a sliver of title bar on screen: centred', () => {
    // title bar spans x −1400 … 0 at y 10 … 42: 0 px on the primary; at x −1380, 20 px × 32 = 640 < 64 × 32
    expect(restoreWindow({ x: -1400, y: 10, width: 1400, height: 800, maximized: false }, [primary]).x).toBeUndefined()
    expect(restoreWindow({ x: -1380, y: 10, width: 1400, height: 800, maximized: false }, [primary]).x).toBeUndefined()
    // at x −1300, 100 px × 32 = 3200 ≥ 2048: kept
    expect(restoreWindow({ x: -1300, y: 10, width: 1400, height: 800, maximized: false }, [primary]).x).toBe(-1300)
  })

  it('never smaller than the minimum', () => {
    expect(restoreWindow({ x: 10, y: 10, width: 200, height: 100, maximized: false }, [primary])).toEqual({
      x: 10,
      y: 10,
      width: 800,
      height: 500,
      maximized: false,
    })
  })
})

describe('the app:// scheme', () => {
  const dir = '/opt/HeapScope/resources/app.asar/out/renderer'

  it('names files inside the built renderer only', () => {
    expect(resolveAppUrl('app://heapscope/', dir)).toBe(`${dir}/index.html`)
    expect(resolveAppUrl('app://heapscope/index.html#/compare', dir)).toBe(`${dir}/index.html`)
    expect(resolveAppUrl('app://heapscope/assets/index-1.js?v=2', dir)).toBe(`${dir}/assets/index-1.js`)
    // the URL parser already folds dot segments: these stay inside (and name files that are not there)
    expect(resolveAppUrl('app://heapscope/../../../../etc/passwd', dir)).toBe(`${dir}/etc/passwd`)
    expect(resolveAppUrl('app://heapscope/%2e%2e/%2e%2e/etc/passwd', dir)).toBe(`${dir}/etc/passwd`)
    for (const url of [
      // encoded slashes decode after parsing: they would climb out, so they name nothing
      'app://heapscope/assets/..%2f..%2f..%2fsecret',
      'app://heapscope/..%2f..%2f..%2f..%2fetc/passwd',
      'app://heapscope/..%5c..%5csecret',
      'app://heapscope/index.html%00.js',
      'app://heapscope/%E0%A4%A',
      'app://other/index.html',
      'app://heapscope.evil/index.html',
      'file:///etc/passwd',
      'https://heapscope/index.html',
      'not a url',
    ]) {
      expect(resolveAppUrl(url, dir), url).toBeNull()
    }
  })

  it('the page comes with the desktop CSP: no inline script, no eval, no socket, no remote anything', () => {
    const headers = appResponseHeaders(`${dir}/index.html`)
    expect(headers['content-security-policy']).toBe(DESKTOP_CSP)
    expect(DESKTOP_CSP).toContain("default-src 'none'")
    expect(DESKTOP_CSP).toContain("script-src 'self';")
    expect(DESKTOP_CSP).toContain("connect-src 'self';")
    expect(DESKTOP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|ws:|https?:/)
    expect(appResponseHeaders(`${dir}/assets/a.js`)).toEqual({
      'content-type': 'text/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
  })

  it('trusts the app origin and nothing like it', () => {
    expect(isAppUrl('app://heapscope/index.html')).toBe(true)
    expect(isAppUrl('app://heapscope.evil/index.html')).toBe(false)
    expect(isAppUrl('app://heapscope')).toBe(false)
    expect(isAppUrl('file:///index.html')).toBe(false)
  })
})

describe('captures on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-args-'))
  for (const f of ['a.hscap', 'b.hscap.gz', 'dump.json', 'trace.rmv', 'notes.txt']) writeFileSync(join(dir, f), 'x')

  it('keeps existing capture files, resolved against the launch’s folder; drops switches, folders and others', () => {
    const argv = ['/opt/HeapScope/heapscope', '--no-sandbox', '.', 'a.hscap', join(dir, 'b.hscap.gz'), 'notes.txt', 'missing.hscap', '--inspect=0', 'dump.json', 'trace.rmv', 'a.hscap']
    expect(captureArgs(argv, dir)).toEqual([join(dir, 'a.hscap'), join(dir, 'b.hscap.gz'), join(dir, 'dump.json'), join(dir, 'trace.rmv')])
  })

  it('never takes the executable itself, nor a folder named like a capture', () => {
    const folder = mkdtempSync(join(tmpdir(), 'x-')) + '.hscap'
    expect(captureArgs([join(dir, 'a.hscap'), folder], dir)).toEqual([])
  })

  it('takes the file after --follow to follow, not to open, whether it exists yet or not', () => {
    const argv = ['/opt/HeapScope/heapscope', 'a.hscap', '--follow', 'b.hscap.gz', 'dump.json']
    expect(captureArgs(argv, dir)).toEqual([join(dir, 'a.hscap'), join(dir, 'dump.json')])
    expect(followArg(argv, dir)).toBe(join(dir, 'b.hscap.gz'))
    expect(followArg(['heapscope', '--follow=later/live.hscap'], dir)).toBe(join(dir, 'later/live.hscap'))
    expect(followArg(['heapscope', '--follow', '/abs/live.hscap'], dir)).toBe('/abs/live.hscap')
    expect(followArg(['heapscope', 'a.hscap', '--follow'], dir)).toBeUndefined()
    expect(followArg(['heapscope', 'a.hscap'], dir)).toBeUndefined()
  })
})
