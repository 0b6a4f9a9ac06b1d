import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { GiB } from '../../../../src/shared/units'
import { setApi } from '../../../../src/renderer/src/api'
import { useCompareStore } from '../../../../src/renderer/src/stores/compare'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { FakeHost, summary } from '../fakeHost'

let host: FakeHost

beforeEach(() => {
  setActivePinia(createPinia())
  host = new FakeHost()
  setApi(host)
})

describe('compare store', () => {
  it("stacks each side by the parts of its run's total: placements of a D3D12 run, memory types of a Vulkan run by name", () => {
    const runs = useRunsStore()
    const compare = useCompareStore()
    const names = (...list: string[]) => list.map((name) => ({ name, label: name, unit: 'bytes' as const, group: 'heap' }))
    const vulkan = {
      heaps: [{ index: 0, name: 'Heap 0', size: GiB, flags: ['DEVICE_LOCAL'] }],
      types: [
        { index: 0, name: 'Type 0', heapIndex: 0, propertyFlags: [] },
        { index: 1, name: 'Type 1', heapIndex: 0, propertyFlags: [] },
      ],
      maxMemoryAllocationCount: 4096,
      bufferImageGranularity: 1024,
      nonCoherentAtomSize: 64,
      defaulted: false,
      problems: [],
      diagnostics: {},
    }
    // B's memory type 1 and A's type 0, in type order; their used bytes are no part of the total
    runs.current = summary('a', 10, { backend: 'vulkan', capabilities: { whatIf: true }, vulkan, series: names('vktype.0.allocatedBytes', 'vktype.0.usedBytes') })
    runs.other = summary('b', 10, { backend: 'vulkan', capabilities: { whatIf: true }, vulkan, series: names('vktype.1.allocatedBytes', 'vktype.0.allocatedBytes') })
    expect(compare.placements).toEqual([
      { key: 'Type 0', series: 'vktype.0.allocatedBytes' },
      { key: 'Type 1', series: 'vktype.1.allocatedBytes' },
    ])
    // a D3D12 run: its placements' heap bytes, Committed first, the page allocators last
    runs.current = summary('c', 10, { series: names('placement.FastConstantPage.heapBytes', 'placement.Committed.heapBytes', 'placement.ReadbackPool.occupiedBytes') })
    runs.other = null
    expect(compare.placements.map((p) => p.key)).toEqual(['Committed', 'FastConstantPage'])
  })
})
