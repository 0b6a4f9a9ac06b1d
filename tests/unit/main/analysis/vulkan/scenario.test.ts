/**
 * The generated `vulkan` scenario as a run: the Vulkan model's allocators show in the heap and type series as
 * the capture asks for them, the figures agree with each other every frame, snapshots from checkpoints equal a
 * replay from frame 0, and the inspector's table, pools, details and playback speak of memory types and heaps.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { VulkanReplay, vulkanConfigOf, vulkanSeriesName as vk, VK_HEAP_FIELDS } from '../../../../../src/main/analysis/vulkan/replay'
import { VulkanSnapshots } from '../../../../../src/main/analysis/vulkan/snapshot'
import { LocalEngine, type Run } from '../../../../../src/main/engine/engine'
import { recordsOf } from '../../../../../src/main/ingest/records'
import type { CaptureStore } from '../../../../../src/main/ingest/store'
import type { PlaybackFrame } from '../../../../../src/shared/ipc'
import { MiB } from '../../../../../src/shared/units'
import { generatedStore, loaded } from './helpers'
import { onFakeClock } from '../../fakeClock'

const FRAMES = 120
const engine = new LocalEngine()
let store: CaptureStore
let run: Run

beforeAll(async () => {
  store = await generatedStore('vulkan', FRAMES, 5)
  const added = await engine.addRun(loaded(store))
  expect(added.backend.id).toBe('vulkan')
  run = added
})

const series = (name: string) => run.replay.series.get(name) ?? new Float64Array(FRAMES)

interface TextureLike {
  e: string
  name?: string
  memoryRequirements?: { size: number }
  dedicated?: string
}

describe('the vulkan scenario as a run', () => {
  it('replays on its own device with nothing the model could not honour', () => {
    expect(run.summary.vulkan?.heaps.map((h) => [h.name, h.flags])).toEqual([
      ['Heap 0', ['DEVICE_LOCAL']],
      ['Heap 1', []],
      ['Heap 2', ['DEVICE_LOCAL']],
    ])
    expect(run.summary.vulkan?.types.map((t) => t.propertyFlags.join('|'))).toEqual([
      'DEVICE_LOCAL',
      'HOST_VISIBLE|HOST_COHERENT',
      'HOST_VISIBLE|HOST_CACHED',
      'DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT',
    ])
    // No memory-type fallback, no full staging ring, no unknown id.
    expect(run.summary.vulkan?.diagnostics).toEqual({})
    expect(run.config?.['vulkan.staging.ringSize']).toBe(128 * MiB)
  })

  it('gives the render targets the driver wants dedicated and the 256 MiB pool their own memory, the rest blocks', () => {
    // Before the resize: the textures asking for dedicated memory, or past vulkan.dedicatedMinSize (128 MiB).
    const resize = Math.round(FRAMES * 0.6)
    let dedicated = 0
    let frame = 0
    for (const r of recordsOf(store) as Iterable<unknown> as Iterable<TextureLike>) {
      if (r.e === 'frame') frame++
      if (frame >= resize) break
      if (r.e !== 'texture' || !r.memoryRequirements) continue
      if (r.dedicated === 'preferred' || r.memoryRequirements.size >= 128 * MiB) dedicated += r.memoryRequirements.size
    }
    // 256 MiB of BC7 pool and the six 2560×1440 targets.
    expect(dedicated).toBeGreaterThan(256 * MiB)
    expect(series(vk.heap(0, 'dedicatedBytes'))[0]).toBe(dedicated)
    expect(series(vk.heap(0, 'dedicatedBytes'))[resize - 2]).toBe(dedicated)
    // The resize makes 3840×2160 targets; the old ones stay until the GPU finished the frame that released them.
    const after = Array.from(series(vk.heap(0, 'dedicatedBytes')).slice(resize - 1))
    expect(Math.max(...after)).toBeGreaterThan(after[after.length - 1])
    expect(after[after.length - 1]).toBeGreaterThan(dedicated)
    // Meshes and material textures: blocks of 256 MiB in type 0.
    expect(series(vk.type(0, 'blockBytes'))[FRAMES - 1] % (256 * MiB)).toBe(0)
    expect(series(vk.type(0, 'blockBytes'))[FRAMES - 1]).toBeGreaterThan(0)
  })

  it('bumps per-frame data through linear blocks and uploads through the staging ring, all of it every frame', () => {
    const linear = series('upload.linearBytes')
    const staging = series('upload.stagingBytes')
    const uploaded = series('upload.bytes')
    const locks = series('upload.lockBytes')
    for (let f = 0; f < FRAMES; f++) {
      expect(linear[f]).toBeGreaterThan(0)
      // Every upload and lock went to the linear blocks or the ring, none to a temporary allocation.
      expect(linear[f] + staging[f]).toBe(uploaded[f] + locks[f])
    }
    expect(series('upload.overflowBytes').every((v) => v === 0)).toBe(true)
    // Per-frame memory is in system memory's HOST_VISIBLE|HOST_COHERENT type: 16 MiB linear blocks and the ring.
    expect(series(vk.type(1, 'frameBytes'))[FRAMES - 1] % (16 * MiB)).toBe(0)
    expect(series(vk.heap(1, 'frameBytes'))[FRAMES - 1]).toBeGreaterThanOrEqual(128 * MiB + 16 * MiB)
  })

  it('keeps released bytes pending until the GPU finished their frame', () => {
    // Worked out from the records alone: a release of a resource the model placed (volatile buffers are frame
    // data, bound ones the application's) stays pending while its frame is after the last one the GPU finished,
    // by the capture's gpu records, or frame n − 2 at frame n before the first of them.
    type Rec = { e: string; n?: number; id?: number; usage?: string[]; explicit?: boolean; memoryRequirements?: { size: number } }
    const sizes = new Map<number, number>()
    const released: { frame: number; size: number }[] = []
    const expected: number[] = []
    let completed = -Infinity
    let sawGpu = false
    let n = 0
    const sample = () => expected.push(released.filter((r) => r.frame > completed).reduce((sum, r) => sum + r.size, 0))
    for (const r of recordsOf(store) as Iterable<unknown> as Iterable<Rec>) {
      if (r.e === 'frame') {
        if (n > 0) sample()
        n = r.n as number
        if (!sawGpu) completed = Math.max(completed, n - 2)
      } else if (r.e === 'gpu') {
        sawGpu = true
        completed = Math.max(completed, r.n as number)
      } else if ((r.e === 'buffer' || r.e === 'texture') && r.memoryRequirements) {
        if (!r.usage?.includes('Volatile') && !r.explicit) sizes.set(r.id as number, r.memoryRequirements.size)
      } else if (r.e === 'release' && sizes.has(r.id as number)) {
        released.push({ frame: n, size: sizes.get(r.id as number) as number })
        sizes.delete(r.id as number)
      }
    }
    sample()
    const pending = Array.from({ length: FRAMES }, (_, f) => [0, 1, 2].reduce((sum, h) => sum + series(vk.heap(h, 'pendingFreeBytes'))[f], 0))
    expect(pending).toEqual(expected)
    expect(expected.filter((v) => v > 0).length).toBeGreaterThan(10)
  })

  it('adds up every frame: classes to allocated, used and free to allocated, heaps and types to the total', () => {
    const heaps = run.summary.vulkan!.heaps.length
    const types = run.summary.vulkan!.types.length
    for (let f = 0; f < FRAMES; f++) {
      let total = 0
      for (let h = 0; h < heaps; h++) {
        const at = (field: (typeof VK_HEAP_FIELDS)[number]) => series(vk.heap(h, field))[f]
        expect(at('blockBytes') + at('dedicatedBytes') + at('frameBytes') + at('appBytes')).toBe(at('allocatedBytes'))
        expect(at('usedBytes') + at('freeBytes')).toBe(at('allocatedBytes'))
        total += at('allocatedBytes')
      }
      let byType = 0
      for (let t = 0; t < types; t++) byType += series(vk.type(t, 'allocatedBytes'))[f]
      expect(series('total.heapBytes')[f]).toBe(total)
      expect(byType).toBe(total)
    }
  })

  it('rebuilds snapshots from checkpoints as a replay from frame 0 does', async () => {
    const config = vulkanConfigOf(store.header)
    const dense = await VulkanReplay.run(store, { config, checkpointRecords: 300 })
    const whole = await VulkanReplay.run(store, { config, checkpointRecords: Infinity })
    expect(dense.checkpointStats().count).toBeGreaterThan(5)
    expect(dense.checkpointStats().maxRecords).toBeLessThan(whole.checkpointStats().maxRecords)
    const a = new VulkanSnapshots(dense)
    const b = new VulkanSnapshots(whole)
    for (const frame of [0, 37, 71, 72, FRAMES - 1]) {
      expect(a.snapshot('r', frame)).toEqual(b.snapshot('r', frame))
      const query = { runId: 'r', frame, offset: 0, limit: 5000, sort: 'occupied' as const, descending: true }
      expect(a.resources(query)).toEqual(b.resources(query))
      expect(dense.modelAt(frame).model.view()).toEqual(whole.modelAt(frame).model.view())
    }
    // The engine's run answers the same.
    expect(await engine.snapshot({ runId: run.id, frame: 71 })).toEqual({ ...b.snapshot('r', 71), runId: run.id })
  })

  it('lists resources by memory type and heap, in pools named for their VkDeviceMemory', async () => {
    const last = FRAMES - 1
    const page = await engine.resources({ runId: run.id, frame: last, offset: 0, limit: 5000, sort: 'occupied', descending: true })
    expect(page.facets.placement).toEqual(['Type 0', 'Type 1', 'Type 2'])
    expect(page.facets.heap).toEqual(['Heap 0', 'Heap 1'])
    const byName = new Map(page.rows.map((r) => [r.name, r]))
    expect(byName.get('VT.PhysicalPool')).toMatchObject({ kind: 'texture', placement: 'Type 0', heap: 'Heap 0', occupied: 256 * MiB })
    expect(byName.get('VT.PhysicalPool')?.pool).toMatch(/^Type 0\/Dedicated\/\d+$/)
    expect(byName.get('View.UniformBuffer')).toMatchObject({ placement: 'Type 1', heap: 'Heap 1', tag: 'UniformBuffers' })
    expect(byName.get('InstanceData.Upload')).toMatchObject({ placement: 'Type 2', pool: 'PersistentUpload', offset: 0 })
    expect(byName.get('GPUTimestamps.Readback')).toMatchObject({ placement: 'Type 2', heap: 'Heap 1' })
    const mesh = page.rows.find((r) => r.tag === 'Meshes')!
    expect(mesh.pool).toMatch(/^Type 0\/FreeList\/\d+$/)
    const details = await engine.resource({ runId: run.id, frame: last, id: mesh.id })
    expect(details?.route[2]).toBe('memory type 0 (DEVICE_LOCAL): the first allowed type with every wanted flag')
    expect(details?.route.at(-1)).toMatch(/^free list: the first block with room, best fit inside → Type 0\/FreeList\/\d+ at offset \d+$/)
    // Pools: one map per VkDeviceMemory, its blocks tiling it.
    const snapshot = await engine.snapshot({ runId: run.id, frame: last })
    expect(snapshot.liveCount).toBe(page.total)
    for (const pool of snapshot.pools.filter((p) => p.placement !== 'Application')) {
      let end = 0
      for (let b = 0; b < pool.offset.length; b++) {
        expect(pool.offset[b]).toBe(end)
        end = pool.offset[b] + pool.size[b]
      }
      expect(end).toBe(pool.bytes)
    }
  })

  it('answers the run config with the Vulkan keys, and what-if reruns with another texture allocator', async () => {
    const config = await engine.runConfig(run.id)
    expect(config.find((c) => c.key === 'vulkan.staging.ringSize')).toMatchObject({ capture: 128 * MiB, value: 128 * MiB })
    const outcome = await engine.rerun('buddy', run.id, { 'vulkan.textureAllocator': 1 })
    if (!outcome.ok) throw new Error(outcome.error.message)
    const rerun = await engine.resources({ runId: outcome.summary.runId, frame: FRAMES - 1, offset: 0, limit: 5000 })
    expect(rerun.rows.filter((r) => r.tag === 'Textures').every((r) => (r.pool ?? '').includes('/Buddy/'))).toBe(true)
    const diff = await engine.resourceDiff({ runA: run.id, runB: outcome.summary.runId, offset: 0, limit: 5000 })
    expect(diff.counts.onlyA).toBe(0)
    expect(diff.counts.onlyB).toBe(0)
  })

  it('plays back with heap bytes per memory heap', async () => {
    const frames: PlaybackFrame[] = []
    await onFakeClock(async () => {
      await engine.startPlayback({ runId: run.id, playbackId: 'vk', from: 10, to: 20, fps: 200 }, (f) => frames.push(f))
      vi.advanceTimersByTime(60)
      expect(frames.length).toBe(1)
      await engine.ackPlayback('vk', frames[0].frame)
      vi.advanceTimersByTime(60)
      await engine.stopPlayback('vk')
    })
    expect(frames.length).toBe(2)
    for (const f of frames) {
      expect(Object.keys(f.heapBytes)).toEqual(['Heap 0', 'Heap 1', 'Heap 2'])
      for (let h = 0; h < 3; h++) expect(f.heapBytes[`Heap ${h}`]).toBe(series(vk.heap(h, 'allocatedBytes'))[f.frame])
      expect(f.liveCount).toBe(series('resources.live')[f.frame])
    }
    expect(frames[1].skipped).toBeGreaterThan(0)
    const residency = await engine.residencyEvents({ runId: run.id, from: 0, to: FRAMES, limit: 10 })
    expect(residency.frame.length).toBe(0)
  })
})
