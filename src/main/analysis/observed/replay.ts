/**
 * The observed replay: a trace of what an allocator or a driver did (capture header `observed`, format 1.5) played
 * as it happened, with no model. Its heaps are the trace's own, with their sizes and the memory the trace says they
 * are in (`memory` on `heap` records, else the heap type); its resources are placed where the trace placed them.
 * Per frame: heap bytes and placed bytes per memory kind and in all, live resources, and the trace's residency
 * (residencyRecords.ts). Checkpoints of the live heaps and resources every so many records let a snapshot at any
 * frame replay a bounded stretch.
 */
import { HEAP_KINDS } from '../../../shared/capture'
import { SERIES, type SeriesInfo } from '../../../shared/ipc'
import type { Bytes } from '../../../shared/units'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import { Checkpoints, liveColumns, type CheckpointOptions } from '../checkpoints'
import type { FrameGate, ReplayProgress } from '../backend'
import { RESIDENCY_SERIES, TOTAL_SERIES } from '../../../shared/series'
import { ResidencyEvents } from '../residencyEvents'
import { frameOfRecord } from '../records'
import { Findings, FrameChecks } from '../checks'
import { aliasingOf, HazardLog } from '../hazards'
import { SeriesTable } from '../seriesTable'
import { integerMember, ObservedResidency } from '../residencyRecords'

/** The series of an observed run, by memory kind (as the trace names it) and in all. */
export const observedSeriesName = {
  memory: (memory: string, field: 'heapBytes' | 'placedBytes') => `memory.${memory}.${field}`,
} as const

/** The placement of every resource of an observed run: the trace placed it, no model. */
export const OBSERVED_PLACEMENT = 'Observed'

export const OBSERVED_SERIES = {
  heapBytes: TOTAL_SERIES.heapBytes,
  placedBytes: TOTAL_SERIES.occupiedBytes,
} as const

/** A heap the trace made and has not freed. */
export interface ObservedHeap {
  id: number
  size: Bytes
  /** Index in the replay's `memories`. */
  memory: number
  /** The `heap` record that made it. */
  record: number
}

/** A resource the trace placed in one of its heaps and has not released. */
export interface ObservedPlaced {
  id: number
  heap: number
  offset: Bytes
  size: Bytes
  /** The `placed` record that placed it. */
  record: number
}

/** What is live after a frame: the heaps and the resources placed in them. */
/**
 * The placed resources a stretch of frames touched, each with whether it was live before the first touch: what a
 * playback sends as created and released, found without comparing every live resource before and after.
 */
export class PlacedChanges {
  private readonly before = new Map<number, boolean>()

  touch(id: number, live: boolean): void {
    if (!this.before.has(id)) this.before.set(id, live)
  }

  /**
   * The ids live now that were not before, and those live before that are not now, in the order first touched (one
   * released and placed again, or placed and released, is neither); then forgets them.
   */
  take(state: ObservedState, created: (id: number) => void, released: (id: number) => void): void {
    for (const [id, was] of this.before) {
      const now = state.placed.has(id)
      if (now && !was) created(id)
      else if (was && !now) released(id)
    }
    this.before.clear()
  }
}

export interface ObservedState {
  frame: number
  heaps: Map<number, ObservedHeap>
  placed: Map<number, ObservedPlaced>
  /** The ids placed in each heap that holds any: what a heap's `free` takes along. */
  inHeap: Map<number, Set<number>>
  /** Heaps the trace made resident and has not evicted or freed (a partial evict keeps a heap here). */
  resident: Set<number>
}

/** Live bytes per memory kind (by index in `memories`): of heaps, of resources placed in them; and of all placed. */
interface MemorySums {
  heap: number[]
  placed: number[]
  placedAll: number
}

/** What a checkpoint of an observed replay copies: the live heaps and resources, and the resident heaps. */
interface LiveCopy {
  heaps: ObservedHeap[]
  placed: ObservedPlaced[]
  resident: number[]
}

/** Bytes a checkpoint holds per heap and per resource (their objects and the live columns' entries), for its budget. */
const HEAP_BYTES = 64
const PLACED_BYTES = 80

export interface ObservedReplayOptions extends CheckpointOptions {
  /** The capture is still being written: the store grows, and the replay waits at its end for more. */
  gate?: FrameGate
  signal?: AbortSignal
  onProgress?: (progress: ReplayProgress) => void
}

/** Whether a capture is an observed trace, replayed with no model. */
export function isObservedRun(header: CaptureStore['header']): boolean {
  return typeof header.observed === 'string'
}

export class ObservedReplay {
  readonly series: SeriesTable
  readonly residencyEvents = new ResidencyEvents()
  /** The aliasing checks' findings over the trace's placed resources, frame by frame (`check.*` series too). */
  readonly checks: HazardLog
  /** The memory kinds of the trace's heaps, in the order they first appear. */
  readonly memories: string[] = []
  /** Records an observed replay has no use for (requests for a model: buffers, textures, transients, …). */
  skippedRecords = 0
  private readonly memoryIndex = new Map<string, number>()
  private readonly checkpoints: Checkpoints<LiveCopy>

  private constructor(
    readonly store: CaptureStore,
    options: ObservedReplayOptions,
  ) {
    this.series = new SeriesTable(store.frames.n, { growing: options.gate !== undefined })
    this.checkpoints = new Checkpoints(store, options)
    this.checks = new HazardLog(aliasingOf(store), store.frames.n)
  }

  static async run(store: CaptureStore, options: ObservedReplayOptions = {}): Promise<ObservedReplay> {
    const { replay, done } = ObservedReplay.start(store, options)
    await done
    return replay
  }

  /** The replay at once and the end of its replay: a followed one (`options.gate`) or a whole one. */
  static start(store: CaptureStore, options: ObservedReplayOptions = {}): { replay: ObservedReplay; done: Promise<void> } {
    const replay = new ObservedReplay(store, options)
    return { replay, done: replay.play(options) }
  }

  /** The memory kind (its index in `memories`) of the `heap` record at ops `ref`: its `memory`, else its heap type. */
  memoryOf(ref: number): number {
    const store = this.store
    const name = store.strings.get(store.ops[ref + 4]) ?? HEAP_KINDS[store.ops[ref + 2]] ?? HEAP_KINDS[0]
    let index = this.memoryIndex.get(name)
    if (index === undefined) {
      index = this.memories.length
      this.memories.push(name)
      this.memoryIndex.set(name, index)
    }
    return index
  }

  /**
   * The store's records of frame index `f` applied to `state`. In the replay itself, `sums` follows the live bytes
   * per memory kind, `residency` the trace's residency, and `skip` counts the records of no use here.
   */
  private apply(
    state: ObservedState,
    f: number,
    sums?: MemorySums,
    residency?: ObservedResidency,
    skip?: () => void,
    changes?: PlacedChanges,
  ): void {
    const store = this.store
    const { kind: kinds, ref: refs } = store.records
    const { heaps, placed } = state
    const end = frameEnd(store, f)
    for (let i = store.frames.firstRecord[f]; i < end; i++) {
      const k = kinds[i]
      const r = refs[i]
      switch (k) {
        case RECORD_KIND.frame:
          break
        case RECORD_KIND.heap: {
          const id = store.ops[r]
          const heap: ObservedHeap = { id, size: store.ops[r + 1], memory: this.memoryOf(r), record: i }
          heaps.set(id, heap)
          if (sums) {
            while (sums.heap.length <= heap.memory) {
              sums.heap.push(0)
              sums.placed.push(0)
            }
            sums.heap[heap.memory] += heap.size
          }
          break
        }
        case RECORD_KIND.placed: {
          const p = store.placed
          const desc = p.desc.data[r]
          const buffer = p.kind.data[r] === 0
          const id = p.id.data[r]
          const size = buffer ? store.buffers.size.data[desc] : store.textures.size.data[desc]
          const entry: ObservedPlaced = { id, heap: p.a.data[r], offset: p.b.data[r], size: Number.isNaN(size) ? 0 : size, record: i }
          changes?.touch(id, placed.has(id))
          placed.set(id, entry)
          let ids = state.inHeap.get(entry.heap)
          if (!ids) state.inHeap.set(entry.heap, (ids = new Set()))
          ids.add(id)
          if (sums) this.count(sums, state, entry, 1)
          break
        }
        case RECORD_KIND.release:
          this.release(state, store.ops[r], sums, changes)
          break
        case RECORD_KIND.free: {
          const id = store.ops[r]
          const heap = heaps.get(id)
          if (heap) {
            // a freed heap takes what is placed in it along (docs/capture-format.md)
            for (const placedId of state.inHeap.get(id) ?? []) this.release(state, placedId, sums, changes)
            state.inHeap.delete(id)
            heaps.delete(id)
            state.resident.delete(id)
            if (sums) sums.heap[heap.memory] -= heap.size
            residency?.free(id)
          } else this.release(state, id, sums, changes)
          break
        }
        case RECORD_KIND.resident:
        case RECORD_KIND.evict: {
          residency?.apply(store, i, f, heaps)
          const json = store.raw[r]
          const heap = integerMember(json, 'heap')
          if (k === RECORD_KIND.resident && heaps.has(heap)) state.resident.add(heap)
          else if (k === RECORD_KIND.evict && Number.isNaN(integerMember(json, 'bytes'))) state.resident.delete(heap)
          break
        }
        default:
          skip?.()
      }
    }
    state.frame = f
  }

  private release(state: ObservedState, id: number, sums: MemorySums | undefined, changes?: PlacedChanges): void {
    const p = state.placed.get(id)
    if (!p) return
    changes?.touch(id, true)
    state.placed.delete(id)
    const ids = state.inHeap.get(p.heap)
    ids?.delete(id)
    if (ids?.size === 0) state.inHeap.delete(p.heap)
    if (sums) this.count(sums, state, p, -1)
  }

  /** A placed resource's bytes added to (sign 1) or taken from (-1) the sums: its heap's memory, and in all. */
  private count(sums: MemorySums, state: ObservedState, p: ObservedPlaced, sign: 1 | -1): void {
    const heap = state.heaps.get(p.heap)
    if (heap) sums.placed[heap.memory] += sign * p.size
    sums.placedAll += sign * p.size
  }

  private async play(options: ObservedReplayOptions): Promise<void> {
    const store = this.store
    const gate = options.gate
    let frames = store.frames.length
    const series = this.series
    const info = (name: string, label: string, unit: SeriesInfo['unit'], group: string): SeriesInfo => ({ name, label, unit, group })
    const total = series.column(info(OBSERVED_SERIES.heapBytes, 'heap bytes', 'bytes', 'total'))
    const totalPlaced = series.column(info(OBSERVED_SERIES.placedBytes, 'placed', 'bytes', 'total'))
    const liveRequested = series.column(info(SERIES.liveRequested, 'requested (live)', 'bytes', 'resources'))
    const liveCount = series.column(info(SERIES.liveCount, 'live resources', 'count', 'resources'))
    const res = {
      resident: series.column(info(RESIDENCY_SERIES.resident, 'resident', 'bytes', 'residency')),
      evictedBytes: series.column(info(RESIDENCY_SERIES.evictedBytes, 'evicted', 'bytes', 'residency')),
      evictions: series.column(info(RESIDENCY_SERIES.evictions, 'evictions', 'count', 'residency')),
      madeBytes: series.column(info(RESIDENCY_SERIES.madeResidentBytes, 'made resident', 'bytes', 'residency')),
      made: series.column(info(RESIDENCY_SERIES.makeResident, 'make-resident requests', 'count', 'residency')),
    }
    const residency = new ObservedResidency(this.residencyEvents)
    const checks = new FrameChecks(store, new Findings(series, this.checks))
    const memoryColumns: { heap: Float64Array; placed: Float64Array }[] = []
    const state: ObservedState = { frame: -1, heaps: new Map(), placed: new Map(), inHeap: new Map(), resident: new Set() }
    const sums: MemorySums = { heap: [], placed: [], placedAll: 0 }
    const skip = (): void => {
      this.skippedRecords++
    }

    for (let frame = 0; ; frame++) {
      if (frame >= frames) {
        if (!gate) break
        frames = await gate.wait(frame)
        if (frame >= frames) break
        series.grow(store.frames.n)
        this.checkpoints.storeGrew()
      }
      if (this.checkpoints.due(store.frames.firstRecord[frame])) {
        const model: LiveCopy = { heaps: [...state.heaps.values()], placed: [...state.placed.values()], resident: [...state.resident] }
        const created = new Map<number, number>()
        for (const p of model.placed) created.set(p.id, p.record)
        const live = liveColumns(created)
        const bytes = model.heaps.length * HEAP_BYTES + model.placed.length * PLACED_BYTES + model.resident.length * 8
        this.checkpoints.add({ frame, model, bytes, ...live })
      }
      this.apply(state, frame, sums, residency, skip)
      checks.advance(frame + 1)

      // Sample the frame.
      let heapSum = 0
      for (let m = memoryColumns.length; m < this.memories.length; m++) {
        const memory = this.memories[m]
        memoryColumns.push({
          heap: series.column(info(observedSeriesName.memory(memory, 'heapBytes'), `${memory} heaps`, 'bytes', 'memory')),
          placed: series.column(info(observedSeriesName.memory(memory, 'placedBytes'), `${memory} placed`, 'bytes', 'memory')),
        })
      }
      for (let m = 0; m < memoryColumns.length; m++) {
        memoryColumns[m].heap[frame] = sums.heap[m]
        memoryColumns[m].placed[frame] = sums.placed[m]
        heapSum += sums.heap[m]
      }
      total[frame] = heapSum
      totalPlaced[frame] = sums.placedAll
      liveRequested[frame] = sums.placedAll
      liveCount[frame] = state.placed.size
      residency.sample(frame, res)

      if ((frame & 255) === 255) {
        options.onProgress?.({ framesDone: frame + 1, frames })
        if (options.signal?.aborted) throw new Error('replay cancelled')
        await Promise.resolve()
      }
    }
    options.onProgress?.({ framesDone: frames, frames })
    series.settle(store.frames.n)
    this.largestMemoryFirst()
  }

  /**
   * The memory kinds in the order of their peak bytes held, the largest first: the timeline gives the first lane of
   * a kind the most room, and the memory a trace used most (RMV's invisible VRAM, say) deserves it.
   */
  private largestMemoryFirst(): void {
    const peaks = new Map<string, number>()
    for (const memory of this.memories) {
      const heapBytes = this.series.get(observedSeriesName.memory(memory, 'heapBytes'))
      peaks.set(memory, heapBytes ? heapBytes.reduce((a, b) => Math.max(a, b), 0) : 0)
    }
    const kinds = [...this.memories].sort((a, b) => peaks.get(b)! - peaks.get(a)! || (a < b ? -1 : a > b ? 1 : 0))
    this.series.reorder(kinds.flatMap((m) => [observedSeriesName.memory(m, 'heapBytes'), observedSeriesName.memory(m, 'placedBytes')]))
  }

  /** The live heaps and resources after frame index `frame` (clamped to the capture), from the checkpoint before it. */
  stateAt(frame: number): ObservedState {
    const target = Math.max(0, Math.min(this.store.frames.length - 1, frame))
    const cp = this.checkpoints.before(target)
    const state: ObservedState = {
      frame: target,
      heaps: new Map(cp?.model.heaps.map((h) => [h.id, h])),
      placed: new Map(cp?.model.placed.map((p) => [p.id, p])),
      inHeap: new Map(),
      resident: new Set(cp?.model.resident),
    }
    for (const p of state.placed.values()) {
      let ids = state.inHeap.get(p.heap)
      if (!ids) state.inHeap.set(p.heap, (ids = new Set()))
      ids.add(p.id)
    }
    for (let f = cp?.frame ?? 0; f <= target; f++) this.apply(state, f)
    return state
  }

  /** Frame index `f`'s records applied to a state (a snapshot's, a playback's) after frame index f − 1. */
  /** The records of frame index `f` applied to `state`; `changes` notes the placed resources they touched. */
  advance(state: ObservedState, f: number, changes?: PlacedChanges): void {
    this.apply(state, f, undefined, undefined, undefined, changes)
  }

  /**
   * The frame number in which what the `placed` record `record` placed ended: its release, its own `free`, or the
   * `free` of its heap; null when it lives to the end. A scan after the record: for one resource a person looks at.
   */
  releasedFrame(record: number): number | null {
    const store = this.store
    const { kind: kinds, ref: refs } = store.records
    const r = refs[record]
    const id = store.placed.id.data[r]
    const heap = store.placed.a.data[r]
    for (let i = record + 1; i < store.records.length; i++) {
      const k = kinds[i]
      if (k !== RECORD_KIND.release && k !== RECORD_KIND.free) continue
      const target = store.ops[refs[i]]
      if (target === id || (k === RECORD_KIND.free && target === heap)) return store.frames.n[this.frameOf(i)]
    }
    return null
  }

  /** The frame index of a record. */
  frameOf(record: number): number {
    return frameOfRecord(this.store.frames.firstRecord, record)
  }

  /** Checkpoints held, the most records a snapshot replays, and the bytes the checkpoints hold. */
  checkpointStats(): { count: number; maxRecords: number; bytes: number } {
    return this.checkpoints.stats()
  }
}
