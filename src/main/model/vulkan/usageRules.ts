/**
 * The Vulkan usage rules `heapscope check` counts (docs/vulkan-model.md, "Warnings: the rules `heapscope check`
 * counts"), on what the application allocated, bound, wrote and flushed itself. The model calls them at each such
 * record and keeps no rule logic of its own; its own placements never break them.
 */
import type { Bytes, Frame } from '../../../shared/units'

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
  /** Names the resource, the offset, the memory and the frame: the head of each message. */
  where: string
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
  const { where, offset, size, alignment } = b
  // An estimated alignment is a guess: only the driver's can make a bind wrong.
  if (b.alignmentKnown && offset % alignment !== 0) {
    const rest = offset % alignment
    warn('bind-misaligned', `${where}: not a multiple of its alignment ${alignment} (${offset} % ${alignment} = ${rest})`)
  }
  if (offset < 0 || offset + size > b.memorySize) {
    warn('bind-out-of-range', `${where}: [${offset}, ${offset + size}) ends past the memory's ${b.memorySize} bytes`)
  }
  // §3.3: 「只有这个位掩码中标记的Memory Type，才能跟这个资源绑定」.
  if (((b.typeBits >>> b.memoryType) & 1) === 0) {
    warn('bind-memory-type', `${where}: memory type ${b.memoryType} is not in its memoryTypeBits 0x${b.typeBits.toString(16)}`)
  }
}

/** The resources bound to a memory, as columns indexed by slot. */
export interface BoundColumns {
  readonly offset: Float64Array
  readonly size: Float64Array
  /** 1 for a buffer or a linear image, 0 for an optimal image. */
  readonly linear: Uint8Array
}

/**
 * granularity-conflict (Vulkan spec, Buffer-Image Granularity): a linear resource (a buffer or a linear image)
 * and an optimal image bound to one VkDeviceMemory must not share a page of bufferImageGranularity bytes. Ranges
 * that share bytes alias on purpose and are the aliasing checks' business, not this rule's. `slot` is being
 * bound at [offset, offset + size) of memory `memoryId`, next to the slots of `bound`.
 */
export function checkGranularity(
  granularity: Bytes,
  columns: BoundColumns,
  bound: readonly number[],
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
  for (const other of bound) {
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
 * flushed yet, and the frame of the first.
 */
export class UnflushedWrites {
  private byMemory = new Map<number, { ranges: number[]; frame: Frame }>()

  /** Memories holding unflushed bytes. */
  get size(): number {
    return this.byMemory.size
  }

  written(memory: number, start: Bytes, end: Bytes, frame: Frame): void {
    let dirty = this.byMemory.get(memory)
    if (!dirty) {
      dirty = { ranges: [], frame }
      this.byMemory.set(memory, dirty)
    }
    addRange(dirty.ranges, start, end)
  }

  flushed(memory: number, start: Bytes, end: Bytes): void {
    const dirty = this.byMemory.get(memory)
    if (!dirty) return
    removeRange(dirty.ranges, start, end)
    if (dirty.ranges.length === 0) this.byMemory.delete(memory)
  }

  /** The memory is freed: what was written to it can no longer be read. */
  forget(memory: number): void {
    this.byMemory.delete(memory)
  }

  /**
   * Warns once for each memory with bytes written and not flushed before `when` (a submit, the end of a frame),
   * and forgets them. `describe` names a memory and its type.
   */
  check(when: string, atom: Bytes, describe: (memory: number) => string, warn: RuleWarn): void {
    if (this.byMemory.size === 0) return
    for (const [memory, dirty] of this.byMemory) {
      const ranges = []
      for (let i = 0; i < dirty.ranges.length; i += 2) ranges.push(`[${dirty.ranges[i]}, ${dirty.ranges[i + 1]})`)
      warn(
        'flush-misaligned',
        `${describe(memory)}: bytes ${ranges.join(' ')} written at frame ${dirty.frame} and not flushed with a range ` +
          `aligned to nonCoherentAtomSize ${atom} before ${when}`,
      )
    }
    this.byMemory.clear()
  }

  clone(): UnflushedWrites {
    const c = new UnflushedWrites()
    for (const [memory, dirty] of this.byMemory) c.byMemory.set(memory, { ranges: dirty.ranges.slice(), frame: dirty.frame })
    return c
  }
}

/** Add [start, end) to sorted disjoint pairs, merging what touches. */
export function addRange(pairs: number[], start: number, end: number): void {
  if (end <= start) return
  const out: number[] = []
  let s = start
  let e = end
  let placed = false
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i]
    const b = pairs[i + 1]
    if (b < s) out.push(a, b)
    else if (a > e) {
      if (!placed) {
        out.push(s, e)
        placed = true
      }
      out.push(a, b)
    } else {
      s = Math.min(s, a)
      e = Math.max(e, b)
    }
  }
  if (!placed) out.push(s, e)
  pairs.length = 0
  for (const v of out) pairs.push(v)
}

/** Remove [start, end) from sorted disjoint pairs. */
export function removeRange(pairs: number[], start: number, end: number): void {
  if (end <= start || pairs.length === 0) return
  const out: number[] = []
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i]
    const b = pairs[i + 1]
    if (b <= start || a >= end) out.push(a, b)
    else {
      if (a < start) out.push(a, start)
      if (b > end) out.push(end, b)
    }
  }
  pairs.length = 0
  for (const v of out) pairs.push(v)
}
