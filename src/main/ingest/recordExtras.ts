/**
 * The records' unknown keys (`CaptureStore.extras`): for each record that has any, its index and its members as
 * raw JSON text, in record order. A Vulkan capture has them on every buffer and texture (their 1.1 fields): 84 000
 * of the 540 000 records of a 20 000-frame `gen vulkan` capture. They were a map from record index to text, whose
 * `set` and `get` hashed every such record into a table of tens of thousands of entries and missed the processor's
 * caches each time (a tenth of that capture's load, 0.3 µs a resource in its replay). Records come in order, so
 * they are now columns a load appends to (record index, text, the text's number), which a replay walks with a
 * cursor (bench/README.md, "Vulkan captures: the extra keys in record order"). A text the load's table numbered is
 * kept once, by its number, not once per record: the records' column of numbers finds it.
 *
 * A text without a number (one the load's table did not keep: a callstack id on every resource, texts that never
 * repeat) is kept as its UTF-8 bytes, end to end with the others, and decoded when read: as strings, a capture of
 * 144 000 such resources handed the collector 144 000 strings to move, and its load took two fifths longer
 * (bench/README.md, "Unknown members that never repeat, kept as bytes"). Nothing on a report's path reads them.
 */
import { capacityFor, type LoadShare, trimmed, uint32Column } from './columns'

/** In `ids`, a text without a number: this flag and its place among the loose texts. */
const LOOSE = 2 ** 31

const decoder = new TextDecoder('utf-8')
const encoder = new TextEncoder()

export class RecordExtras {
  private readonly records = uint32Column(64)
  /** The texts by their number (byId[0] unused), each as it first came. */
  private readonly byId: string[] = ['']
  /**
   * The texts without a number (or with a number that came out of turn), in record order: their bytes end to end
   * in `looseBytes[0, looseLength)`, and where each ends.
   */
  private looseBytes = new Uint8Array(1024)
  private looseLength = 0
  private readonly looseEnds = uint32Column(64)
  private shareOf: LoadShare | undefined
  /**
   * Each text's number from the load's table of texts (ExtrasText): the same text, the same number, 1 and up; where
   * the table gave none (past its bounds, a text it did not keep, a record an importer made), LOOSE and the text's
   * place among the loose texts, which idAt gives as 0. A replay that parses texts keeps the results by number in an
   * array, not by text in a map.
   */
  private readonly ids = uint32Column(64)

  /** How many records have extra keys. */
  get size(): number {
    return this.records.length
  }

  /** The load's share, for the columns' growth (Column.share). */
  set share(share: LoadShare | undefined) {
    this.shareOf = share
    this.records.share = share
    this.ids.share = share
    this.looseEnds.share = share
  }

  /** How many texts have no number. */
  get looseCount(): number {
    return this.looseEnds.length
  }

  /** The k-th text without a number, as bytes: a view, valid until the next text is added. */
  looseAt(k: number): Uint8Array {
    return this.looseSpan(k, k + 1)
  }

  /** The bytes of the loose texts `from` to `to` (exclusive), end to end. */
  looseSpan(from: number, to: number): Uint8Array {
    return this.looseBytes.subarray(this.looseEnd(from - 1), this.looseEnd(to - 1))
  }

  /** Where the k-th loose text's bytes end; 0 for k = -1. */
  looseEnd(k: number): number {
    return k < 0 ? 0 : this.looseEnds.data[k]
  }

  /** Record `index`'s extra keys, and their number (0: none); `index` comes after every record given before. */
  set(index: number, text: string, id = 0): void {
    this.pushRecord(index)
    const byId = this.byId
    // the load's table numbers its texts in the order they first come: a new number is the next one
    if (id > 0 && id < byId.length) this.ids.push(id)
    else if (id > 0 && id === byId.length) {
      byId.push(text)
      this.ids.push(id)
    } else {
      // at most three bytes a UTF-16 unit
      const at = this.reserveLoose(text.length * 3)
      this.endLoose(at + encoder.encodeInto(text, this.looseBytes.subarray(at)).written)
    }
  }

  /** Record `index`'s extra keys as UTF-8 bytes, `bytes[start, end)`, without a number. */
  setBytes(index: number, bytes: Uint8Array, start: number, end: number): void {
    this.pushRecord(index)
    const at = this.reserveLoose(end - start)
    this.looseBytes.set(bytes.subarray(start, end), at)
    this.endLoose(at + end - start)
  }

  private pushRecord(index: number): void {
    const size = this.size
    if (size > 0 && index <= this.records.data[size - 1]) {
      throw new Error(`extra keys of record ${index} after those of record ${this.records.data[size - 1]}`)
    }
    this.records.push(index)
  }

  /** Room for `bytes` more loose bytes; returns where they go. */
  private reserveLoose(bytes: number): number {
    const at = this.looseLength
    if (at + bytes > this.looseBytes.length) {
      const grown = new Uint8Array(capacityFor(this.looseBytes.length, at + bytes, this.shareOf, 1))
      grown.set(this.looseBytes.subarray(0, at))
      this.looseBytes = grown
    }
    return at
  }

  private endLoose(end: number): void {
    this.ids.push(LOOSE + this.looseEnds.length)
    this.looseEnds.push(end)
    this.looseLength = end
  }

  /**
   * Drop growth slack once a load is done, as the store's columns do: the columns and the loose texts' bytes grow to
   * the load's projection, which may reserve far more than a capture's first records need.
   */
  trim(): void {
    this.records.trim()
    this.ids.trim()
    this.looseEnds.trim()
    this.looseBytes = trimmed(this.looseBytes, this.looseLength)
  }

  /** Record `index`'s extra keys, or undefined. */
  get(index: number): string | undefined {
    const at = this.search(0, this.size, index)
    return at < this.size && this.records.data[at] === index ? this.textAt(at) : undefined
  }

  /** The `i`-th record with extra keys, in record order, and its text. */
  recordAt(i: number): number {
    return this.records.data[i]
  }

  textAt(i: number): string {
    const id = this.ids.data[i]
    return id < LOOSE ? this.byId[id] : decoder.decode(this.looseAt(id - LOOSE))
  }

  /** The `i`-th record's text's number, 0 where it has none. */
  idAt(i: number): number {
    const id = this.ids.data[i]
    return id < LOOSE ? id : 0
  }

  /** [record index, text] in record order. */
  *[Symbol.iterator](): Generator<[number, string]> {
    for (let i = 0; i < this.size; i++) yield [this.records.data[i], this.textAt(i)]
  }

  /** A reader for one replay, which asks for ascending records and now and then jumps to a checkpoint. */
  cursor(): ExtrasCursor {
    return new ExtrasCursor(this)
  }

  /** The first position in [from, to) whose record is at or past `index` (to when none is). */
  search(from: number, to: number, index: number): number {
    const records = this.records.data
    let lo = from
    let hi = to
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (records[mid] < index) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/**
 * Reads a store's extra keys by record index, walking them: a question past the last steps on (or searches ahead,
 * past a gap), one before it searches back. The store may grow between questions (a followed capture).
 */
export class ExtrasCursor {
  /** The position of the first record at or past the last one asked for. */
  private at = 0

  constructor(private readonly extras: RecordExtras) {}

  /** Record `index`'s extra keys, or undefined. */
  get(index: number): string | undefined {
    const at = this.find(index)
    return at < 0 ? undefined : this.extras.textAt(at)
  }

  /** The position of record `index` among the records with extra keys (RecordExtras.textAt, idAt), or -1. */
  find(index: number): number {
    const extras = this.extras
    const size = extras.size
    let at = this.at
    if (at > 0 && extras.recordAt(at - 1) >= index) at = extras.search(0, at, index)
    else if (at + 8 < size && extras.recordAt(at + 8) < index) at = extras.search(at + 8, size, index)
    else while (at < size && extras.recordAt(at) < index) at++
    this.at = at
    return at < size && extras.recordAt(at) === index ? at : -1
  }
}
