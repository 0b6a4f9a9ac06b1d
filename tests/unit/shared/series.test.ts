import { describe, expect, it } from 'vitest'
import { describeSeries, keepsEmpty, placeSeries, SERIES_KINDS, SERIES_LANES, totalPartOf } from '../../../src/shared/series'

const device = {
  vulkan: {
    heaps: [
      { index: 0, name: 'Heap 0', flags: ['DEVICE_LOCAL'] },
      { index: 1, name: 'Heap 1', flags: [] },
    ],
    types: [
      { index: 0, name: 'Type 0', heapIndex: 0 },
      { index: 1, name: 'Type 1', heapIndex: 1 },
    ],
    maxMemoryAllocationCount: 4096,
  },
}

describe('series described by data', () => {
  it('lists the lanes in display order, and gives each family a label and the backends that write it', () => {
    expect(SERIES_LANES).toEqual(['heap', 'residency', 'transient', 'checks'])
    for (const kind of SERIES_KINDS) {
      expect(kind.label).toMatch(/^series\./)
      expect(kind.backends.length).toBeGreaterThan(0)
    }
  })

  it('reads a name against its template: family, parts, unit and lane', () => {
    const heap = describeSeries('heap.DEFAULT.poolFreeBytes')!
    expect([heap.kind.id, heap.parts, heap.unit, heap.lane]).toEqual(['heap', { heap: 'DEFAULT', field: 'poolFreeBytes' }, 'bytes', 'heap'])
    expect(describeSeries('vkheap.2.memoryCount')!.unit).toBe('count')
    expect(describeSeries('vktype.3.allocationCount')!.unit).toBe('count')
    expect(describeSeries('residency.overBudget')!.unit).toBe('flag')
    expect(describeSeries('residency.evictions')!.unit).toBe('count')
    // a tag's name may hold dots; its last segment is the field
    expect(describeSeries('tag.Scene.Meshes.count')!.parts).toEqual({ tag: 'Scene.Meshes', field: 'count' })
    // a check's own rule, and the total of the rules
    expect(describeSeries('check.misalignedBind')!.lane).toBe('checks')
    expect(describeSeries('check.total')!.unit).toBe('count')
    expect(describeSeries('total.heapBytes')!.lane).toBeNull()
    expect(describeSeries('nothing.like.this')).toBeNull()
  })

  it('keeps an empty series the way each backend always has', () => {
    // D3D12: everything but placements, application heaps and tags
    expect(['heap.READBACK.heapBytes', 'residency.budgetBytes', 'transient.executions', 'upload.lockBytes', 'total.heapBytes', 'resources.live'].map((n) => keepsEmpty(n, 'd3d12'))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect(['placement.ReadbackPool.heapBytes', 'manual.UPLOAD.placedBytes', 'tag.Meshes.count'].map((n) => keepsEmpty(n, 'd3d12'))).toEqual([false, false, false])
    // Vulkan: a heap's allocated, used, free and memory count; upload traffic; totals and checks
    expect(['vkheap.1.allocatedBytes', 'vkheap.1.usedBytes', 'vkheap.1.freeBytes', 'vkheap.1.memoryCount', 'upload.bytes', 'check.hazards', 'total.requestedBytes'].map((n) => keepsEmpty(n, 'vulkan'))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect(['vkheap.1.budgetBytes', 'vkheap.1.pendingFreeBytes', 'vktype.0.allocatedBytes', 'upload.lockBytes', 'upload.stagingBytes', 'tag.Meshes.count'].map((n) => keepsEmpty(n, 'vulkan'))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ])
  })

  it("places a series in its lane from its parts and the run's device", () => {
    // a placement stacks on the heap it lives in, in the mode of its field
    const pool = placeSeries('placement.UploadBigBlock.occupiedBytes', {})!
    expect([pool.heap!.key, pool.layer!.key, pool.heapRoles]).toEqual(['UPLOAD', 'UploadBigBlock', [{ part: 'layer', modes: ['occupiedBytes'] }]])
    // Committed is no layer of its own: the heap's total holds it
    expect(placeSeries('placement.Committed.heapBytes', {})).toBeNull()
    // a memory type stacks on its memory heap, whose title and limit come from the device
    const type = placeSeries('vktype.1.usedBytes', device)!
    expect([type.heap!.key, type.heap!.title, type.layer!.key, type.heap!.memoryLimit]).toEqual(['vk.1', 'Heap 1', 'Type 1', 4096])
    expect(placeSeries('vkheap.0.allocatedBytes', device)!.heap!.title).toBe('Heap 0 · DEVICE_LOCAL')
    // without the device a memory type has no lane
    expect(placeSeries('vktype.1.usedBytes', {})).toBeNull()
    expect(placeSeries('residency.residentBytes', {})).toEqual({ lane: 'residency', residency: 'resident' })
    expect(placeSeries('check.warnings', {})).toEqual({ lane: 'checks', checks: 'warnings' })
    // the total of the rules and a rule's own findings are in the checks' lane: its tooltip lists them
    expect([placeSeries('check.total', {}), placeSeries('check.access-inactive', {})]).toEqual([
      { lane: 'checks', checks: 'total' },
      { lane: 'checks', checks: 'rule' },
    ])
    // a lane's height and the words for its memory come with its description
    expect(['DEFAULT', 'UPLOAD', 'READBACK'].map((h) => placeSeries(`heap.${h}.heapBytes`, {})!.heap!.weight)).toEqual([3.2, 1.5, 1])
    expect(placeSeries('memory.invisible.heapBytes', {})!.heap).toMatchObject({ key: 'memory.invisible', title: 'invisible', note: 'memoryKind.invisible' })
    expect(placeSeries('vkheap.0.allocatedBytes', device)!.heap!.weight).toBeUndefined()
    // a lane of a heap that held nothing over the run folds, a Vulkan memory heap as a D3D12 heap
    expect(['heap.READBACK.heapBytes', 'memory.invisible.heapBytes'].map((n) => placeSeries(n, {})!.heap!.foldsEmpty)).toEqual([true, true])
    expect(placeSeries('vkheap.1.allocatedBytes', device)!.heap!.foldsEmpty).toBe(true)
    expect(describeSeries('check.access-inactive')!.kind.id).toBe('check')
    // the parts of a run's total a comparison stacks: heap bytes of placements (Committed too), memory types' allocations
    expect(totalPartOf('placement.Committed.heapBytes', {})).toEqual({ key: 'Committed', order: 0 })
    expect(totalPartOf('placement.Committed.occupiedBytes', {})).toBeNull()
    expect(totalPartOf('vktype.1.allocatedBytes', device)!.key).toBe('Type 1')
  })
})
