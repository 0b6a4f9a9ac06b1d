/**
 * The defrag search of the D3D12 model (seed §8.2), indexed so a frame's defrag never walks a family's pools.
 *
 * For each pool family that defragments, kept up to date as pools take, release and free blocks (the model calls
 * `touch`):
 * - the candidates, by slot: pools used under 90 % (RHIPoolAllocator's DefragSizeFraction) with a live block to
 *   move, in a two-level bitset so the rotation finds the next one from any slot in a few word reads;
 * - the targets: every pool not full, ranked by (used bytes, slot) in a treap whose nodes know the largest free
 *   block under them, so "the fullest pool ranked above the source with a free block of this size" is one
 *   descent;
 * - how many pools are used under 90 %, and how many are not full, for the early exits.
 * `defragFrame` is that rule, a frame's turn over the families, asking the model only whether a block may move and to
 * move it. The rule these answer is docs/model.md's (Defrag); tests/unit/main/model/d3d12 keeps the same rule written as
 * plain loops over the pools and checks that both give the same moves.
 */
import type { Bytes, Frame } from '../../../shared/units'
import { BudgetClass, DEFRAG_SIZE_FRACTION } from './families'
import type { PoolFamily } from './families'
import type { BlockTable, MemoryPool } from './memoryPool'

const NONE = -1

/** A pool not full, ranked by (used, slot); `maxFree` is the largest free block in its subtree. */
class Ranked {
  left: Ranked | null = null
  right: Ranked | null = null
  used: Bytes = 0
  slot = 0
  free: Bytes = 0
  maxFree: Bytes = 0

  constructor(
    readonly pool: MemoryPool,
    readonly priority: number,
  ) {}
}

/** (used, slot) of `a` ranks above (used, slot). */
function above(a: Ranked, used: Bytes, slot: number): boolean {
  return a.used > used || (a.used === used && a.slot > slot)
}

function refresh(t: Ranked): void {
  let m = t.free
  if (t.left !== null && t.left.maxFree > m) m = t.left.maxFree
  if (t.right !== null && t.right.maxFree > m) m = t.right.maxFree
  t.maxFree = m
}

function merge(a: Ranked | null, b: Ranked | null): Ranked | null {
  if (a === null) return b
  if (b === null) return a
  if (a.priority > b.priority) {
    a.right = merge(a.right, b)
    refresh(a)
    return a
  }
  b.left = merge(a, b.left)
  refresh(b)
  return b
}

/** What split leaves: the nodes ranked at or below its key, and those above it (no pair allocated per level). */
let splitLow: Ranked | null = null
let splitHigh: Ranked | null = null

/** Split `t` into splitLow (nodes ranked at or below (used, slot)) and splitHigh (nodes above it). */
function split(t: Ranked | null, used: Bytes, slot: number): void {
  if (t === null) {
    splitLow = null
    splitHigh = null
    return
  }
  if (above(t, used, slot)) {
    split(t.left, used, slot)
    t.left = splitHigh
    refresh(t)
    splitHigh = t
    return
  }
  split(t.right, used, slot)
  t.right = splitLow
  refresh(t)
  splitLow = t
}

/** `t` without `n`, found by its rank (n.used, n.slot as it was linked). */
function remove(t: Ranked, n: Ranked): Ranked | null {
  if (t === n) return merge(t.left, t.right)
  if (above(t, n.used, n.slot)) t.left = remove(t.left!, n)
  else t.right = remove(t.right!, n)
  refresh(t)
  return t
}

/** `t` with the unlinked node `n` put in by its rank, where its priority places it. */
function insert(t: Ranked | null, n: Ranked): Ranked {
  if (t === null) return n
  if (n.priority > t.priority) {
    split(t, n.used, n.slot)
    n.left = splitLow
    n.right = splitHigh
    refresh(n)
    return n
  }
  if (above(t, n.used, n.slot)) t.left = insert(t.left, n)
  else t.right = insert(t.right, n)
  refresh(t)
  return t
}

/** `n`'s free block changed, its rank did not: refresh maxFree on the path from `t` down to it. */
function refreshPath(t: Ranked, n: Ranked): void {
  if (t !== n) refreshPath(above(t, n.used, n.slot) ? t.left! : t.right!, n)
  refresh(t)
}

/** The highest-ranked node above (used, slot) with a free block of `size` bytes, or null. */
function fullestFit(t: Ranked | null, used: Bytes, slot: number, size: Bytes): Ranked | null {
  if (t === null || t.maxFree < size) return null
  const right = fullestFit(t.right, used, slot, size)
  if (right !== null) return right
  if (!above(t, used, slot)) return null
  if (t.free >= size) return t
  return fullestFit(t.left, used, slot, size)
}

/** Slots as a bitset with a summary word per 32 words. */
class SlotSet {
  private words = new Uint32Array(1)
  private summary = new Uint32Array(1)

  set(slot: number, on: boolean): void {
    const w = slot >>> 5
    if (w >= this.words.length) {
      if (!on) return
      this.grow(w + 1)
    }
    if (on) this.words[w] |= 1 << (slot & 31)
    else this.words[w] &= ~(1 << (slot & 31))
    const s = w >>> 5
    if (this.words[w] !== 0) this.summary[s] |= 1 << (w & 31)
    else this.summary[s] &= ~(1 << (w & 31))
  }

  /** The first slot ≥ `from` in the set, or NONE. */
  next(from: number): number {
    let w = from >>> 5
    if (w >= this.words.length) return NONE
    const first = this.words[w] & (~0 << (from & 31))
    if (first !== 0) return (w << 5) + lowestBit(first)
    w++
    // whole words from w on, through the summary
    for (let s = w >>> 5; s < this.summary.length; s++) {
      const mask = s === w >>> 5 ? this.summary[s] & (~0 << (w & 31)) : this.summary[s]
      if (mask === 0) continue
      const word = (s << 5) + lowestBit(mask)
      return (word << 5) + lowestBit(this.words[word])
    }
    return NONE
  }

  copy(): SlotSet {
    const c = new SlotSet()
    c.words = this.words.slice()
    c.summary = this.summary.slice()
    return c
  }

  private grow(words: number): void {
    let n = this.words.length
    while (n < words) n *= 2
    const grown = new Uint32Array(n)
    grown.set(this.words)
    this.words = grown
    const summary = new Uint32Array(Math.ceil(n / 32))
    summary.set(this.summary)
    this.summary = summary
  }
}

function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x)
}

/** One family's index. */
export class FamilyDefrag {
  readonly candidates = new SlotSet()
  root: Ranked | null = null
  /** Pools used under 90 %. */
  low = 0
  /** Pools not full (the ranked ones). */
  notFull = 0
  /** Pools whose blocks changed since the index last looked at them. */
  readonly dirty: Entry[] = []

  /** The fullest pool ranked above `pool` with a free block of `size` bytes, or null. */
  fullestFit(pool: MemoryPool, size: Bytes): MemoryPool | null {
    const node = fullestFit(this.root, pool.used, pool.slot, size)
    return node === null ? null : node.pool
  }

  /** Whether any pool not full ranks above `pool`. */
  hasFuller(pool: MemoryPool): boolean {
    let t = this.root
    while (t !== null && t.right !== null) t = t.right
    return t !== null && above(t, pool.used, pool.slot)
  }
}

interface Entry {
  pool: MemoryPool
  family: FamilyDefrag
  /** Its node among the targets; linked only while the pool is not full. */
  node: Ranked
  ranked: boolean
  low: boolean
  dirty: boolean
  live: boolean
}

/**
 * The indexes of every defragmenting family, and which pool belongs to which. A pool's change only marks it (the
 * allocation path pays an array read); the family's index takes the marked pools in when defrag reads it.
 */
export class DefragSearch {
  private readonly families: (FamilyDefrag | null)[]
  /** By pool id (dense). */
  private entries: (Entry | undefined)[] = []
  private seed = 0x9e3779b9

  constructor(families: readonly PoolFamily[]) {
    this.families = families.map((f) => (f.spec.defrag ? new FamilyDefrag() : null))
  }

  /** An index with the same answers over `families`' pools (a model's clone). */
  static rebuild(families: readonly PoolFamily[], blocks: BlockTable): DefragSearch {
    const c = new DefragSearch(families)
    families.forEach((f, i) => {
      if (c.families[i] === null) return
      for (const pool of f.slots) if (pool !== null) c.add(i, pool)
      c.settle(i, blocks)
    })
    return c
  }

  /** Family `index`'s index, up to date with every change so far; null when the family does not defragment. */
  settle(index: number, blocks: BlockTable): FamilyDefrag | null {
    const f = this.families[index]
    if (f === null) return null
    for (const e of f.dirty) {
      e.dirty = false
      if (e.live) this.update(e, blocks)
    }
    f.dirty.length = 0
    return f
  }

  /** A pool of family `index` entered service. */
  add(index: number, pool: MemoryPool): void {
    const family = this.families[index]
    if (family === null) return
    const e: Entry = { pool, family, node: new Ranked(pool, this.random()), ranked: false, low: false, dirty: false, live: true }
    this.entries[pool.id] = e
    this.mark(e)
  }

  /** A pool left service. */
  remove(pool: MemoryPool): void {
    const e = this.entries[pool.id]
    if (e === undefined) return
    this.unrank(e)
    if (e.low) e.family.low--
    e.family.candidates.set(pool.slot, false)
    e.live = false
    this.entries[pool.id] = undefined
  }

  /** A pool's blocks changed (taken, released, freed): the family's index takes it in when next read. */
  touch(pool: MemoryPool): void {
    const e = this.entries[pool.id]
    if (e !== undefined && !e.dirty) this.mark(e)
  }

  private mark(e: Entry): void {
    e.dirty = true
    e.family.dirty.push(e)
  }

  private update(e: Entry, blocks: BlockTable): void {
    const pool = e.pool
    const f = e.family
    const low = pool.used / pool.size < DEFRAG_SIZE_FRACTION
    if (low !== e.low) f.low += low ? 1 : -1
    e.low = low
    f.candidates.set(pool.slot, low && pool.allocatedBlocks > pool.pendingBlocks)
    const free = pool.used < pool.size ? pool.largestFree(blocks) : 0
    const n = e.node
    if (e.ranked && n.used === pool.used && n.slot === pool.slot) {
      // Same rank (so the same place in the treap): only the largest free blocks above it change.
      if (n.free !== free) {
        n.free = free
        refreshPath(f.root!, n)
      }
      return
    }
    this.unrank(e)
    if (pool.used < pool.size) {
      n.used = pool.used
      n.slot = pool.slot
      n.free = free
      n.maxFree = free
      n.left = null
      n.right = null
      f.root = insert(f.root, n)
      e.ranked = true
      f.notFull++
    }
  }

  private unrank(e: Entry): void {
    if (!e.ranked) return
    const n = e.node
    const f = e.family
    f.root = remove(f.root!, n)
    e.ranked = false
    f.notFull--
  }

  /** xorshift32: the treap's shape is deterministic, and answers never depend on it. */
  private random(): number {
    let x = this.seed
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    this.seed = x >>> 0
    return this.seed
  }
}

/** What a frame's defrag asks of the model: its block table, whether a block may move, and the move itself. */
export interface DefragMoves {
  blocks(): BlockTable
  /** An allocated block of a live buffer or texture, not locked (initial data or a move in flight). */
  movable(block: number): boolean
  /** Moves `block` of `pool` into `target`, which has a free block of its size; returns the bytes copied. */
  move(fam: PoolFamily, pool: MemoryPool, target: MemoryPool, block: number, frame: Frame): Bytes
}

/**
 * §8.2: per budget class, each defrag-enabled family clears up to `maxPools` pools, rotating, while the class's
 * copies this frame are under `budget`.
 */
export function defragFrame(
  search: DefragSearch,
  families: readonly PoolFamily[],
  budget: Bytes,
  maxPools: number,
  moves: DefragMoves,
  frame: Frame,
): void {
  for (const cls of [BudgetClass.Buffers, BudgetClass.Textures]) {
    let copied = 0
    for (const fam of families) {
      if (fam.spec.budgetClass !== cls || !fam.spec.defrag) continue
      if (copied >= budget) break
      copied = defragFamily(search, fam, budget, copied, maxPools, moves, frame)
    }
  }
}

/**
 * One family's turn (docs/model.md, Defrag): from the rotation position, the next pool used under 90 % with a
 * live block and a fuller pool to move into is cleared; up to maxPools pools, while under the copy budget. The
 * DefragSearch index answers each step without walking the family's pools.
 */
function defragFamily(
  search: DefragSearch,
  fam: PoolFamily,
  budget: Bytes,
  copied: Bytes,
  maxPools: number,
  moves: DefragMoves,
  frame: Frame,
): Bytes {
  const index = search.settle(fam.spec.index, moves.blocks())
  if (index === null || index.low === 0 || index.notFull < 2) return copied
  if (fam.lastDefragSlot >= fam.slots.length) fam.lastDefragSlot = 0
  let cleared = 0
  const slots = fam.slots
  for (let s = index.candidates.next(fam.lastDefragSlot); s !== NONE && s < slots.length; s = index.candidates.next(s + 1)) {
    const pool = slots[s] as MemoryPool
    if (!index.hasFuller(pool)) continue
    copied = tryClear(search, fam, pool, budget, copied, moves, frame)
    cleared++
    if (copied >= budget || cleared >= maxPools) {
      // 「在池之间轮转」: the next frame starts after the pool just processed.
      fam.lastDefragSlot = s + 1
      return copied
    }
  }
  fam.lastDefragSlot = slots.length
  return copied
}

/**
 * FRHIMemoryPool::TryClear: from the end of the pool backwards, each movable block goes to the fullest pool
 * ranked above this one (by used bytes, then slot, as they are at that moment) with a free block of its size,
 * while the frame's copies are under budget.
 */
function tryClear(
  search: DefragSearch,
  fam: PoolFamily,
  pool: MemoryPool,
  budget: Bytes,
  copied: Bytes,
  moves: DefragMoves,
  frame: Frame,
): Bytes {
  const b = moves.blocks()
  const index = search.settle(fam.spec.index, b) as FamilyDefrag
  let block = pool.tail
  while (block !== NONE && copied < budget) {
    const prev = b.prev[block]
    if (moves.movable(block)) {
      const target = index.fullestFit(pool, b.size[block])
      if (target !== null) copied += moves.move(fam, pool, target, block, frame)
    }
    block = prev
  }
  return copied
}
