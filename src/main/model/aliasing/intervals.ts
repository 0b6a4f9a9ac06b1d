/**
 * A heap's placed resources by their byte ranges, to find those a new one shares bytes with: a treap ordered by
 * start (then by placement), each node holding the largest end below it, so a search descends only where a range
 * can reach the one asked about. Its cost is the depth (logarithmic in the resources, expected) and the overlaps it
 * finds, not the resources of the heap: a sub-allocator places tens of thousands side by side in one heap.
 *
 * The nodes are rows of typed arrays, named by number, each with its parent and the item it stands for. A removal
 * starts from its node, not from a descent: it rotates the node down to a leaf (fewer than two rotations, expected)
 * and corrects the largest ends above it only as far as they change, which for ranges side by side is a level or
 * two. A node as an object cost a heap number for every offset past 2^31 (a large heap's) and a few cache lines;
 * the removal's descent from the root was most of a sub-allocator's replay (bench/README.md, "The aliasing checks'
 * live resources without a Map").
 */

import { grown } from '../grown'

/** No node: an empty child, no parent, an empty tree. */
const NONE = -1

/** A node's priority: a hash of its order, one to one on 32-bit numbers (the same capture builds the same tree). */
const priorityOf = (order: number): number => Math.imul(order + 1, 0x9e3779b1) >>> 0

export class IntervalTree<T> {
  size = 0
  private root = NONE
  /** Each node's bytes [start, end), the largest end of the node and those below it, and its order. */
  private start: Float64Array
  private end: Float64Array
  private maxEnd: Float64Array
  private order: Float64Array
  private left: Int32Array
  private right: Int32Array
  private parent: Int32Array
  private priority: Uint32Array
  private items: (T | null)[] = []
  /** Rows ever used; those a deletion freed are taken again first. */
  private top = 0
  private freeRows: number[] = []

  constructor(capacity = 16) {
    this.start = new Float64Array(capacity)
    this.end = new Float64Array(capacity)
    this.maxEnd = new Float64Array(capacity)
    this.order = new Float64Array(capacity)
    this.left = new Int32Array(capacity)
    this.right = new Int32Array(capacity)
    this.parent = new Int32Array(capacity)
    this.priority = new Uint32Array(capacity)
  }

  /**
   * Adds `item` over bytes [start, end); `order` is unique in the tree: the tie-break after start, and the source
   * of the node's priority. Returns its node, for delete.
   */
  add(item: T, start: number, end: number, order: number): number {
    const n = this.row()
    this.start[n] = start
    this.end[n] = end
    this.maxEnd[n] = end
    this.order[n] = order
    this.left[n] = NONE
    this.right[n] = NONE
    this.priority[n] = priorityOf(order)
    this.items[n] = item
    this.size++
    const left = this.left
    const right = this.right
    const parent = this.parent
    if (this.root === NONE) {
      this.root = n
      parent[n] = NONE
      return n
    }
    // down to a leaf's place, by (start, order)
    for (let at = this.root; ; ) {
      const s = this.start[at]
      if (start < s || (start === s && order < this.order[at])) {
        if (left[at] === NONE) {
          left[at] = n
          parent[n] = at
          break
        }
        at = left[at]
      } else {
        if (right[at] === NONE) {
          right[at] = n
          parent[n] = at
          break
        }
        at = right[at]
      }
    }
    // up while it outranks its parent, then the largest ends above it: they gained a range, so only grow
    const p = this.priority[n]
    while (parent[n] !== NONE && p > this.priority[parent[n]]) this.rotateUp(n)
    this.refresh(n)
    const maxEnd = this.maxEnd
    for (let at = parent[n]; at !== NONE && maxEnd[at] < end; at = parent[at]) maxEnd[at] = end
    return n
  }

  /** Takes out the node `n` (add's answer), which must be in the tree. */
  delete(n: number): void {
    const left = this.left
    const right = this.right
    const parent = this.parent
    // down while it has two children, the higher ranked taking its place (a treap's join)
    let rotated = 0
    while (left[n] !== NONE && right[n] !== NONE) {
      this.rotateUp(this.priority[left[n]] > this.priority[right[n]] ? left[n] : right[n])
      rotated++
    }
    const child = left[n] !== NONE ? left[n] : right[n]
    const above = parent[n]
    if (child !== NONE) parent[child] = above
    this.replaceChild(above, n, child)
    // The largest ends above it, from its parent up: the nodes rotated above it (its parent and up, `rotated` of
    // them) hold their ends from before; past them, a node whose end did not change leaves those above it as they are.
    const maxEnd = this.maxEnd
    for (let at = above, k = 0; at !== NONE; at = parent[at], k++) {
      const was = maxEnd[at]
      this.refresh(at)
      if (k >= rotated && maxEnd[at] === was) break
    }
    this.items[n] = null
    this.freeRows.push(n)
    this.size--
  }

  /**
   * A copy of the tree with each item replaced by `copyOf(item)`: the rows copied as they are, so a copy costs a
   * pass over them, not a descent and the rotations for each node. Its nodes keep their numbers.
   */
  cloneWith(copyOf: (item: T) => T): IntervalTree<T> {
    const c = new IntervalTree<T>(0)
    const rows = this.top
    c.start = this.start.slice(0, rows)
    c.end = this.end.slice(0, rows)
    c.maxEnd = this.maxEnd.slice(0, rows)
    c.order = this.order.slice(0, rows)
    c.left = this.left.slice(0, rows)
    c.right = this.right.slice(0, rows)
    c.parent = this.parent.slice(0, rows)
    c.priority = this.priority.slice(0, rows)
    const items = new Array<T | null>(rows)
    for (let i = 0; i < rows; i++) {
      const item = this.items[i]
      items[i] = item === null || item === undefined ? null : copyOf(item)
    }
    c.items = items
    c.top = rows
    c.freeRows = this.freeRows.slice()
    c.root = this.root
    c.size = this.size
    return c
  }

  /** The items sharing at least one byte with [start, end), into `out`, by start (then order). */
  overlapping(start: number, end: number, out: T[]): T[] {
    if (this.root !== NONE) this.visit(this.root, start, end, out)
    return out
  }

  /** The nodes on the longest path down from the root: what a descent costs at most. */
  height(): number {
    const below = (n: number): number => (n === NONE ? 0 : 1 + Math.max(below(this.left[n]), below(this.right[n])))
    return below(this.root)
  }

  /**
   * What is wrong with the tree's structure, or null: each node after its left subtree and before its right one by
   * (start, order), ranked at least as high as its children, linked to its parent, and holding exactly the largest
   * end below it (an estimate above it would still answer right, but search more). For tests.
   */
  fault(): string | null {
    const seen = { nodes: 0 }
    const check = (n: number, parent: number): string | null => {
      if (n === NONE) return null
      seen.nodes++
      if (this.parent[n] !== parent) return `node ${n}: parent ${this.parent[n]}, linked from ${parent}`
      for (const c of [this.left[n], this.right[n]]) if (c !== NONE && this.priority[c] > this.priority[n]) return `node ${c} outranks its parent ${n}`
      const l = this.left[n]
      const r = this.right[n]
      const before = (a: number, b: number) => this.start[a] < this.start[b] || (this.start[a] === this.start[b] && this.order[a] < this.order[b])
      if (l !== NONE && !before(l, n)) return `node ${l} left of ${n} but not before it`
      if (r !== NONE && before(r, n)) return `node ${r} right of ${n} but before it`
      const below = check(l, n) ?? check(r, n)
      if (below !== null) return below
      const max = Math.max(this.end[n], l === NONE ? -Infinity : this.maxEnd[l], r === NONE ? -Infinity : this.maxEnd[r])
      return this.maxEnd[n] === max ? null : `node ${n}: largest end ${this.maxEnd[n]}, ${max} below it`
    }
    const fault = check(this.root, NONE)
    return fault ?? (seen.nodes === this.size ? null : `${seen.nodes} nodes reached, size ${this.size}`)
  }

  private visit(n: number, start: number, end: number, out: T[]): void {
    // nothing below ends after `start`
    if (this.maxEnd[n] <= start) return
    if (this.left[n] !== NONE) this.visit(this.left[n], start, end, out)
    // the node and everything to its right start at or after `end`
    if (this.start[n] >= end) return
    if (this.end[n] > start) out.push(this.items[n] as T)
    if (this.right[n] !== NONE) this.visit(this.right[n], start, end, out)
  }

  /** `n` in its parent's place, the parent its child on the other side; the parent's largest end again. */
  private rotateUp(n: number): void {
    const left = this.left
    const right = this.right
    const parent = this.parent
    const p = parent[n]
    const g = parent[p]
    if (left[p] === n) {
      const inner = right[n]
      left[p] = inner
      if (inner !== NONE) parent[inner] = p
      right[n] = p
    } else {
      const inner = left[n]
      right[p] = inner
      if (inner !== NONE) parent[inner] = p
      left[n] = p
    }
    parent[p] = n
    parent[n] = g
    this.replaceChild(g, p, n)
    this.refresh(p)
  }

  /** A node's largest end from its own and its children's. */
  private refresh(n: number): void {
    let m = this.end[n]
    const l = this.left[n]
    const r = this.right[n]
    if (l !== NONE && this.maxEnd[l] > m) m = this.maxEnd[l]
    if (r !== NONE && this.maxEnd[r] > m) m = this.maxEnd[r]
    this.maxEnd[n] = m
  }

  /** `to` in the place of `from`, a child of `parent` (the root where `parent` is NONE). */
  private replaceChild(parent: number, from: number, to: number): void {
    if (parent === NONE) this.root = to
    else if (this.left[parent] === from) this.left[parent] = to
    else this.right[parent] = to
  }

  private row(): number {
    if (this.freeRows.length > 0) return this.freeRows.pop()!
    if (this.top === this.start.length) this.grow(Math.max(16, 2 * this.top))
    return this.top++
  }

  private grow(capacity: number): void {
    this.start = grown(this.start, capacity)
    this.end = grown(this.end, capacity)
    this.maxEnd = grown(this.maxEnd, capacity)
    this.order = grown(this.order, capacity)
    this.left = grown(this.left, capacity)
    this.right = grown(this.right, capacity)
    this.parent = grown(this.parent, capacity)
    this.priority = grown(this.priority, capacity)
  }

}
