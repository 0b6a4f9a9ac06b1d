/**
 * The index behind "the first pool (or block) in the allocator's order with room": a max-tree over the positions
 * of that order, each leaf the room of the pool there (its largest free block, or its largest free buddy order),
 * so the leftmost position with room for a request is found in O(log n) instead of asking every pool in turn.
 * The answer is the one the linear walk gives: the same first position.
 */
export class FirstFit {
  /** Leaves: a power of two at least the positions in use. */
  private leaves = 1
  /** Heap layout: node k's children are 2k and 2k + 1, leaf i is node leaves + i; NO_ROOM where nothing fits. */
  private room = new Float64Array(2).fill(NO_ROOM)

  /** Room for `n` positions, all without room. */
  reset(n: number): void {
    let leaves = 1
    while (leaves < n) leaves *= 2
    if (leaves * 2 > this.room.length) this.room = new Float64Array(leaves * 2)
    this.leaves = leaves
    this.room.fill(NO_ROOM, 0, leaves * 2)
  }

  /** Positions the tree holds now. */
  get capacity(): number {
    return this.leaves
  }

  /** Sets a leaf without updating the nodes above it (then `rebuild`). */
  setLeaf(position: number, room: number): void {
    this.room[this.leaves + position] = room
  }

  /** The inner nodes from the leaves. */
  rebuild(): void {
    const r = this.room
    for (let k = this.leaves - 1; k >= 1; k--) r[k] = r[2 * k] >= r[2 * k + 1] ? r[2 * k] : r[2 * k + 1]
  }

  set(position: number, room: number): void {
    const r = this.room
    let k = this.leaves + position
    r[k] = room
    for (k >>= 1; k >= 1; k >>= 1) {
      const max = r[2 * k] >= r[2 * k + 1] ? r[2 * k] : r[2 * k + 1]
      if (r[k] === max) break
      r[k] = max
    }
  }

  /** The leftmost position from `start` on whose room is at least `need`, or -1. */
  firstFrom(start: number, need: number): number {
    const r = this.room
    if (start >= this.leaves) return -1
    let k = this.leaves + Math.max(0, start)
    if (!(r[k] >= need)) {
      // Up while a right child, then over to the right sibling, until a subtree has room (or none is left).
      for (;;) {
        while ((k & 1) === 1) k >>= 1
        if (k === 0) return -1
        k++
        if (r[k] >= need) break
      }
    }
    while (k < this.leaves) k = r[2 * k] >= need ? 2 * k : 2 * k + 1
    return k - this.leaves
  }

  /** The leftmost position whose room is at least `need`, or -1. */
  first(need: number): number {
    const r = this.room
    if (!(r[1] >= need)) return -1
    let k = 1
    while (k < this.leaves) k = r[2 * k] >= need ? 2 * k : 2 * k + 1
    return k - this.leaves
  }

  /** The rightmost position whose room is at least `need`, or -1. */
  last(need: number): number {
    const r = this.room
    if (!(r[1] >= need)) return -1
    let k = 1
    while (k < this.leaves) k = r[2 * k + 1] >= need ? 2 * k + 1 : 2 * k
    return k - this.leaves
  }

  /** The largest room from `position` on (NO_ROOM when none is): up from its leaf, each right sibling's subtree. */
  maxFrom(position: number): number {
    if (position >= this.leaves) return NO_ROOM
    const r = this.room
    let k = this.leaves + Math.max(0, position)
    let m = r[k]
    for (; k > 1; k >>= 1) if ((k & 1) === 0 && r[k + 1] > m) m = r[k + 1]
    return m
  }
}

/** A leaf's room when no request fits (no pool there, or no free block). */
export const NO_ROOM = -1
