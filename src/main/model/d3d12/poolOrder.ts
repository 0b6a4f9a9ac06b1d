/**
 * A pool allocator's allocation order as a list of small blocks: the slots in order, BLOCK at most to a block, each
 * block's entries in a row with their pools' rooms (the largest free block) beside them, and a max-tree (FirstFit)
 * over the blocks' positions whose leaves are each block's largest room. So the first pool in allocation order with
 * room for a request is one descent of the tree and a scan of one block, a room that changes touches its block and
 * the path above it, and re-sorting moves only the pools whose key changed, each a shift within a block: none of
 * them walks the pools. The tree is built again only when a block splits or empties, which a block's BLOCK / 2 free
 * entries make rare.
 *
 * Between two sorts a slot keeps the key it was placed with (the order does not change while pools fill and empty,
 * as UE's array does not); a slot added between sorts goes to the end of the order.
 *
 * The defrag index (defrag.ts) keeps its targets in one too, keyed by used bytes with each pool's largest free block
 * as its room, moved at every change: it reads the last slot with room (`last`) and the largest room after a rank
 * (`roomAfter`).
 */
import { FirstFit, NO_ROOM } from '../firstFit'

/** The key of a slot added between two sorts: after every other. */
export const LAST = Number.POSITIVE_INFINITY

/** Entries a block holds at most: a full block that takes one more splits into two halves. */
const BLOCK = 32
const HALF = BLOCK / 2

export class PoolOrder {
  /** Per slot: its key, its block (-1 while it is not placed) and its index in the block. */
  private key = new Float64Array(0)
  private blockOf = new Int32Array(0)
  private at = new Int32Array(0)
  /** Per block: its slots in order at [b × BLOCK, b × BLOCK + size[b]), their rooms beside them. */
  private entries = new Int32Array(0)
  private rooms = new Float64Array(0)
  private size = new Int32Array(0)
  /** Per block: its largest room, and its position among the blocks in order. */
  private best = new Float64Array(0)
  private position = new Int32Array(0)
  /** The blocks in order, `blocks` of them; blocks not in use, to be taken again. */
  private order = new Int32Array(0)
  private blocks = 0
  private spare: number[] = []
  /** The blocks' largest rooms by position. */
  private index = new FirstFit()

  /** Adds `slot` with `key` (its sort key, or LAST for the end of the order) and `room`. */
  insert(slot: number, key: number, room: number): void {
    this.reserveSlots(slot + 1)
    if (this.blockOf[slot] >= 0) throw new Error(`pool order: slot ${slot} is already placed`)
    this.key[slot] = key
    this.place(slot, room)
  }

  /** Moves `slot` to where `key` puts it. */
  move(slot: number, key: number): void {
    const old = this.key[slot]
    if (old === key) return
    // Still before its next (a larger key) or after its previous (a smaller one): only the key changes (most
    // pools move a little or not at all). The neighbour on the other side stays on its side.
    this.key[slot] = key
    if (key > old) {
      const after = this.next(slot)
      if (after < 0 || this.before(slot, after)) return
    } else {
      const before = this.previous(slot)
      if (before < 0 || this.before(before, slot)) return
    }
    const room = this.rooms[this.blockOf[slot] * BLOCK + this.at[slot]]
    this.unplace(slot)
    this.place(slot, room)
  }

  /** Takes `slot` out of the order (the defrag index's pool that became full or left service). */
  remove(slot: number): void {
    if (slot >= this.blockOf.length || this.blockOf[slot] < 0) throw new Error(`pool order: slot ${slot} is not placed`)
    this.unplace(slot)
  }

  /** Whether `slot` is in the order. */
  has(slot: number): boolean {
    return slot < this.blockOf.length && this.blockOf[slot] >= 0
  }

  /** The slot's room is now `room`: its block's largest room, and the tree's path above it where that changed. */
  setRoom(slot: number, room: number): void {
    const b = this.blockOf[slot]
    const e = b * BLOCK + this.at[slot]
    const rooms = this.rooms
    const old = rooms[e]
    if (old === room) return
    rooms[e] = room
    const best = this.best[b]
    if (room > best) this.setBest(b, room)
    else if (old === best) this.setBest(b, this.largest(b))
  }

  /** The first slot in order whose room is at least `need`, or -1. */
  first(need: number): number {
    const p = this.index.first(need)
    if (p < 0) return -1
    const b = this.order[p]
    const rooms = this.rooms
    const start = b * BLOCK
    const end = start + this.size[b]
    for (let e = start; e < end; e++) if (rooms[e] >= need) return this.entries[e]
    throw new Error('pool order: a block promised room that none of its pools has')
  }

  /** The last slot in order whose room is at least `need`, or -1. */
  last(need: number): number {
    const p = this.index.last(need)
    if (p < 0) return -1
    const b = this.order[p]
    const rooms = this.rooms
    const start = b * BLOCK
    for (let e = start + this.size[b] - 1; e >= start; e--) if (rooms[e] >= need) return this.entries[e]
    throw new Error('pool order: a block promised room that none of its pools has')
  }

  /** The last slot in order, or -1. */
  lastSlot(): number {
    if (this.blocks === 0) return -1
    const b = this.order[this.blocks - 1]
    return this.size[b] === 0 ? -1 : this.entries[b * BLOCK + this.size[b] - 1]
  }

  /** The largest room of the slots after (key, slot) in order; NO_ROOM when none is. */
  roomAfter(key: number, slot: number): number {
    // slots are integers: those after (key, slot) are those from (key, slot + 1) on
    const p = this.blockFrom(key, slot + 1)
    if (p === this.blocks) return NO_ROOM
    const b = this.order[p]
    const start = b * BLOCK
    const end = start + this.size[b]
    let m = NO_ROOM
    for (let e = start + this.indexFrom(b, key, slot + 1); e < end; e++) if (this.rooms[e] > m) m = this.rooms[e]
    const rest = this.index.maxFrom(p + 1)
    return rest > m ? rest : m
  }

  /** The slots in order (for views and tests). */
  slots(): number[] {
    const out: number[] = []
    for (let p = 0; p < this.blocks; p++) {
      const b = this.order[p]
      for (let e = b * BLOCK, end = e + this.size[b]; e < end; e++) out.push(this.entries[e])
    }
    return out
  }

  /**
   * A copy; `packed` (a checkpoint's, only read and cloned): its per-slot arrays cut after the last slot placed, its
   * per-block arrays after the blocks in use (a copy of it grows them again as it needs).
   */
  clone(packed = false): PoolOrder {
    let n = this.blockOf.length
    if (packed) while (n > 0 && this.blockOf[n - 1] < 0) n--
    const blocks = packed ? this.blocks + this.spare.length : this.size.length
    const c = new PoolOrder()
    c.key = this.key.slice(0, n)
    c.blockOf = this.blockOf.slice(0, n)
    c.at = this.at.slice(0, n)
    c.entries = this.entries.slice(0, blocks * BLOCK)
    c.rooms = this.rooms.slice(0, blocks * BLOCK)
    c.size = this.size.slice(0, blocks)
    c.best = this.best.slice(0, blocks)
    c.position = this.position.slice(0, blocks)
    c.order = this.order.slice(0, blocks)
    c.blocks = this.blocks
    c.spare = this.spare.slice()
    c.reindex()
    return c
  }

  /** `a` before `b` in the order: key, then slot. */
  private before(a: number, b: number): boolean {
    return this.beforeKey(a, this.key[b], b)
  }

  /** Slot `a` before (key, slot) in the order. */
  private beforeKey(a: number, key: number, slot: number): boolean {
    const ka = this.key[a]
    return ka < key || (ka === key && a < slot)
  }

  /** The position of the first block whose last slot does not come before (key, slot); `blocks` when every one does. */
  private blockFrom(key: number, slot: number): number {
    let lo = 0
    let hi = this.blocks
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const m = this.order[mid]
      const n = this.size[m]
      if (n === 0 || this.beforeKey(this.entries[m * BLOCK + n - 1], key, slot)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The index in block `b` of its first slot that does not come before (key, slot); its size when none. */
  private indexFrom(b: number, key: number, slot: number): number {
    const base = b * BLOCK
    let i = 0
    for (let top = this.size[b]; i < top; ) {
      const mid = (i + top) >>> 1
      if (this.beforeKey(this.entries[base + mid], key, slot)) i = mid + 1
      else top = mid
    }
    return i
  }

  /** The slot after `slot` in order, or -1. */
  private next(slot: number): number {
    const b = this.blockOf[slot]
    const i = this.at[slot] + 1
    if (i < this.size[b]) return this.entries[b * BLOCK + i]
    const p = this.position[b] + 1
    return p < this.blocks ? this.entries[this.order[p] * BLOCK] : -1
  }

  /** The slot before `slot` in order, or -1. */
  private previous(slot: number): number {
    const b = this.blockOf[slot]
    const i = this.at[slot]
    if (i > 0) return this.entries[b * BLOCK + i - 1]
    const p = this.position[b] - 1
    if (p < 0) return -1
    const a = this.order[p]
    return this.entries[a * BLOCK + this.size[a] - 1]
  }

  /**
   * Puts the unplaced `slot` where its key puts it: in the first block whose last slot does not come before it
   * (the last block when every one does), after the block's slots that come before it.
   */
  private place(slot: number, room: number): void {
    if (this.blocks === 0) {
      const b = this.newBlock()
      this.order[0] = b
      this.position[b] = 0
      this.blocks = 1
      this.reindex()
    }
    const key = this.key[slot]
    let b = this.order[Math.min(this.blockFrom(key, slot), this.blocks - 1)]
    let i = this.indexFrom(b, key, slot)
    let n = this.size[b]
    if (n === BLOCK) {
      const c = this.split(b)
      if (i > HALF) {
        b = c
        i -= HALF
      }
      n = this.size[b]
    }
    const entries = this.entries
    const rooms = this.rooms
    const start = b * BLOCK
    for (let e = start + n; e > start + i; e--) {
      const moved = entries[e - 1]
      entries[e] = moved
      rooms[e] = rooms[e - 1]
      this.at[moved] = e - start
    }
    entries[start + i] = slot
    rooms[start + i] = room
    this.blockOf[slot] = b
    this.at[slot] = i
    this.size[b] = n + 1
    if (room > this.best[b]) this.setBest(b, room)
  }

  /** Takes `slot` out of its block; a block left empty leaves the order (the last one stays). */
  private unplace(slot: number): void {
    const b = this.blockOf[slot]
    const start = b * BLOCK
    const i = this.at[slot]
    const n = this.size[b] - 1
    const entries = this.entries
    const rooms = this.rooms
    const room = rooms[start + i]
    for (let e = start + i; e < start + n; e++) {
      const moved = entries[e + 1]
      entries[e] = moved
      rooms[e] = rooms[e + 1]
      this.at[moved] = e - start
    }
    this.size[b] = n
    this.blockOf[slot] = -1
    if (n === 0 && this.blocks > 1) {
      const p = this.position[b]
      for (let q = p; q < this.blocks - 1; q++) {
        const moved = this.order[q + 1]
        this.order[q] = moved
        this.position[moved] = q
      }
      this.blocks--
      this.best[b] = NO_ROOM
      this.spare.push(b)
      this.reindex()
    } else if (room === this.best[b]) {
      this.setBest(b, this.largest(b))
    }
  }

  /** Moves the upper half of the full block `b` into a new block placed after it; returns the new block. */
  private split(b: number): number {
    const c = this.newBlock()
    const from = b * BLOCK + HALF
    const to = c * BLOCK
    for (let k = 0; k < BLOCK - HALF; k++) {
      const moved = this.entries[from + k]
      this.entries[to + k] = moved
      this.rooms[to + k] = this.rooms[from + k]
      this.blockOf[moved] = c
      this.at[moved] = k
    }
    this.size[b] = HALF
    this.size[c] = BLOCK - HALF
    this.best[b] = this.largest(b)
    this.best[c] = this.largest(c)
    const p = this.position[b] + 1
    for (let q = this.blocks; q > p; q--) {
      const moved = this.order[q - 1]
      this.order[q] = moved
      this.position[moved] = q
    }
    this.order[p] = c
    this.position[c] = p
    this.blocks++
    this.reindex()
    return c
  }

  /** The largest room of block `b`'s slots. */
  private largest(b: number): number {
    let m = NO_ROOM
    for (let e = b * BLOCK, end = e + this.size[b]; e < end; e++) if (this.rooms[e] > m) m = this.rooms[e]
    return m
  }

  private setBest(b: number, room: number): void {
    if (this.best[b] === room) return
    this.best[b] = room
    this.index.set(this.position[b], room)
  }

  /** The tree from the blocks in order (after a block came or went, and in a copy). */
  private reindex(): void {
    const index = this.index
    index.reset(this.blocks)
    for (let p = 0; p < this.blocks; p++) index.setLeaf(p, this.best[this.order[p]])
    index.rebuild()
  }

  /** A block with no entries: a spare one, else the next one (the per-block arrays grown to hold it). */
  private newBlock(): number {
    let b: number
    if (this.spare.length > 0) b = this.spare.pop()!
    else {
      // every block so far is in the order or spare: the next one is new
      b = this.blocks
      if (b >= this.size.length) this.growBlocks(b + 1)
    }
    this.size[b] = 0
    this.best[b] = NO_ROOM
    return b
  }

  /** Room for `n` blocks and as many again. */
  private growBlocks(n: number): void {
    const blocks = Math.max(4, n * 2)
    this.entries = growBy(this.entries, blocks * BLOCK, (k) => new Int32Array(k))
    this.rooms = growBy(this.rooms, blocks * BLOCK, (k) => new Float64Array(k))
    this.size = growBy(this.size, blocks, (k) => new Int32Array(k))
    this.best = growBy(this.best, blocks, (k) => new Float64Array(k))
    this.position = growBy(this.position, blocks, (k) => new Int32Array(k))
    this.order = growBy(this.order, blocks, (k) => new Int32Array(k))
  }

  private reserveSlots(n: number): void {
    if (n <= this.blockOf.length) return
    const size = Math.max(16, n * 2)
    this.key = growBy(this.key, size, (k) => new Float64Array(k))
    this.blockOf = growBy(this.blockOf, size, (k) => new Int32Array(k).fill(-1))
    this.at = growBy(this.at, size, (k) => new Int32Array(k))
  }
}

/** `a` copied into a new array of `n` entries that `make` gives. */
function growBy<T extends Int32Array | Float64Array>(a: T, n: number, make: (k: number) => T): T {
  const g = make(n)
  g.set(a)
  return g
}
