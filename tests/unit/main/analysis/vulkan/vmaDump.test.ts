/**
 * The real VMA dump (AMD Radeon RX 6600 XT) opened as a run: a Vulkan run whose heaps and types are the dump's
 * own numbers, through the engine's queries, and alike with the view the Vulkan model builds of the dump itself.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { vulkanSeriesName as vk } from '../../../../../src/main/analysis/vulkan/replay'
import { LocalEngine, type Run } from '../../../../../src/main/engine/engine'
import { importOptionsOf } from '../../../../../src/main/ingest/importers'
import { loadCaptureFile } from '../../../../../src/main/ingest/read'
import { vmaDumpView } from '../../../../../src/main/model/vulkan/vmaDump'
import { VMA_DUMP } from './helpers'

const engine = new LocalEngine()
let run: Run
const dump = JSON.parse(readFileSync(VMA_DUMP, 'utf8')) as {
  Total: Record<string, number>
  MemoryInfo: Record<string, { Stats: Record<string, number>; MemoryPools: Record<string, { Stats: Record<string, number> }> }>
}

beforeAll(async () => {
  run = await engine.addRun(await loadCaptureFile(VMA_DUMP, { import: importOptionsOf({ model: 'vulkan' }) }))
})

async function atFrame0(names: string[]): Promise<Record<string, number>> {
  const answer = await engine.series({ runId: run.id, series: names, from: 0, to: 1, resolution: 1 })
  return Object.fromEntries(names.map((n) => [n, answer.series[n]?.max[0] ?? NaN]))
}

describe('a VMA dump as a Vulkan run', () => {
  it('is a Vulkan run on the dump\'s device: 2 heaps, 8 types, its limits', async () => {
    const summary = await engine.summary(run.id)
    expect(summary.api).toBe('vulkan')
    expect(summary.format).toBe('vma-json')
    const device = summary.vulkan!
    expect(device.heaps.map((h) => [h.name, h.size, h.flags, h.budget])).toEqual([
      ['Heap 0', 16862150656, [], 16325847040],
      ['Heap 1', 8573157376, ['DEVICE_LOCAL', 'MULTI_INSTANCE'], 7737008128],
    ])
    expect(device.types.map((t) => t.heapIndex)).toEqual([1, 0, 1, 0, 1, 0, 1, 0])
    expect(device.types[3]).toEqual({ index: 3, name: 'Type 3', heapIndex: 0, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'] })
    expect(device).toMatchObject({ maxMemoryAllocationCount: 4096, bufferImageGranularity: 1, nonCoherentAtomSize: 128, defaulted: false })
    expect(device.deviceName).toBe('AMD Radeon RX 6600 XT')
    expect(summary.checks).toEqual({ aliasing: 'simple', hazards: 0, hazardRules: {}, warnings: {} })
  })

  it('holds the dump\'s 69 blocks of 201392128 bytes and its 132 allocations of 73401500 bytes', async () => {
    const v = await atFrame0([
      vk.heap(0, 'allocatedBytes'),
      vk.heap(1, 'allocatedBytes'),
      vk.heap(0, 'memoryCount'),
      vk.heap(1, 'memoryCount'),
      vk.heap(0, 'usedBytes'),
      vk.heap(1, 'usedBytes'),
      'total.heapBytes',
      'total.requestedBytes',
      'resources.live',
    ])
    // MemoryInfo "Heap 0" Stats: 35 blocks, 117473280 bytes; "Heap 1": 34 blocks, 83918848 bytes.
    expect(v[vk.heap(0, 'allocatedBytes')]).toBe(117473280)
    expect(v[vk.heap(1, 'allocatedBytes')]).toBe(83918848)
    expect(v[vk.heap(0, 'memoryCount')] + v[vk.heap(1, 'memoryCount')]).toBe(69)
    expect([v[vk.heap(0, 'memoryCount')], v[vk.heap(1, 'memoryCount')]]).toEqual([35, 34])
    // 117473280 + 83918848 = 201392128, Total.BlockBytes.
    expect(v['total.heapBytes']).toBe(201392128)
    // Allocations: Heap 0 33619968 bytes, Heap 1 39781532: 73401500, Total.AllocationBytes.
    expect([v[vk.heap(0, 'usedBytes')], v[vk.heap(1, 'usedBytes')]]).toEqual([33619968, 39781532])
    expect(v['total.requestedBytes']).toBe(73401500)
    expect(v['resources.live']).toBe(132)
    // The same as the dump says of itself.
    expect([dump.Total.BlockCount, dump.Total.BlockBytes, dump.Total.AllocationCount, dump.Total.AllocationBytes]).toEqual([
      69, 201392128, 132, 73401500,
    ])
  })

  it('puts every block in its memory type, as MemoryInfo counts them per type', async () => {
    const types = [0, 1, 3]
    const v = await atFrame0(types.flatMap((t) => [vk.type(t, 'allocatedBytes'), vk.type(t, 'memoryCount'), vk.type(t, 'allocationCount'), vk.type(t, 'usedBytes')]))
    const stats = (t: number) => {
      for (const heap of Object.values(dump.MemoryInfo)) if (heap.MemoryPools[`Type ${t}`]) return heap.MemoryPools[`Type ${t}`].Stats
      throw new Error(`no type ${t}`)
    }
    // Type 0 (DEVICE_LOCAL): 34 blocks, 83918848 bytes, 68 allocations of 39781532 bytes; type 1
    // (HOST_VISIBLE|HOST_COHERENT): 5, 33558528, 8, 8192; type 3 (…|HOST_CACHED): 30, 83914752, 56, 33611776.
    expect(types.map((t) => [v[vk.type(t, 'memoryCount')], v[vk.type(t, 'allocatedBytes')], v[vk.type(t, 'allocationCount')], v[vk.type(t, 'usedBytes')]])).toEqual([
      [34, 83918848, 68, 39781532],
      [5, 33558528, 8, 8192],
      [30, 83914752, 56, 33611776],
    ])
    for (const t of types) {
      const s = stats(t)
      expect([s.BlockCount, s.BlockBytes, s.AllocationCount, s.AllocationBytes]).toEqual([
        v[vk.type(t, 'memoryCount')],
        v[vk.type(t, 'allocatedBytes')],
        v[vk.type(t, 'allocationCount')],
        v[vk.type(t, 'usedBytes')],
      ])
    }
    // The empty types have no series of their own.
    expect(run.summary.series.some((s) => s.name.startsWith('vktype.2.'))).toBe(false)
  })

  it('shows the same heaps, types and memories as the model\'s own view of the dump', async () => {
    const view = vmaDumpView(dump)
    const snapshot = await engine.snapshot({ runId: run.id, frame: 0 })
    const pick = <T extends { allocatedBytes: number; usedBytes: number; memoryCount: number }>(rows: T[]) =>
      rows.map((r) => [r.allocatedBytes, r.usedBytes, r.memoryCount])
    expect(pick(snapshot.vulkan!.heaps)).toEqual(pick(view.heaps))
    expect(pick(snapshot.vulkan!.types)).toEqual(pick(view.types))
    expect(snapshot.vulkan!.types.map((t) => t.allocationCount)).toEqual(view.types.map((t) => t.allocationCount))
    // One pool map per VkDeviceMemory, with the dump's ranges: sizes and allocations per memory alike.
    expect(snapshot.pools).toHaveLength(69)
    const poolsBySize = snapshot.pools.map((p) => [p.bytes, p.used]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    const memoriesBySize = view.memories.map((m) => [m.size, m.usedBytes]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    expect(poolsBySize).toEqual(memoriesBySize)
    const first = snapshot.pools[0]
    // "Type 0 block 0": 20 allocations and 4 FREE ranges between and after them, the last ending at the block's end.
    expect(first).toMatchObject({ name: 'Type 0 block 0', placement: 'Application', heap: 'Heap 1', bytes: 33554432, used: 14566556 })
    expect(Array.from(first.state).filter((s) => s === 1)).toHaveLength(20)
    expect(first.offset[first.offset.length - 1] + first.size[first.size.length - 1]).toBe(33554432)
    expect(first.heapId).toBe(1)
  })

  it('lists the 132 allocations as resources, placed by memory type and heap', async () => {
    const page = await engine.resources({ runId: run.id, frame: 0, offset: 0, limit: 5000 })
    expect(page.total).toBe(132)
    expect(page.facets.placement).toEqual(['Type 0', 'Type 1', 'Type 3'])
    expect(page.facets.heap).toEqual(['Heap 0', 'Heap 1'])
    const depth = page.rows.find((r) => r.occupied === 6095200)!
    expect(depth).toMatchObject({ kind: 'texture', placement: 'Type 0', heap: 'Heap 1', pool: 'Type 0 block 0', offset: 131072 })
    const details = await engine.resource({ runId: run.id, frame: 0, id: depth.id })
    expect(details?.route.at(-1)).toBe('bound by the application to memory 1 (type 0) at offset 131072')
  })

  it('reports its heaps and types by name', async () => {
    const report = await engine.report(run.id)
    expect(report.heaps).toEqual({
      'Heap 0': { peakBytes: 117473280, endBytes: 117473280 },
      'Heap 1': { peakBytes: 83918848, endBytes: 83918848 },
    })
    expect(report.byPlacement).toEqual({
      'Type 0': { peakBytes: 83918848, endBytes: 83918848, count: 68 },
      'Type 1': { peakBytes: 33558528, endBytes: 33558528, count: 8 },
      'Type 3': { peakBytes: 83914752, endBytes: 83914752, count: 56 },
    })
    expect(report.peak).toEqual({ frame: 0, bytes: 201392128 })
    // Free bytes of the blocks: 201392128 − 73401500.
    expect(report.waste.poolFreeBytes).toBe(127990628)
    expect(report.resources).toEqual({ created: 132, released: 0, named: 64, liveAtEnd: 132 })
  })
})
