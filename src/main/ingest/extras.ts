/**
 * A record's members that the format does not define, kept as their raw JSON text (`RecordScratch.extras`), the
 * same string for the same bytes. A Vulkan capture writes its resources' 1.1 fields (memory requirements, property
 * flags, tiling) this way: 84 000 buffers and textures in a 20 000-frame `gen vulkan` capture, with 15 000 distinct
 * texts. Each member was decoded on its own and joined to the ones before (a string the engine flattens when it is
 * first hashed), and the replay hashed every record's text again to find its parsed fields; now a record's members
 * are hashed as bytes, compared with the texts seen before, and decoded only when new (bench/README.md, "Unknown
 * members interned by their bytes").
 */

const decoder = new TextDecoder('utf-8')
const COMMA = 0x2c
/** Texts kept for comparison; past either bound a new text is decoded and not kept. */
const KEPT_TEXTS = 1 << 16
const KEPT_BYTES = 1 << 24

export class ExtrasText {
  /** The members added since the last `take`: start and end of each in the scanner's buffer. */
  private spans = new Int32Array(16)
  count = 0
  /** The kept texts: the first of a hash, each chained to the next of the same hash (-1: none). */
  private readonly byHash = new Map<number, number>()
  private readonly next: number[] = []
  private readonly at: number[] = []
  private readonly length: number[] = []
  private readonly text: string[] = []
  /** The kept texts' bytes, members joined by commas as the text joins them. */
  private arena = new Uint8Array(1 << 14)
  private used = 0

  /** A member from its key's opening quote to the end of its value. */
  add(start: number, end: number): void {
    const i = this.count * 2
    if (i === this.spans.length) {
      const grown = new Int32Array(i * 2)
      grown.set(this.spans)
      this.spans = grown
    }
    this.spans[i] = start
    this.spans[i + 1] = end
    this.count++
  }

  /** The members added since the last take, as one text (joined by commas), from `buf`; the adds start again. */
  take(buf: Uint8Array): string {
    const spans = this.spans
    const count = this.count
    this.count = 0
    let hash = -2128831035
    let length = 0
    for (let k = 0; k < count; k++) {
      if (k > 0) {
        hash = Math.imul(hash ^ COMMA, 16777619)
        length++
      }
      const end = spans[2 * k + 1]
      for (let i = spans[2 * k]; i < end; i++) hash = Math.imul(hash ^ buf[i], 16777619)
      length += end - spans[2 * k]
    }
    const first = this.byHash.get(hash)
    for (let id = first ?? -1; id >= 0; id = this.next[id]) {
      if (this.length[id] === length && this.same(id, buf, count)) return this.text[id]
    }
    let text = decoder.decode(buf.subarray(spans[0], spans[1]))
    for (let k = 1; k < count; k++) text = `${text},${decoder.decode(buf.subarray(spans[2 * k], spans[2 * k + 1]))}`
    if (this.text.length < KEPT_TEXTS && this.used + length <= KEPT_BYTES) this.keep(hash, first, text, buf, count, length)
    return text
  }

  /** Whether kept text `id` has the bytes of the `count` members in `buf`. */
  private same(id: number, buf: Uint8Array, count: number): boolean {
    const arena = this.arena
    const spans = this.spans
    let a = this.at[id]
    for (let k = 0; k < count; k++) {
      if (k > 0 && arena[a++] !== COMMA) return false
      const end = spans[2 * k + 1]
      for (let i = spans[2 * k]; i < end; i++) if (arena[a++] !== buf[i]) return false
    }
    return true
  }

  private keep(hash: number, first: number | undefined, text: string, buf: Uint8Array, count: number, length: number): void {
    if (this.used + length > this.arena.length) {
      const grown = new Uint8Array(Math.max(this.arena.length * 2, this.used + length))
      grown.set(this.arena.subarray(0, this.used))
      this.arena = grown
    }
    const id = this.text.length
    let a = this.used
    for (let k = 0; k < count; k++) {
      if (k > 0) this.arena[a++] = COMMA
      this.arena.set(buf.subarray(this.spans[2 * k], this.spans[2 * k + 1]), a)
      a += this.spans[2 * k + 1] - this.spans[2 * k]
    }
    this.at.push(this.used)
    this.length.push(length)
    this.text.push(text)
    this.next.push(first ?? -1)
    this.byHash.set(hash, id)
    this.used = a
  }
}
