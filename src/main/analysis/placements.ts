/**
 * Placed resources in application heaps, one frame at a time, as the aliasing view draws them: each heap's
 * resources as rectangles of their bytes against the frame's steps (its aliasing barriers, GPU accesses to placed
 * resources and submits, in capture order), the spans each was active in (simple model), the accesses and
 * barriers as marks, the pairs sharing bytes, and the frame's hazards at the step they happened. Nothing here
 * restates a rule: the AliasingChecker that finds the run's hazards is replayed over the frame, and its state
 * (what is placed where, what is active, what overlaps) is read after each record. Checkpoints of the checker,
 * taken in one pass when the first frame is asked for, bound the replay before a frame. The same for D3D12 and
 * Vulkan runs: both keep these records in the store and check them with the same checker.
 */
import { HEAP_KINDS } from '../../shared/capture'
import { PLACEMENT_STEPS, type PlacedHeapLayout, type PlacementHazard, type PlacementsAnswer } from '../../shared/ipc'
import { lowerBound } from '../../shared/search'
import type { Bytes } from '../../shared/units'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../ingest/store'
import { AliasingChecker, type PlacedState } from '../model/aliasing/checker'
import type { Hazard } from '../model/aliasing/hazards'
import { AliasingFeed, aliasingOf } from './hazards'

/** Most steps of a frame marked; past it the state goes on, the marks stop and the answer says `truncated`. */
export const MAX_PLACEMENT_STEPS = 100_000
/** A checkpoint every this many records the checker reads, or this many records of any kind. */
const CHECKPOINT_CHECKED = 1 << 16
const CHECKPOINT_RECORDS = 1 << 22
const CACHE_SIZE = 4

const BARRIER = PLACEMENT_STEPS.indexOf('barrier')
const ACCESS = PLACEMENT_STEPS.indexOf('access')
const SUBMIT = PLACEMENT_STEPS.indexOf('submit')

interface Checkpoint {
  /** Frame index whose first record the checker has not read yet. */
  frame: number
  checker: AliasingChecker
}

/** Growable typed-array column, so marks cost no object each. */
class IntColumn {
  data = new Int32Array(64)
  length = 0
  push(a: number, b?: number, c?: number): void {
    if (this.length + 3 > this.data.length) {
      const next = new Int32Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = a
    if (b !== undefined) this.data[this.length++] = b
    if (c !== undefined) this.data[this.length++] = c
  }
  take(): Int32Array {
    return this.data.slice(0, this.length)
  }
}

/** One placed resource's rectangle being built. */
interface OpenResource {
  index: number
  /** Step its current active span began, -1 when not active. */
  activeFrom: number
  open: boolean
}

/** One heap's layout being built. */
class HeapBuilder {
  readonly id: number[] = []
  readonly offset: number[] = []
  readonly size: number[] = []
  readonly from: number[] = []
  readonly to: number[] = []
  readonly texture: number[] = []
  readonly target: number[] = []
  readonly name: string[] = []
  readonly active = new IntColumn()
  readonly overlaps = new IntColumn()
  /** Open rectangles by resource id. */
  readonly live = new Map<number, OpenResource>()
  /** The latest rectangle of each id, open or not, for hazards naming a resource gone since. */
  readonly latest = new Map<number, number>()
  /** Step the heap was freed at, -1 while it lives. */
  end = -1
  reach: Bytes = 0

  constructor(
    /** Index in the frame's heaps. */
    readonly index: number,
    readonly heapId: number,
    readonly heapName: string,
    readonly heapSize: Bytes | undefined,
    readonly type: string,
    readonly start: number,
  ) {}

  layout(steps: number): PlacedHeapLayout {
    return {
      id: this.heapId,
      name: this.heapName,
      size: this.heapSize ?? this.reach,
      type: this.type,
      from: this.start,
      to: this.end < 0 ? steps : this.end,
      resources: {
        id: Float64Array.from(this.id),
        offset: Float64Array.from(this.offset),
        size: Float64Array.from(this.size),
        from: Int32Array.from(this.from),
        to: Int32Array.from(this.to),
        texture: Uint8Array.from(this.texture),
        target: Uint8Array.from(this.target),
        name: this.name,
      },
      active: this.active.take(),
      overlaps: this.overlaps.take(),
    }
  }
}

/** Builds one frame's answer while the checker reads the frame's records. */
class FrameBuilder {
  readonly heaps: HeapBuilder[] = []
  /** Open heaps by id. */
  private readonly open = new Map<number, HeapBuilder>()
  steps = 0
  truncated = false
  private readonly stepKind = new IntColumn()
  private readonly access = { heap: new IntColumn(), resource: new IntColumn(), step: new IntColumn(), op: new IntColumn() }
  private readonly barrier = {
    step: new IntColumn(),
    afterHeap: new IntColumn(),
    after: new IntColumn(),
    beforeHeap: new IntColumn(),
    before: new IntColumn(),
  }
  readonly hazards: PlacementHazard[] = []
  /** The step of the record the checker is reading (-1: not a step), for the hazards it reports. */
  private pendingStep = -1

  constructor(
    private readonly store: CaptureStore,
    private readonly checker: AliasingChecker,
    private readonly names: PlacedNames,
    private readonly simple: boolean,
  ) {}

  /** The heaps and resources live as the frame begins, with their state. */
  begin(firstRecord: number): void {
    for (const [heapId, residents] of this.checker.heaps()) {
      const heap = this.openHeap(heapId, this.names.heapRecordBefore(heapId, firstRecord))
      for (const r of residents) this.place(heap, r, this.names.placedRecordBefore(r.id, firstRecord))
    }
    for (const heap of this.heaps) {
      for (const [id, open] of heap.live) {
        const r = this.checker.placedState(id)!
        for (const o of r.overlaps) {
          const other = heap.live.get(o.id)
          // each pair once: from the side placed first
          if (other && other.index > open.index) heap.overlaps.push(open.index, other.index)
        }
      }
    }
  }

  /** The step a mark goes at: the next one, unless the frame already has as many as are shown. */
  private nextStep(kind: number): number {
    if (this.steps >= MAX_PLACEMENT_STEPS) {
      this.truncated = true
      return -1
    }
    this.stepKind.push(kind)
    return this.steps++
  }

  /** The step a change of state happens at: the end of the steps so far. */
  private get now(): number {
    return this.steps
  }

  private openHeap(heapId: number, record: number): HeapBuilder {
    const store = this.store
    let name = ''
    let type = ''
    if (record >= 0) {
      const r = store.records.ref[record]
      type = HEAP_KINDS[store.ops[r + 2]] ?? ''
      name = store.strings.get(store.ops[r + 3]) ?? ''
    }
    const heap = new HeapBuilder(this.heaps.length, heapId, name, this.checker.heapSizeOf(heapId), type, this.now)
    this.heaps.push(heap)
    this.open.set(heapId, heap)
    return heap
  }

  private heapOf(heapId: number): HeapBuilder {
    return this.open.get(heapId) ?? this.openHeap(heapId, -1)
  }

  private place(heap: HeapBuilder, r: PlacedState, record: number): OpenResource {
    const index = heap.id.length
    heap.id.push(r.id)
    heap.offset.push(r.start)
    heap.size.push(r.end - r.start)
    heap.from.push(this.now)
    heap.to.push(-1)
    heap.texture.push(r.kind === 'texture' ? 1 : 0)
    heap.target.push(r.target)
    heap.name.push(record >= 0 ? this.names.nameOf(record) : '')
    heap.reach = Math.max(heap.reach, r.end)
    const open: OpenResource = { index, activeFrom: this.simple && r.active ? this.now : -1, open: true }
    heap.live.set(r.id, open)
    heap.latest.set(r.id, index)
    return open
  }

  private close(heap: HeapBuilder, id: number): void {
    const open = heap.live.get(id)
    if (!open) return
    this.endActive(heap, open)
    heap.to[open.index] = this.now
    open.open = false
    heap.live.delete(id)
  }

  private closeHeap(heap: HeapBuilder): void {
    for (const id of [...heap.live.keys()]) this.close(heap, id)
    heap.end = this.now
    if (this.open.get(heap.heapId) === heap) this.open.delete(heap.heapId)
  }

  private endActive(heap: HeapBuilder, open: OpenResource): void {
    if (open.activeFrom < 0) return
    heap.active.push(open.index, open.activeFrom, Math.max(open.activeFrom, this.now))
    open.activeFrom = -1
  }

  /** Where a placed resource's rectangle is: its heap and index, or -1s. */
  private find(id: number): [number, number] {
    const r = this.checker.placedState(id)
    if (!r) return [-1, -1]
    const heap = this.open.get(r.heap)
    const open = heap?.live.get(id)
    return heap && open ? [heap.index, open.index] : [-1, -1]
  }

  /** Whether the checker's record `index` shows in the layout, and what it changes before the checker reads it. */
  before(index: number): void {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    if (kind === RECORD_KIND.placed) {
      // placed again: the old rectangle ends
      const id = this.names.placedIdOf(index)
      const r = this.checker.placedState(id)
      if (r) this.close(this.heapOf(r.heap), id)
    } else if (kind === RECORD_KIND.heap) {
      const heap = this.open.get(store.ops[ref])
      if (heap) this.closeHeap(heap)
    } else if (kind === RECORD_KIND.free) {
      const id = store.ops[ref]
      const heap = this.open.get(id)
      if (heap) this.closeHeap(heap)
      else {
        const r = this.checker.placedState(id)
        if (r) this.close(this.heapOf(r.heap), id)
      }
    } else if (kind === RECORD_KIND.release) {
      const id = store.ops[ref]
      const r = this.checker.placedState(id)
      if (r) this.close(this.heapOf(r.heap), id)
    } else if (kind === RECORD_KIND.barrier) {
      const [afterHeap, after] = this.find(store.ops[ref])
      const before = store.ops[ref + 1]
      const [beforeHeap, beforeIndex] = Number.isNaN(before) ? [-1, -1] : this.find(before)
      if (afterHeap < 0 && beforeHeap < 0) {
        this.pendingStep = -1
        return
      }
      const step = this.nextStep(BARRIER)
      this.pendingStep = step < 0 ? this.steps - 1 : step
      if (step < 0) return
      this.barrier.step.push(step)
      this.barrier.afterHeap.push(afterHeap)
      this.barrier.after.push(after)
      this.barrier.beforeHeap.push(beforeHeap)
      this.barrier.before.push(beforeIndex)
    } else if (kind === RECORD_KIND.access) {
      const [heap, resource] = this.find(store.ops[ref])
      if (heap < 0) {
        this.pendingStep = -1
        return
      }
      const step = this.nextStep(ACCESS)
      this.pendingStep = step < 0 ? this.steps - 1 : step
      if (step < 0) return
      this.access.heap.push(heap)
      this.access.resource.push(resource)
      this.access.step.push(step)
      this.access.op.push(store.ops[ref + 1])
    } else if (kind === RECORD_KIND.submit) {
      const step = this.nextStep(SUBMIT)
      this.pendingStep = step < 0 ? this.steps - 1 : step
    }
  }

  /** What the record changed, read from the checker's state once it has read it. */
  after(index: number): void {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    if (kind === RECORD_KIND.heap) {
      this.openHeap(store.ops[ref], index)
    } else if (kind === RECORD_KIND.placed) {
      const r = this.checker.placedState(this.names.placedIdOf(index))
      if (!r) return
      const heap = this.heapOf(r.heap)
      const open = this.place(heap, r, index)
      for (const o of r.overlaps) {
        const other = heap.live.get(o.id)
        if (other) heap.overlaps.push(other.index, open.index)
      }
    } else if (kind === RECORD_KIND.barrier && this.simple) {
      // the activated resource, and those sharing its bytes, as the checker now has them
      const r = this.checker.placedState(store.ops[ref])
      if (!r) return
      const heap = this.open.get(r.heap)
      if (!heap) return
      this.syncActive(heap, r)
      for (const o of r.overlaps) this.syncActive(heap, o)
    }
  }

  private syncActive(heap: HeapBuilder, r: PlacedState): void {
    const open = heap.live.get(r.id)
    if (!open) return
    const at = this.pendingStep < 0 ? this.now : this.pendingStep
    if (r.active && open.activeFrom < 0) open.activeFrom = at
    else if (!r.active && open.activeFrom >= 0) {
      heap.active.push(open.index, open.activeFrom, Math.max(open.activeFrom, at))
      open.activeFrom = -1
    }
  }

  /** A hazard the checker reported while reading the current record. */
  hazard(h: Hazard): void {
    const heap = this.open.get(h.heap)
    const heapIndex = heap ? heap.index : -1
    const indices = h.resources.map((id) => (heap ? (heap.latest.get(id) ?? -1) : -1))
    this.hazards.push({
      rule: h.rule,
      resources: h.resources.slice(),
      heapIndex,
      indices,
      heap: h.heap,
      range: [h.range[0], h.range[1]],
      step: this.pendingStep < 0 ? Math.max(0, this.steps - 1) : this.pendingStep,
      message: h.message,
    })
  }

  finish(runId: string, frame: number, aliasing: 'simple' | 'advanced'): PlacementsAnswer {
    for (const heap of this.heaps) {
      for (const open of heap.live.values()) {
        this.endActive(heap, open)
        heap.to[open.index] = this.steps
      }
    }
    const op = this.access.op.take()
    return {
      runId,
      frame,
      aliasing,
      steps: this.steps,
      stepKind: Uint8Array.from(this.stepKind.take()),
      heaps: this.heaps.map((h) => h.layout(this.steps)),
      accesses: {
        heap: this.access.heap.take(),
        resource: this.access.resource.take(),
        step: this.access.step.take(),
        op: Uint8Array.from(op),
      },
      barriers: {
        step: this.barrier.step.take(),
        afterHeap: this.barrier.afterHeap.take(),
        after: this.barrier.after.take(),
        beforeHeap: this.barrier.beforeHeap.take(),
        before: this.barrier.before.take(),
      },
      hazards: this.hazards,
      truncated: this.truncated,
    }
  }
}

/**
 * Where names come from: each placed and heap record's index by id, so a resource live at a frame's start finds
 * the record that placed it (its name, its kind) without a scan. Built once; placed records are few.
 */
class PlacedNames {
  private readonly placed = new Map<number, number[]>()
  private readonly heapRecords = new Map<number, number[]>()

  constructor(private readonly store: CaptureStore) {
    const { kind, ref } = store.records
    for (let i = 0; i < store.records.length; i++) {
      if (kind[i] === RECORD_KIND.placed) push(this.placed, this.placedIdOf(i), i)
      else if (kind[i] === RECORD_KIND.heap) push(this.heapRecords, store.ops[ref[i]], i)
    }
  }

  placedIdOf(record: number): number {
    const store = this.store
    return store.placed.id.data[store.records.ref[record]]
  }

  nameOf(record: number): string {
    const store = this.store
    const r = store.records.ref[record]
    const desc = store.placed.desc.data[r]
    const names = store.placed.kind.data[r] === 0 ? store.buffers.name : store.textures.name
    return store.strings.get(names.data[desc]) ?? ''
  }

  placedRecordBefore(id: number, end: number): number {
    return lastBefore(this.placed.get(id), end)
  }

  heapRecordBefore(id: number, end: number): number {
    return lastBefore(this.heapRecords.get(id), end)
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** The last of ascending `list` below `end`, or -1. */
function lastBefore(list: number[] | undefined, end: number): number {
  if (!list) return -1
  const at = lowerBound(list, end)
  return at > 0 ? list[at - 1] : -1
}

/** A run's placement layouts, frame by frame. */
export class PlacementLayouts {
  readonly aliasing: 'simple' | 'advanced'
  private readonly api: 'd3d12' | 'vulkan'
  private checkpoints: Checkpoint[] | undefined
  private names: PlacedNames | undefined
  private readonly cache: PlacementsAnswer[] = []

  constructor(
    private readonly store: CaptureStore,
    private readonly options: { checkpointChecked?: number; checkpointRecords?: number } = {},
  ) {
    this.aliasing = aliasingOf(store)
    this.api = store.header.api ?? 'd3d12'
  }

  private newChecker(): AliasingChecker {
    return new AliasingChecker({ model: this.aliasing, api: this.api, onHazard: () => undefined })
  }

  /** One pass of the checker over the capture, keeping its state every so many records. */
  private build(): Checkpoint[] {
    const store = this.store
    const checker = this.newChecker()
    const feed = new AliasingFeed(store, checker)
    const kinds = store.records.kind
    const everyChecked = this.options.checkpointChecked ?? CHECKPOINT_CHECKED
    const everyRecords = this.options.checkpointRecords ?? CHECKPOINT_RECORDS
    const out: Checkpoint[] = [{ frame: 0, checker: checker.clone() }]
    let checked = 0
    let lastRecord = 0
    for (let f = 0; f < store.frames.length; f++) {
      const start = store.frames.firstRecord[f]
      if (f > 0 && (checked >= everyChecked || start - lastRecord >= everyRecords)) {
        out.push({ frame: f, checker: checker.clone() })
        checked = 0
        lastRecord = start
      }
      const end = frameEnd(store, f)
      for (let i = start; i < end; i++) {
        if (!AliasingFeed.reads(kinds[i])) continue
        feed.apply(i)
        checked++
      }
    }
    return out
  }

  /** How many checkpoints the run keeps (built on first use). */
  get checkpointCount(): number {
    return this.checkpoints?.length ?? 0
  }

  layout(runId: string, frame: number): PlacementsAnswer {
    const store = this.store
    const f = Math.max(0, Math.min(store.frames.length - 1, Math.floor(frame)))
    let answer = this.cache.find((a) => a.frame === f)
    if (!answer) {
      answer = store.placed.length === 0 || store.frames.length === 0 ? this.empty(runId, f) : this.compute(runId, f)
      this.cache.unshift(answer)
      if (this.cache.length > CACHE_SIZE) this.cache.pop()
    }
    // a copy: the worker moves an answer's arrays to the host, which would empty the cached ones
    return copyAnswer(answer, runId)
  }

  private empty(runId: string, frame: number): PlacementsAnswer {
    return {
      runId,
      frame,
      aliasing: this.aliasing,
      steps: 0,
      stepKind: new Uint8Array(0),
      heaps: [],
      accesses: { heap: new Int32Array(0), resource: new Int32Array(0), step: new Int32Array(0), op: new Uint8Array(0) },
      barriers: {
        step: new Int32Array(0),
        afterHeap: new Int32Array(0),
        after: new Int32Array(0),
        beforeHeap: new Int32Array(0),
        before: new Int32Array(0),
      },
      hazards: [],
      truncated: false,
    }
  }

  private compute(runId: string, f: number): PlacementsAnswer {
    const store = this.store
    this.checkpoints ??= this.build()
    this.names ??= new PlacedNames(store)
    const checkpoints = this.checkpoints
    let lo = 0
    let hi = checkpoints.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (checkpoints[mid].frame <= f) lo = mid
      else hi = mid - 1
    }
    // hazards before the frame are the list's business, not this frame's
    const reporting: { to?: FrameBuilder } = {}
    const checker = checkpoints[lo].checker.clone({ onHazard: (h) => reporting.to?.hazard(h) })
    const feed = new AliasingFeed(store, checker)
    const kinds = store.records.kind
    const start = store.frames.firstRecord[f]
    for (let i = store.frames.firstRecord[checkpoints[lo].frame]; i < start; i++) if (AliasingFeed.reads(kinds[i])) feed.apply(i)
    const b = new FrameBuilder(store, checker, this.names, this.aliasing === 'simple')
    b.begin(start)
    reporting.to = b
    const end = frameEnd(store, f)
    for (let i = start; i < end; i++) {
      if (!AliasingFeed.reads(kinds[i])) continue
      b.before(i)
      feed.apply(i)
      b.after(i)
    }
    return b.finish(runId, f, this.aliasing)
  }
}

function copyAnswer(a: PlacementsAnswer, runId: string): PlacementsAnswer {
  return {
    ...a,
    runId,
    stepKind: a.stepKind.slice(),
    heaps: a.heaps.map((h) => ({
      ...h,
      resources: {
        id: h.resources.id.slice(),
        offset: h.resources.offset.slice(),
        size: h.resources.size.slice(),
        from: h.resources.from.slice(),
        to: h.resources.to.slice(),
        texture: h.resources.texture.slice(),
        target: h.resources.target.slice(),
        name: h.resources.name.slice(),
      },
      active: h.active.slice(),
      overlaps: h.overlaps.slice(),
    })),
    accesses: {
      heap: a.accesses.heap.slice(),
      resource: a.accesses.resource.slice(),
      step: a.accesses.step.slice(),
      op: a.accesses.op.slice(),
    },
    barriers: {
      step: a.barriers.step.slice(),
      afterHeap: a.barriers.afterHeap.slice(),
      after: a.barriers.after.slice(),
      beforeHeap: a.barriers.beforeHeap.slice(),
      before: a.barriers.before.slice(),
    },
    hazards: a.hazards.map((h) => ({ ...h, resources: h.resources.slice(), indices: h.indices.slice(), range: [h.range[0], h.range[1]] })),
  }
}
