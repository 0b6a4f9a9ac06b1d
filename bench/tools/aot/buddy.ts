// AssemblyScript, compiled to WebAssembly by bench/tools/aot.ts: the D3D12 buddy pool of src/main/model/d3d12/buddy.ts
// (seed §5.2) and the same driver as aot.ts's JavaScript one, op for op. Not part of the app: it measures what an
// engine compiled ahead of time would cost against the one V8 compiles as it runs (bench/tools/README.md).

import { Stream } from './stream'

class BuddyPool {
  bits: StaticArray<u32>
  wordStart: StaticArray<i32>
  blockBytes: StaticArray<f64>
  freeCount: StaticArray<i32>
  used: f64 = 0
  allocatedBlocks: i32 = 0

  constructor(
    public minBlock: f64,
    public maxOrder: i32,
  ) {
    const wordStart = new StaticArray<i32>(maxOrder + 2)
    let words = 0
    for (let k = 0; k <= maxOrder; k++) {
      unchecked((wordStart[k] = words))
      words += ((1 << (maxOrder - k)) + 31) >> 5
    }
    unchecked((wordStart[maxOrder + 1] = words))
    const blockBytes = new StaticArray<f64>(maxOrder + 1)
    for (let k = 0; k <= maxOrder; k++) unchecked((blockBytes[k] = minBlock * <f64>(1 << k)))
    this.wordStart = wordStart
    this.blockBytes = blockBytes
    this.bits = new StaticArray<u32>(words)
    this.freeCount = new StaticArray<i32>(maxOrder + 1)
    this.setBit(maxOrder, 0)
    unchecked((this.freeCount[maxOrder] = 1))
  }

  canAllocate(order: i32): bool {
    for (let k = order; k <= this.maxOrder; k++) if (unchecked(this.freeCount[k]) > 0) return true
    return false
  }

  allocate(order: i32): f64 {
    let k = order
    while (k <= this.maxOrder && unchecked(this.freeCount[k]) == 0) k++
    if (k > this.maxOrder) return -1
    let index = this.lowestFree(k)
    this.clearBit(k, index)
    unchecked((this.freeCount[k] = this.freeCount[k] - 1))
    while (k > order) {
      k--
      index *= 2
      this.setBit(k, index + 1)
      unchecked((this.freeCount[k] = this.freeCount[k] + 1))
    }
    const blockBytes = unchecked(this.blockBytes[order])
    this.used += blockBytes
    this.allocatedBlocks++
    return <f64>index * blockBytes
  }

  deallocate(offset: f64, order: i32): void {
    const blockBytes = unchecked(this.blockBytes[order])
    this.used -= blockBytes
    this.allocatedBlocks--
    let k = order
    let index = <i32>(offset / blockBytes)
    while (k < this.maxOrder) {
      const buddy = index ^ 1
      if (!this.testBit(k, buddy)) break
      this.clearBit(k, buddy)
      unchecked((this.freeCount[k] = this.freeCount[k] - 1))
      index >>= 1
      k++
    }
    this.setBit(k, index)
    unchecked((this.freeCount[k] = this.freeCount[k] + 1))
  }

  private lowestFree(order: i32): i32 {
    const start = unchecked(this.wordStart[order])
    const end = unchecked(this.wordStart[order + 1])
    for (let w = start; w < end; w++) {
      const word = unchecked(this.bits[w])
      if (word != 0) return (w - start) * 32 + <i32>ctz(word)
    }
    return -1
  }

  private testBit(order: i32, index: i32): bool {
    return (unchecked(this.bits[unchecked(this.wordStart[order]) + (index >>> 5)]) & (1 << (index & 31))) != 0
  }

  private setBit(order: i32, index: i32): void {
    const w = unchecked(this.wordStart[order]) + (index >>> 5)
    unchecked((this.bits[w] = this.bits[w] | (1 << (index & 31))))
  }

  private clearBit(order: i32, index: i32): void {
    const w = unchecked(this.wordStart[order]) + (index >>> 5)
    unchecked((this.bits[w] = this.bits[w] & ~(1 << (index & 31))))
  }
}

let pools = new Array<BuddyPool>()
let liveOffset = new StaticArray<f64>(1)
let liveOrder = new StaticArray<i32>(1)
let livePool = new StaticArray<i32>(1)
const stream = new Stream()
let minBlock: f64 = 0
let maxOrder = 0
let orders: u32 = 1

/** A fresh run: no pools, no live blocks, the generator at `start`. */
export function reset(block: f64, order: i32, requestOrders: i32, liveTarget: i32, start: u32): void {
  pools = new Array<BuddyPool>()
  liveOffset = new StaticArray<f64>(liveTarget * 2 + 16)
  liveOrder = new StaticArray<i32>(liveTarget * 2 + 16)
  livePool = new StaticArray<i32>(liveTarget * 2 + 16)
  stream.reset(start, liveTarget)
  minBlock = block
  maxOrder = order
  orders = <u32>requestOrders
}

/** `ops` operations: allocate in the first pool with room (a new one when none has), or free a random live block. */
export function run(ops: i32): f64 {
  let sum: f64 = 0
  for (let i = 0; i < ops; i++) {
    if (stream.allocates()) {
      const order = <i32>stream.next(orders)
      let p = 0
      const n = pools.length
      while (p < n && !unchecked(pools[p]).canAllocate(order)) p++
      if (p == n) pools.push(new BuddyPool(minBlock, maxOrder))
      const offset = unchecked(pools[p]).allocate(order)
      unchecked((liveOffset[stream.live] = offset))
      unchecked((liveOrder[stream.live] = order))
      unchecked((livePool[stream.live] = p))
      stream.live++
      sum += offset + <f64>(p * 7)
    } else {
      const j = <i32>stream.next(<u32>stream.live)
      unchecked(pools[unchecked(livePool[j])]).deallocate(unchecked(liveOffset[j]), unchecked(liveOrder[j]))
      const last = --stream.live
      unchecked((liveOffset[j] = liveOffset[last]))
      unchecked((liveOrder[j] = liveOrder[last]))
      unchecked((livePool[j] = livePool[last]))
    }
  }
  return sum
}

/** Pools made so far. */
export function poolCount(): i32 {
  return pools.length
}
