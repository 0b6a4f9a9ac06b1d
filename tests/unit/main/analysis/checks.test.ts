/**
 * One checks path: a D3D12 run's aliasing hazards and a Vulkan run's findings land in the run's hazard log and in
 * the per-frame `check.*` series (check.<rule>, check.hazards, check.warnings, check.total), counted here by hand
 * from the rules of docs/aliasing.md; `heapscope check` gives the list the app's hazards page gives; a D3D12 capture
 * followed as it is written finds what the whole file does.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkCapture, checkExitCode, formatCheck } from '../../../../src/main/cli/check'
import { main } from '../../../../src/main/cli/index'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import type { RunSummary } from '../../../../src/shared/ipc'
import { CHECK_SERIES, SERIES_NAME } from '../../../../src/shared/series'

const checkRuleSeries = SERIES_NAME.check

const KiB = 1024

/**
 * Five frames (numbers 1 to 5, indices 0 to 4) on one 64 KiB heap: render target 51 "Target" and buffer 52
 * "Scratch" share all its bytes. Simple model:
 * - frame 1: 51 activated, cleared, written: nothing;
 * - frame 2: 52 activated over 51; 51 read while inactive: access-inactive [51, 52];
 * - frame 3: 51 read again in the same inactive spell: not reported twice;
 * - frame 4: 51 activated again and read before a clear: rt-not-initialized [51]; 52, deactivated, written:
 *   access-inactive [52, 51];
 * - frame 5: 52 activated and read: nothing.
 */
const RECORDS: object[] = [
  { format: 'heapscope-capture', version: 1, api: 'd3d12' },
  { e: 'frame', n: 1 },
  { e: 'heap', id: 50, size: 64 * KiB, type: 'default', name: 'AliasHeap' },
  { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 64 * KiB, width: 128, height: 128, format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable'], name: 'Target' },
  { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'buffer', size: 64 * KiB, name: 'Scratch' },
  { e: 'barrier', after: 51 },
  { e: 'access', id: 51, op: 'clear' },
  { e: 'access', id: 51, op: 'write' },
  { e: 'submit' },
  { e: 'frame', n: 2 },
  { e: 'barrier', after: 52, before: 51 },
  { e: 'access', id: 52, op: 'write' },
  { e: 'access', id: 51, op: 'read' },
  { e: 'submit' },
  { e: 'frame', n: 3 },
  { e: 'access', id: 51, op: 'read' },
  { e: 'access', id: 52, op: 'read' },
  { e: 'submit' },
  { e: 'frame', n: 4 },
  { e: 'barrier', after: 51, before: 52 },
  { e: 'access', id: 51, op: 'read' },
  { e: 'access', id: 52, op: 'write' },
  { e: 'submit' },
  { e: 'frame', n: 5 },
  { e: 'barrier', after: 52 },
  { e: 'access', id: 52, op: 'read' },
  { e: 'submit' },
]
const TEXT = RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n'

let dir: string
let file: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heapscope-checks-'))
  file = join(dir, 'hazards.hscap')
  await writeFile(file, TEXT)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function seriesOf(engine: LocalEngine, summary: RunSummary): Promise<Record<string, number[]>> {
  const names = summary.series.map((s) => s.name).filter((name) => name.startsWith('check.'))
  const answer = await engine.series({ runId: summary.runId, series: names, from: 0, to: summary.frames, resolution: summary.frames })
  return Object.fromEntries(names.map((name) => [name, Array.from(answer.series[name].max)]))
}

async function loaded(engine: LocalEngine, path: string): Promise<RunSummary> {
  const outcome = await engine.load(`load-${path}`, { kind: 'file', path })
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.summary
}

describe('a D3D12 run’s hazards as check.* series', () => {
  it('counts each frame’s findings by rule, with their total, and no warnings series', async () => {
    const engine = new LocalEngine()
    const summary = await loaded(engine, file)
    expect(summary.frames).toBe(5)
    expect(summary.checks).toEqual({ aliasing: 'simple', hazards: 3, hazardRules: { 'access-inactive': 2, 'rt-not-initialized': 1 }, warnings: {} })
    expect(await seriesOf(engine, summary)).toEqual({
      [CHECK_SERIES.total]: [0, 1, 0, 2, 0],
      [CHECK_SERIES.hazards]: [0, 1, 0, 2, 0],
      [checkRuleSeries('access-inactive')]: [0, 1, 0, 1, 0],
      [checkRuleSeries('rt-not-initialized')]: [0, 0, 0, 1, 0],
    })
    // D3D12 checks no API usage: no check.warnings, and no series for a rule never broken
    expect(summary.series.some((s) => s.name === CHECK_SERIES.warnings || s.name === checkRuleSeries('barrier-missing'))).toBe(false)
    expect(summary.series.find((s) => s.name === CHECK_SERIES.hazards)).toEqual({ name: 'check.hazards', label: 'aliasing hazards', unit: 'count', group: 'checks' })
  })

  it('heapscope check gives the list of the app’s hazards page, and exits 4', async () => {
    const engine = new LocalEngine()
    const summary = await loaded(engine, file)
    const page = await engine.hazards({ runId: summary.runId, offset: 0, limit: 100 })
    const check = await checkCapture(await loadCaptureFile(file))
    expect(check.hazards).toEqual(
      page.entries.map((e) => ({ frame: e.frameNumber, rule: e.rule, resources: e.resources, heap: e.heap, range: e.range, message: e.message, names: e.names })),
    )
    expect(check.hazards.map((h) => [h.frame, h.rule, h.resources, h.names, h.range])).toEqual([
      [2, 'access-inactive', [51, 52], ['Target', 'Scratch'], [0, 64 * KiB]],
      [4, 'rt-not-initialized', [51], ['Target'], [0, 64 * KiB]],
      [4, 'access-inactive', [52, 51], ['Scratch', 'Target'], [0, 64 * KiB]],
    ])
    expect(check.hazards.map((h) => h.message)).toEqual([
      'texture 51 read while inactive: 52 was activated on the same bytes at frame 2',
      'render target 51 read after its activation at frame 4 without a clear, discard or full copy first',
      'buffer 52 written while inactive: 51 was activated on the same bytes at frame 4',
    ])
    expect(checkExitCode(check)).toBe(4)
    expect(formatCheck(check, false).split('\n')[0]).toBe('3 aliasing hazards:')
    // the command itself: the same JSON on stdout, exit 4
    let out = ''
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await main(['check', '--json', file])).toBe(4)
    } finally {
      vi.restoreAllMocks()
    }
    expect(out).toBe(formatCheck(check, true))
  })

  it('in the advanced model counts barrier-missing and reused bytes instead', async () => {
    // Advanced model, by hand: frame 2: 52 written, then 51 read in the same submit, the last barrier naming
    // either before 52's write: barrier-missing [51, 52]; 51 is a render target whose bytes 52 used since its
    // clear: rt-not-initialized [51]. Frame 3: 51 read, then 52 read in one submit with no barrier since frame 2:
    // barrier-missing [52, 51]. Frame 4: 51 activated and read before a clear: rt-not-initialized [51]; 52
    // written after 51's read, after the barrier: barrier-missing [52, 51]. Frame 5: 52 alone in its submit.
    const advanced = join(dir, 'advanced.hscap')
    await writeFile(advanced, TEXT.replace('"api":"d3d12"', '"api":"d3d12","aliasing":"advanced"'))
    const engine = new LocalEngine()
    const summary = await loaded(engine, advanced)
    const check = await checkCapture(await loadCaptureFile(advanced))
    expect(check.hazards.map((h) => [h.frame, h.rule, h.resources])).toEqual([
      [2, 'barrier-missing', [51, 52]],
      [2, 'rt-not-initialized', [51]],
      [3, 'barrier-missing', [52, 51]],
      [4, 'rt-not-initialized', [51]],
      [4, 'barrier-missing', [52, 51]],
    ])
    expect(await seriesOf(engine, summary)).toEqual({
      [CHECK_SERIES.total]: [0, 2, 1, 2, 0],
      [CHECK_SERIES.hazards]: [0, 2, 1, 2, 0],
      [checkRuleSeries('barrier-missing')]: [0, 1, 1, 1, 0],
      [checkRuleSeries('rt-not-initialized')]: [0, 1, 0, 1, 0],
    })
  })

  it('a capture followed as it is written finds what the whole file does, frame by frame', async () => {
    // Ten frames with only the heap come first, so the run is live before the first placed resource arrives; then
    // the five frames above, numbered 11 to 15.
    const lines = RECORDS.map((r) => JSON.stringify(r))
    const heap = lines.splice(2, 1)[0]
    const text = [lines[0], '{"e":"frame","n":1}', heap, ...Array.from({ length: 9 }, (_, i) => `{"e":"frame","n":${i + 2}}`),
      ...lines.slice(1).map((l) => l.replace(/^\{"e":"frame","n":(\d)\}$/, (_, n: string) => `{"e":"frame","n":${Number(n) + 10}}`))].join('\n') + '\n'
    const whole = join(dir, 'whole.hscap')
    const path = join(dir, 'followed.hscap')
    await writeFile(whole, text)
    await writeFile(path, '')
    const engine = new LocalEngine({ tail: { pollMs: 10, intervalMs: 2 } })
    const first = engine.follow('follow', { path })
    const frame11 = text.indexOf('"n":11')
    const frame14 = text.indexOf('"n":14')
    // cut mid-line: the empty frames, then up to inside frame 14, then the rest
    for (const [from, to] of [[0, frame11 - 3], [frame11 - 3, frame14 + 30], [frame14 + 30, text.length]]) {
      await appendFile(path, text.slice(from, to))
      await new Promise((resolve) => setTimeout(resolve, 60))
    }
    await engine.endFollow('follow')
    const outcome = await first
    if (!outcome.ok) throw new Error(outcome.error.message)
    // the run answered while live, before any placed resource had arrived
    expect(outcome.summary.live).toBe(true)
    expect(outcome.summary.frames).toBeLessThan(11)
    const followed = await engine.summary(outcome.summary.runId)
    const loadedRun = await loaded(engine, whole)
    expect(followed.frames).toBe(15)
    const zeros = Array.from({ length: 10 }, () => 0)
    expect(await seriesOf(engine, followed)).toEqual({
      [CHECK_SERIES.total]: [...zeros, 0, 1, 0, 2, 0],
      [CHECK_SERIES.hazards]: [...zeros, 0, 1, 0, 2, 0],
      [checkRuleSeries('access-inactive')]: [...zeros, 0, 1, 0, 1, 0],
      [checkRuleSeries('rt-not-initialized')]: [...zeros, 0, 0, 0, 1, 0],
    })
    expect(await seriesOf(engine, followed)).toEqual(await seriesOf(engine, loadedRun))
    const a = await engine.hazards({ runId: followed.runId, offset: 0, limit: 100 })
    const b = await engine.hazards({ runId: loadedRun.runId, offset: 0, limit: 100 })
    expect({ ...a, runId: '' }).toEqual({ ...b, runId: '' })
    expect(a.entries.map((e) => [e.frame, e.frameNumber, e.rule])).toEqual([
      [11, 12, 'access-inactive'],
      [13, 14, 'rt-not-initialized'],
      [13, 14, 'access-inactive'],
    ])
  })
})

describe('a Vulkan run’s findings through the same sink', () => {
  it('counts warnings by rule beside the hazards, and their total per frame', async () => {
    const header = {
      format: 'heapscope-capture',
      version: 1,
      minor: 1,
      api: 'vulkan',
      vulkan: {
        memoryHeaps: [{ size: 1 << 30, flags: ['DEVICE_LOCAL'] }],
        memoryTypes: [{ heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] }],
        bufferImageGranularity: 1024,
      },
    }
    // frame 1: buffer 7 bound at offset 100 with alignment 256: bind-misaligned; frame 2: buffer 8 bound past
    // the memory's end: bind-out-of-range; frame 3: buffer 9 aligned and inside, then read before any barrier
    // activated it: access-inactive.
    const req = (alignment: number) => ({ size: 1000, alignment, memoryTypeBits: 1 })
    const records = [
      header,
      { e: 'frame', n: 1 },
      { e: 'heap', id: 50, size: 65536, memoryType: 0 },
      { e: 'placed', id: 7, heap: 50, offset: 100, kind: 'buffer', size: 1000, memoryRequirements: req(256) },
      { e: 'frame', n: 2 },
      { e: 'placed', id: 8, heap: 50, offset: 65000, kind: 'buffer', size: 1000, memoryRequirements: req(8) },
      { e: 'frame', n: 3 },
      { e: 'placed', id: 9, heap: 50, offset: 8192, kind: 'buffer', size: 1000, memoryRequirements: req(256) },
      { e: 'access', id: 9, op: 'read' },
    ]
    const path = join(dir, 'vulkan.hscap')
    await writeFile(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const engine = new LocalEngine()
    const summary = await loaded(engine, path)
    expect(await seriesOf(engine, summary)).toEqual({
      [CHECK_SERIES.total]: [1, 1, 1],
      [CHECK_SERIES.hazards]: [0, 0, 1],
      [CHECK_SERIES.warnings]: [1, 1, 0],
      [checkRuleSeries('bind-misaligned')]: [1, 0, 0],
      [checkRuleSeries('bind-out-of-range')]: [0, 1, 0],
      [checkRuleSeries('access-inactive')]: [0, 0, 1],
    })
    const check = await checkCapture(await loadCaptureFile(path))
    expect(check.warningList.map((w) => [w.frame, w.rule])).toEqual([
      [1, 'bind-misaligned'],
      [2, 'bind-out-of-range'],
    ])
    expect(check.hazards.map((h) => [h.frame, h.rule, h.resources])).toEqual([[3, 'access-inactive', [9]]])
  })
})
