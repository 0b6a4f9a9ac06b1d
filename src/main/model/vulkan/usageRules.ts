/**
 * The Vulkan usage rules `heapscope check` counts (docs/vulkan-model.md, "Warnings: the rules `heapscope check`
 * counts"), on what the application allocated, bound, wrote and flushed itself. The model calls them at each such
 * record and keeps no rule logic of its own; its own placements never break them.
 */
import type { Bytes, Frame } from '../../../shared/units'
import { IntervalTree } from '../aliasing/intervals'

/** Reports one broken rule: its kind and a message naming the resource, the memory and the frame. */
export type RuleWarn = (kind: string, message: string) => void

/** alloc-count-exceeded (seed §4.1): a vkAllocateMemory leaves more live allocations than the device allows. */
export function checkAllocationCount(
  live: number,
  max: number,
  allocation: { size: Bytes; kind: string; type: number },
  frame: Frame,
  warn: RuleWarn,
): void {
  if (live <= max) return
  warn(
    'alloc-count-exceeded',
    `vkAllocateMemory of ${allocation.size} bytes (${allocation.kind}, type ${allocation.type}) at frame ${frame}: ` +
      `${live} live allocations, over maxMemoryAllocationCount ${max}`,
  )
}

/** A resource bound to application memory, as the bind rules read it. */
export interface Bind {
  /** Names the resource, the offset, the memory and the frame: the head of each message, made only for one. */
  where: () => string
  offset: Bytes
  size: Bytes
  alignment: Bytes
  /** The alignment is the driver's (memoryRequirements), not an estimate. */
  alignmentKnown: boolean
  /** The resource's memoryTypeBits. */
  typeBits: number
  memoryType: number
  memorySize: Bytes
}

/** bind-misaligned (§6.1), bind-out-of-range (§3.3, §6.1) and bind-memory-type (§3.3), in that order. */
export function checkBind(b: Bind, warn: RuleWarn): void {
  const { offset, size, alignment } = b
  // An estimated alignment is a guess: only the driver's can make a bind wrong.
  if (b.alignmentKnown && offset % alignment !== 0) {
    const rest = offset % alignment
    warn('bind-misaligned', `${b.where()}: not a multiple of its alignment ${alignment} (${offset} % ${alignment} = ${rest})`)
  }
  if (offset < 0 || offset + size > b.memorySize) {
    warn('bind-out-of-range', `${b.where()}: [${offset}, ${offset + size}) ends past the memory's ${b.memorySize} bytes`)
  }
  // §3.3: 「只有这个位掩码中标记的Memory Type，才能跟这个资源绑定」.
  if (((b.typeBits >>> b.memoryType) & 1) === 0) {
    warn('bind-memory-type', `${b.where()}: memory type ${b.memoryType} is not in its memoryTypeBits 0x${b.typeBits.toString(16)}`)
  }
}

/** The resources bound to a memory, as columns indexed by slot. */
export interface BoundColumns {
  readonly offset: Float64Array
  readonly size: Float64Array
  /** 1 for a buffer or a linear image, 0 for an optimal image. */
  readonly linear: Uint8Array
}

interface BoundNode {
  readonly slot: number
  /** Bytes [start, end). */
  readonly start: number
  readonly end: number
  /** Bind order. */
  readonly order: number
  /** Its node in the tree (IntervalTree.add's answer). */
  node: number
}

/**
 * The resources bound to one VkDeviceMemory: in bind order, and by their bytes, so that a bind looks at the
 * resources next to its first and last pages, not at all those bound (an application binds tens of thousands into
 * a few large allocations).
 */
export class BoundRanges {
  /** By slot, in bind order. */
  private readonly nodes = new Map<number, BoundNode>()
  private tree = new IntervalTree<BoundNode>()
  /**
   * Those of no bytes, kept out of the tree and looked at by every bind: the rule's page arithmetic gives such a
   * resource a last byte just before its offset.
   */
  private readonly empty = new Set<BoundNode>()
  private binds = 0

  add(slot: number, offset: Bytes, size: Bytes): void {
    this.insert({ slot, start: offset, end: offset + size, order: this.binds++, node: -1 })
  }

  delete(slot: number): void {
    const n = this.nodes.get(slot)
    if (!n) return
    this.nodes.delete(slot)
    if (n.end > n.start) this.tree.delete(n.node)
    else this.empty.delete(n)
  }

  /** The slots in bind order. */
  slots(): number[] {
    return [...this.nodes.keys()]
  }

  /** A copy: its nodes copied in bind order, its tree linked as this one is. */
  clone(): BoundRanges {
    const c = new BoundRanges()
    for (const n of this.nodes.values()) {
      const copy: BoundNode = { slot: n.slot, start: n.start, end: n.end, order: n.order, node: n.node }
      c.nodes.set(n.slot, copy)
      if (!(n.end > n.start)) c.empty.add(copy)
    }
    const nodes = c.nodes
    c.tree = this.tree.cloneWith((n) => nodes.get(n.slot) as BoundNode)
    c.binds = this.binds
    return c
  }

  /**
   * In bind order, the slots that may share a page of `g` bytes with [offset, end) without sharing a byte: those
   * with bytes in [offset's page start, offset) or in [end, the end of end − 1's page), and those of no bytes.
   */
  neighbours(offset: Bytes, end: Bytes, g: Bytes): number[] {
    // a range that is not one (NaN) bounds no search: every slot, as a walk gives them
    if (!(end >= offset)) return this.slots()
    const found = this.tree.overlapping(Math.floor(offset / g) * g, offset, [])
    this.tree.overlapping(end, (Math.floor((end - 1) / g) + 1) * g, found)
    for (const n of this.empty) found.push(n)
    found.sort((a, b) => a.order - b.order)
    const out: number[] = []
    for (let i = 0; i < found.length; i++) if (i === 0 || found[i] !== found[i - 1]) out.push(found[i].slot)
    return out
  }

  private insert(n: BoundNode): void {
    this.nodes.set(n.slot, n)
    if (n.end > n.start) n.node = this.tree.add(n, n.start, n.end, n.order)
    else this.empty.add(n)
  }
}

/**
 * granularity-conflict (Vulkan spec, Buffer-Image Granularity): a linear resource (a buffer or a linear image)
 * and an optimal image bound to one VkDeviceMemory must not share a page of bufferImageGranularity bytes. Ranges
 * that share bytes alias on purpose and are the aliasing checks' business, not this rule's. `slot` is being
 * bound at [offset, offset + size) of memory `memoryId`, next to the slots of `bound`: of those, only the ones by
 * its first and last pages can share one (BoundRanges.neighbours).
 */
export function checkGranularity(
  granularity: Bytes,
  columns: BoundColumns,
  bound: BoundRanges,
  slot: number,
  offset: Bytes,
  size: Bytes,
  memoryId: number,
  frame: Frame,
  label: (slot: number) => string,
  warn: RuleWarn,
): void {
  const g = granularity
  if (g <= 1) return
  const end = offset + size
  for (const other of bound.neighbours(offset, end, g)) {
    if (columns.linear[other] === columns.linear[slot]) continue
    const o = columns.offset[other]
    const e = o + columns.size[other]
    if (o < end && offset < e) continue
    // The earlier one's last page against the later one's first page.
    const shared =
      e <= offset ? Math.floor((e - 1) / g) === Math.floor(offset / g) : Math.floor((end - 1) / g) === Math.floor(o / g)
    if (!shared) continue
    const mine = `${label(slot)} [${offset}, ${end})`
    const theirs = `${label(other)} [${o}, ${e})`
    warn(
      'granularity-conflict',
      `${e <= offset ? theirs : mine} and ${e <= offset ? mine : theirs} on memory ${memoryId} share a ${g}-byte page ` +
        `(bufferImageGranularity) at frame ${frame}`,
    )
  }
}

/**
 * flush-misaligned (§5.2), its first half: a flush of HOST_VISIBLE, not HOST_COHERENT memory whose range is not
 * aligned to nonCoherentAtomSize. VkMappedMemoryRange: the offset a multiple of the atom; the size a multiple of
 * it or reaching the memory's end.
 */
/** Whether a flush of memory [start, end) is aligned to nonCoherentAtomSize (`atom`): its end may be the memory's. */
export function flushAligned(start: Bytes, end: Bytes, memorySize: Bytes, atom: Bytes): boolean {
  return start % atom === 0 && (end === memorySize || (end - start) % atom === 0)
}

export function checkFlushRange(
  what: string,
  start: Bytes,
  end: Bytes,
  memorySize: Bytes,
  atom: Bytes,
  frame: Frame,
  warn: RuleWarn,
): void {
  if (flushAligned(start, end, memorySize, atom)) return
  warn(
    'flush-misaligned',
    `flush of ${what} at frame ${frame}: memory range [${start}, ${end}) is not aligned to nonCoherentAtomSize ${atom}`,
  )
}

/**
 * flush-misaligned (§5.3), its second half: bytes written to HOST_VISIBLE, not HOST_COHERENT memory that no flush
 * covered before the GPU may read them (the next submit, or the frame's end). Per memory, the written ranges not
 * flushed yet, and the frame of the first. A memory keeps its entry once flushed clean (a streaming buffer is
 * written and flushed every frame), so the common write-then-flush allocates nothing.
 */
interface Unflushed {
  memory: number
  ranges: RangeList
  frame: Frame
  /** When the memory was first written: the order warnings come in. */
  rank: number
}

export class UnflushedWrites {
  private byMemory = new Map<number, Unflushed>()
  /**
   * The entries whose ranges are not empty, each once: a check reads these alone, not every memory ever written
   * (an application can map thousands).
   */
  private dirty: Unflushed[] = []
  private ranks = 0

  /** Memories holding unflushed bytes. */
  get size(): number {
    return this.dirty.length
  }

  written(memory: number, start: Bytes, end: Bytes, frame: Frame): void {
    if (end <= start) return
    let entry = this.byMemory.get(memory)
    if (!entry) {
      entry = { memory, ranges: new RangeList(), frame, rank: this.ranks++ }
      this.byMemory.set(memory, entry)
    }
    if (entry.ranges.length === 0) {
      entry.frame = frame
      this.dirty.push(entry)
    }
    addRange(entry.ranges, start, end)
  }

  flushed(memory: number, start: Bytes, end: Bytes): void {
    const entry = this.byMemory.get(memory)
    if (!entry || entry.ranges.length === 0) return
    removeRange(entry.ranges, start, end)
    if (entry.ranges.length === 0) this.dirty.splice(this.dirty.indexOf(entry), 1)
  }

  /** The memory is freed: what was written to it can no longer be read. */
  forget(memory: number): void {
    const entry = this.byMemory.get(memory)
    if (!entry) return
    if (entry.ranges.length > 0) this.dirty.splice(this.dirty.indexOf(entry), 1)
    this.byMemory.delete(memory)
  }

  /**
   * Warns once for each memory with bytes written and not flushed before `when` (a submit, the end of a frame),
   * in the order the memories were first written, and forgets them. `describe` names a memory and its type.
   */
  check(when: string, atom: Bytes, describe: (memory: number) => string, warn: RuleWarn): void {
    if (this.dirty.length === 0) return
    const dirty = this.dirty.sort((a, b) => a.rank - b.rank)
    for (const entry of dirty) {
      const v = entry.ranges.values
      const ranges = []
      for (let i = 0; i < entry.ranges.length; i += 2) ranges.push(`[${v[i]}, ${v[i + 1]})`)
      warn(
        'flush-misaligned',
        `${describe(entry.memory)}: bytes ${ranges.join(' ')} written at frame ${entry.frame} and not flushed with a range ` +
          `aligned to nonCoherentAtomSize ${atom} before ${when}`,
      )
      entry.ranges.length = 0
    }
    dirty.length = 0
  }

  clone(): UnflushedWrites {
    const c = new UnflushedWrites()
    for (const [memory, entry] of this.byMemory) {
      const copy = { memory, ranges: entry.ranges.clone(), frame: entry.frame, rank: entry.rank }
      c.byMemory.set(memory, copy)
      if (entry.ranges.length > 0) c.dirty.push(copy)
    }
    c.ranks = this.ranks
    return c
  }
}

/**
 * Sorted, disjoint [start, end) pairs: `values[0, length)`. The array only grows: emptied, it keeps its room (an
 * array whose length is set to 0 lets its elements go, and the next push allocates them again).
 */
export class RangeList {
  values: number[] = []
  length = 0

  /** The pairs as an array. */
  toArray(): number[] {
    return this.values.slice(0, this.length)
  }

  clone(): RangeList {
    const c = new RangeList()
    c.values = this.toArray()
    c.length = this.length
    return c
  }
}

/** Put `a, b, c, d` (the first `count` of them: 0, 2 or 4) in place of `values[i, j)`, moving what follows. */
function replacePairs(list: RangeList, i: number, j: number, count: number, a: number, b: number, c: number, d: number): void {
  const v = list.values
  const n = list.length
  const shift = count - (j - i)
  if (shift > 0) {
    while (v.length < n + shift) v.push(0)
    for (let k = n - 1; k >= j; k--) v[k + shift] = v[k]
  } else if (shift < 0) {
    for (let k = j; k < n; k++) v[k + shift] = v[k]
  }
  list.length = n + shift
  if (count > 0) {
    v[i] = a
    v[i + 1] = b
  }
  if (count > 2) {
    v[i + 2] = c
    v[i + 3] = d
  }
}

/** Add [start, end) to the list, merging what touches. */
export function addRange(list: RangeList, start: number, end: number): void {
  if (end <= start) return
  const v = list.values
  const n = list.length
  // the pairs that end before the range stay; those that touch it merge into it
  let i = 0
  while (i < n && v[i + 1] < start) i += 2
  let s = start
  let e = end
  let j = i
  while (j < n && v[j] <= e) {
    if (v[j] < s) s = v[j]
    if (v[j + 1] > e) e = v[j + 1]
    j += 2
  }
  replacePairs(list, i, j, 2, s, e, 0, 0)
}

/** Remove [start, end) from the list. */
export function removeRange(list: RangeList, start: number, end: number): void {
  const n = list.length
  if (end <= start || n === 0) return
  const v = list.values
  let i = 0
  while (i < n && v[i + 1] <= start) i += 2
  let j = i
  while (j < n && v[j] < end) j += 2
  if (i === j) return
  // only the first and the last pair overlapped can keep a piece
  const first = v[i]
  const last = v[j - 1]
  const head = first < start
  const tail = last > end
  if (head && tail) replacePairs(list, i, j, 4, first, start, end, last)
  else if (head) replacePairs(list, i, j, 2, first, start, 0, 0)
  else if (tail) replacePairs(list, i, j, 2, end, last, 0, 0)
  else replacePairs(list, i, j, 0, 0, 0, 0, 0)
}
