/**
 * A pool allocator's allocation order as a search tree (a treap over the slots, ordered by the key the order was
 * last sorted by, then the slot), each node holding the room of its pool (the largest free block) and the
 * largest room below it. So the first pool in allocation order with room for a request is found in O(log n),
 * and re-sorting moves only the pools whose key changed, each in O(log n): neither walks the pools.
 *
 * Between two sorts a node keeps the key it was placed with (the order does not change while pools fill and
 * empty, as UE's array does not); a slot added between sorts goes to the end of the order.
 */
import { NO_ROOM } from '../firstFit'

/** The key of a slot added between two sorts: after every other. */
export const LAST = Number.POSITIVE_INFINITY

export class PoolOrder {
  private root = -1
  private left = new Int32Array(0)
  private right = new Int32Array(0)
  private parent = new Int32Array(0)
  private priority = new Uint32Array(0)
  private key = new Float64Array(0)
  private room = new Float64Array(0)
  /** The largest room in the node's subtree. */
  private most = new Float64Array(0)
  /** Whether the slot is in the tree. */
  private present = new Uint8Array(0)

  /**
   * Adds `slot` with `key` (its sort key, or LAST for the end of the order) and `room`: down from the root while
   * the nodes outrank it, then the subtree there splits around it. The tree is the one its keys and priorities
   * define (a treap is unique), however it was built.
   */
  insert(slot: number, key: number, room: number): void {
    this.reserve(slot + 1)
    if (this.present[slot] === 1) throw new Error(`pool order: slot ${slot} is already placed`)
    this.present[slot] = 1
    this.key[slot] = key
    this.room[slot] = room
    const priority = mix(slot)
    this.priority[slot] = priority
    let above = -1
    let onLeft = false
    let t = this.root
    while (t >= 0 && this.priority[t] > priority) {
      above = t
      onLeft = this.before(slot, t)
      t = onLeft ? this.left[t] : this.right[t]
    }
    this.split(t, slot)
    this.left[slot] = this.splitLeft
    this.right[slot] = this.splitRight
    this.pull(slot)
    this.parent[slot] = above
    if (above < 0) this.root = slot
    else if (onLeft) this.left[above] = slot
    else this.right[above] = slot
    // The subtrees above gain the slot's room.
    for (let u = above; u >= 0 && this.most[u] < room; u = this.parent[u]) this.most[u] = room
  }

  /** Moves `slot` to where `key` puts it. */
  move(slot: number, key: number): void {
    if (this.key[slot] === key) return
    const old = this.key[slot]
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
    this.key[slot] = old
    const room = this.room[slot]
    this.remove(slot)
    this.insert(slot, key, room)
  }

  /** The slot before `t` in order, or -1. */
  private previous(t: number): number {
    let l = this.left[t]
    if (l >= 0) {
      while (this.right[l] >= 0) l = this.right[l]
      return l
    }
    let p = this.parent[t]
    while (p >= 0 && this.left[p] === t) {
      t = p
      p = this.parent[t]
    }
    return p
  }

  /** The slot after `t` in order, or -1. */
  private next(t: number): number {
    let r = this.right[t]
    if (r >= 0) {
      while (this.left[r] >= 0) r = this.left[r]
      return r
    }
    let p = this.parent[t]
    while (p >= 0 && this.right[p] === t) {
      t = p
      p = this.parent[t]
    }
    return p
  }

  /**
   * The slot's room is now `room`: the largest room of its subtree and of those above it, up to the first whose
   * largest room stays (none above it changes then). The links do not change, so none is written.
   */
  setRoom(slot: number, room: number): void {
    const rooms = this.room
    if (rooms[slot] === room) return
    rooms[slot] = room
    const most = this.most
    const left = this.left
    const right = this.right
    for (let t = slot; t >= 0; t = this.parent[t]) {
      let m = rooms[t]
      const l = left[t]
      const r = right[t]
      if (l >= 0 && most[l] > m) m = most[l]
      if (r >= 0 && most[r] > m) m = most[r]
      if (most[t] === m) return
      most[t] = m
    }
  }

  /** The first slot in order whose room is at least `need`, or -1. */
  first(need: number): number {
    let t = this.root
    if (t < 0 || !(this.most[t] >= need)) return -1
    for (;;) {
      const l = this.left[t]
      if (l >= 0 && this.most[l] >= need) t = l
      else if (this.room[t] >= need) return t
      else t = this.right[t]
      if (t < 0) throw new Error('pool order: a subtree promised room that none of its pools has')
    }
  }

  /** The slots in order (for views and tests). */
  slots(): number[] {
    const out: number[] = []
    const stack: number[] = []
    let t = this.root
    while (t >= 0 || stack.length > 0) {
      while (t >= 0) {
        stack.push(t)
        t = this.left[t]
      }
      t = stack.pop()!
      out.push(t)
      t = this.right[t]
    }
    return out
  }

  /** A copy; `packed` (a checkpoint's, only read and cloned): its arrays cut after the last slot placed. */
  clone(packed = false): PoolOrder {
    let n = this.present.length
    if (packed) while (n > 0 && this.present[n - 1] === 0) n--
    const c = new PoolOrder()
    c.root = this.root
    c.left = this.left.slice(0, n)
    c.right = this.right.slice(0, n)
    c.parent = this.parent.slice(0, n)
    c.priority = this.priority.slice(0, n)
    c.key = this.key.slice(0, n)
    c.room = this.room.slice(0, n)
    c.most = this.most.slice(0, n)
    c.present = this.present.slice(0, n)
    return c
  }

  /** Takes `slot` out: its two subtrees merge in its place, and the subtrees above lose its room. */
  private remove(slot: number): void {
    const above = this.parent[slot]
    const t = this.merge(this.left[slot], this.right[slot])
    if (t >= 0) this.parent[t] = above
    if (above < 0) this.root = t
    else if (this.left[above] === slot) this.left[above] = t
    else this.right[above] = t
    for (let u = above; u >= 0; u = this.parent[u]) {
      const before = this.most[u]
      this.pull(u)
      if (this.most[u] === before) break
    }
    this.present[slot] = 0
  }

  /** `a` before `b` in the order: key, then slot. */
  private before(a: number, b: number): boolean {
    const ka = this.key[a]
    const kb = this.key[b]
    return ka < kb || (ka === kb && a < b)
  }

  private splitLeft = -1
  private splitRight = -1

  /** Splits `t` into the nodes before `slot` (splitLeft) and the others (splitRight). */
  private split(t: number, slot: number): void {
    if (t < 0) {
      this.splitLeft = -1
      this.splitRight = -1
      return
    }
    if (this.before(t, slot)) {
      this.split(this.right[t], slot)
      this.right[t] = this.splitLeft
      this.pull(t)
      this.splitLeft = t
    } else {
      this.split(this.left[t], slot)
      this.left[t] = this.splitRight
      this.pull(t)
      this.splitRight = t
    }
  }

  /** Joins `a` and `b`, every node of `a` before every node of `b`. */
  private merge(a: number, b: number): number {
    if (a < 0) return b
    if (b < 0) return a
    if (this.priority[a] > this.priority[b]) {
      this.right[a] = this.merge(this.right[a], b)
      this.pull(a)
      return a
    }
    this.left[b] = this.merge(a, this.left[b])
    this.pull(b)
    return b
  }

  /** A node's subtree figures from its children, and the children's parent. */
  private pull(t: number): void {
    let most = this.room[t]
    const l = this.left[t]
    const r = this.right[t]
    if (l >= 0) {
      this.parent[l] = t
      if (this.most[l] > most) most = this.most[l]
    }
    if (r >= 0) {
      this.parent[r] = t
      if (this.most[r] > most) most = this.most[r]
    }
    this.most[t] = most
  }

  private reserve(n: number): void {
    if (n <= this.left.length) return
    const size = Math.max(16, n * 2)
    const grow = <T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size)
      b.set(a)
      return b
    }
    this.left = grow(this.left, (k) => new Int32Array(k))
    this.right = grow(this.right, (k) => new Int32Array(k))
    this.parent = grow(this.parent, (k) => new Int32Array(k))
    this.priority = grow(this.priority, (k) => new Uint32Array(k))
    this.key = grow(this.key, (k) => new Float64Array(k))
    this.room = grow(this.room, (k) => new Float64Array(k).fill(NO_ROOM))
    this.most = grow(this.most, (k) => new Float64Array(k).fill(NO_ROOM))
    this.present = grow(this.present, (k) => new Uint8Array(k))
  }
}

/** A slot's priority in the treap: a fixed scramble of its index (murmur3's finalizer), so copies agree. */
function mix(slot: number): number {
  let h = slot + 0x9e3779b9
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}
