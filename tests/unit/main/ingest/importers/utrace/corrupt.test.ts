/**
 * Broken and foreign traces: versions refused by name, a corrupt LZ4 block, an event never declared, a thread that
 * stops mid-event, a file cut at every byte (an error at its byte, or a partial open that says what it dropped), and
 * random byte flips (an ImportError or a run, never another exception).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../../../src/main/ingest/importers'
import { importUtrace, readUtrace, UtraceFormatError } from '../../../../../../src/main/ingest/importers/utrace'
import { d3d12Trace } from './observed.test'
import { UtraceWriter } from './writer'
import { runs } from '../../../../../properties'

function errorOf(fn: () => unknown): Error | undefined {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  return undefined
}

describe('versions', () => {
  it('refuses transports and protocols it does not know, naming them and their byte', () => {
    const bytes = d3d12Trace()
    // after "2CRT" and the 2-byte metadata size (0): transport at byte 6, protocol at byte 7
    const cases: [number, number, RegExp][] = [
      [6, 2, /byte offset 6: expected transport version 3 or 4 .*, found transport version 2/],
      [7, 4, /byte offset 7: expected protocol version 5, 6 or 7 .*, found protocol version 4 \(an Unreal Engine 4 trace\)/],
      [7, 8, /byte offset 7: expected protocol version 5, 6 or 7 .*, found protocol version 8 \(a newer engine than this reader knows\)/],
    ]
    for (const [at, value, message] of cases) {
      const broken = bytes.slice()
      broken[at] = value
      const error = errorOf(() => importUtrace({ name: 'old.utrace', bytes: broken }))
      expect(error).toBeInstanceOf(ImportError)
      expect((error as ImportError).offset).toBe(at)
      expect(error?.message).toMatch(/^old\.utrace: byte \d+: /)
      expect(error?.message).toMatch(message)
    }
  })

  it('reads transport 3 (no sync packets) as 4', () => {
    const w = new UtraceWriter({ transport: 3, protocol: 6 })
    w.declare({ logger: 'Memory', name: 'Marker', fields: [{ name: 'Cycle', type: 'u64' }] })
    w.event(2, 'Memory.Marker', { Cycle: 5 })
    expect(readUtrace(w.bytes()).events).toEqual([{ thread: 2, serial: 0, offset: expect.any(Number), kind: 'time', cycle: 5 }])
  })

  it('refuses a Memory.Init version it does not know', () => {
    const w = new UtraceWriter()
    w.declare({ logger: 'Memory', name: 'Init', important: true, fields: [{ name: 'Version', type: 'u8' }, { name: 'SizeShift', type: 'u8' }] })
    w.important('Memory.Init', { Version: 3, SizeShift: 3 })
    expect(() => readUtrace(w.bytes())).toThrow(/expected Memory.Init version 1 \(UE 5.0, 5.1\) or 2 \(UE 5.2 on\), found version 3/)
  })
})

describe('declarations of another layout', () => {
  it('skips events whose declaration lacks a field it reads, and says which', () => {
    const w = new UtraceWriter()
    w.declare({ logger: 'Memory', name: 'HeapSpec', important: true, fields: [{ name: 'HeapId', type: 'u32' }, { name: 'Name', type: 'wide' }] })
    w.declare({ logger: 'Memory', name: 'AllocVideo', fields: [{ name: 'Address', type: 'u64' }, { name: 'Bytes', type: 'u64' }] })
    w.declare({ logger: 'Memory', name: 'FreeVideo', fields: [{ name: 'Address', type: 'u64' }] })
    w.important('Memory.HeapSpec', { HeapId: 3, Name: 'Pool D3D12Heap' })
    w.event(2, 'Memory.AllocVideo', { Address: 0x1000, Bytes: 64 })
    w.event(2, 'Memory.AllocVideo', { Address: 0x2000, Bytes: 64 })
    w.event(2, 'Memory.FreeVideo', { Address: 0x1000 })
    const imported = importUtrace({ name: 'other.utrace', bytes: w.bytes() })
    const notes = imported?.notes.join('\n') ?? ''
    expect(notes).toContain('Memory.HeapSpec: 1 events not read, its declaration has no field "Id" (it has: HeapId, Name)')
    expect(notes).toContain('Memory.AllocVideo: 2 events not read, its declaration has no field "Size" (it has: Address, Bytes)')
    // the free of an allocation never read is noted, and nothing else is made
    expect(notes).toContain('freeOfUnknownAllocation: 1')
    expect(imported?.records).toEqual([{ e: 'frame', n: 0, t: 0 }])
  })
})

describe('call stacks of another logger', () => {
  it('reads a CallstackSpec whatever its logger', () => {
    const w = new UtraceWriter()
    w.declare({ logger: 'Callstack', name: 'CallstackSpec', noSync: true, fields: [{ name: 'CallstackId', type: 'u32' }, { name: 'Frames', type: 'u64[]' }] })
    w.event(2, 'Callstack.CallstackSpec', { CallstackId: 4, Frames: [0x10, 0x20] })
    expect(readUtrace(w.bytes()).callstacks.get(4)).toEqual([0x10, 0x20])
  })
})

describe('corrupt content', () => {
  it('names the packet and the decoded byte of a broken LZ4 block', () => {
    const w = new UtraceWriter({ packetBytes: 4096 })
    w.declare({ logger: 'Memory', name: 'Marker', fields: [{ name: 'Cycle', type: 'u64' }] })
    for (let i = 0; i < 200; i++) w.event(2, 'Memory.Marker', { Cycle: 1 })
    const bytes = w.bytes()
    expect(w.compressedPackets).toBeGreaterThan(0)
    // the first compressed packet, after the header (8 bytes) and the plain packets before it
    let at = 8
    while ((bytes[at + 3] & 0x80) === 0) at += bytes[at] | (bytes[at + 1] << 8)
    // its first token made a match with no literal before it: nothing to copy from yet
    const broken = bytes.slice()
    broken[at + 6] = 0x0f
    const error = errorOf(() => readUtrace(broken))
    expect(error).toBeInstanceOf(UtraceFormatError)
    expect((error as UtraceFormatError).offset).toBe(at + 6 + 1)
    expect(error?.message).toMatch(new RegExp(`an LZ4 block of \\d+ decoded bytes \\(packet at byte ${at}, thread 2\\), found a match offset from 1 to 0`))
  })

  it('stops at an event never declared, with its byte', () => {
    const w = new UtraceWriter({ compress: false })
    w.declare({ logger: 'Memory', name: 'Marker', fields: [{ name: 'Cycle', type: 'u64' }] })
    w.event(2, 'Memory.Marker', { Cycle: 1 })
    w.flushAll()
    const bytes = w.bytes()
    // the thread's packet: header 8 bytes, thread 0's packet, then 4 bytes of packet header; its uid byte is next
    const packet = 8 + (bytes[8] | (bytes[9] << 8))
    const broken = bytes.slice()
    broken[packet + 4] = 40 << 1
    expect(() => readUtrace(broken)).toThrow(new RegExp(`byte offset ${packet + 4}: expected a declaration \\(NewEvent\\) of event uid 40, found none in the whole trace`))
    broken[packet + 4] = 2 << 1
    expect(() => readUtrace(broken)).toThrow(new RegExp(`byte offset ${packet + 4}: expected an event uid .*, found well-known uid 2`))
  })

  it('opens a trace cut at any byte, or names a byte before the cut', () => {
    const bytes = d3d12Trace({ packetBytes: 64 })
    const whole = importUtrace({ name: 'd.utrace', bytes })
    for (let end = 0; end < bytes.length; end++) {
      const cut = bytes.subarray(0, end)
      if (end < 4) {
        expect(importUtrace({ name: 'd.utrace', bytes: cut })).toBeNull()
        continue
      }
      let imported
      try {
        imported = importUtrace({ name: 'd.utrace', bytes: cut })
      } catch (error) {
        // the header cut short, at the cut; or events whose declarations (written last here) were cut off
        expect(error).toBeInstanceOf(ImportError)
        if (end < 8) expect((error as ImportError).offset).toBe(end)
        else expect((error as Error).message).toMatch(/expected a declaration \(NewEvent\) of event uid \d+.*, found none in the whole trace/)
        expect((error as ImportError).offset).toBeLessThanOrEqual(end)
        continue
      }
      expect(imported?.records.length).toBeLessThanOrEqual(whole?.records.length ?? 0)
      expect(imported?.records[0]).toEqual({ e: 'frame', n: 0, t: 0 })
    }
    // cut inside the last packet: a note says which packet was dropped
    const notes = importUtrace({ name: 'd.utrace', bytes: bytes.subarray(0, bytes.length - 2) })?.notes.join('\n')
    expect(notes).toMatch(/the file stops inside the packet at byte \d+: \d+ of its \d+ bytes are there; that packet is dropped/)
  })

  it('gives an ImportError or a run for any flipped byte, never another exception', () => {
    const bytes = d3d12Trace({ packetBytes: 300 })
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), (flips) => {
        const broken = bytes.slice()
        for (const [at, xor] of flips) broken[at] ^= xor
        try {
          importUtrace({ name: 'x.utrace', bytes: broken })
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError)
          expect((error as ImportError).offset ?? 0).toBeLessThanOrEqual(bytes.length)
        }
      }),
      { numRuns: runs(400) },
    )
  })
})
