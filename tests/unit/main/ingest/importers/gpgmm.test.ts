import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BufferRecord, CaptureRecord, HeapRecord, PlacedRecord, TextureRecord } from '../../../../../src/shared/capture'
import { attemptToImportGpgmm, type GpgmmImportOptions } from '../../../../../src/main/ingest/importers/gpgmm'
import { ImportError, type ImportedCapture } from '../../../../../src/main/ingest/importers/source'
import { attemptToImportVma } from '../../../../../src/main/ingest/importers/vma'
import { dumpCapture, fixture, utf16, utf8 } from './dump'
import { runs } from '../../../../properties'

type Gpgmm = { gpgmm?: { allocation?: string; heap?: number; offset?: number; size?: number; method?: string } }
const of = <E extends CaptureRecord['e']>(records: CaptureRecord[], e: E) =>
  records.filter((r): r is Extract<CaptureRecord, { e: E }> => r.e === e)

function importGpgmm(bytes: Uint8Array, options?: GpgmmImportOptions, name = 'trace.json'): ImportedCapture {
  const imported = attemptToImportGpgmm({ name, bytes }, options)
  if (!imported) throw new Error('not recognised as a GPGMM trace')
  return imported
}

/** Records with the frame each belongs to. */
function framed(records: CaptureRecord[]): { frame: number; record: CaptureRecord }[] {
  let frame = 0
  return records.map((record) => {
    if (record.e === 'frame') frame = record.n
    return { frame, record }
  })
}

describe('GPGMM trace (real, Dawn QueueWriteBufferTests.ManyWriteBuffer)', () => {
  const source = fixture('real/gpgmm-dawn-queuewritebuffer.json')
  // what GPGMM did (the default), and the requests alone for the model
  const imported = importGpgmm(source.bytes, undefined, source.name)
  const requested = importGpgmm(source.bytes, { requests: true }, source.name)
  const buffers = of(requested.records, 'buffer') as (BufferRecord & Gpgmm)[]
  const heaps = of(imported.records, 'heap')
  const placed = of(imported.records, 'placed') as (PlacedRecord & Gpgmm)[]

  it('has one buffer per CreateResource, with the sizes and heap types of the file, for the model', () => {
    // node -e 'd.traceEvents.filter(e => e.name === "ResourceAllocator.CreateResource").map(e =>
    //   [e.ts, e.args.allocationDescriptor.HeapType, e.args.resourceDescriptor.Width])' gives 4 requests, all
    // Dimension 1 (buffer): [71396, 1, 4000000], [72372, 2, 4194304], [73032, 2, 4194304], [73677, 3, 250000]
    expect(buffers.length).toBe(4)
    expect(of(requested.records, 'texture').length).toBe(0)
    expect(buffers.map((b) => b.size)).toEqual([4000000, 4194304, 4194304, 250000])
    // DEFAULT → Static, UPLOAD → Dynamic, READBACK → a readback staging buffer; Flags 0 → ShaderResource
    expect(buffers.map((b) => [b.tag, b.usage, b.heap])).toEqual([
      ['DEFAULT', ['Static', 'ShaderResource'], undefined],
      ['UPLOAD', ['Dynamic', 'ShaderResource'], undefined],
      ['UPLOAD', ['Dynamic', 'ShaderResource'], undefined],
      ['READBACK', ['ShaderResource'], 'readback'],
    ])
  })

  it('makes GPGMM’s heaps heap / free records, typed by the request they were made for', () => {
    // 4 Heap objects, each created (Heap.CreateHeap SizeInBytes 4194304, CUSTOM write-back L0 on this UMA
    // adapter) while one request waited on the main thread, and each deleted at the end
    expect(heaps.map((h) => [h.size, h.type, h.name])).toEqual([
      [4194304, 'default', 'Resource heap'],
      [4194304, 'upload', 'Resource heap'],
      [4194304, 'upload', 'Resource heap'],
      [4194304, 'readback', 'Resource heap'],
    ])
    expect(buffers.map((b) => b.gpgmm?.heap)).toEqual(heaps.map((h) => h.id))
    expect(of(imported.records, 'free').map((f) => f.id).sort()).toEqual(heaps.map((h) => h.id).sort())
  })

  it('places each allocation at the start of the heap made for it, and writes no request for the model', () => {
    // no ResourceAllocation snapshot in this trace: each heap was made while its request waited, so the allocation
    // is at offset 0 of it, with the request's descriptor
    expect(of(imported.records, 'buffer')).toEqual([])
    expect(of(imported.records, 'texture')).toEqual([])
    expect(placed.map((p) => [p.kind, p.heap, p.offset, p.size, p.tag])).toEqual([
      ['buffer', heaps[0].id, 0, 4000000, 'DEFAULT'],
      ['buffer', heaps[1].id, 0, 4194304, 'UPLOAD'],
      ['buffer', heaps[2].id, 0, 4194304, 'UPLOAD'],
      ['buffer', heaps[3].id, 0, 250000, 'READBACK'],
    ])
    const sizeOf = new Map(placed.map((p) => [p.id, p.size]))
    expect(of(imported.records, 'release').map((r) => sizeOf.get(r.id))).toEqual([4000000, 250000, 4194304, 4194304])
  })

  it('writes none of GPGMM’s heaps when the requests are for the model', () => {
    expect(of(requested.records, 'heap')).toEqual([])
    expect(of(requested.records, 'free')).toEqual([])
    expect(of(requested.records, 'placed')).toEqual([])
  })

  it('releases each buffer when the ResourceAllocation it produced is deleted', () => {
    // ResourceAllocation N after each request: 0x23483ec9f50, 0x23483ecaab0, 0x23483ec94c0, 0x23483ec8ca0; the D
    // events come in the order …9f50 (4000000), …8ca0 (250000), …aab0, …94c0 (4194304 each)
    expect(buffers.map((b) => b.gpgmm?.allocation)).toEqual(['0x23483ec9f50', '0x23483ecaab0', '0x23483ec94c0', '0x23483ec8ca0'])
    const sizeOf = new Map(buffers.map((b) => [b.id, b.size]))
    expect(of(requested.records, 'release').map((r) => sizeOf.get(r.id))).toEqual([4000000, 250000, 4194304, 4194304])
  })

  it('cuts frames every 16666 µs from the first event', () => {
    // first event ts 46, last 89601: frames 0…5 ((89601 − 46) / 16666 = 5.37); the requests (ts 71396…73677) and
    // releases (74333…74683) fall in frame 4 ((71396 − 46) / 16666 = 4.28), the heaps' deletions (83863…85015) in 5
    const frames = of(imported.records, 'frame')
    expect(frames.map((f) => f.n)).toEqual([0, 1, 2, 3, 4, 5])
    expect(frames[1].t).toBeCloseTo(16.666)
    const at = framed(imported.records)
    expect(new Set(at.filter((x) => ['heap', 'placed', 'release'].includes(x.record.e)).map((x) => x.frame))).toEqual(new Set([4]))
    expect(new Set(at.filter((x) => x.record.e === 'free').map((x) => x.frame))).toEqual(new Set([5]))
  })

  it('takes frame length as an option', () => {
    // 1 s frames: everything in frame 0; 10 ms frames: (89601 − 46) / 10000 → frames 0…8
    expect(of(importGpgmm(source.bytes, { frameMicros: 1_000_000 }).records, 'frame').length).toBe(1)
    expect(of(importGpgmm(source.bytes, { frameMicros: 10_000 }).records, 'frame').length).toBe(9)
  })

  it('fills the header from the metadata and snapshots', () => {
    expect(imported.format).toBe('gpgmm-trace')
    expect(imported.header).toMatchObject({
      format: 'heapscope-capture',
      version: 1,
      api: 'd3d12',
      source: 'gpgmm-trace',
      // no process_name: the thread that made the requests names it
      app: 'GPGMM_MainThread',
      // ResidencyManager snapshot IsUMA 1, ResourceAllocator snapshot ResourceHeapTier 2
      adapter: { uma: true, resourceHeapTier: 2 },
    })
    expect(imported.header.budget).toBeUndefined()
    expect(imported.notes).toEqual([])
  })

  it('matches the golden dumps', async () => {
    await expect(dumpCapture(imported)).toMatchFileSnapshot('./__snapshots__/gpgmm-dawn-queuewritebuffer.txt')
    await expect(dumpCapture(requested)).toMatchFileSnapshot('./__snapshots__/gpgmm-dawn-queuewritebuffer.requests.txt')
  })

  it('gives an ImportError at the byte where a truncated trace stops', () => {
    const error = catchImport(() => importGpgmm(source.bytes.subarray(0, 20000), undefined, 'cut.json'))
    // the whole file is one line
    expect(error).toMatchObject({ file: 'cut.json', offset: 20000, line: 1 })
    expect(error.message).toContain('truncated')
  })

  it('gives an ImportError at the byte of a corrupted event', () => {
    // "Width": 4000000 starts at byte 11602; replace its ':' (byte 11609) with '='
    const bytes = source.bytes.slice()
    expect(new TextDecoder().decode(bytes.subarray(11602, 11610))).toBe('"Width":')
    bytes[11609] = 0x3d
    expect(catchImport(() => importGpgmm(bytes))).toMatchObject({ offset: 11609, line: 1 })
  })

  it('reads the same trace in UTF-16', () => {
    const text = new TextDecoder().decode(source.bytes)
    expect(importGpgmm(utf16(text, 'le')).records).toEqual(imported.records)
  })

  it('is not a VMA dump', () => {
    expect(attemptToImportVma(source)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Synthetic traces, built the way GPGMM's EventTraceWriter writes them.

interface Ev {
  name: string
  ph: string
  ts?: number
  tid?: number
  pid?: number
  id?: string
  id2?: object
  args?: object
  cat?: string
}

const META: Ev = { name: 'thread_name', cat: '__metadata', ph: 'M', tid: 1, ts: 0, pid: 7, args: { name: 'GPGMM_MainThread' } }
const trace = (events: Ev[]) => utf8(JSON.stringify({ traceEvents: [META, ...events] }))

const bufferDesc = (width: number, flags = 0) => ({
  Dimension: 1,
  Alignment: 0,
  Width: width,
  Height: 1,
  DepthOrArraySize: 1,
  MipLevels: 1,
  Format: 0,
  Layout: 1,
  SampleDesc: { Count: 1, Quality: 0 },
  Flags: flags,
})
const textureDesc = (desc: object) => ({ ...bufferDesc(0), Layout: 0, ...desc })

function create(ts: number, desc: object, heapType = 1, tid = 1, state = 0): Ev {
  return {
    name: 'ResourceAllocator.CreateResource',
    ph: 'i',
    ts,
    tid,
    pid: 7,
    args: { allocationDescriptor: { Flags: 0, HeapType: heapType }, resourceDescriptor: desc, initialResourceState: state, clearValue: {} },
  }
}
const object = (name: string, ph: string, id: string, ts: number, tid = 1, snapshot?: object): Ev => ({
  name,
  cat: 'default',
  ph,
  id,
  ts,
  tid,
  pid: 7,
  ...(snapshot ? { args: { snapshot } } : {}),
})

describe('synthetic GPGMM traces', () => {
  it('maps texture descriptors: dimension, DXGI format, full mip chain, flags', () => {
    const result = importGpgmm(
      trace([
        // 1920 × 1080 R8G8B8A8_UNORM (28), MipLevels 0 = the full chain: 1920 halves 10 times to 1 → 11 levels;
        // Flags 5 = ALLOW_RENDER_TARGET | ALLOW_UNORDERED_ACCESS
        create(10, textureDesc({ Dimension: 3, Width: 1920, Height: 1080, MipLevels: 0, Format: 28, Flags: 5 })),
        // a 3D texture: depth 64
        create(20, textureDesc({ Dimension: 4, Width: 128, Height: 128, DepthOrArraySize: 64, Format: 10 })),
        // a 2D array of 6, D32_FLOAT (40) depth target, Flags 10 = ALLOW_DEPTH_STENCIL | DENY_SHADER_RESOURCE, 4× MSAA
        create(30, textureDesc({ Dimension: 3, Width: 512, Height: 512, DepthOrArraySize: 6, Format: 40, Flags: 10, SampleDesc: { Count: 4, Quality: 0 } })),
        // a 1D texture of an unknown format
        create(40, textureDesc({ Dimension: 2, Width: 256, Height: 1, Format: 999 })),
      ]),
      { requests: true },
    )
    const textures = of(result.records, 'texture') as TextureRecord[]
    expect(textures.map(({ dim, format, width, height, depth, mips, samples, flags }) => ({ dim, format, width, height, depth, mips, samples, flags }))).toEqual([
      { dim: '2d', format: 'R8G8B8A8_UNORM', width: 1920, height: 1080, depth: 1, mips: 11, samples: 1, flags: ['ShaderResource', 'RenderTargetable', 'UAV'] },
      { dim: '3d', format: 'R16G16B16A16_FLOAT', width: 128, height: 128, depth: 64, mips: 1, samples: 1, flags: ['ShaderResource'] },
      { dim: '2darray', format: 'D32_FLOAT', width: 512, height: 512, depth: 6, mips: 1, samples: 4, flags: ['DepthStencilTargetable'] },
      { dim: '2d', format: 'UNKNOWN', width: 256, height: 1, depth: 1, mips: 1, samples: 1, flags: ['ShaderResource'] },
    ])
    expect(result.notes).toEqual([
      'DXGI format 999 is not known: imported as UNKNOWN',
      '4 ResourceAllocator.CreateResource request(s) never got a ResourceAllocation: they stay live to the end',
    ])
  })

  it('takes size, alignment and GPGMM’s placement from an allocation snapshot', () => {
    const events = trace([
        object('Heap', 'N', '0xh1', 5),
        object('Heap', 'O', '0xh1', 6, 1, { SizeInBytes: 67108864, DebugName: 'Resource heap' }),
        create(10, textureDesc({ Dimension: 3, Width: 2048, Height: 2048, MipLevels: 1, Format: 71 })),
        object('ResourceAllocation', 'N', '0xa1', 11),
        object('ResourceAllocation', 'O', '0xa1', 12, 1, {
          SizeInBytes: 4194304,
          Alignment: 65536,
          HeapOffset: 131072,
          OffsetFromResource: 0,
          Method: 2,
          ResourceHeap: { id_ref: '0xh1' },
        }),
        object('ResourceAllocation', 'D', '0xa1', 20),
      ])
    const observed = importGpgmm(events)
    const [heap] = of(observed.records, 'heap') as HeapRecord[]
    expect(heap).toEqual({ e: 'heap', id: 1, size: 67108864, type: 'default', name: 'Resource heap' })
    // the heap was there before the request: the allocation is placed once its snapshot says where
    expect(observed.records.map((r) => r.e)).toEqual(['frame', 'heap', 'placed', 'release'])
    expect(of(observed.records, 'placed')[0]).toMatchObject({ id: 2, heap: 1, offset: 131072, kind: 'texture', format: 'BC1_UNORM', size: 4194304, align: 65536 })
    const result = importGpgmm(events, { requests: true })
    expect(of(result.records, 'heap')).toEqual([])
    const [texture] = of(result.records, 'texture') as (TextureRecord & Gpgmm)[]
    // BC1_UNORM (71)
    expect(texture).toMatchObject({ id: 2, format: 'BC1_UNORM', size: 4194304, align: 65536 })
    expect(texture.gpgmm).toEqual({ allocation: '0xa1', heap: 1, offset: 131072, size: 4194304, method: 'suballocated' })
    expect(of(result.records, 'release')).toEqual([{ e: 'release', id: 2 }])
  })

  it('reads the later GPGMM names (objects by interface, CreateResidencyHeap) and ignores the call’s duration events', () => {
    const heapDesc = { SizeInBytes: 8388608, Properties: { Type: 2, CPUPageProperty: 0, MemoryPoolPreference: 0 }, Alignment: 65536, Flags: 0 }
    const result = importGpgmm(
      trace([
        { name: 'ResourceAllocator.CreateResource', ph: 'B', ts: 9, tid: 1, pid: 7 },
        create(10, bufferDesc(65536), 2),
        { name: 'Heap.CreateResidencyHeap', ph: 'i', ts: 11, tid: 1, pid: 7, args: { Heap: heapDesc } },
        object('IHeap', 'N', '0xh', 12),
        object('IHeap', 'O', '0xh', 13, 1, { SizeInBytes: 8388608, Alignment: 65536, HeapSegment: 1, Flags: 0 }),
        object('IResourceAllocation', 'N', '0xa', 14),
        { name: 'ResourceAllocator.CreateResource', ph: 'E', ts: 15, tid: 1, pid: 7 },
        object('IResourceAllocation', 'D', '0xa', 20),
        object('IHeap', 'D', '0xh', 30),
      ]),
    )
    expect(result.records.map((r) => r.e)).toEqual(['frame', 'heap', 'placed', 'release', 'free'])
    // HeapSegment 1 is DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL
    expect(of(result.records, 'heap')).toEqual([{ e: 'heap', id: 2, size: 8388608, type: 'upload', memory: 'non-local' }])
    expect(of(result.records, 'placed')[0]).toMatchObject({ id: 1, heap: 2, offset: 0, kind: 'buffer', size: 65536 })
    expect((of(result.records, 'placed')[0] as PlacedRecord & Gpgmm).gpgmm).toEqual({ heap: 2, allocation: '0xa' })
    expect(result.notes).toEqual([])
  })

  it('matches allocations to requests per thread, in time order, though threads are written one after the other', () => {
    // thread 2's buffer is written after thread 1's but its events come first in time
    const result = importGpgmm(
      trace([
        create(100, bufferDesc(1000), 1, 1),
        object('ResourceAllocation', 'N', '0xa', 101, 1),
        object('ResourceAllocation', 'D', '0xa', 300, 1),
        create(50, bufferDesc(2000), 1, 2),
        create(110, bufferDesc(3000), 1, 2),
        object('ResourceAllocation', 'N', '0xb', 111, 2),
        object('ResourceAllocation', 'N', '0xc', 120, 2),
        object('ResourceAllocation', 'D', '0xb', 200, 2),
        object('ResourceAllocation', 'D', '0xc', 250, 2),
      ]),
      { requests: true },
    )
    const buffers = of(result.records, 'buffer') as (BufferRecord & Gpgmm)[]
    // time order: 2000 (ts 50), 1000 (100), 3000 (110); on thread 2, 0xb takes the oldest waiting request (2000)
    expect(buffers.map((b) => [b.size, b.gpgmm?.allocation])).toEqual([
      [2000, '0xb'],
      [1000, '0xa'],
      [3000, '0xc'],
    ])
    const sizeOf = new Map(buffers.map((b) => [b.id, b.size]))
    expect(of(result.records, 'release').map((r) => sizeOf.get(r.id))).toEqual([2000, 3000, 1000])
  })

  it('shows no allocation whose heap the trace never says, and says so', () => {
    const result = importGpgmm(
      trace([create(100, bufferDesc(1000)), object('ResourceAllocation', 'N', '0xa', 101), object('ResourceAllocation', 'D', '0xa', 300)]),
    )
    expect(result.records.map((r) => r.e)).toEqual(['frame'])
    expect(result.notes).toEqual(['ResourceAllocation 0xa: the trace never says which heap holds it, so it is not shown'])
  })

  it('infers the heap type from the initial state as GPGMM does, and skips failed calls', () => {
    const failed: Ev = { name: 'ResourceAllocator.CreateResource', ph: 'i', ts: 5, tid: 1, args: { Description: 'out of memory', ID: 3 } }
    const result = importGpgmm(
      trace([
        failed,
        // HeapType 0 with COPY_DEST (0x400) → READBACK; with GENERIC_READ (0xAC3) → UPLOAD; with UNORDERED_ACCESS
        // (0x8) → DEFAULT
        create(10, bufferDesc(64), 0, 1, 0x400),
        create(11, bufferDesc(64), 0, 1, 0xac3),
        create(12, bufferDesc(64, 4), 0, 1, 0x8),
      ]),
      { requests: true },
    )
    expect((of(result.records, 'buffer') as BufferRecord[]).map((b) => [b.tag, b.usage])).toEqual([
      ['READBACK', ['ShaderResource']],
      ['UPLOAD', ['Dynamic', 'ShaderResource']],
      ['DEFAULT', ['Static', 'ShaderResource', 'UnorderedAccess']],
    ])
    expect(result.notes).toEqual([
      'a ResourceAllocator.CreateResource that failed (out of memory) is skipped',
      '3 ResourceAllocator.CreateResource request(s) never got a ResourceAllocation: they stay live to the end',
    ])
  })

  it('cuts frames at submit markers when the trace has them, and emits submit records', () => {
    const submit = (ts: number): Ev => ({ name: 'Queue::Submit', ph: 'X', ts, tid: 1, pid: 7 })
    const events = [create(10, bufferDesc(64)), submit(20), create(30, bufferDesc(128)), submit(40000), create(50000, bufferDesc(256))]
    const byMarkers = importGpgmm(trace(events), { requests: true })
    expect(byMarkers.records.map((r) => r.e)).toEqual(['frame', 'buffer', 'submit', 'frame', 'buffer', 'submit', 'frame', 'buffer'])
    expect(of(byMarkers.records, 'frame').map((f) => [f.n, f.t])).toEqual([
      [0, 0],
      // (20 − 10) / 1000 ms, (40000 − 10) / 1000 ms
      [1, 0.01],
      [2, 39.99],
    ])
    expect(byMarkers.notes).toEqual([
      '3 ResourceAllocator.CreateResource request(s) never got a ResourceAllocation: they stay live to the end',
      'frames are cut at submit markers',
    ])
    // by time: 16666 µs frames from ts 10; 40000 → frame 2, 50000 → frame 2 ((50000 − 10) / 16666 = 2.99)
    const byTime = importGpgmm(trace(events), { frames: 'time' })
    expect(of(byTime.records, 'frame').map((f) => f.n)).toEqual([0, 1, 2])
    expect(of(byTime.records, 'submit').length).toBe(2)
  })

  it('reads the array form, without its closing bracket, and id2 object ids', () => {
    const events = [
      META,
      create(10, bufferDesc(64)),
      { name: 'ResourceAllocation', ph: 'N', id2: { local: '0x1' }, ts: 11, tid: 1, pid: 7 },
      { name: 'ResourceAllocation', ph: 'D', id2: { local: '0x1' }, ts: 12, tid: 1, pid: 7 },
    ]
    const text = JSON.stringify(events)
    const result = importGpgmm(utf8(text.slice(0, -1) + ',\n'), { requests: true })
    expect(of(result.records, 'release')).toEqual([{ e: 'release', id: 1 }])
    expect(result.notes).toEqual(["the event array has no closing ']' (allowed by the trace-event format)"])
  })

  it('names the event and its byte offset when a descriptor field has the wrong type', () => {
    const bytes = trace([create(10, { ...bufferDesc(64), Width: 'wide' })])
    const at = new TextDecoder().decode(bytes).indexOf('{"name":"ResourceAllocator.CreateResource"')
    const error = catchImport(() => importGpgmm(bytes))
    expect(error.offset).toBe(at)
    expect(error.expected).toBe('a non-negative integer resourceDescriptor.Width')
    expect(error.message).toContain('expected a non-negative integer resourceDescriptor.Width, found "wide"')
  })

  it('finds GPGMM events past the head of a trace that starts with another library’s', () => {
    const other: Ev[] = Array.from({ length: 200 }, (_, i) => ({ name: 'DeviceBase::APITick', ph: 'X', ts: i, tid: 9, pid: 7, cat: 'gpu' }))
    const bytes = utf8(JSON.stringify({ traceEvents: [...other, create(500, bufferDesc(64))] }))
    expect(bytes.length).toBeGreaterThan(4096)
    expect(of(importGpgmm(bytes, { requests: true }).records, 'buffer').length).toBe(1)
    // without any GPGMM event it is not ours, broken or not
    const none = utf8(JSON.stringify({ traceEvents: other }))
    expect(attemptToImportGpgmm({ name: 'chrome.json', bytes: none })).toBeNull()
    expect(attemptToImportGpgmm({ name: 'chrome.json', bytes: none.subarray(0, 5000) })).toBeNull()
  })

  it('returns null for JSON that is not a trace', () => {
    expect(attemptToImportGpgmm({ name: 'x.json', bytes: utf8('{"General": {"API": "Vulkan"}}') })).toBeNull()
    expect(attemptToImportGpgmm({ name: 'x.json', bytes: utf8('{"traceEvents": 3}') })).toBeNull()
    expect(attemptToImportGpgmm({ name: 'x.bin', bytes: new Uint8Array([0x41, 0x4d, 0x44, 0x5f]) })).toBeNull()
  })

  it('releases every request exactly once, in the frame of its allocation’s deletion', () => {
    const lifetime = fc.record({
      tid: fc.integer({ min: 1, max: 3 }),
      start: fc.integer({ min: 0, max: 200_000 }),
      life: fc.integer({ min: 2, max: 100_000 }),
      width: fc.integer({ min: 1, max: 1 << 26 }),
    })
    fc.assert(
      fc.property(fc.array(lifetime, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1000, max: 50_000 }), (lives, frameMicros) => {
        // one request per lifetime on its thread at a unique time; its allocation is created 1 µs later
        const used = new Set<number>()
        const starts = lives.map((l) => {
          let ts = l.start * 4
          while (used.has(ts) || used.has(ts + 1)) ts += 4
          used.add(ts)
          used.add(ts + 1)
          return ts
        })
        const byThread = new Map<number, Ev[]>()
        lives.forEach((l, i) => {
          const events = byThread.get(l.tid) ?? []
          events.push(create(starts[i], bufferDesc(l.width), 1, l.tid))
          events.push(object('ResourceAllocation', 'N', `0x${i}`, starts[i] + 1, l.tid))
          events.push(object('ResourceAllocation', 'D', `0x${i}`, starts[i] + l.life * 4 + 2, l.tid))
          byThread.set(l.tid, events)
        })
        // GPGMM writes each thread's buffer whole, one after the other
        const events = [...byThread.values()].flat()
        const result = importGpgmm(trace(events), { frameMicros, requests: true })
        const t0 = Math.min(...starts)
        const live = new Set<number>()
        let lastFrame = -1
        const releasedAt = new Map<number, number>()
        for (const { frame, record } of framed(result.records)) {
          if (record.e === 'frame') {
            expect(record.n).toBe(lastFrame + 1)
            lastFrame = record.n
          } else if (record.e === 'buffer') {
            expect(live.has(record.id)).toBe(false)
            live.add(record.id)
          } else if (record.e === 'release') {
            expect(live.delete(record.id)).toBe(true)
            releasedAt.set(record.id, frame)
          }
        }
        expect(live.size).toBe(0)
        // the request with the k-th smallest start is buffer id k + 1; it is released in the frame of its D event
        const order = starts.map((s, i) => [s, i]).sort((a, b) => a[0] - b[0])
        order.forEach(([start, i], k) => {
          const end = start + lives[i].life * 4 + 2
          expect(releasedAt.get(k + 1)).toBe(Math.floor((end - t0) / frameMicros))
        })
      }),
      { numRuns: runs(80) },
    )
  })
})

function catchImport(run: () => unknown): ImportError {
  try {
    run()
  } catch (error) {
    if (error instanceof ImportError) return error
    throw error
  }
  throw new Error('expected an ImportError')
}
