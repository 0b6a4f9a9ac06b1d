/**
 * Capture records to NDJSON text: one line per record, keys in the order the capture format shows them, fields
 * that hold the format's default left out, and a sink that batches lines into large chunks for a byte stream.
 */
import { isAscii } from 'node:buffer'
import type { AnyCaptureRecord, CaptureHeader, CaptureRecord } from '../../shared/capture'

// Quotes, backslashes and control characters need escapes; surrogates go the slow way too, so a lone half
// of a pair is written as \udxxx and survives UTF-8 encoding instead of turning into U+FFFD.
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return true
  }
  return false
}

/** A JSON string literal, quotes included. Plain names (the common case) are copied without JSON.stringify. */
export function jsonString(text: string): string {
  return needsEscape(text) ? JSON.stringify(text) : '"' + text + '"'
}

/** A JSON number; non-finite values have no JSON form and become null, as JSON.stringify would write them. */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null'
}

function jsonValue(value: unknown): string {
  if (typeof value === 'number') return jsonNumber(value)
  if (typeof value === 'string') return jsonString(value)
  return JSON.stringify(value) ?? 'null'
}

/** A list of names (usages, flags) as a JSON array. */
export function jsonNames(names: readonly string[]): string {
  let out = '['
  for (let i = 0; i < names.length; i++) out += (i === 0 ? '' : ',') + jsonString(names[i])
  return out + ']'
}

type Loose = Record<string, unknown>

// Keys each kind writes itself, in the format's order; anything else is an unknown key, kept at the end.
const BUFFER_KEYS = ['size', 'usage', 'stride', 'state', 'heap', 'init', 'name', 'tag']
const TEXTURE_KEYS = [
  'dim', 'format', 'width', 'height', 'depth', 'mips', 'samples', 'flags', 'name', 'tag', 'size', 'align',
]
const KNOWN_KEYS: Record<string, ReadonlySet<string>> = {
  frame: new Set(['e', 'n', 't']),
  gpu: new Set(['e', 'n']),
  buffer: new Set(['e', 'id', ...BUFFER_KEYS]),
  texture: new Set(['e', 'id', ...TEXTURE_KEYS]),
  release: new Set(['e', 'id']),
  commit: new Set(['e', 'id', 'bytes']),
  lock: new Set(['e', 'id', 'bytes']),
  upload: new Set(['e', 'via', 'bytes', 'count']),
  use: new Set(['e', 'ids']),
  budget: new Set(['e', 'bytes']),
  graph: new Set(['e', 'name']),
  'transient:buffer': new Set(['e', 'id', 'kind', 'first', 'last', ...BUFFER_KEYS]),
  'transient:texture': new Set(['e', 'id', 'kind', 'first', 'last', ...TEXTURE_KEYS]),
  endgraph: new Set(['e', 'passes']),
  heap: new Set(['e', 'id', 'size', 'type', 'name']),
  'placed:buffer': new Set(['e', 'id', 'heap', 'offset', 'kind', ...BUFFER_KEYS]),
  'placed:texture': new Set(['e', 'id', 'heap', 'offset', 'kind', ...TEXTURE_KEYS]),
  barrier: new Set(['e', 'after', 'before']),
  access: new Set(['e', 'id', 'op']),
  submit: new Set(['e']),
  free: new Set(['e', 'id']),
}

function unknownKeys(record: Loose, known: ReadonlySet<string> | undefined): string {
  let out = ''
  for (const key in record) {
    if (known?.has(key)) continue
    const value = record[key]
    if (value !== undefined) out += ',' + jsonString(key) + ':' + jsonValue(value)
  }
  return out
}

function opt(key: string, value: unknown): string {
  return value === undefined ? '' : ',"' + key + '":' + jsonValue(value)
}

/** `usage` to `init`: what a buffer desc holds before its name, defaults left out. A placed buffer's `heap` is
 * its heap's id, written before. */
function bufferDesc(r: Loose, placed = false): string {
  let out = opt('size', r.size)
  if (r.usage !== undefined) out += ',"usage":' + (Array.isArray(r.usage) ? jsonNames(r.usage) : jsonValue(r.usage))
  if (r.stride !== undefined && r.stride !== 0) out += ',"stride":' + jsonValue(r.stride)
  if (r.state !== undefined && r.state !== 'default') out += ',"state":' + jsonValue(r.state)
  if (!placed && r.heap !== undefined && r.heap !== 'default') out += ',"heap":' + jsonValue(r.heap)
  if (r.init !== undefined && r.init !== false) out += ',"init":' + jsonValue(r.init)
  return out
}

/** `dim` to `flags`: what a texture desc holds before its name, defaults left out. */
function textureDesc(r: Loose): string {
  let out = opt('dim', r.dim) + opt('format', r.format) + opt('width', r.width) + opt('height', r.height)
  if (r.depth !== undefined && r.depth !== 1) out += ',"depth":' + jsonValue(r.depth)
  if (r.mips !== undefined && r.mips !== 1) out += ',"mips":' + jsonValue(r.mips)
  if (r.samples !== undefined && r.samples !== 1) out += ',"samples":' + jsonValue(r.samples)
  if (r.flags !== undefined) out += ',"flags":' + (Array.isArray(r.flags) ? jsonNames(r.flags) : jsonValue(r.flags))
  return out
}

function named(r: Loose): string {
  return opt('name', r.name) + opt('tag', r.tag)
}

function driverSize(r: Loose): string {
  return opt('size', r.size) + opt('align', r.align)
}

function headerLine(h: CaptureHeader): string {
  const ordered: Loose = { format: h.format, version: h.version }
  if (h.api !== undefined && h.api !== 'd3d12') ordered.api = h.api
  for (const key of ['app', 'captured', 'adapter', 'budget', 'config', 'source']) ordered[key] = h[key]
  for (const key in h) if (!(key in ordered) && key !== 'api') ordered[key] = h[key]
  const adapter = h.adapter
  if (adapter) {
    const a: Loose = {
      name: adapter.name,
      vram: adapter.vram,
      resourceHeapTier: adapter.resourceHeapTier,
      uma: adapter.uma,
    }
    for (const key in adapter) if (!(key in a)) a[key] = adapter[key]
    ordered.adapter = a
  }
  return JSON.stringify(ordered)
}

/**
 * One capture record (or the header) as one JSON line without its line end. JSON.parse of the line gives the
 * record back, less the fields that held the format's default (stride 0, state and heap "default", init false,
 * depth, mips and samples 1, api "d3d12").
 */
export function recordLine(input: AnyCaptureRecord | CaptureHeader): string {
  if (!('e' in input)) return headerLine(input as CaptureHeader)
  const record = input as CaptureRecord
  const r = record as unknown as Loose
  let out: string
  let known: ReadonlySet<string> | undefined
  switch (record.e) {
    case 'frame':
      out = '{"e":"frame","n":' + jsonValue(record.n) + opt('t', record.t)
      break
    case 'gpu':
      out = '{"e":"gpu","n":' + jsonValue(record.n)
      break
    case 'buffer':
      out = '{"e":"buffer","id":' + jsonValue(record.id) + bufferDesc(r) + named(r)
      break
    case 'texture':
      out = '{"e":"texture","id":' + jsonValue(record.id) + textureDesc(r) + named(r) + driverSize(r)
      break
    case 'release':
    case 'free':
      out = '{"e":"' + record.e + '","id":' + jsonValue(record.id)
      break
    case 'commit':
    case 'lock':
      out = '{"e":"' + record.e + '","id":' + jsonValue(record.id) + ',"bytes":' + jsonValue(record.bytes)
      break
    case 'upload':
      out = '{"e":"upload","via":' + jsonValue(record.via) + ',"bytes":' + jsonValue(record.bytes) + opt(
        'count',
        record.count,
      )
      break
    case 'use': {
      out = '{"e":"use","ids":['
      const ids = record.ids
      for (let i = 0; i < ids.length; i++) out += (i === 0 ? '' : ',') + jsonValue(ids[i])
      out += ']'
      break
    }
    case 'budget':
      out = '{"e":"budget","bytes":' + jsonValue(record.bytes)
      break
    case 'graph':
      out = '{"e":"graph"' + opt('name', record.name)
      break
    case 'transient':
      out = '{"e":"transient","id":' + jsonValue(record.id) + ',"kind":' + jsonValue(record.kind)
      out += record.kind === 'texture' ? textureDesc(r) : bufferDesc(r)
      out += opt('first', record.first) + opt('last', record.last) + named(r)
      if (record.kind === 'texture') out += driverSize(r)
      known = KNOWN_KEYS['transient:' + record.kind]
      break
    case 'endgraph':
      out = '{"e":"endgraph","passes":' + jsonValue(record.passes)
      break
    case 'heap':
      out = '{"e":"heap","id":' + jsonValue(record.id) + ',"size":' + jsonValue(record.size)
      out += opt('type', record.type) + opt('name', record.name)
      break
    case 'placed':
      out = '{"e":"placed","id":' + jsonValue(record.id) + ',"heap":' + jsonValue(record.heap)
      out += ',"offset":' + jsonValue(record.offset) + ',"kind":' + jsonValue(record.kind)
      out += record.kind === 'texture' ? textureDesc(r) + named(r) + driverSize(r) : bufferDesc(r, true) + named(r)
      known = KNOWN_KEYS['placed:' + record.kind]
      break
    case 'barrier':
      out = '{"e":"barrier"' + opt('after', record.after) + opt('before', record.before)
      break
    case 'access':
      out = '{"e":"access","id":' + jsonValue(record.id) + ',"op":' + jsonValue(record.op)
      break
    case 'submit':
      out = '{"e":"submit"'
      break
    default:
      // A kind this build does not know: written as it is, `e` first.
      return JSON.stringify({ e: (record as Loose).e, ...(record as Loose) })
  }
  return out + unknownKeys(r, known ?? KNOWN_KEYS[record.e]) + '}'
}

/**
 * Lines to a byte stream in chunks of about `chunkSize` characters. `line` returns a promise only when it
 * handed a chunk to a `write` that returned one: awaiting it is how a producer honours the stream's
 * backpressure. Chunks are written in order even when a producer does not wait.
 */
export class NdjsonSink {
  private buffer = ''
  private pending: Promise<void> | undefined

  constructor(
    private readonly write: (chunk: string) => void | Promise<void>,
    readonly chunkSize = 1 << 20,
  ) {}

  line(text: string): void | Promise<void> {
    this.buffer += text + '\n'
    if (this.buffer.length >= this.chunkSize) return this.emit()
  }

  /** Whole lines already joined, each ending with a line feed (a LineBuilder's chunk). */
  lines(text: string): void | Promise<void> {
    this.buffer = this.buffer.length === 0 ? text : this.buffer + text
    if (this.buffer.length >= this.chunkSize) return this.emit()
  }

  /** Writes what is buffered and waits for every write handed out so far. */
  async flush(): Promise<void> {
    if (this.buffer.length > 0) await this.emit()
    else if (this.pending) await this.pending
  }

  private emit(): void | Promise<void> {
    const chunk = this.buffer
    this.buffer = ''
    if (this.pending) return this.track(this.pending.then(() => this.write(chunk)))
    const result = this.write(chunk)
    if (result) return this.track(Promise.resolve(result))
  }

  private track(write: Promise<void>): Promise<void> {
    const done: Promise<void> = write.then(() => {
      if (this.pending === done) this.pending = undefined
    })
    this.pending = done
    return done
  }
}

const encoder = new TextEncoder()

/** A piece of a line encoded once, to be copied into many lines. */
export function fragment(text: string): Uint8Array {
  return encoder.encode(text)
}

const LINE_FEED = 10
/** "00" to "99": two digits per division. */
const DIGIT_PAIRS = fragment(Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' : '') + i).join(''))

/** Writes a non-negative safe integer's digits at `pos`; returns the position after them. */
function writeInteger(bytes: Uint8Array, pos: number, value: number): number {
  let digits = 1
  for (let p = 10; p <= value; p *= 10) digits++
  const end = pos + digits
  let at = end
  while (value >= 100) {
    const q = Math.floor(value / 100)
    const pair = (value - q * 100) * 2
    bytes[--at] = DIGIT_PAIRS[pair + 1]
    bytes[--at] = DIGIT_PAIRS[pair]
    value = q
  }
  if (value >= 10) {
    bytes[at - 1] = DIGIT_PAIRS[value * 2 + 1]
    bytes[at - 2] = DIGIT_PAIRS[value * 2]
  } else bytes[at - 1] = 48 + value
  return end
}

/**
 * Lines built as UTF-8 bytes, from pre-encoded fragments, integers and strings, and handed to a sink as text one
 * chunk at a time. For writers of millions of records: no string per line, no JSON.stringify, one decode per
 * chunk (a plain copy when the chunk is ASCII).
 */
export class LineBuilder {
  private bytes: Buffer
  private pos = 0
  private readonly chunkSize: number

  constructor(private readonly sink: Pick<NdjsonSink, 'lines' | 'flush' | 'chunkSize'>) {
    this.chunkSize = sink.chunkSize
    this.bytes = Buffer.allocUnsafe(sink.chunkSize + 64 * 1024)
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.bytes.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.pos + n))
    this.bytes.copy(grown, 0, 0, this.pos)
    this.bytes = grown
  }

  raw(piece: Uint8Array): void {
    this.ensure(piece.length)
    this.bytes.set(piece, this.pos)
    this.pos += piece.length
  }

  /** One ASCII character by its code. */
  char(code: number): void {
    this.ensure(1)
    this.bytes[this.pos++] = code
  }

  /** A number as JSON writes it; non-negative safe integers (ids, sizes, counts) without a string. */
  number(value: number): void {
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER && Math.floor(value) === value) {
      this.ensure(16)
      this.pos = writeInteger(this.bytes, this.pos, value)
      return
    }
    this.asciiText(jsonNumber(value))
  }

  /** `count` numbers (ids) from `offset`, separated by commas: the inside of a JSON array. */
  integers(values: ArrayLike<number>, count: number, offset = 0): void {
    this.ensure(count * 17)
    for (let i = 0; i < count; i++) {
      if (i > 0) this.bytes[this.pos++] = 44
      const value = values[offset + i]
      if (value >= 0 && value <= Number.MAX_SAFE_INTEGER && Math.floor(value) === value) this.pos = writeInteger(
        this.bytes,
        this.pos,
        value,
      )
      else this.asciiText(jsonNumber(value))
    }
  }

  /** A JSON string literal. Printable ASCII is copied as it is; anything else goes through jsonString. */
  string(text: string): void {
    const n = text.length
    this.ensure(n + 2)
    const bytes = this.bytes
    const start = this.pos
    bytes[start] = 34
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c < 0x20 || c === 34 || c === 92 || c > 0x7e) {
        this.pos = start
        this.text(jsonString(text))
        return
      }
      bytes[start + 1 + i] = c
    }
    bytes[start + 1 + n] = 34
    this.pos = start + n + 2
  }

  /** Text copied as UTF-8 (already JSON where it has to be). */
  text(value: string): void {
    this.ensure(value.length * 3)
    this.pos += this.bytes.write(value, this.pos, 'utf8')
  }

  private asciiText(value: string): void {
    this.ensure(value.length)
    for (let i = 0; i < value.length; i++) this.bytes[this.pos++] = value.charCodeAt(i)
  }

  /** Ends the line; hands the chunk to the sink when it is full (a promise when the sink has to be awaited). */
  end(): void | Promise<void> {
    this.ensure(1)
    this.bytes[this.pos++] = LINE_FEED
    if (this.pos >= this.chunkSize) return this.emit()
  }

  /** Hands over what was written and waits for the sink. */
  async flush(): Promise<void> {
    if (this.pos > 0) await this.emit()
    await this.sink.flush()
  }

  private emit(): void | Promise<void> {
    // ASCII (nearly every chunk) decodes as a plain copy; anything else as UTF-8.
    const ascii = isAscii(this.bytes.subarray(0, this.pos))
    const chunk = this.bytes.toString(ascii ? 'latin1' : 'utf8', 0, this.pos)
    this.pos = 0
    return this.sink.lines(chunk)
  }
}
