/**
 * The hazards list through the Api (the host's handlers, their payload schema, a real engine): the generated
 * `vulkan-hazards` capture's three mistakes with their frames, rules, resources and bytes, exactly what
 * `heapscope check` finds; the correct `vulkan` capture with none; a D3D12 capture's placed resources too.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../../../../src/main/cli/check'
import { LocalEngine } from '../../../../../src/main/engine/engine'
import { FileRegistry } from '../../../../../src/main/host/files'
import { createHandlers, type HostContext } from '../../../../../src/main/host/handlers'
import { PayloadError } from '../../../../../src/main/host/schemas'
import { SettingsStore } from '../../../../../src/main/host/settings'
import { recordsOf } from '../../../../../src/main/ingest/records'
import type { CaptureStore } from '../../../../../src/main/ingest/store'
import type { AppInfo, HazardsAnswer } from '../../../../../src/shared/ipc'
import { MiB } from '../../../../../src/shared/units'
import { generatedStore, loaded, storeOf } from './helpers'

const FRAMES = 120
const engine = new LocalEngine()
const ctx: HostContext = {
  engine: () => engine,
  files: new FileRegistry(),
  info: () => ({}) as AppInfo,
  progress: () => undefined,
  playback: () => undefined,
  settings: new SettingsStore(),
}
const handlers = createHandlers(ctx)
const hazards = (payload: object) => handlers.hazards(payload) as Promise<HazardsAnswer>

let faulty: CaptureStore
let faultyRun = ''
let correctRun = ''

beforeAll(async () => {
  faulty = await generatedStore('vulkan-hazards', FRAMES, 3)
  faultyRun = (await engine.addRun(loaded(faulty))).id
  correctRun = (await engine.addRun(loaded(await generatedStore('vulkan', FRAMES, 3)))).id
})

/** The ids of the named resources of a store's create records. */
function idOf(store: CaptureStore, name: string): number {
  for (const r of recordsOf(store)) if ('name' in r && r.name === name && 'id' in r) return r.id as number
  throw new Error(`no ${name}`)
}

describe('the hazards of a Vulkan run', () => {
  it('lists the three mistakes of vulkan-hazards in frame order, each with its frame, rule, resources and bytes', async () => {
    const answer = await hazards({ runId: faultyRun, offset: 0, limit: 100 })
    const ssao = idOf(faulty, 'SSAO.Target')
    const bloom = idOf(faulty, 'Bloom.Setup')
    const stats = idOf(faulty, 'Readback.Stats')
    const upload = idOf(faulty, 'PersistentUpload')
    const attachments = idOf(faulty, 'AttachmentHeap')
    expect(answer.total).toBe(3)
    expect(answer.aliasing).toBe('simple')
    expect(answer.hazardRules).toEqual({ 'access-inactive': 1 })
    expect(answer.warnings).toEqual({ 'bind-misaligned': 1, 'flush-misaligned': 1 })
    const [bind, flush, inactive] = answer.entries
    // A quarter of 120 frames: frame 30 (index 29). The stats buffer goes 128 bytes past 5 MiB: [5243008, +4096).
    expect(bind).toMatchObject({ frame: 29, frameNumber: 30, rule: 'bind-misaligned', severity: 'warning', resources: [stats], heap: upload })
    expect(bind.range).toEqual([5 * MiB + 128, 5 * MiB + 128 + 4096])
    expect(bind.message).toBe(
      `buffer ${stats} bound at offset 5243008 of memory ${upload} at frame 30: not a multiple of its alignment 256 (5243008 % 256 = 128)`,
    )
    // Half: frame 60. The ring slice of frame 60 starts at 1 MiB + (60 % 4) × 512 KiB = 1 MiB; its size is
    // 36 bytes past a whole number of 64-byte atoms.
    expect(flush).toMatchObject({ frame: 59, frameNumber: 60, rule: 'flush-misaligned', severity: 'warning', resources: [], heap: upload })
    expect(flush.range![0]).toBe(1 * MiB)
    expect((flush.range![1] - flush.range![0]) % 64).toBe(36)
    // Three quarters: frame 90. The ambient-occlusion target shares bytes [0, 3932160) with bloom's (both 3.75 MiB at 0).
    expect(inactive).toEqual({
      frame: 89,
      frameNumber: 90,
      rule: 'access-inactive',
      severity: 'hazard',
      resources: [ssao, bloom],
      heap: attachments,
      range: [0, 3932160],
      message: `texture ${ssao} read while inactive: ${bloom} was activated on the same bytes at frame 90`,
      names: ['SSAO.Target', 'Bloom.Setup'],
    })
  })

  it('finds exactly what heapscope check finds', async () => {
    const messages: string[] = []
    const check = await runCheck(recordsOf(faulty), faulty.header, { onWarning: (rule, message) => messages.push(`${rule}: ${message}`) })
    const answer = await hazards({ runId: faultyRun, offset: 0, limit: 100 })
    const found = answer.entries.filter((e) => e.severity === 'hazard')
    // the engine names the resources as the check does
    expect(found.map((e) => ({ frame: e.frameNumber, rule: e.rule, resources: e.resources, heap: e.heap, range: e.range, message: e.message, names: e.names }))).toEqual(
      check.hazards,
    )
    expect(answer.warnings).toEqual(check.warnings)
    expect(answer.entries.filter((e) => e.severity === 'warning').map((e) => `${e.rule}: ${e.message}`)).toEqual(messages)
  })

  it('pages, and filters hazards from warnings', async () => {
    const second = await hazards({ runId: faultyRun, offset: 1, limit: 1 })
    expect(second.total).toBe(3)
    expect(second.offset).toBe(1)
    expect(second.entries.map((e) => e.rule)).toEqual(['flush-misaligned'])
    const onlyHazards = await hazards({ runId: faultyRun, offset: 0, limit: 10, severity: 'hazard' })
    expect(onlyHazards.total).toBe(1)
    expect(onlyHazards.entries.map((e) => e.rule)).toEqual(['access-inactive'])
    const warnings = await hazards({ runId: faultyRun, offset: 1, limit: 10, severity: 'warning' })
    expect(warnings.total).toBe(2)
    expect(warnings.entries.map((e) => e.rule)).toEqual(['flush-misaligned'])
    // A page is a copy: changing it changes nothing in the engine.
    second.entries[0].resources.push(99)
    expect((await hazards({ runId: faultyRun, offset: 1, limit: 1 })).entries[0].resources).toEqual([])
  })

  it('refuses a bad query before the engine hears of it', async () => {
    await expect(hazards({ runId: faultyRun, offset: 0, limit: 100_000 })).rejects.toThrow(PayloadError)
    await expect(hazards({ runId: faultyRun, offset: -1, limit: 10 })).rejects.toThrow(PayloadError)
    await expect(hazards({ runId: faultyRun, offset: 0, limit: 10, severity: 'error' })).rejects.toThrow(PayloadError)
    await expect(hazards({ runId: faultyRun, offset: 0, limit: 10, extra: 1 })).rejects.toThrow(PayloadError)
    await expect(hazards({ runId: 'run-none', offset: 0, limit: 10 })).rejects.toThrow(/no run run-none/)
  })

  it('has none in the correct capture, and says so in the summary too', async () => {
    const answer = await hazards({ runId: correctRun, offset: 0, limit: 100 })
    expect(answer).toMatchObject({ total: 0, entries: [], hazardRules: {}, warnings: {} })
    expect((await engine.summary(correctRun)).checks).toEqual({ aliasing: 'simple', hazards: 0, hazardRules: {}, warnings: {} })
    expect((await engine.summary(faultyRun)).checks).toEqual({
      aliasing: 'simple',
      hazards: 1,
      hazardRules: { 'access-inactive': 1 },
      warnings: { 'bind-misaligned': 1, 'flush-misaligned': 1 },
    })
  })

  it('marks each finding in its frame of the check series, where the hazards list jumps', async () => {
    const answer = await engine.series({ runId: faultyRun, series: ['check.hazards', 'check.warnings'], from: 0, to: FRAMES, resolution: FRAMES })
    const frames = (name: string) => [...answer.series[name].max.entries()].filter(([, v]) => v > 0).map(([i, v]) => [i, v])
    expect(frames('check.warnings')).toEqual([
      [29, 1],
      [59, 1],
    ])
    expect(frames('check.hazards')).toEqual([[89, 1]])
    // At that frame the two resources share the attachment heap's first bytes in its pool map.
    const snapshot = await engine.snapshot({ runId: faultyRun, frame: 89 })
    const heap = snapshot.pools.find((p) => p.name === 'AttachmentHeap')!
    const ssao = idOf(faulty, 'SSAO.Target')
    const bloom = idOf(faulty, 'Bloom.Setup')
    const at = (id: number) => {
      const i = Array.from(heap.id).indexOf(id)
      return [heap.offset[i], heap.size[i], heap.state[i]]
    }
    expect(at(ssao)).toEqual([0, 3932160, 1])
    expect(at(bloom)).toEqual([0, 3932160, 1])
    expect(heap.heapId).toBe(idOf(faulty, 'AttachmentHeap'))
  })
})

describe('the hazards of a D3D12 run', () => {
  it('come from the checks over its placed resources, frame index and number apart', async () => {
    const store = storeOf({ format: 'heapscope-capture', version: 1, api: 'd3d12' }, [
      { e: 'frame', n: 11 },
      { e: 'frame', n: 12 },
      { e: 'heap', id: 50, size: 65536, type: 'default' },
      { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'] },
      { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'], name: 'SceneColor' },
      { e: 'barrier', after: 51 },
      { e: 'access', id: 51, op: 'write' },
      { e: 'barrier', after: 52, before: 51 },
      { e: 'access', id: 52, op: 'write' },
      { e: 'access', id: 51, op: 'read' },
    ])
    const run = await engine.addRun(loaded(store))
    expect(run.backend.id).toBe('d3d12')
    const answer = await hazards({ runId: run.id, offset: 0, limit: 10 })
    expect(answer.entries).toEqual([
      {
        frame: 1,
        frameNumber: 12,
        rule: 'access-inactive',
        severity: 'hazard',
        resources: [51, 52],
        heap: 50,
        range: [0, 65536],
        message: 'texture 51 read while inactive: 52 was activated on the same bytes at frame 12',
        // the resources by name, '' for the unnamed one
        names: ['', 'SceneColor'],
      },
    ])
    expect(run.summary.checks?.hazards).toBe(1)
  })
})
