import { describe, expect, it } from 'vitest'
import { Replay } from '../../../../../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../../../../../src/main/analysis/d3d12/report'
import { runRoute } from '../../../../../src/main/cli/route'
import { loadCaptureFile } from '../../../../../src/main/ingest/read'
import { recordsOf } from '../../../../../src/main/ingest/records'
import { defaultConfig, PLACEMENTS } from '../../../../../src/shared/model'
import { MiB } from '../../../../../src/shared/units'
import { seriesName } from '../../../../../src/main/analysis/d3d12/replay'
import { lines, scan } from '../../ingest/helpers'
import type { LoadResult } from '../../../../../src/main/ingest/read'

async function report(text: string) {
  const { store, error } = scan(text)
  const result: LoadResult = { store, error, format: 'heapscope-capture', notes: [] }
  const replay = await Replay.run(store, { config: defaultConfig() })
  return { report: buildRunReport(result, replay), replay }
}

describe('report figures, worked out by hand', () => {
  it('a pooled buffer, a committed buffer and a release still pending at the end', async () => {
    const { report: r } = await report(
      lines(
        { e: 'frame', n: 0 },
        // 1 KiB static buffer → SharedBufferPool: a 32 MiB pool plus its spare pool created ahead = 64 MiB
        { e: 'buffer', id: 1, size: 1024, usage: ['Static', 'VertexBuffer'], name: 'VB' },
        { e: 'frame', n: 1 },
        // 20 MiB > bufferPool.maxAllocation 16 MiB → Committed, roundUp(20 MiB, 64 KiB) = 20 MiB
        { e: 'buffer', id: 2, size: 20 * MiB, usage: ['Static'], name: 'Big' },
        { e: 'frame', n: 2 },
        // released in frame 2: pending until the GPU finishes frame 2 (frame 4 begins), past the end
        { e: 'release', id: 1 },
      ),
    )
    expect(r.frames).toBe(3)
    expect(r.resources).toEqual({ created: 2, released: 1, named: 2, liveAtEnd: 1 })
    expect(r.heaps.DEFAULT).toEqual({ peakBytes: 84 * MiB, endBytes: 84 * MiB })
    expect(r.heaps.UPLOAD).toEqual({ peakBytes: 0, endBytes: 0 })
    expect(r.peak).toEqual({ frame: 1, bytes: 84 * MiB })
    expect(r.byPlacement?.SharedBufferPool).toEqual({ peakBytes: 64 * MiB, endBytes: 64 * MiB, count: 0 })
    expect(r.byPlacement?.Committed).toEqual({ peakBytes: 20 * MiB, endBytes: 20 * MiB, count: 1 })
    // the 1 KiB block is pending; the rest of the two pools is free
    expect(r.waste.pendingFreeBytes).toBe(1024)
    expect(r.waste.poolFreeBytes).toBe(64 * MiB - 1024)
    expect(r.waste.alignmentBytes).toBe(0)
    expect(r.transient?.graphs).toBe(0)
  })

  it('stride-12 structured buffers: alignment 48, aligned size roundUp(size + 48, 256)', async () => {
    const { report: r, replay } = await report(
      lines(
        { e: 'frame', n: 0 },
        { e: 'buffer', id: 1, size: 1200, usage: ['StructuredBuffer', 'ShaderResource'], stride: 12 },
      ),
    )
    // width 1200 (a multiple of 16); 256 % 48 ≠ 0 → roundUp(1200 + 48, 256) = 1280 occupied, 80 B of waste
    const occupied = replay.series.get(seriesName.placement('SharedBufferPool', 'occupiedBytes'))!
    expect(occupied[0]).toBe(1280)
    expect(r.waste.alignmentBytes).toBe(80)
  })
})

describe('report against the model placements summed from route', () => {
  it('per placement, occupied bytes at the end equal Σ route sizes of the resources still alive', async () => {
    const { store } = await loadCaptureFile('resources/demo/demo.hscap.gz')
    const lineObjects: { id: number; placement: string; size: number; heap: string }[] = []
    await runRoute(recordsOf(store), { config: defaultConfig(), header: store.header }, (line) =>
      lineObjects.push(JSON.parse(line)),
    )
    // replay the creates and releases of the records over the route lines
    const live = new Map<number, { placement: string; size: number }>()
    let next = 0
    for (const record of recordsOf(store)) {
      if (record.e === 'buffer' || record.e === 'texture') {
        const line = lineObjects[next++]
        expect(line.id).toBe(record.id)
        live.set(record.id, line)
      } else if (record.e === 'transient') next++
      else if (record.e === 'release') live.delete(record.id)
    }
    const replay = await Replay.run(store, { config: defaultConfig() })
    const last = store.frames.length - 1
    for (const placement of PLACEMENTS) {
      // staging shares the upload rows; a reserved resource's route size is its virtual size, its heap bytes what
      // `commit` backed
      if (placement === 'Transient' || placement === 'Reserved' || placement.startsWith('Upload')) continue
      let sum = 0
      for (const v of live.values()) if (v.placement === placement) sum += v.size
      const column = replay.series.get(seriesName.placement(placement, 'occupiedBytes'))
      expect(column?.[last] ?? 0, placement).toBe(sum)
    }
  })
})
