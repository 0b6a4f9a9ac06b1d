import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { TransientAllocator, type TransientRequest } from '../../../../../src/main/model/d3d12/transient'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import type { ModelSink } from '../../../../../src/main/model/events'
import { checkTransientLayout, type TransientRectangle } from '../../../../../src/main/model/aliasing/transient'
import { GiB, KiB, MiB } from '../../../../../src/shared/units'
import { runs } from '../../../../properties'

/** The D3D12 model's transient allocator over graph executions; its output as rectangles with their kinds. */
function layouts(graphs: Omit<TransientRequest, 'id' | 'desc' | 'alignment'>[][], minimumHeapSize = 4 * MiB) {
  const heapSizes = new Map<number, number>()
  const sink: ModelSink = { transientHeapCreated: (heap, bytes) => heapSizes.set(heap, bytes) }
  const residency = new ResidencyManager({ enabled: false, startResident: false, budget: 16 * GiB }, sink)
  let nextObject = 1
  const options = { minimumHeapSize, gcLatency: 2, resourceHeapTier: 2 as const }
  const allocator = new TransientAllocator(options, sink, residency, () => nextObject++)
  const rectangles: TransientRectangle[] = []
  const descs = new Map<string, number>()
  let id = 1
  graphs.forEach((graph, frame) => {
    allocator.beginGraph('Scene', frame)
    const kinds = new Map<number, { kind: 'buffer' | 'texture'; rtds: boolean }>()
    for (const r of graph) {
      const key = `${r.kind}:${r.size}:${r.rtds}`
      if (!descs.has(key)) descs.set(key, descs.size)
      const request: TransientRequest = { ...r, id: id++, alignment: 64 * KiB, desc: descs.get(key)! }
      kinds.set(request.id, { kind: r.kind, rtds: r.rtds })
      allocator.add(request)
    }
    const passes = Math.max(1, ...graph.map((r) => r.last + 1))
    for (const p of allocator.endGraph(passes, frame)) {
      const k = kinds.get(p.id)
      rectangles.push({ ...p, kind: k?.kind, renderTarget: k?.rtds })
    }
  })
  return { rectangles, heapSizes }
}

const request = fc
  .record({
    kind: fc.constantFrom('buffer' as const, 'texture' as const),
    tiles: fc.integer({ min: 1, max: 40 }),
    first: fc.integer({ min: 0, max: 12 }),
    length: fc.integer({ min: 0, max: 6 }),
    rtds: fc.boolean(),
  })
  .map((r) => ({
    kind: r.kind,
    size: r.tiles * 64 * KiB,
    first: r.first,
    last: r.first + r.length,
    rtds: r.kind === 'texture' && r.rtds,
    msaa: false,
  }))

describe('the D3D12 model\'s transient allocator through the aliasing checks', () => {
  it('aliases a scene graph with no hazard in either model', () => {
    // SceneDepth and GBuffer live through the base pass, then the lighting target reuses their bytes.
    const { rectangles, heapSizes } = layouts(
      [
        [
          { kind: 'texture', size: 8 * MiB, first: 0, last: 2, rtds: true, msaa: false },
          { kind: 'texture', size: 16 * MiB, first: 1, last: 3, rtds: true, msaa: false },
          { kind: 'buffer', size: 256 * KiB, first: 2, last: 2, rtds: false, msaa: false },
          { kind: 'texture', size: 16 * MiB, first: 4, last: 6, rtds: true, msaa: false },
        ],
      ],
      128 * MiB,
    )
    // One 128 MiB heap, first fit: depth [0, 8 MiB), GBuffer [8, 24 MiB), the buffer [24 MiB, +256 KiB); at pass 4
    // all three are gone and the lighting target takes [0, 16 MiB), over the depth and half the GBuffer.
    expect(rectangles.map((r) => [r.id, r.heap, r.offset / MiB])).toEqual([
      [1, 1, 0],
      [2, 1, 8],
      [3, 1, 24],
      [4, 1, 0],
    ])
    expect(heapSizes.get(1)).toBe(128 * MiB)
    expect(checkTransientLayout(rectangles, { heapSizes })).toEqual([])
  })

  it('never produces a hazard over random graphs and repeated executions', () => {
    fc.assert(
      fc.property(fc.array(fc.array(request, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 }), (graphs) => {
        const { rectangles, heapSizes } = layouts(graphs)
        expect(rectangles.length).toBe(graphs.flat().length)
        expect(checkTransientLayout(rectangles, { heapSizes })).toEqual([])
      }),
      { numRuns: runs(200) },
    )
  })
})
