/** Settings and recent files on disk: versions migrated, a corrupt file replaced, a newer one left alone. */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileRegistry } from '../../../../src/main/host/files'
import { userDataDir } from '../../../../src/main/host/paths'
import { MAX_RECENT, pathKey, RecentFiles } from '../../../../src/main/host/recent'
import { MIGRATIONS, parseSettings, SETTINGS_VERSION, SettingsStore } from '../../../../src/main/host/settings'

function settingsPath(content?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-settings-'))
  const path = join(dir, 'settings.json')
  if (content !== undefined) writeFileSync(path, content)
  return path
}

const onDisk = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>

describe('settings versions', () => {
  it('is at version 2, with a migration for each version before it', () => {
    expect(SETTINGS_VERSION).toBe(2)
    expect(Object.keys(MIGRATIONS).map(Number)).toEqual([0, 1])
  })

  it('0 → 1: an unversioned file keeps the keys version 1 knows, drops the rest', () => {
    expect(MIGRATIONS[0]({ theme: 'light', language: 'zh-CN', configOverrides: { a: '1' }, colour: 'red' })).toEqual({
      theme: 'light',
      language: 'zh-CN',
      configOverrides: { a: '1' },
    })
  })

  it('1 → 2: window bounds and recent files start empty', () => {
    expect(MIGRATIONS[1]({ version: 1, theme: 'dark' })).toEqual({ version: 1, theme: 'dark', window: null, recent: [] })
  })

  it('reads an unversioned (v0) file through both migrations, and writes it back at v2', () => {
    const path = settingsPath(JSON.stringify({ theme: 'light', language: 'zh-CN', stale: true }))
    const store = new SettingsStore(path)
    expect(store.problem).toBeUndefined()
    expect(store.get()).toEqual({ version: 2, theme: 'light', language: 'zh-CN', configOverrides: {} })
    expect(onDisk(path)).toEqual({ version: 2, theme: 'light', language: 'zh-CN', configOverrides: {}, window: null, recent: [] })
  })

  it('reads the walking skeleton’s v1 file, overrides and all', () => {
    const v1 = { version: 1, theme: 'system', language: 'en', configOverrides: { poolSize: '64MiB' } }
    const parsed = parseSettings(v1)
    expect(parsed).toEqual({
      ok: true,
      migratedFrom: 1,
      settings: { ...v1, version: 2, window: null, recent: [] },
    })
  })

  it('a current file is read as it is, with no migration', () => {
    const doc = {
      version: 2,
      theme: 'dark',
      language: 'en',
      configOverrides: {},
      window: { x: 10, y: 20, width: 1000, height: 700, maximized: true },
      recent: [{ path: '/captures/a.hscap', openedAt: 5 }],
    }
    expect(parseSettings(doc)).toEqual({ ok: true, settings: doc })
  })
})

describe('a bad settings file is replaced, never fatal', () => {
  for (const [why, content] of [
    ['not JSON', '{"version": 2, "theme": '],
    ['not an object', '[1, 2, 3]'],
    ['an unknown theme', JSON.stringify({ version: 2, theme: 'neon', language: 'en', configOverrides: {}, window: null, recent: [] })],
    ['a version that is no number', JSON.stringify({ version: 'two' })],
    ['a negative version', JSON.stringify({ version: -1 })],
    ['a window too small to see', JSON.stringify({ version: 2, theme: 'dark', language: 'en', configOverrides: {}, window: { width: 1, height: 1, maximized: false }, recent: [] })],
    ['empty', ''],
  ] as const) {
    it(why, () => {
      const path = settingsPath(content)
      const store = new SettingsStore(path)
      expect(store.problem).toMatch(/replaced by the defaults/)
      expect(store.get()).toEqual({ version: 2, theme: 'dark', language: 'en', configOverrides: {} })
      // the bad file kept aside, a good one in its place
      expect(readFileSync(`${path}.corrupt`, 'utf8')).toBe(content)
      expect(onDisk(path).version).toBe(2)
      // and it works from then on
      store.update({ theme: 'light' })
      expect(new SettingsStore(path).get().theme).toBe('light')
    })
  }

  it('a file from a newer HeapScope is left as it is, and the defaults used', () => {
    const newer = JSON.stringify({ version: 3, theme: 'light', layout: 'tabs' })
    const path = settingsPath(newer)
    const store = new SettingsStore(path)
    expect(store.problem).toMatch(/version 3 is newer/)
    expect(store.get().theme).toBe('dark')
    store.update({ theme: 'system' })
    expect(store.get().theme).toBe('system')
    expect(readFileSync(path, 'utf8')).toBe(newer)
    expect(existsSync(`${path}.corrupt`)).toBe(false)
  })

  it('a folder that cannot be written costs the session’s settings on disk, not the session', () => {
    if (process.getuid?.() === 0) return // root writes anywhere: nothing to check
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-ro-'))
    const locked = join(dir, 'locked')
    mkdirSync(locked)
    chmodSync(locked, 0o500)
    const store = new SettingsStore(join(locked, 'settings.json'))
    expect(store.update({ language: 'zh-CN' }).language).toBe('zh-CN')
    expect(store.problem).toMatch(/in memory only/)
    chmodSync(locked, 0o700)
  })

  it('keeps window bounds and ignores impossible ones', () => {
    const path = settingsPath()
    const store = new SettingsStore(path)
    store.setWindowState({ x: -1920, y: 0, width: 1600, height: 1000, maximized: false })
    store.setWindowState({ x: 0, y: 0, width: 5, height: 5, maximized: false })
    expect(new SettingsStore(path).windowState()).toEqual({ x: -1920, y: 0, width: 1600, height: 1000, maximized: false })
  })
})

describe('recent files', () => {
  function setup(existing: (path: string) => boolean = () => true, platform: NodeJS.Platform = 'linux') {
    const path = settingsPath()
    const store = new SettingsStore(path)
    const files = new FileRegistry()
    let clock = 1000
    const recent = new RecentFiles(store, files, { exists: existing, now: () => clock++, platform })
    return { path, store, files, recent }
  }

  it('newest first, one entry per file, offered by id with origin recent', () => {
    const { recent, files, path } = setup()
    recent.add('/c/a.hscap')
    recent.add('/c/b.hscap.gz')
    recent.add('/c/a.hscap')
    const list = recent.list()
    expect(list.map((e) => e.name)).toEqual(['a.hscap', 'b.hscap.gz'])
    expect(list.every((e) => e.origin === 'recent')).toBe(true)
    expect(list[0].description).toBe('/c')
    expect(files.path(list[1].fileId)).toBe('/c/b.hscap.gz')
    // persisted with when each was opened: a at 1002 (its second time), b at 1001
    expect(onDisk(path).recent).toEqual([
      { path: '/c/a.hscap', openedAt: 1002 },
      { path: '/c/b.hscap.gz', openedAt: 1001 },
    ])
  })

  it(`offers at most ${MAX_RECENT}, and leaves out files that are gone without forgetting them`, () => {
    const gone = new Set(['/c/3.hscap'])
    const { recent, store } = setup((p) => !gone.has(p))
    for (let i = 0; i < 14; i++) recent.add(`/c/${i}.hscap`)
    // newest first: 13 … 0; 3 is gone; the first ten present are 13 … 4 and 2
    expect(recent.list().map((e) => e.name)).toEqual(['13', '12', '11', '10', '9', '8', '7', '6', '5', '4'].map((n) => `${n}.hscap`))
    expect(store.recent()).toHaveLength(14)
    gone.clear()
    expect(recent.list().map((e) => e.name)).toContain('4.hscap')
  })

  it('on Windows, two spellings of one path are one recent file', () => {
    expect(pathKey('C:\\Captures\\A.hscap', 'win32')).toBe(pathKey('c:\\captures\\a.HSCAP', 'win32'))
    expect(pathKey('/c/A.hscap', 'linux')).not.toBe(pathKey('/c/a.hscap', 'linux'))
  })

  it('tells its listener when the list changes, and clears', () => {
    const { recent } = setup()
    let changes = 0
    recent.onChange = () => changes++
    recent.add('/c/a.hscap')
    recent.clear()
    expect(changes).toBe(2)
    expect(recent.list()).toEqual([])
  })

  it('survives a restart', () => {
    const { recent, path } = setup()
    recent.add('/c/a.hscap')
    const again = new RecentFiles(new SettingsStore(path), new FileRegistry(), { exists: () => true })
    expect(again.list().map((e) => e.name)).toEqual(['a.hscap'])
  })
})

describe('the user data folder without Electron', () => {
  it('is where Electron would put it, per platform', () => {
    expect(userDataDir({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.config/HeapScope')
    expect(userDataDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/HeapScope')
    expect(userDataDir({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Application Support/HeapScope')
    expect(userDataDir({ HEAPSCOPE_USER_DATA: '/tmp/hs' }, 'linux')).toBe('/tmp/hs')
  })
})
