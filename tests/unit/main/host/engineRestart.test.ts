/**
 * The engine dies: pending calls fail with why, the renderer is told (with the file to open again), the next
 * call starts a new engine, and nothing the host keeps is lost — offered files, recent files, settings.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createHostContext, type HostContextHandle } from '../../../../src/main/host/context'
import { createHandlers } from '../../../../src/main/host/handlers'
import { EVENTS, type EngineStopped, type LoadOutcome } from '../../../../src/shared/ipc'

const WORKER = fileURLToPath(new URL('./engineWorker.boot.mjs', import.meta.url))
const DEMO = resolve('resources/demo/demo.hscap.gz')

let context: HostContextHandle | undefined
afterEach(async () => {
  await context?.dispose()
  context = undefined
})

describe('the engine dies, the host goes on', () => {
  it('tells the renderer, restarts on the next call, and keeps files, recent files and settings', async () => {
    const pushed: [string, unknown][] = []
    const restarted: EngineStopped[] = []
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-restart-'))
    context = createHostContext({
      host: 'browser',
      workerPath: WORKER,
      args: [],
      nativeDialogs: false,
      push: (event, payload) => pushed.push([event, payload]),
      settingsPath: join(dir, 'settings.json'),
      demos: [{ path: DEMO }],
      engineRestarted: (_error, info) => restarted.push(info),
    })
    const handlers = createHandlers(context)
    const demoId = context.files.entries()[0].fileId
    await handlers.updateSettings({ theme: 'light', configOverrides: { poolSize: '64MiB' } })

    const first = context.engine()
    const outcome = (await handlers.openCapture({ fileId: demoId, loadId: 'load-1' })) as LoadOutcome
    expect(outcome.ok).toBe(true)
    const runId = outcome.ok ? outcome.summary.runId : ''
    expect((await first.summary(runId)).frames).toBeGreaterThan(100)

    // a call in flight when the engine dies fails with why
    const dying = first.load('die-now', { kind: 'stream', name: 'crash.hscap', bytes: 1 })
    await expect(dying).rejects.toThrow('the engine stopped (exit code 70)')
    await expect.poll(() => restarted.length).toBe(1)

    const info = { message: expect.stringContaining('exit code 70') as unknown as string, reopen: demoId }
    expect(restarted).toEqual([info])
    expect(pushed.filter(([event]) => event === EVENTS.engineStopped)).toEqual([[EVENTS.engineStopped, info]])
    // the dead engine's runs are gone with it; the old engine refuses, a new one answers
    await expect(first.summary(runId)).rejects.toThrow('exit code 70')
    const second = context.engine()
    expect(second).not.toBe(first)
    await expect(second.summary(runId)).rejects.toThrow(`no run ${runId}`)

    // nothing else is lost: a reload opens the same capture again, recent files and settings are there
    expect(context.info().openAtStart).toBe(demoId)
    expect(((await handlers.recentFiles(undefined)) as { fileId: string }[]).map((e) => e.fileId)).toEqual([demoId])
    expect(await handlers.settings(undefined)).toEqual({ version: 2, theme: 'light', language: 'en', configOverrides: { poolSize: '64MiB' } })
    const again = (await handlers.openCapture({ fileId: demoId, loadId: 'load-2' })) as LoadOutcome
    expect(again.ok && again.summary.frames).toBe(outcome.ok && outcome.summary.frames)
  })

  it('quitting is not a death: nothing is told', async () => {
    const pushed: string[] = []
    context = createHostContext({
      host: 'browser',
      workerPath: WORKER,
      args: [],
      nativeDialogs: false,
      push: (event) => pushed.push(event),
      demos: [],
    })
    await expect(context.engine().summary('run-9')).rejects.toThrow('no run run-9')
    await context.dispose()
    context = undefined
    await new Promise((r) => setTimeout(r, 200))
    expect(pushed).toEqual([])
  })
})
