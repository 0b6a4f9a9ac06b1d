/**
 * The records' unknown keys (`CaptureStore.extras`): for each record that has any, its index and its members as
 * raw JSON text, in record order. A Vulkan capture has them on every buffer and texture (their 1.1 fields): 84 000
 * of the 540 000 records of a 20 000-frame `gen vulkan` capture. They were a map from record index to text, whose
 * `set` and `get` hashed every such record into a table of tens of thousands of entries and missed the processor's
 * caches each time (a tenth of that capture's load, 0.3 µs a resource in its replay). Records come in order, so
 * they are now columns a load appends to (record index, text, the text's number), which a replay walks with a
 * cursor (bench/README.md, "Vulkan captures: the extra keys in record order"). A text the load's table numbered is
 * kept once, by its number, not once per record: the records' column of numbers finds it.
 */
import { uint32Column } from './columns'

/** In `ids`, a text without a number: this flag and its place among `loose`. */
const LOOSE = 2 ** 31

export class RecordExtras {
  private readonly records = uint32Column(64)
  /** The texts by their number (byId[0] unused), each as it first came. */
  private readonly byId: string[] = ['']
  /** The texts without a number (or with a number that came out of turn), in record order. */
  private readonly loose: string[] = []
  /**
   * Each text's number from the load's table of texts (ExtrasText): the same text, the same number, 1 and up; where
   * the table gave none (past its bounds, a text it did not keep, a record an importer made), LOOSE and the text's
   * place among `loose`, which idAt gives as 0. A replay that parses texts keeps the results by number in an array,
   * not by text in a map.
   */
  private readonly ids = uint32Column(64)

  /** How many records have extra keys. */
  get size(): number {
    return this.records.length
  }

  /** Record `index`'s extra keys, and their number (0: none); `index` comes after every record given before. */
  set(index: number, text: string, id = 0): void {
    const size = this.size
    if (size > 0 && index <= this.records.data[size - 1]) {
      throw new Error(`extra keys of record ${index} after those of record ${this.records.data[size - 1]}`)
    }
    this.records.push(index)
    const byId = this.byId
    // the load's table numbers its texts in the order they first come: a new number is the next one
    if (id > 0 && id < byId.length) this.ids.push(id)
    else if (id > 0 && id === byId.length) {
      byId.push(text)
      this.ids.push(id)
    } else {
      this.ids.push(LOOSE + this.loose.length)
      this.loose.push(text)
    }
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
    return id < LOOSE ? this.byId[id] : this.loose[id - LOOSE]
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
