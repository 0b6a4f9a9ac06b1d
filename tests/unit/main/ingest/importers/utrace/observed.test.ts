/**
 * A D3D12 run as UE 5's RHI traces it, written by the test writer and imported as an observed run: a heap marked
 * by HeapMarkAlloc, a placed resource inside it at its address minus the heap's, a committed resource as a heap of
 * its own, LLM tags from the threads' memory scopes, a call stack resolved against a module, System memory left out,
 * frames from the game thread's frame events or from time buckets. Threads are written out of order, in packets of
 * a few bytes, and read in chunks of every size.
 */
import { describe, expect, it } from 'vitest'
import type { AnyCaptureRecord } from '../../../../../../src/shared/capture'
import { importCapture, sniffFormat } from '../../../../../../src/main/ingest/importers'
import { importUtrace, readUtrace, utraceToObserved } from '../../../../../../src/main/ingest/importers/utrace'
import { loadCapture } from '../../../../../../src/main/ingest/read'
import { memoryWriter, packedSize, type WriterOptions } from './writer'

const GAME = 2
const RHI = 3
const LOADER = 4
const HEAP_BASE = 0x1_0000_0000
const PLACED = HEAP_BASE + 0x10000
const COMMITTED = 0x2_0000_0000
const MODULE_BASE = 0x7ff6_0000_0000

/**
 * The trace: clock 1 MHz from cycle 1000, so a cycle is a microsecond and ms = (cycle - 1000) / 1000.
 * Serial order: heap alloc + mark (RHI), frame at 1 ms (game), tagged placed alloc (RHI), tagged committed alloc
 * (loader), a System alloc, frame at 4 ms, frees, a bookmark at 5 ms, a rendering frame and an end of frame.
 */
export function d3d12Trace(options: WriterOptions = {}): Uint8Array {
  const w = memoryWriter({ packetBytes: 5, ...options })
  w.important('$Trace.ThreadInfo', { ThreadId: GAME, SystemId: 100, SortHint: 0, Name: 'GameThread' })
  w.important('$Trace.ThreadInfo', { ThreadId: RHI, SystemId: 101, SortHint: 1, Name: 'RHIThread' })
  w.important('Memory.HeapSpec', { Id: 7, ParentId: 1, Flags: 0, Name: 'Buffer Pool D3D12Heap' })
  w.important('Memory.TagSpec', { Tag: 40, Parent: -1, Display: 'Textures' })
  w.important('Memory.TagSpec', { Tag: 41, Parent: -1, Display: 'Meshes' })
  w.important('Diagnostics.ModuleInit', { SymbolFormat: 'pdb', ModuleBaseShift: 0 })
  w.important('Diagnostics.ModuleLoad', { Name: 'C:\\UE\\Binaries\\Win64\\UnrealEditor-D3D12RHI.dll', Base: MODULE_BASE, Size: 0x100000, ImageId: new Uint8Array(20) })
  w.important('Misc.BookmarkSpec', { BookmarkPoint: 0xabc, Line: 12, FormatString: 'LoadMap', FileName: 'Game.cpp' })
  w.event(RHI, 'Memory.CallstackSpec', { CallstackId: 9, Frames: [MODULE_BASE + 0x1234, 0x123456] })

  w.event(RHI, 'Memory.AllocVideo', { Address: HEAP_BASE, CallstackId: 0, ...packedSize(4 << 20, 16) })
  w.event(RHI, 'Memory.HeapMarkAlloc', { Address: HEAP_BASE, CallstackId: 0, Flags: 0, Heap: 7 })
  w.event(GAME, 'Misc.BeginFrame', { Cycle: 2000, FrameType: 0 })
  w.scope(RHI, 'enter')
  w.event(RHI, 'Memory.MemoryScope', { Tag: 40 })
  w.event(RHI, 'Memory.Alloc', { Address: PLACED, CallstackId: 9, RootHeap: 1, ...packedSize(65541, 16) })
  w.scope(RHI, 'leave')
  w.scope(LOADER, 'enter', 'relative')
  w.event(LOADER, 'Memory.MemoryScope', { Tag: 41 })
  w.event(LOADER, 'Memory.AllocVideo', { Address: COMMITTED, CallstackId: 0, ...packedSize(1 << 20, 16) })
  w.event(LOADER, 'Memory.AllocSystem', { Address: 0x5000, CallstackId: 0, ...packedSize(96, 4) })
  w.scope(LOADER, 'leave', 'relative')
  w.event(LOADER, 'CpuProfiler.EventBatchV3', { Data: new Uint8Array(33).fill(1) })
  w.event(GAME, 'Misc.BeginFrame', { Cycle: 5000, FrameType: 0 })
  w.event(RHI, 'Memory.FreeVideo', { Address: PLACED, CallstackId: 0 })
  w.event(LOADER, 'Memory.Free', { Address: COMMITTED, CallstackId: 0, RootHeap: 1 })
  w.event(LOADER, 'Memory.FreeSystem', { Address: 0x5000, CallstackId: 0 })
  w.event(RHI, 'Memory.HeapUnmarkAlloc', { Address: HEAP_BASE, CallstackId: 0, Heap: 7 })
  w.event(RHI, 'Memory.FreeVideo', { Address: HEAP_BASE, CallstackId: 0 })
  w.event(GAME, 'Misc.Bookmark', { Cycle: 6000, BookmarkPoint: 0xabc, FormatArgs: new Uint8Array(0) })
  w.event(GAME, 'Misc.EndFrame', { Cycle: 6500, FrameType: 0 })
  w.event(GAME, 'Misc.BeginFrame', { Cycle: 6600, FrameType: 1 })
  // threads out of order, the declarations last, a sync between
  w.flush(LOADER)
  w.sync()
  w.flush(GAME, 9)
  w.flush(RHI)
  w.flush(GAME)
  w.flush(0)
  return w.bytes()
}

const CALLSTACK = ['UnrealEditor-D3D12RHI.dll+0x1234', '0x123456']

/** The records, worked out by hand from the trace above: ids in order of creation, from 1. */
function expected(frames: AnyCaptureRecord[][]): AnyCaptureRecord[] {
  const [before, between, after] = frames
  return [
    { e: 'frame', n: 0, t: 0 },
    { e: 'heap', id: 1, size: 4 << 20, type: 'default', name: 'Buffer Pool D3D12Heap', memory: 'video' },
    ...before,
    { e: 'placed', id: 2, heap: 1, offset: 0x10000, kind: 'buffer', size: 65541, name: '0x100010000', tag: 'Textures', callstack: CALLSTACK } as AnyCaptureRecord,
    { e: 'heap', id: 3, size: 1 << 20, type: 'default', name: 'committed 0x200000000 (Meshes)', memory: 'video' },
    { e: 'placed', id: 4, heap: 3, offset: 0, kind: 'buffer', size: 1 << 20, name: '0x200000000', tag: 'Meshes' },
    ...between,
    { e: 'release', id: 2 },
    { e: 'release', id: 4 },
    { e: 'free', id: 3 },
    { e: 'free', id: 1 },
    ...after,
  ]
}

describe('a D3D12 trace as an observed run', () => {
  it('has the heap, the placed resource at its offset, the committed resource, tags, call stack and game frames', () => {
    for (const [protocol, packetBytes] of [[5, 5], [6, 64], [7, 4096]] as const) {
      const bytes = d3d12Trace({ protocol, packetBytes })
      for (const chunkSize of [1, 2, 3, 64, 1 << 20]) {
        const trace = readUtrace(bytes, { chunkSize })
        // big packets are LZ4 blocks
        if (packetBytes === 4096) expect(trace.stream.compressedPackets).toBeGreaterThan(0)
        const observed = utraceToObserved(trace)
        expect(observed.records).toEqual(expected([[{ e: 'frame', n: 1, t: 1 }], [{ e: 'frame', n: 2, t: 4 }], []]))
        expect(observed.framesFrom).toBe('markers')
        expect(observed.frameType).toBe('game')
        expect(observed.frameCount).toBe(3)
        expect(observed.counts).toEqual({ heaps: 1, placed: 1, committed: 1 })
        expect(observed.bookmarks).toEqual([{ frame: 2, text: 'LoadMap' }])
        expect(observed.header).toMatchObject({ source: 'utrace', api: 'd3d12' })
        expect(observed.warnings).toEqual({})
      }
    }
  })

  it('cuts time into buckets of the length the user chooses: 1 ms gives 6 frames, 2 ms 3', () => {
    const trace = readUtrace(d3d12Trace())
    // the last time is the bookmark's at 5 ms (the frame events after it are at 5.5 and 5.6 ms): floor(5.6 / 1) + 1 = 6
    const oneMs = utraceToObserved(trace, { frameMarkers: false, bucketMs: 1 })
    expect(oneMs.framesFrom).toBe('buckets')
    expect(oneMs.frameCount).toBe(6)
    expect(oneMs.records).toEqual(
      expected([
        [{ e: 'frame', n: 1, t: 1 }],
        [2, 3, 4].map((n) => ({ e: 'frame', n, t: n })),
        [{ e: 'frame', n: 5, t: 5 }],
      ]),
    )
    const twoMs = utraceToObserved(trace, { frameMarkers: false, bucketMs: 2 })
    expect(twoMs.frameCount).toBe(3)
    expect(twoMs.records.filter((r) => r.e === 'frame')).toEqual([
      { e: 'frame', n: 0, t: 0 },
      { e: 'frame', n: 1, t: 2 },
      { e: 'frame', n: 2, t: 4 },
    ])
  })

  it('is detected by its magic, under any name, and imported with notes that say what was left out', () => {
    const bytes = d3d12Trace()
    expect(sniffFormat(bytes.subarray(0, 4096))).toBe('utrace')
    const imported = importCapture({ name: 'capture.bin', bytes })
    expect(imported?.format).toBe('utrace')
    expect(imported).toEqual(importUtrace({ name: 'capture.bin', bytes }))
    const notes = imported?.notes.join('\n') ?? ''
    expect(notes).toContain('frames from 2 game frame starts (Misc.BeginFrame)')
    expect(notes).toContain('Video memory: 1 heaps, 1 placed resources, 1 committed resources')
    expect(notes).toContain('System memory is left out: 1 allocations (96 bytes in all) and 1 frees')
    expect(notes).toContain('bookmark at frame 2: LoadMap')
    // the options of RMV traces are the same for this format: frames as 2 ms buckets
    expect(importCapture({ name: 'x', bytes }, { rmv: { frameMarkers: false, bucketMs: 2 } })?.records.filter((r) => r.e === 'frame')).toHaveLength(3)
  })

  it('loads as a store, its bytes given three at a time, and the call stack is on the placed resource', async () => {
    const bytes = d3d12Trace()
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 3) yield bytes.subarray(at, at + 3)
    }
    const result = await loadCapture(chunks(), { file: 'd3d12.utrace' })
    expect(result.format).toBe('utrace')
    expect(result.error).toBeUndefined()
    expect(result.store.frames.length).toBe(3)
    const [[index]] = [...result.store.extras]
    expect(JSON.parse(`{${result.store.extras.get(index)}}`)).toEqual({ callstack: CALLSTACK })
  })
})
