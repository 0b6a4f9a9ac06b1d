import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { BLOCK_STATE } from '../../../../src/shared/ipc'
import { lines, scan } from '../ingest/helpers'

describe('snapshots of application heaps and what is placed in them', () => {
  it('lists placed resources beside the model’s, with the heap as a block map of used and free bytes', async () => {
    const { store } = scan(
      lines(
        { e: 'frame', n: 0 },
        { e: 'heap', id: 50, size: 65536 * 4, type: 'upload', name: 'StagingHeap' },
        { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 65536, name: 'A' },
        { e: 'placed', id: 52, heap: 50, offset: 131072, kind: 'buffer', size: 65536, name: 'B' },
        { e: 'buffer', id: 1, size: 1024, name: 'Pooled' },
        { e: 'frame', n: 1 },
        { e: 'release', id: 51 },
      ),
    )
    const engine = new LocalEngine()
    const run = await engine.addRun({ store, format: 'heapscope-capture', notes: [] })
    const at0 = await engine.resources({ runId: run.id, frame: 0, sort: 'id', offset: 0, limit: 10 })
    expect(at0.rows.map((r) => [r.id, r.name, r.placement, r.heap, r.pool, r.offset, r.occupied])).toEqual([
      [1, 'Pooled', 'SharedBufferPool', 'DEFAULT', 'DEFAULT/SingleState/0', 0, 1024],
      [51, 'A', 'ApplicationHeap', 'UPLOAD', 'StagingHeap', 0, 65536],
      [52, 'B', 'ApplicationHeap', 'UPLOAD', 'StagingHeap', 131072, 65536],
    ])
    const at1 = await engine.resources({ runId: run.id, frame: 1, sort: 'id', offset: 0, limit: 10 })
    expect(at1.rows.map((r) => r.id)).toEqual([1, 52])
    const snapshot = await engine.snapshot({ runId: run.id, frame: 1 })
    const heap = snapshot.pools.find((p) => p.heapId === 50)!
    // 0…128 KiB free (A released), B at 128 KiB, then 64 KiB free to the end of 256 KiB
    expect(Array.from(heap.offset)).toEqual([0, 131072, 196608])
    expect(Array.from(heap.size)).toEqual([131072, 65536, 65536])
    expect(Array.from(heap.state)).toEqual([BLOCK_STATE.free, BLOCK_STATE.used, BLOCK_STATE.free])
    expect([heap.bytes, heap.used, heap.free]).toEqual([262144, 65536, 196608])
    const details = await engine.resource({ runId: run.id, frame: 0, id: 51 })
    expect(details?.releasedFrame).toBe(1)
    expect(details?.route[0]).toMatch(/placed by the application in heap 50 at offset 0/)
  })
})
