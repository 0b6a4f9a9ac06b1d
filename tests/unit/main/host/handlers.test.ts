/**
 * The handlers both hosts run: every payload is checked before anything reaches the engine, files are opened
 * only by the ids the host offered, and exports go only where the user chose (or back as bytes).
 */
import fc from 'fast-check'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createHandlers, exportName } from '../../../../src/main/host/handlers'
import { MAX_CHUNK_BYTES, PayloadError, schemas, type HandlerName } from '../../../../src/main/host/schemas'
import { CHANNELS } from '../../../../src/shared/ipc'
import { okOutcome, testContext } from './stubs'
import { runs } from '../../../properties'

const huge = 'x'.repeat(1_000_000)
const loadId = 'load-1'

/** Payloads each handler must refuse, with why. */
const BAD: Partial<Record<HandlerName, [string, unknown][]>> = {
  appInfo: [
    ['an object', { path: '/etc/passwd' }],
    ['a string', 'x'],
  ],
  openCapture: [
    ['a bare string', 'f-abc'],
    ['a number', 42],
    ['null', null],
    ['an array', ['f-abc', loadId]],
    ['a numeric file id', { fileId: 1, loadId }],
    ['an absolute path as file id', { fileId: '/etc/passwd', loadId }],
    ['a relative path as file id', { fileId: '../../etc/passwd', loadId }],
    ['a Windows path as file id', { fileId: 'C:\\Windows\\win.ini', loadId }],
    ['a file URL as file id', { fileId: 'file:///etc/passwd', loadId }],
    ['a huge file id', { fileId: huge, loadId }],
    ['a path beside the id', { fileId: 'f-abc', loadId, path: '/etc/passwd' }],
    ['no load id', { fileId: 'f-abc' }],
    ['an unknown file id', { fileId: 'f-neverOffered1', loadId }],
    ['an empty file id', { fileId: '', loadId }],
  ],
  openCaptureDialog: [
    ['an object with a path', { path: '/etc/passwd' }],
    ['a path', '/etc/passwd'],
    ['a huge id', huge],
  ],
  beginUpload: [
    ['negative bytes', { loadId, name: 'a.hscap', bytes: -1 }],
    ['bytes past 2^53', { loadId, name: 'a.hscap', bytes: 2 ** 60 }],
    ['fractional bytes', { loadId, name: 'a.hscap', bytes: 1.5 }],
    ['a huge name', { loadId, name: huge, bytes: 10 }],
    ['an empty name', { loadId, name: '', bytes: 10 }],
    ['a string for bytes', { loadId, name: 'a.hscap', bytes: '10' }],
  ],
  uploadChunk: [
    ['numbers instead of bytes', { loadId, data: [1, 2, 3] }],
    ['a string instead of bytes', { loadId, data: 'abc' }],
    ['a chunk over the limit', { loadId, data: new Uint8Array(MAX_CHUNK_BYTES + 1) }],
  ],
  endUpload: [['a number', 7]],
  cancelLoad: [['an object', { loadId }]],
  closeRun: [['a huge id', huge]],
  rerun: [
    ['65 config keys', { runId: 'run-1', loadId, config: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 1])) }],
    ['an object value', { runId: 'run-1', loadId, config: { poolSize: { $gt: 1 } } }],
    ['a huge value', { runId: 'run-1', loadId, config: { poolSize: huge } }],
    ['a huge key', { runId: 'run-1', loadId, config: { [huge]: 1 } }],
  ],
  series: [
    ['no series', { runId: 'run-1', series: [], from: 0, to: 10, resolution: 100 }],
    ['65 series', { runId: 'run-1', series: Array.from({ length: 65 }, (_, i) => `s${i}`), from: 0, to: 10, resolution: 100 }],
    ['a control character in a name', { runId: 'run-1', series: ['a\u0000b'], from: 0, to: 10, resolution: 100 }],
    ['a negative frame', { runId: 'run-1', series: ['s'], from: -1, to: 10, resolution: 100 }],
    ['NaN', { runId: 'run-1', series: ['s'], from: Number.NaN, to: 10, resolution: 100 }],
    ['Infinity', { runId: 'run-1', series: ['s'], from: 0, to: Infinity, resolution: 100 }],
    ['resolution 0', { runId: 'run-1', series: ['s'], from: 0, to: 10, resolution: 0 }],
    ['resolution past the limit', { runId: 'run-1', series: ['s'], from: 0, to: 10, resolution: 1e9 }],
  ],
  snapshot: [
    ['a string blocks flag', { runId: 'run-1', frame: 3, blocks: 'no' }],
    ['a path beside the frame', { runId: 'run-1', frame: 3, path: '/etc/passwd' }],
    ['a negative frame', { runId: 'run-1', frame: -1 }],
  ],
  resources: [
    ['a sort key that is no column', { runId: 'run-1', frame: 0, sort: 'constructor', offset: 0, limit: 10 }],
    ['a page past the limit', { runId: 'run-1', frame: 0, offset: 0, limit: 1e6 }],
    ['a huge name filter', { runId: 'run-1', frame: 0, filter: { name: huge }, offset: 0, limit: 10 }],
    ['an unknown filter key', { runId: 'run-1', frame: 0, filter: { path: '/' }, offset: 0, limit: 10 }],
  ],
  resource: [['a string id', { runId: 'run-1', frame: 0, id: '7' }]],
  residencyEvents: [['a limit past the cap', { runId: 'run-1', from: 0, to: 10, limit: 2e6 }]],
  startPlayback: [['fps 0', { runId: 'run-1', playbackId: 'p', from: 0, to: 10, fps: 0 }]],
  ackPlayback: [['a string frame', { playbackId: 'p', frame: '3' }]],
  updateSettings: [
    ['an unknown theme', { theme: 'neon' }],
    ['an unknown language', { language: 'fr' }],
    ['window bounds (host-only)', { window: { width: 10, height: 10 } }],
    ['recent files (host-only)', { recent: [{ path: '/etc/passwd', openedAt: 0 }] }],
    ['a version', { version: 99 }],
    ['a huge override', { configOverrides: { poolSize: huge } }],
  ],
  recentFiles: [['an object', { all: true }]],
  clearRecentFiles: [['a path', '/home']],
  exportCapture: [
    ['no gzip flag', { runId: 'run-1' }],
    ['a destination path', { runId: 'run-1', gzip: true, path: '/etc/cron.d/x' }],
    ['a destination file', { runId: 'run-1', gzip: true, file: '../../x.hscap' }],
    ['from after to', { runId: 'run-1', gzip: false, from: 20, to: 10 }],
    ['a run id that is a path', { runId: '../run-1', gzip: false }],
    ['a string gzip flag', { runId: 'run-1', gzip: 'yes' }],
  ],
  followCapture: [
    ['a path as file id', { fileId: '/var/log/app.hscap', loadId }],
    ['a path beside the id', { fileId: 'f-abc', loadId, path: '/etc/passwd' }],
    ['an unknown file id', { fileId: 'f-neverOffered1', loadId }],
  ],
  stopFollowing: [['an object', { loadId }]],
  recordInfo: [['a folder to look in', { layerDir: '/tmp' }]],
  startRecording: [
    ['no program', { loadId, program: '', args: [], stacks: false }],
    ['a NUL in the program', { loadId, program: '/usr/bin/vkcube\0', args: [], stacks: false }],
    ['a NUL in an argument', { loadId, program: 'vkcube', args: ['--c', '4\x000'], stacks: false }],
    ['arguments as one string', { loadId, program: 'vkcube', args: '--c 400', stacks: false }],
    ['1025 arguments', { loadId, program: 'vkcube', args: Array.from({ length: 1025 }, () => 'x'), stacks: false }],
    ['an output that is not a .hscap file', { loadId, program: 'vkcube', args: [], stacks: false, output: '/home/me/.bashrc' }],
    ['frames from something else', { loadId, program: 'vkcube', args: [], stacks: false, framesFrom: 'vsync' }],
    ['an environment of its own', { loadId, program: 'vkcube', args: [], stacks: false, env: { LD_PRELOAD: '/tmp/x.so' } }],
    ['no stacks flag', { loadId, program: 'vkcube', args: [] }],
  ],
  stopRecording: [['a number', 7]],
  openHistory: [
    ['a number', 7],
    ['an object', { path: '/ci/runs.duckdb' }],
    ['a control character', '/ci/runs\u0000.duckdb'],
    ['a huge path', huge],
    ['an empty path', ''],
  ],
  openHistoryDialog: [['a path', '/ci/runs.duckdb']],
  historyTrend: [
    ['an unknown metric', { historyId: 'history-1', metric: 'size' }],
    ['an unknown grouping', { historyId: 'history-1', metric: 'peak', by: 'pool' }],
    ['SQL beside the query', { historyId: 'history-1', metric: 'peak', sql: 'DROP TABLE runs' }],
    ['a history id that is a path', { historyId: '/ci/runs.duckdb', metric: 'peak' }],
    ['17 labels', { historyId: 'history-1', metric: 'peak', labels: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }],
    ['a huge label value', { historyId: 'history-1', metric: 'peak', labels: { map: huge } }],
    ['a label value that is no string', { historyId: 'history-1', metric: 'peak', labels: { map: 1 } }],
  ],
  historyRun: [
    ['a string run id', { historyId: 'history-1', runId: '3' }],
    ['run 0', { historyId: 'history-1', runId: 0 }],
    ['a fractional run id', { historyId: 'history-1', runId: 1.5 }],
    ['a path beside the run', { historyId: 'history-1', runId: 3, path: '/etc/passwd' }],
  ],
  closeHistory: [['a huge id', huge]],
}

describe('handlers refuse bad payloads before the engine sees them', () => {
  for (const [name, cases] of Object.entries(BAD) as [HandlerName, [string, unknown][]][]) {
    for (const [why, payload] of cases) {
      it(`${name}: ${why}`, async () => {
        const t = testContext()
        const handlers = createHandlers(t.ctx)
        const before = JSON.stringify(t.settings.document())
        await expect(handlers[name](payload)).rejects.toThrow(PayloadError)
        expect(t.calls).toEqual([])
        expect(JSON.stringify(t.settings.document())).toBe(before)
      })
    }
  }

  it('every Api channel has a schema and a handler', () => {
    const handlers = createHandlers(testContext().ctx)
    for (const method of Object.keys(CHANNELS)) {
      expect(Object.hasOwn(schemas, method), method).toBe(true)
      expect(typeof handlers[method as HandlerName], method).toBe('function')
    }
  })

  it('any payload a schema refuses is refused, with nothing reaching the engine (property)', async () => {
    const names = Object.keys(schemas) as HandlerName[]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.anything({ withTypedArray: true, withNullPrototype: true }), async (name, payload) => {
        fc.pre(!schemas[name].safeParse(payload).success)
        const t = testContext()
        await expect(createHandlers(t.ctx)[name](payload)).rejects.toThrow(PayloadError)
        expect(t.calls).toEqual([])
      }),
      { numRuns: runs(400) },
    )
  })

  it('the engine is only ever asked to read a file the host offered (property)', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    const fileId = fc.oneof(
      fc.constant(t.offeredId),
      fc.constant(t.offeredPath),
      fc.constantFrom('/etc/passwd', '../x', 'f-AAAAAAAAAAAA', '..', 'f-' + t.offeredId.slice(2).toUpperCase()),
      fc.string({ maxLength: 80 }),
    )
    await fc.assert(
      fc.asyncProperty(fileId, fc.string({ minLength: 1, maxLength: 20 }), async (id, load) => {
        await handlers.openCapture({ fileId: id, loadId: load }).catch(() => undefined)
      }),
      { numRuns: runs(300) },
    )
    const loads = t.calls.filter((c) => c.method === 'load')
    expect(loads.length).toBeGreaterThan(0)
    for (const call of loads) expect(call.args[1]).toEqual({ kind: 'file', path: t.offeredPath })
  })
})

describe('handlers with good payloads', () => {
  it('opens an offered file by id, and it becomes a recent file', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    const outcome = await handlers.openCapture({ fileId: t.offeredId, loadId })
    expect(outcome).toEqual(okOutcome())
    expect(t.calls).toEqual([{ method: 'load', args: [loadId, { kind: 'file', path: t.offeredPath }, t.ctx.progress] }])
    expect(t.opened).toEqual([t.offeredPath])
    const recent = (await handlers.recentFiles(undefined)) as { fileId: string; origin: string }[]
    expect(recent).toHaveLength(1)
    expect(recent[0]).toMatchObject({ fileId: t.offeredId, origin: 'recent', name: 'offered.hscap' })
    await handlers.clearRecentFiles(null)
    expect(await handlers.recentFiles(undefined)).toEqual([])
  })

  it('a failed load does not become a recent file', async () => {
    const t = testContext({ load: () => ({ ok: false, error: { file: 'x', message: 'bad', line: 3, byteOffset: 9, expected: '' } }) })
    await createHandlers(t.ctx).openCapture({ fileId: t.offeredId, loadId })
    expect(t.opened).toEqual([])
    expect(t.recent.list()).toEqual([])
  })

  it('the open dialog offers what the user chose, and nothing when cancelled or absent', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    expect(await handlers.openCaptureDialog(loadId)).toBeNull()
    t.ctx.showOpenDialog = async () => null
    expect(await handlers.openCaptureDialog(loadId)).toBeNull()
    expect(t.calls).toEqual([])
    t.ctx.showOpenDialog = async () => t.offeredPath
    await handlers.openCaptureDialog(loadId)
    expect(t.calls.map((c) => c.args[1])).toEqual([{ kind: 'file', path: t.offeredPath }])
  })

  it('settings: a patch is kept, and the host-only parts never go to the renderer', async () => {
    const t = testContext()
    const handlers = createHandlers(t.ctx)
    const next = await handlers.updateSettings({ theme: 'light', configOverrides: { poolSize: '64MiB' } })
    expect(next).toEqual({ version: 2, theme: 'light', language: 'en', configOverrides: { poolSize: '64MiB' } })
    expect(await handlers.settings(undefined)).toEqual(next)
    expect(t.calls).toEqual([])
  })
})

describe('history', () => {
  const info = { historyId: 'history-1', name: 'runs.duckdb', runs: 2, builds: 2, labels: [] }

  it('browser host: opens a history by the path typed in the page, resolved', async () => {
    const t = testContext({ openHistory: () => info })
    expect(await createHandlers(t.ctx).openHistory('runs.duckdb')).toEqual(info)
    expect(t.calls).toEqual([{ method: 'openHistory', args: [resolve('runs.duckdb')] }])
  })

  it('desktop: refuses a path from the page and opens what its dialog chose', async () => {
    const t = testContext({ openHistory: () => info })
    t.ctx.showHistoryDialog = async () => null
    const handlers = createHandlers(t.ctx)
    await expect(handlers.openHistory('/ci/runs.duckdb')).rejects.toThrow('this host opens histories from its dialog')
    expect(await handlers.openHistoryDialog(undefined)).toBeNull()
    expect(t.calls).toEqual([])
    t.ctx.showHistoryDialog = async () => '/ci/chosen.duckdb'
    expect(await handlers.openHistoryDialog(undefined)).toEqual(info)
    expect(t.calls).toEqual([{ method: 'openHistory', args: ['/ci/chosen.duckdb'] }])
  })

  it('a history’s run becomes a file on offer, opened by its id like any other', async () => {
    const t = testContext({ historyRunPath: () => t.offeredPath.replace('offered', 'nightly') })
    const handlers = createHandlers(t.ctx)
    const entry = (await handlers.historyRun({ historyId: 'history-1', runId: 3 })) as { fileId: string; origin: string; name: string }
    expect(entry).toMatchObject({ origin: 'history', name: 'nightly.hscap' })
    expect(t.calls[0]).toEqual({ method: 'historyRunPath', args: ['history-1', 3] })
    await handlers.openCapture({ fileId: entry.fileId, loadId })
    expect(t.calls[1].args[1]).toEqual({ kind: 'file', path: t.offeredPath.replace('offered', 'nightly') })
  })
})

describe('export', () => {
  it('names the export after the capture and the range', () => {
    expect(exportName('demo.hscap.gz', { gzip: true })).toBe('demo.hscap.gz')
    expect(exportName('demo.hscap.gz', { gzip: false, from: 10, to: 20 })).toBe('demo.frames-10-20.hscap')
    expect(exportName('vma-dump.json', { gzip: true, from: 5 })).toBe('vma-dump.frames-5-end.hscap.gz')
    expect(exportName('a:b*c?.rmv', { gzip: false })).toBe('a_b_c_.hscap')
    expect(exportName('.hscap', { gzip: false })).toBe('capture.hscap')
  })

  it('desktop: writes only where the save dialog said', async () => {
    const t = testContext({ exportCapture: () => ({ bytes: 1234 }) })
    const chosen: string[] = []
    t.ctx.showSaveDialog = async (name) => {
      chosen.push(name)
      return '/home/user/captures/mine.hscap.gz'
    }
    const outcome = await createHandlers(t.ctx).exportCapture({ runId: 'run-1', from: 2, to: 3, gzip: true })
    expect(chosen).toEqual(['offered.frames-2-3.hscap.gz'])
    expect(outcome).toEqual({ kind: 'saved', name: 'mine.hscap.gz', bytes: 1234 })
    expect(t.calls.at(-1)).toEqual({
      method: 'exportCapture',
      args: ['run-1', { from: 2, to: 3, gzip: true }, { kind: 'file', path: '/home/user/captures/mine.hscap.gz' }],
    })
  })

  it('desktop: a cancelled save dialog writes nothing', async () => {
    const t = testContext({ exportCapture: () => ({ bytes: 1 }) })
    t.ctx.showSaveDialog = async () => null
    expect(await createHandlers(t.ctx).exportCapture({ runId: 'run-1', gzip: false })).toEqual({ kind: 'cancelled' })
    expect(t.calls.map((c) => c.method)).toEqual(['summary'])
  })

  it('browser: the bytes go back to the page for a download', async () => {
    const data = new Uint8Array([1, 2, 3])
    const t = testContext({ exportCapture: () => ({ bytes: 3, data }) })
    const outcome = await createHandlers(t.ctx).exportCapture({ runId: 'run-1', gzip: false })
    expect(outcome).toEqual({ kind: 'download', name: 'offered.hscap', data })
    expect(t.calls.at(-1)?.args[2]).toEqual({ kind: 'bytes' })
  })
})
