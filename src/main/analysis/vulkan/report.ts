/**
 * The figures of a whole Vulkan run in the shape `heapscope report --json` prints for any run (docs/cli.md), so
 * `report` and `diff` read Vulkan captures like D3D12 ones: `heaps` are the memory heaps ("Heap 0", "Heap 1", …)
 * and `byPlacement` the memory types ("Type 0", …), each with the bytes of VkDeviceMemory it held at its peak and
 * at the end. Residency and render-graph transients are not part of the Vulkan model: their figures are zero,
 * except the budget, which is the DEVICE_LOCAL heaps' (VK_EXT_memory_budget) at the end, and the over-budget
 * frames: those at whose end a memory heap held more VkDeviceMemory than its budget.
 */
import type { RunReport, VulkanRunFigures } from '../../../shared/ipc'
import type { LoadResult } from '../../ingest/read'
import { RECORD_KIND, type CaptureStore } from '../../ingest/store'
import { ENVELOPE_SERIES, peakEnd, reportEnvelope } from '../reportEnvelope'
import { heapName, typeName, vulkanSeriesName, type VkHeapField, type VkTypeField, type VulkanReplay } from './replay'

/** The fields of each memory heap and memory type buildVulkanRunReport reads. */
const REPORT_HEAP_FIELDS = new Set(['allocatedBytes', 'freeBytes', 'pendingFreeBytes', 'budgetBytes'])
const REPORT_TYPE_FIELDS = new Set(['allocatedBytes'])

/**
 * Whether buildVulkanRunReport reads a series, for any device: all a replay read for its report alone keeps
 * (SeriesTableOptions.keep).
 */
export function vulkanReportReads(name: string): boolean {
  if (ENVELOPE_SERIES.includes(name)) return true
  const [group, index, field] = name.split('.')
  if (index === undefined || !/^\d+$/.test(index)) return false
  if (group === 'vkheap') return name === vulkanSeriesName.heap(Number(index), field as VkHeapField) && REPORT_HEAP_FIELDS.has(field)
  if (group === 'vktype') return name === vulkanSeriesName.type(Number(index), field as VkTypeField) && REPORT_TYPE_FIELDS.has(field)
  return false
}

export function buildVulkanRunReport(result: LoadResult, replay: VulkanReplay): RunReport {
  const { store } = result
  const s = replay.series
  const device = replay.device
  const last = store.frames.length - 1
  const at = (name: string) => (last >= 0 ? (s.get(name)?.[last] ?? 0) : 0)

  const heaps: RunReport['heaps'] = {}
  device.memoryHeaps.forEach((_, h) => {
    heaps[heapName(h)] = peakEnd(s.get(vulkanSeriesName.heap(h, 'allocatedBytes')))
  })

  const live = replay.finalModel().liveFigures()
  const alignment = live.alignmentBytes
  const byPlacement: RunReport['byPlacement'] = {}
  device.memoryTypes.forEach((_, t) => {
    const figures = peakEnd(s.get(vulkanSeriesName.type(t, 'allocatedBytes')))
    const count = live.byType[t] ?? 0
    if (figures.peakBytes === 0 && count === 0) return
    byPlacement[typeName(t)] = { ...figures, count }
  })

  let free = 0
  let pending = 0
  let budget = 0
  device.memoryHeaps.forEach((h, i) => {
    free += at(vulkanSeriesName.heap(i, 'freeBytes'))
    pending += at(vulkanSeriesName.heap(i, 'pendingFreeBytes'))
    if (h.flags.includes('DEVICE_LOCAL')) budget += at(vulkanSeriesName.heap(i, 'budgetBytes'))
  })
  // A frame is over budget when any heap with a budget (0: none known) holds more VkDeviceMemory than it.
  const over = new Uint8Array(store.frames.length)
  device.memoryHeaps.forEach((_, i) => {
    const allocated = s.get(vulkanSeriesName.heap(i, 'allocatedBytes'))
    const limit = s.get(vulkanSeriesName.heap(i, 'budgetBytes'))
    if (!allocated || !limit) return
    for (let f = 0; f < over.length; f++) if (limit[f] > 0 && allocated[f] > limit[f]) over[f] = 1
  })
  let overBudgetFrames = 0
  for (let f = 0; f < over.length; f++) overBudgetFrames += over[f]

  return {
    ...reportEnvelope(result, s),
    heaps,
    byPlacement,
    waste: { alignmentBytes: alignment, poolFreeBytes: free, pendingFreeBytes: pending },
    residency: { budgetBytes: budget, evictions: 0, evictedBytes: 0, makeResident: 0, overBudgetFrames },
    transient: { graphs: 0, heaps: 0, aliasingSavingsBytes: 0, aliasingSavingsPeakBytes: 0, aliasingSavingsPeakFrame: 0, placedCacheHitRate: 0 },
    vulkan: vulkanFigures(store),
  }
}

/**
 * Counts straight from the records: allocations, binds (`bind` records and `placed` resources, created bound) and
 * those inside a shared allocation, maps, flushes, submits, names, stacks, driver reports.
 */
export function vulkanFigures(store: CaptureStore): VulkanRunFigures {
  const figures: VulkanRunFigures = {
    allocations: 0,
    dedicatedAllocations: 0,
    peakLiveAllocations: 0,
    binds: 0,
    bindsAtOffset: 0,
    sharedAllocations: 0,
    maps: 0,
    flushes: 0,
    submits: 0,
    names: 0,
    stacks: 0,
    driverReports: 0,
  }
  // resources bound to each live allocation; an allocation counts as shared once, at its second bind
  const boundTo = new Map<number, number>()
  const bound = (memory: number, offset: number) => {
    figures.binds++
    if (offset > 0) figures.bindsAtOffset++
    const count = boundTo.get(memory)
    if (count === undefined) return
    if (count === 1) figures.sharedAllocations++
    boundTo.set(memory, count + 1)
  }
  const { kind, ref } = store.records
  for (let i = 0; i < store.records.length; i++) {
    switch (kind[i]) {
      case RECORD_KIND.heap: {
        figures.allocations++
        boundTo.set(store.ops[ref[i]], 0)
        figures.peakLiveAllocations = Math.max(figures.peakLiveAllocations, boundTo.size)
        if (store.extras.get(i)?.includes('"dedicatedTo"')) figures.dedicatedAllocations++
        break
      }
      case RECORD_KIND.free:
        boundTo.delete(store.ops[ref[i]])
        break
      case RECORD_KIND.bind: {
        // operands, unless the record has its JSON (store.ts)
        const at = ref[i]
        const raw = store.ops[at + 4]
        if (raw < 0) bound(store.ops[at + 1], store.ops[at + 2])
        else {
          const bind = JSON.parse(store.raw[raw]) as { memory: number; offset: number }
          bound(bind.memory, bind.offset)
        }
        break
      }
      case RECORD_KIND.placed:
        // created and bound at once
        bound(store.placed.a.data[ref[i]], store.placed.b.data[ref[i]])
        break
      case RECORD_KIND.map:
        figures.maps++
        break
      case RECORD_KIND.flush:
        figures.flushes++
        break
      case RECORD_KIND.submit:
        figures.submits++
        break
      case RECORD_KIND.name:
        figures.names++
        break
      case RECORD_KIND.stack:
        figures.stacks++
        break
      case RECORD_KIND.report:
        figures.driverReports++
        break
    }
  }
  return figures
}
