/**
 * The Vulkan allocator model, as seeds/vulkan-memory-management.zh.txt lays a renderer's memory out
 * (docs/vulkan-model.md restates each rule with its section): memory types chosen from memoryTypeBits and
 * property flags, long-lived resources sub-allocated from large blocks (free list, best fit; buddy for
 * textures as an option), large ones in their own VkDeviceMemory, dynamic uniform data bumped through per-frame
 * linear blocks, uploads through a staging ring, releases deferred until the GPU finished their frame. It also
 * follows what the application bound, mapped and wrote itself, for the usage rules of usageRules.ts.
 * Pure and deterministic: the same records, device and config give the same placements.
 */
import { roundUp, roundUpPow2, type Bytes, type Frame } from '../../../shared/units'
import {
  type FrameRecord,
  type GpuRecord,
  type LockRecord,
  type ReleaseRecord,
  type SubmitRecord,
  type UploadRecord,
} from '../../../shared/capture'
import {
  DEVICE_LOCAL,
  HOST_CACHED,
  HOST_COHERENT,
  HOST_VISIBLE,
  type BindRecord,
  type FlushRecord,
  type MapRecord,
  type UnmapRecord,
  type VulkanBudgetRecord,
  type VulkanBufferRecord,
  type VulkanCaptureRecord,
  type VulkanDeviceInfo,
  type VulkanHeapRecord,
  type VulkanPlacedRecord,
  type VulkanTextureRecord,
  type WriteRecord,
} from './captureTypes'
import { TEXTURE_ALLOCATOR_BUDDY, defaultVulkanConfig, type VulkanConfig } from './config'
import { BuddyBlock } from './buddy'
import { FirstFit } from '../firstFit'
import { grown } from '../grown'
import { IdTable } from '../idTable'
import { FreeListBlock } from './freeList'
import { LinearArena } from './linear'
import { MemoryTypeSelector } from './memoryType'
import { bufferNeeds, emptyNeeds, textureNeeds, UNIFORM_ALIGNMENT, usageMask, USAGE_VOLATILE, type ResourceNeeds } from './requirements'
import { StagingRing } from './stagingRing'
import { BoundRanges, checkAllocationCount, checkBind, checkFlushRange, checkGranularity, flushAligned, UnflushedWrites, type RuleWarn } from './usageRules'
import {
  VULKAN_PLACEMENTS,
  type VulkanMemoryInfo,
  type VulkanMemoryKind,
  type VulkanPlacement,
  type VulkanPlacementInfo,
  type VulkanSink,
} from './events'
import {
  emptyTotals,
  type AllocationView,
  type HeapView,
  type MemoryLayout,
  type MemoryView,
  type TypeView,
  type VulkanMemoryView,
} from './view'

/** The segments a new free-list block has room for before its columns grow (33 bytes each). */
const BLOCK_SEGMENTS = 256

const P_DEDICATED = VULKAN_PLACEMENTS.indexOf('Dedicated')
const P_FREE_LIST = VULKAN_PLACEMENTS.indexOf('FreeList')
const P_BUDDY = VULKAN_PLACEMENTS.indexOf('Buddy')
const P_LINEAR = VULKAN_PLACEMENTS.indexOf('Linear')
const P_BOUND = VULKAN_PLACEMENTS.indexOf('Bound')

/** Slot states. */
const S_EMPTY = 0
const S_LIVE = 1
const S_PENDING = 2
/** An `explicit` resource not bound (yet, or any more). */
const S_UNBOUND = 3

const KIND_BUFFER = 0
const KIND_TEXTURE = 1

class MemoryState {
  used: Bytes = 0
  freeList: FreeListBlock | null = null
  buddy: BuddyBlock | null = null
  /** Dedicated: the slot it holds. */
  owner = -1
  /** Application memory: slots bound to it. */
  bound = new BoundRanges()
  mapEnd: Bytes = -1
  /** A free-list block's index in its type's list, as the block index last saw it (-1: not there). */
  position = -1

  constructor(
    readonly memory: number,
    readonly kind: VulkanMemoryKind,
    readonly type: number,
    readonly heap: number,
    readonly size: Bytes,
    readonly captureId: number,
  ) {}

  /** A copy; `checkpoint`: its free list with no room to grow, as a checkpoint keeps it. */
  clone(checkpoint = false): MemoryState {
    const c = new MemoryState(this.memory, this.kind, this.type, this.heap, this.size, this.captureId)
    c.used = this.used
    c.freeList = this.freeList ? this.freeList.clone(checkpoint) : null
    c.buddy = this.buddy ? this.buddy.clone() : null
    c.owner = this.owner
    c.bound = this.bound.clone()
    c.mapEnd = this.mapEnd
    c.position = this.position
    return c
  }
}

/** The live resources as liveColumns() gives them: row i of every column is one resource. */
export interface LiveColumns {
  count: number
  id: Float64Array
  offset: Float64Array
  size: Float64Array
  requested: Float64Array
  memory: Int32Array
  type: Int32Array
  heap: Int32Array
  /** 1: a buffer or a linear image. */
  linear: Uint8Array
  estimated: Uint8Array
  /** The index of the record that created it, as the model was told (VulkanModel.record); -1 where it was not. */
  record: Float64Array
}

/** Live and pending placements as columns, indexed by slot; a slot is the allocation handle inside blocks. */
class Placements {
  id = new Float64Array(64)
  placement = new Uint8Array(64)
  state = new Uint8Array(64)
  kind = new Uint8Array(64)
  linear = new Uint8Array(64)
  estimated = new Uint8Array(64)
  alignmentKnown = new Uint8Array(64)
  /** memoryTypeBits: the driver's, or every type when the capture gave none. */
  typeBits = new Uint32Array(64)
  memory = new Int32Array(64)
  /** A free-list placement's segment in its block (FreeListBlock.lastSegment), which its release gives back. */
  segment = new Int32Array(64)
  /** The index of the record that created the resource (VulkanModel.record when it was made). */
  record = new Float64Array(64)
  offset = new Float64Array(64)
  size = new Float64Array(64)
  requested = new Float64Array(64)
  alignment = new Float64Array(64)
  private top = 0
  private recycled: number[] = []

  take(): number {
    const r = this.recycled.pop()
    if (r !== undefined) return r
    if (this.top === this.id.length) this.grow()
    return this.top++
  }

  give(slot: number): void {
    this.state[slot] = S_EMPTY
    this.recycled.push(slot)
  }

  get length(): number {
    return this.top
  }

  private grow(): void {
    const cap = Math.max(64, this.id.length * 2)
    const columns = this as unknown as Record<string, unknown>
    for (const key of Object.keys(columns)) {
      const a = columns[key]
      if (ArrayBuffer.isView(a)) columns[key] = grown(a as Float64Array, cap)
    }
  }

  /**
   * A copy of the slots made so far, with room for a quarter more before it grows; `exact`: with none, as a
   * checkpoint keeps it (a copy of it gets the room).
   */
  clone(exact = false): Placements {
    const c = new Placements()
    const n = this.top
    const capacity = exact ? n : Math.max(64, n + (n >> 2))
    const from = this as unknown as Record<string, unknown>
    const to = c as unknown as Record<string, unknown>
    for (const key of Object.keys(from)) {
      const a = from[key]
      if (ArrayBuffer.isView(a)) to[key] = grown((a as Float64Array).subarray(0, n), capacity)
      else to[key] = Array.isArray(a) ? a.slice() : a
    }
    return c
  }
}

/** A growing FIFO of (value, frame) pairs; frames arrive in non-decreasing order. */
class FrameQueue {
  values: number[] = []
  frames: Frame[] = []
  head = 0

  push(value: number, frame: Frame): void {
    this.values.push(value)
    this.frames.push(frame)
  }

  /** The oldest entry of a frame up to `completed`, taken off the queue; -1 when there is none. */
  takeDue(completed: Frame): number {
    if (this.head === this.values.length || this.frames[this.head] > completed) {
      if (this.head > 1024 && this.head * 2 > this.values.length) {
        this.values.splice(0, this.head)
        this.frames.splice(0, this.head)
        this.head = 0
      }
      return -1
    }
    return this.values[this.head++]
  }

  get size(): number {
    return this.values.length - this.head
  }

  clone(): FrameQueue {
    const c = new FrameQueue()
    c.values = this.values.slice(this.head)
    c.frames = this.frames.slice(this.head)
    return c
  }
}

export interface LiveAllocation extends VulkanPlacementInfo {
  /** Released, waiting for the GPU to finish the release's frame. */
  pendingFree: boolean
}

export interface VulkanModelOptions {
  /**
   * The capture has `gpu` records: only they complete frames, from the first frame on (as the D3D12 replay asks
   * the store). Default false: frame n − framesInFlight completes when frame n begins, until a `gpu` record comes.
   */
  gpuRecords?: boolean
}

export class VulkanModel {
  readonly device: VulkanDeviceInfo
  readonly config: VulkanConfig
  sink: VulkanSink
  readonly selector: MemoryTypeSelector

  /** The frame records now belong to. */
  frame: Frame = 0
  /**
   * The index in its store of the record being applied, set by the caller that reads records from a store (-1
   * where none does): a resource keeps its create record's, which a snapshot's table reads without a map by id.
   */
  record = -1
  /** Every frame up to this one is finished on the GPU. */
  completed: Frame = Number.NEGATIVE_INFINITY
  liveMemoryCount = 0
  /** Bytes released but not yet free, waiting for the GPU. */
  pendingFreeBytes: Bytes = 0

  /** Running totals: bytes of live VkDeviceMemory and bytes of it in use, per heap and per memory type. */
  readonly heapAllocated: Float64Array
  readonly heapUsed: Float64Array
  readonly heapMemoryCount: Int32Array
  readonly typeAllocated: Float64Array
  readonly typeUsed: Float64Array
  readonly typeMemoryCount: Int32Array
  readonly typeAllocationCount: Int32Array
  /** Per heap, NaN when unknown. */
  readonly heapBudget: Float64Array

  /** Frames complete by `gpu` records only: the capture has them (or one came already). */
  private gpuFences = false
  private memories = new Map<number, MemoryState>()
  private nextMemory = 0
  private blocksByType: number[][]
  /** Per memory type, the largest free segment of each block of `blocksByType`, by position (placeFreeList). */
  private blockRoom: FirstFit[]
  /** Per memory type, whether `blockRoom` matches the list; rebuilt at the next placement when not. */
  private blockRoomFresh: Uint8Array
  private buddiesByType: number[][]
  private appMemory = new Map<number, number>()
  private linear: LinearArena | null = null
  private linearType = -2
  private staging: StagingRing | null = null
  private stagingMemory = -1
  private stagingType = -2
  private slots = new Placements()
  private liveSlot = new IdTable()
  private pendingSlots = new FrameQueue()
  private pendingMemories = new FrameQueue()
  private unflushed = new UnflushedWrites()
  /** Where the last write or flush resolve() found lands: its memory offset, and its resource's slot (-1: none). */
  private rangeStart = 0
  private rangeSlot = -1
  /** The model's warn, as the usage rules take it. */
  private readonly warnRule: RuleWarn = (kind, message) => this.warn(kind, message)
  private readonly needs: ResourceNeeds = emptyNeeds()
  private readonly placedInfo: VulkanPlacementInfo = {
    id: 0,
    placement: 'FreeList',
    memory: 0,
    type: 0,
    heap: 0,
    offset: 0,
    size: 0,
    requested: 0,
    alignment: 1,
    linear: true,
    estimated: false,
  }
  private readonly memoryInfo: VulkanMemoryInfo = { memory: 0, kind: 'block', type: 0, heap: 0, size: 0, captureId: -1 }

  constructor(
    device: VulkanDeviceInfo,
    config: VulkanConfig = defaultVulkanConfig(),
    sink: VulkanSink = {},
    options: VulkanModelOptions = {},
  ) {
    this.gpuFences = options.gpuRecords === true
    this.device = device
    this.config = config
    this.sink = sink
    this.selector = new MemoryTypeSelector(device)
    const heaps = device.memoryHeaps.length
    const types = device.memoryTypes.length
    this.heapAllocated = new Float64Array(heaps)
    this.heapUsed = new Float64Array(heaps)
    this.heapMemoryCount = new Int32Array(heaps)
    this.heapBudget = new Float64Array(heaps).fill(Number.NaN)
    device.memoryHeaps.forEach((h, i) => {
      if (h.budget !== undefined) this.heapBudget[i] = h.budget
    })
    this.typeAllocated = new Float64Array(types)
    this.typeUsed = new Float64Array(types)
    this.typeMemoryCount = new Int32Array(types)
    this.typeAllocationCount = new Int32Array(types)
    this.blocksByType = Array.from({ length: types }, () => [])
    this.blockRoom = Array.from({ length: types }, () => new FirstFit())
    this.blockRoomFresh = new Uint8Array(types)
    this.buddiesByType = Array.from({ length: types }, () => [])
  }

  /** Dispatch one record. Records of kinds the model has nothing to do with are ignored. */
  apply(record: VulkanCaptureRecord): void {
    switch (record.e) {
      case 'frame':
        return this.onFrame(record)
      case 'gpu':
        return this.onGpu(record)
      case 'buffer':
        return this.onBuffer(record)
      case 'texture':
        return this.onTexture(record)
      case 'release':
        return this.onRelease(record)
      case 'upload':
        return this.onUpload(record)
      case 'lock':
        return this.onLock(record)
      case 'budget':
        return this.onBudget(record)
      case 'heap':
        return this.onHeap(record)
      case 'placed':
        return this.onPlaced(record)
      case 'free':
        return this.onFree(record)
      case 'bind':
        return this.onBind(record)
      case 'map':
        return this.onMap(record)
      case 'unmap':
        return this.onUnmap(record)
      case 'write':
        return this.onWrite(record)
      case 'flush':
        return this.onFlush(record)
      case 'submit':
        return this.onSubmit(record)
      default:
        return
    }
  }

  // ---- frames and the GPU

  onFrame(record: FrameRecord): void {
    if (this.unflushed.size) this.checkUnflushed(`the end of frame ${this.frame}`)
    this.frame = record.n
    if (!this.gpuFences) this.advanceGpu(record.n - this.config.framesInFlight)
  }

  /**
   * The GPU finished frame n. In a capture with `gpu` records (options.gpuRecords) only they complete frames,
   * from the first frame on; a stream that cannot be looked at ahead switches at the first one.
   */
  onGpu(record: GpuRecord): void {
    this.gpuFences = true
    this.advanceGpu(record.n)
  }

  onSubmit(_record?: SubmitRecord): void {
    this.checkUnflushed('a submit')
  }

  private advanceGpu(completed: Frame): void {
    if (completed <= this.completed) return
    this.completed = completed
    for (let slot = this.pendingSlots.takeDue(completed); slot >= 0; slot = this.pendingSlots.takeDue(completed)) {
      this.finishFree(slot)
    }
    for (let m = this.pendingMemories.takeDue(completed); m >= 0; m = this.pendingMemories.takeDue(completed)) {
      const state = this.memories.get(m)
      if (state) this.freeMemory(state)
    }
    const arena = this.linear
    if (arena) {
      for (let i = 0; i < arena.memory.length; i++) {
        if (arena.cursor[i] > 0 && arena.lastFrame[i] <= completed) {
          this.addUsed(this.memories.get(arena.memory[i]) as MemoryState, -arena.cursor[i])
        }
      }
      arena.retire(completed)
    }
    if (this.staging) {
      const freed = this.staging.retire(completed)
      if (freed > 0) this.addUsed(this.memories.get(this.stagingMemory) as MemoryState, -freed)
    }
  }

  // ---- resources the model places

  onBuffer(record: VulkanBufferRecord): void {
    const n = bufferNeeds(record, this.selector.allTypeBits, this.needs)
    const volatile = (usageMask(record) & USAGE_VOLATILE) !== 0
    this.create(record.id, KIND_BUFFER, n, record.explicit === true, volatile)
  }

  onTexture(record: VulkanTextureRecord): void {
    const n = textureNeeds(record, this.selector.allTypeBits, this.needs)
    this.create(record.id, KIND_TEXTURE, n, record.explicit === true, false)
  }

  private create(id: number, kind: number, n: ResourceNeeds, explicit: boolean, volatile: boolean): void {
    if (this.liveSlot.has(id)) this.release(id)
    if (!(n.size > 0)) return
    const slot = this.slots.take()
    const s = this.slots
    s.id[slot] = id
    s.kind[slot] = kind
    s.linear[slot] = n.linear ? 1 : 0
    s.estimated[slot] = n.estimated ? 1 : 0
    s.alignmentKnown[slot] = n.alignmentKnown ? 1 : 0
    s.typeBits[slot] = n.typeBits
    s.requested[slot] = n.size
    s.alignment[slot] = n.alignment
    s.memory[slot] = -1
    s.offset[slot] = 0
    s.size[slot] = 0
    s.record[slot] = this.record
    if (explicit) {
      s.state[slot] = S_UNBOUND
      this.liveSlot.set(id, slot)
      return
    }
    if (this.place(slot, n, volatile)) {
      s.state[slot] = S_LIVE
      this.liveSlot.set(id, slot)
      this.emitPlaced(slot)
    } else {
      s.give(slot)
    }
  }

  private place(slot: number, n: ResourceNeeds, volatile: boolean): boolean {
    if (volatile && this.placeLinear(slot, n)) return true
    const type = this.selector.select(n.typeBits, n.required, n.preferred)
    if (type < 0) {
      this.warn('no-memory-type', `${this.label(slot)}: no memory type in memoryTypeBits 0x${n.typeBits.toString(16)}`)
      return false
    }
    if (this.selector.route === 'fallback') {
      this.warn(
        'memory-type-fallback',
        `${this.label(slot)}: no memory type has the wanted flags ${flagText(n.required | n.preferred)}; ` +
          `took DEVICE_LOCAL type ${type}`,
      )
    }
    const blockSize = this.blockSizeFor(type)
    const large = n.dedicated > 0 || n.size >= this.config['vulkan.dedicatedMinSize'] || n.size > blockSize
    if (!large) {
      if (this.slots.kind[slot] === KIND_TEXTURE && this.config['vulkan.textureAllocator'] === TEXTURE_ALLOCATOR_BUDDY) {
        if (this.placeBuddy(slot, type, n)) return true
      } else if (this.placeFreeList(slot, type, n)) return true
    }
    return this.placeDedicated(slot, type, n)
  }

  private blockSizeFor(type: number): Bytes {
    return Math.min(this.config['vulkan.blockSize'], this.device.memoryHeaps[this.device.memoryTypes[type].heapIndex].size)
  }

  private placeFreeList(slot: number, type: number, n: ResourceNeeds): boolean {
    // The first block, in creation order, with a free segment that fits; the best fit within it. A block whose
    // largest free segment is smaller than the request fits nothing: the index passes over those unasked.
    const list = this.blocksByType[type]
    let best: MemoryState | null = null
    if (n.size > 0) {
      const room = this.blockRoomOf(type)
      for (let at = room.first(n.size); at >= 0; at = room.firstFrom(at + 1, n.size)) {
        const state = this.memories.get(list[at]) as MemoryState
        if ((state.freeList as FreeListBlock).bestFit(n.size, n.alignment, n.linear) >= 0) {
          best = state
          break
        }
      }
    } else {
      for (const m of list) {
        const state = this.memories.get(m) as MemoryState
        if ((state.freeList as FreeListBlock).bestFit(n.size, n.alignment, n.linear) >= 0) {
          best = state
          break
        }
      }
    }
    if (!best) {
      // Room for the segments of a few hundred resources from the start: a block grown from a handful, as tens of
      // thousands of resources fill a few hundred blocks, made five copies of its columns (bench/README.md, "The
      // aliasing checks' live resources without a Map").
      const block = new FreeListBlock(this.blockSizeFor(type), this.device.bufferImageGranularity, BLOCK_SEGMENTS)
      if (block.bestFit(n.size, n.alignment, n.linear) < 0) return false
      best = this.createMemory('block', type, block.size, -1)
      best.freeList = block
      list.push(best.memory)
      best.position = list.length - 1
      if (best.position >= this.blockRoom[type].capacity) this.blockRoomFresh[type] = 0
    }
    const offset = (best.freeList as FreeListBlock).allocate(slot, n.size, n.alignment, n.linear)
    this.blockRoomChanged(best)
    if (offset < 0) return false
    this.settle(slot, P_FREE_LIST, best, offset, n.size)
    return true
  }

  /** The type's block index, rebuilt from its list when that changed other than at its end. */
  private blockRoomOf(type: number): FirstFit {
    const room = this.blockRoom[type]
    if (this.blockRoomFresh[type] === 1) return room
    const list = this.blocksByType[type]
    room.reset(list.length)
    for (let at = 0; at < list.length; at++) {
      const state = this.memories.get(list[at]) as MemoryState
      state.position = at
      room.setLeaf(at, (state.freeList as FreeListBlock).largestFree)
    }
    room.rebuild()
    this.blockRoomFresh[type] = 1
    return room
  }

  /** A free-list block's largest free segment may have changed. */
  private blockRoomChanged(state: MemoryState): void {
    if (this.blockRoomFresh[state.type] === 0 || state.position < 0) return
    this.blockRoom[state.type].set(state.position, (state.freeList as FreeListBlock).largestFree)
  }

  private placeBuddy(slot: number, type: number, n: ResourceNeeds): boolean {
    let best: MemoryState | null = null
    let bestOrder = Number.POSITIVE_INFINITY
    for (const m of this.buddiesByType[type]) {
      const state = this.memories.get(m) as MemoryState
      const order = (state.buddy as BuddyBlock).fitOrder(n.size, n.alignment)
      if (order >= 0 && order < bestOrder) {
        best = state
        bestOrder = order
      }
    }
    if (!best) {
      const heapSize = this.device.memoryHeaps[this.device.memoryTypes[type].heapIndex].size
      let size = roundUpPow2(this.config['vulkan.blockSize'])
      while (size > heapSize && size > 1) size /= 2
      const minBlock = Math.max(this.config['vulkan.buddy.minBlock'], this.device.bufferImageGranularity)
      const buddy = new BuddyBlock(size, minBlock)
      if (buddy.fitOrder(n.size, n.alignment) < 0) return false
      best = this.createMemory('buddy', type, buddy.size, -1)
      best.buddy = buddy
      this.buddiesByType[type].push(best.memory)
    }
    const buddy = best.buddy as BuddyBlock
    const offset = buddy.allocate(slot, n.size, n.alignment)
    if (offset < 0) return false
    this.settle(slot, P_BUDDY, best, offset, buddy.sizeOfHandle(slot))
    return true
  }

  private placeDedicated(slot: number, type: number, n: ResourceNeeds): boolean {
    const state = this.createMemory('dedicated', type, n.size, -1)
    state.owner = slot
    this.settle(slot, P_DEDICATED, state, 0, n.size)
    return true
  }

  private ensureLinear(): LinearArena | null {
    if (this.linearType === -2) {
      this.linearType = this.selector.select(this.selector.allTypeBits, HOST_VISIBLE | HOST_COHERENT, 0)
      if (this.linearType >= 0) this.linear = new LinearArena(this.config['vulkan.linear.blockSize'])
    }
    return this.linear
  }

  /** Bump `count` pieces into this frame's linear blocks; the memory of the last piece, or -1 when they cannot go there. */
  private bumpLinear(piece: Bytes, alignment: Bytes, count: number): number {
    const arena = this.ensureLinear()
    if (!arena || piece > arena.blockSize) return -1
    let remaining = count
    while (remaining > 0) {
      const before = arena.inFlight
      const placed = arena.bumpMany(piece, alignment, remaining, this.frame)
      if (placed > 0) {
        this.addUsed(this.memories.get(arena.currentMemory(this.frame)) as MemoryState, arena.inFlight - before)
        remaining -= placed
        continue
      }
      if (arena.takeReset(this.frame, this.completed) < 0) {
        const state = this.createMemory('linear', this.linearType, arena.blockSize, -1)
        arena.addBlock(state.memory, this.frame)
      }
    }
    return arena.currentMemory(this.frame)
  }

  private placeLinear(slot: number, n: ResourceNeeds): boolean {
    const arena = this.ensureLinear()
    if (!arena || (n.typeBits & (1 << this.linearType)) === 0) return false
    const alignment = Math.max(n.alignment, 1)
    const piece = roundUp(n.size, alignment)
    const memory = this.bumpLinear(piece, alignment, 1)
    if (memory < 0) return false
    const state = this.memories.get(memory) as MemoryState
    const end = arena.cursor[arena.memory.indexOf(memory)]
    const s = this.slots
    s.placement[slot] = P_LINEAR
    s.memory[slot] = memory
    s.offset[slot] = end - piece
    s.size[slot] = n.size
    this.typeAllocationCount[state.type]++
    return true
  }

  /** Record where a slot landed and count its bytes. */
  private settle(slot: number, placement: number, state: MemoryState, offset: Bytes, size: Bytes): void {
    const s = this.slots
    s.placement[slot] = placement
    s.memory[slot] = state.memory
    s.offset[slot] = offset
    s.size[slot] = size
    if (placement === P_FREE_LIST) s.segment[slot] = (state.freeList as FreeListBlock).lastSegment
    this.addUsed(state, size)
    this.typeAllocationCount[state.type]++
  }

  // ---- release

  onRelease(record: ReleaseRecord): void {
    this.release(record.id)
  }

  private release(id: number): void {
    const slot = this.liveSlot.get(id)
    if (slot === undefined) return
    this.liveSlot.delete(id)
    const s = this.slots
    if (s.state[slot] === S_UNBOUND) {
      s.give(slot)
      return
    }
    if (s.placement[slot] === P_BOUND) {
      // The application owns the memory: destroying the resource only unbinds it.
      this.unbind(slot)
      this.sink.freed?.(id, this.frame)
      s.give(slot)
      return
    }
    s.state[slot] = S_PENDING
    if (s.placement[slot] !== P_LINEAR) this.pendingFreeBytes += s.size[slot]
    this.pendingSlots.push(slot, this.frame)
    this.sink.releasePending?.(id, this.frame)
  }

  private finishFree(slot: number): void {
    const s = this.slots
    const state = this.memories.get(s.memory[slot]) as MemoryState
    const p = s.placement[slot]
    if (p !== P_LINEAR) this.pendingFreeBytes -= s.size[slot]
    this.typeAllocationCount[state.type]--
    if (p === P_FREE_LIST) {
      ;(state.freeList as FreeListBlock).releaseSegment(s.segment[slot])
      this.blockRoomChanged(state)
      this.addUsed(state, -s.size[slot])
      this.dropIfEmpty(state)
    } else if (p === P_BUDDY) {
      ;(state.buddy as BuddyBlock).release(slot)
      this.addUsed(state, -s.size[slot])
      this.dropIfEmpty(state)
    } else if (p === P_DEDICATED) {
      this.addUsed(state, -s.size[slot])
      this.freeMemory(state)
    }
    this.sink.freed?.(s.id[slot], this.frame)
    s.give(slot)
  }

  /** Free an empty block unless it is one of the `vulkan.emptyBlocksKept` empty blocks of its type. */
  private dropIfEmpty(state: MemoryState): void {
    const block = state.freeList ?? state.buddy
    if (!block || !block.isEmpty) return
    const list = state.freeList ? this.blocksByType[state.type] : this.buddiesByType[state.type]
    let empty = 0
    for (const m of list) {
      if (m === state.memory) continue
      const other = this.memories.get(m) as MemoryState
      if ((other.freeList ?? other.buddy)?.isEmpty) empty++
    }
    if (empty < this.config['vulkan.emptyBlocksKept']) return
    list.splice(list.indexOf(state.memory), 1)
    if (state.freeList) {
      state.position = -1
      this.blockRoomFresh[state.type] = 0
    }
    this.freeMemory(state)
  }

  // ---- per-frame traffic

  onUpload(record: UploadRecord): void {
    if (!(record.bytes > 0)) return
    if (record.via === 'staging') {
      this.stage(record.bytes)
      return
    }
    const count = Math.max(1, Math.floor(record.count ?? 1))
    const piece = roundUp(Math.ceil(record.bytes / count), UNIFORM_ALIGNMENT)
    if (this.bumpLinear(piece, UNIFORM_ALIGNMENT, count) >= 0) this.sink.uploaded?.('linear', record.bytes, this.frame)
    else this.overflow(record.bytes, this.linearType >= 0 ? this.linearType : this.stagingTypeIndex())
  }

  onLock(record: LockRecord): void {
    if (record.bytes > 0) this.stage(record.bytes)
  }

  private stagingTypeIndex(): number {
    if (this.stagingType === -2) this.stagingType = this.selector.select(this.selector.allTypeBits, HOST_VISIBLE, 0)
    return this.stagingType
  }

  private stage(bytes: Bytes): void {
    const type = this.stagingTypeIndex()
    if (type < 0) return
    if (!this.staging) {
      const state = this.createMemory('staging', type, this.config['vulkan.staging.ringSize'], -1)
      this.staging = new StagingRing(state.size)
      this.stagingMemory = state.memory
    }
    const before = this.staging.usedBytes()
    // Each region starts on a nonCoherentAtomSize boundary so it can be flushed on its own (seed §5.3).
    if (this.staging.allocate(bytes, this.device.nonCoherentAtomSize, this.frame) >= 0) {
      this.addUsed(this.memories.get(this.stagingMemory) as MemoryState, this.staging.usedBytes() - before)
      this.sink.uploaded?.('staging', bytes, this.frame)
      return
    }
    this.warn(
      'staging-ring-full',
      `staging of ${bytes} bytes at frame ${this.frame} does not fit the ${this.staging.size}-byte ring ` +
        `(${this.staging.usedBytes()} bytes still in flight): a temporary allocation`,
    )
    this.overflow(bytes, type)
  }

  /** A temporary VkDeviceMemory for traffic its allocator cannot take, freed once the GPU finished this frame. */
  private overflow(bytes: Bytes, type: number): void {
    if (type < 0) return
    const state = this.createMemory('dedicated', type, bytes, -1)
    this.addUsed(state, bytes)
    this.pendingMemories.push(state.memory, this.frame)
    this.sink.uploaded?.('overflow', bytes, this.frame)
  }

  onBudget(record: VulkanBudgetRecord): void {
    let heap = record.heap ?? -1
    if (heap < 0) heap = Math.max(0, this.device.memoryHeaps.findIndex((h) => h.flags.includes('DEVICE_LOCAL')))
    if (heap < this.heapBudget.length) this.heapBudget[heap] = record.bytes
  }

  // ---- application memory, binds, maps and flushes

  onHeap(record: VulkanHeapRecord): void {
    if (this.appMemory.has(record.id)) this.freeApp(record.id)
    let type = record.memoryType ?? -1
    if (!(Number.isInteger(type) && type >= 0 && type < this.device.memoryTypes.length)) {
      const all = this.selector.allTypeBits
      type =
        record.type === 'upload'
          ? this.selector.select(all, HOST_VISIBLE | HOST_COHERENT, 0)
          : record.type === 'readback'
            ? this.selector.select(all, HOST_VISIBLE, HOST_CACHED)
            : this.selector.select(all, 0, DEVICE_LOCAL)
    }
    if (type < 0 || !(record.size > 0)) return
    const state = this.createMemory('app', type, record.size, record.id)
    this.appMemory.set(record.id, state.memory)
  }

  onFree(record: { id: number }): void {
    if (this.appMemory.has(record.id)) this.freeApp(record.id)
    else this.release(record.id)
  }

  private freeApp(id: number): void {
    const state = this.memories.get(this.appMemory.get(id) as number) as MemoryState
    this.appMemory.delete(id)
    for (const slot of state.bound.slots()) {
      this.unbind(slot)
      this.slots.state[slot] = S_UNBOUND
    }
    this.unflushed.forget(state.memory)
    this.freeMemory(state)
  }

  /** A `placed` record in a Vulkan capture: a resource created and bound to application memory at once. */
  onPlaced(record: VulkanPlacedRecord): void {
    const n =
      record.kind === 'buffer'
        ? bufferNeeds(record, this.selector.allTypeBits, this.needs)
        : textureNeeds(record, this.selector.allTypeBits, this.needs)
    this.create(record.id, record.kind === 'buffer' ? KIND_BUFFER : KIND_TEXTURE, n, true, false)
    this.bind(record.id, record.heap, record.offset)
  }

  onBind(record: BindRecord): void {
    this.bind(record.id, record.memory, record.offset)
  }

  private bind(id: number, memoryId: number, offset: Bytes): void {
    const slot = this.liveSlot.get(id)
    if (slot === undefined) {
      this.warn('unknown-id', `bind of resource ${id} at frame ${this.frame}: no such resource`)
      return
    }
    const memory = this.appMemory.get(memoryId)
    if (memory === undefined) {
      this.warn('unknown-id', `bind of ${this.label(slot)} at frame ${this.frame}: no memory ${memoryId}`)
      return
    }
    const s = this.slots
    if (s.state[slot] !== S_UNBOUND) {
      this.warn('bind-twice', `${this.label(slot)} bound again at frame ${this.frame}: it already has memory`)
      return
    }
    const state = this.memories.get(memory) as MemoryState
    const size = s.requested[slot]
    const alignment = s.alignment[slot]
    const warn = this.warnRule
    const alignmentKnown = s.alignmentKnown[slot] === 1
    const typeBits = s.typeBits[slot]
    const memoryType = state.type
    const frame = this.frame
    const where = () => `${this.label(slot)} bound at offset ${offset} of memory ${memoryId} at frame ${frame}`
    checkBind({ where, offset, size, alignment, alignmentKnown, typeBits, memoryType, memorySize: state.size }, warn)
    const granularity = this.device.bufferImageGranularity
    checkGranularity(granularity, s, state.bound, slot, offset, size, memoryId, this.frame, (other) => this.label(other), warn)
    s.state[slot] = S_LIVE
    this.settle(slot, P_BOUND, state, offset, size)
    state.bound.add(slot, offset, size)
    this.emitPlaced(slot)
  }

  private unbind(slot: number): void {
    const s = this.slots
    const state = this.memories.get(s.memory[slot]) as MemoryState
    state.bound.delete(slot)
    this.addUsed(state, -s.size[slot])
    this.typeAllocationCount[state.type]--
    s.memory[slot] = -1
  }

  onMap(record: MapRecord): void {
    const state = this.appState(record.memory, 'map')
    if (!state) return
    if (!this.hostVisible(state, `map of memory ${record.memory}`)) return
    const offset = record.offset ?? 0
    state.mapEnd = record.size === undefined ? state.size : offset + record.size
  }

  onUnmap(record: UnmapRecord): void {
    const state = this.appState(record.memory, 'unmap')
    if (state) state.mapEnd = -1
  }

  onWrite(record: WriteRecord): void {
    const state = this.resolve(record, 'write')
    if (!state) return
    const start = this.rangeStart
    if (!this.hostVisibleQuiet(state)) {
      this.hostVisible(state, `write to ${this.rangeLabel(record)}`)
      return
    }
    if (this.coherent(state) || !(record.size > 0)) return
    this.unflushed.written(state.memory, start, start + record.size, this.frame)
  }

  onFlush(record: FlushRecord): void {
    const state = this.resolve(record, 'flush')
    if (!state) return
    const start = this.rangeStart
    const slot = this.rangeSlot
    if (!this.hostVisibleQuiet(state) || this.coherent(state)) return
    let end: Bytes
    if (record.size !== undefined) end = start + record.size
    else if (slot >= 0) end = this.slots.offset[slot] + this.slots.requested[slot]
    else end = state.mapEnd >= 0 ? state.mapEnd : state.size
    const atom = this.device.nonCoherentAtomSize
    // the label is made only for a warning
    if (!flushAligned(start, end, state.size, atom)) checkFlushRange(this.rangeLabel(record), start, end, state.size, atom, this.frame, this.warnRule)
    this.unflushed.flushed(state.memory, start, end)
  }

  /** Written bytes of non-coherent memory the GPU may now read without a flush having covered them. */
  private checkUnflushed(when: string): void {
    if (this.unflushed.size === 0) return
    const describe = (memory: number) => {
      const state = this.memories.get(memory) as MemoryState
      return `${this.memoryLabel(state)} (type ${state.type}: HOST_VISIBLE without HOST_COHERENT)`
    }
    const warn = this.warnRule
    this.unflushed.check(when, this.device.nonCoherentAtomSize, describe, warn)
  }

  private appState(id: number, what: string): MemoryState | null {
    const memory = this.appMemory.get(id)
    if (memory === undefined) {
      this.warn('unknown-id', `${what} of memory ${id} at frame ${this.frame}: no such memory`)
      return null
    }
    return this.memories.get(memory) as MemoryState
  }

  /**
   * The memory of a `write`/`flush` target, or null after a warning; its memory offset and the slot of a resource
   * (-1 for an application memory) in rangeStart and rangeSlot.
   */
  private resolve(record: WriteRecord | FlushRecord, what: string): MemoryState | null {
    if (record.memory !== undefined) {
      const state = this.appState(record.memory, what)
      this.rangeStart = record.offset
      this.rangeSlot = -1
      return state
    }
    const slot = record.id === undefined ? undefined : this.liveSlot.get(record.id)
    if (slot === undefined || this.slots.state[slot] !== S_LIVE) {
      this.warn('unknown-id', `${what} of resource ${record.id} at frame ${this.frame}: no such bound resource`)
      return null
    }
    this.rangeStart = this.slots.offset[slot] + record.offset
    this.rangeSlot = slot
    return this.memories.get(this.slots.memory[slot]) as MemoryState
  }

  /** The label of the target resolve() found last, for a warning. */
  private rangeLabel(record: WriteRecord | FlushRecord): string {
    return this.rangeSlot >= 0 ? this.label(this.rangeSlot) : `memory ${record.memory}`
  }

  private hostVisibleQuiet(state: MemoryState): boolean {
    return (this.selector.flags[state.type] & HOST_VISIBLE) !== 0
  }

  private hostVisible(state: MemoryState, what: string): boolean {
    if (this.hostVisibleQuiet(state)) return true
    this.warn('map-not-host-visible', `${what} at frame ${this.frame}: memory type ${state.type} is not HOST_VISIBLE`)
    return false
  }

  private coherent(state: MemoryState): boolean {
    return (this.selector.flags[state.type] & HOST_COHERENT) !== 0
  }

  // ---- memory objects and totals

  private createMemory(kind: VulkanMemoryKind, type: number, size: Bytes, captureId: number): MemoryState {
    const state = new MemoryState(this.nextMemory++, kind, type, this.device.memoryTypes[type].heapIndex, size, captureId)
    this.memories.set(state.memory, state)
    this.liveMemoryCount++
    this.heapAllocated[state.heap] += size
    this.heapMemoryCount[state.heap]++
    this.typeAllocated[type] += size
    this.typeMemoryCount[type]++
    const max = this.device.maxMemoryAllocationCount
    if (this.liveMemoryCount > max) {
      checkAllocationCount(this.liveMemoryCount, max, { size, kind, type }, this.frame, this.warnRule)
    }
    const info = this.memoryInfo
    info.memory = state.memory
    info.kind = kind
    info.type = type
    info.heap = state.heap
    info.size = size
    info.captureId = captureId
    this.sink.memoryAllocated?.(info, this.frame)
    return state
  }

  private freeMemory(state: MemoryState): void {
    this.addUsed(state, -state.used)
    this.memories.delete(state.memory)
    this.liveMemoryCount--
    this.heapAllocated[state.heap] -= state.size
    this.heapMemoryCount[state.heap]--
    this.typeAllocated[state.type] -= state.size
    this.typeMemoryCount[state.type]--
    this.sink.memoryFreed?.(state.memory, this.frame)
  }

  private addUsed(state: MemoryState, bytes: Bytes): void {
    state.used += bytes
    this.typeUsed[state.type] += bytes
    this.heapUsed[state.heap] += bytes
  }

  private warn(kind: string, message: string): void {
    this.sink.warning?.(kind, message, this.frame)
  }

  private label(slot: number): string {
    return `${this.slots.kind[slot] === KIND_BUFFER ? 'buffer' : 'texture'} ${this.slots.id[slot]}`
  }

  private memoryLabel(state: MemoryState): string {
    return state.captureId >= 0 ? `memory ${state.captureId}` : `${state.kind} memory #${state.memory}`
  }

  private emitPlaced(slot: number): void {
    if (!this.sink.vulkanPlaced) return
    this.fillInfo(slot, this.placedInfo)
    this.sink.vulkanPlaced(this.placedInfo, this.frame)
  }

  private fillInfo(slot: number, info: VulkanPlacementInfo): VulkanPlacementInfo {
    const s = this.slots
    const state = this.memories.get(s.memory[slot]) as MemoryState
    info.id = s.id[slot]
    info.placement = VULKAN_PLACEMENTS[s.placement[slot]] as VulkanPlacement
    info.memory = state.memory
    info.type = state.type
    info.heap = state.heap
    info.offset = s.offset[slot]
    info.size = s.size[slot]
    info.requested = s.requested[slot]
    info.alignment = s.alignment[slot]
    info.linear = s.linear[slot] === 1
    info.estimated = s.estimated[slot] === 1
    return info
  }

  // ---- views

  /** Where a live (or pending) resource is, or null. */
  placementOf(id: number): VulkanPlacementInfo | null {
    const slot = this.liveSlot.get(id)
    if (slot === undefined || this.slots.state[slot] !== S_LIVE) return null
    return this.fillInfo(slot, { ...this.placedInfo })
  }

  /** Every placement still holding bytes, released ones waiting for the GPU included, by memory and offset. */
  liveAllocations(): LiveAllocation[] {
    const out: LiveAllocation[] = []
    const s = this.slots
    for (let slot = 0; slot < s.length; slot++) {
      const st = s.state[slot]
      if (st !== S_LIVE && st !== S_PENDING) continue
      const info = this.fillInfo(slot, { ...this.placedInfo }) as LiveAllocation
      info.pendingFree = st === S_PENDING
      out.push(info)
    }
    return out.sort((a, b) => a.memory - b.memory || a.offset - b.offset || a.id - b.id)
  }

  /**
   * What liveAllocations() lists of the live resources (released ones waiting for the GPU left out), in its order (by
   * memory, offset, id), as columns: a snapshot's table of tens of thousands of rows without an object per row.
   */
  liveColumns(): LiveColumns {
    const s = this.slots
    const { states, index } = this.memoryIndex()
    // grouped by memory (a count, then each slot at its group's next row), then each group by offset and id: a
    // sort of each memory's few hundred rows, not of every row by three keys
    const first = new Int32Array(states.length + 1)
    for (let slot = 0; slot < s.length; slot++) if (s.state[slot] === S_LIVE) first[index[s.memory[slot]] + 1]++
    for (let k = 0; k < states.length; k++) first[k + 1] += first[k]
    const n = first[states.length]
    const order = new Int32Array(n)
    const fill = first.slice(0, states.length)
    for (let slot = 0; slot < s.length; slot++) if (s.state[slot] === S_LIVE) order[fill[index[s.memory[slot]]]++] = slot
    const offset = s.offset
    const id = s.id
    for (let k = 0; k < states.length; k++) {
      if (first[k + 1] - first[k] > 1) order.subarray(first[k], first[k + 1]).sort((a, b) => offset[a] - offset[b] || id[a] - id[b])
    }
    const out: LiveColumns = {
      count: n,
      id: new Float64Array(n),
      offset: new Float64Array(n),
      size: new Float64Array(n),
      requested: new Float64Array(n),
      memory: new Int32Array(n),
      type: new Int32Array(n),
      heap: new Int32Array(n),
      linear: new Uint8Array(n),
      estimated: new Uint8Array(n),
      record: new Float64Array(n),
    }
    for (let k = 0; k < states.length; k++) {
      const state = states[k]
      for (let i = first[k]; i < first[k + 1]; i++) {
        const slot = order[i]
        out.id[i] = id[slot]
        out.offset[i] = offset[slot]
        out.size[i] = s.size[slot]
        out.requested[i] = s.requested[slot]
        out.memory[i] = state.memory
        out.type[i] = state.type
        out.heap[i] = state.heap
        out.linear[i] = s.linear[slot]
        out.estimated[i] = s.estimated[slot]
        out.record[i] = s.record[slot]
      }
    }
    return out
  }

  /**
   * What view() lists, as columns: each memory's placements (released ones waiting for the GPU marked) and its
   * per-frame data, by offset, ties in slot order as view()'s stable sort leaves them.
   */
  memoryLayout(): MemoryLayout {
    const s = this.slots
    const { states, index } = this.memoryIndex()
    // rows per memory: its placements, or a linear block's one bumped range, and the frame data
    const frameData = states.map((m) => this.frameDataOf(m))
    const count = new Int32Array(states.length + 1)
    for (let slot = 0; slot < s.length; slot++) {
      const st = s.state[slot]
      if (st === S_LIVE || st === S_PENDING) count[index[s.memory[slot]]]++
    }
    for (let k = 0; k < states.length; k++) {
      if (states[k].kind === 'linear' && this.linear) count[k] = 0
      count[k] += frameData[k].length / 2
    }
    const first = new Int32Array(states.length + 1)
    for (let k = 0; k < states.length; k++) first[k + 1] = first[k] + count[k]
    const n = first[states.length]
    const offset = new Float64Array(n)
    const size = new Float64Array(n)
    const id = new Float64Array(n)
    const pending = new Uint8Array(n)
    const fill = first.slice(0, states.length)
    for (let slot = 0; slot < s.length; slot++) {
      const st = s.state[slot]
      if (st !== S_LIVE && st !== S_PENDING) continue
      const k = index[s.memory[slot]]
      if (states[k].kind === 'linear' && this.linear) continue
      const row = fill[k]++
      offset[row] = s.offset[slot]
      size[row] = s.size[slot]
      id[row] = s.id[slot]
      pending[row] = st === S_PENDING ? 1 : 0
    }
    for (let k = 0; k < states.length; k++) {
      const ranges = frameData[k]
      for (let i = 0; i < ranges.length; i += 2) {
        const row = fill[k]++
        offset[row] = ranges[i]
        size[row] = ranges[i + 1]
        id[row] = Number.NaN
      }
    }
    // by offset within each memory, stably: rows were written in view()'s order
    const order = new Int32Array(n)
    for (let r = 0; r < n; r++) order[r] = r
    for (let k = 0; k < states.length; k++) {
      if (count[k] > 1) order.subarray(first[k], first[k + 1]).sort((a, b) => offset[a] - offset[b] || a - b)
    }
    const pick = <T extends Float64Array | Uint8Array>(column: T, out: T): T => {
      for (let r = 0; r < n; r++) out[r] = column[order[r]]
      return out
    }
    return {
      memories: states.map(({ memory, kind, type, heap, size: bytes, used }) => ({ memory, kind, type, heap, size: bytes, usedBytes: used })),
      first,
      offset: pick(offset, new Float64Array(n)),
      size: pick(size, new Float64Array(n)),
      id: pick(id, new Float64Array(n)),
      pending: pick(pending, new Uint8Array(n)),
    }
  }

  /** The live memories in creation order, and each one's place among them by its number (-1: not live). */
  private memoryIndex(): { states: MemoryState[]; index: Int32Array } {
    const states = [...this.memories.values()].sort((a, b) => a.memory - b.memory)
    const index = new Int32Array(this.nextMemory).fill(-1)
    for (let k = 0; k < states.length; k++) index[states[k].memory] = k
    return { states, index }
  }

  /** What view() shows of a memory besides its placements, as offset, size pairs: per-frame data. */
  private frameDataOf(m: MemoryState): Bytes[] {
    if (m.kind === 'linear' && this.linear) {
      const used = this.linear.cursor[this.linear.memory.indexOf(m.memory)]
      return used > 0 ? [0, used] : []
    }
    if (m.kind === 'staging' && this.staging) return this.staging.ranges().flatMap(([a, b]) => [a, b - a])
    if (m.kind === 'dedicated' && m.owner < 0 && m.used > 0) return [0, m.used]
    return []
  }

  /**
   * What a report and a frame's message read of liveAllocations(), without an object per resource: the live
   * resources (released ones waiting for the GPU left out), their count by memory type, and the bytes their
   * alignment adds (occupied − requested).
   */
  liveFigures(): { count: number; byType: number[]; alignmentBytes: Bytes } {
    const s = this.slots
    const byType = new Array<number>(this.typeAllocationCount.length).fill(0)
    let count = 0
    let alignmentBytes = 0
    for (let slot = 0; slot < s.length; slot++) {
      if (s.state[slot] !== S_LIVE) continue
      byType[(this.memories.get(s.memory[slot]) as MemoryState).type]++
      count++
      alignmentBytes += s.size[slot] - s.requested[slot]
    }
    return { count, byType, alignmentBytes }
  }

  /** Live VkDeviceMemory objects in creation order. */
  memoryObjects(): (VulkanMemoryInfo & { usedBytes: Bytes })[] {
    return [...this.memories.values()]
      .sort((a, b) => a.memory - b.memory)
      .map((m) => ({
        memory: m.memory,
        kind: m.kind,
        type: m.type,
        heap: m.heap,
        size: m.size,
        captureId: m.captureId,
        usedBytes: m.used,
      }))
  }

  /** Free-list and buddy blocks with their allocator, for tests and the inspector. */
  blocks(): { memory: number; type: number; freeList: FreeListBlock | null; buddy: BuddyBlock | null }[] {
    return [...this.memories.values()]
      .filter((m) => m.freeList || m.buddy)
      .sort((a, b) => a.memory - b.memory)
      .map((m) => ({ memory: m.memory, type: m.type, freeList: m.freeList, buddy: m.buddy }))
  }

  heapTotals(): HeapView[] {
    const { heaps } = emptyTotals(this.device)
    for (const h of heaps) {
      h.allocatedBytes = this.heapAllocated[h.index]
      h.usedBytes = this.heapUsed[h.index]
      h.memoryCount = this.heapMemoryCount[h.index]
      if (!Number.isNaN(this.heapBudget[h.index])) h.budget = this.heapBudget[h.index]
    }
    return heaps
  }

  typeTotals(): TypeView[] {
    const { types } = emptyTotals(this.device)
    for (const t of types) {
      t.allocatedBytes = this.typeAllocated[t.index]
      t.usedBytes = this.typeUsed[t.index]
      t.memoryCount = this.typeMemoryCount[t.index]
      t.allocationCount = this.typeAllocationCount[t.index]
    }
    return types
  }

  /** The whole memory picture, in the shape an imported VMA dump also has. */
  view(): VulkanMemoryView {
    const bySlotMemory = new Map<number, AllocationView[]>()
    const s = this.slots
    for (let slot = 0; slot < s.length; slot++) {
      const st = s.state[slot]
      if (st !== S_LIVE && st !== S_PENDING) continue
      const list = bySlotMemory.get(s.memory[slot]) ?? []
      list.push({
        offset: s.offset[slot],
        size: s.size[slot],
        kind: s.kind[slot] === KIND_BUFFER ? 'buffer' : s.linear[slot] ? 'image-linear' : 'image-optimal',
        id: s.id[slot],
      })
      bySlotMemory.set(s.memory[slot], list)
    }
    const memories: MemoryView[] = []
    for (const m of [...this.memories.values()].sort((a, b) => a.memory - b.memory)) {
      // Volatile buffers are frame data too: a linear block is one bumped range.
      const allocations = m.kind === 'linear' && this.linear ? [] : (bySlotMemory.get(m.memory) ?? [])
      const frameData = this.frameDataOf(m)
      for (let i = 0; i < frameData.length; i += 2) allocations.push({ offset: frameData[i], size: frameData[i + 1], kind: 'frame-data' })
      allocations.sort((a, b) => a.offset - b.offset)
      const { memory, kind, type, heap, size } = m
      memories.push({ memory, kind, type, heap, size, usedBytes: m.used, allocations })
    }
    return { device: this.device, heaps: this.heapTotals(), types: this.typeTotals(), memories }
  }

  /**
   * A copy of the live state; it reports to `sink` (none by default). `checkpoint`: kept as a checkpoint, only ever
   * copied, so its tables get no room to grow.
   */
  clone(sink: VulkanSink = {}, checkpoint = false): VulkanModel {
    const c = Object.create(VulkanModel.prototype) as VulkanModel
    Object.assign(c, this)
    const w = c as unknown as Record<string, unknown>
    w.sink = sink
    w.heapAllocated = this.heapAllocated.slice()
    w.heapUsed = this.heapUsed.slice()
    w.heapMemoryCount = this.heapMemoryCount.slice()
    w.heapBudget = this.heapBudget.slice()
    w.typeAllocated = this.typeAllocated.slice()
    w.typeUsed = this.typeUsed.slice()
    w.typeMemoryCount = this.typeMemoryCount.slice()
    w.typeAllocationCount = this.typeAllocationCount.slice()
    w.memories = new Map([...this.memories].map(([k, v]) => [k, v.clone(checkpoint)]))
    w.blocksByType = this.blocksByType.map((l) => l.slice())
    // The copy indexes its blocks again at its first placement.
    w.blockRoom = this.blockRoom.map(() => new FirstFit())
    w.blockRoomFresh = new Uint8Array(this.blockRoomFresh.length)
    w.buddiesByType = this.buddiesByType.map((l) => l.slice())
    w.appMemory = new Map(this.appMemory)
    w.linear = this.linear ? this.linear.clone() : null
    w.staging = this.staging ? this.staging.clone() : null
    w.slots = this.slots.clone(checkpoint)
    w.liveSlot = this.liveSlot.clone(checkpoint)
    w.pendingSlots = this.pendingSlots.clone()
    w.pendingMemories = this.pendingMemories.clone()
    w.unflushed = this.unflushed.clone()
    w.needs = emptyNeeds()
    w.placedInfo = { ...this.placedInfo }
    w.memoryInfo = { ...this.memoryInfo }
    // the copy's warnings go to its own sink
    w.warnRule = ((kind, message) => c.warn(kind, message)) satisfies RuleWarn
    return c
  }
}

function flagText(mask: number): string {
  const names = ['DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED']
  const out = names.filter((_, i) => mask & (1 << i))
  return out.length ? out.join('|') : 'none'
}
