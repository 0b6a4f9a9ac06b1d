/**
 * What every importer reads and returns, and the text helpers they share: encoding detection (UTF-8, UTF-16 LE/BE
 * by BOM), decoding without building more strings than needed, JSON syntax errors located to the byte, and a
 * scanner that steps over JSON values in the raw code units so a big trace is parsed one event at a time.
 */
import type { AnyCaptureRecord, CaptureHeader, CaptureRecord } from '../../../shared/capture'
import type { TraceRun } from '../../../shared/ipc'

/** A whole foreign file, already gunzipped. The name is only for messages: formats are detected by content. */
export interface ImportSource {
  name: string
  bytes: Uint8Array
}

/** An import's header and records: of format 1.0 by default, `AnyCaptureRecord` for importers of minor versions. */
export interface ImportedCapture<R extends AnyCaptureRecord = CaptureRecord> {
  header: CaptureHeader
  records: R[]
  /** The detected format, as the dispatcher names it ('vma-json', 'gpgmm-trace', …). */
  format: string
  /** What the importer noticed and could not say in records: mismatched totals, skipped events, choices made. */
  notes: string[]
  /** An allocator's trace that holds requests: which of the two runs this import is. */
  trace?: TraceRun
}

/** Bytes of a file an importer looks at to recognise its format. */
export const SNIFF_BYTES = 4096

export interface ImportErrorPlace {
  /** Byte offset in the file, BOM included. */
  offset?: number
  /** 1-based line number. */
  line?: number
  /** What should have been there. */
  expected?: string
}

/** The content is the importer's format but broken. The message names the file, the place and what was expected. */
export class ImportError extends Error {
  readonly file: string
  readonly offset?: number
  readonly line?: number
  readonly expected?: string

  constructor(file: string, what: string, place: ImportErrorPlace = {}) {
    const where: string[] = []
    if (place.line !== undefined) where.push(`line ${place.line}`)
    if (place.offset !== undefined) where.push(`byte ${place.offset}`)
    super(`${file}: ${where.length ? where.join(', ') + ': ' : ''}${what}`)
    this.name = 'ImportError'
    this.file = file
    this.offset = place.offset
    this.line = place.line
    this.expected = place.expected
  }
}

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be'

/**
 * Encoding by BOM. Without a BOM, a NUL in the second (or first) byte of a text that starts with ASCII is taken
 * as UTF-16 LE (or BE): JSON always starts with an ASCII character.
 */
export function detectEncoding(bytes: Uint8Array): { encoding: TextEncodingName; bom: number } {
  const b0 = bytes[0]
  const b1 = bytes[1]
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bom: 3 }
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bom: 2 }
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bom: 2 }
  if (bytes.length >= 2) {
    if (b0 !== 0 && b0 < 0x80 && b1 === 0) return { encoding: 'utf-16le', bom: 0 }
    if (b0 === 0 && b1 !== 0 && b1 < 0x80) return { encoding: 'utf-16be', bom: 0 }
  }
  return { encoding: 'utf-8', bom: 0 }
}

/**
 * A file's text as code units (bytes for UTF-8, 16-bit units for UTF-16), BOM excluded. Structural JSON characters
 * are ASCII, the same value in both, so scanners work on units and decode only the slices they keep.
 */
export interface TextUnits {
  readonly encoding: TextEncodingName
  readonly bom: number
  readonly units: Uint8Array | Uint16Array
  readonly length: number
  /** Decode units [start, end) into a string. */
  slice(start: number, end: number): string
  /** Byte offset in the file of a unit index. */
  byteOffset(unit: number): number
  /** 1-based line of a unit index. */
  lineAt(unit: number): number
}

const utf8Decoder = new TextDecoder('utf-8')
const utf8Encoder = new TextEncoder()

export function textUnits(bytes: Uint8Array): TextUnits {
  const { encoding, bom } = detectEncoding(bytes)
  if (encoding === 'utf-8') {
    const units = bytes.subarray(bom)
    return {
      encoding,
      bom,
      units,
      length: units.length,
      slice: (start, end) => utf8Decoder.decode(units.subarray(start, end)),
      byteOffset: (unit) => bom + unit,
      lineAt: (unit) => lineAt(units, unit),
    }
  }
  const count = (bytes.length - bom) >> 1
  const units = new Uint16Array(count)
  const hi = encoding === 'utf-16le' ? 1 : 0
  const lo = 1 - hi
  for (let i = 0, p = bom; i < count; i++, p += 2) units[i] = (bytes[p + hi] << 8) | bytes[p + lo]
  return {
    encoding,
    bom,
    units,
    length: count,
    slice: (start, end) => decodeUtf16(units, start, end),
    byteOffset: (unit) => bom + 2 * unit,
    lineAt: (unit) => lineAt(units, unit),
  }
}

function decodeUtf16(units: Uint16Array, start: number, end: number): string {
  const CHUNK = 8192
  if (end - start <= CHUNK) return String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[])
  const parts: string[] = []
  for (let i = start; i < end; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, units.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]))
  }
  return parts.join('')
}

function lineAt(units: Uint8Array | Uint16Array, unit: number): number {
  let line = 1
  const end = Math.min(unit, units.length)
  for (let i = 0; i < end; i++) if (units[i] === 0x0a) line++
  return line
}

/** The whole text of a file, BOM stripped. */
export function decodeText(bytes: Uint8Array): string {
  const text = textUnits(bytes)
  return text.slice(0, text.length)
}

/** The start of a file as text, for sniffing: at most `maxBytes` bytes, a character cut at the end is harmless. */
export function decodeHead(bytes: Uint8Array, maxBytes = SNIFF_BYTES): string {
  return decodeText(bytes.subarray(0, maxBytes))
}

/** Unit index in a text of a character index in one of its decoded slices. */
export function unitIndexOf(text: TextUnits, sliceStart: number, slice: string, charIndex: number): number {
  if (text.encoding !== 'utf-8') return sliceStart + charIndex
  return sliceStart + utf8Encoder.encode(slice.slice(0, charIndex)).length
}

// ---------------------------------------------------------------------------------------------------------------
// JSON syntax errors, located. JSON.parse only says that a text is broken; the user needs to know where.

export interface JsonSyntaxError {
  /** Character index of the fault in the text. */
  index: number
  expected: string
  found: string
}

const OBJECT = 1
const ARRAY = 2
const S_VALUE = 0
const S_AFTER = 1
const S_KEY = 2
const S_KEY_OR_CLOSE = 3
const S_VALUE_OR_CLOSE = 4
const S_COLON = 5

/** The first syntax error of a JSON text, or null when it is valid. Iterative: deep nesting cannot overflow. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const end = text.length
  const stack: number[] = []
  let state = S_VALUE
  let i = 0
  let fault: JsonSyntaxError | null = null
  const fail = (index: number, expected: string): number => {
    fault = { index, expected, found: index >= end ? 'the end of the text' : describeChar(text, index) }
    return -1
  }
  const scanString = (at: number): number => {
    let j = at + 1
    for (;;) {
      if (j >= end) return fail(j, 'a closing \'"\' (the text looks truncated)')
      const c = text.charCodeAt(j)
      if (c === 0x22) return j + 1
      if (c === 0x5c) {
        const e = text.charCodeAt(j + 1)
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(j + k))) return fail(j + k, 'a hex digit of a \\u escape')
          j += 6
        } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          j += 2
        } else {
          return fail(j + 1, 'an escape character (one of " \\ / b f n r t u)')
        }
      } else if (c < 0x20) {
        return fail(j, 'a character of a string (control characters must be escaped)')
      } else {
        j++
      }
    }
  }
  const scanNumber = (at: number): number => {
    let j = at
    if (text.charCodeAt(j) === 0x2d) j++
    const first = text.charCodeAt(j)
    if (first === 0x30) j++
    else if (isDigit(first)) while (isDigit(text.charCodeAt(j))) j++
    else return fail(j, 'a digit')
    if (text.charCodeAt(j) === 0x2e) {
      j++
      if (!isDigit(text.charCodeAt(j))) return fail(j, 'a digit after the decimal point')
      while (isDigit(text.charCodeAt(j))) j++
    }
    const e = text.charCodeAt(j)
    if (e === 0x65 || e === 0x45) {
      j++
      const s = text.charCodeAt(j)
      if (s === 0x2b || s === 0x2d) j++
      if (!isDigit(text.charCodeAt(j))) return fail(j, 'a digit of the exponent')
      while (isDigit(text.charCodeAt(j))) j++
    }
    return j
  }
  const scanLiteral = (at: number, word: string): number => {
    for (let k = 0; k < word.length; k++) {
      if (text.charCodeAt(at + k) !== word.charCodeAt(k)) return fail(at + k, `the literal ${word}`)
    }
    return at + word.length
  }

  for (;;) {
    while (i < end && isJsonSpace(text.charCodeAt(i))) i++
    if (i >= end) {
      if (state === S_AFTER && stack.length === 0) return null
      fail(i, expectedIn(state, stack))
      return fault
    }
    const c = text.charCodeAt(i)
    if (state === S_VALUE_OR_CLOSE && c === 0x5d) {
      stack.pop()
      i++
      state = S_AFTER
      continue
    }
    if (state === S_KEY_OR_CLOSE && c === 0x7d) {
      stack.pop()
      i++
      state = S_AFTER
      continue
    }
    let next = i
    switch (state) {
      case S_VALUE:
      case S_VALUE_OR_CLOSE:
        if (c === 0x7b) {
          stack.push(OBJECT)
          next = i + 1
          state = S_KEY_OR_CLOSE
          break
        }
        if (c === 0x5b) {
          stack.push(ARRAY)
          next = i + 1
          state = S_VALUE_OR_CLOSE
          break
        }
        if (c === 0x22) next = scanString(i)
        else if (c === 0x2d || isDigit(c)) next = scanNumber(i)
        else if (c === 0x74) next = scanLiteral(i, 'true')
        else if (c === 0x66) next = scanLiteral(i, 'false')
        else if (c === 0x6e) next = scanLiteral(i, 'null')
        else next = fail(i, state === S_VALUE_OR_CLOSE ? "a value or ']'" : 'a value')
        state = S_AFTER
        break
      case S_KEY:
      case S_KEY_OR_CLOSE:
        next = c === 0x22 ? scanString(i) : fail(i, state === S_KEY_OR_CLOSE ? "a string key or '}'" : 'a string key')
        state = S_COLON
        break
      case S_COLON:
        next = c === 0x3a ? i + 1 : fail(i, "':' after a key")
        state = S_VALUE
        break
      case S_AFTER: {
        if (stack.length === 0) {
          next = fail(i, 'the end of the text after the top-level value')
          break
        }
        const top = stack[stack.length - 1]
        if (c === 0x2c) {
          next = i + 1
          state = top === OBJECT ? S_KEY : S_VALUE
        } else if ((top === OBJECT && c === 0x7d) || (top === ARRAY && c === 0x5d)) {
          stack.pop()
          next = i + 1
        } else {
          next = fail(i, top === OBJECT ? "',' or '}' after an object member" : "',' or ']' after an array element")
        }
        break
      }
    }
    if (next < 0) return fault
    i = next
  }
}

function expectedIn(state: number, stack: number[]): string {
  const closers = stack
    .slice()
    .reverse()
    .map((k) => (k === OBJECT ? '}' : ']'))
    .join('')
  const then = closers ? ` (still open: ${closers}; the text looks truncated)` : ''
  switch (state) {
    case S_VALUE:
    case S_VALUE_OR_CLOSE:
      return `a value${then}`
    case S_KEY:
    case S_KEY_OR_CLOSE:
      return `a string key${then}`
    case S_COLON:
      return `':'${then}`
    default:
      return `${closers[0] === '}' ? "',' or '}'" : "',' or ']'"}${then}`
  }
}

function describeChar(text: string, index: number): string {
  const c = text.charCodeAt(index)
  if (c < 0x20 || c === 0x7f) return `the control character 0x${c.toString(16).padStart(2, '0')}`
  return `'${text[index]}'`
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
}

export function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

/**
 * Parse a JSON slice of a text; a syntax error becomes an ImportError naming the line and the byte offset in the
 * file. `what` says what the slice was meant to be ("the dump", "an event").
 */
export function parseJsonSlice(file: string, text: TextUnits, start: number, end: number, what: string): unknown {
  const slice = text.slice(start, end)
  try {
    return JSON.parse(slice)
  } catch (cause) {
    const fault = findJsonSyntaxError(slice)
    if (!fault) throw new ImportError(file, `${what} is not valid JSON (${(cause as Error).message})`)
    const unit = unitIndexOf(text, start, slice, fault.index)
    throw new ImportError(file, `${what} is not valid JSON: expected ${fault.expected}, found ${fault.found}`, {
      offset: text.byteOffset(unit),
      line: text.lineAt(unit),
      expected: fault.expected,
    })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Stepping over JSON in code units, for formats too big to parse as one string.

export function skipSpace(units: Uint8Array | Uint16Array, i: number): number {
  const end = units.length
  while (i < end && isJsonSpace(units[i])) i++
  return i
}

/**
 * Index just past the JSON value that starts at `i`, or -1 when the text ends first. Only strings and nesting are
 * followed; the slice is validated when it is parsed.
 */
export function skipJsonValue(units: Uint8Array | Uint16Array, i: number): number {
  const end = units.length
  const c = units[i]
  if (c === 0x22) return skipJsonString(units, i)
  if (c !== 0x7b && c !== 0x5b) {
    let j = i
    while (j < end) {
      const d = units[j]
      if (d === 0x2c || d === 0x7d || d === 0x5d || isJsonSpace(d)) break
      j++
    }
    return j
  }
  let depth = 0
  for (let j = i; j < end; j++) {
    const d = units[j]
    if (d === 0x22) {
      j = skipJsonString(units, j)
      if (j < 0) return -1
      j--
    } else if (d === 0x7b || d === 0x5b) {
      depth++
    } else if (d === 0x7d || d === 0x5d) {
      if (--depth === 0) return j + 1
    }
  }
  return -1
}

/** Index just past the string whose opening quote is at `i`, or -1 when the text ends first. */
export function skipJsonString(units: Uint8Array | Uint16Array, i: number): number {
  const end = units.length
  for (let j = i + 1; j < end; j++) {
    const d = units[j]
    if (d === 0x5c) j++
    else if (d === 0x22) return j + 1
  }
  return -1
}

// ---------------------------------------------------------------------------------------------------------------

/** Notes of one import, by kind: the first few of each kind are kept in full, the rest only counted. */
export class ImportNotes {
  private readonly kinds = new Map<string, { kept: string[]; count: number }>()

  constructor(private readonly keepPerKind = 5) {}

  add(kind: string, message: string): void {
    let entry = this.kinds.get(kind)
    if (!entry) {
      entry = { kept: [], count: 0 }
      this.kinds.set(kind, entry)
    }
    entry.count++
    if (entry.kept.length < this.keepPerKind) entry.kept.push(message)
  }

  count(kind: string): number {
    return this.kinds.get(kind)?.count ?? 0
  }

  list(): string[] {
    const out: string[] = []
    for (const [kind, { kept, count }] of this.kinds) {
      out.push(...kept)
      if (count > kept.length) out.push(`… and ${count - kept.length} more of the kind "${kind}"`)
    }
    return out
  }
}

/**
 * The value of a top-level string member `key` of the JSON object that starts at `start` and ends before `end`, read
 * straight from the units: undefined when the member is absent, not a string, escaped or not ASCII. Lets a scanner
 * pass over an object it has no use for without parsing it.
 */
export function peekObjectString(units: Uint8Array | Uint16Array, start: number, end: number, key: string): string | undefined {
  let depth = 0
  let keyNext = false
  for (let j = start; j < end; j++) {
    const c = units[j]
    if (c === 0x7b || c === 0x5b) {
      depth++
      keyNext = depth === 1
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    } else if (c === 0x2c) {
      keyNext = depth === 1
    } else if (c === 0x22) {
      const close = skipJsonString(units, j)
      if (close < 0 || close > end) return undefined
      if (keyNext && depth === 1 && close - j - 2 === key.length && unitsEqual(units, j + 1, key)) {
        let k = skipSpace(units, close)
        if (units[k] !== 0x3a) return undefined
        k = skipSpace(units, k + 1)
        if (units[k] !== 0x22) return undefined
        const valueEnd = skipJsonString(units, k)
        if (valueEnd < 0 || valueEnd > end) return undefined
        let value = ''
        for (let v = k + 1; v < valueEnd - 1; v++) {
          const u = units[v]
          if (u === 0x5c || u >= 0x80) return undefined
          value += String.fromCharCode(u)
        }
        return value
      }
      keyNext = false
      j = close - 1
    }
  }
  return undefined
}

function unitsEqual(units: Uint8Array | Uint16Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (units[at + i] !== text.charCodeAt(i)) return false
  return true
}
