import { describe, expect, it } from 'vitest'
import type { CaptureRecord } from '../../../../src/shared/capture'
import { runRoute } from '../../../../src/main/cli/route'
import { config } from '../model/d3d12/helpers'

/** A small hand-made capture: pooled, placed, 4 KiB texture, a transient with a buffer created inside its graph. */
const CAPTURE = [
  { format: 'heapscope-capture', version: 1, adapter: { resourceHeapTier: 2 } },
  { e: 'buffer', id: 7, size: 1024, usage: ['Static', 'VertexBuffer'], name: 'VB' },
  { e: 'buffer', id: 8, size: 1024, usage: ['UnorderedAccess'] },
  { e: 'texture', id: 9, format: 'R8G8B8A8_UNORM', width: 128, height: 128 },
  { e: 'frame', n: 1 },
  { e: 'release', id: 7 },
  { e: 'graph', name: 'Scene' },
  { e: 'transient', id: 100, kind: 'buffer', size: 100000, first: 0, last: 1 },
  { e: 'buffer', id: 10, size: 20 * 1024 * 1024, usage: ['Static'] },
  { e: 'endgraph', passes: 2 },
  { e: 'buffer', id: 11, size: 1024, usage: ['Dynamic'] },
  { e: 'frame', n: 3 },
  { e: 'buffer', id: 12, size: 1024, usage: ['Static'] },
] as unknown as CaptureRecord[]

const LEVEL1 = [
  '"Dynamic|Volatile|Uniform? no"',
  '"transient? no"',
  '"DrawIndirect and allowPoolAllocateIndirectArgBuffers = 0? no"',
  '"ReservedResource? no"',
  '"heap readback? no"',
].join(',')
const SHARED_1K =
  `${LEVEL1},"alignment 16 > 256? no","state default: multi, or default with UnorderedAccess? no → SharedBufferPool",` +
  '"size 1 KiB > bufferPool.maxAllocation 16 MiB? no","Shared? no"'

const GOLDEN = [
  // 7: 1 KiB in the shared pool: roundUp(1024, 256) = 1024 at offset 0.
  `{"id":7,"placement":"SharedBufferPool","heap":"DEFAULT","alignment":16,"size":1024,"offset":0,"pool":"DEFAULT/SingleState/0","estimated":false,"route":[${SHARED_1K}]}`,
  // 8: a UAV buffer in default state mode: placed, 64 KiB.
  `{"id":8,"placement":"PlacedBufferPool","heap":"DEFAULT","alignment":16,"size":65536,"offset":0,"pool":"DEFAULT/MultiState/0","estimated":false,"route":[${LEVEL1},"alignment 16 > 256? no","state default with UnorderedAccess: multi, or default with UnorderedAccess? yes → PlacedBufferPool","size 1 KiB > bufferPool.maxAllocation 16 MiB? no","Shared? no","alignment 16 > pool alignment 64 KiB? no"]}`,
  // 9: 128² RGBA8 is 16 tiles of 32×32: 4 KiB aligned, 64 KiB.
  '{"id":9,"placement":"TextureReadOnly4KPool","heap":"DEFAULT","alignment":4096,"size":65536,"offset":0,"pool":"DEFAULT/TextureReadOnly4K/0","estimated":true,"route":["transient? no","CPUReadback? no","ReservedResource? no","4 KiB alignable? yes: 16 tiles of 32×32 ≤ 16","alignment 4 KiB","size 64 KiB (estimated: standard swizzle, 4 KiB tiles)","RenderTargetable|DepthStencilTargetable? no","UAV? no","4 KiB aligned? yes → TextureReadOnly4KPool","size 64 KiB > texturePool.readOnly4K.maxAllocation 4 MiB? no","Shared? no","alignment 4 KiB > pool alignment 4 KiB? no"]}',
  // 100: placed at endgraph but printed before 10, which came after it. 100000 B → 128 KiB. Its heap is the 5th
  // residency object (0: SingleState/0, 1: MultiState/0, 2: TextureReadOnly4K/0, 3: committed 10).
  '{"id":100,"placement":"Transient","heap":"DEFAULT","alignment":65536,"size":131072,"offset":0,"pool":"DEFAULT/TransientHeap/4","estimated":false,"route":["transient? yes → Transient","buffer: alignment 64 KiB, size rounded up to 64 KiB = 128 KiB"]}',
  // 10: 20 MiB > 16 MiB: committed, 64 KiB aligned, 20 MiB exactly.
  `{"id":10,"placement":"Committed","heap":"DEFAULT","alignment":65536,"size":20971520,"offset":0,"pool":null,"estimated":false,"route":[${LEVEL1},"alignment 16 > 256? no","state default: multi, or default with UnorderedAccess? no → SharedBufferPool","size 20 MiB > bufferPool.maxAllocation 16 MiB? yes → Committed"]}`,
  // 11: a dynamic 1 KiB buffer: a 1 KiB buddy block.
  '{"id":11,"placement":"UploadSmallBlock","heap":"UPLOAD","alignment":16,"size":1024,"offset":0,"pool":"UPLOAD/SmallBlock/0","estimated":false,"route":["Dynamic|Volatile|Uniform? yes → UploadHeapAllocator","size 1 KiB ≤ upload.smallBlock.maxAllocation 64 KiB? yes → UploadSmallBlock"]}',
  // 12: frame 3 completes frame 1, where 7 was released: its block at 0 is free again.
  `{"id":12,"placement":"SharedBufferPool","heap":"DEFAULT","alignment":16,"size":1024,"offset":0,"pool":"DEFAULT/SingleState/0","estimated":false,"route":[${SHARED_1K}]}`,
]

async function* stream<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item
}

describe('route', () => {
  it('prints one golden line per placed request, in input order', async () => {
    const lines: string[] = []
    await runRoute(CAPTURE, { config: config() }, (line) => lines.push(line))
    expect(lines).toEqual(GOLDEN)
  })

  it('reads an async stream and a header given apart the same way', async () => {
    const lines: string[] = []
    const [header, ...records] = CAPTURE
    await runRoute(stream(records), { config: config(), header: header as never }, (line) => lines.push(line))
    expect(lines).toEqual(GOLDEN)
  })

  it('holds the lines after a transient until its graph ends, and closes a graph left open', async () => {
    const written: string[] = []
    const records = [
      { e: 'graph', name: 'G' },
      { e: 'transient', id: 1, kind: 'buffer', size: 10, first: 0, last: 0 },
      { e: 'buffer', id: 2, size: 16, usage: ['Static'] },
    ] as unknown as CaptureRecord[]
    await runRoute(records, { config: config() }, (line) => written.push(line))
    expect(written.map((l) => JSON.parse(l).id)).toEqual([1, 2])
    expect(JSON.parse(written[0]).size).toBe(65536)
  })

  it('completes frames by gpu records when the caller says the capture has them', async () => {
    const records = [
      { e: 'buffer', id: 1, size: 1024, usage: ['Static'] },
      { e: 'release', id: 1 },
      { e: 'frame', n: 3 }, // would complete frame 1 by counting
      { e: 'buffer', id: 2, size: 1024, usage: ['Static'] },
      { e: 'gpu', n: 0 },
      { e: 'buffer', id: 3, size: 1024, usage: ['Static'] },
    ] as unknown as CaptureRecord[]
    const offsets = async (gpuRecords?: boolean) => {
      const lines: string[] = []
      await runRoute(records, { config: config(), gpuRecords }, (line) => lines.push(line))
      return lines.map((l) => JSON.parse(l).offset)
    }
    expect(await offsets(true)).toEqual([0, 1024, 0]) // 1's block is free only once gpu 0 arrives
    expect(await offsets()).toEqual([0, 0, 1024]) // unknown: counting until the first gpu record
  })

  it('follows the config: indirect-argument buffers committed when pooling them is off', async () => {
    const lines: string[] = []
    const records = [{ e: 'buffer', id: 1, size: 64, usage: ['DrawIndirect'] }] as unknown as CaptureRecord[]
    await runRoute(records, { config: config({ allowPoolAllocateIndirectArgBuffers: 0 }) }, (line) => lines.push(line))
    expect(JSON.parse(lines[0])).toMatchObject({ placement: 'Committed', alignment: 65536, size: 65536, pool: null })
  })
})
