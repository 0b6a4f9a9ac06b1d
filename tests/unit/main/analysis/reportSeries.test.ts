/**
 * A replay read for its report alone (`series: 'report'`, no checkpoint past the first) keeps only the series its
 * report reads, and skips what feeds nothing else: the live resources' rows and tag totals, the aliasing checks
 * (D3D12 and Vulkan) and the Vulkan replay's map of live creates. Its report is the one a whole replay gives, for
 * D3D12 captures (transients, residency, uploads, a budget drop, placed resources with hazards) and Vulkan ones, and
 * every series the report reads is among those kept (reading one not kept throws).
 */
import { describe, expect, it } from 'vitest'
import { replayCapture } from '../../../../src/main/analysis/run'
import { reportReads } from '../../../../src/main/analysis/d3d12/report'
import { vulkanReportReads } from '../../../../src/main/analysis/vulkan/report'
import { vulkanSeriesName } from '../../../../src/main/analysis/vulkan/replay'
import { generated, scan } from '../ingest/helpers'

describe('a replay for the report alone', () => {
  for (const [scenario, frames] of [
    ['demo', 120],
    ['stress', 120],
    ['budget-drop', 150],
    ['raytracing', 40],
    ['vulkan', 150],
    ['vulkan-hazards', 100],
  ] as const) {
    it(`gives the report of a replay that keeps every series (${scenario})`, async () => {
      const { store, error } = scan(await generated(scenario, frames))
      expect(error).toBeUndefined()
      const result = { store, format: 'heapscope-capture' as const, notes: [] }
      const all = await replayCapture(result, [], { checkpoints: false })
      const some = await replayCapture(result, [], { checkpoints: false, series: 'report' })
      expect(JSON.stringify(some.report)).toBe(JSON.stringify(all.report))
      const kept = some.replay.series.list().map((s) => s.name)
      const every = all.replay.series.list().map((s) => s.name)
      expect(kept.length).toBeGreaterThan(0)
      expect(kept.length).toBeLessThan(every.length / 2)
      for (const name of kept) expect(every).toContain(name)
    })
  }

  it('runs no aliasing checks on D3D12 placed resources, and reports what a checked replay reports', async () => {
    // two resources on all of one heap's bytes, each read while the other is the active one: two access-inactive
    const records = [
      { format: 'heapscope-capture', version: 1, api: 'd3d12' },
      { e: 'frame', n: 1 },
      { e: 'heap', id: 50, size: 65536, type: 'default' },
      { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 65536 },
      { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'buffer', size: 65536 },
      { e: 'barrier', after: 51 },
      { e: 'access', id: 52, op: 'read' },
      { e: 'frame', n: 2 },
      { e: 'barrier', after: 52 },
      { e: 'access', id: 51, op: 'read' },
      { e: 'release', id: 51 },
      { e: 'frame', n: 3 },
    ]
    const { store, error } = scan(records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    expect(error).toBeUndefined()
    const result = { store, format: 'heapscope-capture' as const, notes: [] }
    const all = await replayCapture(result, [], { checkpoints: false })
    const some = await replayCapture(result, [], { checkpoints: false, series: 'report' })
    expect(all.replay.checks.hazardRules).toEqual({ 'access-inactive': 2 })
    expect(some.replay.checks.hazardCount).toBe(0)
    expect(JSON.stringify(some.report)).toBe(JSON.stringify(all.report))
  })

  it('keeps the Vulkan heaps\' and types\' report fields for any index, and nothing else of theirs', () => {
    expect(vulkanReportReads('total.heapBytes')).toBe(true)
    expect(vulkanReportReads(vulkanSeriesName.heap(15, 'budgetBytes'))).toBe(true)
    expect(vulkanReportReads(vulkanSeriesName.type(31, 'allocatedBytes'))).toBe(true)
    expect(vulkanReportReads(vulkanSeriesName.heap(0, 'usedBytes'))).toBe(false)
    expect(vulkanReportReads(vulkanSeriesName.type(2, 'freeBytes'))).toBe(false)
    expect(vulkanReportReads('vkheap.x.allocatedBytes')).toBe(false)
    expect(vulkanReportReads('tag.Upload.count')).toBe(false)
    expect(reportReads('total.heapBytes')).toBe(true)
    expect(reportReads('total.occupiedBytes')).toBe(false)
  })
})
