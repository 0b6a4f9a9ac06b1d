/**
 * The defrag search of the D3D12 model (seed §8.2), indexed so a frame's defrag never walks a family's pools.
 *
 * For each pool family that defragments, kept up to date as pools take, release and free blocks (the model calls
 * `touch` when a pool's blocks change, `pending` when only its pending blocks do, `moved` after a defrag move):
 * - the candidates, by slot: pools used under 90 % (RHIPoolAllocator's DefragSizeFraction) with a live block to
 *   move, in a two-level bitset so the rotation finds the next one from any slot in a few word reads;
 * - the targets: every pool not full, ranked by (used bytes, slot) in the allocation order's structure (PoolOrder:
 *   small blocks under a max-tree of their largest free blocks), so "the fullest pool ranked above the source with a
 *   free block of this size" is one descent and a block's scan from its end, and so is the room above a pool (no
 *   larger block of it can move);
 * - how many pools are used under 90 %, and how many are not full, for the early exits.
 * A change only marks its pool. A frame's defrag counts the marked pools (the counts and candidates); it ranks them
 * again only when the family has a pool to clear. A new rank that passes no neighbour keeps its place. Each pool
 * also keeps a bound on its smallest allocated block: what its last whole walk found, lowered by each block it took
 * since (a take is told by the growth of its used bytes, which the model reads at every change, so the bound needs
 * no block size from the allocation path); a freed block leaves it a bound. While the room
 * above the pool is below it, a walk would move nothing and is skipped.
 * `defragFrame` is that rule, a frame's turn over the families, asking the model only whether a block may move and
 * to move it. The rule these answer is docs/model.md's (Defrag); tests/unit/main/model/d3d12 keeps the same rule
 * written as plain loops over the pools and checks that both give the same moves, and checks the index's answers
 * against the pools recomputed from scratch.
 */
import type { Bytes, Frame } from '../../../shared/units'
import { BudgetClass, DEFRAG_SIZE_FRACTION } from './families'
import type { PoolFamily } from './families'
import { BlockState } from './memoryPool'
import type { BlockTable, MemoryPool } from './memoryPool'
import { PoolOrder } from './poolOrder'
import { doubleFields } from '../doubles'

const NONE = -1

/** What a change to a pool asks of the index: nothing, a look at its pending blocks, a look at its blocks. */
const CLEAN = 0
const PENDING = 1
const BLOCKS = 2

/**
 * A pool of a defragmenting family as the index knows it. While the pool is not full it is ranked among the
 * targets by (used, slot), with `free`, its largest free block, as its room.
 */
class Ranked {
  used: Bytes = 0
  slot = 0
  free: Bytes = 0
  /** Among the targets (the pool is not full). */
  ranked = false
  /** Used under 90 %, and not full, as last counted. */
  low = false
  notFull = false
  /** Set among its family's candidates. */
  candidate = false
  /** Its rank or free block may have changed since the targets took it in (it is in its family's stale list). */
  stale = false
  /** CLEAN, PENDING or BLOCKS; not CLEAN while the pool is in its family's dirty list. */
  dirty: number = CLEAN
  live = true
  /**
   * At most the smallest allocated block: the last whole walk's smallest, lowered by each block taken since; -1
   * before the first walk.
   */
  smallest: Bytes = -1
  /** The pool's used bytes when last read: a change that raised them took one block of the difference. */
  seenUsed: Bytes = 0

  constructor(
    readonly pool: MemoryPool,
    readonly family: FamilyDefrag,
  ) {
    doubleFields(this, ['used', 'free', 'smallest', 'seenUsed'])
  }
}

/** (used, slot) of `a` ranks above (used, slot). */
function above(a: Ranked, used: Bytes, slot: number): boolean {
  return a.used > used || (a.used === used && a.slot > slot)
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
  /** The targets by (used, slot), each with its largest free block as its room; the ranked entry of each slot. */
  private readonly targets = new PoolOrder()
  private readonly bySlot: (Ranked | undefined)[] = []
  /** Pools used under 90 %. */
  low = 0
  /** Pools not full (the ranked ones, once settled). */
  notFull = 0
  /** Pools changed since the index last counted them. */
  readonly dirty: Ranked[] = []
  /** Pools counted, not yet ranked again. */
  readonly stale: Ranked[] = []

  /** The largest free block of the pool the last fullestFit found, as ranked. */
  fitFree: Bytes = 0

  constructor() {
    doubleFields(this, ['fitFree'])
  }

  /**
   * The fullest pool ranked above `pool` with a free block of `size` bytes, or null: the last one in rank with such
   * a block, when it ranks above `pool` (when it does not, no pool above it has one).
   */
  fullestFit(pool: MemoryPool, size: Bytes): MemoryPool | null {
    const slot = this.targets.last(size)
    if (slot < 0) return null
    const node = this.bySlot[slot]!
    if (!above(node, pool.used, pool.slot)) return null
    this.fitFree = node.free
    return node.pool
  }

  /** Whether any pool not full ranks above `pool`. */
  hasFuller(pool: MemoryPool): boolean {
    const slot = this.targets.lastSlot()
    return slot >= 0 && above(this.bySlot[slot]!, pool.used, pool.slot)
  }

  /** The largest free block of the pools ranked above `pool` (0 when none is): no larger block of it can move. */
  roomAbove(pool: MemoryPool): Bytes {
    const room = this.targets.roomAfter(pool.used, pool.slot)
    return room > 0 ? room : 0
  }

  /** The ranked pools, lowest rank first, with the used bytes and free block each is ranked by (tests). */
  ranked(): { pool: MemoryPool; used: Bytes; slot: number; free: Bytes }[] {
    return this.targets.slots().map((slot) => {
      const n = this.bySlot[slot]!
      return { pool: n.pool, used: n.used, slot: n.slot, free: n.free }
    })
  }

  /** Puts the unranked `n` among the targets by its (used, slot), with its free block. */
  link(n: Ranked): void {
    this.bySlot[n.slot] = n
    this.targets.insert(n.slot, n.used, n.free)
  }

  /** Takes `n` out of the targets. */
  unlink(n: Ranked): void {
    this.targets.remove(n.slot)
    this.bySlot[n.slot] = undefined
  }

  /** `n`'s used bytes are now `used`: it moves to its new rank (keeping its place where it passes no neighbour). */
  rerank(n: Ranked, used: Bytes): void {
    n.used = used
    this.targets.move(n.slot, used)
  }

  /** `n`'s largest free block is now `free`. */
  refree(n: Ranked, free: Bytes): void {
    n.free = free
    this.targets.setRoom(n.slot, free)
  }
}

/** Whether `e`'s pool is among its family's candidates; the bitset is written only when that changes. */
function setCandidate(e: Ranked, on: boolean): void {
  if (on === e.candidate) return
  e.candidate = on
  e.family.candidates.set(e.pool.slot, on)
}

/** `e`'s pool took or freed one block since last read: a block taken (its used bytes grew) lowers its bound. */
function took(e: Ranked): void {
  const used = e.pool.used
  const taken = used - e.seenUsed
  e.seenUsed = used
  if (taken > 0 && taken < e.smallest) e.smallest = taken
}

/**
 * The indexes of every defragmenting family, and which pool belongs to which. A pool's change only marks it (the
 * allocation path pays an array read); the family's index takes the marked pools in when defrag reads it.
 */
export class DefragSearch {
  private readonly families: (FamilyDefrag | null)[]
  /** By pool id (dense). */
  private entries: (Ranked | undefined)[] = []

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

  /**
   * Family `index`'s counts and candidates, up to date with every change so far (not its targets: see settle); null
   * when the family does not defragment.
   */
  counts(index: number): FamilyDefrag | null {
    const f = this.families[index]
    // Most reads find nothing changed since the last: a frame reads a family again for each pool it clears.
    if (f === null || f.dirty.length === 0) return f
    for (const e of f.dirty) {
      const changed = e.dirty
      e.dirty = CLEAN
      if (!e.live) continue
      if (changed === PENDING) {
        this.candidate(e)
        continue
      }
      this.count(e)
      if (!e.stale) {
        e.stale = true
        f.stale.push(e)
      }
    }
    f.dirty.length = 0
    return f
  }

  /** Family `index`'s index, its targets too, up to date with every change so far; null when it does not defragment. */
  settle(index: number, blocks: BlockTable): FamilyDefrag | null {
    const f = this.counts(index)
    if (f === null || f.stale.length === 0) return f
    for (const e of f.stale) {
      e.stale = false
      if (e.live) this.rank(e, blocks)
    }
    f.stale.length = 0
    return f
  }

  /** A pool of family `index` entered service. */
  add(index: number, pool: MemoryPool): void {
    const family = this.families[index]
    if (family === null) return
    const e = new Ranked(pool, family)
    e.seenUsed = pool.used
    this.entries[pool.id] = e
    this.mark(e, BLOCKS)
  }

  /** A pool left service. */
  remove(pool: MemoryPool): void {
    const e = this.entries[pool.id]
    if (e === undefined) return
    this.unrank(e)
    if (e.low) e.family.low--
    if (e.notFull) e.family.notFull--
    setCandidate(e, false)
    e.live = false
    this.entries[pool.id] = undefined
  }

  /**
   * A pool took or freed one block (the model tells each change before the next): the family's index takes it in
   * when next read, and a block taken lowers the pool's bound on its smallest.
   */
  touch(pool: MemoryPool): void {
    const e = this.entries[pool.id]
    if (e === undefined) return
    took(e)
    if (e.dirty !== BLOCKS) this.mark(e, BLOCKS)
  }

  /**
   * Only a pool's pending blocks changed (a release waits for the GPU): its used bytes and free blocks, so its
   * rank and room, stay; only whether it has a live block to move is read again.
   */
  pending(pool: MemoryPool): void {
    const e = this.entries[pool.id]
    if (e !== undefined && e.dirty === CLEAN) this.mark(e, PENDING)
  }

  /**
   * A defrag move from `pool` into `target` (of a family settled before it): the target took a block, the source's
   * block became pending. Both are taken in at once, so the next step of the move's search sees them.
   */
  moved(pool: MemoryPool, target: MemoryPool, blocks: BlockTable): void {
    const t = this.entries[target.id]
    const s = this.entries[pool.id]
    if (t !== undefined) {
      took(t)
      this.count(t)
      this.rank(t, blocks)
    }
    if (s !== undefined) this.candidate(s)
  }

  private mark(e: Ranked, changed: number): void {
    if (e.dirty === CLEAN) e.family.dirty.push(e)
    e.dirty = changed
  }

  /** Whether the pool is a candidate to clear: used under 90 % (as last updated) with a live block. */
  private candidate(e: Ranked): void {
    const pool = e.pool
    setCandidate(e, e.low && pool.allocatedBlocks > pool.pendingBlocks)
  }

  /**
   * At most the smallest allocated block of `pool`: the smallest its last whole walk found, or a block taken since
   * when smaller; -1 before its first walk.
   */
  smallest(pool: MemoryPool): Bytes {
    return this.entries[pool.id]!.smallest
  }

  /** A walk over all of `pool`'s blocks found `smallest` the smallest allocated one. */
  walked(pool: MemoryPool, smallest: Bytes): void {
    this.entries[pool.id]!.smallest = smallest
  }

  /** A pool's blocks changed: whether it is used under 90 %, not full, a candidate. */
  private count(e: Ranked): void {
    const pool = e.pool
    const f = e.family
    const low = pool.used / pool.size < DEFRAG_SIZE_FRACTION
    if (low !== e.low) f.low += low ? 1 : -1
    e.low = low
    const notFull = pool.used < pool.size
    if (notFull !== e.notFull) f.notFull += notFull ? 1 : -1
    e.notFull = notFull
    setCandidate(e, low && pool.allocatedBlocks > pool.pendingBlocks)
  }

  /** A counted pool's place among the targets: linked by (used, slot) with its largest free block while not full. */
  private rank(e: Ranked, blocks: BlockTable): void {
    const pool = e.pool
    const f = e.family
    if (pool.used >= pool.size) {
      this.unrank(e)
      return
    }
    const free = pool.largestFree(blocks)
    if (e.ranked && e.slot === pool.slot) {
      // A new rank keeps the pool's place when it does not pass its neighbour on that side.
      if (e.used !== pool.used) f.rerank(e, pool.used)
      if (e.free !== free) f.refree(e, free)
      return
    }
    this.unrank(e)
    e.used = pool.used
    e.slot = pool.slot
    e.free = free
    f.link(e)
    e.ranked = true
  }

  private unrank(e: Ranked): void {
    if (!e.ranked) return
    e.family.unlink(e)
    e.ranked = false
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

/** The budget classes that defragment, in the order their families take their turns. */
const BUDGET_CLASSES = [BudgetClass.Buffers, BudgetClass.Textures] as const

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
  for (const cls of BUDGET_CLASSES) {
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
  const index = search.counts(fam.spec.index)
  if (index === null || index.low === 0 || index.notFull < 2) return copied
  if (fam.lastDefragSlot >= fam.slots.length) fam.lastDefragSlot = 0
  let cleared = 0
  const slots = fam.slots
  const first = index.candidates.next(fam.lastDefragSlot)
  // The targets are only read (and brought up to date) in a frame with a pool to clear.
  if (first !== NONE && first < slots.length) search.settle(fam.spec.index, moves.blocks())
  for (let s = first; s !== NONE && s < slots.length; s = index.candidates.next(s + 1)) {
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
  // No block larger than the room above the pool can move; moves only fill the pools above, so it only shrinks.
  let room = index.roomAbove(pool)
  // No allocated block is as small as the room: this walk would move nothing.
  if (room < search.smallest(pool)) return copied
  let smallest = Infinity
  let block = pool.tail
  while (block !== NONE && copied < budget) {
    const prev = b.prev[block]
    // A free block's size is not read: it neither moves nor counts for the smallest.
    if (b.state[block] === BlockState.Allocated) {
      const size = b.size[block]
      if (size < smallest) smallest = size
      if (size <= room && moves.movable(block)) {
        const target = index.fullestFit(pool, size)
        if (target !== null) {
          // Only the target's room shrank, and the pools above this one stay the same (the target only rises):
          // the room above changes only when the target held it.
          const held = index.fitFree >= room
          copied += moves.move(fam, pool, target, block, frame)
          if (held) room = index.roomAbove(pool)
        }
      }
    }
    block = prev
  }
  // A move leaves the source's blocks as they were (the old one stays allocated until the GPU is done with it).
  if (block === NONE) search.walked(pool, smallest)
  return copied
}
