/**
 * Application heaps (`heap`, `free`) and the resources placed in them (`placed`, then `release` or the heap's
 * `free`), as the D3D12 replay counts them frame by frame: each heap type's heap bytes and placed bytes, and the live
 * count (the model's resources and the placed ones), the resource rows the history exports, when a resource's
 * details say it ended and what a search finds. Worked out by hand from the records below.
 */
import { describe, expect, it } from 'vitest'
import { replayCapture } from '../../../../src/main/analysis/run'
import { d3d12ResourceRows } from '../../../../src/main/analysis/d3d12/resourceRows'
import { Lifetimes } from '../../../../src/main/analysis/records'
import { ResourceIndex } from '../../../../src/main/analysis/search'
import { resolveConfig } from '../../../../src/shared/model'
import { LIVE_SERIES, SERIES_NAME } from '../../../../src/shared/series'
import { scan } from '../ingest/helpers'

const MiB = 2 ** 20

/**
 * Frame 1: DEFAULT heap 50 (64 MiB) and UPLOAD heap 60 (8 MiB); buffers 51 (4 MiB) and 52 (2 MiB) in 50, 61 (1 MiB)
 * in 60. Frame 2: 51 released, 53 (3 MiB) placed in 50 where 51 was, buffer 70 (64 KiB, which the model pools)
 * created. Frame 3: heap 60 freed, which takes 61 along; 52 released. Frame 4: 53 placed again after its release
 * (5 MiB), 70 released, 54 (1 MiB) placed in 50 and freed (a `free` of a placed resource destroys it).
 */
const RECORDS: object[] = [
  { format: 'heapscope-capture', version: 1, api: 'd3d12' },
  { e: 'frame', n: 1 },
  { e: 'heap', id: 50, size: 64 * MiB, type: 'default' },
  { e: 'heap', id: 60, size: 8 * MiB, type: 'upload' },
  { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 4 * MiB },
  { e: 'placed', id: 52, heap: 50, offset: 4 * MiB, kind: 'buffer', size: 2 * MiB },
  { e: 'placed', id: 61, heap: 60, offset: 0, kind: 'buffer', size: MiB },
  { e: 'frame', n: 2 },
  { e: 'release', id: 51 },
  { e: 'placed', id: 53, heap: 50, offset: 0, kind: 'buffer', size: 3 * MiB },
  { e: 'buffer', id: 70, size: 65536, usage: ['Static'] },
  { e: 'frame', n: 3 },
  { e: 'free', id: 60 },
  { e: 'release', id: 52 },
  { e: 'frame', n: 4 },
  { e: 'release', id: 53 },
  { e: 'placed', id: 53, heap: 50, offset: 8 * MiB, kind: 'buffer', size: 5 * MiB },
  { e: 'release', id: 70 },
  { e: 'placed', id: 54, heap: 50, offset: 16 * MiB, kind: 'buffer', size: MiB },
  { e: 'free', id: 54 },
]

describe('application heaps and their placed resources in the D3D12 replay', () => {
  it('counts each heap type\'s heap and placed bytes and the live resources, frame by frame', async () => {
    const { store, error } = scan(RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n')
    expect(error).toBeUndefined()
    const { replay } = await replayCapture({ store, format: 'heapscope-capture', notes: [] }, [], { checkpoints: false })
    const column = (name: string) => Array.from(replay.series.get(name) ?? [])
    expect(column(SERIES_NAME.manual('DEFAULT', 'heapBytes'))).toEqual([64 * MiB, 64 * MiB, 64 * MiB, 64 * MiB])
    expect(column(SERIES_NAME.manual('UPLOAD', 'heapBytes'))).toEqual([8 * MiB, 8 * MiB, 0, 0])
    expect(column(SERIES_NAME.manual('DEFAULT', 'placedBytes'))).toEqual([6 * MiB, 5 * MiB, 3 * MiB, 5 * MiB])
    // 61 goes with its heap
    expect(column(SERIES_NAME.manual('UPLOAD', 'placedBytes'))).toEqual([MiB, MiB, 0, 0])
    expect(column(LIVE_SERIES.count)).toEqual([3, 4, 2, 1])
  })

  it('ends each placed resource\'s row where it is released, freed, or its heap is freed', () => {
    const { store } = scan(RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const rows = d3d12ResourceRows(store, resolveConfig(undefined, {}))
    const spans = rows.id.map((id, row) => [id, rows.placement[row], rows.createdFrame[row], rows.releasedFrame[row]])
    expect(spans).toEqual([
      [51, 'Placed', 1, 2],
      [52, 'Placed', 1, 3],
      [61, 'Placed', 1, 3],
      [53, 'Placed', 2, 4],
      [70, 'SharedBufferPool', 2, 4],
      [53, 'Placed', 4, null],
      [54, 'Placed', 4, 4],
    ])
  })

  it('ends each placed resource\'s life for its details and for the search where it is released or freed', () => {
    const { store } = scan(RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const index = new ResourceIndex(store)
    const lifetimes = new Lifetimes(store)
    const ends = Array.from({ length: index.length }, (_, row) => [
      index.id[row],
      index.released[row] < 0 ? null : store.frames.n[index.released[row]],
      lifetimes.releasedFrame(index.record[row]),
    ])
    // [id, the search's end, the details' end] in creation order, frame numbers
    expect(ends).toEqual([
      [51, 2, 2],
      [52, 3, 3],
      [61, 3, 3],
      [53, 4, 4],
      [70, 4, 4],
      [53, null, null],
      [54, 4, 4],
    ])
  })
})
