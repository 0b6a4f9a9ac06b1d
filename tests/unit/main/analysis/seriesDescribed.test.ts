/**
 * Every series the replays write is described in src/shared/series.ts with the unit the replay gives it, and the
 * replays keep an empty series exactly where its description says.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { vulkanConfigOf, VulkanReplay } from '../../../../src/main/analysis/vulkan/replay'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { resolveConfig } from '../../../../src/shared/model'
import { describeSeries, keepsEmpty } from '../../../../src/shared/series'
import type { SeriesInfo } from '../../../../src/shared/ipc'

const DIR = join(__dirname, '__golden__')

function expectDescribed(list: SeriesInfo[], backend: string, get: (name: string) => Float64Array | undefined) {
  expect(list.length).toBeGreaterThan(10)
  for (const info of list) {
    const d = describeSeries(info.name)
    expect(d, info.name).not.toBeNull()
    expect(d!.unit, info.name).toBe(info.unit)
    expect(d!.backends, info.name).toContain(backend)
    // a series the backend drops when empty is never written empty
    if (!keepsEmpty(info.name, backend)) expect(get(info.name)!.some((v) => v !== 0), info.name).toBe(true)
  }
}

describe('series the replays write', () => {
  it('are all described, D3D12', async () => {
    const result = await loadCaptureFile(join(DIR, 'demo.hscap.gz'))
    const replay = await Replay.run(result.store, { config: resolveConfig(result.store.header.config as Record<string, number> | undefined, {}) })
    const list = replay.series.list()
    expectDescribed(list, 'd3d12', (n) => replay.series.get(n))
    // the heaps, residency and transients the lanes draw are there even where empty
    const names = new Set(list.map((s) => s.name))
    for (const n of ['heap.READBACK.heapBytes', 'residency.residentBytes', 'transient.heapBytes']) expect(names.has(n), n).toBe(true)
  }, 60_000)

  it('are all described, Vulkan', async () => {
    const result = await loadCaptureFile(join(DIR, 'vulkan-hazards-120.hscap.gz'))
    const replay = await VulkanReplay.run(result.store, { config: vulkanConfigOf(result.store.header) })
    expectDescribed(replay.series.list(), 'vulkan', (n) => replay.series.get(n))
  }, 60_000)
})
