/**
 * The byte stream of a .utrace file, a chunk at a time: magic and metadata, the transport and protocol versions,
 * then packets of one thread each (LZ4-compressed or plain) whose bytes are joined per thread into a stream of
 * events. Important events (threads 0 and 1) carry their size; the others are stepped over by the size their
 * declaration gives. Each event a handler wants is shown to it as an EventView; the rest cost no allocation.
 * Pure: no Node imports. See docs/utrace.md for the layouts.
 */
import { UtraceFormatError } from './errors'
import { DeclarationError, EventView, FIRST_USER_UID, EVENT_FLAG, readDeclaration, type UtraceEventType } from './events'
import { decodeLz4Block, Lz4Error } from './lz4'

export const UTRACE_MAGIC = '2CRT'
/** The magic of traces older than UE 5.0, which have no metadata block; read only to name their version. */
export const UTRACE_OLD_MAGIC = 'ECRT'
export const TRANSPORT_VERSIONS = [3, 4] as const
export const PROTOCOL_VERSIONS = [5, 6, 7] as const

const THREAD_EVENTS = 0
const THREAD_IMPORTANT = 1
const THREAD_SYNC = 0x3fff
const THREAD_MASK = 0x3fff
const PACKET_ENCODED = 0x8000
const PACKET_VERIFIED = 0x4000

/** The protocol's own event uids (protocols 5 to 7): aux data and scopes. */
const AUX_DATA = 1
const AUX_TERMINAL = 3
const ENTER_SCOPE = 4
const LEAVE_SCOPE = 5

export interface UtraceHandler {
  /** Whether events of this type are to be shown; asked once per type, when it is declared. */
  wants(type: UtraceEventType): boolean
  event(view: EventView): void
  /** A scope opened (`enter`) or closed on a thread; the event after an enter is the scope's own event. */
  scope?(thread: number, kind: 'enter' | 'leave'): void
  /** A type was declared (a handler that wants none of its events may still note it). */
  declared?(type: UtraceEventType): void
}

export interface UtraceStreamSummary {
  transport: number
  protocol: number
  /** Bytes of the metadata block (control port, session and trace GUIDs); not read further. */
  metadataBytes: number
  packets: number
  compressedPackets: number
  syncPackets: number
  /** Events read, by thread, important ones included. */
  events: number
  /** Events whose type no handler wanted, stepped over by their size. */
  skipped: number
  threads: number
  /** Set when the file stops inside a packet: the byte where that packet started, and what was dropped. */
  truncated?: { offset: number; what: string }
  /** Threads whose last bytes do not make a whole event (their next packet is missing). */
  unfinishedThreads: { thread: number; bytes: number }[]
}

/** Where a thread's stream bytes came from: the packet at `file`, its payload starting at stream position `pos`. */
interface Segment {
  pos: number
  file: number
  /** Bytes of the packet header before the payload. */
  header: number
  compressed: boolean
}

class ThreadStream {
  buf: Uint8Array = new Uint8Array(0)
  start = 0
  end = 0
  /** Whether `buf` is ours (a copy), or a view of a chunk the caller may reuse. */
  owned = false
  /** Stream position of buf[0]. */
  base = 0
  segments: Segment[] = []
  /** The undeclared uid this stream waits for, or -1. */
  waitingFor = -1

  constructor(readonly id: number) {}

  append(data: Uint8Array, segment: Segment): void {
    this.segments.push(segment)
    if (this.start === this.end) {
      this.base += this.end
      this.buf = data
      this.start = 0
      this.end = data.length
      this.owned = false
      return
    }
    const left = this.end - this.start
    if (this.owned && this.end + data.length <= this.buf.length) {
      this.buf.set(data, this.end)
      this.end += data.length
      return
    }
    // grow by doubling: a thread that waits for a declaration may gather many packets
    const next = new Uint8Array(Math.max(left + data.length, 2 * left, 4096))
    next.set(this.buf.subarray(this.start, this.end))
    next.set(data, left)
    this.base += this.start
    this.buf = next
    this.start = 0
    this.end = left + data.length
    this.owned = true
  }

  /** Keep what is left unread as our own copy; forget segments that are wholly read. */
  settle(): void {
    const pos = this.base + this.start
    let keep = 0
    while (keep + 1 < this.segments.length && this.segments[keep + 1].pos <= pos) keep++
    if (keep > 0) this.segments.splice(0, keep)
    if (this.start === this.end) {
      this.base += this.end
      this.buf = new Uint8Array(0)
      this.start = this.end = 0
      this.owned = true
      return
    }
    if (!this.owned) {
      const left = this.end - this.start
      const copy = new Uint8Array(Math.max(left, 4096))
      copy.set(this.buf.subarray(this.start, this.end))
      this.buf = copy
      this.base += this.start
      this.end = left
      this.start = 0
      this.owned = true
    }
  }

  /** File offset of a stream position: exact in a plain packet, the packet's own in a compressed one. */
  where(pos: number): { offset: number; detail: string } {
    // the last segment that starts at or before the position
    let lo = 0
    let hi = this.segments.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.segments[mid].pos <= pos) lo = mid
      else hi = mid - 1
    }
    const s = this.segments[lo]
    if (!s) return { offset: 0, detail: '' }
    if (s.compressed) {
      return { offset: s.file, detail: ` (in the LZ4 packet of thread ${this.id} at byte ${s.file}, decoded byte ${pos - s.pos})` }
    }
    return { offset: s.file + s.header + (pos - s.pos), detail: '' }
  }
}

type Stage = 'magic' | 'metadataSize' | 'metadata' | 'versions' | 'packetHeader' | 'decodedSize' | 'packetBody'

export class UtraceReader {
  private stage: Stage = 'magic'
  private need = 4
  private carry = new Uint8Array(64)
  private carryLength = 0
  /** File offset of the next byte pushed. */
  private offset = 0
  /** File offset where the current item (header, packet) starts. */
  private itemStart = 0
  private packetStart = 0
  private packetSize = 0
  private packetThread = 0
  private packetEncoded = false
  private decodedSize = 0
  private magic = ''
  transport = 0
  protocol = 0
  private metadataBytes = 0
  private readonly threads = new Map<number, ThreadStream>()
  private readonly types = new Map<number, UtraceEventType>()
  private readonly wanted = new Set<number>()
  private readonly view = new EventView()
  private packets = 0
  private compressedPackets = 0
  private syncPackets = 0
  private events = 0
  private skipped = 0

  constructor(private readonly handler: UtraceHandler) {}

  /** Declared event types, by uid. */
  get declarations(): ReadonlyMap<number, UtraceEventType> {
    return this.types
  }

  push(chunk: Uint8Array): void {
    let at = 0
    while (at < chunk.length) {
      if (this.carryLength === 0 && chunk.length - at >= this.need) {
        const item = chunk.subarray(at, at + this.need)
        at += this.need
        this.take(item)
        continue
      }
      const want = this.need - this.carryLength
      const take = Math.min(want, chunk.length - at)
      if (this.carry.length < this.need) {
        const bigger = new Uint8Array(Math.max(this.need, this.carry.length * 2))
        bigger.set(this.carry.subarray(0, this.carryLength))
        this.carry = bigger
      }
      this.carry.set(chunk.subarray(at, at + take), this.carryLength)
      this.carryLength += take
      at += take
      if (this.carryLength === this.need) {
        this.carryLength = 0
        this.take(this.carry.subarray(0, this.need))
      }
    }
  }

  /** The end of the file: what it left unfinished. Throws when it stops before its versions. */
  finish(): UtraceStreamSummary {
    let truncated: UtraceStreamSummary['truncated']
    const partial = this.carryLength > 0 || this.stage === 'decodedSize' || this.stage === 'packetBody'
    if (this.stage === 'magic' || this.stage === 'metadataSize' || this.stage === 'metadata' || this.stage === 'versions') {
      const what = { magic: 'the magic "2CRT"', metadataSize: 'the metadata size', metadata: 'the metadata block', versions: 'the transport and protocol versions' }[this.stage]
      throw new UtraceFormatError(this.itemStart + this.carryLength, `${what} (${this.need} bytes)`, `the end of the file after ${this.carryLength} of them`)
    }
    if (partial) {
      const got = this.offset + this.carryLength - this.packetStart
      truncated = {
        offset: this.packetStart,
        what: `the file stops inside the packet at byte ${this.packetStart}: ${got} of its ${this.stage === 'packetBody' ? this.packetSize : 'at least 4'} bytes are there; that packet is dropped`,
      }
    }
    for (const stream of this.threads.values()) {
      if (stream.waitingFor >= 0) {
        const { offset, detail } = stream.where(stream.base + stream.start)
        throw new UtraceFormatError(offset, `a declaration (NewEvent) of event uid ${stream.waitingFor}${detail}`, 'none in the whole trace')
      }
    }
    const unfinishedThreads: UtraceStreamSummary['unfinishedThreads'] = []
    for (const stream of this.threads.values()) {
      if (stream.end > stream.start) unfinishedThreads.push({ thread: stream.id, bytes: stream.end - stream.start })
    }
    return {
      transport: this.transport,
      protocol: this.protocol,
      metadataBytes: this.metadataBytes,
      packets: this.packets,
      compressedPackets: this.compressedPackets,
      syncPackets: this.syncPackets,
      events: this.events,
      skipped: this.skipped,
      threads: [...this.threads.keys()].filter((t) => t !== THREAD_EVENTS && t !== THREAD_IMPORTANT).length,
      truncated,
      unfinishedThreads,
    }
  }

  private next(stage: Stage, need: number): void {
    this.stage = stage
    this.need = need
    this.itemStart = this.offset
  }

  private take(item: Uint8Array): void {
    const at = this.offset
    this.offset += item.length
    switch (this.stage) {
      case 'magic': {
        this.magic = String.fromCharCode(item[0], item[1], item[2], item[3])
        if (this.magic === UTRACE_MAGIC) this.next('metadataSize', 2)
        else if (this.magic === UTRACE_OLD_MAGIC) this.next('versions', 2)
        else {
          const hex = Array.from(item, (b) => b.toString(16).padStart(2, '0')).join(' ')
          throw new UtraceFormatError(0, `the magic "2CRT" of an Unreal Insights trace`, `bytes ${hex}`)
        }
        return
      }
      case 'metadataSize': {
        this.metadataBytes = item[0] | (item[1] << 8)
        if (this.metadataBytes === 0) this.next('versions', 2)
        else this.next('metadata', this.metadataBytes)
        return
      }
      case 'metadata':
        this.next('versions', 2)
        return
      case 'versions': {
        this.transport = item[0]
        this.protocol = item[1]
        if (!(TRANSPORT_VERSIONS as readonly number[]).includes(this.transport)) {
          throw new UtraceFormatError(at, 'transport version 3 or 4 (packets of one thread, as UE 5 writes them)', `transport version ${this.transport}`)
        }
        if (!(PROTOCOL_VERSIONS as readonly number[]).includes(this.protocol)) {
          const era = this.protocol < 5 ? ' (an Unreal Engine 4 trace)' : ' (a newer engine than this reader knows)'
          throw new UtraceFormatError(at + 1, 'protocol version 5, 6 or 7 (Unreal Engine 5)', `protocol version ${this.protocol}${era}`)
        }
        this.next('packetHeader', 4)
        return
      }
      case 'packetHeader': {
        this.packetStart = at
        this.packetSize = item[0] | (item[1] << 8)
        const thread = item[2] | (item[3] << 8)
        this.packetEncoded = (thread & PACKET_ENCODED) !== 0
        this.packetThread = thread & THREAD_MASK
        if (thread & PACKET_VERIFIED) {
          throw new UtraceFormatError(at + 2, 'a thread id without the packet-verification bit 0x4000 (a debug build of the tracer)', `0x${thread.toString(16)}`)
        }
        const header = this.packetEncoded ? 6 : 4
        if (this.packetSize < header) {
          throw new UtraceFormatError(at, `a packet size of at least ${header} bytes (its header)`, `${this.packetSize}`)
        }
        this.packets++
        if (this.packetEncoded) this.next('decodedSize', 2)
        else this.body()
        return
      }
      case 'decodedSize':
        this.decodedSize = item[0] | (item[1] << 8)
        this.compressedPackets++
        this.body()
        return
      case 'packetBody':
        this.packet(item)
        this.next('packetHeader', 4)
        return
    }
  }

  private body(): void {
    const size = this.packetSize - (this.packetEncoded ? 6 : 4)
    this.stage = 'packetBody'
    this.need = size
    if (size === 0) {
      this.packet(new Uint8Array(0))
      this.next('packetHeader', 4)
    }
  }

  private packet(payload: Uint8Array): void {
    const thread = this.packetThread
    if (thread === THREAD_SYNC && this.transport === 4) {
      this.syncPackets++
      return
    }
    const header = this.packetEncoded ? 6 : 4
    let data = payload
    if (this.packetEncoded) {
      try {
        data = decodeLz4Block(payload, this.decodedSize)
      } catch (error) {
        if (!(error instanceof Lz4Error)) throw error
        throw new UtraceFormatError(this.packetStart + header + error.at, `an LZ4 block of ${this.decodedSize} decoded bytes (packet at byte ${this.packetStart}, thread ${thread})`, error.message)
      }
    }
    let stream = this.threads.get(thread)
    if (!stream) {
      stream = new ThreadStream(thread)
      this.threads.set(thread, stream)
    }
    stream.append(data, { pos: stream.base + stream.end, file: this.packetStart, header, compressed: this.packetEncoded })
    this.drain(stream)
  }

  private drain(stream: ThreadStream): void {
    const before = this.types.size
    stream.waitingFor = -1
    if (stream.id === THREAD_EVENTS || stream.id === THREAD_IMPORTANT) this.readImportant(stream)
    else this.readNormal(stream)
    stream.settle()
    // new declarations may be what other threads wait for
    if (this.types.size !== before) {
      for (const other of this.threads.values()) {
        if (other !== stream && other.waitingFor >= 0 && this.types.has(other.waitingFor)) {
          other.waitingFor = -1
          this.drain(other)
        }
      }
    }
  }

  private fail(stream: ThreadStream, pos: number, expected: string, found?: string): never {
    const { offset, detail } = stream.where(pos)
    throw new UtraceFormatError(offset, `${expected}${detail}`, found)
  }

  /** Important events: {uid, size} then the event with its aux blocks; uid 0 declares an event type. */
  private readImportant(stream: ThreadStream): void {
    const b = stream.buf
    while (stream.end - stream.start >= 4) {
      const p = stream.start
      const uid = b[p] | (b[p + 1] << 8)
      const size = b[p + 2] | (b[p + 3] << 8)
      if (stream.end - p < 4 + size) return
      const abs = stream.base + p
      if (uid === 0) {
        let type: UtraceEventType
        try {
          type = readDeclaration(b.subarray(p + 4, p + 4 + size), this.protocol)
        } catch (error) {
          if (!(error instanceof DeclarationError)) throw error
          this.fail(stream, abs + 4 + error.at, `a well-formed event declaration: ${error.expected}`, error.found)
        }
        this.declare(type)
        stream.start = p + 4 + size
        this.events++
        continue
      }
      const type = this.types.get(uid)
      if (!type) {
        stream.waitingFor = uid
        return
      }
      if (type.size > size) this.fail(stream, abs + 2, `an important event ${type.fullName} of at least ${type.size} bytes`, `${size}`)
      this.events++
      if (this.wanted.has(uid)) {
        this.view.reset(type, stream.id, -1, abs, b, p + 4)
        this.view.locator = stream
        if (type.flags & EVENT_FLAG.maybeHasAux) this.importantAux(stream, p + 4 + type.size, p + 4 + size)
        this.handler.event(this.view)
      } else {
        this.skipped++
      }
      stream.start = p + 4 + size
    }
  }

  /** The aux blocks inside an important event; their uid byte is written plain (1, 3) or shifted (2, 6). */
  private importantAux(stream: ThreadStream, from: number, end: number): void {
    const b = stream.buf
    let q = from
    while (q < end) {
      const uid = b[q]
      if (uid === AUX_TERMINAL || uid === AUX_TERMINAL << 1) return
      if (uid !== AUX_DATA && uid !== AUX_DATA << 1) {
        this.fail(stream, stream.base + q, `aux data or its terminal in ${this.view.type.fullName}`, `byte 0x${uid.toString(16)}`)
      }
      if (q + 4 > end) this.fail(stream, stream.base + q, `an aux header (4 bytes) in ${this.view.type.fullName}`, `${end - q} bytes left in the event`)
      if (!this.auxBlock(stream, q, end)) {
        this.fail(stream, stream.base + q, `an aux block inside ${this.view.type.fullName} (${this.lastAuxSize} bytes)`, `${end - q - 4} bytes left in the event`)
      }
      q += 4 + this.lastAuxSize
    }
  }

  private lastAuxSize = 0

  private auxBlock(stream: ThreadStream, q: number, end: number): boolean {
    const b = stream.buf
    const pack = (b[q] | (b[q + 1] << 8) | (b[q + 2] << 16) | (b[q + 3] << 24)) >>> 0
    const field = (pack >>> 8) & 0x1f
    const size = pack >>> 13
    this.lastAuxSize = size
    if (q + 4 + size > end) return false
    const type = this.view.type
    if (field >= type.fields.length || !type.fields[field].aux) {
      this.fail(stream, stream.base + q, `aux data for an array or string field of ${type.fullName}`, `field index ${field}`)
    }
    this.view.addAux(field, q + 4, q + 4 + size)
    return true
  }

  /**
   * Normal events: a one- or two-byte uid (bit 0 set for two), a 24-bit serial unless the type has none, the fixed
   * part, then aux blocks and their terminal when the type may have some. Stops at an event not yet whole, or at a
   * uid not yet declared (its declaration may be in a later packet of thread 0).
   */
  private readNormal(stream: ThreadStream): void {
    const b = stream.buf
    const protocol = this.protocol
    for (;;) {
      const p = stream.start
      const end = stream.end
      if (p >= end) return
      const abs = stream.base + p
      let q = p + 1
      let uid = b[p]
      if (uid & 1) {
        if (p + 2 > end) return
        uid = (uid | (b[p + 1] << 8)) >> 1
        q = p + 2
      } else {
        uid >>= 1
      }
      if (uid < FIRST_USER_UID) {
        let extra = 0
        let scope: 'enter' | 'leave'
        if (uid === ENTER_SCOPE || uid === LEAVE_SCOPE) scope = uid === ENTER_SCOPE ? 'enter' : 'leave'
        else if (protocol === 7 && uid >= 6 && uid <= 9) {
          // 6, 7: an absolute 64-bit time; 8, 9: a 56-bit time relative to the thread's base
          scope = uid % 2 === 0 ? 'enter' : 'leave'
          extra = uid <= 7 ? 8 : 7
        } else if (protocol < 7 && uid >= 8 && uid <= 15) {
          scope = uid <= 11 ? 'enter' : 'leave'
          extra = 7
        } else {
          const what = uid === AUX_DATA || uid === AUX_TERMINAL ? 'aux data outside an event with aux fields' : `well-known uid ${uid}`
          return this.fail(stream, abs, 'an event uid (a scope or a declared event)', what)
        }
        if (q + extra > end) return
        stream.start = q + extra
        this.events++
        this.handler.scope?.(stream.id, scope)
        continue
      }
      const type = this.types.get(uid)
      if (!type) {
        stream.waitingFor = uid
        return
      }
      let serial = -1
      if (!(type.flags & EVENT_FLAG.noSync)) {
        if (q + 3 > end) return
        serial = b[q] | (b[q + 1] << 8) | (b[q + 2] << 16)
        q += 3
      }
      const data = q
      q += type.size
      if (q > end) return
      const wanted = this.wanted.has(uid)
      if (wanted) this.view.reset(type, stream.id, serial, abs, b, data)
      if (type.flags & EVENT_FLAG.maybeHasAux) {
        for (;;) {
          if (q >= end) return
          const head = b[q]
          if (head === AUX_TERMINAL << 1) {
            q++
            break
          }
          if (head !== AUX_DATA << 1) {
            return this.fail(stream, stream.base + q, `aux data or its terminal after ${type.fullName}`, `byte 0x${head.toString(16)}`)
          }
          if (q + 4 > end) return
          if (wanted) {
            if (!this.auxBlock(stream, q, end)) return
          } else {
            const pack = (b[q] | (b[q + 1] << 8) | (b[q + 2] << 16) | (b[q + 3] << 24)) >>> 0
            this.lastAuxSize = pack >>> 13
            if (q + 4 + this.lastAuxSize > end) return
          }
          q += 4 + this.lastAuxSize
        }
      }
      stream.start = q
      this.events++
      if (wanted) {
        this.view.locator = stream
        this.handler.event(this.view)
      } else {
        this.skipped++
      }
    }
  }

  private declare(type: UtraceEventType): void {
    this.types.set(type.uid, type)
    if (this.handler.wants(type)) this.wanted.add(type.uid)
    else this.wanted.delete(type.uid)
    this.handler.declared?.(type)
  }
}
