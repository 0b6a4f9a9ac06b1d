/**
 * A writer of .utrace files for the tests, from the same facts as the reader (docs/utrace.md), written apart from
 * it: the magic, metadata and versions; declarations (NewEvent) and important events on thread 0; normal events
 * with their uid, 24-bit serial, fixed part and aux blocks on their own threads; packets cut at any byte of a
 * thread's stream, LZ4-compressed by a third-party encoder (lz4js) when that makes them smaller, and written in the
 * order the test asks, so threads interleave.
 */
import { compressBlock } from 'lz4js'

export type FieldType = 'u8' | 'u16' | 'u32' | 'u64' | 'i32' | 'i64' | 'f64' | 'ansi' | 'wide' | 'u64[]' | 'u8[]'

export interface FieldSpec {
  name: string
  type: FieldType
}

export interface EventSpec {
  logger: string
  name: string
  fields: FieldSpec[]
  important?: boolean
  noSync?: boolean
}

export type Value = number | bigint | string | Uint8Array | (number | bigint)[]

const TYPE_INFO: Record<FieldType, number> = {
  u8: 0x00,
  u16: 0x01,
  u32: 0x02,
  u64: 0x03,
  i32: 0x12,
  i64: 0x13,
  f64: 0x43,
  ansi: 0x88,
  wide: 0x89,
  'u64[]': 0x83,
  'u8[]': 0x80,
}
const SIZE: Record<FieldType, number> = { u8: 1, u16: 2, u32: 4, u64: 8, i32: 4, i64: 8, f64: 8, ansi: 0, wide: 0, 'u64[]': 0, 'u8[]': 0 }

interface Declared {
  uid: number
  spec: EventSpec
  offsets: number[]
  size: number
  aux: boolean
}

export interface WriterOptions {
  protocol?: 5 | 6 | 7
  transport?: 3 | 4
  /** Metadata block after the magic (control port, GUIDs); empty by default. */
  metadata?: Uint8Array
  /** Compress packets with LZ4 where it helps (default true). */
  compress?: boolean
  /** Largest payload of one packet, before compression (default 4096). */
  packetBytes?: number
  /** The first uid handed out (default 16); 128 and up are written in two bytes. */
  firstUid?: number
  /** The first serial (default 0); near 2^24 to test the wrap. */
  firstSerial?: number
  /** Spell the aux uids of important events shifted (2, 6) instead of plain (1, 3). */
  shiftedImportantAux?: boolean
}

class Bytes {
  parts: number[] = []
  u8(v: number): void {
    this.parts.push(v & 0xff)
  }
  u16(v: number): void {
    this.u8(v)
    this.u8(v >>> 8)
  }
  u32(v: number): void {
    for (let i = 0; i < 4; i++) this.u8(Number((BigInt(v) >> BigInt(8 * i)) & 0xffn))
  }
  u64(v: number | bigint): void {
    const b = BigInt.asUintN(64, BigInt(v))
    for (let i = 0; i < 8; i++) this.u8(Number((b >> BigInt(8 * i)) & 0xffn))
  }
  f64(v: number): void {
    const dv = new DataView(new ArrayBuffer(8))
    dv.setFloat64(0, v, true)
    for (let i = 0; i < 8; i++) this.u8(dv.getUint8(i))
  }
  bytes(b: Uint8Array | number[]): void {
    for (const x of b) this.u8(x)
  }
  get length(): number {
    return this.parts.length
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts)
  }
}

export class UtraceWriter {
  readonly protocol: number
  readonly transport: number
  private readonly out = new Bytes()
  private readonly pending = new Map<number, number[]>()
  private readonly types = new Map<string, Declared>()
  private nextUid: number
  serial: number
  readonly packetBytes: number
  readonly compress: boolean
  packets = 0
  compressedPackets = 0

  constructor(private readonly options: WriterOptions = {}) {
    this.protocol = options.protocol ?? 7
    this.transport = options.transport ?? 4
    this.nextUid = options.firstUid ?? 16
    this.serial = options.firstSerial ?? 0
    this.packetBytes = options.packetBytes ?? 4096
    this.compress = options.compress ?? true
    this.out.bytes([0x32, 0x43, 0x52, 0x54]) // "2CRT"
    const metadata = options.metadata ?? new Uint8Array(0)
    this.out.u16(metadata.length)
    this.out.bytes(metadata)
    this.out.u8(this.transport)
    this.out.u8(this.protocol)
  }

  /** Declares an event type (a NewEvent on thread 0); returns its uid. */
  declare(spec: EventSpec): number {
    const uid = this.nextUid++
    const offsets: number[] = []
    let size = 0
    for (const f of spec.fields) {
      offsets.push(size)
      size += SIZE[f.type]
    }
    const aux = spec.fields.some((f) => SIZE[f.type] === 0)
    this.types.set(`${spec.logger}.${spec.name}`, { uid, spec, offsets, size, aux })
    const d = new Bytes()
    d.u16(uid)
    d.u8(spec.fields.length)
    d.u8((spec.important ? 1 : 0) | (aux ? 2 : 0) | (spec.noSync || spec.important ? 4 : 0))
    d.u8(spec.logger.length)
    d.u8(spec.name.length)
    spec.fields.forEach((f, i) => {
      if (this.protocol >= 6) {
        d.u8(0) // regular field
        d.u8(0) // pad
      }
      d.u16(offsets[i])
      d.u16(SIZE[f.type])
      d.u8(TYPE_INFO[f.type])
      d.u8(f.name.length)
    })
    d.bytes(ascii(spec.logger))
    d.bytes(ascii(spec.name))
    for (const f of spec.fields) d.bytes(ascii(f.name))
    this.importantRaw(0, d.done())
    return uid
  }

  type(name: string): Declared {
    const t = this.types.get(name)
    if (!t) throw new Error(`${name} is not declared`)
    return t
  }

  private importantRaw(uid: number, body: Uint8Array): void {
    const b = new Bytes()
    b.u16(uid)
    b.u16(body.length)
    b.bytes(body)
    this.append(0, b.done())
  }

  /** An important event (thread 0): {uid, size}, fixed part, aux blocks and their terminal inside the size. */
  important(name: string, values: Record<string, Value>): void {
    const t = this.type(name)
    const body = new Bytes()
    this.fixed(body, t, values)
    if (t.aux) this.auxBlocks(body, t, values, this.options.shiftedImportantAux ? 1 : 0)
    this.importantRaw(t.uid, body.done())
  }

  /** A normal event on `thread`: uid, serial (unless the type has none), fixed part, aux blocks. Returns the serial. */
  event(thread: number, name: string, values: Record<string, Value>): number {
    const t = this.type(name)
    const b = new Bytes()
    this.uid(b, t.uid)
    let serial = -1
    if (!t.spec.noSync) {
      serial = this.serial
      this.serial = (this.serial + 1) & 0xffffff
      b.u8(serial)
      b.u8(serial >> 8)
      b.u8(serial >> 16)
    }
    this.fixed(b, t, values)
    if (t.aux) this.auxBlocks(b, t, values, 1)
    this.append(thread, b.done())
    return serial
  }

  /** A scope on `thread`: plain, or with a time (7 or 8 bytes as protocol 7 writes them, 7 before). */
  scope(thread: number, kind: 'enter' | 'leave', stamped: 'none' | 'absolute' | 'relative' = 'none'): void {
    const b = new Bytes()
    if (stamped === 'none') {
      b.u8((kind === 'enter' ? 4 : 5) << 1)
    } else if (this.protocol === 7) {
      const uid = stamped === 'absolute' ? (kind === 'enter' ? 6 : 7) : kind === 'enter' ? 8 : 9
      b.u8(uid << 1)
      b.bytes(new Uint8Array(stamped === 'absolute' ? 8 : 7).fill(0x5a))
    } else {
      b.u8((kind === 'enter' ? 8 : 12) << 1)
      b.bytes(new Uint8Array(7).fill(0x5a))
    }
    this.append(thread, b.done())
  }

  private uid(b: Bytes, uid: number): void {
    if (uid < 128) b.u8(uid << 1)
    else b.u16((uid << 1) | 1)
  }

  private fixed(b: Bytes, t: Declared, values: Record<string, Value>): void {
    for (const f of t.spec.fields) {
      const v = values[f.name] ?? 0
      switch (f.type) {
        case 'u8':
          b.u8(Number(v))
          break
        case 'u16':
          b.u16(Number(v))
          break
        case 'u32':
        case 'i32':
          b.u32(Number(v) >>> 0)
          break
        case 'u64':
        case 'i64':
          b.u64(v as number | bigint)
          break
        case 'f64':
          b.f64(Number(v))
          break
      }
    }
  }

  /** Aux blocks: {uid AuxData, field index, size} packed in 4 bytes, the data, then the terminal. */
  private auxBlocks(b: Bytes, t: Declared, values: Record<string, Value>, shift: number): void {
    t.spec.fields.forEach((f, index) => {
      if (SIZE[f.type] !== 0) return
      const v = values[f.name]
      if (v === undefined) return
      let data: Uint8Array
      if (f.type === 'ansi') data = ascii(v as string)
      else if (f.type === 'wide') data = utf16(v as string)
      else if (f.type === 'u64[]') {
        const w = new Bytes()
        for (const x of v as (number | bigint)[]) w.u64(x)
        data = w.done()
      } else data = v as Uint8Array
      b.u32(((1 << shift) | (index << 8) | (data.length << 13)) >>> 0)
      b.bytes(data)
    })
    b.u8(3 << shift)
  }

  private append(thread: number, bytes: Uint8Array): void {
    let list = this.pending.get(thread)
    if (!list) this.pending.set(thread, (list = []))
    for (const x of bytes) list.push(x)
  }

  /** Writes what `thread` has pending as packets; `cut` bytes at most (default: all), cut anywhere in an event. */
  flush(thread: number, cut = Infinity): void {
    const list = this.pending.get(thread)
    if (!list || list.length === 0) return
    const take = Math.min(list.length, cut)
    const data = Uint8Array.from(list.splice(0, take))
    for (let at = 0; at < data.length; at += this.packetBytes) this.packet(thread, data.subarray(at, Math.min(data.length, at + this.packetBytes)))
  }

  /** Every thread's pending bytes, threads in the order given (thread 0 first by default). */
  flushAll(order?: number[]): void {
    const threads = order ?? [...this.pending.keys()].sort((a, b) => a - b)
    for (const t of threads) this.flush(t)
  }

  pendingBytes(thread: number): number {
    return this.pending.get(thread)?.length ?? 0
  }

  threads(): number[] {
    return [...this.pending.keys()]
  }

  sync(): void {
    this.out.u16(4)
    this.out.u16(0x3fff)
  }

  private packet(thread: number, data: Uint8Array): void {
    this.packets++
    if (this.compress && data.length > 16) {
      const dst = new Uint8Array(data.length + Math.ceil(data.length / 255) + 16)
      const size = compressBlock(data, dst, 0, data.length, new Uint32Array(1 << 16))
      if (size > 0 && size + 6 < data.length + 4) {
        this.compressedPackets++
        this.out.u16(size + 6)
        this.out.u16(thread | 0x8000)
        this.out.u16(data.length)
        this.out.bytes(dst.subarray(0, size))
        return
      }
    }
    this.out.u16(data.length + 4)
    this.out.u16(thread)
    this.out.bytes(data)
  }

  bytes(): Uint8Array {
    this.flushAll()
    return this.out.done()
  }
}

function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff)
}

function utf16(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2)
  for (let i = 0; i < s.length; i++) {
    out[2 * i] = s.charCodeAt(i) & 0xff
    out[2 * i + 1] = s.charCodeAt(i) >> 8
  }
  return out
}

/** The events of a memory trace as UE 5 declares them (names and types; the layouts are the writer's). */
export const UE_EVENTS: EventSpec[] = [
  {
    logger: '$Trace',
    name: 'NewTrace',
    important: true,
    fields: [
      { name: 'StartCycle', type: 'u64' },
      { name: 'CycleFrequency', type: 'u64' },
      { name: 'Endian', type: 'u16' },
      { name: 'PointerSize', type: 'u8' },
    ],
  },
  {
    logger: '$Trace',
    name: 'ThreadInfo',
    important: true,
    fields: [
      { name: 'ThreadId', type: 'u32' },
      { name: 'SystemId', type: 'u32' },
      { name: 'SortHint', type: 'i32' },
      { name: 'Name', type: 'ansi' },
    ],
  },
  {
    logger: 'Memory',
    name: 'Init',
    important: true,
    fields: [
      { name: 'PageSize', type: 'u64' },
      { name: 'MarkerPeriod', type: 'u32' },
      { name: 'Version', type: 'u8' },
      { name: 'MinAlignment', type: 'u8' },
      { name: 'SizeShift', type: 'u8' },
    ],
  },
  { logger: 'Memory', name: 'Marker', fields: [{ name: 'Cycle', type: 'u64' }] },
  {
    logger: 'Memory',
    name: 'Alloc',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'Size', type: 'u32' },
      { name: 'AlignmentPow2_SizeLower', type: 'u8' },
      { name: 'RootHeap', type: 'u8' },
    ],
  },
  {
    logger: 'Memory',
    name: 'AllocVideo',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'Size', type: 'u32' },
      { name: 'AlignmentPow2_SizeLower', type: 'u8' },
    ],
  },
  {
    logger: 'Memory',
    name: 'AllocSystem',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'Size', type: 'u32' },
      { name: 'AlignmentPow2_SizeLower', type: 'u8' },
    ],
  },
  {
    logger: 'Memory',
    name: 'Free',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'RootHeap', type: 'u8' },
    ],
  },
  {
    logger: 'Memory',
    name: 'FreeVideo',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
    ],
  },
  {
    logger: 'Memory',
    name: 'FreeSystem',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
    ],
  },
  {
    logger: 'Memory',
    name: 'HeapSpec',
    important: true,
    fields: [
      { name: 'Id', type: 'u32' },
      { name: 'ParentId', type: 'u32' },
      { name: 'Flags', type: 'u16' },
      { name: 'Name', type: 'wide' },
    ],
  },
  {
    logger: 'Memory',
    name: 'HeapMarkAlloc',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'Flags', type: 'u16' },
      { name: 'Heap', type: 'u32' },
    ],
  },
  {
    logger: 'Memory',
    name: 'HeapUnmarkAlloc',
    fields: [
      { name: 'Address', type: 'u64' },
      { name: 'CallstackId', type: 'u32' },
      { name: 'Heap', type: 'u32' },
    ],
  },
  {
    logger: 'Memory',
    name: 'TagSpec',
    important: true,
    fields: [
      { name: 'Tag', type: 'i32' },
      { name: 'Parent', type: 'i32' },
      { name: 'Display', type: 'wide' },
    ],
  },
  { logger: 'Memory', name: 'MemoryScope', noSync: true, fields: [{ name: 'Tag', type: 'i32' }] },
  {
    logger: 'Memory',
    name: 'CallstackSpec',
    noSync: true,
    fields: [
      { name: 'CallstackId', type: 'u32' },
      { name: 'Frames', type: 'u64[]' },
    ],
  },
  {
    logger: 'Diagnostics',
    name: 'ModuleInit',
    important: true,
    fields: [
      { name: 'SymbolFormat', type: 'ansi' },
      { name: 'ModuleBaseShift', type: 'u8' },
    ],
  },
  {
    logger: 'Diagnostics',
    name: 'ModuleLoad',
    important: true,
    fields: [
      { name: 'Name', type: 'wide' },
      { name: 'Base', type: 'u64' },
      { name: 'Size', type: 'u32' },
      { name: 'ImageId', type: 'u8[]' },
    ],
  },
  {
    logger: 'Misc',
    name: 'BeginFrame',
    fields: [
      { name: 'Cycle', type: 'u64' },
      { name: 'FrameType', type: 'u8' },
    ],
  },
  {
    logger: 'Misc',
    name: 'EndFrame',
    fields: [
      { name: 'Cycle', type: 'u64' },
      { name: 'FrameType', type: 'u8' },
    ],
  },
  {
    logger: 'Misc',
    name: 'BookmarkSpec',
    important: true,
    fields: [
      { name: 'BookmarkPoint', type: 'u64' },
      { name: 'Line', type: 'i32' },
      { name: 'FormatString', type: 'ansi' },
      { name: 'FileName', type: 'ansi' },
    ],
  },
  {
    logger: 'Misc',
    name: 'Bookmark',
    fields: [
      { name: 'Cycle', type: 'u64' },
      { name: 'BookmarkPoint', type: 'u64' },
      { name: 'FormatArgs', type: 'u8[]' },
    ],
  },
  // events a memory import has no use for: stepped over by their size, aux blocks included
  { logger: 'CpuProfiler', name: 'EventBatchV3', fields: [{ name: 'Data', type: 'u8[]' }] },
  {
    logger: 'Stats',
    name: 'Spec',
    fields: [
      { name: 'Id', type: 'u32' },
      { name: 'Value', type: 'f64' },
      { name: 'Name', type: 'ansi' },
    ],
  },
]

/** A writer with the UE events declared and the trace's clock set: `frequency` cycles a second from `startCycle`. */
export function memoryWriter(options: WriterOptions = {}, clock = { startCycle: 1000, frequency: 1_000_000 }, sizeShift = 3): UtraceWriter {
  const w = new UtraceWriter(options)
  for (const spec of UE_EVENTS) w.declare(spec)
  w.important('$Trace.NewTrace', { StartCycle: clock.startCycle, CycleFrequency: clock.frequency, Endian: 0x524d, PointerSize: 8 })
  w.important('Memory.Init', { PageSize: 4096, MarkerPeriod: 1024, Version: 2, MinAlignment: 8, SizeShift: sizeShift })
  return w
}

/** The packed size of an allocation: `Size` is the size shifted right, the low bits ride with the alignment. */
export function packedSize(size: number, alignmentPow2: number, sizeShift = 3): { Size: number; AlignmentPow2_SizeLower: number } {
  const low = size % 2 ** sizeShift
  return { Size: Math.floor(size / 2 ** sizeShift), AlignmentPow2_SizeLower: (alignmentPow2 << sizeShift) | low }
}
