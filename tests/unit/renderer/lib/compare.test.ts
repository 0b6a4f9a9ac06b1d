import { describe, expect, it } from 'vitest'
import { GiB, MiB } from '../../../../src/shared/units'
import { reportDeltas } from '../../../../src/renderer/src/lib/compare'
import { report } from '../fakeHost'

describe('report deltas', () => {
  it('gives B − A and the relative change of each figure', () => {
    const rows = reportDeltas(
      report(),
      report({
        peak: { frame: 5, bytes: 512 * MiB },
        residency: { budgetBytes: 128 * MiB, evictions: 5, evictedBytes: 30 * MiB, makeResident: 5, overBudgetFrames: 10 },
        byPlacement: {
          TextureReadOnlyPool: { peakBytes: 64 * MiB, endBytes: 64 * MiB, count: 20 },
          Committed: { peakBytes: 8 * MiB, endBytes: 8 * MiB, count: 2 },
        },
      }),
    )
    const peak = rows.find((r) => r.id === 'peak')!
    expect([peak.a, peak.b, peak.delta, peak.relative]).toEqual([1024 * MiB, 512 * MiB, -512 * MiB, -0.5])
    const evictions = rows.find((r) => r.id === 'evictions')!
    expect([evictions.delta, evictions.relative]).toEqual([2, 2 / 3])
    // Committed is only in B: from nothing, no relative change
    const committed = rows.find((r) => r.id === 'placementPeak' && r.params?.placement === 'Committed')!
    expect([committed.a, committed.b, committed.relative]).toEqual([0, 8 * MiB, null])
    // placements in the model's order: Committed before TextureReadOnlyPool
    const placements = rows.filter((r) => r.id === 'placementPeak').map((r) => r.params?.placement)
    expect(placements).toEqual(['Committed', 'TextureReadOnlyPool'])
    expect(rows.find((r) => r.id === 'cacheHitRate')!.unit).toBe('ratio')
  })

  it('lists the heaps the reports name: the memory heaps of a Vulkan run by name', () => {
    const vk = (bytes: number) => report({ heaps: { 'Heap 0': { peakBytes: bytes, endBytes: bytes }, 'Heap 1': { peakBytes: 1, endBytes: 1 } } as never })
    const rows = reportDeltas(vk(2 * GiB), vk(GiB)).filter((r) => r.id === 'heapPeak')
    expect(rows.map((r) => [r.params?.heap, r.delta])).toEqual([
      ['Heap 0', -GiB],
      ['Heap 1', 0],
    ])
  })

  it('leaves a figure one report lacks absent, not 0: observed against modelled', () => {
    // an observed trace: its own heaps, no placements, no transients, only the free bytes in its heaps as waste
    const observed = report({
      heaps: { local: { peakBytes: 16 * MiB, endBytes: 0 } } as never,
      byPlacement: undefined,
      transient: undefined,
      waste: { poolFreeBytes: 2 * MiB },
    })
    const modelled = report()
    const rows = reportDeltas(observed, modelled)
    const at = (id: string, params?: Record<string, string>) =>
      rows.find((r) => r.id === id && (!params || Object.entries(params).every(([k, v]) => r.params?.[k] === v)))!
    const local = at('heapPeak', { heap: 'local' })
    expect([local.a, local.b, local.delta, local.relative]).toEqual([16 * MiB, null, null, null])
    const def = at('heapPeak', { heap: 'DEFAULT' })
    expect([def.a, def.b, def.delta]).toEqual([null, modelled.heaps.DEFAULT.peakBytes, null])
    for (const id of ['alignment', 'pendingFree', 'transientHeaps', 'aliasingSavings', 'cacheHitRate']) {
      expect([at(id).a, at(id).delta], id).toEqual([null, null])
      expect(at(id).b, id).not.toBeNull()
    }
    const placement = rows.find((r) => r.group === 'placements')!
    expect([placement.a, placement.delta]).toEqual([null, null])
    // a figure both have still gives its delta
    const free = at('poolFree')
    expect([free.a, free.b, free.delta]).toEqual([2 * MiB, modelled.waste.poolFreeBytes, modelled.waste.poolFreeBytes - 2 * MiB])
  })
})
