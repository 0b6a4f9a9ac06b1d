/**
 * The fields a capture record can carry, and the scratch that holds one record's values while it is read.
 * Both the NDJSON scanner (from bytes) and importers (from objects) fill a scratch; the store builder
 * validates and stores it. One path, so every source gets the same checks and warnings.
 */
import { float64Column, type Column } from './columns'
import type { StringTable } from './strings'

export const FIELD = [
  'e',
  'n',
  't',
  'id',
  'size',
  'usage',
  'stride',
  'state',
  'heap',
  'init',
  'name',
  'tag',
  'dim',
  'format',
  'width',
  'height',
  'depth',
  'mips',
  'samples',
  'flags',
  'align',
  'bytes',
  'via',
  'count',
  'ids',
  'first',
  'last',
  'kind',
  'passes',
  'type',
  'offset',
  'after',
  'before',
  'op',
  // 1.1: the VkDeviceMemory (application heap) a bind, map, write or flush names
  'memory',
] as const
export type FieldName = (typeof FIELD)[number]
export const F = Object.fromEntries(FIELD.map((name, i) => [name, i])) as { [K in FieldName]: number }
export const FIELD_COUNT = FIELD.length

/** What a field holds in the current record. */
export const FieldValue = {
  Absent: 0,
  Number: 1,
  /** A string: `str` holds its id in the string table. */
  String: 2,
  /** true/false: `str` holds 1/0. */
  Bool: 3,
  /** An array of strings: their ids are in `strList` between `listStart` and `listEnd`. */
  Strings: 4,
  /** An array of numbers: in `ids` for the field `ids`, else in `nums` between `listStart` and `listEnd`. */
  Numbers: 5,
  /** null, an object, or a mixed array: present but of no usable type. */
  Other: 6,
} as const
export type FieldValue = (typeof FieldValue)[keyof typeof FieldValue]

const utf8 = new TextDecoder('utf-8')

/** `type` is cleared for every record as five 8-byte words, so its length is rounded up to 40. */
const TYPE_BYTES = 40
if (FIELD_COUNT > TYPE_BYTES) throw new Error('RecordScratch.type is too short for the fields')
/** `type` as 8-byte words, as RecordScratch.typesInto and copyTypes move it (bytes 0…6 are never a NaN). */
export const TYPE_WORDS = TYPE_BYTES / 8

export class RecordScratch {
  readonly type = new Uint8Array(TYPE_BYTES)
  readonly num = new Float64Array(FIELD_COUNT)
  /** String id for V.String; 1/0 for V.Bool. */
  readonly str = new Int32Array(FIELD_COUNT)
  /** String ids of the current record's string arrays, concatenated; `listStart`/`listEnd` delimit each field's. */
  strList = new Int32Array(64)
  strListLength = 0
  /** Where each string or number array field's values begin and end in `strList` or `nums`. */
  readonly listStart = new Int32Array(FIELD_COUNT)
  readonly listEnd = new Int32Array(FIELD_COUNT)
  /** The `ids` field's numbers (a `use` record's, thousands in some captures). */
  readonly ids: Column<Float64Array> = float64Column(256)
  /** Number arrays of the other fields, concatenated: kept apart from `ids` so one never stands for the other. */
  readonly nums: Column<Float64Array> = float64Column(16)
  /** `type` as words: five stores clear it, cheaper than tracking which fields a record set. */
  private readonly typeWords = new Float64Array(this.type.buffer)
  /** Raw JSON of keys the format does not define (`"k":v,…`), kept so an export writes them back. */
  extras: string | undefined = undefined
  /** The number the scanner's table of such texts gave `extras` (RecordExtras); 0 when none did. */
  extrasId = 0
  /**
   * Or, where the scanner's table did not keep the text, its UTF-8 bytes: `extrasBytes[extrasStart, extrasEnd)`,
   * valid while the record is read (RecordExtras keeps such texts as bytes).
   */
  extrasBytes: Uint8Array | null = null
  extrasStart = 0
  extrasEnd = 0

  set(field: number, type: FieldValue): void {
    this.type[field] = type
  }

  pushString(id: number): void {
    if (this.strListLength === this.strList.length) {
      const next = new Int32Array(this.strList.length * 2)
      next.set(this.strList)
      this.strList = next
    }
    this.strList[this.strListLength++] = id
  }

  reset(): void {
    const words = this.typeWords
    words[0] = 0
    words[1] = 0
    words[2] = 0
    words[3] = 0
    words[4] = 0
    this.strListLength = 0
    this.ids.length = 0
    this.nums.length = 0
    this.extras = undefined
    this.extrasId = 0
    this.extrasBytes = null
  }

  /** The record's extra keys as bytes (extrasBytes). */
  setExtrasBytes(bytes: Uint8Array, start: number, end: number): void {
    this.extrasBytes = bytes
    this.extrasStart = start
    this.extrasEnd = end
  }

  /** Whether the record has keys the format does not define. */
  hasExtras(): boolean {
    return this.extras !== undefined || this.extrasBytes !== null
  }

  /** The record's extra keys as text, wherever they are kept; undefined when it has none. */
  extrasJson(): string | undefined {
    return this.extrasBytes === null ? this.extras : utf8.decode(this.extrasBytes.subarray(this.extrasStart, this.extrasEnd))
  }

  /** Write every field's type into `words` from `at` (TYPE_WORDS of them). */
  typesInto(words: Float64Array, at: number): void {
    const from = this.typeWords
    for (let i = 0; i < TYPE_WORDS; i++) words[at + i] = from[i]
  }

  /** Set every field's type from `words` at `at`, as typesInto wrote them. */
  copyTypes(words: Float64Array, at: number): void {
    const to = this.typeWords
    to[0] = words[at]
    to[1] = words[at + 1]
    to[2] = words[at + 2]
    to[3] = words[at + 3]
    to[4] = words[at + 4]
  }

  has(field: number): boolean {
    return this.type[field] !== FieldValue.Absent
  }

  /** Fill from a record object (importers, tests): the same representation the scanner builds from bytes. */
  fromObject(record: object, strings: StringTable): void {
    this.reset()
    let extras: string[] | undefined
    for (const [key, value] of Object.entries(record)) {
      const field = (F as Record<string, number>)[key]
      if (field === undefined) {
        if (value !== undefined) (extras ??= []).push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
        continue
      }
      if (typeof value === 'number') {
        this.set(field, FieldValue.Number)
        this.num[field] = value
      } else if (typeof value === 'string') {
        this.set(field, FieldValue.String)
        this.str[field] = strings.intern(value)
      } else if (typeof value === 'boolean') {
        this.set(field, FieldValue.Bool)
        this.str[field] = value ? 1 : 0
      } else if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
        // an empty array lands here: read as no ids, or no usage bits
        this.set(field, FieldValue.Numbers)
        if (field === F.ids) {
          this.ids.length = 0
          for (const v of value as number[]) this.ids.push(v)
        } else {
          this.listStart[field] = this.nums.length
          for (const v of value as number[]) this.nums.push(v)
          this.listEnd[field] = this.nums.length
        }
      } else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        this.set(field, FieldValue.Strings)
        this.listStart[field] = this.strListLength
        for (const v of value as string[]) this.pushString(strings.intern(v))
        this.listEnd[field] = this.strListLength
      } else if (value !== undefined) {
        this.set(field, FieldValue.Other)
      }
    }
    if (extras) this.extras = extras.join(',')
  }
}
