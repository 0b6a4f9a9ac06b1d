/**
 * What each line of `use` ids (a list of resource ids a caller names by number, ingest/useLines.ts) resolved to:
 * the residency objects its ids' resources belong to, each once, in the order first named, with how many of the
 * ids named it. Marking those objects in that order does what marking each id's object in turn does (a second
 * mark of an object in a frame changes nothing; an object the residency manager does not know counts one unknown
 * use per id). A line's objects stay right while none of its ids changed where it lives: every change of an id's
 * resource (created, released, moved to another pool, renamed, its reserved tiles committed) stamps the id with a
 * clock, and a line built before one of its ids' stamps is built again.
 */
import { grown } from '../grown'
import { maxLength } from '../idTable'

/** Ids below this are stamped in a flat table; a line naming another id is never kept. */
export const STAMPED_IDS = 1 << 24

export class UseCache {
  /** Ticks once per change; a line's stamp is the clock when it was built. */
  private clock = 0
  /** Per id below STAMPED_IDS: the clock at its resource's last change (0: none yet). */
  private changedAt = new Float64Array(1024)
  /** The array of ids the kept lines were read from (they are dropped when it changes). */
  private source: Float64Array | null = null
  /** Per line: the clock when it was built, -1 when it is not kept. */
  private builtAt = new Float64Array(0)
  /** Per line: where its ids started in `source`, and how many there were. */
  private fromOf: Int32Array = new Int32Array(0)
  private countOf: Int32Array = new Int32Array(0)
  /** Per line: how many objects. Its objects and their id counts start at the line's `from` (at most one per id). */
  private objectCountOf: Int32Array = new Int32Array(0)
  objects = new Int32Array(0)
  counts = new Int32Array(0)

  /**
   * Resource `id` changed where it lives (made, released, moved, renamed, committed). An id past the stamps' table
   * is named by no kept line (the table grows to a line's ids as it is kept, see covers), and a line kept later is
   * built after the change: it needs no stamp.
   */
  changed(id: number): void {
    // Before the first line nothing is kept: a line built later reads every earlier stamp as older than itself.
    if (this.source === null) return
    if (id >= 0 && id < this.changedAt.length) this.changedAt[id] = ++this.clock
  }

  /**
   * Whether a line whose ids are whole numbers up to `top` can be kept with `live` resources live: the stamps' table
   * grows to cover them, but only as long as an id table for as many live ids may grow (idTable.ts maxLength); a
   * capture whose ids are spread over millions keeps no table of millions of stamps, and builds such lines again.
   */
  covers(top: number, live: number): boolean {
    let n = this.changedAt.length
    if (top < n) return true
    if (top >= maxLength(live) || top >= STAMPED_IDS) return false
    while (n <= top) n *= 2
    this.changedAt = grown(this.changedAt, Math.min(n, STAMPED_IDS))
    return true
  }

  /**
   * How many objects line `line` resolved to, if what was kept of it still holds for `ids[from, from + count)`;
   * -1 when it has to be built again (then build() and keep()).
   */
  objectsOf(line: number, ids: Float64Array, from: number, count: number): number {
    if (ids !== this.source || line >= this.builtAt.length) return -1
    const built = this.builtAt[line]
    if (built < 0 || this.fromOf[line] !== from || this.countOf[line] !== count) return -1
    const changedAt = this.changedAt
    const n = changedAt.length
    // A kept line's ids are all whole numbers below STAMPED_IDS (keep's `stamped`): `| 0` changes none of them.
    for (let k = from; k < from + count; k++) {
      const id = ids[k] | 0
      if (id < n && changedAt[id] > built) return -1
    }
    return this.objectCountOf[line]
  }

  /** Room for line `line` read from `ids`: afterwards `objects` and `counts` hold a place for each of its ids. */
  prepare(line: number, ids: Float64Array): void {
    if (ids !== this.source) {
      this.source = ids
      this.builtAt = new Float64Array(Math.max(64, line + 1)).fill(-1)
      this.fromOf = new Int32Array(this.builtAt.length)
      this.countOf = new Int32Array(this.builtAt.length)
      this.objectCountOf = new Int32Array(this.builtAt.length)
      this.objects = new Int32Array(ids.length)
      this.counts = new Int32Array(ids.length)
    } else if (line >= this.builtAt.length) {
      const n = Math.max(line + 1, 2 * this.builtAt.length)
      this.builtAt = grown(this.builtAt, n, -1)
      this.fromOf = grown(this.fromOf, n)
      this.countOf = grown(this.countOf, n)
      this.objectCountOf = grown(this.objectCountOf, n)
    }
  }

  /**
   * Line `line` (ids[from, from + count)) resolved to `objectCount` objects, written from `from` in `objects` and
   * `counts`; kept only when every id is one the cache stamps (`stamped`).
   */
  keep(line: number, from: number, count: number, objectCount: number, stamped: boolean): void {
    this.builtAt[line] = stamped ? this.clock : -1
    this.fromOf[line] = from
    this.countOf[line] = count
    this.objectCountOf[line] = objectCount
  }
}
