/**
 * Random streams of Video-memory allocations and frees over several threads (fast-check, fixed seed). Each stream is
 * written twice: once in serial order, one event a packet, and once with threads interleaved at random cuts, in
 * packets of random sizes, LZ4 or plain, read in random chunks. Both must give the same records; and the records
 * must hold together: every placed resource inside a live heap, every release and free of a live id, as many
 * heaps and placed resources as the stream made.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AnyCaptureRecord } from '../../../../../../src/shared/capture'
import { readUtrace, utraceToObserved } from '../../../../../../src/main/ingest/importers/utrace'
import { memoryWriter, packedSize, type UtraceWriter } from './writer'
import { runs } from '../../../../../properties'

interface Intent {
  op: number
  a: number
  b: number
  thread: number
}

type Step =
  | { kind: 'heap'; thread: number; address: number; size: number; heap: number }
  | { kind: 'place' | 'commit' | 'system'; thread: number; address: number; size: number; tag: number }
  | { kind: 'free' | 'systemFree'; thread: number; address: number }
  | { kind: 'frame'; thread: number; cycle: number }
  | { kind: 'noise'; thread: number; bytes: number }

const GAME = 2
const HEAP_SPACING = 0x1000_0000

/** Intents → a consistent stream: addresses of live allocations, offsets inside live heaps. */
function plan(intents: Intent[]): { steps: Step[]; heaps: number; allocs: number; frames: number } {
  const steps: Step[] = []
  const heaps: { address: number; size: number; used: number }[] = []
  const live: { address: number; heap: boolean }[] = []
  const system: number[] = []
  let committed = 0
  let cycle = 1000
  let madeHeaps = 0
  let allocs = 0
  let frames = 0
  for (const { op, a, b, thread } of intents) {
    switch (op) {
      case 0: {
        const size = 65536 * (1 + (a % 16))
        const address = HEAP_SPACING * (heaps.length + 1)
        heaps.push({ address, size, used: 0 })
        live.push({ address, heap: true })
        steps.push({ kind: 'heap', thread, address, size, heap: 100 + (a % 3) })
        madeHeaps++
        break
      }
      case 1: {
        const heap = heaps[a % Math.max(1, heaps.length)]
        const size = 1 + (b % 20000)
        if (!heap || heap.used + size > heap.size || !live.some((l) => l.address === heap.address)) break
        const address = heap.address + heap.used
        heap.used += size + 256
        live.push({ address, heap: false })
        steps.push({ kind: 'place', thread, address, size, tag: b % 4 })
        allocs++
        break
      }
      case 2: {
        const address = 0x9000_0000_0000 + 0x100000 * committed++
        live.push({ address, heap: false })
        steps.push({ kind: 'commit', thread, address, size: 1 + (a % 1_000_000), tag: b % 4 })
        madeHeaps++
        allocs++
        break
      }
      case 3: {
        if (live.length === 0) break
        const [gone] = live.splice(a % live.length, 1)
        steps.push({ kind: 'free', thread, address: gone.address })
        break
      }
      case 4:
        cycle += 1 + (a % 40000)
        steps.push({ kind: 'frame', thread: GAME, cycle })
        frames++
        break
      case 5: {
        if (b % 2 === 0 || system.length === 0) {
          const address = 0x4000 + 64 * steps.length
          system.push(address)
          steps.push({ kind: 'system', thread, address, size: 1 + (a % 5000), tag: 0 })
        } else {
          steps.push({ kind: 'systemFree', thread, address: system.splice(a % system.length, 1)[0] })
        }
        break
      }
      default:
        steps.push({ kind: 'noise', thread, bytes: a % 300 })
    }
  }
  return { steps, heaps: madeHeaps, allocs, frames }
}

function write(steps: Step[], w: UtraceWriter, after: (thread: number) => void): Uint8Array {
  for (const id of [100, 101, 102]) w.important('Memory.HeapSpec', { Id: id, ParentId: 1, Flags: 0, Name: `Pool ${id} D3D12Heap` })
  for (let tag = 1; tag < 4; tag++) w.important('Memory.TagSpec', { Tag: tag, Parent: -1, Display: `Tag${tag}` })
  after(0)
  for (const s of steps) {
    switch (s.kind) {
      case 'heap':
        w.event(s.thread, 'Memory.AllocVideo', { Address: s.address, CallstackId: 0, ...packedSize(s.size, 16) })
        w.event(s.thread, 'Memory.HeapMarkAlloc', { Address: s.address, CallstackId: 0, Flags: 0, Heap: s.heap })
        break
      case 'place':
      case 'commit':
      case 'system':
        if (s.tag) {
          w.scope(s.thread, 'enter')
          w.event(s.thread, 'Memory.MemoryScope', { Tag: s.tag })
        }
        if (s.kind === 'system') w.event(s.thread, 'Memory.AllocSystem', { Address: s.address, CallstackId: 0, ...packedSize(s.size, 3) })
        else w.event(s.thread, 'Memory.Alloc', { Address: s.address, CallstackId: 0, RootHeap: 1, ...packedSize(s.size, 8) })
        if (s.tag) w.scope(s.thread, 'leave')
        break
      case 'free':
        w.event(s.thread, 'Memory.FreeVideo', { Address: s.address, CallstackId: 0 })
        break
      case 'systemFree':
        w.event(s.thread, 'Memory.FreeSystem', { Address: s.address, CallstackId: 0 })
        break
      case 'frame':
        w.event(s.thread, 'Misc.BeginFrame', { Cycle: s.cycle, FrameType: 0 })
        break
      case 'noise':
        w.event(s.thread, 'CpuProfiler.EventBatchV3', { Data: new Uint8Array(s.bytes).fill(s.bytes & 0xff) })
        break
    }
    after(s.thread)
  }
  return w.bytes()
}

/** Every id placed inside a heap that lives, every release and free of a live id. */
function checkConsistent(records: AnyCaptureRecord[]): { heaps: number; placed: number } {
  const heaps = new Map<number, number>()
  const placed = new Set<number>()
  let heapCount = 0
  let placedCount = 0
  for (const r of records) {
    if (r.e === 'heap') {
      expect(heaps.has(r.id)).toBe(false)
      heaps.set(r.id, r.size)
      heapCount++
    } else if (r.e === 'placed') {
      const size = heaps.get(r.heap)
      expect(size).toBeDefined()
      expect(r.offset + (r.size ?? 0)).toBeLessThanOrEqual(size ?? 0)
      placed.add(r.id)
      placedCount++
    } else if (r.e === 'release') {
      expect(placed.delete(r.id)).toBe(true)
    } else if (r.e === 'free') {
      expect(heaps.delete(r.id)).toBe(true)
    }
  }
  return { heaps: heapCount, placed: placedCount }
}

describe('random allocation streams over interleaved threads', () => {
  it('give the same records however they are cut into packets and chunks', () => {
    const intent = fc.record({ op: fc.integer({ min: 0, max: 6 }), a: fc.nat(), b: fc.nat(), thread: fc.integer({ min: 2, max: 5 }) })
    fc.assert(
      fc.property(
        fc.array(intent, { maxLength: 80 }),
        fc.integer({ min: 5, max: 400 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 700 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 60 })), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(5, 6, 7),
        fc.integer({ min: 0, max: 0xffffff }),
        (intents, packetBytes, compress, chunkSize, cuts, protocol, firstSerial) => {
          const { steps, heaps, allocs, frames } = plan(intents)
          const p = protocol as 5 | 6 | 7
          // in serial order, one event a packet: the reference
          const inOrder = memoryWriter({ protocol: p, compress: false, firstSerial })
          const reference = utraceToObserved(readUtrace(write(steps, inOrder, (t) => inOrder.flush(t))))
          // interleaved: after each event, some thread gives some of its bytes, cut anywhere
          const mixed = memoryWriter({ protocol: p, packetBytes, compress, firstSerial })
          let turn = 0
          const bytes = write(steps, mixed, () => {
            const [pick, cut] = cuts[turn++ % cuts.length]
            const threads = mixed.threads().filter((t) => t !== 0)
            if (threads.length > 0) mixed.flush(threads[pick % threads.length], cut)
          })
          const observed = utraceToObserved(readUtrace(bytes, { chunkSize }))
          expect(observed.records).toEqual(reference.records)
          const counts = checkConsistent(observed.records)
          expect(counts).toEqual({ heaps, placed: allocs })
          expect(observed.frameCount).toBe(frames + 1)
        },
      ),
      { numRuns: runs(150) },
    )
  })
})
