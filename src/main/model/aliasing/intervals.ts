/**
 * A heap's placed resources by their byte ranges, to find those a new one shares bytes with: a treap ordered by
 * start (then by placement), each node holding the largest end below it, so a search descends only where a range
 * can reach the one asked about. Its cost is the depth (logarithmic in the resources, expected) and the overlaps it
 * finds, not the resources of the heap: a sub-allocator places tens of thousands side by side in one heap.
 */
export interface IntervalNode {
  /** Bytes [start, end). */
  readonly start: number
  readonly end: number
  /** Placement order, unique in its tree: the tie-break after start, and the source of the node's priority. */
  readonly order: number
  left: IntervalNode | null
  right: IntervalNode | null
  /** The largest end of the node and those below it. */
  maxEnd: number
}

/** A node's priority in the treap: a hash of its order (any order spreads; the same capture builds the same tree). */
const priority = (n: IntervalNode): number => Math.imul(n.order + 1, 0x9e3779b1) >>> 0

const before = (a: IntervalNode, b: IntervalNode): boolean => a.start < b.start || (a.start === b.start && a.order < b.order)

function refresh(n: IntervalNode): void {
  let m = n.end
  if (n.left !== null && n.left.maxEnd > m) m = n.left.maxEnd
  if (n.right !== null && n.right.maxEnd > m) m = n.right.maxEnd
  n.maxEnd = m
}

/** The node's left child in its place, the node its right child. */
function rotateRight(n: IntervalNode): IntervalNode {
  const l = n.left as IntervalNode
  n.left = l.right
  l.right = n
  refresh(n)
  refresh(l)
  return l
}

/** The node's right child in its place, the node its left child. */
function rotateLeft(n: IntervalNode): IntervalNode {
  const r = n.right as IntervalNode
  n.right = r.left
  r.left = n
  refresh(n)
  refresh(r)
  return r
}

function insert(root: IntervalNode | null, n: IntervalNode): IntervalNode {
  if (root === null) {
    n.left = n.right = null
    n.maxEnd = n.end
    return n
  }
  if (before(n, root)) {
    root.left = insert(root.left, n)
    if (priority(root.left) > priority(root)) return rotateRight(root)
  } else {
    root.right = insert(root.right, n)
    if (priority(root.right) > priority(root)) return rotateLeft(root)
  }
  refresh(root)
  return root
}

/** Two treaps, every node of `a` before every node of `b`, as one. */
function join(a: IntervalNode | null, b: IntervalNode | null): IntervalNode | null {
  if (a === null) return b
  if (b === null) return a
  if (priority(a) > priority(b)) {
    a.right = join(a.right, b)
    refresh(a)
    return a
  }
  b.left = join(a, b.left)
  refresh(b)
  return b
}

function remove(root: IntervalNode | null, n: IntervalNode): IntervalNode | null {
  if (root === null) return null
  if (root === n) {
    const joined = join(n.left, n.right)
    n.left = n.right = null
    return joined
  }
  if (before(n, root)) root.left = remove(root.left, n)
  else root.right = remove(root.right, n)
  refresh(root)
  return root
}

export class IntervalTree<T extends IntervalNode> {
  private root: IntervalNode | null = null
  size = 0

  add(n: T): void {
    this.root = insert(this.root, n)
    this.size++
  }

  /** Takes out `n`, which must be in the tree. */
  delete(n: T): void {
    this.root = remove(this.root, n)
    this.size--
  }

  /**
   * A copy of the tree with each node replaced by `copyOf(node)`, linked as the original is: no node is inserted
   * again, so a copy costs a visit of each node, not a descent and the rotations for each.
   */
  cloneWith(copyOf: (n: T) => T): IntervalTree<T> {
    const c = new IntervalTree<T>()
    c.root = copyTree(this.root, copyOf as unknown as (n: IntervalNode) => IntervalNode)
    c.size = this.size
    return c
  }

  /** The nodes sharing at least one byte with [start, end), into `out`, by start. */
  overlapping(start: number, end: number, out: T[]): T[] {
    visit(this.root, start, end, out as IntervalNode[])
    return out
  }
}

function copyTree(n: IntervalNode | null, copyOf: (n: IntervalNode) => IntervalNode): IntervalNode | null {
  if (n === null) return null
  const m = copyOf(n)
  m.left = copyTree(n.left, copyOf)
  m.right = copyTree(n.right, copyOf)
  m.maxEnd = n.maxEnd
  return m
}

function visit(n: IntervalNode | null, start: number, end: number, out: IntervalNode[]): void {
  // nothing below ends after `start`
  if (n === null || n.maxEnd <= start) return
  visit(n.left, start, end, out)
  // the node and everything to its right start at or after `end`
  if (n.start >= end) return
  if (n.end > start) out.push(n)
  visit(n.right, start, end, out)
}
