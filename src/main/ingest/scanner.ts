/**
 * The NDJSON scanner: capture bytes in, builder calls out. It reads JSON straight from the byte chunks in one
 * pass (no line strings, no objects per record, no search for each line's end ahead of the parse): known keys
 * go into a RecordScratch, the format's words are matched by table, other strings are interned from their
 * bytes, unknown keys are validated and kept raw. Any line that is not JSON stops the load with its line number
 * and byte offset; a broken last line without a newline is a warning (a capture cut short).
 *
 * Chunks are copied behind what is left of the line before, into a buffer of our own with some bytes of room
 * after the data. Each run of bytes handed to the parse ends with a line feed, and every loop of the parse stops
 * at a line feed (a control character, never part of a JSON token), so no loop needs a bound check and a fault
 * found at a line feed is the line ending too early. Keys, words and repeated names are compared four bytes at
 * a time through a DataView; a compare may look a few bytes past the line's end, never past the room.
 */
import { CaptureError } from './errors'
import { ExtrasText } from './extras'
import { F, FIELD, FIELD_COUNT, RecordScratch, FieldValue, TYPE_WORDS } from './fields'
import type { CaptureBuilder } from './storeBuilder'
import { RepeatScore, SAMPLE_BITS } from './repeatScore'
import { asDoubles, Slab } from './slab'
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
const SPACE = 0x20
const TAB = 0x09
const MAX_DEPTH = 256
/** Bytes of room after the data: more than any four-byte compare reads past a line feed. */
const ROOM = 64
/** Words compared four bytes at a time are shorter than this, so their compares stay within the room. */
const MAX_WORD = ROOM - 8

const decoder = new TextDecoder('utf-8')
const encoder = new TextEncoder()
// Number('1e22') is exact; Math.pow need not be.
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`))

/** The low `n` bytes (0…4) of a little-endian 32-bit word. */
const lowBytes = (n: number) => (n >= 4 ? -1 : (1 << (8 * n)) - 1)

/**
 * Whether the `bytes` bytes at `start` repeat those packed from word `at` (even) of `text` (`wide`: the same words
 * as doubles), the last word masked to the bytes it holds: a kept tail's or array's. Eight bytes at a time as
 * doubles: equal doubles are equal bits but for 0 and -0, and kept bytes hold no zero byte (none is valid in a
 * line), so neither; a NaN never equals, a miss. Then four, then the rest. Kept bytes hold no line feed, so a
 * compare stops at the line's end at the latest.
 */
function repeatsPacked(view: DataView, start: number, text: Int32Array, wide: Float64Array, at: number, bytes: number): boolean {
  const eights = bytes >> 3
  let g = 0
  while (g < eights && view.getFloat64(start + 8 * g, true) === wide[(at >> 1) + g]) g++
  if (g < eights) return false
  let k = 2 * g
  if ((bytes & 4) !== 0) {
    if (view.getInt32(start + 4 * k, true) !== text[at + k]) return false
    k++
  }
  const rest = bytes & 3
  return rest === 0 || ((view.getInt32(start + 4 * k, true) ^ text[at + k]) & lowBytes(rest)) === 0
}

/**
 * Keep the `bytes` bytes at `start` from word `at` of `text`, four to a word as DataView.getInt32(…, true) reads
 * them, the last word masked to the bytes it holds: as repeatsPacked compares them.
 */
function packBytes(view: DataView, start: number, bytes: number, text: Int32Array, at: number): void {
  const groups = bytes >> 2
  const rest = bytes & 3
  for (let g = 0; g < groups; g++) text[at + g] = view.getInt32(start + 4 * g, true)
  if (rest !== 0) text[at + groups] = view.getInt32(start + 4 * groups, true) & lowBytes(rest)
}

/** Bytes packed little-endian into 32-bit words, as DataView.getInt32(at, true) reads them. */
function packed(bytes: Uint8Array): Int32Array {
  const words = new Int32Array(Math.ceil(bytes.length / 4))
  bytes.forEach((b, i) => (words[i >> 2] |= b << (8 * (i & 3))))
  return words
}

/**
 * Known keys by a hash of their first three bytes (a key of one or two bytes continues with its closing quote
 * and colon), then checked with the key's closing quote as one or two four-byte compares.
 */
const KEY_SLOT = new Int8Array(1 << 12).fill(-1)
const keySlot = (first3: number) => Math.imul(first3, 0x9e3779b1) >>> 20
/** The key and its closing quote: first four bytes, the next four, and their masks. */
const KEY_W0 = new Int32Array(FIELD.length)
const KEY_M0 = new Int32Array(FIELD.length)
const KEY_W1 = new Int32Array(FIELD.length)
const KEY_M1 = new Int32Array(FIELD.length)
const KEY_LENGTH = new Uint8Array(FIELD.length)
FIELD.forEach((name, field) => {
  const quoted = encoder.encode(`${name}"`)
  if (quoted.length > 8) throw new Error(`field "${name}" is longer than the key compare allows`)
  const lead = encoder.encode(`${name}":`)
  const slot = keySlot(lead[0] | (lead[1] << 8) | (lead[2] << 16))
  if (KEY_SLOT[slot] >= 0) throw new Error(`fields "${name}" and "${FIELD[KEY_SLOT[slot]]}" share a key slot`)
  KEY_SLOT[slot] = field
  const words = packed(quoted)
  KEY_W0[field] = words[0]
  KEY_M0[field] = lowBytes(quoted.length)
  KEY_W1[field] = words[1] ?? 0
  KEY_M1[field] = lowBytes(Math.max(0, quoted.length - 4))
  KEY_LENGTH[field] = name.length
})

/** How a field's value is read. */
const WORD = 1
const TEXT = 2
const NUMBERS = 3
const VALUE_KIND = new Uint8Array(FIELD.length)
for (const name of ['e', 'state', 'heap', 'dim', 'via', 'kind', 'type', 'op', 'usage', 'flags'] as const) {
  VALUE_KIND[F[name]] = WORD
}
/** The free-text fields. */
const TEXT_FIELDS = [F.name, F.tag, F.format]
for (const field of TEXT_FIELDS) VALUE_KIND[field] = TEXT
VALUE_KIND[F.ids] = NUMBERS

/** Where each free-text field's part of NdjsonScanner.textByHead starts. */
const HEAD_BITS = 12
const TEXT_SLOT = new Int32Array(FIELD.length)
TEXT_FIELDS.forEach((field, i) => (TEXT_SLOT[field] = i << HEAD_BITS))
/**
 * A string's slot among its field's 2^HEAD_BITS, by its first sixteen bytes (or fewer and what follows them):
 * names that differ only in a number after a common start (`T_Debris_180`, `T_Debris_634`) take different slots.
 */
function headSlot(view: DataView, at: number): number {
  const h = Math.imul(view.getInt32(at, true) ^ Math.imul(view.getInt32(at + 4, true), 0x85ebca6b), 0x9e3779b1)
  const g = Math.imul(view.getInt32(at + 8, true) ^ Math.imul(view.getInt32(at + 12, true), 0xc2b2ae35), 0x27d4eb2f)
  return Math.imul(h ^ g, 0x9e3779b1) >>> (32 - HEAD_BITS)
}

/** The fields whose arrays of words are kept (NdjsonScanner.listText), and each one's slot among them (else -1). */
const LIST_FIELDS = [F.usage, F.flags]
const LIST_FIELD = new Int32Array(FIELD.length).fill(-1)
LIST_FIELDS.forEach((field, i) => (LIST_FIELD[field] = i))
const LIST_WAYS = 8
/** A kept array's bytes, in four-byte words, and its words at most. */
const LIST_WORDS = 32
const LIST_IDS = 16

/**
 * Tails kept (NdjsonScanner.tailText), each at most TAIL_WORDS four-byte words long, with at most TAIL_FIELDS
 * members and TAIL_IDS words in its arrays: transients' in [1, TRANSIENT_TAILS), buffers' in
 * [TRANSIENT_TAILS, TAIL_COUNT), each a ring of its own, so that a run of buffers never seen again does not push
 * out the transients of the graph before.
 */
const TRANSIENT_TAILS = 2048
const TAIL_COUNT = TRANSIENT_TAILS + 512
const TAIL_WORDS = 64
const TAIL_FIELDS = 16
const TAIL_IDS = 16
const TAIL_HASH_BITS = 12
/** Buffer tails kept per headSlot() of their first sixteen bytes, the latest first. */
const BUFFER_WAYS = 8
/** What a kept tail follows: a transient's id, or a buffer's size (the seed of its hash, tailHash). */
const TRANSIENT_TAIL = 1
const BUFFER_TAIL = 2

/**
 * `use` arrays kept for their repeats (useRepeat): at most USE_KEPT of them, USE_TEXT_WORDS words of text in all
 * (each from an even word, for eight-byte compares); when either is full, all are dropped and kept anew.
 */
const USE_KEPT = 1 << 13
const USE_TEXT_WORDS = 1 << 20
const USE_HASH_BITS = 13
/** The seed of a use array's hash (tailHash), apart from the tails'. */
const USE_ARRAY = 3
/** The bytes of a scanner's fixed tables (NdjsonScanner.tables), as the constants above size them (slab.test.ts). */
export const SCANNER_TABLE_BYTES = 2_018_136
/** Thrown inside a line; turned into a CaptureError with the line's number and the absolute offset. */
class SyntaxFault {
  constructor(
    readonly at: number,
    readonly expected: string,
    readonly detail?: string,
  ) {}
}

/** The fault of a string that stopped at the control byte at q before its closing quote. */
function stringFault(buf: Uint8Array, q: number): SyntaxFault {
  const c = buf[q]
  if (c === NEWLINE || (c === CR && buf[q + 1] === NEWLINE)) return new SyntaxFault(q, 'the closing quote of a string')
  return new SyntaxFault(q, 'no control characters inside a string')
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
  /** The record's members the format does not define, interned by their bytes. */
  private readonly extras = new ExtrasText()
  /** The absolute offset of the line being parsed: the bytes parsed before it. */
  get position(): number {
    return this.base + this.lineStart
  }

  /** Bytes seen so far: the absolute offset of the next chunk. */
  bytes = 0
  lines = 0
  private sawHeader = false
  /** The bytes not parsed yet (a line begun, then the chunk), with room after them. */
  private buf = new Uint8Array(1 << 16)
  private view = new DataView(this.buf.buffer)
  private length = 0
  /** The absolute offset of buf[0]. */
  private base = 0
  /** The end of the run being parsed (after its last line feed), and where the current line starts. */
  private end = 0
  private lineStart = 0

  /** The fixed-size tables below, cut from one buffer of SCANNER_TABLE_BYTES (slab.ts says why). */
  private readonly tables = new Slab(SCANNER_TABLE_BYTES)
  /**
   * The strings the builder interned before the first record (the format's words), chained by their first two
   * bytes, each with its text and closing quote packed for four-byte compares.
   */
  private readonly wordHead = this.tables.int32(1 << 10)
  private readonly wordNext: Int32Array
  private readonly wordLength: Int32Array
  private readonly wordAt: Int32Array
  private readonly wordText: Int32Array
  /** The last string id of each free-text field, and the name that came after each name last time. */
  private readonly lastText = this.tables.int32(FIELD.length)
  /** Small at first, so it first grows while the engine still interprets `record` (StringTable's arena). */
  private nameAfter = new Int32Array(1 << 6)
  /** Per free-text field, the string last read from plain bytes that began with the same sixteen bytes (headSlot). */
  private readonly textByHead = this.tables.int32(TEXT_FIELDS.length << HEAD_BITS)
  /**
   * The last LIST_WAYS arrays of words each of `usage` and `flags` held (a capture repeats a handful), each from
   * `[` to `]` packed for four-byte compares, with its length in bytes (0: none yet) and its string ids.
   */
  private readonly listText = this.tables.int32(LIST_FIELDS.length * LIST_WAYS * LIST_WORDS)
  /** The same bytes as doubles, two words each (LIST_WORDS is even). */
  private readonly listWide = asDoubles(this.listText)
  private readonly listBytes = this.tables.int32(LIST_FIELDS.length * LIST_WAYS)
  /** Each kept array's last four bytes, its `]` last (with what came before `[` when it is shorter). */
  private readonly listLast = this.tables.int32(LIST_FIELDS.length * LIST_WAYS)
  private readonly listCount = this.tables.int32(LIST_FIELDS.length * LIST_WAYS)
  private readonly listIds = this.tables.int32(LIST_FIELDS.length * LIST_WAYS * LIST_IDS)
  /** The list each field replaces next. */
  private readonly listNext = this.tables.int32(LIST_FIELDS.length)
  /**
   * Tails: a render graph describes the same transient resources in the same order every frame, so the members
   * after a transient's id often repeat, byte for byte, those of the transient that came after the previous one
   * last time; and a capture creates many buffers that differ only in their id and size. Kept in two rings (0 is
   * none): the bytes from after the id's or the size's comma to the closing brace, packed for four-byte compares,
   * and the members they set; `tailAfter` is the transient tail that came next last time.
   */
  private readonly tailText = this.tables.int32(TAIL_COUNT * TAIL_WORDS)
  /** The same bytes as doubles, two words each (TAIL_WORDS is even). */
  private readonly tailWide = asDoubles(this.tailText)
  private readonly tailBytes = this.tables.int32(TAIL_COUNT)
  /** The record's field types (RecordScratch.copyTypes), then its numbers, strings and arrays of words, by field. */
  private readonly tailTypes = this.tables.float64(TAIL_COUNT * TYPE_WORDS)
  private readonly tailNumbers = this.tables.uint8(TAIL_COUNT)
  private readonly tailStrings = this.tables.uint8(TAIL_COUNT)
  private readonly tailLists = this.tables.uint8(TAIL_COUNT)
  private readonly tailField = this.tables.uint8(TAIL_COUNT * TAIL_FIELDS)
  private readonly tailNum = this.tables.float64(TAIL_COUNT * TAIL_FIELDS)
  /** A member's string id, 1/0 for a boolean, or how many ids of `tailIds` an array of words holds. */
  private readonly tailStr = this.tables.int32(TAIL_COUNT * TAIL_FIELDS)
  private readonly tailIds = this.tables.int32(TAIL_COUNT * TAIL_IDS)
  private readonly tailAfter = this.tables.int32(TAIL_COUNT)
  /**
   * Per tail, 1 + the builder's row (of transients, of buffers) of the last record with this tail that passed
   * every check without a warning (0: none yet). A transient's or buffer's checks look at its members and at the
   * builder's graph and live ids, nothing else, so one with the same tail (and an id and size the scanner read
   * as integers) passes them again where the graph and the ids allow it (CaptureBuilder.repeatTransient,
   * repeatBuffer), and its rows are copies of that one's.
   */
  private readonly tailRow = this.tables.int32(TAIL_COUNT)
  /** Transient tails by a hash of their bytes (tailHash), to find one kept before when the prediction failed. */
  private readonly transientByHash = this.tables.int32(1 << TAIL_HASH_BITS)
  /**
   * Buffer tails by their first sixteen bytes (headSlot), BUFFER_WAYS each, and each tail's last four bytes
   * (with what came before it when it is shorter): tails that start alike differ in length or at their end.
   */
  private readonly bufferByHead = this.tables.int32(BUFFER_WAYS << HEAD_BITS)
  private readonly tailLast = this.tables.int32(TAIL_COUNT)
  /**
   * The hashes (tailHash) of buffer tails seen once, by their low bits: a buffer tail is kept the second time it
   * is seen, so that buffers whose members are their own (a name with a number) do not push out those that
   * repeat.
   */
  private readonly bufferSeen = this.tables.int32(1 << TAIL_HASH_BITS)
  private lastTail = 0
  /**
   * Whether transient tails are found again (repeatScore.ts). A renderer whose graphs never repeat gives every
   * transient a new tail, and keeping each (its members listed, its bytes hashed, looked up and packed) was about a
   * third of such a capture's load; cold, only a tail whose hash's top SAMPLE_BITS are zero (the same tail in every
   * frame) is looked up and kept, so a graph that starts to repeat finds its sampled tails from its next frame.
   */
  private readonly transients = new RepeatScore()
  private nextTransient = 1
  private nextBuffer = TRANSIENT_TAILS
  /** The string ids of the record kinds `transient` and `buffer`. */
  private readonly transientKind: number
  private readonly bufferKind: number
  /**
   * Use arrays: a frame's `use` records often name the same ids as the frame before's, line for line. A record
   * `{"e":"use","ids":[…]}` whose array repeats, byte for byte, one kept (the one that came after the previous
   * use array last time, or one found by the hash of its bytes) is added as a copy of that one's packed ids
   * (CaptureBuilder.repeatUse), its numbers not read. Entries from 1 (0 is none): where the array's bytes are in
   * `useText` (from `[` to `]`, packed for four- and eight-byte compares), its length in bytes, its ids' packed
   * bytes in the builder and their count, and the array that came after it last time.
   */
  private readonly useKind: number
  private useText = new Int32Array(0)
  private useWide = new Float64Array(0)
  private useTextWords = 0
  private readonly useAt = this.tables.int32(USE_KEPT)
  private readonly useBytes = this.tables.int32(USE_KEPT)
  private readonly usePacked = this.tables.float64(USE_KEPT)
  private readonly usePackedBytes = this.tables.int32(USE_KEPT)
  private readonly useCount = this.tables.int32(USE_KEPT)
  private readonly useAfter = this.tables.int32(USE_KEPT)
  private readonly useByHash = this.tables.int32(1 << USE_HASH_BITS)
  private useNext = 1
  private lastUse = 0
  /** The array of the `use` record being read: the kept one it repeats (0: none), or where it starts and ends. */
  private useRepeat = 0
  private useOpen = -1
  private useEnd = -1
  /** Its hash, and the hash's slot in useByHash, once looked for there. */
  private useSlot = 0
  private useHash = 0
  /** The hashes of arrays seen once, by their low bits: an array is kept the second time it is seen. */
  private readonly useSeen = this.tables.int32(1 << USE_HASH_BITS)

  constructor(builder: CaptureBuilder, options: ScannerOptions) {
    // A number read and a string's hash may not fit the engine's small integers (a fraction, a hash of 2^31 or
    // more): stored as fractions once here, they are doubles from the start, and their first such value does not
    // change the scanner's shape mid-load (ingest/README.md, "Cold start").
    this.numberValue = this.strHash = 0.5
    this.numberValue = this.strHash = 0
    this.builder = builder
    this.extras.share = builder.share
    this.file = options.file
    this.headerOptional = options.headerOptional ?? false
    const strings = builder.strings
    this.transientKind = strings.intern('transient')
    this.bufferKind = strings.intern('buffer')
    this.useKind = strings.intern('use')
    const count = strings.size
    this.wordNext = new Int32Array(count)
    this.wordLength = new Int32Array(count)
    this.wordAt = new Int32Array(count)
    const texts: Int32Array[] = []
    let at = 0
    for (let id = 1; id < count; id++) {
      const bytes = strings.bytes(id)
      const plain = bytes.every((b) => b >= 0x20 && b !== QUOTE && b !== BACKSLASH)
      if (bytes.length < 2 || bytes.length >= MAX_WORD || !plain) continue
      const quoted = new Uint8Array(bytes.length + 1)
      quoted.set(bytes)
      quoted[bytes.length] = QUOTE
      const text = packed(quoted)
      texts.push(text)
      this.wordAt[id] = at
      this.wordLength[id] = bytes.length
      at += text.length
    }
    this.wordText = new Int32Array(at)
    at = 0
    for (const text of texts) {
      this.wordText.set(text, at)
      at += text.length
    }
    // chained in reverse so that each chain tries the earlier words first
    for (let id = count - 1; id >= 1; id--) {
      if (this.wordLength[id] === 0) continue
      const first2 = this.wordText[this.wordAt[id]] & 0xffff
      const slot = wordSlot(first2)
      this.wordNext[id] = this.wordHead[slot]
      this.wordHead[slot] = id
    }
  }

  push(chunk: Uint8Array): void {
    const from = this.length
    const need = from + chunk.length + ROOM
    if (need > this.buf.length) {
      const next = new Uint8Array(Math.max(need, this.buf.length * 2))
      next.set(this.buf.subarray(0, from))
      this.buf = next
      this.view = new DataView(next.buffer)
    }
    this.buf.set(chunk, from)
    this.length = from + chunk.length
    this.bytes += chunk.length
    const last = chunk.lastIndexOf(NEWLINE)
    if (last < 0) return
    const end = from + last + 1
    this.parse(end)
    // what follows the last line feed moves to the front
    this.buf.copyWithin(0, end, this.length)
    this.base += end
    this.length -= end
  }

  /** The input is complete: read a last line that has no newline. */
  finish(): void {
    const length = this.length
    if (length === 0) return
    const offset = this.base
    this.length = 0
    // the line feed the parse stops at; there is room for it after the data
    this.buf[length] = NEWLINE
    try {
      this.parse(length + 1)
    } catch (err) {
      if (!(err instanceof CaptureError) || !this.sawHeader) throw err
      this.builder.line = this.lines
      this.builder.offset = offset
      this.builder.warn('truncatedLastLine', `the last line (${length} bytes, no newline) is cut short: ${err.message}`)
    }
  }

  /** Parse the whole lines in buf[0, end); buf[end - 1] is a line feed. */
  private parse(end: number): void {
    const buf = this.buf
    this.end = end
    let p = 0
    try {
      while (p < end) {
        this.lines++
        this.lineStart = p
        let c = buf[p]
        while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (c === NEWLINE) {
          p++
          continue
        }
        if (!this.sawHeader) p = this.header(p)
        else if (c === LBRACE) p = this.record(buf, p)
        else p = this.notAnObject(p)
        p++
      }
    } catch (err) {
      if (err instanceof SyntaxFault) {
        throw new CaptureError(this.file, this.lines, this.base + err.at, err.expected, err.detail)
      }
      throw err
    }
  }

  /** The end of the line at p (after optional whitespace); returns the line feed's position. */
  private lineEnd(p: number, expected: string): number {
    const q = this.ws(p)
    if (this.buf[q] !== NEWLINE) throw new SyntaxFault(q, expected)
    return q
  }

  private header(p: number): number {
    const buf = this.buf
    if (this.lines === 1 && buf[p] === 0xef && buf[p + 1] === 0xbb && buf[p + 2] === 0xbf) {
      p = this.ws(p + 3)
      if (buf[p] === NEWLINE) return p // blank lines before the header
    }
    const valueEnd = this.skipValue(p, 0)
    const nl = this.lineEnd(valueEnd, 'the end of the line after the header')
    const value: unknown = JSON.parse(decoder.decode(buf.subarray(p, valueEnd)))
    const isRecord = typeof value === 'object' && value !== null && 'e' in value && !('format' in value)
    if (isRecord && this.headerOptional) {
      this.sawHeader = true
      return this.record(buf, p)
    }
    const check = checkHeader(value)
    if (!check.ok) throw new SyntaxFault(p, check.expected, `the first line is not a valid header: ${check.detail}`)
    this.builder.header = check.header
    this.sawHeader = true
    return nl
  }

  private notAnObject(p: number): number {
    const nl = this.lineEnd(this.skipValue(p, 0), 'the end of the line')
    this.builder.line = this.lines
    this.builder.offset = this.base + this.lineStart
    this.builder.warn('unknownRecord', 'a line that is JSON but not an object')
    return nl
  }

  /**
   * One record: the object at p, which opens with `{`. The hot loop reads keys and the common values (plain
   * strings, non-negative integers, arrays of them) inline; anything else goes through value(). Returns the
   * position of the line feed that ends the line.
   */
  private record(buf: Uint8Array, p: number): number {
    const view = this.view
    const r = this.r
    r.reset()
    this.extras.count = 0
    const type = r.type
    const num = r.num
    const str = r.str
    let c = buf[++p]
    let keys = 0
    /**
     * Where the members after a transient's id or a buffer's size start, when the record may be kept (tails
     * below); which of the two, and the id or size.
     */
    let tail = -1
    let tailKind = 0
    let tailValue = 0
    /** The kept tail the bytes from `tail` on repeat, its members not read yet. */
    let repeated = 0
    /** Whether the record's second member was a `use` record's array (useArray). */
    let use = false
    /**
     * Whether a string of the record was new to the capture (a name met for the first time): its tail cannot repeat
     * one kept, and is worth keeping only once the string comes again.
     */
    let fresh = false
    if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
    if (c === RBRACE) {
      c = buf[++p]
    } else {
      for (;;) {
        if (c !== QUOTE) throw new SyntaxFault(p, 'a quoted key')
        keys++
        const keyStart = p + 1
        let q = keyStart
        const w = view.getInt32(q, true)
        let field = KEY_SLOT[keySlot(w & 0xffffff)]
        if (field >= 0) {
          if ((w & KEY_M0[field]) === KEY_W0[field] && (view.getInt32(q + 4, true) & KEY_M1[field]) === KEY_W1[field]) {
            p = q + KEY_LENGTH[field] + 1
          } else field = -1
        }
        if (field < 0) {
          for (;;) {
            c = buf[q]
            if (c === QUOTE || c === BACKSLASH || c < 0x20) break
            q++
          }
          if (c === QUOTE) p = q + 1
          else if (c === BACKSLASH) {
            p = this.stringEnd(keyStart - 1)
            field = this.escapedKeyField(keyStart - 1, p)
          } else throw stringFault(buf, q)
        }
        c = buf[p]
        if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (c !== COLON) throw new SyntaxFault(p, '":" after the key')
        c = buf[++p]
        if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (field < 0) {
          p = this.extra(keyStart - 1, p)
        } else if (c === QUOTE) {
          const kind = VALUE_KIND[field]
          q = p + 1
          let id = 0
          if (kind === WORD) {
            id = this.word(q)
            if (id > 0) p = q + this.wordLength[id] + 1
            else p = this.value(field, p)
          } else if (kind === TEXT) {
            // Free text (names, tags, formats). A render graph names its resources in the same order every
            // frame, and runs of records share a tag or a format: the string predicted from the one before is
            // compared first, then the last one that began with the same sixteen bytes (a capture's tags and
            // formats are a few dozen strings, and many names recur); otherwise it is hashed while looking for
            // its closing quote, and interned.
            const strings = this.builder.strings
            const isName = field === F.name
            const previous = this.lastText[field]
            const predicted = isName ? (previous < this.nameAfter.length ? this.nameAfter[previous] : 0) : previous
            if (predicted > 0 && strings.matchesQuoted(predicted, buf, view, q, this.end)) {
              id = predicted
              p = q + strings.byteLength(id) + 1
            } else {
              const slot = TEXT_SLOT[field] + headSlot(view, q)
              const seen = this.textByHead[slot]
              if (seen > 0 && seen !== predicted && strings.matchesQuoted(seen, buf, view, q, this.end)) {
                id = seen
                p = q + strings.byteLength(id) + 1
              } else {
                let h = HASH_SEED
                for (;;) {
                  c = buf[q]
                  if (c === QUOTE || c === BACKSLASH || c < 0x20) break
                  h = Math.imul(h ^ c, HASH_PRIME)
                  q++
                }
                if (c === QUOTE) {
                  const known = strings.size
                  id = strings.internHashed(buf, p + 1, q, h >>> 0)
                  if (strings.size !== known) fresh = true
                  p = q + 1
                  this.textByHead[slot] = id
                } else p = this.value(field, p)
              }
              if (isName && id > 0) this.follow(previous, id)
            }
            // only strings read from plain bytes are predicted: they hold no quote, backslash or control byte
            this.lastText[field] = id
          } else p = this.value(field, p)
          if (id > 0) {
            type[field] = FieldValue.String
            str[field] = id
          }
        } else if (c >= 0x30 && c <= 0x39) {
          // a non-negative integer of up to 15 digits; anything else goes through number()
          let v = c - 0x30
          q = p + 1
          c = buf[q]
          if (v !== 0) {
            while (c >= 0x30 && c <= 0x39) {
              v = v * 10 + (c - 0x30)
              c = buf[++q]
            }
          }
          if (q - p > 15 || c === DOT || c === 0x65 || c === 0x45 || (c >= 0x30 && c <= 0x39)) {
            p = this.value(field, p)
          } else {
            type[field] = FieldValue.Number
            num[field] = v
            p = q
            // A transient's id right after its kind, or a buffer's size after its kind and id: what follows may
            // repeat a kept tail, the one predicted after the transient before, or a buffer's found by its first bytes.
            if (c === COMMA && (keys === 2 ? field === F.id : keys === 3 && field === F.size) && type[F.e] === FieldValue.String) {
              const transient = keys === 2 && str[F.e] === this.transientKind
              if (transient || (keys === 3 && str[F.e] === this.bufferKind && type[F.id] === FieldValue.Number)) {
                tail = p + 1
                tailKind = transient ? TRANSIENT_TAIL : BUFFER_TAIL
                tailValue = v
                const known = transient ? this.knownTail(tail) : this.foundTail(tail)
                if (known > 0) {
                  repeated = known
                  p = tail + this.tailBytes[known]
                  c = buf[p]
                  break
                }
              }
            }
          }
        } else if (c === LBRACKET) {
          const kind = VALUE_KIND[field]
          if (field === F.ids && keys === 2 && str[F.e] === this.useKind && type[F.e] === FieldValue.String) {
            use = true
            p = this.useArray(p)
          } else p = kind === NUMBERS ? this.numbers(field, p) : kind === WORD ? this.words(field, p) : this.array(field, p)
        } else {
          p = this.value(field, p)
        }
        c = buf[p]
        if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (c === COMMA) {
          c = buf[++p]
          if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
          continue
        }
        if (c === RBRACE) {
          c = buf[++p]
          break
        }
        throw new SyntaxFault(p, '"," or "}" after a value')
      }
    }
    const close = p
    if (this.extras.count !== 0) {
      const extras = this.extras
      const id = extras.take(buf, view)
      if (id > 0) {
        r.extras = extras.text(id)
        r.extrasId = id
      } else r.setExtrasBytes(extras.looseBytes, extras.looseStart, extras.looseEnd)
    }
    if (c <= SPACE) while (c === SPACE || c === TAB || c === CR) c = buf[++p]
    if (c !== NEWLINE) throw new SyntaxFault(p, 'the end of the line after the record')
    const builder = this.builder
    builder.line = this.lines
    builder.offset = this.base + this.lineStart
    if (repeated > 0) {
      // the rows of the record that last had this tail and passed every check, under this one's id (and size)
      const like = this.tailRow[repeated] - 1
      if (like >= 0) {
        const done =
          tailKind === TRANSIENT_TAIL
            ? builder.repeatTransient(tailValue, like)
            : builder.repeatBuffer(num[F.id], tailValue, like)
        if (done) return p
      }
      this.replayTail(repeated, tail)
      this.addWithTail(repeated, tailKind)
      return p
    }
    if (use) {
      if (this.repeatedUse(keys)) return p
      const first = builder.usePackedEnd()
      if (builder.add(r)) this.keepUse(keys, first)
      return p
    }
    const kept = tail >= 0 && !fresh ? this.keepTail(tail, close, tailKind, tailValue, keys) : 0
    if (kept > 0) this.addWithTail(kept, tailKind)
    else builder.add(r)
    return p
  }

  /**
   * A `use` record's array at `open`: the kept one that came after the previous one last time, if its bytes repeat
   * it (not read then: `useRepeat`), else read (from `useOpen` to `useEnd`). Returns the position after its `]`.
   */
  private useArray(open: number): number {
    this.useRepeat = 0
    this.useOpen = open
    if (this.builder.usePackedEnd() < 0) {
      this.useOpen = -1
      return this.numbers(F.ids, open)
    }
    const use = this.predictedUse(open)
    if (use > 0) {
      this.useRepeat = use
      return open + this.useBytes[use]
    }
    this.useEnd = this.numbers(F.ids, open)
    return this.useEnd
  }

  /** The kept use array that came after the previous one last time, if the bytes at `open` repeat it; else 0. */
  private predictedUse(open: number): number {
    const use = this.useAfter[this.lastUse]
    if (use === 0 || !this.repeatsUse(use, open)) return 0
    this.lastUse = use
    return use
  }

  private repeatsUse(use: number, start: number): boolean {
    return repeatsPacked(this.view, start, this.useText, this.useWide, this.useAt[use], this.useBytes[use])
  }

  /**
   * Whether the use record just read was added as a repeat: its array the repeat of a kept one, not read (found as
   * the one predicted), or read and then found by its hash. With members besides `e` and `ids` (keys), a
   * predicted repeat's ids are read from its copy (unless a later `ids` replaced them), for the record to be added
   * as any other.
   */
  private repeatedUse(keys: number): boolean {
    const r = this.r
    const repeat = this.useRepeat
    if (repeat > 0) {
      if (keys === 2) return this.builder.repeatUse(r, this.usePacked[repeat], this.usePackedBytes[repeat], this.useCount[repeat])
      if (r.type[F.ids] === FieldValue.Absent) {
        this.builder.unpackUse(this.usePacked[repeat], this.useCount[repeat], r.ids)
        r.set(F.ids, FieldValue.Numbers)
      }
      return false
    }
    const open = this.useOpen
    if (keys !== 2 || open < 0 || r.type[F.ids] !== FieldValue.Numbers) return false
    const bytes = this.useEnd - open
    const hash = this.tailHash(open, bytes, USE_ARRAY)
    const slot = hash >>> (32 - USE_HASH_BITS)
    this.useSlot = slot
    this.useHash = hash
    const same = this.useByHash[slot]
    if (same === 0 || this.useBytes[same] !== bytes || !this.repeatsUse(same, open)) return false
    this.useAfter[this.lastUse] = same
    this.lastUse = same
    return this.builder.repeatUse(r, this.usePacked[same], this.usePackedBytes[same], this.useCount[same])
  }

  /**
   * Keep the array of the use record just added, read but not found (repeatedUse), if its ids were packed from
   * `first` in the builder.
   */
  private keepUse(keys: number, first: number): void {
    const open = this.useOpen
    const packedEnd = this.builder.usePackedEnd()
    if (keys !== 2 || this.useRepeat > 0 || open < 0 || first < 0 || packedEnd < 0) return
    // kept the second time it is seen: arrays that never repeat cost a hash each, not a copy
    const seen = this.useHash & ((1 << USE_HASH_BITS) - 1)
    if (this.useSeen[seen] !== this.useHash) {
      this.useSeen[seen] = this.useHash
      return
    }
    this.keepArray(open, this.useEnd - open, this.useSlot, first, packedEnd - first, this.r.ids.length)
  }

  /** Keep the use array of `bytes` bytes at `open`, its ids packed in `packedBytes` bytes from `packed`. */
  private keepArray(open: number, bytes: number, slot: number, packed: number, packedBytes: number, count: number): void {
    const words = ((bytes + 7) >> 3) << 1
    if (this.useNext === USE_KEPT || this.useTextWords + words > USE_TEXT_WORDS) this.dropUses()
    if (this.useTextWords + words > this.useText.length) {
      if (words > USE_TEXT_WORDS) return
      const grown = new Int32Array(Math.min(USE_TEXT_WORDS, Math.max(1 << 12, this.useText.length * 2, this.useTextWords + words)))
      grown.set(this.useText.subarray(0, this.useTextWords))
      this.useText = grown
      this.useWide = new Float64Array(grown.buffer)
    }
    const use = this.useNext++
    const at = this.useTextWords
    packBytes(this.view, open, bytes, this.useText, at)
    this.useTextWords = at + words
    this.useAt[use] = at
    this.useBytes[use] = bytes
    this.usePacked[use] = packed
    this.usePackedBytes[use] = packedBytes
    this.useCount[use] = count
    this.useAfter[use] = 0
    this.useByHash[slot] = use
    this.useAfter[this.lastUse] = use
    this.lastUse = use
  }

  /** Forget every kept use array (their room is full). */
  private dropUses(): void {
    this.useByHash.fill(0)
    this.useAfter.fill(0)
    this.useNext = 1
    this.lastUse = 0
    this.useTextWords = 0
  }

  /**
   * Add the record in the scratch, whose members after its id or size are kept tail `tail`; note the row of its
   * desc table (transients, buffers) it took if it passed without a warning.
   */
  private addWithTail(tail: number, kind: number): void {
    const builder = this.builder
    const row = kind === TRANSIENT_TAIL ? builder.transients.length : builder.buffers.length
    const warnings = builder.warningCount()
    if (builder.add(this.r) && builder.warningCount() === warnings) this.tailRow[tail] = row + 1
  }

  private follow(previous: number, id: number): void {
    if (previous >= this.nameAfter.length) {
      let size = this.nameAfter.length * 2
      while (size <= previous) size *= 2
      const next = new Int32Array(size)
      next.set(this.nameAfter)
      this.nameAfter = next
    }
    this.nameAfter[previous] = id
  }

  /**
   * The tail predicted for a transient whose members after its id start at `start`: the one that came after the
   * previous transient's tail last time, if the bytes repeat it to its closing brace; else 0. Compared four bytes
   * at a time: a kept tail holds no line feed, so a compare stops at the line's end at the latest.
   */
  private knownTail(start: number): number {
    const tail = this.tailAfter[this.lastTail]
    if (tail === 0 || !this.repeats(tail, start)) return 0
    this.lastTail = tail
    this.transients.found()
    return tail
  }

  /**
   * The kept buffer tail that the bytes from `start` repeat to its closing brace, or 0: one of those kept under
   * the same first sixteen bytes, whose last four bytes are where they would be, then compared whole.
   */
  private foundTail(start: number): number {
    const view = this.view
    const ways = this.bufferByHead
    const end = this.end
    for (let way = headSlot(view, start) * BUFFER_WAYS, last = way + BUFFER_WAYS; way < last; way++) {
      const tail = ways[way]
      if (tail === 0) return 0
      // the tail ends before the line's line feed, so before `end`
      const bytes = this.tailBytes[tail]
      if (start + bytes < end && view.getInt32(start + bytes - 4, true) === this.tailLast[tail] && this.repeats(tail, start)) {
        return tail
      }
    }
    return 0
  }

  /** A hash of a tail of `kind`: its four-byte groups, the rest under a mask, then its length. */
  private tailHash(start: number, bytes: number, kind: number): number {
    const view = this.view
    const groups = bytes >> 2
    const rest = bytes & 3
    let h = kind
    for (let g = 0; g < groups; g++) h = Math.imul(h ^ view.getInt32(start + 4 * g, true), 0x9e3779b1)
    if (rest !== 0) h = Math.imul(h ^ (view.getInt32(start + 4 * groups, true) & lowBytes(rest)), 0x9e3779b1)
    return Math.imul(h ^ bytes, 0x85ebca6b)
  }

  /** Whether the bytes from `start` repeat kept tail `tail`, to its closing brace. */
  private repeats(tail: number, start: number): boolean {
    return repeatsPacked(this.view, start, this.tailText, this.tailWide, tail * TAIL_WORDS, this.tailBytes[tail])
  }

  /** Set the members a kept tail holds into the scratch; returns the position after the tail's closing brace. */
  private replayTail(tail: number, start: number): number {
    const r = this.r
    const num = r.num
    const str = r.str
    const fields = this.tailField
    r.copyTypes(this.tailTypes, tail * TYPE_WORDS)
    let i = tail * TAIL_FIELDS
    for (const end = i + this.tailNumbers[tail]; i < end; i++) num[fields[i]] = this.tailNum[i]
    for (const end = i + this.tailStrings[tail]; i < end; i++) str[fields[i]] = this.tailStr[i]
    const ids = this.tailIds
    let id = tail * TAIL_IDS
    for (const end = i + this.tailLists[tail]; i < end; i++) {
      const field = fields[i]
      r.listStart[field] = r.strListLength
      for (const last = id + this.tailStr[i]; id < last; id++) r.pushString(ids[id])
      r.listEnd[field] = r.strListLength
    }
    return start + this.tailBytes[tail]
  }

  /**
   * Keep the tail of the record just read, from `start` to its closing brace (before `close`), with the members
   * it set: a transient's after its id (`value`), or a buffer's after its size (`value`), as `kind` says. Unless
   * it is too long, holds unknown keys, a number array or a key twice (a second `id` would stand for the id of
   * every record that repeats the tail), or changed the record's kind. A transient's is predicted after the tail
   * before it. Returns the tail, or 0 when not kept.
   */
  private keepTail(start: number, close: number, kind: number, value: number, keys: number): number {
    const r = this.r
    const type = r.type
    const bytes = close - start
    if (bytes > TAIL_WORDS * 4 || r.hasExtras()) return 0
    const transient = kind === TRANSIENT_TAIL
    // cold, a transient's tail is looked at only when sampled by its hash
    const sampled = transient && this.transients.cold
    let hash = sampled ? this.tailHash(start, bytes, kind) : 0
    if (sampled && hash >>> (32 - SAMPLE_BITS) !== 0) return 0
    // the members before the tail: `e` and `id`, and a buffer's `size`
    const head = transient ? F.id : F.size
    const e = transient ? this.transientKind : this.bufferKind
    if (type[F.e] !== FieldValue.String || r.str[F.e] !== e || type[head] !== FieldValue.Number || r.num[head] !== value) return 0
    let n = 0
    let ids = 0
    for (let field = 0; field < FIELD_COUNT; field++) {
      const t = type[field]
      if (t === FieldValue.Absent || field === F.e || field === F.id || field === head) continue
      if (t === FieldValue.Numbers) return 0
      n++
      if (t === FieldValue.Strings) ids += r.listEnd[field] - r.listStart[field]
    }
    // one key a member
    if (n > TAIL_FIELDS || ids > TAIL_IDS || keys !== n + (transient ? 2 : 3)) return 0
    const view = this.view
    // A transient's tail kept before is predicted from here on (its successor was learned with it). A buffer's
    // was looked for where it starts (foundTail), before its members were read.
    if (!sampled) hash = this.tailHash(start, bytes, kind)
    const hashSlot = transient ? hash >>> (32 - TAIL_HASH_BITS) : headSlot(view, start) * BUFFER_WAYS
    if (transient) {
      const same = this.transientByHash[hashSlot]
      if (same > 0 && this.tailBytes[same] === bytes && this.repeats(same, start)) {
        this.tailAfter[this.lastTail] = same
        this.lastTail = same
        this.transients.found()
        return same
      }
      this.transients.missed()
    } else {
      const seen = hash & ((1 << TAIL_HASH_BITS) - 1)
      if (this.bufferSeen[seen] !== hash) {
        this.bufferSeen[seen] = hash
        return 0
      }
    }
    const tail = transient ? this.nextTransient : this.nextBuffer
    r.typesInto(this.tailTypes, tail * TYPE_WORDS)
    let i = tail * TAIL_FIELDS
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (type[field] === FieldValue.Number && field !== F.id && field !== head) {
        this.tailField[i] = field
        this.tailNum[i++] = r.num[field]
      }
    }
    this.tailNumbers[tail] = i - tail * TAIL_FIELDS
    for (let field = 0; field < FIELD_COUNT; field++) {
      if ((type[field] === FieldValue.String && field !== F.e) || type[field] === FieldValue.Bool) {
        this.tailField[i] = field
        this.tailStr[i++] = r.str[field]
      }
    }
    this.tailStrings[tail] = i - tail * TAIL_FIELDS - this.tailNumbers[tail]
    let listed = tail * TAIL_IDS
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (type[field] === FieldValue.Strings) {
        this.tailField[i] = field
        this.tailStr[i++] = r.listEnd[field] - r.listStart[field]
        for (let at = r.listStart[field]; at < r.listEnd[field]; at++) this.tailIds[listed++] = r.strList[at]
      }
    }
    this.tailLists[tail] = i - tail * TAIL_FIELDS - this.tailNumbers[tail] - this.tailStrings[tail]
    packBytes(view, start, bytes, this.tailText, tail * TAIL_WORDS)
    this.tailBytes[tail] = bytes
    this.tailAfter[tail] = 0
    this.tailRow[tail] = 0
    if (transient) {
      this.transientByHash[hashSlot] = tail
      this.tailAfter[this.lastTail] = tail
      this.lastTail = tail
      this.nextTransient = tail === TRANSIENT_TAILS - 1 ? 1 : tail + 1
    } else {
      // first among its head's ways; the last one is no longer found
      const ways = this.bufferByHead
      ways.copyWithin(hashSlot + 1, hashSlot, hashSlot + BUFFER_WAYS - 1)
      ways[hashSlot] = tail
      this.tailLast[tail] = view.getInt32(start + bytes - 4, true)
      this.nextBuffer = tail === TAIL_COUNT - 1 ? TRANSIENT_TAILS : tail + 1
    }
    return tail
  }

  /** A key the format does not define: its member is validated and kept as raw JSON. */
  private extra(keyQuote: number, p: number): number {
    const valueEnd = this.skipValue(p, 1)
    this.extras.add(keyQuote, valueEnd)
    return valueEnd
  }

  /**
   * The id of the builder's word whose text and closing quote start at `start`, or 0. A candidate is compared
   * four bytes at a time; a line feed differs from every byte of a word, so a word never matches across one.
   */
  private word(start: number): number {
    const view = this.view
    const text = this.wordText
    const first = view.getInt32(start, true)
    let id = this.wordHead[wordSlot(first & 0xffff)]
    while (id !== 0) {
      const at = this.wordAt[id]
      const length = this.wordLength[id]
      // the word and its quote: whole groups of four, then the rest under a mask
      const groups = (length + 1) >> 2
      const rest = (length + 1) & 3
      let g = 0
      if (groups > 0 && first === text[at]) {
        g = 1
        while (g < groups && view.getInt32(start + 4 * g, true) === text[at + g]) g++
      }
      if (g === groups && (rest === 0 || (view.getInt32(start + 4 * g, true) & lowBytes(rest)) === text[at + g])) {
        return id
      }
      id = this.wordNext[id]
    }
    return 0
  }

  /**
   * An array of the format's words (`usage`, `flags`): one of the last arrays the field held, compared whole, or
   * each word found in one pass; anything else goes through array().
   */
  private words(field: number, open: number): number {
    const buf = this.buf
    const r = this.r
    const lengths = this.wordLength
    const listStart = r.strListLength
    const slot = LIST_FIELD[field]
    const known = slot >= 0 ? this.knownList(slot, open) : -1
    if (known >= 0) {
      const ids = this.listIds
      for (let i = known * LIST_IDS, end = i + this.listCount[known]; i < end; i++) r.pushString(ids[i])
      r.set(field, FieldValue.Strings)
      r.listStart[field] = listStart
      r.listEnd[field] = r.strListLength
      return open + this.listBytes[known]
    }
    let p = open + 1
    let c = buf[p]
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]
    if (c !== RBRACKET) {
      for (;;) {
        const id = c === QUOTE ? this.word(p + 1) : 0
        if (id === 0) {
          r.strListLength = listStart
          return this.array(field, open)
        }
        r.pushString(id)
        c = buf[(p += lengths[id] + 2)]
        while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (c === COMMA) {
          c = buf[++p]
          while (c === SPACE || c === TAB || c === CR) c = buf[++p]
          continue
        }
        if (c === RBRACKET) break
        throw new SyntaxFault(p, '"," or "]" in an array')
      }
    }
    r.set(field, FieldValue.Strings)
    r.listStart[field] = listStart
    r.listEnd[field] = r.strListLength
    if (slot >= 0) this.keepList(slot, open, p + 1 - open, listStart)
    return p + 1
  }

  /**
   * Which of the arrays kept for a field (its LIST_FIELD slot) the bytes at `open` repeat, or -1. Each kept
   * array's last four bytes are compared first, where they would be: arrays of a field often start alike (a
   * buffer's usage with "Static") and differ in length or at their end. Then the whole array (repeatsPacked).
   */
  private knownList(slot: number, open: number): number {
    const view = this.view
    const text = this.listText
    const wide = this.listWide
    const end = this.end
    for (let list = LIST_WAYS * slot, last = list + LIST_WAYS; list < last; list++) {
      const bytes = this.listBytes[list]
      // the array ends before the line's line feed, so before `end`
      if (bytes === 0 || open + bytes > end || view.getInt32(open + bytes - 4, true) !== this.listLast[list]) continue
      if (repeatsPacked(view, open, text, wide, list * LIST_WORDS, bytes)) return list
    }
    return -1
  }

  /** Keep the array of words just read for a field's slot: `bytes` from `open`, its ids from `listStart` on. */
  private keepList(slot: number, open: number, bytes: number, listStart: number): void {
    const r = this.r
    const count = r.strListLength - listStart
    if (bytes > LIST_WORDS * 4 || count > LIST_IDS) return
    const list = LIST_WAYS * slot + this.listNext[slot]
    this.listNext[slot] = (this.listNext[slot] + 1) % LIST_WAYS
    const view = this.view
    packBytes(view, open, bytes, this.listText, list * LIST_WORDS)
    this.listBytes[list] = bytes
    this.listLast[list] = view.getInt32(open + bytes - 4, true)
    this.listCount[list] = count
    for (let i = 0; i < count; i++) this.listIds[list * LIST_IDS + i] = r.strList[listStart + i]
  }

  private escapedKeyField(quoteStart: number, afterQuote: number): number {
    const key = this.decodeString(quoteStart, afterQuote)
    return (FIELD as readonly string[]).indexOf(key)
  }

  /** Read a known field's value into the scratch; returns the position after it. */
  private value(field: number, p: number): number {
    const buf = this.buf
    const r = this.r
    const c = buf[p]
    if (c === QUOTE) {
      const q = this.stringEnd(p)
      r.set(field, FieldValue.String)
      r.str[field] = this.strEscaped ? this.internString(p, q) : this.stringId(field, p + 1, q - 1)
      return q
    }
    if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      const q = this.number(p)
      r.set(field, FieldValue.Number)
      r.num[field] = this.numberValue
      return q
    }
    if (c === LBRACKET) return this.array(field, p)
    if (c === 0x74 || c === 0x66) {
      const q = this.skipValue(p, 1)
      r.set(field, FieldValue.Bool)
      r.str[field] = c === 0x74 ? 1 : 0
      return q
    }
    const q = this.skipValue(p, 1)
    r.set(field, FieldValue.Other)
    return q
  }

  /** A plain (unescaped) string's id, by the field's way of reading strings. */
  private stringId(field: number, start: number, end: number): number {
    const id = VALUE_KIND[field] === WORD ? this.word(start) : 0
    return id > 0 ? id : this.builder.strings.internBytes(this.buf, start, end)
  }

  /**
   * An array of non-negative integers (`ids`, thousands per record in some captures), read inline: the common
   * case after each number is a comma. Anything else goes through array().
   */
  private numbers(field: number, open: number): number {
    const buf = this.buf
    const r = this.r
    const ids = r.ids
    let data = ids.data
    let length = 0
    let p = open + 1
    let c = buf[p]
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]
    if (c !== RBRACKET) {
      for (;;) {
        let v = c - 0x30
        // one unsigned compare tells a digit
        if (v >>> 0 > 9) return this.array(field, open)
        const start = p
        c = buf[++p]
        if (v !== 0) {
          for (let d = c - 0x30; d >>> 0 <= 9; d = c - 0x30) {
            v = v * 10 + d
            c = buf[++p]
          }
        }
        if (p - start > 15) return this.array(field, open)
        if (length === data.length) {
          ids.length = length
          ids.reserve(1)
          data = ids.data
        }
        data[length++] = v
        if (c === COMMA) {
          c = buf[++p]
          if (c === SPACE) c = buf[++p]
          continue
        }
        if (c === RBRACKET) break
        // a fraction, an exponent or a leading zero: a number this loop does not read
        if (c === DOT || c === 0x65 || c === 0x45 || (c >= 0x30 && c <= 0x39)) return this.array(field, open)
        while (c === SPACE || c === TAB || c === CR) c = buf[++p]
        if (c === COMMA) {
          c = buf[++p]
          while (c === SPACE || c === TAB || c === CR) c = buf[++p]
          continue
        }
        if (c === RBRACKET) break
        throw new SyntaxFault(p, '"," or "]" in an array')
      }
    }
    ids.length = length
    r.set(field, FieldValue.Numbers)
    return p + 1
  }

  private array(field: number, open: number): number {
    const buf = this.buf
    const r = this.r
    let p = this.ws(open + 1)
    // Numbers go to `ids` for the field `ids`, else to `nums` (a field's numbers never stand for another's).
    const numbers = field === F.ids ? r.ids : r.nums
    if (buf[p] === RBRACKET) {
      r.set(field, FieldValue.Numbers)
      if (field === F.ids) r.ids.length = 0
      r.listStart[field] = r.listEnd[field] = r.nums.length
      return p + 1
    }
    if (buf[p] === QUOTE) {
      r.set(field, FieldValue.Strings)
      r.listStart[field] = r.strListLength
      for (;;) {
        if (buf[p] !== QUOTE) return this.mixedArray(field, open)
        const q = this.stringEnd(p)
        r.pushString(this.strEscaped ? this.internString(p, q) : this.stringId(field, p + 1, q - 1))
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
    r.set(field, FieldValue.Numbers)
    if (field === F.ids) r.ids.length = 0
    r.listStart[field] = r.nums.length
    for (;;) {
      const c = buf[p]
      if (!(c === MINUS || (c >= 0x30 && c <= 0x39))) return this.mixedArray(field, open)
      p = this.ws(this.number(p))
      numbers.push(this.numberValue)
      if (buf[p] === COMMA) {
        p = this.ws(p + 1)
        continue
      }
      if (buf[p] === RBRACKET) break
      throw new SyntaxFault(p, '"," or "]" in an array')
    }
    r.listEnd[field] = r.nums.length
    return p + 1
  }

  /** An array of mixed or nested values: validate it, keep it as present but unusable. */
  private mixedArray(field: number, open: number): number {
    const end = this.skipValue(open, 1)
    this.r.set(field, FieldValue.Other)
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
    const start = p
    let neg = false
    if (buf[p] === MINUS) {
      neg = true
      p++
    }
    let c = buf[p]
    if (c < 0x30 || c > 0x39) throw new SyntaxFault(p, 'a digit')
    let mantissa = 0
    let digits = 0
    if (c === 0x30) {
      c = buf[++p]
    } else {
      while (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30)
        digits++
        c = buf[++p]
      }
    }
    let scale = 0
    if (c === DOT) {
      const fracStart = ++p
      c = buf[p]
      while (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30)
        c = buf[++p]
      }
      if (p === fracStart) throw new SyntaxFault(p, 'a digit after the decimal point')
      scale = p - fracStart
      digits += scale
    }
    let exponent = 0
    if (c === 0x65 || c === 0x45) {
      c = buf[++p]
      let expNeg = false
      if (c === 0x2b || c === MINUS) {
        expNeg = c === MINUS
        c = buf[++p]
      }
      const expStart = p
      while (c >= 0x30 && c <= 0x39) {
        exponent = exponent * 10 + (c - 0x30)
        c = buf[++p]
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
    let q = p + 1
    let h = HASH_SEED
    for (;;) {
      const c = buf[q]
      if (c === QUOTE) {
        this.strHash = h >>> 0
        this.strEscaped = false
        return q + 1
      }
      if (c === BACKSLASH) return this.escapedStringEnd(q)
      if (c < 0x20) throw stringFault(buf, q)
      h = Math.imul(h ^ c, HASH_PRIME)
      q++
    }
  }

  private escapedStringEnd(q: number): number {
    const buf = this.buf
    for (;;) {
      const c = buf[q]
      if (c === QUOTE) {
        this.strEscaped = true
        return q + 1
      }
      if (c === BACKSLASH) {
        const e = buf[q + 1]
        if (e === 0x75) {
          // each digit is checked before the next is read: a line feed stops the check
          for (let i = 2; i < 6; i++) {
            const h = buf[q + i]
            const hex = (h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66)
            if (!hex) throw new SyntaxFault(q + i, 'four hex digits after \\u')
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
      if (c < 0x20) throw stringFault(buf, q)
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
    let c = buf[p]
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]
    return p
  }

  /** Validate any JSON value at p; returns the position after it. */
  private skipValue(p: number, depth: number): number {
    const buf = this.buf
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
    throw new SyntaxFault(p, c === NEWLINE ? 'a value' : 'a JSON value (string, number, object, array, true, false or null)')
  }

  /** Compares byte by byte and stops at the first difference, so it never reads past a line feed. */
  private literal(p: number, word: string): boolean {
    for (let i = 0; i < word.length; i++) if (this.buf[p + i] !== word.charCodeAt(i)) return false
    return true
  }
}

/** A word's chain: its first two bytes, low five bits each. */
function wordSlot(first2: number): number {
  return ((first2 & 31) << 5) | ((first2 >> 8) & 31)
}
