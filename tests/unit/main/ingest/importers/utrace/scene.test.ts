/**
 * The scene the app's end-to-end test opens (scene.ts), worked out by hand: 61 frames; 3 heaps, 120 placed and
 * 3 committed resources made; at the end 60 textures, 60 − 25 = 35 buffers (frees on the even frames 12 to 60)
 * and 2 render targets live, in 3 + 2 heaps.
 */
import { describe, expect, it } from 'vitest'
import { readUtrace, utraceToObserved } from '../../../../../../src/main/ingest/importers/utrace'
import { SCENE, sceneTrace } from './scene'

describe('the end-to-end scene', () => {
  it('has its frames, heaps, placed resources at their offsets and tags', () => {
    const observed = utraceToObserved(readUtrace(sceneTrace()))
    expect(observed.frameCount).toBe(61)
    expect(observed.counts).toEqual({ heaps: 3, placed: 120, committed: 3 })
    const heaps = observed.records.filter((r) => r.e === 'heap')
    expect(heaps.slice(0, 3)).toEqual([
      { e: 'heap', id: 1, size: 4 << 20, type: 'default', name: 'Buffer Pool D3D12Heap', memory: 'video' },
      { e: 'heap', id: 2, size: 16 << 20, type: 'default', name: 'Texture Pool D3D12Heap', memory: 'video' },
      { e: 'heap', id: 3, size: 2 << 20, type: 'upload', name: 'Upload Pool D3D12Heap', memory: 'video' },
    ])
    const live = new Set<number>()
    const liveHeaps = new Set<number>()
    for (const r of observed.records) {
      if (r.e === 'placed') live.add(r.id)
      else if (r.e === 'release') live.delete(r.id)
      else if (r.e === 'heap') liveHeaps.add(r.id)
      else if (r.e === 'free') liveHeaps.delete(r.id)
    }
    expect(live.size).toBe(60 + 35 + 2)
    expect(liveHeaps.size).toBe(5)
    const last = observed.records.filter((r) => r.e === 'placed' && r.tag === 'Textures').at(-1)
    expect(last).toMatchObject({ heap: 2, offset: 59 * SCENE.textureSize, size: SCENE.textureSize, callstack: ['Game-D3D12RHI.dll+0x1234', 'Game-D3D12RHI.dll+0x8000', '0x123456'] })
  })

  it('without frame events, is cut into buckets: 999.96 ms gives 61 frames of 16.6 ms, 10 of 100 ms', () => {
    const trace = readUtrace(sceneTrace(false))
    expect(utraceToObserved(trace).frameCount).toBe(61)
    expect(utraceToObserved(trace, { bucketMs: 100 }).frameCount).toBe(10)
  })
})
