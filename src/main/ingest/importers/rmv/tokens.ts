/**
 * The RMT token stream: one pass per stream to check every token's size and type (so corruption is found before
 * anything is built), then one merged pass over all streams in clock order that fills the event columns.
 * Each token starts with a byte whose bits [3:0] are its type and [7:4] a clock delta in units of 32 ticks.
 */
import { bitField as bits, decodeCString } from './bytes'
import { CREATE_HEADER_SIZE, descriptionSize, readDescription } from './descriptions'
import { RmvFormatError } from './errors'
import type { StreamSource } from './info'
import {
  RMV_COMMIT_TYPES,
  RMV_OWNERS,
  RMV_RESOURCE_TYPES,
  RMV_TOKEN_TYPES,
  RMV_USERDATA_TYPES,
  TOKEN,
  type RmvEvents,
  type RmvResourceCreate,
  type RmvTokenType,
  type RmvUserdata,
} from './types'

/** Clock ticks per unit of a token's delta field and of a timestamp's counter. */
const TIMESTAMP_QUANTUM = 32

// Token codes as plain constants: the hot loops compare against them per token.
const T_TIMESTAMP = TOKEN.timestamp
const T_USERDATA = TOKEN.userdata
const T_TIME_DELTA = TOKEN.timeDelta
const T_RESOURCE_CREATE = TOKEN.resourceCreate

/** Fixed token sizes in bytes by type; -1 where the size depends on the token's bytes, 0 for the reserved type. */
const FIXED_SIZE = [12, 14, 0, 18, -1, 2, 8, 17, 6, 10, 8, 7, 12, -1, -1, 5]

export interface DecodedStreams {
  events: RmvEvents
  creates: RmvResourceCreate[]
  userdata: RmvUserdata[]
  tokenCounts: Record<RmvTokenType, number>
  /** Per source stream: tokens read, the first timestamp's frequency, first and last clock. */
  perStream: { tokens: number; frequency?: number; firstClock?: number; lastClock: number }[]
}

/** Format version as one number, major × 10 + minor, the way the format compares versions. */
export const versionNumber = (major: number, minor: number): number => major * 10 + minor

function fileOffset(src: StreamSource, pos: number): number {
  let i = src.pieceStreamOffsets.length - 1
  while (i > 0 && src.pieceStreamOffsets[i] > pos) i--
  return src.pieceFileOffsets[i] + pos - src.pieceStreamOffsets[i]
}

function truncated(src: StreamSource, pos: number, size: number, what: string): RmvFormatError {
  const left = src.bytes.length - pos
  return new RmvFormatError(fileOffset(src, pos), `a complete ${what} (${size} bytes)`, `${left} bytes left in stream ${src.index}`)
}

/** Size of the token at `pos`, after checking it is a known token that the stream holds whole. */
function tokenSize(src: StreamSource, pos: number, version: number): number {
  const b = src.bytes
  const end = b.length
  const type = b[pos] & 15
  let size = FIXED_SIZE[type]
  if (type === T_USERDATA) {
    if (pos + 4 > end) throw truncated(src, pos, 4, 'userdata token header')
    size = 4 + bits(b, pos, 31, 12)
  } else if (type === T_TIME_DELTA) {
    size = 1 + ((b[pos] >> 4) & 7)
  } else if (type === T_RESOURCE_CREATE) {
    if (pos + CREATE_HEADER_SIZE > end) throw truncated(src, pos, CREATE_HEADER_SIZE, 'resource create token header')
    const resourceType = b[pos + 6] & 63
    if (resourceType === 14 && pos + CREATE_HEADER_SIZE + 3 > end) {
      throw truncated(src, pos, CREATE_HEADER_SIZE + 3, 'descriptor pool description header')
    }
    const payload = descriptionSize(resourceType, version, b, pos)
    if (payload < 0) {
      throw new RmvFormatError(fileOffset(src, pos + 6), `a resource type from 0 to ${RMV_RESOURCE_TYPES.length - 1}`, `${resourceType}`)
    }
    size = CREATE_HEADER_SIZE + payload
  } else if (size === 0) {
    throw new RmvFormatError(fileOffset(src, pos), 'a known token type (0, 1 or 3 to 15)', `type ${type} (reserved)`)
  }
  if (pos + size > end) throw truncated(src, pos, size, `${RMV_TOKEN_TYPES[type]} token`)
  return size
}

/** Checks a stream's tokens and counts them; returns the number of event rows (tokens other than time deltas). */
function scanStream(src: StreamSource, counts: number[]): number {
  const version = versionNumber(src.versionMajor, src.versionMinor)
  const b = src.bytes
  let pos = 0
  let rows = 0
  while (pos < b.length) {
    const type = b[pos] & 15
    pos += tokenSize(src, pos, version)
    counts[type]++
    if (type !== T_TIME_DELTA) rows++
  }
  return rows
}

interface Cursor {
  src: StreamSource
  slot: number
  version: number
  pos: number
  piece: number
  clock: number
  nextClock: number
  seen: boolean
  tokens: number
  frequency?: number
  firstClock?: number
}

/** Little-endian unsigned integer of `n` bytes (n ≤ 7), as a double. */
function littleEndian(b: Uint8Array, at: number, n: number): number {
  let value = 0
  for (let i = n - 1; i >= 0; i--) value = value * 256 + b[at + i]
  return value
}

/** Moves past time deltas to the next row token and works out its clock; false at the end of the stream. */
function prime(c: Cursor): boolean {
  const b = c.src.bytes
  while (c.pos < b.length) {
    const head = b[c.pos]
    const type = head & 15
    if (type === T_TIME_DELTA) {
      const n = (head >> 4) & 7
      if (c.seen) c.clock += littleEndian(b, c.pos + 1, n) * TIMESTAMP_QUANTUM
      c.pos += 1 + n
      c.tokens++
      continue
    }
    if (type === T_TIMESTAMP) {
      c.nextClock = bits(b, c.pos, 63, 4) * TIMESTAMP_QUANTUM
      if (!c.seen) {
        c.seen = true
        c.frequency = bits(b, c.pos, 95, 64)
      }
    } else {
      // Until the stream's first timestamp there is no clock to add deltas to.
      c.nextClock = c.seen ? c.clock + ((head >> 4) & 15) * TIMESTAMP_QUANTUM : c.clock
    }
    return true
  }
  return false
}

function allocateEvents(length: number): RmvEvents {
  return {
    length,
    kind: new Uint8Array(length),
    stream: new Uint8Array(length),
    clock: new Float64Array(length),
    offset: new Float64Array(length),
    address: new Float64Array(length),
    size: new Float64Array(length),
    id: new Float64Array(length),
    extra: new Float64Array(length),
    ref: new Uint32Array(length),
    flags: new Uint32Array(length),
  }
}

export function decodeStreams(sources: StreamSource[]): DecodedStreams {
  const counts = new Array<number>(16).fill(0)
  let rows = 0
  for (const src of sources) rows += scanStream(src, counts)
  const events = allocateEvents(rows)
  const creates: RmvResourceCreate[] = []
  const userdata: RmvUserdata[] = []
  const cursors: Cursor[] = sources.map((src, slot) => ({
    src,
    slot,
    version: versionNumber(src.versionMajor, src.versionMinor),
    pos: 0,
    piece: 0,
    clock: 0,
    nextClock: 0,
    seen: false,
    tokens: 0,
  }))
  const live = cursors.filter(prime)
  let row = 0
  while (live.length > 0) {
    // Streams are few (one per driver thread or process): a linear pick of the earliest is cheapest.
    let best = 0
    for (let i = 1; i < live.length; i++) if (live[i].nextClock < live[best].nextClock) best = i
    const c = live[best]
    c.clock = c.nextClock
    if (c.firstClock === undefined) c.firstClock = c.clock
    const size = tokenSize(c.src, c.pos, c.version)
    decodeRow(c, row++, events, creates, userdata)
    c.pos += size
    c.tokens++
    if (!prime(c)) live.splice(best, 1)
  }
  const tokenCounts = Object.fromEntries(RMV_TOKEN_TYPES.map((name, i) => [name, counts[i]])) as Record<RmvTokenType, number>
  return {
    events,
    creates,
    userdata,
    tokenCounts,
    perStream: cursors.map((c) => ({ tokens: c.tokens, frequency: c.frequency, firstClock: c.firstClock, lastClock: c.clock })),
  }
}

function decodeRow(c: Cursor, row: number, e: RmvEvents, creates: RmvResourceCreate[], userdata: RmvUserdata[]): void {
  const src = c.src
  const b = src.bytes
  const p = c.pos
  const type = b[p] & 15
  while (c.piece + 1 < src.pieceStreamOffsets.length && p >= src.pieceStreamOffsets[c.piece + 1]) c.piece++
  e.kind[row] = type
  e.stream[row] = src.index
  e.clock[row] = c.clock
  e.offset[row] = src.pieceFileOffsets[c.piece] + p - src.pieceStreamOffsets[c.piece]
  switch (type) {
    case TOKEN.timestamp:
      e.extra[row] = bits(b, p, 95, 64)
      break
    case TOKEN.virtualAllocate: {
      e.size[row] = (bits(b, p, 31, 8) + 1) * 4096
      e.address[row] = bits(b, p, 81, 34)
      // Before format 1.6 all four preferences count; from 1.6 a count says how many do; 1.8 adds "external".
      const count = c.version >= 16 ? bits(b, p, 92, 90) : 4
      const external = c.version >= 18 ? bits(b, p, 93, 93) : 0
      e.flags[row] = bits(b, p, 33, 32) | (bits(b, p, 89, 82) << 2) | (count << 10) | (external << 13)
      break
    }
    case TOKEN.virtualFree:
      e.address[row] = bits(b, p, 55, 8)
      break
    case TOKEN.resourceCreate: {
      const resourceType = RMV_RESOURCE_TYPES[bits(b, p, 53, 48)]
      e.id[row] = bits(b, p, 39, 8)
      e.ref[row] = creates.length
      creates.push({
        resourceId: e.id[row],
        owner: RMV_OWNERS[bits(b, p, 41, 40)],
        ownerCategory: bits(b, p, 45, 42),
        commit: RMV_COMMIT_TYPES[bits(b, p, 47, 46)],
        description: readDescription(resourceType, c.version, b, p + CREATE_HEADER_SIZE),
      })
      break
    }
    case TOKEN.resourceBind:
      e.address[row] = bits(b, p, 55, 8)
      e.size[row] = bits(b, p, 99, 56)
      e.flags[row] = bits(b, p, 100, 100)
      e.id[row] = bits(b, p, 135, 104)
      break
    case TOKEN.resourceDestroy:
      e.id[row] = bits(b, p, 39, 8)
      break
    case TOKEN.resourceUpdate:
      e.id[row] = bits(b, p, 39, 8)
      e.size[row] = bits(b, p, 71, 40)
      e.extra[row] = bits(b, p, 77, 72)
      e.flags[row] = bits(b, p, 92, 78) | (bits(b, p, 107, 93) << 15)
      break
    case TOKEN.pageTableUpdate: {
      const pages = bits(b, p, 99, 80)
      const pageSizeCode = bits(b, p, 102, 100)
      e.address[row] = bits(b, p, 43, 8) * 4096
      e.extra[row] = bits(b, p, 79, 44) * 4096
      e.size[row] = pages * PAGE_BYTES[pageSizeCode]
      e.ref[row] = pages
      e.id[row] = bits(b, p, 135, 104)
      e.flags[row] = pageSizeCode | (bits(b, p, 103, 103) << 3) | (bits(b, p, 137, 136) << 4) | (bits(b, p, 138, 138) << 6)
      break
    }
    case TOKEN.userdata:
      e.ref[row] = userdata.length
      userdata.push(readUserdata(b, p))
      break
    case TOKEN.misc:
      e.flags[row] = bits(b, p, 11, 8)
      break
    case TOKEN.resourceReference:
      e.address[row] = bits(b, p, 56, 9)
      e.flags[row] = bits(b, p, 8, 8) | (bits(b, p, 63, 57) << 1)
      break
    case TOKEN.processEvent:
      e.id[row] = bits(b, p, 39, 8)
      e.flags[row] = bits(b, p, 47, 40)
      break
    case TOKEN.pageReference:
      e.flags[row] = bits(b, p, 10, 8) | (bits(b, p, 11, 11) << 3)
      break
    case TOKEN.cpuMap:
      e.address[row] = bits(b, p, 55, 8)
      e.flags[row] = bits(b, p, 56, 56)
      break
  }
}

const PAGE_BYTES = [0, 4096, 65536, 262144, 1048576, 2097152, 0, 0]

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0
}

function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 2 ** 32
}

function readUserdata(b: Uint8Array, p: number): RmvUserdata {
  const typeCode = bits(b, p, 11, 8)
  const size = bits(b, p, 31, 12)
  const q = p + 4
  const out: RmvUserdata = { type: RMV_USERDATA_TYPES[typeCode] ?? 'reserved', size }
  switch (typeCode) {
    case 0:
      // The name, then the 32-bit id it names.
      if (size > 4) {
        out.name = decodeCString(b.subarray(q, q + size - 4))
        out.resourceId = u32(b, q + size - 4)
      }
      break
    case 1:
      out.name = decodeCString(b.subarray(q, q + size))
      break
    case 4:
      if (size === 8) {
        out.resourceId = u32(b, q)
        out.correlationId = u32(b, q + 4)
      }
      break
    case 5:
      if (size >= 4) out.resourceId = u32(b, q + size - 4)
      break
    case 6:
      // The name, the 32-bit id, then a 64-bit delay in ticks.
      if (size > 12) {
        out.name = decodeCString(b.subarray(q, q + size - 12))
        out.resourceId = u32(b, q + size - 12)
        out.timeDelay = u64(b, q + size - 8)
      }
      break
    case 7:
      if (size >= 12) {
        out.resourceId = u32(b, q)
        out.timeDelay = u64(b, q + 4)
        out.implicitType = 0
        // A trailing heap-type byte (format 1.9+): 1 means an implicit heap, 2 an implicit resource.
        if (size >= 13) out.implicitType = b[q + 12] === 1 ? 1 : b[q + 12] === 2 ? 2 : 0
      }
      break
  }
  return out
}
