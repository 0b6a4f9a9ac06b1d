/**
 * The placed-resource cache of one transient heap (docs/model.md §6): up to PLACED_RESOURCE_CACHE_SIZE placed
 * resources per kind, keyed by (desc, offset), reused by a later execution that places the same desc at the same
 * offset, trimmed to the most recently used at the end of each execution.
 */
import type { Bytes } from '../../../shared/units'

const NONE = -1

/** Placed resources each heap caches per kind (RHI.TransientAllocator.TextureCacheSize / BufferCacheSize). */
export const PLACED_RESOURCE_CACHE_SIZE = 64

/**
 * The placed resources one heap keeps for one resource kind. A lookup by (desc, offset) goes through a hash table
 * to the chain of entries with that key, in the order they joined (the first idle one is taken); a recency list,
 * least recently used first, says which entries to destroy when the cache is trimmed. Nothing is scanned or
 * sorted whole.
 */
export class PlacedResourceCache {
  desc = new Int32Array(8)
  offset = new Float64Array(8)
  inUse = new Uint8Array(8)
  /** Recency list: the neighbour used before and after each entry. */
  older = new Int32Array(8)
  newer = new Int32Array(8)
  /** Next entry of the same (desc, offset), or NONE; free slots are chained through it too. */
  same = new Int32Array(8)
  leastRecent = NONE
  mostRecent = NONE
  freeSlot = NONE
  /** Slots ever handed out (entries and free slots). */
  slots = 0
  count = 0
  /** Open addressing, linear probing: each cell holds the first entry of a key's chain + 1 (0: empty). */
  table = new Int32Array(16)
  keys = 0

  /** Takes an idle cached resource of this desc at this offset (true), or creates one (false). */
  acquire(desc: number, offset: Bytes): boolean {
    const mask = this.table.length - 1
    let cell = hashKey(desc, offset) & mask
    for (;;) {
      const head = this.table[cell] - 1
      if (head === NONE) break
      if (this.desc[head] === desc && this.offset[head] === offset) {
        let last = head
        for (let e = head; e !== NONE; e = this.same[e]) {
          if (this.inUse[e] === 0) {
            this.inUse[e] = 1
            this.touch(e)
            return true
          }
          last = e
        }
        // create() may grow the columns: read `same` after it.
        const e = this.create(desc, offset)
        this.same[last] = e
        return false
      }
      cell = (cell + 1) & mask
    }
    const e = this.create(desc, offset)
    this.table[cell] = e + 1
    if (++this.keys * 2 > this.table.length) this.rehash(this.table.length * 2)
    return false
  }

  /** End of an execution: every resource is idle again; keeps the `capacity` most recent. Returns evictions. */
  forfeit(capacity: number): number {
    // The entries used by this execution are the most recent ones.
    for (let e = this.mostRecent; e !== NONE && this.inUse[e] === 1; e = this.older[e]) this.inUse[e] = 0
    let evicted = 0
    while (this.count > capacity) {
      this.evict(this.leastRecent)
      evicted++
    }
    return evicted
  }

  clone(): PlacedResourceCache {
    const c = new PlacedResourceCache()
    c.desc = this.desc.slice()
    c.offset = this.offset.slice()
    c.inUse = this.inUse.slice()
    c.older = this.older.slice()
    c.newer = this.newer.slice()
    c.same = this.same.slice()
    c.leastRecent = this.leastRecent
    c.mostRecent = this.mostRecent
    c.freeSlot = this.freeSlot
    c.slots = this.slots
    c.count = this.count
    c.table = this.table.slice()
    c.keys = this.keys
    return c
  }

  /** A new entry, in use, most recent, at the end of no chain yet. */
  private create(desc: number, offset: Bytes): number {
    let e = this.freeSlot
    if (e !== NONE) this.freeSlot = this.same[e]
    else {
      if (this.slots === this.desc.length) this.grow(this.slots * 2)
      e = this.slots++
    }
    this.desc[e] = desc
    this.offset[e] = offset
    this.inUse[e] = 1
    this.same[e] = NONE
    this.older[e] = this.mostRecent
    this.newer[e] = NONE
    if (this.mostRecent !== NONE) this.newer[this.mostRecent] = e
    else this.leastRecent = e
    this.mostRecent = e
    this.count++
    return e
  }

  /** Moves an entry to the most recent end of the recency list. */
  private touch(e: number): void {
    if (e === this.mostRecent) return
    const older = this.older[e]
    const newer = this.newer[e]
    if (older !== NONE) this.newer[older] = newer
    else this.leastRecent = newer
    this.older[newer] = older
    this.older[e] = this.mostRecent
    this.newer[e] = NONE
    this.newer[this.mostRecent] = e
    this.mostRecent = e
  }

  /** Destroys an entry: out of the recency list, out of its key's chain, its slot free. */
  private evict(e: number): void {
    const older = this.older[e]
    const newer = this.newer[e]
    if (older !== NONE) this.newer[older] = newer
    else this.leastRecent = newer
    if (newer !== NONE) this.older[newer] = older
    else this.mostRecent = older

    const mask = this.table.length - 1
    let cell = hashKey(this.desc[e], this.offset[e]) & mask
    while (this.table[cell] - 1 !== NONE) {
      const head = this.table[cell] - 1
      if (this.desc[head] === this.desc[e] && this.offset[head] === this.offset[e]) break
      cell = (cell + 1) & mask
    }
    const head = this.table[cell] - 1
    if (head === e) {
      if (this.same[e] !== NONE) this.table[cell] = this.same[e] + 1
      else this.removeCell(cell)
    } else {
      let before = head
      while (this.same[before] !== e) before = this.same[before]
      this.same[before] = this.same[e]
    }
    this.same[e] = this.freeSlot
    this.freeSlot = e
    this.count--
  }

  /** Empties a cell, moving later cells of its probe run back so every key stays reachable. */
  private removeCell(cell: number): void {
    const table = this.table
    const mask = table.length - 1
    let hole = cell
    let next = (cell + 1) & mask
    while (table[next] !== 0) {
      const head = table[next] - 1
      const home = hashKey(this.desc[head], this.offset[head]) & mask
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      if ((next - home + table.length) % table.length >= (next - hole + table.length) % table.length) {
        table[hole] = table[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    table[hole] = 0
    this.keys--
  }

  private rehash(cells: number): void {
    const old = this.table
    const table = new Int32Array(cells)
    const mask = cells - 1
    for (let c = 0; c < old.length; c++) {
      if (old[c] === 0) continue
      const head = old[c] - 1
      let cell = hashKey(this.desc[head], this.offset[head]) & mask
      while (table[cell] !== 0) cell = (cell + 1) & mask
      table[cell] = old[c]
    }
    this.table = table
  }

  private grow(capacity: number): void {
    const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity)
      b.set(a)
      return b
    }
    this.desc = grow(this.desc, (n) => new Int32Array(n))
    this.offset = grow(this.offset, (n) => new Float64Array(n))
    this.inUse = grow(this.inUse, (n) => new Uint8Array(n))
    this.older = grow(this.older, (n) => new Int32Array(n))
    this.newer = grow(this.newer, (n) => new Int32Array(n))
    this.same = grow(this.same, (n) => new Int32Array(n))
  }
}
/** A hash of (desc, offset) for the cache's table; offsets are integers below 2^53, often multiples of 64 KiB. */
function hashKey(desc: number, offset: number): number {
  const low = offset >>> 0
  const high = (offset / 4294967296) >>> 0
  let h = Math.imul(desc, 0x9e3779b1) ^ Math.imul(low ^ (low >>> 16), 0x85ebca6b) ^ Math.imul(high, 0x27d4eb2f)
  h ^= h >>> 15
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 13)
}
