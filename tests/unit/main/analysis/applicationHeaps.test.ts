import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applicationHeapsAt } from '../../../../src/main/analysis/d3d12/snapshot'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { createdIdOf } from '../../../../src/main/analysis/records'
import { RECORD_KIND, type CaptureStore } from '../../../../src/main/ingest/store'
import { resolveConfig } from '../../../../src/shared/model'
import { runs } from '../../../properties'
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

describe('the application heaps alive at a record, from the index made once', () => {
  /** The plain reference: a scan of every record before `end`, a release (or a free of the resource) filtering its heap's list. */
  function scanned(store: CaptureStore, end: number) {
    const heaps = new Map<number, { id: number; record: number; placed: number[] }>()
    const placedIn = new Map<number, { placed: number[] }>()
    for (let i = 0; i < end; i++) {
      const k = store.records.kind[i]
      const r = store.records.ref[i]
      if (k === RECORD_KIND.heap) heaps.set(store.ops[r], { id: store.ops[r], record: i, placed: [] })
      else if (k === RECORD_KIND.free && heaps.has(store.ops[r])) heaps.delete(store.ops[r])
      else if (k === RECORD_KIND.placed) {
        const heap = heaps.get(store.placed.a.data[r])
        if (!heap) continue
        heap.placed.push(i)
        placedIn.set(createdIdOf(store, i), heap)
      } else if (k === RECORD_KIND.release || k === RECORD_KIND.free) {
        const id = store.ops[r]
        const heap = placedIn.get(id)
        if (!heap) continue
        placedIn.delete(id)
        heap.placed = heap.placed.filter((p) => createdIdOf(store, p) !== id)
      }
    }
    return [...heaps.values()].map((h) => [h.id, h.record, h.placed])
  }

  it('are what a scan of every record before it finds, at every record (heaps made again under their id, ids placed twice, resources freed)', async () => {
    const op = fc.oneof(
      fc.record({ e: fc.constant('heap' as const), id: fc.integer({ min: 50, max: 52 }) }),
      fc.record({ e: fc.constant('free' as const), id: fc.oneof(fc.integer({ min: 50, max: 52 }), fc.integer({ min: 1, max: 6 })) }),
      fc.record({ e: fc.constant('placed' as const), id: fc.integer({ min: 1, max: 6 }), heap: fc.integer({ min: 50, max: 52 }) }),
      fc.record({ e: fc.constant('release' as const), id: fc.integer({ min: 1, max: 6 }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.boolean(), async (ops, forward) => {
        const records: object[] = [{ e: 'frame', n: 0 }]
        for (const o of ops) {
          if (o.e === 'heap') records.push({ e: 'heap', id: o.id, size: 1 << 20, type: 'default' })
          else if (o.e === 'placed') records.push({ e: 'placed', id: o.id, heap: o.heap, offset: 0, kind: 'buffer', size: 256 })
          else records.push({ e: o.e, id: o.id })
        }
        const { store } = scan(lines(...records))
        const replay = await Replay.run(store, { config: resolveConfig(undefined, {}) })
        const n = store.records.length
        // asked in any order: the index is made as far as asked, then read back
        const ends = forward ? Array.from({ length: n + 1 }, (_, e) => e) : Array.from({ length: n + 1 }, (_, e) => n - e)
        for (const end of ends) {
          expect(applicationHeapsAt(replay, end).map((h) => [h.id, h.record, h.placed])).toEqual(scanned(store, end))
        }
      }),
      { numRuns: runs(150) },
    )
  })
})
