/**
 * The NDJSON scanner: capture bytes in, builder calls out. It reads JSON straight from the byte chunks
 * (no line strings, no objects per record): known keys go into a RecordScratch, strings are interned from
 * their bytes, unknown keys are validated and kept raw. Any line that is not JSON stops the load with its
 * line number and byte offset; a broken last line without a newline is a warning (a capture cut short).
 */
import { CaptureError } from './errors'
import { FIELD_NAMES, RecordScratch, V } from './fields'
import type { CaptureBuilder } from './store'
import { HASH_PRIME, HASH_SEED } from './strings'
import { checkHeader } from './versions'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const LBRACE = 0x7b
const RBRACE = 0x7d
const LBRACKET = 0x5b
const RBRACKET = 0x5d
const MINUS = 0x2d
const DOT = 0x2e
const NEWLINE = 0x0a
const CR = 0x0d
const MAX_DEPTH = 256

const decoder = new TextDecoder('utf-8')
// Number('1e22') is exact; Math.pow need not be.
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`))

/** Known keys grouped by byte length, for a compare-only lookup. */
const KEYS_BY_LENGTH: { bytes: Uint8Array; field: number }[][] = []
FIELD_NAMES.forEach((name, field) => {
  const bytes = new TextEncoder().encode(name)
  ;(KEYS_BY_LENGTH[bytes.length] ??= []).push({ bytes, field })
})

/** Fields whose strings are free text, interned by hash; the others hold one of the format's words. */
const HASHED_FIELD = new Uint8Array(FIELD_NAMES.length)
for (const name of ['name', 'tag', 'format'] as const) HASHED_FIELD[FIELD_NAMES.indexOf(name)] = 1

function keyField(buf: Uint8Array, start: number, end: number): number {
  const candidates = KEYS_BY_LENGTH[end - start]
  if (candidates === undefined) return -1
  outer: for (let c = 0; c < candidates.length; c++) {
    const bytes = candidates[c].bytes
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buf[start + i]) continue outer
    return candidates[c].field
  }
  return -1
}

/** Thrown inside a line; turned into a CaptureError with the line's position. */
class SyntaxFault {
  constructor(
    readonly at: number,
    readonly expected: string,
    readonly detail?: string,
  ) {}
}

export interface ScannerOptions {
  /** File name for messages. */
  file: string
  /** Accept records without a header line (`route` reads bare records). */
  headerOptional?: boolean
}

export class NdjsonScanner {
  readonly builder: CaptureBuilder
  private readonly file: string
  private readonly headerOptional: boolean
  private readonly r = new RecordScratch()
  /** Bytes seen so far: the absolute offset of the next chunk. */
  bytes = 0
  lines = 0
  private sawHeader = false
  private carry = new Uint8Array(0)
  private carryLength = 0
  /** Parse state for the line in hand. */
  private buf: Uint8Array = new Uint8Array(0)
  private end = 0
  private lineOffset = 0

  constructor(builder: CaptureBuilder, options: ScannerOptions) {
    this.builder = builder
    this.file = options.file
    this.headerOptional = options.headerOptional ?? false
    const strings = builder.strings
    for (let id = 1; id < strings.size; id++) {
      const bytes = new TextEncoder().encode(strings.get(id))
      ;(this.knownByLength[bytes.length] ??= []).push({ bytes, id })
    }
  }

  /** The strings interned before the first record, by byte length. */
  private readonly knownByLength: { bytes: Uint8Array; id: number }[][] = []

  push(input: Uint8Array): void {
    // One array class on the hot path: Node Buffers are read through a plain Uint8Array view.
    const chunk = input.constructor === Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.length)
    let start = 0
    const chunkOffset = this.bytes
    this.bytes += chunk.length
    if (this.carryLength > 0) {
      const nl = chunk.indexOf(NEWLINE)
      if (nl < 0) {
        this.appendCarry(chunk, 0, chunk.length)
        return
      }
      this.appendCarry(chunk, 0, nl)
      const length = this.carryLength
      this.carryLength = 0
      this.line(this.carry, 0, length, chunkOffset + nl - length)
      start = nl + 1
    }
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start)
      if (nl < 0) break
      this.line(chunk, start, nl, chunkOffset + start)
      start = nl + 1
    }
    if (start < chunk.length) this.appendCarry(chunk, start, chunk.length)
  }

  private appendCarry(chunk: Uint8Array, start: number, end: number): void {
    const need = this.carryLength + (end - start)
    if (need > this.carry.length) {
      const next = new Uint8Array(Math.max(need, this.carry.length * 2, 4096))
      next.set(this.carry.subarray(0, this.carryLength))
      this.carry = next
    }
    this.carry.set(chunk.subarray(start, end), this.carryLength)
    this.carryLength = need
  }

  /** The input is complete: read a last line that has no newline. */
  finish(): void {
    if (this.carryLength === 0) return
    const length = this.carryLength
    this.carryLength = 0
    const offset = this.bytes - length
    try {
      this.line(this.carry, 0, length, offset)
    } catch (err) {
      if (!(err instanceof CaptureError) || !this.sawHeader) throw err
      this.builder.line = this.lines
      this.builder.offset = offset
      this.builder.warn('truncatedLastLine', `the last line (${length} bytes, no newline) is cut short: ${err.message}`)
    }
  }

  private line(buf: Uint8Array, start: number, end: number, offset: number): void {
    this.lines++
    if (end > start && buf[end - 1] === CR) end--
    this.buf = buf
    this.end = end
    this.lineOffset = offset
    try {
      if (!this.sawHeader) this.header(start)
      else this.record(start)
    } catch (err) {
      if (err instanceof SyntaxFault) {
        throw new CaptureError(this.file, this.lines, offset + (err.at - start), err.expected, err.detail)
      }
      throw err
    }
  }

  private header(start: number): void {
    let p = this.ws(start)
    if (this.lines === 1 && p + 2 < this.end && this.buf[p] === 0xef && this.buf[p + 1] === 0xbb && this.buf[p + 2] === 0xbf) {
      p = this.ws(p + 3)
    }
    if (p === this.end) return // blank lines before the header
    const valueEnd = this.skipValue(p, 0)
    if (this.ws(valueEnd) !== this.end) throw new SyntaxFault(this.ws(valueEnd), 'the end of the line after the header')
    const value: unknown = JSON.parse(decoder.decode(this.buf.subarray(p, valueEnd)))
    const isRecord = typeof value === 'object' && value !== null && 'e' in value && !('format' in value)
    if (isRecord && this.headerOptional) {
      this.sawHeader = true
      this.record(start)
      return
    }
    const check = checkHeader(value)
    if (!check.ok) throw new SyntaxFault(p, check.expected, `the first line is not a valid header: ${check.detail}`)
    this.builder.header = check.header
    this.sawHeader = true
  }

  private record(start: number): void {
    const buf = this.buf
    const end = this.end
    const r = this.r
    r.reset()
    let p = start
    let c = 0
    while (p < end && ((c = buf[p]) === 0x20 || c === 0x09)) p++
    if (p === end) return // blank line
    if (c !== LBRACE) {
      const valueEnd = this.skipValue(p, 0)
      if (this.ws(valueEnd) !== end) throw new SyntaxFault(this.ws(valueEnd), 'the end of the line')
      this.builder.line = this.lines
      this.builder.offset = this.lineOffset
      this.builder.warn('unknownRecord', 'a line that is JSON but not an object')
      return
    }
    p++
    while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
    if (p < end && c === RBRACE) {
      p++
    } else {
      // The hot loop: keys and the common values (plain strings, integers) are read inline.
      for (;;) {
        if (p >= end || buf[p] !== QUOTE) throw new SyntaxFault(p, 'a quoted key')
        const keyStart = p + 1
        let q = keyStart
        for (;;) {
          if (q >= end) throw new SyntaxFault(q, 'the closing quote of a key')
          c = buf[q]
          if (c === QUOTE || c === BACKSLASH || c < 0x20) break
          q++
        }
        let field: number
        if (c === QUOTE) {
          field = keyField(buf, keyStart, q)
          p = q + 1
        } else {
          p = this.stringEnd(keyStart - 1)
          field = this.escapedKeyField(keyStart - 1, p)
        }
        while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
        if (p >= end || c !== COLON) throw new SyntaxFault(p, '":" after the key')
        p++
        while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
        if (p >= end) throw new SyntaxFault(p, 'a value')
        if (field < 0) {
          const valueEnd = this.skipValue(p, 1)
          const member = decoder.decode(buf.subarray(keyStart - 1, valueEnd))
          r.extras = r.extras === undefined ? member : `${r.extras},${member}`
          p = valueEnd
        } else if (c === QUOTE) {
          // a string: names, tags and formats are interned by hash; other fields hold one of the format's words
          q = p + 1
          if (HASHED_FIELD[field] === 1) {
            let h = HASH_SEED
            for (;;) {
              if (q >= end) throw new SyntaxFault(q, 'the closing quote of a string')
              c = buf[q]
              if (c === QUOTE || c === BACKSLASH || c < 0x20) break
              h = Math.imul(h ^ c, HASH_PRIME)
              q++
            }
            if (c === QUOTE) {
              r.set(field, V.String)
              r.str[field] = this.builder.strings.internHashed(buf, p + 1, q, h >>> 0)
              p = q + 1
            } else p = this.value(field, p)
          } else {
            for (;;) {
              if (q >= end) throw new SyntaxFault(q, 'the closing quote of a string')
              c = buf[q]
              if (c === QUOTE || c === BACKSLASH || c < 0x20) break
              q++
            }
            if (c === QUOTE) {
              r.set(field, V.String)
              r.str[field] = this.known(p + 1, q)
              p = q + 1
            } else p = this.value(field, p)
          }
        } else if (c >= 0x30 && c <= 0x39) {
          // a non-negative integer of up to 15 digits; anything else goes through number()
          let v = c - 0x30
          q = p + 1
          if (c !== 0x30) {
            while (q < end && (c = buf[q]) >= 0x30 && c <= 0x39) {
              v = v * 10 + (c - 0x30)
              q++
            }
          }
          c = q < end ? buf[q] : 0
          if (q - p > 15 || c === DOT || c === 0x65 || c === 0x45 || (c >= 0x30 && c <= 0x39)) {
            p = this.value(field, p)
          } else {
            r.set(field, V.Number)
            r.num[field] = v
            p = q
          }
        } else {
          p = this.value(field, p)
        }
        while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
        if (p < end && c === COMMA) {
          p++
          while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
          continue
        }
        if (p < end && c === RBRACE) {
          p++
          break
        }
        throw new SyntaxFault(p, '"," or "}" after a value')
      }
    }
    while (p < end && ((c = buf[p]) === 0x20 || c === 0x09 || c === CR)) p++
    if (p !== end) throw new SyntaxFault(p, 'the end of the line after the record')
    this.builder.line = this.lines
    this.builder.offset = this.lineOffset
    this.builder.add(r)
  }

  /** Id of a string the builder interned before the first record (the format's words), else intern it. */
  private known(start: number, end: number): number {
    const candidates = this.knownByLength[end - start]
    if (candidates !== undefined) {
      const buf = this.buf
      outer: for (let c = 0; c < candidates.length; c++) {
        const bytes = candidates[c].bytes
        for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buf[start + i]) continue outer
        return candidates[c].id
      }
    }
    return this.builder.strings.internBytes(this.buf, start, end)
  }

  private escapedKeyField(quoteStart: number, afterQuote: number): number {
    const key = this.decodeString(quoteStart, afterQuote)
    return (FIELD_NAMES as readonly string[]).indexOf(key)
  }

  /** Read a known field's value into the scratch; returns the position after it. */
  private value(field: number, p: number): number {
    const buf = this.buf
    const r = this.r
    const c = buf[p]
    if (c === QUOTE) {
      const q = this.stringEnd(p)
      r.set(field, V.String)
      r.str[field] = this.strEscaped || HASHED_FIELD[field] === 1 ? this.internString(p, q) : this.known(p + 1, q - 1)
      return q
    }
    if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      const q = this.number(p)
      r.set(field, V.Number)
      r.num[field] = this.numberValue
      return q
    }
    if (c === LBRACKET) return this.array(field, p)
    if (c === 0x74 || c === 0x66) {
      const q = this.skipValue(p, 1)
      r.set(field, V.Bool)
      r.str[field] = c === 0x74 ? 1 : 0
      return q
    }
    const q = this.skipValue(p, 1)
    r.set(field, V.Other)
    return q
  }

  private array(field: number, open: number): number {
    const buf = this.buf
    const r = this.r
    let p = this.ws(open + 1)
    if (buf[p] === RBRACKET) {
      r.set(field, V.Numbers)
      r.ids.length = 0
      return p + 1
    }
    if (buf[p] === QUOTE) {
      r.set(field, V.Strings)
      r.listStart[field] = r.strListLength
      for (;;) {
        if (buf[p] !== QUOTE) return this.mixedArray(field, open)
        const q = this.stringEnd(p)
        r.pushString(this.strEscaped ? this.internString(p, q) : this.known(p + 1, q - 1))
        p = this.ws(q)
        if (buf[p] === COMMA) {
          p = this.ws(p + 1)
          continue
        }
        if (buf[p] === RBRACKET) break
        throw new SyntaxFault(p, '"," or "]" in an array')
      }
      r.listEnd[field] = r.strListLength
      return p + 1
    }
    r.set(field, V.Numbers)
    r.ids.length = 0
    for (;;) {
      const c = buf[p]
      if (!(c === MINUS || (c >= 0x30 && c <= 0x39))) return this.mixedArray(field, open)
      p = this.ws(this.number(p))
      r.ids.push(this.numberValue)
      if (buf[p] === COMMA) {
        p = this.ws(p + 1)
        continue
      }
      if (buf[p] === RBRACKET) break
      throw new SyntaxFault(p, '"," or "]" in an array')
    }
    return p + 1
  }

  /** An array of mixed or nested values: validate it, keep it as present but unusable. */
  private mixedArray(field: number, open: number): number {
    const end = this.skipValue(open, 1)
    this.r.set(field, V.Other)
    return end
  }

  private numberValue = 0

  /**
   * Parse a JSON number at p into numberValue; returns the position after it. Up to 15 significant digits
   * with a decimal exponent within ±22 are exact as mantissa × or ÷ a power of ten (both exactly
   * representable, one correctly rounded operation); anything longer goes through Number().
   */
  private number(p: number): number {
    const buf = this.buf
    const end = this.end
    const start = p
    let neg = false
    if (buf[p] === MINUS) {
      neg = true
      p++
    }
    let c = buf[p]
    if (p >= end || c < 0x30 || c > 0x39) throw new SyntaxFault(p, 'a digit')
    let mantissa = 0
    let digits = 0
    if (c === 0x30) {
      p++
    } else {
      while (p < end) {
        c = buf[p]
        if (c < 0x30 || c > 0x39) break
        mantissa = mantissa * 10 + (c - 0x30)
        digits++
        p++
      }
    }
    let scale = 0
    c = p < end ? buf[p] : 0
    if (c === DOT) {
      p++
      const fracStart = p
      while (p < end) {
        c = buf[p]
        if (c < 0x30 || c > 0x39) break
        mantissa = mantissa * 10 + (c - 0x30)
        p++
      }
      if (p === fracStart) throw new SyntaxFault(p, 'a digit after the decimal point')
      scale = p - fracStart
      digits += scale
      c = p < end ? buf[p] : 0
    }
    let exponent = 0
    if (c === 0x65 || c === 0x45) {
      p++
      let expNeg = false
      if (buf[p] === 0x2b || buf[p] === MINUS) expNeg = buf[p++] === MINUS
      const expStart = p
      while (p < end && buf[p] >= 0x30 && buf[p] <= 0x39) {
        exponent = exponent * 10 + (buf[p] - 0x30)
        p++
      }
      if (p === expStart) throw new SyntaxFault(p, 'a digit in the exponent')
      if (expNeg) exponent = -exponent
    }
    const power = exponent - scale
    if (digits <= 15 && power >= -22 && power <= 22) {
      const v = power === 0 ? mantissa : power > 0 ? mantissa * POW10[power] : mantissa / POW10[-power]
      this.numberValue = neg ? -v : v
    } else {
      let text = ''
      for (let i = start; i < p; i++) text += String.fromCharCode(buf[i])
      this.numberValue = Number(text)
    }
    return p
  }

  /** hashBytes() of the last string stringEnd() scanned, and whether it held escapes. */
  private strHash = 0
  private strEscaped = false

  /** Position after the closing quote of the string opening at p (validated); sets strHash and strEscaped. */
  private stringEnd(p: number): number {
    const buf = this.buf
    const end = this.end
    let q = p + 1
    let h = HASH_SEED
    for (;;) {
      if (q >= end) throw new SyntaxFault(q, 'the closing quote of a string')
      const c = buf[q]
      if (c === QUOTE) {
        this.strHash = h >>> 0
        this.strEscaped = false
        return q + 1
      }
      if (c === BACKSLASH) return this.escapedStringEnd(q)
      if (c < 0x20) throw new SyntaxFault(q, 'no control characters inside a string')
      h = Math.imul(h ^ c, HASH_PRIME)
      q++
    }
  }

  private escapedStringEnd(q: number): number {
    const buf = this.buf
    const end = this.end
    for (;;) {
      if (q >= end) throw new SyntaxFault(q, 'the closing quote of a string')
      const c = buf[q]
      if (c === QUOTE) {
        this.strEscaped = true
        return q + 1
      }
      if (c === BACKSLASH) {
        const e = buf[q + 1]
        if (e === 0x75) {
          for (let i = 2; i < 6; i++) {
            const h = buf[q + i]
            const hex = (h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66)
            if (q + i >= end || !hex) throw new SyntaxFault(q + i, 'four hex digits after \\u')
          }
          q += 6
          continue
        }
        if (
          e !== QUOTE &&
          e !== BACKSLASH &&
          e !== 0x2f &&
          e !== 0x62 &&
          e !== 0x66 &&
          e !== 0x6e &&
          e !== 0x72 &&
          e !== 0x74
        ) {
          throw new SyntaxFault(q + 1, 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX')
        }
        q += 2
        continue
      }
      if (c < 0x20) throw new SyntaxFault(q, 'no control characters inside a string')
      q++
    }
  }

  /** Intern the string stringEnd() just scanned, between p (its opening quote) and q (after its closing quote). */
  private internString(p: number, q: number): number {
    if (this.strEscaped) return this.builder.strings.intern(this.decodeString(p, q))
    return this.builder.strings.internHashed(this.buf, p + 1, q - 1, this.strHash)
  }

  private decodeString(p: number, q: number): string {
    return JSON.parse(decoder.decode(this.buf.subarray(p, q))) as string
  }

  private ws(p: number): number {
    const buf = this.buf
    const end = this.end
    while (p < end) {
      const c = buf[p]
      if (c !== 0x20 && c !== 0x09 && c !== CR) break
      p++
    }
    return p
  }

  /** Validate any JSON value at p; returns the position after it. */
  private skipValue(p: number, depth: number): number {
    const buf = this.buf
    const end = this.end
    if (p >= end) throw new SyntaxFault(p, 'a value')
    if (depth > MAX_DEPTH) throw new SyntaxFault(p, `at most ${MAX_DEPTH} levels of nesting`)
    const c = buf[p]
    if (c === QUOTE) return this.stringEnd(p)
    if (c === MINUS || (c >= 0x30 && c <= 0x39)) return this.number(p)
    if (c === LBRACE) {
      p = this.ws(p + 1)
      if (buf[p] === RBRACE) return p + 1
      for (;;) {
        if (buf[p] !== QUOTE) throw new SyntaxFault(p, 'a quoted key')
        p = this.ws(this.stringEnd(p))
        if (buf[p] !== COLON) throw new SyntaxFault(p, '":" after the key')
        p = this.ws(this.skipValue(this.ws(p + 1), depth + 1))
        if (buf[p] === COMMA) {
          p = this.ws(p + 1)
          continue
        }
        if (buf[p] === RBRACE) return p + 1
        throw new SyntaxFault(p, '"," or "}" in an object')
      }
    }
    if (c === LBRACKET) {
      p = this.ws(p + 1)
      if (buf[p] === RBRACKET) return p + 1
      for (;;) {
        p = this.ws(this.skipValue(p, depth + 1))
        if (buf[p] === COMMA) {
          p = this.ws(p + 1)
          continue
        }
        if (buf[p] === RBRACKET) return p + 1
        throw new SyntaxFault(p, '"," or "]" in an array')
      }
    }
    if (this.literal(p, 'true')) return p + 4
    if (this.literal(p, 'false')) return p + 5
    if (this.literal(p, 'null')) return p + 4
    throw new SyntaxFault(p, 'a JSON value (string, number, object, array, true, false or null)')
  }

  private literal(p: number, word: string): boolean {
    if (p + word.length > this.end) return false
    for (let i = 0; i < word.length; i++) if (this.buf[p + i] !== word.charCodeAt(i)) return false
    return true
  }
}
