/**
 * Following a capture as it is written: a writer appends it in pieces (cut mid-line and inside UTF-8 characters),
 * the engine reads each new piece once, replays the new frames from where it was, and the run it ends with is
 * the run a load of the whole file gives: the same summary, series, report, snapshots and checks.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runGen } from '../../../../src/main/cli/gen'
import { LocalEngine } from '../../../../src/main/engine/engine'
import type { LoadOutcome, LoadProgress, RunSummary } from '../../../../src/shared/ipc'

const TAIL = { pollMs: 10, intervalMs: 2 }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heapscope-follow-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function generated(scenario: string, frames: number): Promise<Buffer> {
  let text = ''
  await runGen(scenario, { frames, seed: 3 }, (chunk) => void (text += chunk))
  return Buffer.from(text, 'utf8')
}

/** Names with characters of two and three UTF-8 bytes, so that some cuts fall inside one. */
function withWideNames(bytes: Buffer): Buffer {
  const text = bytes
    .toString('utf8')
    .replace(/"app":"[^"]*"/, '"app":"渲染器 — Größe"')
    .replace(/"name":"([^"]*)"/g, (_, name: string, at: number) => (at % 3 === 0 ? `"name":"纹理·${name}"` : `"name":"${name}"`))
  return Buffer.from(text, 'utf8')
}

/**
 * Cut points: every `step` bytes give or take, each moved to fall mid-line; one inside each of the first few
 * multi-byte characters.
 */
function cutPoints(bytes: Buffer, step: number): number[] {
  const cuts = new Set<number>()
  for (let at = 7; at < bytes.length; at += step + (at % 97)) {
    let p = at
    while (p < bytes.length && (bytes[p] === 0x0a || bytes[p - 1] === 0x0a)) p++
    if (p < bytes.length) cuts.add(p)
  }
  let wide = 0
  for (let p = 0; p < bytes.length && wide < 8; p++) {
    if (bytes[p] >= 0xc0) {
      cuts.add(p + 1)
      wide++
    }
  }
  return [...cuts].sort((a, b) => a - b)
}

interface Followed {
  first: LoadOutcome
  events: LoadProgress[]
  final: RunSummary
}

/** Write `bytes` to `path` piece by piece while the engine follows it; end following after the last piece. */
async function follow(engine: LocalEngine, path: string, bytes: Buffer, cuts: number[], name?: string): Promise<Followed> {
  await writeFile(path, '')
  const events: LoadProgress[] = []
  const loadId = `follow-${path}`
  const first = engine.follow(loadId, { path, ...(name ? { name } : {}) }, (p) => events.push(p))
  let from = 0
  for (const cut of [...cuts, bytes.length]) {
    await appendFile(path, bytes.subarray(from, cut))
    from = cut
    await sleep(3)
  }
  await sleep(30)
  await engine.endFollow(loadId)
  const outcome = await first
  const last = events.at(-1)
  expect(last?.phase).toBe('following')
  return { first: outcome, events, final: last!.summary! }
}

/** Everything a person can ask of a run, for comparing two runs of one capture. */
async function answers(engine: LocalEngine, summary: RunSummary) {
  const runId = summary.runId
  const frames = summary.frames
  const series = await engine.series({ runId, series: summary.series.map((s) => s.name), from: 0, to: frames, resolution: frames })
  const wide = await engine.series({ runId, series: summary.series.map((s) => s.name), from: 0, to: frames, resolution: 7 })
  const report = await engine.report(runId)
  const atFrames = [0, Math.floor(frames / 3), Math.floor(frames / 2), frames - 1]
  const snapshots = []
  for (const frame of atFrames) {
    const snapshot = await engine.snapshot({ runId, frame })
    const page = await engine.resources({ runId, frame, sort: 'occupied', descending: true, offset: 0, limit: 200 })
    snapshots.push({ snapshot: { ...snapshot, runId: '' }, rows: page.rows, total: page.total })
  }
  const hazards = await engine.hazards({ runId, offset: 0, limit: 5000 })
  return {
    summary: { ...summary, runId: '' },
    series: { ...series, runId: '' },
    wide: { ...wide, runId: '' },
    report,
    snapshots,
    hazards: { ...hazards, runId: '' },
  }
}

async function loadedAtOnce(engine: LocalEngine, path: string): Promise<RunSummary> {
  const outcome = await engine.load(`load-${path}`, { kind: 'file', path })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.summary
}

describe('following a capture as it is written', () => {
  it.each([
    ['vulkan', 90, 1500],
    ['vulkan-hazards', 40, 900],
    ['leak', 60, 4000],
  ])('%s: the followed run equals the capture loaded at once', async (scenario, frames, step) => {
    const bytes = withWideNames(await generated(scenario, frames))
    const path = join(dir, `${scenario}.hscap`)
    const engine = new LocalEngine({ tail: TAIL })
    const cuts = cutPoints(bytes, step)
    const followed = await follow(engine, path, bytes, cuts)

    // the run grew: it answered before the end, with fewer frames, and each event had more
    expect(followed.first.ok).toBe(true)
    if (!followed.first.ok) return
    expect(followed.first.summary.live).toBe(true)
    expect(followed.first.summary.frames).toBeLessThan(followed.final.frames)
    const growth = followed.events.filter((e) => e.phase === 'following').map((e) => e.summary!.frames)
    expect(growth.length).toBeGreaterThanOrEqual(3)
    for (let i = 1; i < growth.length; i++) expect(growth[i]).toBeGreaterThanOrEqual(growth[i - 1])
    expect(followed.final.live).toBeUndefined()
    expect(followed.final.frames).toBe(frames)

    const loaded = await loadedAtOnce(engine, path)
    expect(loaded.frames).toBe(frames)
    const a = await answers(engine, followed.final)
    const b = await answers(engine, loaded)
    expect(a.summary).toEqual(b.summary)
    expect(a.series).toEqual(b.series)
    expect(a.wide).toEqual(b.wide)
    expect(a.report).toEqual(b.report)
    expect(a.snapshots).toEqual(b.snapshots)
    expect(a.hazards).toEqual(b.hazards)
    // a name cut inside a character reads whole
    expect(followed.final.app).toBe('渲染器 — Größe')
  })

  it('answers for the frames that arrived while the capture grows, as the whole capture does for them', async () => {
    const bytes = await generated('vulkan', 60)
    const path = join(dir, 'midway.hscap')
    const engine = new LocalEngine({ tail: TAIL })
    // the first half of the lines, then a wait: the run holds the frames complete so far
    const half = bytes.indexOf('\n{"e":"frame"', Math.floor(bytes.length / 2)) + 1
    await writeFile(path, bytes.subarray(0, half))
    const events: LoadProgress[] = []
    const outcome = await engine.follow('midway', { path }, (p) => events.push(p))
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    await sleep(50)
    const now = events.filter((e) => e.phase === 'following').at(-1)?.summary ?? outcome.summary
    const arrived = now.frames
    expect(arrived).toBeGreaterThan(5)
    expect(arrived).toBeLessThan(60)
    const frame = arrived - 1
    const early = await engine.snapshot({ runId: now.runId, frame })
    const earlyRows = await engine.resources({ runId: now.runId, frame, sort: 'id', offset: 0, limit: 500 })
    const earlySeries = await engine.series({ runId: now.runId, series: ['total.heapBytes', 'resources.live'], from: 0, to: arrived, resolution: arrived })
    const earlyChecks = await engine.hazards({ runId: now.runId, offset: 0, limit: 5000 })
    // a search while the capture grows finds what has arrived; one after it ended, everything
    const search = { runId: now.runId, text: 'a', offset: 0, limit: 5000 }
    const earlySearch = await engine.search(search)

    await appendFile(path, bytes.subarray(half))
    await sleep(30)
    await engine.endFollow('midway')
    const loaded = await loadedAtOnce(engine, path)
    const whole = await engine.snapshot({ runId: loaded.runId, frame })
    const wholeRows = await engine.resources({ runId: loaded.runId, frame, sort: 'id', offset: 0, limit: 500 })
    const wholeSeries = await engine.series({ runId: loaded.runId, series: ['total.heapBytes', 'resources.live'], from: 0, to: arrived, resolution: arrived })
    const wholeChecks = await engine.hazards({ runId: loaded.runId, offset: 0, limit: 5000 })
    expect({ ...early, runId: '' }).toEqual({ ...whole, runId: '' })
    expect(earlyRows.rows).toEqual(wholeRows.rows)
    expect(earlySeries.series).toEqual(wholeSeries.series)
    // the checks found up to the frames that arrived are the whole capture's findings in those frames
    expect(earlyChecks.entries).toEqual(wholeChecks.entries.filter((e) => e.frame < arrived))
    const lateSearch = await engine.search(search)
    const wholeSearch = await engine.search({ ...search, runId: loaded.runId })
    expect(earlySearch.total).toBeGreaterThan(0)
    expect(earlySearch.total).toBeLessThan(wholeSearch.total)
    expect({ ...lateSearch, runId: '' }).toEqual({ ...wholeSearch, runId: '' })
  })

  it('a torn last line waits for the rest of its bytes', async () => {
    const bytes = await generated('vulkan', 20)
    const path = join(dir, 'torn.hscap')
    const engine = new LocalEngine({ tail: TAIL })
    // up to the middle of the first line of frame 11 (n = 11): frames 0…9 are complete, frame 10 is not
    const frame11 = bytes.indexOf('{"e":"frame","n":11')
    const lineAfter = bytes.indexOf('\n', frame11 + 1) + 1
    const tornAt = lineAfter + 9
    await writeFile(path, bytes.subarray(0, tornAt))
    const events: LoadProgress[] = []
    const outcome = await engine.follow('torn', { path }, (p) => events.push(p))
    expect(outcome.ok && outcome.summary.frames).toBe(10)
    await sleep(40)
    const records = (events.filter((e) => e.phase === 'following').at(-1)?.summary ?? (outcome.ok ? outcome.summary : null))!.records
    // the records of frames 0…9: the torn line is not read as a record, nor as a fault
    expect(records).toBe(bytes.subarray(0, frame11).toString('utf8').split('\n').length - 2)
    expect(events.some((e) => e.error)).toBe(false)

    await appendFile(path, bytes.subarray(tornAt))
    await sleep(40)
    await engine.endFollow('torn')
    const final = events.at(-1)!.summary!
    const loaded = await loadedAtOnce(engine, path)
    expect({ ...final, runId: '' }).toEqual({ ...loaded, runId: '' })
    expect(final.warnings).toEqual({})
  })

  it('a capture cut off mid-line when following stops reads as the same file loaded at once', async () => {
    const bytes = await generated('vulkan', 30)
    const cut = bytes.indexOf('\n', Math.floor(bytes.length * 0.7)) + 20
    const path = join(dir, 'killed.hscap')
    const engine = new LocalEngine({ tail: TAIL })
    const followed = await follow(engine, path, bytes.subarray(0, cut), cutPoints(bytes.subarray(0, cut), 3000))
    const loaded = await loadedAtOnce(engine, path)
    expect(followed.final.warnings.truncatedLastLine).toBe(1)
    const a = await answers(engine, followed.final)
    const b = await answers(engine, loaded)
    expect(a).toEqual(b)
  })

  it('waits for a file that does not exist yet, and says so when nothing came', async () => {
    const engine = new LocalEngine({ tail: TAIL })
    const path = join(dir, 'later.hscap')
    const bytes = await generated('vulkan', 12)
    const events: LoadProgress[] = []
    const first = engine.follow('later', { path }, (p) => events.push(p))
    await sleep(30)
    await writeFile(path, bytes)
    const outcome = await first
    expect(outcome.ok).toBe(true)
    await engine.endFollow('later')
    expect(events.at(-1)?.summary?.frames).toBe(12)

    const never = engine.follow('never', { path: join(dir, 'never.hscap') })
    await sleep(20)
    await engine.endFollow('never')
    const none = await never
    expect(none.ok).toBe(false)
    if (!none.ok) expect(none.error.message).toMatch(/never\.hscap: .*nothing was written to the file/)
  })

  it('a follow cancelled before its first frame shows no run', async () => {
    const engine = new LocalEngine({ tail: TAIL })
    const path = join(dir, 'cancelled.hscap')
    const bytes = await generated('vulkan', 5)
    // the header and the first frame's records, no second frame: nothing complete yet
    await writeFile(path, bytes.subarray(0, bytes.indexOf('{"e":"frame","n":2')))
    const first = engine.follow('cancelled', { path })
    await sleep(30)
    await engine.cancel('cancelled')
    const outcome = await first
    expect(outcome).toMatchObject({ ok: false, cancelled: true })
    if (!outcome.ok) expect(outcome.error.message).toBe('cancelled.hscap: load cancelled')
  })

  it('refuses a gzip-compressed capture with a clear message', async () => {
    const engine = new LocalEngine({ tail: TAIL })
    const outcome = await engine.follow('gz', { path: 'resources/demo/demo.hscap.gz' })
    // the fault ends following at once, with nothing read as a run
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(outcome.error.message).toMatch(/demo\.hscap\.gz: .*cannot be gzip-compressed/)
  })
})
