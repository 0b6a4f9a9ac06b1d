/**
 * A record's members that the format does not define, kept as their raw JSON text (`RecordScratch.extras`), the
 * same string for the same bytes. A Vulkan capture writes its resources' 1.1 fields (memory requirements, property
 * flags, tiling) this way: 84 000 buffers and textures in a 20 000-frame `gen vulkan` capture, with 15 000 distinct
 * texts. Each member was decoded on its own and joined to the ones before (a string the engine flattens when it is
 * first hashed), and the replay hashed every record's text again to find its parsed fields; now a record's members
 * are joined as bytes and interned in a string table of their own, which decodes each distinct text once
 * (bench/README.md, "Unknown members interned by their bytes"). Members side by side, as a writer puts them, are
 * interned where they stand, not copied, and hashed and compared a word at a time (StringTable.internWords).
 */
import type { LoadShare } from './columns'
import { RepeatScore, SAMPLE } from './repeatScore'
import { StringTable } from './strings'

const decoder = new TextDecoder('utf-8')
const COMMA = 0x2c
/** Texts kept; past either bound a text is decoded and not kept. */
const KEPT_TEXTS = 1 << 16
const KEPT_BYTES = 1 << 24

export class ExtrasText {
  /** The members added since the last `take`: start and end of each in the scanner's buffer. */
  private spans = new Int32Array(16)
  count = 0
  private readonly texts = new StringTable()
  /** The texts by their id in `texts`, each decoded once, as it is first kept (here, not in the table's map). */
  private readonly decoded: string[] = ['']
  private keptBytes = 0
  /**
   * Whether texts are found again (repeatScore.ts): cold (texts that never repeat, a callstack id on every
   * resource), one text in SAMPLE is interned and the others decoded and not kept.
   */
  private readonly score = new RepeatScore()
  /** Texts taken while cold, for the one in SAMPLE interned. */
  private coldTakes = 0
  /**
   * Where take returned 0, the text's bytes, `looseBytes[looseStart, looseEnd)`: the scanner's buffer or this table's
   * own, valid until the next take.
   */
  looseBytes: Uint8Array = new Uint8Array(0)
  looseStart = 0
  looseEnd = 0
  /**
   * The members of a record joined by commas, as its text joins them, where they are not already side by side in
   * the line; a word of room after them for internWords.
   */
  private joined = new Uint8Array(256)
  private joinedView = new DataView(this.joined.buffer)

  /** The load's share, for the table's growth (StringTable.share). */
  set share(share: LoadShare | undefined) {
    this.texts.share = share
  }

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

  /**
   * The members added since the last take, as one text (joined by commas), from `buf` (`view` over it, with a word
   * of room past the line); the adds start again. Members one comma apart, as a writer puts them, are the text as
   * they stand in the line, interned from there. Returns the text's number in this table (1 and up, the same for
   * the same text; `text` gives it), by which a replay keeps what it parses of it (RecordExtras); or 0 where the
   * table did not keep it (past its bounds, or cold), its bytes then in `looseBytes`.
   */
  take(buf: Uint8Array, view: DataView): number {
    const spans = this.spans
    const count = this.count
    this.count = 0
    let text = buf
    let textView = view
    let start = spans[0]
    let end = spans[2 * count - 1]
    let k = 1
    while (k < count && spans[2 * k] === spans[2 * k - 1] + 1 && buf[spans[2 * k - 1]] === COMMA) k++
    if (k < count) {
      let length = count - 1
      for (let m = 0; m < count; m++) length += spans[2 * m + 1] - spans[2 * m]
      if (this.joined.length < length + 4) {
        this.joined = new Uint8Array(Math.max(length + 4, this.joined.length * 2))
        this.joinedView = new DataView(this.joined.buffer)
      }
      const joined = this.joined
      let at = 0
      for (let m = 0; m < count; m++) {
        if (m > 0) joined[at++] = COMMA
        for (let i = spans[2 * m]; i < spans[2 * m + 1]; i++) joined[at++] = buf[i]
      }
      text = joined
      textView = this.joinedView
      start = 0
      end = length
    }
    if (this.texts.size > KEPT_TEXTS || this.keptBytes > KEPT_BYTES || (this.score.cold && ++this.coldTakes % SAMPLE !== 0)) {
      this.looseBytes = text
      this.looseStart = start
      this.looseEnd = end
      return 0
    }
    const length = end - start
    const before = this.texts.size
    const id = this.texts.internWords(text, textView, start, end)
    if (this.texts.size > before) {
      this.keptBytes += length
      this.decoded.push(decoder.decode(this.texts.bytes(id)))
      this.score.missed()
    } else this.score.found()
    return id
  }

  /** The text of number `id` (take). */
  text(id: number): string {
    return this.decoded[id]
  }
}
