import { describe, expect, it } from 'vitest'
import type { Backend } from '../../../../src/main/analysis/backend'
import { BACKENDS, backendById, backendFor } from '../../../../src/main/analysis/backends'
import { d3d12Backend } from '../../../../src/main/analysis/d3d12/backend'
import type { CaptureHeader } from '../../../../src/shared/capture'

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
