import { describe, expect, it } from 'vitest'
import type { Backend, BackendRun } from '../../../../src/main/analysis/backend'
import { BACKENDS, backendById, backendFor } from '../../../../src/main/analysis/backends'
import { d3d12Backend } from '../../../../src/main/analysis/d3d12/backend'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCapture } from '../../../../src/main/ingest/read'
import type { CaptureHeader } from '../../../../src/shared/capture'
import { MiB } from '../../../../src/shared/units'
import { chunksOf } from '../ingest/helpers'
import { generatedStore, loaded } from './vulkan/helpers'

const header = (h: Record<string, unknown>) => ({ format: 'heapscope-capture', version: 1, ...h }) as CaptureHeader

/** A source the list does not know, taken by the app name its header gives, replayed as D3D12 replays. */
const fake: Backend = { ...d3d12Backend, id: 'fake', accepts: (h) => h.app === 'FakeMetal' }

describe('the list of backends', () => {
  it('gives a D3D12 capture, one without an api and an RMV trace of a Vulkan application to d3d12', () => {
    expect(backendFor(header({ api: 'd3d12' })).id).toBe('d3d12')
    expect(backendFor(header({})).id).toBe('d3d12')
    expect(backendFor(header({ api: 'vulkan', source: 'rmv' })).id).toBe('d3d12')
  })

  it('gives an observed trace (format 1.5) to observed, whatever its api', () => {
    for (const observed of ['rmv', 'gpgmm', 'vma', 'utrace']) {
      expect(backendFor(header({ api: 'vulkan', observed })).id).toBe('observed')
      expect(backendFor(header({ api: 'd3d12', observed })).id).toBe('observed')
    }
  })

  it('gives a Vulkan capture to vulkan', () => {
    expect(backendFor(header({ api: 'vulkan' })).id).toBe('vulkan')
  })

  it('asks in order: the first that accepts wins, and d3d12 takes what none before it took', () => {
    expect(BACKENDS.map((b) => b.id)).toEqual(['observed', 'vulkan', 'd3d12'])
    const list = [fake, ...BACKENDS]
    expect(backendFor(header({ app: 'FakeMetal' }), undefined, list).id).toBe('fake')
    expect(backendFor(header({ app: 'FakeMetal', api: 'vulkan' }), undefined, list).id).toBe('fake')
    expect(backendFor(header({ app: 'Other', api: 'vulkan' }), undefined, list).id).toBe('vulkan')
    // the same header without the fake in the list
    expect(backendFor(header({ app: 'FakeMetal' })).id).toBe('d3d12')
    expect(backendById('fake', list)).toBe(fake)
    expect(backendById('fake')).toBeUndefined()
  })

  it('says so when no backend takes a capture', () => {
    expect(() => backendFor(header({ api: 'vulkan' }), undefined, [fake])).toThrow('no backend replays a capture with api "vulkan"')
  })

  it('offers config keys where a model runs, and none where none does', () => {
    for (const backend of BACKENDS) {
      if (backend.id === 'observed') expect(backend.config).toBeUndefined()
      else expect(backend.config?.names.length).toBeGreaterThan(0)
    }
    expect(backendFor(header({ api: 'vulkan' })).config!.names).toContain('vulkan.blockSize')
    expect(backendFor(header({})).config!.names).toContain('bufferPool.size')
  })
})

/**
 * A new source as its folder would give it: a backend of its own that runs no model (no config, so no what-if) and
 * has no residency or transients, its series, checks, snapshots and report those of the D3D12 replay of the same
 * records. It takes captures whose header names the app FakeMetal.
 */
const metal: Backend = {
  id: 'metal',
  accepts: (h) => h.app === 'FakeMetal',
  replay(store, options = {}) {
    const { run, done } = d3d12Backend.replay(store, { ...options, overrides: {} })
    const bare: BackendRun = {
      store,
      series: run.series,
      checks: run.checks,
      get snapshots() {
        return run.snapshots
      },
      playback: run.playback,
      report: run.report,
      grown: () => run.grown(),
      warm: (frame) => run.warm(frame),
    }
    return { run: bare, done }
  },
}

function captureOf(app: string) {
  const lines = [
    { format: 'heapscope-capture', version: 1, app },
    { e: 'frame', n: 1 },
    { e: 'buffer', id: 1, size: 16 * MiB, usage: ['Static'], name: 'A' },
    { e: 'buffer', id: 2, size: 4 * MiB, usage: ['Static'], name: 'B' },
    { e: 'frame', n: 2 },
    { e: 'release', id: 2 },
    { e: 'frame', n: 3 },
  ]
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
  return loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: `${app}.hscap` })
}

describe('the engine replays through the list it is given', () => {
  it('a backend added to the list replays its captures, with no change to the engine', async () => {
    const engine = new LocalEngine({ backends: [metal, ...BACKENDS] })
    const plain = new LocalEngine()
    const run = await engine.addRun(await captureOf('FakeMetal'))
    const same = await plain.addRun(await captureOf('FakeMetal'))
    expect(run.summary.backend).toBe('metal')
    expect(same.summary.backend).toBe('d3d12')
    // the model that placed the run names itself; the new backend names none, so its summary has no modelName
    expect(same.summary.modelName).toBe('UE 5.8 D3D12')
    expect('modelName' in run.summary).toBe(false)
    // what the new backend lacks is absent: no what-if, no residency, no transients
    expect(run.summary.capabilities).toEqual({})
    expect(same.summary.capabilities).toEqual({ whatIf: true, residency: true, transients: true })
    expect(await engine.runConfig(run.id)).toEqual([])
    expect((await plain.runConfig(same.id)).length).toBeGreaterThan(0)
    const events = await engine.residencyEvents({ runId: run.id, from: 0, to: 3, limit: 100 })
    expect(events.frame.length).toBe(0)
    // its series, report and snapshots are what it replayed: here the D3D12 replay's, so the same figures
    expect(run.summary.series).toEqual(same.summary.series)
    const report = await engine.report(run.id)
    expect(report).toEqual(await plain.report(same.id))
    expect(report.peak.bytes).toBeGreaterThanOrEqual(20 * MiB)
    expect((await engine.snapshot({ runId: run.id, frame: 2 })).liveCount).toBe(1)
    // another app's capture still goes to d3d12 through the same list
    expect((await engine.addRun(await captureOf('Other'))).summary.backend).toBe('d3d12')
    await engine.dispose()
    await plain.dispose()
  })

  it('a Vulkan run names its backend and has a what-if, without residency or transients', async () => {
    const engine = new LocalEngine()
    const run = await engine.addRun(loaded(await generatedStore('vulkan', 10, 1)))
    expect(run.summary.backend).toBe('vulkan')
    expect(run.summary.modelName).toBe('Vulkan')
    expect(run.summary.capabilities).toEqual({ whatIf: true })
    expect(run.summary.vulkan?.heaps.length).toBeGreaterThan(0)
    await engine.dispose()
  })
})
