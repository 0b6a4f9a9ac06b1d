/**
 * A second of a D3D12 game as UE 5 traces its Video memory, for the app's end-to-end test and its unit test:
 * 60 game frames 16666 µs apart (clock 1 MHz from cycle 0), three D3D12 heaps (buffers 4 MiB, textures 16 MiB,
 * upload 2 MiB), one 256 KiB texture placed each frame (tag Textures, with a call stack), one 32 KiB buffer each
 * frame (tag Meshes), freed ten frames later on even frames from 12 on, and three 8 MiB committed render targets
 * (frames 5, 20, 40; the first freed at frame 30). Threads: RHI 3 (heaps, textures), loader 4 (buffers), render 5
 * (render targets).
 *
 * With `frameEvents: false` the trace has no frame events, only a Memory.Marker at each of those times: its frames
 * are then time buckets.
 */
import { writeFileSync } from 'node:fs'
import { memoryWriter, packedSize } from './writer'

export const SCENE = {
  frames: 60,
  frameMicros: 16_666,
  textureSize: 256 << 10,
  bufferSize: 32 << 10,
  targetSize: 8 << 20,
  bufferHeap: 0x1_0000_0000,
  textureHeap: 0x2_0000_0000,
  uploadHeap: 0x3_0000_0000,
  moduleBase: 0x7ff6_0000_0000,
}

const RHI = 3
const LOADER = 4
const RENDER = 5

export function sceneTrace(frameEvents = true): Uint8Array {
  const s = SCENE
  const w = memoryWriter({ packetBytes: 2048 }, { startCycle: 0, frequency: 1_000_000 })
  w.important('$Trace.ThreadInfo', { ThreadId: 2, SystemId: 1, SortHint: 0, Name: 'GameThread' })
  w.important('$Trace.ThreadInfo', { ThreadId: RHI, SystemId: 2, SortHint: 1, Name: 'RHIThread' })
  w.important('Memory.HeapSpec', { Id: 7, ParentId: 1, Flags: 0, Name: 'Buffer Pool D3D12Heap' })
  w.important('Memory.HeapSpec', { Id: 8, ParentId: 1, Flags: 0, Name: 'Texture Pool D3D12Heap' })
  w.important('Memory.HeapSpec', { Id: 9, ParentId: 1, Flags: 0, Name: 'Upload Pool D3D12Heap' })
  w.important('Memory.TagSpec', { Tag: 1, Parent: -1, Display: 'Textures' })
  w.important('Memory.TagSpec', { Tag: 2, Parent: -1, Display: 'Meshes' })
  w.important('Memory.TagSpec', { Tag: 3, Parent: -1, Display: 'RenderTargets' })
  w.important('Diagnostics.ModuleInit', { SymbolFormat: 'pdb', ModuleBaseShift: 0 })
  w.important('Diagnostics.ModuleLoad', { Name: 'C:\\Game\\Binaries\\Win64\\Game-D3D12RHI.dll', Base: s.moduleBase, Size: 0x10_0000, ImageId: new Uint8Array(20) })
  w.event(RHI, 'Memory.CallstackSpec', { CallstackId: 9, Frames: [s.moduleBase + 0x1234, s.moduleBase + 0x8000, 0x123456] })

  const heap = (address: number, size: number, id: number): void => {
    w.event(RHI, 'Memory.AllocVideo', { Address: address, CallstackId: 0, ...packedSize(size, 16) })
    w.event(RHI, 'Memory.HeapMarkAlloc', { Address: address, CallstackId: 0, Flags: 0, Heap: id })
  }
  const tagged = (thread: number, tag: number, body: () => void): void => {
    w.scope(thread, 'enter')
    w.event(thread, 'Memory.MemoryScope', { Tag: tag })
    body()
    w.scope(thread, 'leave')
  }
  heap(s.bufferHeap, 4 << 20, 7)
  heap(s.textureHeap, 16 << 20, 8)
  heap(s.uploadHeap, 2 << 20, 9)
  for (let f = 1; f <= s.frames; f++) {
    const cycle = f * s.frameMicros
    if (frameEvents) w.event(2, 'Misc.BeginFrame', { Cycle: cycle, FrameType: 0 })
    else w.event(RHI, 'Memory.Marker', { Cycle: cycle })
    tagged(RHI, 1, () => w.event(RHI, 'Memory.AllocVideo', { Address: s.textureHeap + (f - 1) * s.textureSize, CallstackId: 9, ...packedSize(s.textureSize, 16) }))
    tagged(LOADER, 2, () => w.event(LOADER, 'Memory.Alloc', { Address: s.bufferHeap + (f - 1) * (64 << 10), CallstackId: 0, RootHeap: 1, ...packedSize(s.bufferSize, 8) }))
    if (f >= 12 && f % 2 === 0) w.event(LOADER, 'Memory.FreeVideo', { Address: s.bufferHeap + (f - 11) * (64 << 10), CallstackId: 0 })
    if (f === 5 || f === 20 || f === 40) {
      tagged(RENDER, 3, () => w.event(RENDER, 'Memory.AllocVideo', { Address: 0x9_0000_0000 + f * 0x1000_0000, CallstackId: 0, ...packedSize(s.targetSize, 16) }))
    }
    if (f === 30) w.event(RENDER, 'Memory.FreeVideo', { Address: 0x9_0000_0000 + 5 * 0x1000_0000, CallstackId: 0 })
    w.event(RENDER, 'Memory.AllocSystem', { Address: 0x5000 + f * 64, CallstackId: 0, ...packedSize(200, 4) })
    w.event(LOADER, 'CpuProfiler.EventBatchV3', { Data: new Uint8Array(20 + f).fill(f) })
    // every few frames the threads hand over what they have, in another order each time
    if (f % 7 === 0) for (const t of f % 2 ? [RENDER, LOADER, RHI, 2] : [2, RHI, LOADER, RENDER]) w.flush(t)
  }
  return w.bytes()
}

/** Writes the scene to `path` (the end-to-end test runs this with tsx). */
export function writeScene(path: string, frameEvents = true): void {
  writeFileSync(path, sceneTrace(frameEvents))
}
