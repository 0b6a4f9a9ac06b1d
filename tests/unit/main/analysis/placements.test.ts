/**
 * The placement layout of a frame through the Api (the host's handlers, their schema, a real engine): hand-made
 * captures with one hazard each (access-inactive, rt-not-initialized, barrier-missing), whose rectangles, active
 * spans, accesses, barriers and hazards are worked out by hand; the generated `vulkan-hazards` capture, whose
 * layouts carry exactly the hazards the hazards list has, frame by frame, whatever the checkpoint spacing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { PlacementLayouts, MAX_PLACEMENT_STEPS } from '../../../../src/main/analysis/placements'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { FileRegistry } from '../../../../src/main/host/files'
import { createHandlers, type HostContext } from '../../../../src/main/host/handlers'
import { PayloadError } from '../../../../src/main/host/schemas'
import type { CaptureStore } from '../../../../src/main/ingest/store'
import { ACCESS_OPS } from '../../../../src/shared/capture'
import { PLACEMENT_STEPS, type AppInfo, type HazardsAnswer, type PlacementsAnswer } from '../../../../src/shared/ipc'
import { KiB, MiB } from '../../../../src/shared/units'
import { bytesOf, scan } from '../ingest/helpers'
import { generatedStore, loaded } from './vulkan/helpers'

const engine = new LocalEngine()
const handlers = createHandlers({
  engine: () => engine,
  files: new FileRegistry(),
  info: () => ({}) as AppInfo,
  progress: () => undefined,
  playback: () => undefined,
  settings: { get: () => ({}) as never, update: () => ({}) as never },
} satisfies HostContext)
const placements = (payload: object) => handlers.placements(payload) as Promise<PlacementsAnswer>
const hazards = (runId: string) => handlers.hazards({ runId, offset: 0, limit: 5000 }) as Promise<HazardsAnswer>

const D3D12 = { format: 'heapscope-capture', version: 1, api: 'd3d12' }

function storeOf(header: object, records: object[]): CaptureStore {
  const { store, error } = scan(bytesOf([header, ...records].map((r) => JSON.stringify(r)).join('\n') + '\n'))
  if (error) throw error
  expect(store.warnings.counts).toEqual({})
  return store
}

async function runOf(header: object, records: object[]): Promise<string> {
  return (await engine.addRun(loaded(storeOf(header, records)))).id
}

const kinds = (a: PlacementsAnswer) => Array.from(a.stepKind, (k) => PLACEMENT_STEPS[k])
const ops = (a: PlacementsAnswer) => Array.from(a.accesses.op, (k) => ACCESS_OPS[k])
/** Each resource as [id, name, offset, size, from, to]. */
const rects = (a: PlacementsAnswer, heap = 0) => {
  const r = a.heaps[heap].resources
  return Array.from(r.id, (id, i) => [id, r.name[i], r.offset[i], r.size[i], r.from[i], r.to[i]])
}

describe('the placement layout of a frame', () => {
  it('access-inactive: active spans between the barriers, the read of the deactivated texture marked with its hazard', async () => {
    const runId = await runOf(D3D12, [
      { e: 'frame', n: 0 },
      { e: 'heap', id: 50, size: 256 * KiB, type: 'default', name: 'Aliased' },
      // A [0, 128 KiB), B [64 KiB, 192 KiB): they share [64 KiB, 128 KiB); C [192 KiB, 256 KiB) shares nothing
      { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 128 * KiB, width: 256, height: 128, format: 'R8G8B8A8_UNORM', flags: ['ShaderResource'], name: 'A' },
      { e: 'placed', id: 52, heap: 50, offset: 64 * KiB, kind: 'buffer', size: 128 * KiB, name: 'B' },
      { e: 'placed', id: 53, heap: 50, offset: 192 * KiB, kind: 'buffer', size: 64 * KiB, name: 'C' },
      { e: 'frame', n: 7 },
      { e: 'barrier', after: 51 }, // step 0: A active
      { e: 'access', id: 51, op: 'write' }, // 1
      { e: 'barrier', after: 52, before: 51 }, // 2: B active, A inactive
      { e: 'access', id: 52, op: 'write' }, // 3
      { e: 'access', id: 51, op: 'read' }, // 4: A read while inactive
      { e: 'release', id: 52 }, // B's rectangle ends at 5, before the submit's step
      { e: 'submit' }, // 5
    ])
    const a = await placements({ runId, frame: 1 })
    expect(a.frame).toBe(1)
    expect(a.aliasing).toBe('simple')
    expect(a.steps).toBe(6)
    expect(kinds(a)).toEqual(['barrier', 'access', 'barrier', 'access', 'access', 'submit'])
    expect(a.heaps.map((h) => [h.id, h.name, h.size, h.type, h.from, h.to])).toEqual([[50, 'Aliased', 262144, 'default', 0, 6]])
    expect(rects(a)).toEqual([
      [51, 'A', 0, 131072, 0, 6],
      [52, 'B', 65536, 131072, 0, 5],
      [53, 'C', 196608, 65536, 0, 6],
    ])
    expect(Array.from(a.heaps[0].resources.texture)).toEqual([1, 0, 0])
    // A active [0, 2) until B's barrier; B active [2, 5) until its release; C never activated
    expect(Array.from(a.heaps[0].active)).toEqual([0, 0, 2, 1, 2, 5])
    expect(Array.from(a.heaps[0].overlaps)).toEqual([0, 1])
    expect(Array.from(a.accesses.step)).toEqual([1, 3, 4])
    expect(Array.from(a.accesses.resource)).toEqual([0, 1, 0])
    expect(Array.from(a.accesses.heap)).toEqual([0, 0, 0])
    expect(ops(a)).toEqual(['write', 'write', 'read'])
    expect(Array.from(a.barriers.step)).toEqual([0, 2])
    expect(Array.from(a.barriers.after)).toEqual([0, 1])
    expect(Array.from(a.barriers.afterHeap)).toEqual([0, 0])
    expect(Array.from(a.barriers.before)).toEqual([-1, 0])
    expect(Array.from(a.barriers.beforeHeap)).toEqual([-1, 0])
    expect(a.hazards).toEqual([
      {
        rule: 'access-inactive',
        resources: [51, 52],
        heapIndex: 0,
        indices: [0, 1],
        heap: 50,
        // the bytes A and B share
        range: [65536, 131072],
        step: 4,
        message: 'texture 51 read while inactive: 52 was activated on the same bytes at frame 7',
      },
    ])
    expect(a.truncated).toBe(false)
    // the hazards list has the same finding, on the same frame
    const listed = (await hazards(runId)).entries
    expect(listed.map((e) => [e.frame, e.rule, e.resources, e.heap, e.range, e.message])).toEqual(
      a.hazards.map((h) => [1, h.rule, h.resources, h.heap, h.range, h.message]),
    )
    // frame 0 has no step: the resources were placed, nothing else happened
    const first = await placements({ runId, frame: 0 })
    expect(first.steps).toBe(0)
    expect(rects(first).map((r) => [r[0], r[4], r[5]])).toEqual([
      [51, 0, 0],
      [52, 0, 0],
      [53, 0, 0],
    ])
    expect(first.hazards).toEqual([])
  })

  it('rt-not-initialized: a render target written first after its activation, its flag in the layout', async () => {
    const runId = await runOf(D3D12, [
      { e: 'frame', n: 0 },
      { e: 'heap', id: 60, size: 4 * MiB, type: 'default', name: 'Targets' },
      { e: 'placed', id: 61, heap: 60, offset: 0, kind: 'texture', size: 1 * MiB, width: 512, height: 512, format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable'], name: 'Target' },
      { e: 'placed', id: 62, heap: 60, offset: 0, kind: 'buffer', size: 1 * MiB, name: 'Scratch' },
      { e: 'barrier', after: 62 }, // step 0
      { e: 'access', id: 62, op: 'write' }, // 1
      { e: 'barrier', after: 61, before: 62 }, // 2
      { e: 'access', id: 61, op: 'write' }, // 3: no clear, discard or copy first
      { e: 'access', id: 61, op: 'read' }, // 4
    ])
    const a = await placements({ runId, frame: 0 })
    expect(a.steps).toBe(5)
    expect(kinds(a)).toEqual(['barrier', 'access', 'barrier', 'access', 'access'])
    // both placed during the frame, before its first step
    expect(rects(a)).toEqual([
      [61, 'Target', 0, 1048576, 0, 5],
      [62, 'Scratch', 0, 1048576, 0, 5],
    ])
    expect(Array.from(a.heaps[0].resources.target)).toEqual([1, 0])
    // Scratch active [0, 2); Target from its barrier to the end of the frame, [2, 5)
    expect(Array.from(a.heaps[0].active)).toEqual([1, 0, 2, 0, 2, 5])
    expect(Array.from(a.heaps[0].overlaps)).toEqual([0, 1])
    expect(ops(a)).toEqual(['write', 'write', 'read'])
    expect(a.hazards).toEqual([
      {
        rule: 'rt-not-initialized',
        resources: [61],
        heapIndex: 0,
        indices: [0],
        heap: 60,
        range: [0, 1048576],
        step: 3,
        message: 'render target 61 written after its activation at frame 0 without a clear, discard or full copy first',
      },
    ])
  })

  it('barrier-missing: two buffers sharing bytes written in one submit, no activation spans in the advanced model', async () => {
    const runId = await runOf({ ...D3D12, aliasing: 'advanced' }, [
      { e: 'frame', n: 0 },
      { e: 'heap', id: 70, size: 2 * MiB, type: 'default' },
      // [0, 1 MiB) and [512 KiB, 1.5 MiB) share [512 KiB, 1 MiB)
      { e: 'placed', id: 71, heap: 70, offset: 0, kind: 'buffer', size: 1 * MiB, name: 'Left' },
      { e: 'placed', id: 72, heap: 70, offset: 512 * KiB, kind: 'buffer', size: 1 * MiB, name: 'Right' },
      { e: 'frame', n: 1 },
      { e: 'access', id: 71, op: 'write' }, // step 0
      { e: 'access', id: 72, op: 'write' }, // 1: same submit, no barrier
      { e: 'submit' }, // 2
      { e: 'access', id: 71, op: 'read' }, // 3: another submit, no hazard
      { e: 'placed', id: 73, heap: 70, offset: 1536 * KiB, kind: 'buffer', size: 512 * KiB, name: 'Late' },
      { e: 'access', id: 73, op: 'write' }, // 4
      { e: 'free', id: 70 }, // the heap and all in it end at 5
    ])
    const a = await placements({ runId, frame: 1 })
    expect(a.aliasing).toBe('advanced')
    expect(kinds(a)).toEqual(['access', 'access', 'submit', 'access', 'access'])
    // a heap without a name; Late placed after step 3 starts at 4
    expect(a.heaps.map((h) => [h.id, h.name, h.size, h.from, h.to])).toEqual([[70, '', 2097152, 0, 5]])
    expect(rects(a)).toEqual([
      [71, 'Left', 0, 1048576, 0, 5],
      [72, 'Right', 524288, 1048576, 0, 5],
      [73, 'Late', 1572864, 524288, 4, 5],
    ])
    expect(Array.from(a.heaps[0].active)).toEqual([])
    expect(Array.from(a.heaps[0].overlaps)).toEqual([0, 1])
    expect(Array.from(a.barriers.step)).toEqual([])
    expect(a.hazards).toEqual([
      {
        rule: 'barrier-missing',
        resources: [72, 71],
        heapIndex: 0,
        indices: [1, 0],
        heap: 70,
        range: [524288, 1048576],
        step: 1,
        message: 'buffer 72 written after buffer 71 was written on the same bytes in the same submit at frame 1, without an aliasing barrier between them',
      },
    ])
  })

  it('a capture without placed resources has an empty layout', async () => {
    const runId = await runOf(D3D12, [{ e: 'frame', n: 0 }, { e: 'buffer', id: 1, size: 1024 }])
    const a = await placements({ runId, frame: 0 })
    expect([a.steps, a.heaps.length, a.hazards.length]).toEqual([0, 0, 0])
  })

  it('refuses a bad query before the engine hears of it', async () => {
    const runId = await runOf(D3D12, [{ e: 'frame', n: 0 }])
    await expect(placements({ runId, frame: -1 })).rejects.toThrow(PayloadError)
    await expect(placements({ runId, frame: 0.5 })).rejects.toThrow(PayloadError)
    await expect(placements({ runId, frame: 0, extra: 1 })).rejects.toThrow(PayloadError)
    await expect(placements({ runId: 'run-none', frame: 0 })).rejects.toThrow(/no run run-none/)
  })

  it('stops marking past the most steps shown, and says so', async () => {
    const records: object[] = [
      { e: 'frame', n: 0 },
      { e: 'heap', id: 80, size: 64 * KiB, type: 'default' },
      { e: 'placed', id: 81, heap: 80, offset: 0, kind: 'buffer', size: 64 * KiB },
      { e: 'barrier', after: 81 },
    ]
    for (let i = 0; i < MAX_PLACEMENT_STEPS; i++) records.push({ e: 'access', id: 81, op: 'read' })
    const runId = await runOf(D3D12, records)
    const a = await placements({ runId, frame: 0 })
    // the barrier and MAX − 1 reads are marked; the last read is not
    expect(a.steps).toBe(MAX_PLACEMENT_STEPS)
    expect(a.accesses.step.length).toBe(MAX_PLACEMENT_STEPS - 1)
    expect(a.truncated).toBe(true)
    expect(rects(a)[0].slice(4)).toEqual([0, MAX_PLACEMENT_STEPS])
  })
})

describe('the placement layouts of a generated Vulkan capture', () => {
  const FRAMES = 120
  let store: CaptureStore
  let runId = ''

  beforeAll(async () => {
    store = await generatedStore('vulkan-hazards', FRAMES, 3)
    runId = (await engine.addRun(loaded(store))).id
  })

  it('draws the attachment heap at the mistake’s frame, with the read of the ambient-occlusion target marked', async () => {
    // three quarters of 120 frames: frame number 90, index 89 (tests/unit/main/analysis/vulkan/hazards.test.ts)
    const a = await placements({ runId, frame: 89 })
    const heap = a.heaps.findIndex((h) => h.name === 'AttachmentHeap')
    expect(heap).toBeGreaterThanOrEqual(0)
    const r = a.heaps[heap].resources
    const ssao = r.name.indexOf('SSAO.Target')
    const bloom = r.name.indexOf('Bloom.Setup')
    expect([ssao, bloom].every((i) => i >= 0)).toBe(true)
    // both 3.75 MiB at offset 0, sharing all their bytes
    expect([r.offset[ssao], r.size[ssao], r.offset[bloom], r.size[bloom]]).toEqual([0, 3932160, 0, 3932160])
    const overlaps = Array.from(a.heaps[heap].overlaps)
    const pairs = overlaps.flatMap((_, k) => (k % 2 ? [] : [[overlaps[k], overlaps[k + 1]].sort().join()]))
    expect(pairs).toContain([ssao, bloom].sort().join())
    const [hazard] = a.hazards
    expect(a.hazards.length).toBe(1)
    expect(hazard).toMatchObject({ rule: 'access-inactive', resources: [r.id[ssao], r.id[bloom]], heapIndex: heap, indices: [ssao, bloom], range: [0, 3932160] })
    // the hazard's step is the last read of the ambient-occlusion target, after bloom's barrier
    const reads = Array.from(a.accesses.step).filter((_, k) => a.accesses.heap[k] === heap && a.accesses.resource[k] === ssao && ACCESS_OPS[a.accesses.op[k]] === 'read')
    expect(hazard.step).toBe(reads[reads.length - 1])
    const bloomBarrier = Array.from(a.barriers.step).find((_, k) => a.barriers.afterHeap[k] === heap && a.barriers.after[k] === bloom)!
    expect(hazard.step).toBeGreaterThan(bloomBarrier)
    // the ambient-occlusion target's active span ends at bloom's barrier
    const active = a.heaps[heap].active
    const spans: number[][] = []
    for (let k = 0; k < active.length; k += 3) if (active[k] === ssao) spans.push([active[k + 1], active[k + 2]])
    expect(spans.map((s) => s[1])).toContain(bloomBarrier)
  })

  it('carries exactly the hazards the list has, frame by frame, wherever its checkpoints are', async () => {
    const listed = (await hazards(runId)).entries.filter((e) => e.severity === 'hazard')
    expect(listed.length).toBe(1)
    const dense = new PlacementLayouts(store, { checkpointChecked: 7 })
    const sparse = new PlacementLayouts(store, { checkpointChecked: Infinity, checkpointRecords: Infinity })
    for (let f = 0; f < FRAMES; f++) {
      const a = dense.layout(runId, f)
      expect(a.hazards.map((h) => [h.rule, h.resources, h.heap, h.range, h.message])).toEqual(
        listed.filter((e) => e.frame === f).map((e) => [e.rule, e.resources, e.heap, e.range, e.message]),
      )
      if (f % 17 === 0 || f === 89) expect(a).toEqual(sparse.layout(runId, f))
    }
    expect(dense.checkpointCount).toBeGreaterThan(10)
    expect(sparse.checkpointCount).toBe(1)
  })
})
