/**
 * The .utrace reader on its own: the third-party fixture, LZ4 blocks of a third-party encoder, declarations and
 * fields by name, aux blocks, two-byte uids, scopes with times, packets cut anywhere and read a byte at a time.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { compressBlock } from 'lz4js'
import { describe, expect, it } from 'vitest'
import {
  decodeLz4Block,
  Lz4Error,
  mergeBySerial,
  readUtrace,
  UtraceFormatError,
  UtraceReader,
  type EventView,
  type UtraceEventType,
} from '../../../../../../src/main/ingest/importers/utrace'
import { memoryWriter, UtraceWriter } from './writer'
import { runs } from '../../../../../properties'

const FIXTURES = join(__dirname, '../../../../../fixtures/utrace')

/** Bytes of a hex fixture: `#` starts a comment to the end of its line. */
export function hexFixture(name: string): Uint8Array {
  const text = readFileSync(join(FIXTURES, name), 'utf8')
  const hex = text
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .join('')
    .replace(/\s+/g, '')
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16))
}

interface Seen {
  type: string
  thread: number
  serial: number
  values: Record<string, unknown>
}

/** Every event of the declared types, with every field read by name. */
function readAll(bytes: Uint8Array, chunkSize = 1 << 20): { seen: Seen[]; scopes: string[]; reader: UtraceReader } {
  const seen: Seen[] = []
  const scopes: string[] = []
  const reader = new UtraceReader({
    wants: (type: UtraceEventType) => type.logger !== 'Stats',
    event: (view: EventView) => {
      const values: Record<string, unknown> = {}
      for (const f of view.type.fields) values[f.name] = f.text ? view.string(f.name) : f.aux ? Array.from(view.array(f.name) ?? []) : view.number(f.name)
      seen.push({ type: view.type.fullName, thread: view.thread, serial: view.serial, values })
    },
    scope: (thread, kind) => scopes.push(`${thread} ${kind}`),
  })
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.subarray(at, at + chunkSize))
  reader.finish()
  return { seen, scopes, reader }
}

describe('the third-party fixture (peculiarnewbie/ue-parser-old)', () => {
  const bytes = hexFixture('minimal-prologue.utrace.hex')

  it('reads its two declarations and the values its own tests assert', () => {
    expect(bytes.length).toBe(278)
    for (const chunkSize of [1, 3, 278]) {
      const { seen, reader } = readAll(bytes, chunkSize)
      expect(reader.protocol).toBe(7)
      expect(reader.transport).toBe(4)
      expect([...reader.declarations.values()].map((t) => `${t.uid} ${t.fullName} ${t.size}`)).toEqual(['10 $Trace.NewTrace 27', '11 $Trace.ThreadInfo 12'])
      expect(seen).toEqual([
        {
          type: '$Trace.NewTrace',
          thread: 0,
          serial: -1,
          values: { StartCycle: 100, CycleFrequency: 1_000_000, Endian: 0x524d, PointerSize: 8, StartDateTime: 1234.5 },
        },
        { type: '$Trace.ThreadInfo', thread: 0, serial: -1, values: { ThreadId: 2, SystemId: 99, SortHint: -7, Name: 'GameThread' } },
      ])
    }
    const trace = readUtrace(bytes, { chunkSize: 5 })
    expect(trace.startCycle).toBe(100)
    expect(trace.cycleFrequency).toBe(1_000_000)
    expect(trace.threadNames.get(2)).toBe('GameThread')
  })

  it('cut short by a byte, it opens without its one packet, and says so', () => {
    const trace = readUtrace(bytes.subarray(0, bytes.length - 1))
    expect(trace.stream.truncated?.offset).toBe(8)
    expect(trace.stream.truncated?.what).toContain('269 of its 270 bytes')
    expect(trace.threadNames.size).toBe(0)
  })

  it('with its magic broken, is refused at byte 0', () => {
    const broken = bytes.slice()
    broken[0] ^= 0xff
    expect(() => readUtrace(broken)).toThrow(UtraceFormatError)
    expect(() => readUtrace(broken)).toThrow(/byte offset 0: expected the magic "2CRT"/)
  })
})

describe('the third-party fixture with frames and CPU scopes (peculiarnewbie/ue-parser-old)', () => {
  // Its own header: protocol 7, the prologue above plus three 100 ms Game frames and three CPU Work scopes on
  // GameThread, at 1 MHz, frames over [100, 300100).
  const bytes = hexFixture('comparison-work.utrace.hex')

  it('reads the three game frames at their cycles, and steps over the CPU profiler events by their size', () => {
    expect(bytes.length).toBe(611)
    for (const chunkSize of [1, 7, 611]) {
      const trace = readUtrace(bytes, { chunkSize })
      expect(trace.stream.protocol).toBe(7)
      const frames = trace.events.filter((e) => e.kind === 'frame').map((e) => `${e.kind === 'frame' && e.begin ? 'begin' : 'end'} ${e.cycle}`)
      expect(frames).toEqual(['begin 100', 'end 100100', 'begin 100100', 'end 200100', 'begin 200100', 'end 300100'])
      expect(trace.threadNames.get(2)).toBe('GameThread')
      expect(Object.fromEntries(trace.counts)).toEqual({ '$Trace.NewTrace': 1, '$Trace.ThreadInfo': 1, 'Misc.BeginFrame': 3, 'Misc.EndFrame': 3 })
      // the CPU profiler's spec and batch events are not kept
      expect(trace.stream.skipped).toBe(2)
    }
  })
})

describe('LZ4 blocks', () => {
  it('decodes a hand-made block with an overlapping match', () => {
    // token 0x35: 3 literals "abc", then a match 3 bytes back of 4 + 5 = 9 bytes, which overlaps what it writes;
    // then a last sequence of one literal "!" (token 0x10)
    const block = Uint8Array.from([0x35, 0x61, 0x62, 0x63, 0x03, 0x00, 0x10, 0x21])
    expect(new TextDecoder().decode(decodeLz4Block(block, 13))).toBe('abcabcabcabc!')
  })

  it('decodes whatever a third-party encoder (lz4js) makes of random and repetitive data', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 20, maxLength: 3000 }), fc.integer({ min: 1, max: 255 }), (symbols, spread) => {
        const data = Uint8Array.from(symbols, (s, i) => (s === 0 ? i & spread : s * 17))
        const dst = new Uint8Array(data.length * 2 + 64)
        const size = compressBlock(data, dst, 0, data.length, new Uint32Array(1 << 16))
        if (size === 0) return
        expect(decodeLz4Block(dst.subarray(0, size), data.length)).toEqual(data)
      }),
      { numRuns: runs(200) },
    )
  })

  it('decodes a block of the reference implementation (liblz4 1.9.4, tests/fixtures/utrace/README.md)', () => {
    const frame = new Uint8Array(readFileSync(join(FIXTURES, 'lz4-reference.lz4')))
    const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength)
    expect(dv.getUint32(0, true)).toBe(0x184d2204)
    // FLG 0x60 (version 1, independent blocks, no checksums, no content size), BD, header checksum: 7 bytes
    expect(frame[4]).toBe(0x60)
    const size = dv.getUint32(7, true)
    expect(size & 0x80000000).toBe(0) // compressed
    const block = frame.subarray(11, 11 + size)
    expect(dv.getUint32(11 + size, true)).toBe(0) // end mark
    const decoded = decodeLz4Block(block, 14119)
    expect(createHash('sha256').update(decoded).digest('hex')).toBe('a809502bbb16fc4152f7d6f223497cedbc58bbb089044573055aec0c591605f2')
  })

  it('refuses a match before the start, a block too short or too long, at the byte of the fault', () => {
    // one literal, then a match 2 bytes back: only 1 byte is there
    expect(() => decodeLz4Block(Uint8Array.from([0x10, 0x61, 0x02, 0x00]), 8)).toThrow(/a match offset from 1 to 1, found 2/)
    const error = (() => {
      try {
        decodeLz4Block(Uint8Array.from([0x10, 0x61, 0x02, 0x00]), 8)
      } catch (e) {
        return e as Lz4Error
      }
    })()
    expect(error?.at).toBe(2)
    expect(() => decodeLz4Block(Uint8Array.from([0x30, 0x61]), 3)).toThrow(/3 literal bytes, only 1 left/)
    expect(() => decodeLz4Block(Uint8Array.from([0x20, 0x61, 0x62]), 3)).toThrow(/3 decoded bytes, the block gives 2/)
    expect(() => decodeLz4Block(Uint8Array.from([0x10, 0x61, 0x01, 0x00]), 3)).toThrow(/a match past the decoded size/)
  })
})

describe('events written by the test writer', () => {
  function sample(options: ConstructorParameters<typeof UtraceWriter>[0]): Uint8Array {
    const w = memoryWriter(options)
    w.important('$Trace.ThreadInfo', { ThreadId: 2, SystemId: 4242, SortHint: 1, Name: 'GameThread' })
    w.important('Memory.HeapSpec', { Id: 5, ParentId: 1, Flags: 0, Name: 'Pool D3D12Heap' })
    w.event(2, 'CpuProfiler.EventBatchV3', { Data: new Uint8Array(40).fill(7) })
    w.scope(2, 'enter', 'absolute')
    w.event(2, 'Memory.MemoryScope', { Tag: 33 })
    w.event(2, 'Memory.AllocVideo', { Address: 0x1_0000_0000, CallstackId: 9, Size: 512, AlignmentPow2_SizeLower: 0x60 | 5 })
    w.scope(2, 'leave', 'relative')
    w.event(3, 'Stats.Spec', { Id: 1, Value: 2.5, Name: 'skipped' })
    w.event(3, 'Memory.CallstackSpec', { CallstackId: 9, Frames: [0x7ff6_0000_1234n, 0x7ff6_0000_5678n] })
    w.event(3, 'Memory.FreeVideo', { Address: 0x1_0000_0000, CallstackId: 0 })
    return w.bytes()
  }

  it('reads every field by name, in every protocol, with one- and two-byte uids, a byte at a time', () => {
    for (const protocol of [5, 6, 7] as const) {
      for (const firstUid of [16, 200]) {
        const bytes = sample({ protocol, firstUid, packetBytes: 7 })
        for (const chunkSize of [1, 13, 1 << 20]) {
          const { seen, scopes } = readAll(bytes, chunkSize)
          const normal = seen.filter((s) => s.thread >= 2)
          expect(normal.map((s) => s.type)).toEqual(['CpuProfiler.EventBatchV3', 'Memory.MemoryScope', 'Memory.AllocVideo', 'Memory.CallstackSpec', 'Memory.FreeVideo'])
          expect(normal[0].values.Data).toEqual(Array(40).fill(7))
          expect(normal[1]).toMatchObject({ serial: -1, values: { Tag: 33 } })
          expect(normal[2]).toMatchObject({ thread: 2, serial: 1, values: { Address: 0x1_0000_0000, CallstackId: 9, Size: 512, AlignmentPow2_SizeLower: 0x65 } })
          expect(normal[3].values.Frames).toHaveLength(16)
          expect(normal[4]).toMatchObject({ thread: 3, serial: 3 })
          expect(scopes).toEqual(['2 enter', '2 leave'])
          const heap = seen.find((s) => s.type === 'Memory.HeapSpec')
          expect(heap?.values).toEqual({ Id: 5, ParentId: 1, Flags: 0, Name: 'Pool D3D12Heap' })
        }
      }
    }
  })

  it('takes important aux blocks spelled shifted too', () => {
    const bytes = sample({ shiftedImportantAux: true })
    const { seen } = readAll(bytes)
    expect(seen.find((s) => s.type === '$Trace.ThreadInfo')?.values.Name).toBe('GameThread')
  })

  it('waits for a declaration that comes in a later packet', () => {
    // the thread's events are written before thread 0's declarations
    const w = new UtraceWriter({ compress: false })
    w.declare({ logger: 'Memory', name: 'Marker', fields: [{ name: 'Cycle', type: 'u64' }] })
    w.event(2, 'Memory.Marker', { Cycle: 77 })
    w.flush(2)
    w.flush(0)
    const { seen } = readAll(w.bytes())
    expect(seen).toEqual([{ type: 'Memory.Marker', thread: 2, serial: 0, values: { Cycle: 77 } }])
  })
})

describe('merging threads by serial', () => {
  it('takes the next serial across threads, keeps unserialed events after their predecessor, and wraps past 2^24', () => {
    const e = (serial: number, name: string) => ({ serial, name })
    const merged = mergeBySerial(
      new Map([
        [2, [e(0xfffffe, 'a'), e(-1, 'a-scope'), e(1, 'd')]],
        [3, [e(0xffffff, 'b'), e(0, 'c'), e(5, 'f')]],
        [4, [e(3, 'e')]],
      ]),
    )
    expect(merged.map((m) => m.name)).toEqual(['a', 'a-scope', 'b', 'c', 'd', 'e', 'f'])
  })
})
