/**
 * The events a trace declares for itself: each `NewEvent` names an event (logger and name), its flags and its
 * fields (name, offset, size, type), so fields are found by name and events the importer has no use for are stepped
 * over by their declared size. See docs/utrace.md for the layouts.
 */

/** Event flags of a declaration. */
export const EVENT_FLAG = { important: 1, maybeHasAux: 2, noSync: 4, definition: 8 } as const

/** The type byte of a field: size as a power of two, category (integer, float, array) and specials. */
const TYPE_POW2_SIZE = 0x03
const TYPE_CATEGORY = 0xc0
const TYPE_FLOAT = 0x40
const TYPE_ARRAY = 0x80
const TYPE_SPECIAL = 0x18
const TYPE_STRING = 0x08
const TYPE_SIGNED = 0x10

export type FieldFamily = 'regular' | 'reference' | 'definitionId'

export interface UtraceField {
  name: string
  /** Position among the event's fields: aux blocks name their field by it. */
  index: number
  offset: number
  /** Bytes in the event's fixed part; 0 for arrays and strings, which come in aux blocks. */
  size: number
  typeInfo: number
  family: FieldFamily
  /** Arrays and strings: their bytes follow the event in aux blocks. */
  aux: boolean
  /** 'ansi' (one byte a character) or 'wide' (UTF-16), for string fields. */
  text?: 'ansi' | 'wide'
  signed: boolean
  float: boolean
  /** Bytes of one element of an array (1, 2, 4, 8). */
  elementSize: number
}

export interface UtraceEventType {
  uid: number
  logger: string
  name: string
  /** `Logger.Name`, as the docs and Insights write it. */
  fullName: string
  flags: number
  /** Bytes of the fixed part: the end of the field that ends last. */
  size: number
  fields: UtraceField[]
  byName: Map<string, UtraceField>
}

/** First uid of events a program declares; lower ones are the protocol's own (aux data, scopes). */
export const FIRST_USER_UID = 16

export class DeclarationError extends Error {
  /** Byte of the declaration where the fault is. */
  constructor(
    readonly at: number,
    readonly expected: string,
    readonly found?: string,
  ) {
    super(`expected ${expected}${found === undefined ? '' : `, found ${found}`}`)
  }
}

const latin1 = new TextDecoder('latin1')

/**
 * A `NewEvent` declaration's bytes → its event type. Protocol 5 writes each field as {offset, size, type, name
 * size} (6 bytes); protocols 6 and 7 put a family byte and a pad byte before (8 bytes), the family being a regular
 * field, a reference to another event, or the event's own definition id.
 */
export function readDeclaration(data: Uint8Array, protocol: number): UtraceEventType {
  const need = (at: number, size: number, what: string): void => {
    if (at + size > data.length) throw new DeclarationError(at, `${what} (${size} bytes)`, `${Math.max(0, data.length - at)} bytes left in the declaration`)
  }
  need(0, 6, 'the declaration header')
  const uid = data[0] | (data[1] << 8)
  const fieldCount = data[2]
  const flags = data[3]
  const loggerSize = data[4]
  const nameSize = data[5]
  if (uid === 0) throw new DeclarationError(0, 'an event uid other than 0 (the uid of declarations)', '0')
  const stride = protocol >= 6 ? 8 : 6
  let at = 6
  const raw: { family: FieldFamily; offset: number; size: number; typeInfo: number; nameSize: number }[] = []
  for (let i = 0; i < fieldCount; i++, at += stride) {
    need(at, stride, `field ${i} of the declaration`)
    let p = at
    let family: FieldFamily = 'regular'
    if (protocol >= 6) {
      const code = data[p]
      if (code > 2) throw new DeclarationError(p, 'a field family 0 (regular), 1 (reference) or 2 (definition id)', `${code}`)
      family = code === 0 ? 'regular' : code === 1 ? 'reference' : 'definitionId'
      p += 2
    }
    const offset = data[p] | (data[p + 1] << 8)
    const second = data[p + 2] | (data[p + 3] << 8)
    if (family === 'definitionId') {
      const typeInfo = data[p + 5]
      raw.push({ family, offset, size: 1 << (typeInfo & TYPE_POW2_SIZE), typeInfo, nameSize: 0 })
    } else {
      const typeInfo = data[p + 4]
      // a reference field's second word is the uid of the event it refers to; its size is its type's
      const size = family === 'reference' ? 1 << (typeInfo & TYPE_POW2_SIZE) : second
      raw.push({ family, offset, size, typeInfo, nameSize: data[p + 5] })
    }
  }
  const text = (size: number, what: string): string => {
    need(at, size, what)
    const s = latin1.decode(data.subarray(at, at + size))
    at += size
    return s
  }
  const logger = text(loggerSize, 'the logger name')
  const name = text(nameSize, 'the event name')
  const fields: UtraceField[] = []
  const byName = new Map<string, UtraceField>()
  let size = 0
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]
    const fieldName = r.family === 'definitionId' ? 'DefinitionId' : text(r.nameSize, `the name of field ${i}`)
    const category = r.typeInfo & TYPE_CATEGORY
    const aux = category === TYPE_ARRAY
    const special = r.typeInfo & TYPE_SPECIAL
    const elementSize = 1 << (r.typeInfo & TYPE_POW2_SIZE)
    const field: UtraceField = {
      name: fieldName,
      index: i,
      offset: r.offset,
      size: aux ? 0 : r.size,
      typeInfo: r.typeInfo,
      family: r.family,
      aux,
      signed: special === TYPE_SIGNED,
      float: category === TYPE_FLOAT,
      elementSize,
    }
    if (aux && special === TYPE_STRING) field.text = elementSize === 2 ? 'wide' : 'ansi'
    if (!aux && ![1, 2, 4, 8].includes(field.size)) {
      throw new DeclarationError(6 + i * stride, `a size of 1, 2, 4 or 8 bytes for field "${fieldName}" of ${logger}.${name}`, `${field.size}`)
    }
    fields.push(field)
    byName.set(fieldName, field)
    if (!aux) size = Math.max(size, field.offset + field.size)
  }
  return { uid, logger, name, fullName: `${logger}.${name}`, flags, size, fields, byName }
}

const utf16 = new TextDecoder('utf-16le')

/**
 * One event's bytes while a handler looks at it: the fixed part and the aux blocks of its array and string fields.
 * Valid only during the call; a handler copies what it keeps.
 */
export class EventView {
  type!: UtraceEventType
  /** Thread the event came from (0 and 1 for important events). */
  thread = 0
  /** 24-bit serial, or -1 for important events and events declared without one. */
  serial = -1
  /** Where the event's stream position lies in the file, asked only when someone wants the offset. */
  locator?: { where(pos: number): { offset: number } }
  position = 0
  bytes: Uint8Array = new Uint8Array(0)
  /** Start of the fixed part in `bytes`. */
  start = 0
  /** Aux blocks by field index: start and end in `bytes`, or a joined copy when a value came in pieces. */
  readonly auxStart: number[] = []
  readonly auxEnd: number[] = []
  readonly auxJoined: (Uint8Array | undefined)[] = []

  /** Byte offset in the file of the event, or of its packet when the packet is LZ4-compressed. */
  get offset(): number {
    return this.locator ? this.locator.where(this.position).offset : 0
  }

  reset(type: UtraceEventType, thread: number, serial: number, position: number, bytes: Uint8Array, start: number): void {
    this.type = type
    this.thread = thread
    this.serial = serial
    this.position = position
    this.bytes = bytes
    this.start = start
    const n = type.fields.length
    for (let i = 0; i < n; i++) {
      this.auxStart[i] = -1
      this.auxEnd[i] = -1
      this.auxJoined[i] = undefined
    }
  }

  addAux(field: number, start: number, end: number): void {
    if (this.auxStart[field] < 0 && this.auxJoined[field] === undefined) {
      this.auxStart[field] = start
      this.auxEnd[field] = end
      return
    }
    const before = this.aux(field) ?? new Uint8Array(0)
    const joined = new Uint8Array(before.length + end - start)
    joined.set(before)
    joined.set(this.bytes.subarray(start, end), before.length)
    this.auxJoined[field] = joined
    this.auxStart[field] = -1
  }

  has(name: string): boolean {
    return this.type.byName.has(name)
  }

  /** An integer or float field as a number (64-bit integers exact up to 2^53), or undefined when not declared. */
  number(name: string): number | undefined {
    const f = this.type.byName.get(name)
    return f && !f.aux ? this.numberOf(f) : undefined
  }

  /** A fixed field of this event's type as a number. */
  numberOf(f: UtraceField): number {
    const at = this.start + f.offset
    const b = this.bytes
    if (f.float) {
      const view = new DataView(b.buffer, b.byteOffset + at, f.size)
      return f.size === 8 ? view.getFloat64(0, true) : view.getFloat32(0, true)
    }
    switch (f.size) {
      case 1:
        return f.signed ? (b[at] << 24) >> 24 : b[at]
      case 2: {
        const v = b[at] | (b[at + 1] << 8)
        return f.signed ? (v << 16) >> 16 : v
      }
      case 4: {
        const v = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)
        return f.signed ? v : v >>> 0
      }
      default: {
        const lo = (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0
        const hi = b[at + 4] | (b[at + 5] << 8) | (b[at + 6] << 16) | (b[at + 7] << 24)
        return lo + (f.signed ? hi : hi >>> 0) * 2 ** 32
      }
    }
  }

  /** The bytes of an array or string field, or undefined when the event has none for it. */
  aux(field: number): Uint8Array | undefined {
    const joined = this.auxJoined[field]
    if (joined) return joined
    const start = this.auxStart[field]
    return start < 0 ? undefined : this.bytes.subarray(start, this.auxEnd[field])
  }

  array(name: string): Uint8Array | undefined {
    const f = this.type.byName.get(name)
    return f?.aux ? this.aux(f.index) : undefined
  }

  /** A string field: ANSI (Latin-1) or wide (UTF-16 LE), by its declaration; a trailing NUL is dropped. */
  string(name: string): string | undefined {
    const f = this.type.byName.get(name)
    if (!f?.aux) return undefined
    const bytes = this.aux(f.index)
    if (!bytes) return ''
    const wide = f.text === 'wide'
    let end = bytes.length - (wide ? bytes.length & 1 : 0)
    if (wide) {
      while (end >= 2 && bytes[end - 1] === 0 && bytes[end - 2] === 0) end -= 2
      return utf16.decode(bytes.subarray(0, end))
    }
    while (end > 0 && bytes[end - 1] === 0) end--
    return latin1.decode(bytes.subarray(0, end))
  }
}
