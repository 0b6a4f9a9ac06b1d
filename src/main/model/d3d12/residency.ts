/**
 * The residency manager of the D3D12 model (seed §9): which residency objects (committed resources, pool heaps,
 * transient heaps, reserved resources' backing heaps) hold video memory at the end of each frame.
 *
 * UE registers every such object with the D3DX12Residency manager. What the real manager does, and how the model
 * maps it:
 * - Before each ExecuteCommandLists it makes the residency set of the submitted lists resident and, when that would
 *   exceed the budget, first evicts objects from the least recently used end of its LRU list whose last GPU use has
 *   completed. The model works at frame granularity: the frame's used objects are collected, endFrame makes them
 *   resident and then evicts until the total fits. The resulting state is the same; the events come MakeResident
 *   first, then Evict.
 * - Objects used in the frame are never evicted in that frame (their GPU work is still in flight). When they alone
 *   exceed the budget the real MakeResident overcommits and the OS demotes; the model reports an over-budget frame.
 * - Eviction is by recency alone, the seed's one rule: 「超出预算时，按最近最少使用的顺序驱逐其他对象」. The
 *   priority UE sets on some heaps (D3D12_RESIDENCY_PRIORITY_HIGH: transient heaps, the acceleration-structure
 *   pool) is the hint handed to the OS through SetResidencyPriority; each object keeps and shows it, and it does
 *   not change the order.
 * - Which objects a frame uses: with `use` records, those the records name (markUsed), in the order first named.
 *   Without them (`usedWhenHeld`), the objects that hold a live resource at the end of the frame (the model tells
 *   the manager with addHolder/removeHolder), plus any markUsed names (a transient heap in a frame whose graphs
 *   place into it). A released resource waiting for its fence, and an empty pool kept for the clean-up delay,
 *   hold nothing and are not in use. Objects used in the same frame keep their previous recency order among
 *   themselves; those made resident follow, in the order they came into use in the frame.
 * - The real manager also trims objects idle for longer than a grace period while under budget. The seed does not
 *   describe that and the model does not do it: objects are evicted only to get back under the budget.
 * - A budget change (setBudget) takes effect at the next endFrame, like the real manager, which reads the budget
 *   from QueryVideoMemoryInfo when it next processes paging work.
 *
 * Hot path: no step looks at every live object. Objects live in slots of typed arrays on two intrusive doubly
 * linked lists of resident objects, IDLE (not in use in the last settled frame, least recently used at the head)
 * and BUSY (in use then, in recency order); the recency order of all resident objects is IDLE then BUSY, so the
 * victim is always IDLE's head. With `use` records a frame costs O(objects used + objects evicted). Without them it
 * costs O(k log k) in the k objects whose holders or marks changed in the frame, plus evictions: an object held
 * frame after frame stays in BUSY untouched, since using all of BUSY again keeps its order.
 */
import type { Bytes, Frame } from '../../../shared/units'
import type { ModelSink, ResidencyObjectId, ResidencyPriority } from '../events'

export interface ResidencyOptions {
  /** D3D12.ResidencyManagement; when false every object counts resident and no residency events are sent. */
  enabled: boolean
  /** D3D12.ResourcesStartResident: objects are resident from their creation. */
  startResident: boolean
  /** The local memory budget at the start. */
  budget: Bytes
  /**
   * A capture without `use` records: an object is in use in a frame when it holds a live resource at the frame's
   * end (addHolder/removeHolder), or is marked used. Default false: only markUsed counts.
   */
  usedWhenHeld?: boolean
}

export interface ResidencyObjectInfo {
  object: ResidencyObjectId
  bytes: Bytes
  priority: ResidencyPriority
  label: string
  resident: boolean
  /** The last frame whose GPU work used the object; -1 when never used. */
  lastUsedFrame: Frame
  createdFrame: Frame
}

export interface ResidencyCounters {
  evictions: number
  evictedBytes: Bytes
  /** madeResident events: uses of non-resident objects, and objects created resident under startResident. */
  makeResident: number
  madeResidentBytes: Bytes
  overBudgetFrames: number
  /** markUsed calls naming no live object (ignored). */
  unknownUses: number
}

export interface ResidencyTotals {
  objects: number
  bytes: Bytes
  residentObjects: number
  residentBytes: Bytes
  budget: Bytes
}

const NONE = -1
const NORMAL = 0
const HIGH = 1
/** List of a slot: none (not resident), IDLE or BUSY. */
const OFF = 0
const IDLE = 1
const BUSY = 2
/** Object ids below this are looked up in a flat table; the model hands out dense ids from 0. */
const DIRECT_IDS = 1 << 22

/** A growable list of slot numbers. */
class SlotList {
  // small at first, so it first grows in a replay's first frames, while the engine still interprets `push`: a
  // growth first met in optimised code throws that code away mid-replay (ingest/README.md, "Cold start")
  data = new Int32Array(4)
  length = 0

  push(slot: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = slot
  }

  copy(): SlotList {
    const c = new SlotList()
    c.data = this.data.slice()
    c.length = this.length
    return c
  }
}

export class ResidencyManager {
  private readonly enabled: boolean
  private readonly startResident: boolean
  private readonly usedWhenHeld: boolean
  private budgetBytes: Bytes
  private sink: ModelSink

  // One slot per live object; a slot freed in a frame is reused only after that frame's endFrame, so a slot in
  // one of the frame's lists always still means the object that was put there.
  private capacity = 0
  private slotCount = 0
  private objectOf = new Float64Array(0)
  private bytesOf = new Float64Array(0)
  private lastUsedOf = new Float64Array(0)
  private createdOf = new Float64Array(0)
  /** Order within the slot's list: increasing from head to tail (compared only within one list). */
  private rankOf = new Float64Array(0)
  private holdersOf = new Int32Array(0)
  private priorityOf = new Uint8Array(0)
  private residentOf = new Uint8Array(0)
  private listOf = new Uint8Array(0)
  private aliveOf = new Uint8Array(0)
  /** === epoch: marked used in the current frame. */
  private usedEpochOf = new Uint32Array(0)
  /** === epoch: in the current frame's changed list. */
  private changedEpochOf = new Uint32Array(0)
  /** === epoch: created in the current frame. */
  private createdEpochOf = new Uint32Array(0)
  private prevOf = new Int32Array(0)
  private nextOf = new Int32Array(0)
  private labels: string[] = []
  private freeSlots: number[] = []
  private releasedThisFrame: number[] = []

  /** Heads and tails of the IDLE and BUSY lists, indexed by IDLE and BUSY. */
  private readonly head = new Int32Array([NONE, NONE, NONE])
  private readonly tail = new Int32Array([NONE, NONE, NONE])
  /** Rank for an append to an empty list. */
  private nextRank = 0

  /** object id → slot + 1 for small non-negative integer ids (0: none); other ids in `far`. */
  private direct = new Int32Array(0)
  private far = new Map<number, number>()

  /** Objects marked used this frame, in the order first marked. */
  private used = new SlotList()
  /** usedWhenHeld: objects whose holders or marks changed this frame (or that were created), first change first. */
  private changed = new SlotList()
  /** usedWhenHeld: objects marked in the last settled frame (in use then; perhaps not any more). */
  private markedBefore = new SlotList()
  /** settleHeld's objects leaving BUSY, entering it from IDLE, and made resident (only read in it). */
  private toIdle: number[] = []
  private toBusy: number[] = []
  private toResident: number[] = []
  /** Numbers the frames from 1. */
  private epoch = 1
  /** The last frame endFrame settled: the last use of every object in BUSY (usedWhenHeld). */
  private settledFrame: Frame = -1

  private liveObjects = 0
  private liveBytes: Bytes = 0
  private residentObjectCount = 0
  private residentTotal: Bytes = 0

  private evictions = 0
  private evictedBytes: Bytes = 0
  private makeResidentCount = 0
  private madeResidentBytes: Bytes = 0
  private overBudgetFrames = 0
  private unknownUses = 0

  constructor(options: ResidencyOptions, sink: ModelSink) {
    this.enabled = options.enabled
    this.startResident = options.startResident
    this.usedWhenHeld = options.usedWhenHeld ?? false
    this.budgetBytes = options.budget
    this.sink = sink
    // The byte totals pass 2^30 in a large capture, past what the engine keeps as a small integer. A fraction
    // stored once here makes them doubles from the start: their first large value would otherwise change this
    // object's shape mid-replay and throw away the optimised code that reads it.
    this.liveBytes = this.residentTotal = this.evictedBytes = this.madeResidentBytes = this.settledFrame = 0.5
    this.liveBytes = this.residentTotal = this.evictedBytes = this.madeResidentBytes = 0
    this.settledFrame = -1
  }

  addObject(object: number, bytes: Bytes, priority: 'normal' | 'high', label: string, frame: number): void {
    if (this.slotOf(object) !== NONE) {
      this.sink.warning?.('residencyDuplicateObject', `residency object ${object} added twice; the first is dropped`, frame)
      this.removeObject(object, frame)
    }
    const slot = this.allocateSlot()
    this.objectOf[slot] = object
    this.bytesOf[slot] = bytes
    this.priorityOf[slot] = priority === 'high' ? HIGH : NORMAL
    this.createdOf[slot] = frame
    this.lastUsedOf[slot] = -1
    this.holdersOf[slot] = 0
    this.residentOf[slot] = 0
    this.listOf[slot] = OFF
    this.aliveOf[slot] = 1
    this.usedEpochOf[slot] = 0
    this.changedEpochOf[slot] = 0
    this.createdEpochOf[slot] = this.epoch
    this.prevOf[slot] = NONE
    this.nextOf[slot] = NONE
    this.labels[slot] = label
    this.mapObject(object, slot)
    this.liveObjects++
    this.liveBytes += bytes
    this.sink.residencyObjectCreated?.(object, bytes, priority, label, frame)
    if (!this.enabled) {
      // Without the manager every object is resident for its whole life; nothing to order or evict.
      this.residentOf[slot] = 1
      this.residentObjectCount++
      this.residentTotal += bytes
      return
    }
    if (this.usedWhenHeld) this.change(slot)
    if (this.startResident) {
      // Created resident, it enters the LRU list at the most recently used end, as D3DX12Residency's
      // BeginTrackingObject does for resident objects. Without `use` records that end is BUSY's tail; endFrame
      // moves it to IDLE if it holds nothing by then.
      this.makeResident(slot, frame, this.usedWhenHeld ? BUSY : IDLE)
    }
  }

  /** A reserved resource's commit changes the bytes its backing heaps hold. */
  resizeObject(object: number, bytes: Bytes, frame: number): void {
    const slot = this.slotOf(object)
    if (slot === NONE) {
      this.sink.warning?.('residencyUnknownObject', `resize of unknown residency object ${object}`, frame)
      return
    }
    const delta = bytes - this.bytesOf[slot]
    this.bytesOf[slot] = bytes
    this.liveBytes += delta
    if (this.residentOf[slot] === 1) this.residentTotal += delta
  }

  /** A destroyed object frees its bytes; that is not an eviction. */
  removeObject(object: number, frame: number): void {
    const slot = this.slotOf(object)
    if (slot === NONE) {
      this.sink.warning?.('residencyUnknownObject', `removal of unknown residency object ${object}`, frame)
      return
    }
    const bytes = this.bytesOf[slot]
    if (this.residentOf[slot] === 1) {
      this.residentOf[slot] = 0
      this.residentObjectCount--
      this.residentTotal -= bytes
      if (this.enabled) this.unlink(slot)
    }
    this.liveObjects--
    this.liveBytes -= bytes
    this.aliveOf[slot] = 0
    this.labels[slot] = ''
    this.unmapObject(object)
    this.releasedThisFrame.push(slot)
    this.sink.residencyObjectDestroyed?.(object, frame)
  }

  /** A live resource now lives in the object (usedWhenHeld: the object is in use while it holds one). */
  addHolder(object: number): void {
    const slot = this.slotOf(object)
    if (slot === NONE) return
    this.holdersOf[slot]++
    if (this.usedWhenHeld && this.enabled && this.holdersOf[slot] === 1) this.change(slot)
  }

  /** A live resource left the object: released (its memory waits for the fence, unused), moved, or destroyed. */
  removeHolder(object: number): void {
    const slot = this.slotOf(object)
    if (slot === NONE || this.holdersOf[slot] === 0) return
    this.holdersOf[slot]--
    if (this.usedWhenHeld && this.enabled && this.holdersOf[slot] === 0) this.change(slot)
  }

  /**
   * GPU work of the current frame uses the object: it is made resident at endFrame and cannot be evicted then.
   * Returns whether the manager knows the object (a second mark of it in the frame changes nothing then).
   */
  markUsed(object: number): boolean {
    if (!this.enabled) return false
    const slot = this.slotOf(object)
    if (slot === NONE) {
      this.unknownUses++
      return false
    }
    if (this.usedEpochOf[slot] === this.epoch) return true
    this.usedEpochOf[slot] = this.epoch
    this.used.push(slot)
    if (this.usedWhenHeld) this.change(slot)
    return true
  }

  /**
   * markUsed(object) `times` times over: one mark (the others change nothing), or `times` unknown uses for an
   * object the manager does not know.
   */
  markUsedBy(object: number, times: number): void {
    if (!this.enabled) return
    const slot = this.slotOf(object)
    if (slot === NONE) {
      this.unknownUses += times
      return
    }
    if (this.usedEpochOf[slot] === this.epoch) return
    this.usedEpochOf[slot] = this.epoch
    this.used.push(slot)
    if (this.usedWhenHeld) this.change(slot)
  }

  setBudget(bytes: Bytes): void {
    this.budgetBytes = bytes
  }

  endFrame(frame: number): void {
    if (this.enabled) {
      if (this.usedWhenHeld) this.settleHeld(frame)
      else this.settleMarked(frame)
      this.evictToBudget(frame)
      this.settledFrame = frame
    }
    this.used.length = 0
    this.changed.length = 0
    this.epoch++
    for (const slot of this.releasedThisFrame) this.freeSlots.push(slot)
    this.releasedThisFrame.length = 0
  }

  residentBytes(): Bytes {
    return this.residentTotal
  }

  budget(): Bytes {
    return this.budgetBytes
  }

  /** undefined for an object the manager does not know. */
  isResident(object: number): boolean | undefined {
    const slot = this.slotOf(object)
    return slot === NONE ? undefined : this.residentOf[slot] === 1
  }

  has(object: number): boolean {
    return this.slotOf(object) !== NONE
  }

  /** Live resources the object holds, as the model reported them: a model replaying `use` records reports none. */
  holders(object: number): number {
    const slot = this.slotOf(object)
    return slot === NONE ? 0 : this.holdersOf[slot]
  }

  objectInfo(object: number): ResidencyObjectInfo | undefined {
    const slot = this.slotOf(object)
    return slot === NONE ? undefined : this.info(slot)
  }

  /** Every live object, in slot order (for a snapshot). */
  objects(): ResidencyObjectInfo[] {
    const out: ResidencyObjectInfo[] = []
    for (let slot = 0; slot < this.slotCount; slot++) if (this.aliveOf[slot] === 1) out.push(this.info(slot))
    return out
  }

  /**
   * Resident objects, least recently used first (as of the last endFrame, plus objects made resident since):
   * the objects not in use come first and would be evicted first. Empty when disabled.
   */
  evictionOrder(): ResidencyObjectId[] {
    const out: ResidencyObjectId[] = []
    for (const list of [IDLE, BUSY]) {
      for (let slot = this.head[list]; slot !== NONE; slot = this.nextOf[slot]) out.push(this.objectOf[slot])
    }
    return out
  }

  totals(): ResidencyTotals {
    return {
      objects: this.liveObjects,
      bytes: this.liveBytes,
      residentObjects: this.residentObjectCount,
      residentBytes: this.residentTotal,
      budget: this.budgetBytes,
    }
  }

  counters(): ResidencyCounters {
    return {
      evictions: this.evictions,
      evictedBytes: this.evictedBytes,
      makeResident: this.makeResidentCount,
      madeResidentBytes: this.madeResidentBytes,
      overBudgetFrames: this.overBudgetFrames,
      unknownUses: this.unknownUses,
    }
  }

  /**
   * A deep copy that sends its events to `sink` and continues exactly as this one would. `packed` (a checkpoint's
   * copy, only read and cloned): its tables cut to the slots made, which its own copies grow again when they need.
   */
  clone(sink: ModelSink, packed = false): ResidencyManager {
    const c = new ResidencyManager(
      {
        enabled: this.enabled,
        startResident: this.startResident,
        budget: this.budgetBytes,
        usedWhenHeld: this.usedWhenHeld,
      },
      sink,
    )
    const n = packed ? this.slotCount : this.capacity
    c.capacity = n
    c.slotCount = this.slotCount
    c.objectOf = this.objectOf.slice(0, n)
    c.bytesOf = this.bytesOf.slice(0, n)
    c.lastUsedOf = this.lastUsedOf.slice(0, n)
    c.createdOf = this.createdOf.slice(0, n)
    c.rankOf = this.rankOf.slice(0, n)
    c.holdersOf = this.holdersOf.slice(0, n)
    c.priorityOf = this.priorityOf.slice(0, n)
    c.residentOf = this.residentOf.slice(0, n)
    c.listOf = this.listOf.slice(0, n)
    c.aliveOf = this.aliveOf.slice(0, n)
    c.usedEpochOf = this.usedEpochOf.slice(0, n)
    c.changedEpochOf = this.changedEpochOf.slice(0, n)
    c.createdEpochOf = this.createdEpochOf.slice(0, n)
    c.prevOf = this.prevOf.slice(0, n)
    c.nextOf = this.nextOf.slice(0, n)
    c.labels = this.labels.slice()
    c.freeSlots = this.freeSlots.slice()
    c.releasedThisFrame = this.releasedThisFrame.slice()
    c.head.set(this.head)
    c.tail.set(this.tail)
    c.nextRank = this.nextRank
    c.direct = this.direct.slice()
    c.far = new Map(this.far)
    c.used = this.used.copy()
    c.changed = this.changed.copy()
    c.markedBefore = this.markedBefore.copy()
    c.epoch = this.epoch
    c.settledFrame = this.settledFrame
    c.liveObjects = this.liveObjects
    c.liveBytes = this.liveBytes
    c.residentObjectCount = this.residentObjectCount
    c.residentTotal = this.residentTotal
    c.evictions = this.evictions
    c.evictedBytes = this.evictedBytes
    c.makeResidentCount = this.makeResidentCount
    c.madeResidentBytes = this.madeResidentBytes
    c.overBudgetFrames = this.overBudgetFrames
    c.unknownUses = this.unknownUses
    return c
  }

  /** With `use` records: the frame's used objects move to the most recently used end in the order first named. */
  private settleMarked(frame: Frame): void {
    const used = this.used
    for (let i = 0; i < used.length; i++) {
      const slot = used.data[i]
      if (this.aliveOf[slot] === 0) continue
      this.lastUsedOf[slot] = frame
      if (this.residentOf[slot] === 1) {
        this.unlink(slot)
        this.linkTail(slot, IDLE)
      } else {
        this.makeResident(slot, frame, IDLE)
      }
    }
  }

  /**
   * Without `use` records: IDLE ++ BUSY must become (resident objects not in use, in recency order) ++ (resident
   * objects in use, in recency order) ++ (objects made resident, in the order they came into use). Only objects
   * that changed this frame, or were marked in the last one, can change lists; BUSY is in recency order already.
   */
  private settleHeld(frame: Frame): void {
    const epoch = this.epoch
    // The frame's three lists are kept from frame to frame: most frames move few objects, or none.
    const toIdle = this.toIdle
    const toBusy = this.toBusy
    const toResident = this.toResident
    if (toIdle.length !== 0) toIdle.length = 0
    if (toBusy.length !== 0) toBusy.length = 0
    if (toResident.length !== 0) toResident.length = 0
    // An object marked last frame and changed this frame is visited once, from `changed`.
    for (let i = 0; i < this.markedBefore.length; i++) {
      const slot = this.markedBefore.data[i]
      if (this.changedEpochOf[slot] !== epoch) this.visitHeld(slot)
    }
    for (let i = 0; i < this.changed.length; i++) this.visitHeld(this.changed.data[i])

    // Leaving BUSY: after every idle object (they were used later), among themselves in BUSY order.
    if (toIdle.length > 1) toIdle.sort((x, y) => this.rankOf[x] - this.rankOf[y])
    for (const slot of toIdle) {
      // Its last use was the last settled frame, unless it was created resident since and never used.
      if (this.createdEpochOf[slot] !== epoch) this.lastUsedOf[slot] = this.settledFrame
      this.unlink(slot)
      this.linkTail(slot, IDLE)
    }
    // Entering BUSY from IDLE: used less recently than everything in BUSY, so at its head, in IDLE order.
    if (toBusy.length > 1) toBusy.sort((x, y) => this.rankOf[x] - this.rankOf[y])
    for (let i = toBusy.length - 1; i >= 0; i--) {
      const slot = toBusy[i]
      this.unlink(slot)
      this.linkHead(slot, BUSY)
    }
    for (const slot of toResident) this.makeResident(slot, frame, BUSY)

    this.markedBefore.length = 0
    for (let i = 0; i < this.used.length; i++) {
      const slot = this.used.data[i]
      if (this.aliveOf[slot] === 1) this.markedBefore.push(slot)
    }
  }

  /** Which of settleHeld's lists a live object joins: out of BUSY, into BUSY, or made resident. */
  private visitHeld(slot: number): void {
    if (this.aliveOf[slot] === 0) return
    const inUse = this.holdersOf[slot] > 0 || this.usedEpochOf[slot] === this.epoch
    const list = this.listOf[slot]
    if (list === BUSY && !inUse) this.toIdle.push(slot)
    else if (list === IDLE && inUse) this.toBusy.push(slot)
    else if (list === OFF && inUse) this.toResident.push(slot)
  }

  private evictToBudget(frame: Frame): void {
    while (this.residentTotal > this.budgetBytes) {
      // Without `use` records IDLE holds exactly the resident objects not in use. With them the frame's used
      // objects were just moved to IDLE's tail, so a head in use means every resident object is in use.
      const victim = this.head[IDLE]
      if (victim === NONE || this.usedEpochOf[victim] === this.epoch) {
        this.overBudgetFrames++
        this.sink.overBudget?.(frame, this.residentTotal, this.budgetBytes)
        return
      }
      const bytes = this.bytesOf[victim]
      this.unlink(victim)
      this.residentOf[victim] = 0
      this.residentObjectCount--
      this.residentTotal -= bytes
      this.evictions++
      this.evictedBytes += bytes
      this.sink.evicted?.(this.objectOf[victim], bytes, frame)
    }
  }

  private change(slot: number): void {
    if (this.changedEpochOf[slot] === this.epoch) return
    this.changedEpochOf[slot] = this.epoch
    this.changed.push(slot)
  }

  private makeResident(slot: number, frame: Frame, list: number): void {
    const bytes = this.bytesOf[slot]
    this.residentOf[slot] = 1
    this.residentObjectCount++
    this.residentTotal += bytes
    this.linkTail(slot, list)
    this.makeResidentCount++
    this.madeResidentBytes += bytes
    this.sink.madeResident?.(this.objectOf[slot], bytes, frame)
  }

  private linkTail(slot: number, list: number): void {
    const last = this.tail[list]
    this.prevOf[slot] = last
    this.nextOf[slot] = NONE
    this.listOf[slot] = list
    if (last === NONE) {
      this.head[list] = slot
      this.rankOf[slot] = this.nextRank
    } else {
      this.nextOf[last] = slot
      this.rankOf[slot] = this.rankOf[last] + 1
    }
    this.tail[list] = slot
  }

  private linkHead(slot: number, list: number): void {
    const first = this.head[list]
    this.prevOf[slot] = NONE
    this.nextOf[slot] = first
    this.listOf[slot] = list
    if (first === NONE) {
      this.tail[list] = slot
      this.rankOf[slot] = this.nextRank
    } else {
      this.prevOf[first] = slot
      this.rankOf[slot] = this.rankOf[first] - 1
    }
    this.head[list] = slot
  }

  private unlink(slot: number): void {
    const list = this.listOf[slot]
    const prev = this.prevOf[slot]
    const next = this.nextOf[slot]
    if (prev === NONE) this.head[list] = next
    else this.nextOf[prev] = next
    if (next === NONE) this.tail[list] = prev
    else this.prevOf[next] = prev
    this.prevOf[slot] = NONE
    this.nextOf[slot] = NONE
    this.listOf[slot] = OFF
  }

  private info(slot: number): ResidencyObjectInfo {
    // An object in BUSY since before this frame was last used in the last settled frame.
    const inBusy = this.usedWhenHeld && this.listOf[slot] === BUSY && this.createdEpochOf[slot] !== this.epoch
    return {
      object: this.objectOf[slot],
      bytes: this.bytesOf[slot],
      priority: this.priorityOf[slot] === HIGH ? 'high' : 'normal',
      label: this.labels[slot],
      resident: this.residentOf[slot] === 1,
      lastUsedFrame: inBusy ? this.settledFrame : this.lastUsedOf[slot],
      createdFrame: this.createdOf[slot],
    }
  }

  private allocateSlot(): number {
    const reused = this.freeSlots.pop()
    if (reused !== undefined) return reused
    if (this.slotCount === this.capacity) this.grow(Math.max(64, this.capacity * 2))
    return this.slotCount++
  }

  private grow(capacity: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(capacity)
      b.set(a)
      return b
    }
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(capacity)
      b.set(a)
      return b
    }
    const u32 = (a: Uint32Array) => {
      const b = new Uint32Array(capacity)
      b.set(a)
      return b
    }
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(capacity)
      b.set(a)
      return b
    }
    this.objectOf = f64(this.objectOf)
    this.bytesOf = f64(this.bytesOf)
    this.lastUsedOf = f64(this.lastUsedOf)
    this.createdOf = f64(this.createdOf)
    this.rankOf = f64(this.rankOf)
    this.holdersOf = i32(this.holdersOf)
    this.priorityOf = u8(this.priorityOf)
    this.residentOf = u8(this.residentOf)
    this.listOf = u8(this.listOf)
    this.aliveOf = u8(this.aliveOf)
    this.usedEpochOf = u32(this.usedEpochOf)
    this.changedEpochOf = u32(this.changedEpochOf)
    this.createdEpochOf = u32(this.createdEpochOf)
    this.prevOf = i32(this.prevOf)
    this.nextOf = i32(this.nextOf)
    this.capacity = capacity
  }

  private slotOf(object: number): number {
    if (object >= 0 && object < DIRECT_IDS && Number.isInteger(object)) {
      return object < this.direct.length ? this.direct[object] - 1 : NONE
    }
    const slot = this.far.get(object)
    return slot === undefined ? NONE : slot
  }

  private mapObject(object: number, slot: number): void {
    if (object >= 0 && object < DIRECT_IDS && Number.isInteger(object)) {
      if (object >= this.direct.length) {
        let size = Math.max(1024, this.direct.length)
        while (size <= object) size *= 2
        const grown = new Int32Array(Math.min(size, DIRECT_IDS))
        grown.set(this.direct)
        this.direct = grown
      }
      this.direct[object] = slot + 1
    } else {
      this.far.set(object, slot)
    }
  }

  private unmapObject(object: number): void {
    if (object >= 0 && object < DIRECT_IDS && Number.isInteger(object)) this.direct[object] = 0
    else this.far.delete(object)
  }
}
