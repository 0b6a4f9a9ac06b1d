import { describe, expect, it } from 'vitest'
import {
  eventAt,
  parseRmv,
  RmvFormatError,
  rmvToObserved,
  rmtFormatToDxgi,
  heapKindOf,
  attemptToImportRmv,
  importRmv,
} from '../../../../../../src/main/ingest/importers/rmv'
import { bitField } from '../../../../../../src/main/ingest/importers/rmv/bytes'
import {
  adapterInfo,
  concat,
  miniFile,
  rdfFile,
  segments,
  streamHeader,
  setBits,
  timeDelta,
  timestamp,
  token,
} from './synthetic'

const MiB = 1024 * 1024
const FREQUENCY = 1_000_000 // one tick per microsecond
const HEAP_VA = 0x200000

function nameToken(name: string, id: number): Uint8Array {
  const payload = concat([new TextEncoder().encode(name), new Uint8Array([0]), new Uint8Array(new Uint32Array([id]).buffer)])
  const head = token(4, 4, [
    [11, 8, 0],
    [31, 12, payload.length],
  ])
  return concat([head, payload])
}

/** The application stream: allocate 1 MiB (invisible first), a named vertex buffer in it, two presents, teardown. */
const appStream = concat([
  timestamp(1000, FREQUENCY), // clock 32000 → 0 ms
  token(12, 12, [
    [31, 8, 255], // 256 pages of 4 KiB = 1 MiB
    [81, 34, HEAP_VA],
    [83, 82, 1], // invisible
    [92, 90, 1],
  ], 1), // delta 1 → clock 32032
  token(18, 13, [
    [39, 8, 42],
    [53, 48, 1], // buffer
    [7 + 56, 0 + 56, 0x8], // payload create flags: protected (payload starts at bit 56)
    [23 + 56, 8 + 56, 0x81], // usage: transfer source | vertex buffer
    [87 + 56, 24 + 56, 65536],
  ]),
  nameToken('Mesh.VB', 42),
  token(17, 7, [
    [55, 8, HEAP_VA + 0x10000],
    [99, 56, 65536],
    [135, 104, 42],
  ]),
  timeDelta(32000), // clock 64032 → 32.032 ms
  token(2, 5, [[11, 8, 3]]), // present
  token(8, 6, [
    [8, 8, 0],
    [56, 9, HEAP_VA + 5],
  ]),
  timeDelta(16000), // clock 80032 → 48.032 ms
  token(2, 5, [[11, 8, 3]]),
  token(5, 15, [[39, 8, 42]]),
  token(7, 11, [[55, 8, HEAP_VA]]),
])

/** The kernel driver stream: map 16 pages of local memory under the allocation, later unmap half of them. */
const kmdStream = concat([
  timestamp(1001, FREQUENCY), // clock 32032
  token(18, 3, [
    [43, 8, HEAP_VA / 4096],
    [79, 44, 0x10000 / 4096],
    [99, 80, 16],
    [102, 100, 1],
    [137, 136, 1],
  ]),
  timeDelta(19200), // clock 51232 → 19.232 ms
  token(18, 3, [
    [43, 8, HEAP_VA / 4096],
    [99, 80, 8],
    [102, 100, 1],
    [103, 103, 1],
    [137, 136, 1],
  ]),
])

const SEGMENTS: [number, number, number][] = [
  [0, 0, 256 * MiB],
  [1, 256 * MiB, 1024 * MiB],
]

function miniRmtData(pid: number, tokens: Uint8Array): Uint8Array {
  const head = new Uint8Array(16)
  new DataView(head.buffer).setBigUint64(0, BigInt(pid), true)
  return concat([head, tokens])
}

function miniSegment(type: number, base: number, size: number): Uint8Array {
  const s = new Uint8Array(24)
  const v = new DataView(s.buffer)
  v.setBigUint64(0, BigInt(base), true)
  v.setBigUint64(8, BigInt(size), true)
  v.setInt32(16, type, true)
  return s
}

function miniSnapshot(clock: number, name: string): Uint8Array {
  const s = new Uint8Array(16 + name.length)
  const v = new DataView(s.buffer)
  v.setBigUint64(0, BigInt(clock), true)
  v.setInt32(8, name.length, true)
  s.set(new TextEncoder().encode(name), 16)
  return s
}

const mini = miniFile([
  { type: 7, data: adapterInfo('Test GPU') },
  ...SEGMENTS.map(([t, b, s]) => ({ type: 4, data: miniSegment(t, b, s) })),
  { type: 1, data: new Uint8Array(new Uint32Array([1]).buffer) }, // API: Vulkan
  { type: 3, major: 1, minor: 6, data: miniRmtData(7, appStream) },
  { type: 3, major: 1, minor: 6, data: miniRmtData(0, kmdStream) },
  { type: 6, data: miniSnapshot(64032, 'after first present') },
])

describe('a hand-made MINI trace cut short', () => {
  it('reads the chunks before the cut, and says where the file ends', () => {
    // the last chunk (the snapshot) loses its last 4 bytes: the two token streams before it are whole
    const cut = mini.subarray(0, mini.length - 4)
    const trace = parseRmv(cut)
    expect(trace.truncated).toEqual({ fileLength: mini.length - 4, chunk: 'SnapshotInfo', chunkOffset: mini.length - 16 - miniSnapshot(64032, 'after first present').length })
    expect(trace.events.length).toBe(13)
    expect(trace.snapshots).toEqual([])
    const imported = importRmv({ name: 'cut.rmv', bytes: cut })
    expect(imported?.notes[0]).toBe(
      `the trace is truncated: the file ends at byte ${mini.length - 4}, inside its SnapshotInfo chunk at byte ${trace.truncated!.chunkOffset}; what the chunks before it hold is shown`,
    )
  })
})

describe('a hand-made MINI trace', () => {
  const trace = parseRmv(mini)

  it('reads the header, adapter, heaps and API', () => {
    expect(trace.container).toBe('mini')
    expect(trace.created).toBe('2024-03-05T06:07:08')
    expect(trace.adapter.name).toBe('Test GPU')
    expect(trace.heapSizes).toEqual({ local: 256 * MiB, invisible: 1024 * MiB, system: 0 })
    expect(trace.api).toBe('vulkan')
    expect(trace.apiSource).toBe('chunk')
  })

  it('merges the two streams by clock and turns clocks into milliseconds', () => {
    // 10 application rows + 3 kernel rows; 3 time deltas fold into the clocks.
    expect(trace.events.length).toBe(13)
    expect(trace.tokenCounts.timeDelta).toBe(3)
    const rows = Array.from({ length: trace.events.length }, (_, i) => eventAt(trace, i))
    expect(rows.map((r) => `${r.kind}@${r.clock}`)).toEqual([
      'timestamp@32000',
      'virtualAllocate@32032',
      'resourceCreate@32032',
      'userdata@32032',
      'resourceBind@32032',
      'timestamp@32032',
      'pageTableUpdate@32032',
      'pageTableUpdate@51232',
      'misc@64032',
      'resourceReference@64032',
      'misc@80032',
      'resourceDestroy@80032',
      'virtualFree@80032',
    ])
    // (51232 − 32000) ticks at 1 MHz = 19.232 ms.
    expect(rows[7].time).toBeCloseTo(19.232, 9)
    expect(trace.duration).toBeCloseTo(48.032, 9)
    expect(rows[1]).toMatchObject({ address: HEAP_VA, size: MiB, preferredHeaps: ['invisible'], owner: 'application' })
    expect(rows[6]).toMatchObject({ virtualAddress: HEAP_VA, physicalAddress: 0x10000, pages: 16, size: 65536, unmap: false })
    expect(trace.snapshots).toEqual([{ name: 'after first present', clock: 64032, time: 32.032, source: 'chunk' }])
  })

  it('maps to frames at the presents', () => {
    const observed = rmvToObserved(trace)
    expect(observed.framesFrom).toBe('markers')
    expect(observed.header).toMatchObject({ api: 'vulkan', minor: 5, observed: 'rmv', adapter: { name: 'Test GPU', vram: 1280 * MiB } })
    expect(observed.records).toEqual([
      { e: 'frame', n: 0, t: 0 },
      { e: 'heap', id: 1, size: MiB, type: 'default', memory: 'invisible' },
      {
        e: 'placed',
        id: 2,
        heap: 1,
        offset: 0x10000,
        kind: 'buffer',
        size: 65536,
        usage: ['SourceCopy', 'VertexBuffer'],
        name: 'Mesh.VB',
        tag: 'Buffer',
      },
      { e: 'frame', n: 1, t: 32.032 },
      // the reference token after the first present names an address inside the allocation: the whole heap
      { e: 'resident', heap: 1 },
      { e: 'frame', n: 2, t: 48.032 },
      { e: 'release', id: 2 },
      { e: 'free', id: 1 },
    ])
    // The allocation lives through frames 0 and 1 and is freed in frame 2.
    expect([...observed.usage.default]).toEqual([MiB, MiB, 0])
    // 16 pages mapped then 8 unmapped, all in frame 0: 8 × 4096 = 32768 bytes of local memory from then on.
    expect([...observed.pageTable.local]).toEqual([32768, 32768, 32768])
    expect(observed.residency).toEqual([{ frame: 1, kind: 'makeResident', heapId: 1, bytes: MiB }])
    expect(observed.markers).toEqual([{ frame: 1, name: 'after first present', time: 32.032 }])
    expect(observed.warnings).toEqual({})
  })

  it('uses time buckets when asked', () => {
    const observed = rmvToObserved(trace, { frameMarkers: false, bucketMs: 10 })
    // floor(48.032 / 10) + 1 = 5 frames; the free at 48.032 ms lands in frame 4.
    expect(observed.frameCount).toBe(5)
    expect([...observed.usage.default]).toEqual([MiB, MiB, MiB, MiB, 0])
  })
})

describe('a hand-made RDF trace', () => {
  // Stream 0 split in two chunks in the middle of its RESOURCE_CREATE token (bytes 0..29 and 30..).
  const split = 30
  const systemInfo = new TextEncoder().encode(JSON.stringify({ gpus: [{ name: 'From JSON' }] }))
  const reversed = systemInfo.slice().reverse()
  const chunks = (compressedSystemInfo: boolean) => [
    { id: 'AdapterInfo', data: adapterInfo('RDF GPU') },
    { id: 'GpuMemSegment', data: segments(SEGMENTS) },
    { id: 'SystemInfo', data: systemInfo, compressed: compressedSystemInfo ? { stored: reversed } : undefined },
    { id: 'RmtData', header: streamHeader(7, 0, 1, 6, split), data: appStream.subarray(0, split) },
    { id: 'RmtData', header: streamHeader(0, 1, 1, 6, kmdStream.length), data: kmdStream },
    { id: 'RmtData', header: streamHeader(7, 0, 1, 6, appStream.length - split), data: appStream.subarray(split) },
  ]
  const reverse = (data: Uint8Array): Uint8Array => data.slice().reverse()

  it('joins a stream that spans chunks and reads tokens across the seam', () => {
    const trace = parseRmv(rdfFile(chunks(false)))
    expect(trace.streams.map((s) => [s.index, s.bytes])).toEqual([
      [0, appStream.length],
      [1, kmdStream.length],
    ])
    expect(trace.creates).toHaveLength(1)
    expect(trace.creates[0].description).toEqual({ type: 'buffer', createFlags: 8, usageFlags: 0x81, size: 65536 })
    expect(trace.systemInfo).toEqual({ gpus: [{ name: 'From JSON' }] })
    // The bind token starts at stream byte 12 + 12 + 18 + 16 = 58, i.e. 28 bytes into the second piece.
    const bind = Array.from({ length: trace.events.length }, (_, i) => eventAt(trace, i)).find((e) => e.kind === 'resourceBind')!
    const file = rdfFile(chunks(false))
    expect(file[bind.offset] & 15).toBe(7)
  })

  it('decompresses chunks with the decoder it is given', () => {
    const bytes = rdfFile(chunks(true))
    expect(() => parseRmv(bytes)).toThrow(/no zstd decoder/)
    const trace = parseRmv(bytes, { decompress: reverse })
    expect(trace.systemInfo).toEqual({ gpus: [{ name: 'From JSON' }] })
    const error = (() => {
      try {
        parseRmv(bytes, { decompress: (d) => d.subarray(1) })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(RmvFormatError)
    expect((error as RmvFormatError).message).toMatch(/bytes after decompressing chunk "SystemInfo"/)
  })

  it('imports by content, not by name', () => {
    expect(attemptToImportRmv(new TextEncoder().encode('{"format":"heapscope-capture","version":1}'))).toBeNull()
    expect(attemptToImportRmv(rdfFile(chunks(false)))?.header.adapter?.name).toBe('RDF GPU')
  })
})

describe('format details', () => {
  it('reads bit fields across bytes', () => {
    const b = new Uint8Array(16)
    setBits(b, 99, 56, 0xabcdef123)
    // 0xabcdef123 = 46118400291 needs 36 bits, starting at bit 56 (byte 7).
    expect(bitField(b, 0, 99, 56)).toBe(0xabcdef123)
    setBits(b, 11, 4, 0x5a)
    expect(bitField(b, 0, 11, 4)).toBe(0x5a)
    expect(bitField(b, 0, 7, 4)).toBe(0xa)
  })

  it('reads a pipeline hash wider than a double', () => {
    const t = token(7 + 19, 13, [
      [39, 8, 9],
      [53, 48, 12],
      [56 + 71, 56 + 8, 0x0123456789abcdefn],
      [56 + 135, 56 + 72, 0xfedcba9876543210n],
      [56 + 143, 56 + 136, 0x21],
    ])
    const file = rdfFile([{ id: 'RmtData', header: streamHeader(1, 0, 1, 8, 12 + t.length), data: concat([timestamp(1, 1e6), t]) }])
    expect(parseRmv(file).creates[0].description).toEqual({
      type: 'pipeline',
      createFlags: 0,
      hash: '0123456789abcdeffedcba9876543210',
      stageMask: 0x21,
      ngg: false,
    })
  })

  it('reads the image layout of its format version', () => {
    // Width 4096 needs the 14-bit dimension of format 1.6: in the 13-bit layout of 1.5, the same bits mean other things.
    const image = (major: number, minor: number) => {
      const payloadSize = major * 10 + minor >= 16 ? 39 : 38
      const t = token(7 + payloadSize, 13, [
        [39, 8, 5],
        [53, 48, 0],
      ])
      const wide = payloadSize === 39
      const p = t.subarray(7)
      setBits(p, 36, 35, 1) // 2D
      setBits(p, 37 + (wide ? 13 : 12), 37, 4095)
      setBits(p, 37 + (wide ? 27 : 25), 37 + (wide ? 14 : 13), 2159)
      setBits(p, wide ? 98 : 95, wide ? 79 : 76, (32 << 12) | (5 << 9) | (4 << 6) | (3 << 3) | 2)
      setBits(p, wide ? 102 : 99, wide ? 99 : 96, 1)
      return rdfFile([{ id: 'RmtData', header: streamHeader(1, 0, major, minor, 19 + t.length), data: concat([timestamp(1, 1e6), t]) }])
    }
    for (const [major, minor] of [
      [1, 5],
      [1, 6],
    ]) {
      const d = parseRmv(image(major, minor)).creates[0].description
      expect(d).toMatchObject({ type: 'image', dim: '2d', width: 4096, height: 2160, format: 32, formatName: 'X8Y8Z8W8_UNORM', mips: 1 })
    }
  })

  it('names DXGI formats for RMT formats, in BGRA order when the swizzle says so', () => {
    expect(rmtFormatToDxgi(32, [2, 3, 4, 5])).toBe('R8G8B8A8_UNORM')
    expect(rmtFormatToDxgi(32, [4, 3, 2, 5])).toBe('B8G8R8A8_UNORM')
    expect(rmtFormatToDxgi(38)).toBe('R8G8B8A8_UNORM_SRGB')
    expect(rmtFormatToDxgi(85)).toBe('D32_FLOAT_S8X24_UINT')
    expect(rmtFormatToDxgi(100)).toBe('BC7_UNORM_SRGB')
    expect(rmtFormatToDxgi(71)).toBe('R16G16B16A16_FLOAT')
    // D16_UNORM_S8_UINT has no DXGI equivalent.
    expect(rmtFormatToDxgi(84)).toBeUndefined()
  })

  it('types heaps by their first preference', () => {
    expect(heapKindOf(['invisible', 'local'], 1)).toBe('default')
    expect(heapKindOf(['local', 'systemUswc'], 1)).toBe('upload')
    // With resizable BAR the invisible heap is empty and local is all of VRAM.
    expect(heapKindOf(['local'], 0)).toBe('default')
    // system memory, write-combined or not, is the READBACK lane: local VRAM alone is UPLOAD's
    expect(heapKindOf(['systemUswc'], 1)).toBe('readback')
    expect(heapKindOf(['systemCacheable'], 1)).toBe('readback')
    expect(heapKindOf([], 1)).toBe('default')
  })
})
