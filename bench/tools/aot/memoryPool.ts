// AssemblyScript, compiled to WebAssembly by bench/tools/aot.ts: the placed-resource pool of
// src/main/model/d3d12/memoryPool.ts (FRHIMemoryPool, seed §3.4: blocks in offset order, free blocks sorted by size
// for best fit) and the same driver as aot.ts's JavaScript one, op for op. What the model's pool does for a replay
// only: no copies for checkpoints, no watcher. Not part of the app (bench/tools/README.md).

import { Stream } from './stream'

const NONE: i32 = -1
const FREE: u8 = 0
const ALLOCATED: u8 = 1

/** A copy of `column` with room for `n` entries. */
function grown<T extends ArrayBufferView>(column: T, n: i32): T {
  const copy = instantiate<T>(n)
  // @ts-ignore: asc compiles a copy for each kind of column, every one of which has set()
  copy.set(column)
  return copy
}

/** Every pool's blocks, a column each, as the model keeps them. */
class BlockTable {
  offset: Float64Array = new Float64Array(256)
  size: Float64Array = new Float64Array(256)
  prev: Int32Array = new Int32Array(256)
  next: Int32Array = new Int32Array(256)
  state: Uint8Array = new Uint8Array(256)
  owner: Int32Array = new Int32Array(256)
  count: i32 = 0
  freeSlots: Int32Array = new Int32Array(256)
  freeSlotCount: i32 = 0

  alloc(): i32 {
    if (this.freeSlotCount > 0) return unchecked(this.freeSlots[--this.freeSlotCount])
    if (this.count == this.offset.length) this.grow()
    return this.count++
  }

  release(b: i32): void {
    unchecked((this.owner[b] = NONE))
    unchecked((this.state[b] = FREE))
    if (this.freeSlotCount == this.freeSlots.length) this.freeSlots = grown(this.freeSlots, this.freeSlots.length * 2)
    unchecked((this.freeSlots[this.freeSlotCount++] = b))
  }

  private grow(): void {
    const n = this.offset.length * 2
    this.offset = grown(this.offset, n)
    this.size = grown(this.size, n)
    this.prev = grown(this.prev, n)
    this.next = grown(this.next, n)
    this.state = grown(this.state, n)
    this.owner = grown(this.owner, n)
  }
}

/** One pool, best fit: its free blocks sorted by (size, offset). */
class MemoryPool {
  head: i32 = NONE
  tail: i32 = NONE
  free: Int32Array = new Int32Array(8)
  freeSize: Float64Array = new Float64Array(8)
  freeOffset: Float64Array = new Float64Array(8)
  freeCount: i32 = 0
  used: f64 = 0
  allocatedBlocks: i32 = 0
  allocatedOffset: f64 = 0

  constructor(
    public size: f64,
    blocks: BlockTable,
  ) {
    const b = blocks.alloc()
    unchecked((blocks.offset[b] = 0))
    unchecked((blocks.size[b] = size))
    unchecked((blocks.prev[b] = NONE))
    unchecked((blocks.next[b] = NONE))
    unchecked((blocks.state[b] = FREE))
    unchecked((blocks.owner[b] = NONE))
    this.head = b
    this.tail = b
    unchecked((this.free[0] = b))
    unchecked((this.freeSize[0] = size))
    unchecked((this.freeOffset[0] = 0))
    this.freeCount = 1
  }

  tryAllocate(blocks: BlockTable, size: f64, owner: i32): i32 {
    if (this.size - this.used < size || this.freeCount == 0) return NONE
    const count = this.freeCount
    const sizes = this.freeSize
    let i = 0
    let hi = count
    while (i < hi) {
      const mid = (i + hi) >>> 1
      if (unchecked(sizes[mid]) < size) i = mid + 1
      else hi = mid
    }
    if (i == count) return NONE
    const b = unchecked(this.free[i])
    const offset = unchecked(this.freeOffset[i])
    const rest = unchecked(sizes[i]) - size
    if (rest > 0) {
      const r = blocks.alloc()
      unchecked((blocks.offset[r] = offset + size))
      unchecked((blocks.size[r] = rest))
      unchecked((blocks.state[r] = FREE))
      unchecked((blocks.owner[r] = NONE))
      const after = unchecked(blocks.next[b])
      unchecked((blocks.prev[r] = b))
      unchecked((blocks.next[r] = after))
      if (after != NONE) unchecked((blocks.prev[after] = r))
      else this.tail = r
      unchecked((blocks.next[b] = r))
      unchecked((blocks.size[b] = size))
      this.rekey(i, r, rest, offset + size)
    } else {
      this.removeFreeAt(i)
    }
    unchecked((blocks.state[b] = ALLOCATED))
    unchecked((blocks.owner[b] = owner))
    this.allocatedOffset = offset
    this.used += size
    this.allocatedBlocks++
    return b
  }

  deallocate(blocks: BlockTable, block: i32): void {
    const size = unchecked(blocks.size[block])
    this.used -= size
    this.allocatedBlocks--
    unchecked((blocks.state[block] = FREE))
    unchecked((blocks.owner[block] = NONE))
    const p = unchecked(blocks.prev[block])
    const n = unchecked(blocks.next[block])
    const joinsPrev = p != NONE && unchecked(blocks.state[p]) == FREE
    const joinsNext = n != NONE && unchecked(blocks.state[n]) == FREE
    let b = block
    let offset = joinsPrev ? 0 : unchecked(blocks.offset[block])
    let merged = size
    let entry = -1
    if (joinsPrev) {
      entry = this.indexOf(blocks, p)
      offset = unchecked(this.freeOffset[entry])
      merged += unchecked(this.freeSize[entry])
      unchecked((blocks.size[p] = merged))
      this.unlink(blocks, block)
      blocks.release(block)
      b = p
    }
    if (joinsNext) {
      const i = this.indexOf(blocks, n)
      merged += unchecked(this.freeSize[i])
      unchecked((blocks.size[b] = merged))
      this.unlink(blocks, n)
      blocks.release(n)
      if (entry < 0) entry = i
      else {
        this.removeFreeAt(i)
        if (i < entry) entry--
      }
    }
    if (entry < 0) this.insertFree(b, merged, offset)
    else this.rekey(entry, b, merged, offset)
  }

  private unlink(blocks: BlockTable, b: i32): void {
    const p = unchecked(blocks.prev[b])
    const n = unchecked(blocks.next[b])
    if (p != NONE) unchecked((blocks.next[p] = n))
    else this.head = n
    if (n != NONE) unchecked((blocks.prev[n] = p))
    else this.tail = p
  }

  private indexOf(blocks: BlockTable, b: i32): i32 {
    const count = this.freeCount
    let i = 0
    if (count <= 32) {
      while (i < count && unchecked(this.free[i]) != b) i++
    } else {
      i = this.lowerBound(0, count, unchecked(blocks.size[b]), unchecked(blocks.offset[b]))
    }
    if (i == count || unchecked(this.free[i]) != b) abort()
    return i
  }

  private lowerBound(lo: i32, hi: i32, size: f64, offset: f64): i32 {
    const sizes = this.freeSize
    const offsets = this.freeOffset
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const ms = unchecked(sizes[mid])
      if (ms < size || (ms == size && unchecked(offsets[mid]) < offset)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private insertFree(b: i32, size: f64, offset: f64): void {
    const count = this.freeCount
    if (count == this.free.length) this.growFree()
    const i = this.lowerBound(0, count, size, offset)
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    for (let k = count; k > i; k--) {
      unchecked((free[k] = free[k - 1]))
      unchecked((sizes[k] = sizes[k - 1]))
      unchecked((offsets[k] = offsets[k - 1]))
    }
    unchecked((free[i] = b))
    unchecked((sizes[i] = size))
    unchecked((offsets[i] = offset))
    this.freeCount = count + 1
  }

  private rekey(i: i32, b: i32, size: f64, offset: f64): void {
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    let k = i
    if (k > 0 && this.keyBelow(size, offset, k - 1)) {
      const j = this.lowerBound(0, i, size, offset)
      for (; k > j; k--) {
        unchecked((free[k] = free[k - 1]))
        unchecked((sizes[k] = sizes[k - 1]))
        unchecked((offsets[k] = offsets[k - 1]))
      }
    } else if (k + 1 < this.freeCount && !this.keyBelow(size, offset, k + 1)) {
      const j = this.lowerBound(i + 1, this.freeCount, size, offset) - 1
      for (; k < j; k++) {
        unchecked((free[k] = free[k + 1]))
        unchecked((sizes[k] = sizes[k + 1]))
        unchecked((offsets[k] = offsets[k + 1]))
      }
    }
    unchecked((free[k] = b))
    unchecked((sizes[k] = size))
    unchecked((offsets[k] = offset))
  }

  private keyBelow(size: f64, offset: f64, k: i32): bool {
    const ks = unchecked(this.freeSize[k])
    return size < ks || (size == ks && offset < unchecked(this.freeOffset[k]))
  }

  private removeFreeAt(i: i32): void {
    const count = this.freeCount - 1
    const free = this.free
    const sizes = this.freeSize
    const offsets = this.freeOffset
    for (let k = i; k < count; k++) {
      unchecked((free[k] = free[k + 1]))
      unchecked((sizes[k] = sizes[k + 1]))
      unchecked((offsets[k] = offsets[k + 1]))
    }
    this.freeCount = count
  }

  private growFree(): void {
    const n = this.free.length * 2
    this.free = grown(this.free, n)
    this.freeSize = grown(this.freeSize, n)
    this.freeOffset = grown(this.freeOffset, n)
  }
}

let blocks = new BlockTable()
let pools = new Array<MemoryPool>()
let liveBlock = new Int32Array(1)
let livePool = new Int32Array(1)
const stream = new Stream()
let unit: f64 = 0
let poolSize: f64 = 0
let units: u32 = 1

/** A fresh run: no pools, no live blocks, the generator at `start`. */
export function reset(unitBytes: f64, poolBytes: f64, requestUnits: i32, liveTarget: i32, start: u32): void {
  blocks = new BlockTable()
  pools = new Array<MemoryPool>()
  liveBlock = new Int32Array(liveTarget * 2 + 16)
  livePool = new Int32Array(liveTarget * 2 + 16)
  stream.reset(start, liveTarget)
  unit = unitBytes
  poolSize = poolBytes
  units = <u32>requestUnits
}

/** `ops` operations: allocate in the first pool that takes the request (a new one when none does), or free a random live block. */
export function run(ops: i32): f64 {
  let sum: f64 = 0
  for (let i = 0; i < ops; i++) {
    if (stream.allocates()) {
      const size = <f64>(stream.next(units) + 1) * unit
      let p = 0
      let b = NONE
      const n = pools.length
      while (p < n) {
        b = unchecked(pools[p]).tryAllocate(blocks, size, stream.live)
        if (b != NONE) break
        p++
      }
      if (p == n) {
        pools.push(new MemoryPool(poolSize, blocks))
        b = unchecked(pools[p]).tryAllocate(blocks, size, stream.live)
      }
      unchecked((liveBlock[stream.live] = b))
      unchecked((livePool[stream.live] = p))
      stream.live++
      sum += unchecked(pools[p]).allocatedOffset + <f64>(p * 7)
    } else {
      const j = <i32>stream.next(<u32>stream.live)
      unchecked(pools[unchecked(livePool[j])]).deallocate(blocks, unchecked(liveBlock[j]))
      const last = --stream.live
      unchecked((liveBlock[j] = liveBlock[last]))
      unchecked((livePool[j] = livePool[last]))
    }
  }
  return sum
}
