/**
 * Live capture on the host: a program started as the capture layer would be (its capture file named in
 * HEAPSCOPE_CAPTURE_FILE), followed while it writes, Stop ending it, its exit said, and plain errors when the layer
 * is not built or the program cannot start. The program here is a stand-in that writes a capture a frame at a time
 * (tests/e2e/appendCapture.mjs), so these run where no Vulkan driver is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runGen } from '../../../../src/main/cli/gen'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { captureName, Recordings } from '../../../../src/main/host/record'
import { LAYER_MANIFEST } from '../../../../src/main/record/launch'
import type { LoadProgress, RecordStatus } from '../../../../src/shared/ipc'

const APPENDER = join(__dirname, '../../../e2e/appendCapture.mjs')
const FRAMES = 40

let dir: string
let layerDir: string
let source: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'heapscope-record-'))
  // a layer folder as the loader needs it: the program here never loads it
  layerDir = join(dir, 'layer')
  mkdirSync(layerDir)
  writeFileSync(join(layerDir, LAYER_MANIFEST), '{}')
  let text = ''
  await runGen('vulkan', { frames: FRAMES, seed: 5 }, (chunk) => void (text += chunk))
  source = join(dir, 'source.hscap')
  writeFileSync(source, text)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function setup(layer: string | null = layerDir) {
  const engine = new LocalEngine({ tail: { pollMs: 10, intervalMs: 5 } })
  const statuses: RecordStatus[] = []
  const progress: LoadProgress[] = []
  const recordings = new Recordings({
    engine: () => engine,
    progress: (p) => progress.push(p),
    status: (s) => statuses.push(s),
    capturesDir: join(dir, 'captures'),
    layerDir: () => layer,
  })
  const exited = () =>
    new Promise<RecordStatus>((resolve) => {
      const wait = () => {
        const done = statuses.find((s) => s.state === 'exited')
        if (done) resolve(done)
        else setTimeout(wait, 10)
      }
      wait()
    })
  const ended = () =>
    new Promise<LoadProgress>((resolve) => {
      const wait = () => {
        const last = progress.find((p) => p.phase === 'following' && p.summary && !p.summary.live)
        if (last) resolve(last)
        else setTimeout(wait, 10)
      }
      wait()
    })
  return { engine, recordings, statuses, progress, exited, ended }
}

describe('recording a program', () => {
  it('names a new capture after the program and the time', () => {
    expect(captureName('/usr/bin/vkcube', new Date(2026, 11, 1, 9, 5, 7))).toBe('vkcube-20261201-090507.hscap')
    expect(captureName('C:\\Games\\My Game.exe', new Date(2026, 0, 2, 13, 0, 0))).toBe('My_Game-20260102-130000.hscap')
  })

  it('follows the capture while the program writes it, and reads it to its end when the program exits', async () => {
    const t = setup()
    const outcome = await t.recordings.start({ loadId: 'rec-1', program: process.execPath, args: [APPENDER, source, '--fps', '60'], stacks: false })
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    expect(outcome.summary.live).toBe(true)
    expect(outcome.summary.frames).toBeLessThan(FRAMES)
    expect(outcome.summary.file).toMatch(/^node-\d{8}-\d{6}\.hscap$/)
    const running = t.statuses[0]
    expect(running.state).toBe('running')
    expect(running.pid).toBeGreaterThan(0)
    expect(running.output).toBe(join(dir, 'captures', outcome.summary.file))
    const exit = await t.exited()
    expect(exit).toMatchObject({ state: 'exited', code: 0, signal: null })
    expect(exit.message).toBeUndefined()
    const last = await t.ended()
    expect(last.summary!.frames).toBe(FRAMES)
    expect(last.summary!.runId).toBe(outcome.summary.runId)
    const grew = t.progress.filter((p) => p.phase === 'following').map((p) => p.summary!.frames)
    expect(new Set(grew).size).toBeGreaterThanOrEqual(3)
  })

  it('Stop ends the program, and the run holds what it wrote', async () => {
    const t = setup()
    const outcome = await t.recordings.start({ loadId: 'rec-2', program: process.execPath, args: [APPENDER, source, '--fps', '20'], stacks: false })
    expect(outcome.ok).toBe(true)
    t.recordings.stop('rec-2')
    const exit = await t.exited()
    expect(exit.signal === 'SIGTERM' || exit.code === 143).toBe(true)
    const last = await t.ended()
    expect(last.summary!.frames).toBeGreaterThan(0)
    expect(last.summary!.frames).toBeLessThan(FRAMES)
    // a writer ended between two writes leaves a torn line at most: never a fault
    expect(last.error).toBeUndefined()
  })

  it('says plainly that the layer is not built, and starts nothing', async () => {
    const t = setup(null)
    const outcome = await t.recordings.start({ loadId: 'rec-3', program: process.execPath, args: [APPENDER, source], stacks: false })
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.error.message).toMatch(/capture layer is not built.*npm run build:layer/)
    expect(t.statuses).toEqual([])
    expect(t.recordings.info()).toMatchObject({ layerDir: null, capturesDir: join(dir, 'captures') })
  })

  it('a program that cannot start, or fails before its first frame, is the error', async () => {
    const t = setup()
    const missing = await t.recordings.start({ loadId: 'rec-4', program: join(dir, 'no-such-program'), args: [], stacks: false })
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(missing.error.message).toMatch(/no-such-program: spawn .* ENOENT/)
    const failing = await t.recordings.start({
      loadId: 'rec-5',
      program: process.execPath,
      args: ['-e', 'console.error("no Vulkan device here"); process.exit(3)'],
      stacks: false,
    })
    expect(failing.ok).toBe(false)
    if (!failing.ok) expect(failing.error.message).toMatch(/node exited with code 3: no Vulkan device here \(before it wrote a capture frame to .*\.hscap\)/)
    const silent = await t.recordings.start({ loadId: 'rec-7', program: process.execPath, args: ['-e', ''], stacks: false })
    expect(silent.ok).toBe(false)
    if (!silent.ok) {
      expect(silent.error.message).toMatch(/^node exited with code 0 \(before it wrote a capture frame to .*\.hscap\): .*nothing was written to the file/)
    }
    expect(t.statuses.filter((s) => s.state === 'exited').map((s) => s.code)).toEqual([null, 3, 0])
  })

  it('refuses a relative capture file name', async () => {
    const t = setup()
    const outcome = await t.recordings.start({ loadId: 'rec-6', program: process.execPath, args: [], stacks: false, output: 'here.hscap' })
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.error.message).toContain('here.hscap: the capture file needs an absolute path')
  })
})
