/**
 * A store's extra keys (`CaptureStore.extras`: record index → the record's unknown members as JSON text) read by
 * record index the way a replay asks for them: ascending, now and then jumping to a checkpoint. The store's map
 * keeps its entries in record order (records are stored in order, and a map iterates in insertion order); the
 * cursor mirrors them as a sorted column and walks it, instead of hashing every record's index into a table of
 * tens of thousands of entries. On a 20 000-frame `gen vulkan` capture that hashing cost about 0.3 µs a buffer or
 * texture, most of it waiting on memory (bench/README.md, "Vulkan feed: names left undecoded, extra keys walked").
 */
export class ExtrasCursor {
  private records = new Int32Array(64)
  private texts: string[] = []
  private length = 0
  /** The entries of the store's map not mirrored yet (a followed capture's store grows). */
  private readonly entries: Iterator<[number, string]>
  /** The mirrored entry the walk is at: the first with a record index at or past the last one asked for. */
  private at = 0

  constructor(private readonly extras: Map<number, string>) {
    this.entries = extras.entries()
  }

  /** Whether the map's entries came in record order, as stores keep them; if not, each record is looked up. */
  private ordered = true

  /** The extra keys of record `index`, or undefined. */
  get(index: number): string | undefined {
    if (this.length < this.extras.size) this.mirror()
    if (!this.ordered) return this.extras.get(index)
    const records = this.records
    const length = this.length
    let at = this.at
    if (at > 0 && records[at - 1] >= index) at = this.search(0, at, index)
    else if (at + 8 < length && records[at + 8] < index) at = this.search(at + 8, length, index)
    else while (at < length && records[at] < index) at++
    this.at = at
    return at < length && records[at] === index ? this.texts[at] : undefined
  }

  /** The first position in [from, to) whose record index is at or past `index` (to when none is). */
  private search(from: number, to: number, index: number): number {
    let lo = from
    let hi = to
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.records[mid] < index) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Mirror the entries added since the last call: exactly that many, as an iterator that ran out stays out. */
  private mirror(): void {
    for (let n = this.extras.size - this.length; n > 0; n--) {
      const [record, text] = this.entries.next().value as [number, string]
      if (this.length === this.records.length) {
        const grown = new Int32Array(this.records.length * 2)
        grown.set(this.records)
        this.records = grown
      }
      if (this.length > 0 && record <= this.records[this.length - 1]) this.ordered = false
      this.records[this.length] = record
      this.texts.push(text)
      this.length++
    }
  }
}
