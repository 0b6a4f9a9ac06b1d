/**
 * The residency manager of the D3D12 model (seed §9): which residency objects (committed resources, pool heaps,
 * transient heaps, reserved resources' backing heaps) hold video memory at the end of each frame.
 *
 * UE registers every such object with the D3DX12Residency manager. What the real manager does, and how the model
 * maps it:
 * - Before each ExecuteCommandLists it makes the residency set of the submitted lists resident and, when that would
 *   exceed the budget, first evicts objects from the least recently used end of its LRU list whose last GPU use has
 *   completed. The model works at frame granularity: markUsed collects the frame's residency set, endFrame makes it
 *   resident and then evicts until the total fits. The resulting state is the same; the events come MakeResident
 *   first, then Evict.
 * - Objects used in the frame are never evicted in that frame (their GPU work is still in flight). When they alone
 *   exceed the budget the real MakeResident overcommits and the OS demotes; the model reports an over-budget frame.
 * - The real LRU list has no priorities. UE sets D3D12_RESIDENCY_PRIORITY_HIGH on some heaps (transient heaps, the
 *   acceleration-structure pool), a hint by which the OS demotes normal-priority memory first. The model folds both
 *   into one order: every evictable normal object before any high one, least recently used first within each.
 * - The real manager also trims objects idle for longer than a grace period while under budget. The seed does not
 *   describe that and the model does not do it: objects are evicted only to get back under the budget.
 * - A budget change (setBudget) takes effect at the next endFrame, like the real manager, which reads the budget
 *   from QueryVideoMemoryInfo when it next processes paging work.
 *
 * Hot path: markUsed runs for every used object of every frame. Objects live in slots of typed arrays; each
 * priority has an intrusive doubly linked LRU list of its resident objects (least recently used at the head), so a
 * use is O(1) and endFrame is O(objects used + objects evicted), with no sort.
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
/** Object ids below this are looked up in a flat table; the model hands out dense ids from 0. */
const DIRECT_IDS = 1 << 22

export class ResidencyManager {
  private readonly enabled: boolean
  private readonly startResident: boolean
  private budgetBytes: Bytes
  private sink: ModelSink

  // One slot per live object; a slot freed in a frame is reused only after that frame's endFrame, so a slot in
  // the frame's used list always still means the object that was marked.
  private capacity = 0
  private slotCount = 0
  private objectOf = new Float64Array(0)
  private bytesOf = new Float64Array(0)
  private lastUsedOf = new Float64Array(0)
  private createdOf = new Float64Array(0)
  private priorityOf = new Uint8Array(0)
  private residentOf = new Uint8Array(0)
  private aliveOf = new Uint8Array(0)
  private usedEpochOf = new Uint32Array(0)
  private prevOf = new Int32Array(0)
  private nextOf = new Int32Array(0)
  private labels: string[] = []
  private freeSlots: number[] = []
  private releasedThisFrame: number[] = []

  /** LRU lists of resident objects per priority: head least recently used, tail most recently used. */
  private readonly head = new Int32Array([NONE, NONE])
  private readonly tail = new Int32Array([NONE, NONE])

  /** object id → slot + 1 for small non-negative integer ids (0: none); other ids in `far`. */
  private direct = new Int32Array(0)
  private far = new Map<number, number>()

  private used = new Int32Array(64)
  private usedCount = 0
  /** Numbers the frames from 1; usedEpochOf[slot] === epoch means the object is used in the current frame. */
  private epoch = 1
  private allUsed = false

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
    this.budgetBytes = options.budget
    this.sink = sink
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
    this.residentOf[slot] = 0
    this.aliveOf[slot] = 1
    this.usedEpochOf[slot] = 0
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
    } else if (this.startResident) {
      // Created resident, it enters the LRU list at the most recently used end, as D3DX12Residency's
      // BeginTrackingObject does for resident objects.
      this.makeResident(slot, frame)
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

  /** GPU work of the current frame uses the object: it is made resident at endFrame and cannot be evicted then. */
  markUsed(object: number): void {
    if (!this.enabled) return
    const slot = this.slotOf(object)
    if (slot === NONE) {
      this.unknownUses++
      return
    }
    if (this.usedEpochOf[slot] === this.epoch) return
    this.usedEpochOf[slot] = this.epoch
    if (this.usedCount === this.used.length) {
      const grown = new Int32Array(this.used.length * 2)
      grown.set(this.used)
      this.used = grown
    }
    this.used[this.usedCount++] = slot
  }

  /**
   * Every live object is used in the current frame: a capture without `use` records. Cheaper than one markUsed
   * per object; objects already resident keep their relative LRU order, the others join in creation order.
   */
  markAllUsed(): void {
    if (this.enabled) this.allUsed = true
  }

  setBudget(bytes: Bytes): void {
    this.budgetBytes = bytes
  }

  endFrame(frame: number): void {
    if (this.enabled) {
      if (this.allUsed) {
        for (let slot = 0; slot < this.slotCount; slot++) {
          if (this.aliveOf[slot] === 0) continue
          this.lastUsedOf[slot] = frame
          if (this.residentOf[slot] === 0) this.makeResident(slot, frame)
        }
      } else {
        for (let i = 0; i < this.usedCount; i++) {
          const slot = this.used[i]
          if (this.aliveOf[slot] === 0) continue
          this.lastUsedOf[slot] = frame
          if (this.residentOf[slot] === 1) {
            this.unlink(slot)
            this.linkTail(slot)
          } else {
            this.makeResident(slot, frame)
          }
        }
      }
      this.evictToBudget(frame)
    }
    this.usedCount = 0
    this.allUsed = false
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

  /** Resident objects of one priority in eviction order: the first would be evicted first. Empty when disabled. */
  evictionOrder(priority: ResidencyPriority): ResidencyObjectId[] {
    const out: ResidencyObjectId[] = []
    for (let slot = this.head[priority === 'high' ? HIGH : NORMAL]; slot !== NONE; slot = this.nextOf[slot]) {
      out.push(this.objectOf[slot])
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

  /** A deep copy that sends its events to `sink` and continues exactly as this one would. */
  clone(sink: ModelSink): ResidencyManager {
    const c = new ResidencyManager(
      { enabled: this.enabled, startResident: this.startResident, budget: this.budgetBytes },
      sink,
    )
    c.capacity = this.capacity
    c.slotCount = this.slotCount
    c.objectOf = this.objectOf.slice()
    c.bytesOf = this.bytesOf.slice()
    c.lastUsedOf = this.lastUsedOf.slice()
    c.createdOf = this.createdOf.slice()
    c.priorityOf = this.priorityOf.slice()
    c.residentOf = this.residentOf.slice()
    c.aliveOf = this.aliveOf.slice()
    c.usedEpochOf = this.usedEpochOf.slice()
    c.prevOf = this.prevOf.slice()
    c.nextOf = this.nextOf.slice()
    c.labels = this.labels.slice()
    c.freeSlots = this.freeSlots.slice()
    c.releasedThisFrame = this.releasedThisFrame.slice()
    c.head.set(this.head)
    c.tail.set(this.tail)
    c.direct = this.direct.slice()
    c.far = new Map(this.far)
    c.used = this.used.slice()
    c.usedCount = this.usedCount
    c.epoch = this.epoch
    c.allUsed = this.allUsed
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

  private evictToBudget(frame: Frame): void {
    while (this.residentTotal > this.budgetBytes) {
      // Used objects were just moved to the tails, so a head that is in use means its whole list is in use.
      let victim = this.head[NORMAL]
      if (victim === NONE || this.usedNow(victim)) victim = this.head[HIGH]
      if (victim === NONE || this.usedNow(victim)) {
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

  private usedNow(slot: number): boolean {
    return this.allUsed || this.usedEpochOf[slot] === this.epoch
  }

  private makeResident(slot: number, frame: Frame): void {
    const bytes = this.bytesOf[slot]
    this.residentOf[slot] = 1
    this.residentObjectCount++
    this.residentTotal += bytes
    this.linkTail(slot)
    this.makeResidentCount++
    this.madeResidentBytes += bytes
    this.sink.madeResident?.(this.objectOf[slot], bytes, frame)
  }

  private linkTail(slot: number): void {
    const p = this.priorityOf[slot]
    const last = this.tail[p]
    this.prevOf[slot] = last
    this.nextOf[slot] = NONE
    if (last === NONE) this.head[p] = slot
    else this.nextOf[last] = slot
    this.tail[p] = slot
  }

  private unlink(slot: number): void {
    const p = this.priorityOf[slot]
    const prev = this.prevOf[slot]
    const next = this.nextOf[slot]
    if (prev === NONE) this.head[p] = next
    else this.nextOf[prev] = next
    if (next === NONE) this.tail[p] = prev
    else this.prevOf[next] = prev
    this.prevOf[slot] = NONE
    this.nextOf[slot] = NONE
  }

  private info(slot: number): ResidencyObjectInfo {
    return {
      object: this.objectOf[slot],
      bytes: this.bytesOf[slot],
      priority: this.priorityOf[slot] === HIGH ? 'high' : 'normal',
      label: this.labels[slot],
      resident: this.residentOf[slot] === 1,
      lastUsedFrame: this.lastUsedOf[slot],
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
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(capacity)
      b.set(a)
      return b
    }
    this.objectOf = f64(this.objectOf)
    this.bytesOf = f64(this.bytesOf)
    this.lastUsedOf = f64(this.lastUsedOf)
    this.createdOf = f64(this.createdOf)
    this.priorityOf = u8(this.priorityOf)
    this.residentOf = u8(this.residentOf)
    this.aliveOf = u8(this.aliveOf)
    const epochs = new Uint32Array(capacity)
    epochs.set(this.usedEpochOf)
    this.usedEpochOf = epochs
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
