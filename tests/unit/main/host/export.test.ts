/**
 * Export… end to end through the handlers and a real engine: the desktop writes where the save dialog said (and
 * nowhere else, not even half a file when it fails), the browser host gets the bytes; what was written reads
 * back as the same capture, or as the frame range asked for.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { FileRegistry } from '../../../../src/main/host/files'
import { createHandlers, type HostContext } from '../../../../src/main/host/handlers'
import { SettingsStore } from '../../../../src/main/host/settings'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import type { AppInfo, ExportOutcome, LoadOutcome } from '../../../../src/shared/ipc'

const DEMO = 'resources/demo/demo.hscap.gz'

describe('export through the handlers', () => {
  const engine = new LocalEngine()
  const files = new FileRegistry()
  const demoId = files.add(DEMO, 'demo').fileId
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-export-'))
  const chosen: (string | null)[] = []
  const suggested: string[] = []
  const ctx: HostContext = {
    engine: () => engine,
    files,
    info: () => ({}) as AppInfo,
    progress: () => undefined,
    playback: () => undefined,
    settings: new SettingsStore(),
  }
  const handlers = createHandlers(ctx)
  let runId = ''
  let frames = 0
  let records = 0

  beforeAll(async () => {
    const outcome = (await handlers.openCapture({ fileId: demoId, loadId: 'load-1' })) as LoadOutcome
    if (!outcome.ok) throw new Error(outcome.error.message)
    runId = outcome.summary.runId
    frames = outcome.summary.frames
    records = outcome.summary.records
  })

  const desktop = () => {
    ctx.showSaveDialog = async (name) => {
      suggested.push(name)
      return chosen.shift() ?? null
    }
  }

  it('desktop: the whole capture, gzip, where the dialog said; it reads back the same', async () => {
    desktop()
    const path = join(dir, 'whole.hscap.gz')
    chosen.push(path)
    const outcome = (await handlers.exportCapture({ runId, gzip: true })) as ExportOutcome
    expect(suggested.at(-1)).toBe('demo.hscap.gz')
    expect(outcome).toMatchObject({ kind: 'saved', name: 'whole.hscap.gz' })
    const back = await loadCaptureFile(path)
    expect(back.store.frames.length).toBe(frames)
    expect(back.store.records.length).toBe(records)
    expect(outcome.kind === 'saved' && outcome.bytes).toBeGreaterThan(0)
    // nothing else was left in the folder
    expect(readdirSync(dir)).toEqual(['whole.hscap.gz'])
  })

  it('desktop: a frame range is a capture of its own, of exactly those frames', async () => {
    desktop()
    const path = join(dir, 'range.hscap')
    chosen.push(path)
    await handlers.exportCapture({ runId, from: 40, to: 60, gzip: false })
    expect(suggested.at(-1)).toBe('demo.frames-40-60.hscap')
    const back = await loadCaptureFile(path)
    // frames 40 … 59: 60 − 40 = 20
    expect(back.store.frames.length).toBe(20)
    expect(back.error).toBeUndefined()
    expect(back.store.warnings.counts).toEqual({})
  })

  it('desktop: a cancelled dialog writes nothing', async () => {
    desktop()
    const before = readdirSync(dir).sort()
    expect(await handlers.exportCapture({ runId, gzip: true })).toEqual({ kind: 'cancelled' })
    expect(readdirSync(dir).sort()).toEqual(before)
  })

  it('desktop: a write that fails leaves no half file, and says why', async () => {
    desktop()
    const target = join(dir, 'no-such-folder', 'x.hscap')
    chosen.push(target)
    await expect(handlers.exportCapture({ runId, gzip: false })).rejects.toThrow(/ENOENT/)
    expect(existsSync(target)).toBe(false)
    expect(existsSync(`${target}.part`)).toBe(false)
  })

  it('browser: the bytes come back for a download and read back the same', async () => {
    ctx.showSaveDialog = undefined
    const outcome = (await handlers.exportCapture({ runId, gzip: true })) as ExportOutcome
    if (outcome.kind !== 'download') throw new Error(`a download expected, got ${outcome.kind}`)
    expect(outcome.name).toBe('demo.hscap.gz')
    // gzip's magic number, then a capture
    expect([outcome.data[0], outcome.data[1]]).toEqual([0x1f, 0x8b])
    expect(gunzipSync(outcome.data).toString('utf8', 0, 40)).toMatch(/^\{/)
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-download-')), outcome.name)
    writeFileSync(path, outcome.data)
    expect((await loadCaptureFile(path)).store.records.length).toBe(records)
  })

  it('refuses a run that is not there', async () => {
    ctx.showSaveDialog = undefined
    await expect(handlers.exportCapture({ runId: 'run-99', gzip: false })).rejects.toThrow('no run run-99')
  })
})
