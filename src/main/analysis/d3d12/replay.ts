/**
 * The replay: a loaded capture through the D3D12 model, once, folded into per-frame series (per heap type, per
 * placement, per tag; residency; transients; upload traffic), residency events, a summary per graph execution,
 * the aliasing checks' findings frame by frame (checks.ts), and checkpoints of the model every so many records,
 * so a snapshot at any frame replays a bounded stretch from the checkpoint before it, never from frame 0.
 */
import { HEAP_TYPES, type ModelConfig } from '../../../shared/model'
import type { SeriesInfo, TransientExecution } from '../../../shared/ipc'
import { SERIES } from '../../../shared/ipc'
import { keepsEmpty, RESIDENCY_SERIES, SERIES_NAME, TOTAL_SERIES, TRANSIENT_SERIES, UPLOAD_SERIES } from '../../../shared/series'
import type { Bytes } from '../../../shared/units'
import { float64Column } from '../../ingest/columns'
import { useIdsOf } from '../../ingest/records'
import { UseLines } from '../../ingest/useLines'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import type { ModelSink } from '../../model/events'
import { D3D12Model, type CheckpointShadow } from '../../model/d3d12/model'
import { grown } from '../../model/grown'
import { IdTable } from '../../model/idTable'
import { RecycledColumns, restoredCapacity, RowCopy, TableShadow, type TableShape } from '../../model/d3d12/rowCopy'
import { TOTAL_FIELDS, TOTAL_ROWS } from '../../model/d3d12/totals'
import type { TransientLayout } from '../../model/d3d12/transient'
import { FrameChecks, Findings } from '../checks'
import { aliasingOf, HazardLog } from '../hazards'
import type { FrameGate, ReplayProgress } from '../backend'
import { Checkpoints, liveMap, type Checkpoint, type CheckpointOptions, type CheckpointStats } from '../checkpoints'
import { RESIDENCY_EVENT, ResidencyEvents } from '../residencyEvents'
import { DescScratch } from '../descScratch'
import { ObservedResidency } from '../residencyRecords'
import { SeriesTable } from '../seriesTable'
import { TagTotals } from '../tags'

export { CHECKPOINT_BYTES, CHECKPOINT_BYTES_PER_RECORD, CHECKPOINT_RECORDS, checkpointBudget } from '../checkpoints'
export { RESIDENCY_EVENT, ResidencyEvents } from '../residencyEvents'
export type { FrameGate, ReplayProgress } from '../backend'

const FIELD_LABEL: Record<(typeof TOTAL_FIELDS)[number], string> = {
  heapBytes: 'heap bytes',
  occupiedBytes: 'occupied',
  requestedBytes: 'requested',
  alignmentWasteBytes: 'alignment waste',
  poolFreeBytes: 'free in pools',
  pendingFreeBytes: 'pending free',
}

export const seriesName = SERIES_NAME
export { RESIDENCY_SERIES, TOTAL_SERIES, TRANSIENT_SERIES, UPLOAD_SERIES }

/** One row per graph execution. */
export class GraphExecutions {
  readonly frame = float64Column()
  readonly name = float64Column()
  readonly passes = float64Column()
  readonly resources = float64Column()
  readonly heaps = float64Column()
  readonly heapBytes = float64Column()
  readonly requestedBytes = float64Column()
  readonly occupiedBytes = float64Column()
  readonly highWaterBytes = float64Column()
  readonly savingBytes = float64Column()
  readonly overlaps = float64Column()
  readonly cacheHits = float64Column()
  readonly cacheMisses = float64Column()
  get length(): number {
    return this.frame.length
  }

  /** How many graphs frame index `frame` executed: the rows are in frame order. */
  executionsIn(frame: number): number {
    return this.firstAfter(frame) - this.firstAfter(frame - 1)
  }

  /** The first row of a frame index after `frame`. */
  private firstAfter(frame: number): number {
    const frames = this.frame.data
    let lo = 0
    let hi = this.frame.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (frames[mid] <= frame) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** The model after frame index `frame` (as modelAt answers it) with its live creates; it is only read. */
export interface ModelState {
  frame: number
  model: D3D12Model
  created: Map<number, number>
  /** The same live creates as stateAt gave them, where the state kept them. */
  live?: LiveCreates
}

/** The create record of each slot of a model's live resources, from its live creates by id (-1 elsewhere). */
function slotRecordsOfMap(model: D3D12Model, created: Map<number, number>): Float64Array {
  const { id, slot } = model.liveTable()
  let bySlot: Float64Array = new Float64Array(0)
  for (let i = 0; i < id.length; i++) bySlot = placeRecord(bySlot, slot[i], created.get(id[i]) ?? -1)
  return bySlot
}

/**
 * The live creates of a model being advanced, two ways, each made only when first read (a snapshot itself reads
 * neither): id → create record, as a map; and the create record of each of the model's slots that holds a live
 * resource (PlacementInfo.slot, LiveTable.slot), as a column a snapshot's table reads. Each starts from the state
 * the model started from, then takes the creates and releases applied since, in order: read, it is what the same
 * sets and deletes would have left.
 */
export class LiveCreates {
  private built: Map<number, number> | undefined
  /** The ids set or deleted since the start, in order, and each one's create record (-1: deleted). */
  private ids: number[] = []
  private records: number[] = []
  private builtSlots: Float64Array | undefined
  /** The slots the creates since the start took, in order, and their create records. */
  private slots: number[] = []
  private slotRecords: number[] = []

  constructor(
    private start: () => Map<number, number>,
    private startSlots: () => Float64Array,
  ) {}

  /** A create record `record` made resource `id`, which the model placed in slot `slot` (undefined: in none). */
  created(id: number, record: number, slot: number | undefined): void {
    this.set(id, record)
    if (slot === undefined) return
    if (this.builtSlots !== undefined) this.builtSlots = placeRecord(this.builtSlots, slot, record)
    else {
      this.slots.push(slot)
      this.slotRecords.push(record)
    }
  }

  set(id: number, record: number): void {
    if (this.built !== undefined) this.built.set(id, record)
    else {
      this.ids.push(id)
      this.records.push(record)
    }
  }

  delete(id: number): void {
    if (this.built !== undefined) this.built.delete(id)
    else {
      this.ids.push(id)
      this.records.push(-1)
    }
  }

  /** The live creates as a map (built once; later sets and deletes change it). */
  get map(): Map<number, number> {
    if (this.built === undefined) {
      const map = this.start()
      const { ids, records } = this
      for (let k = 0; k < ids.length; k++) {
        if (records[k] < 0) map.delete(ids[k])
        else map.set(ids[k], records[k])
      }
      this.built = map
      this.ids = []
      this.records = []
      this.start = NO_START
    }
    return this.built
  }

  /**
   * The create record by slot: the record that made the live resource a slot holds (-1 past the column's end and
   * where none was kept). Built once; later creates change it. Only a live resource's slot is read: a slot
   * released since keeps its last record until a create takes it again.
   */
  get bySlot(): Float64Array {
    if (this.builtSlots === undefined) {
      let column = this.startSlots()
      const { slots, slotRecords } = this
      for (let k = 0; k < slots.length; k++) column = placeRecord(column, slots[k], slotRecords[k])
      this.builtSlots = column
      this.slots = []
      this.slotRecords = []
      this.startSlots = NO_SLOTS
    }
    return this.builtSlots
  }
}

const NO_START = (): Map<number, number> => new Map()
const NO_SLOTS = (): Float64Array => new Float64Array(0)

/** `column` with slot `slot` holding `record`: the column itself, or a longer copy where it was too short (-1 filled). */
function placeRecord(column: Float64Array, slot: number, record: number): Float64Array {
  if (slot >= column.length) column = grown(column, Math.max(2 * column.length, slot + 1, 1024), -1)
  column[slot] = record
  return column
}

export interface ReplayOptions extends CheckpointOptions {
  config: ModelConfig
  signal?: AbortSignal
  onProgress?: (progress: ReplayProgress) => void
  /** The capture is still being written: the store grows, and the replay waits at its end for more. */
  gate?: FrameGate
  /** false: count the residency events, keep no row of them (ResidencyEvents.keepRows). */
  residencyEvents?: boolean
  /** The series to keep (SeriesTableOptions.keep); all when absent. */
  keepSeries?: (name: string) => boolean
  /**
   * A replay read only for its report, with no checkpoint past the first: it keeps no row per live resource (its
   * tag, bytes and create record), so the tags' series, the live count and the live requested bytes stay zero, and
   * runs no aliasing checks (`heapscope check` and the app's hazards list read them, a report does not), as the
   * Vulkan replay's does not.
   */
  reportOnly?: boolean
}

const NO_SINK: ModelSink = {}
/** A chained checkpoint's live columns: it keeps its live creates as rows (Checkpoint.created). */
const NO_IDS = new Float64Array(0)

/**
 * The D3D12 model a replay of the store runs; `placements` for those that read what its creates and graphs return
 * (an export).
 */
export function modelFor(store: CaptureStore, config: ModelConfig, sink: ModelSink, placements = false): D3D12Model {
  return new D3D12Model(
    config,
    {
      adapter: store.header.adapter,
      budget: typeof store.header.budget === 'number' ? store.header.budget : undefined,
      explicitGpuFences: store.hasGpuRecords,
      hasUseRecords: store.hasUseRecords,
      placements,
    },
    sink,
  )
}

/** Release records read ahead at a time (see Replay.play's warmReleases). */
const WARM_RUN = 64
/**
 * Live resources from which a run of releases is read ahead: the model's columns of 8 192 slots take about 1 MiB,
 * what a core's second-level cache holds; below it the rows are in cache and reading them ahead only costs.
 */
const WARM_LIVE = 8192
/** What LiveTags.warm read, kept so that the engine keeps the reads (in an array: a double changes no shape). */
const warmth = new Float64Array(1)

const UPLOAD_VIAS = ['fast', 'fastConstant', 'staging'] as const

/** No row: the end of a heap's list. */
const NONE = -1

/**
 * The live resources placed in application heaps (`placed` records) by id: each one's heap type and bytes, in
 * columns by row found through an IdTable, and each heap's listed through its rows. A `release` or a `free` of the
 * resource takes it out, and so does a `free` of its heap, which takes along what is placed in it (docs/aliasing.md),
 * as the aliasing checks and the load do. Not a Map of objects: a sub-allocator places and releases tens of
 * thousands, every release asks here first, and a Map's churn costs several times as much (bench/README.md, "The
 * aliasing checks' live resources without a Map").
 */
class ManualPlaced {
  private readonly ids = new IdTable()
  private id = new Float64Array(64)
  private type = new Uint8Array(64)
  private bytes = new Float64Array(64)
  /** Each row's heap list: the rows before and after it (NONE at the ends), and each heap's first row. */
  private prev = new Int32Array(64)
  private next = new Int32Array(64)
  private readonly first = new Map<number, number>()
  private heapOf = new Float64Array(64)
  private readonly freeRows: number[] = []
  private rows = 0

  get count(): number {
    return this.ids.size
  }

  /** `id` placed in `heap`, of `type` (an index of HEAP_TYPES): a live id is taken out first. */
  place(id: number, heap: number, type: number, bytes: Bytes, byType: number[]): void {
    this.release(id, byType)
    const row = this.freeRows.length > 0 ? this.freeRows.pop()! : this.rows++
    if (row === this.type.length) {
      const n = 2 * row
      this.id = grown(this.id, n)
      this.type = grown(this.type, n)
      this.bytes = grown(this.bytes, n)
      this.prev = grown(this.prev, n)
      this.next = grown(this.next, n)
      this.heapOf = grown(this.heapOf, n)
    }
    this.ids.set(id, row)
    this.id[row] = id
    this.type[row] = type
    this.bytes[row] = bytes
    byType[type] += bytes
    // first in its heap's list
    const head = this.first.get(heap) ?? NONE
    this.heapOf[row] = heap
    this.prev[row] = NONE
    this.next[row] = head
    if (head !== NONE) this.prev[head] = row
    this.first.set(heap, row)
  }

  /** Takes out `id` where it is placed, its bytes from `byType`'s entry for its type; false where it is not. */
  release(id: number, byType: number[]): boolean {
    const row = this.ids.get(id)
    if (row === undefined) return false
    this.ids.delete(id)
    byType[this.type[row]] -= this.bytes[row]
    const p = this.prev[row]
    const n = this.next[row]
    if (n !== NONE) this.prev[n] = p
    if (p !== NONE) this.next[p] = n
    else if (n !== NONE) this.first.set(this.heapOf[row], n)
    else this.first.delete(this.heapOf[row])
    this.freeRows.push(row)
    return true
  }

  /** Takes out every resource placed in `heap`, freed. */
  freeHeap(heap: number, byType: number[]): void {
    for (let row = this.first.get(heap) ?? NONE; row !== NONE; row = this.first.get(heap) ?? NONE) this.release(this.id[row], byType)
  }
}
/** The lines of each store's `use` records (its replays, snapshots and walks share them: a line is the store's). */
const storeLines = new WeakMap<CaptureStore, UseLines>()

/** The lines of the store's `use` records, made when first asked for. */
export function useLinesOf(store: CaptureStore): UseLines {
  let lines = storeLines.get(store)
  if (lines === undefined) {
    lines = new UseLines()
    storeLines.set(store, lines)
  }
  return lines
}

/** A use record's ids, unpacked into one array for every record not kept as a line: the model reads them during the call only. */
const useIds: number[] = []

/** Send the `use` record whose operands start at `ref` to the model, as its line of ids (see UseLines). */
function applyUse(store: CaptureStore, model: D3D12Model, ref: number, lines: UseLines): void {
  const line = lines.lineOf(store, ref)
  if (line >= 0) model.useLine(line, lines.ids, lines.from(line), lines.count(line))
  else model.use(useIdsOf(store, ref, useIds))
}

/** Send one record to the model. */
export function applyRecord(store: CaptureStore, model: D3D12Model, index: number, descs: DescScratch): void {
  const kind = store.records.kind[index]
  const ref = store.records.ref[index]
  const ops = store.ops
  switch (kind) {
    case RECORD_KIND.frame:
      model.beginFrame(store.frames.n[ref])
      return
    case RECORD_KIND.gpu:
      model.gpuDone(ops[ref])
      return
    case RECORD_KIND.buffer:
      descs.createBuffer(model, ref)
      return
    case RECORD_KIND.texture:
      descs.createTexture(model, ref)
      return
    case RECORD_KIND.release:
      model.release(ops[ref])
      return
    case RECORD_KIND.commit:
      model.commit(ops[ref], ops[ref + 1])
      return
    case RECORD_KIND.lock:
      model.lock(ops[ref], ops[ref + 1])
      return
    case RECORD_KIND.upload:
      model.upload(UPLOAD_VIAS[ops[ref]], ops[ref + 1], ops[ref + 2])
      return
    case RECORD_KIND.use:
      applyUse(store, model, ref, useLinesOf(store))
      return
    case RECORD_KIND.budget:
      model.setBudget(ops[ref])
      return
    case RECORD_KIND.graph:
      model.beginGraph(store.strings.get(ops[ref]) ?? '')
      return
    case RECORD_KIND.transient:
      descs.applyTransient(model, ref)
      return
    case RECORD_KIND.endgraph:
      model.endGraph(ops[ref])
      return
  }
}

/**
 * A LiveTags row's fields, side by side: a create or a release touches one place. A checkpoint keeps of a row only
 * its id and create record (createdOf and slotRecordsOf read no other).
 */
const LIVE_ID = 0
const LIVE_TAG = 1
const LIVE_SIZE = 2
const LIVE_REQUESTED = 3
/** The create record; -1 on a free row. */
const LIVE_RECORD = 4
const LIVE_FIELDS = 5

/** A checkpoint's copy of the live rows' cells (LiveTags.copy): a cell no copy keeps reads as -1 (a free row). */
const LIVE_SHAPE: TableShape = { kinds: ['f64'], fill: [-1] }

/**
 * The create record of each live row (a model's slot) of a checkpoint's copy of the live rows' cells; -1 on a free
 * row: the record cells as copy.restore() gives them (each from the newest copy of the chain that keeps it, -1 where
 * none does), without restoring the other cells.
 */
function slotRecordsOf(copy: RowCopy): Float64Array {
  const n = copy.count
  const rows = n / LIVE_FIELDS
  // Room past the rows for the slots the creates after the checkpoint take, as a restored table has
  // (restoredCapacity): on stress-2000000 a late snapshot's creates outgrew a column of the rows alone, and its growth
  // copied 80 000 rows into a column twice as long.
  const bySlot = new Float64Array(restoredCapacity(rows)).fill(-1)
  const seen = new Uint8Array(rows)
  for (let link: RowCopy | null = copy; link !== null; link = link.previous) {
    const cells = link.rows
    const values = link.values[0]
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k]
      // ascending: the first cell past the count ends them
      if (cell >= n) break
      const row = Math.floor(cell / LIVE_FIELDS)
      if (cell - row * LIVE_FIELDS !== LIVE_RECORD || seen[row] === 1) continue
      seen[row] = 1
      bySlot[row] = values[k]
    }
  }
  return bySlot
}

/** The live creates a checkpoint's copy of the live rows' cells restores (id → create record), in row order. */
function createdOf(copy: RowCopy): Map<number, number> {
  const [cells] = copy.restore().columns
  return createdOfCells(cells, copy.count)
}

/** The live creates of the first `count` live rows' cells (id → create record), in row order. */
function createdOfCells(cells: ArrayLike<number>, count: number): Map<number, number> {
  const created = new Map<number, number>()
  for (let o = 0; o < count; o += LIVE_FIELDS) if (cells[o + LIVE_RECORD] >= 0) created.set(cells[o + LIVE_ID], cells[o + LIVE_RECORD])
  return created
}

/**
 * The live resources' tag slot, bytes and create record, one row each, at the model's number for the resource
 * (PlacementInfo.slot): no look-up by id, and a row's fields share a cache line. It notes the rows it writes
 * between two checkpoints, so a chained checkpoint compares only those with the checkpoint before.
 */
export class LiveTags {
  count = 0
  /** Rows below this may be in use. */
  private used = 0
  private capacity = 0
  /** LIVE_FIELDS numbers per row. */
  cells = new Float64Array(0)
  /** 1 for a row written since the last copy (or passed over as `used` grew), each listed once in `written`. */
  private touched = new Uint8Array(0)
  private written: number[] = []

  constructor() {
    this.grow(1024)
  }

  /** Whether row `row` holds a live resource. */
  has(row: number): boolean {
    return row < this.used && this.cells[row * LIVE_FIELDS + LIVE_RECORD] >= 0
  }

  /**
   * A resource placed at row `row`, which is free: the model numbers live resources apart, and a number comes back
   * only after releasePending freed its row. Written, not read: a create touches no cold row.
   */
  add(row: number, id: number, tag: number, size: Bytes, requested: Bytes, record: number): void {
    if (row >= this.capacity) this.grow(Math.max(this.capacity * 2, row + 1))
    if (row >= this.used) {
      // The rows passed over come into the copies too, as they were made (id 0, no record).
      for (let r = this.used; r < row; r++) this.touch(r)
      this.used = row + 1
    }
    this.touch(row)
    this.count++
    const c = this.cells
    const o = row * LIVE_FIELDS
    c[o + LIVE_ID] = id
    c[o + LIVE_TAG] = tag
    c[o + LIVE_SIZE] = size
    c[o + LIVE_REQUESTED] = requested
    c[o + LIVE_RECORD] = record
  }

  delete(row: number): void {
    this.touch(row)
    this.cells[row * LIVE_FIELDS + LIVE_RECORD] = -1
    this.count--
  }

  /**
   * Reads, changing nothing, the rows `rows[0..n)` (-1: none) and their written marks, so that the releases after it
   * find them in cache: the fields a release reads, first and last (a row of 40 bytes may span two cache lines).
   */
  warm(rows: Int32Array, n: number): void {
    const c = this.cells
    let sum = 0
    for (let k = 0; k < n; k++) {
      const row = rows[k]
      if (row >= 0 && row < this.used) sum += c[row * LIVE_FIELDS + LIVE_TAG] + c[row * LIVE_FIELDS + LIVE_RECORD] + this.touched[row]
    }
    warmth[0] = sum
  }

  private touch(row: number): void {
    if (this.touched[row] === 1) return
    this.touched[row] = 1
    this.written.push(row)
  }

  /**
   * The live ids and their create records as a checkpoint keeps them: the id and record cells of the rows, or
   * (`since`: the cells as they were at the checkpoint before, and its copy) only the cells that differ, of the
   * rows written since; `since` then equals these cells in every id and record cell.
   */
  copy(since?: { shadow: TableShadow; copy: RowCopy }): RowCopy {
    const columns = [this.cells]
    const count = this.used * LIVE_FIELDS
    const written = Int32Array.from(this.written).sort()
    for (const row of this.written) this.touched[row] = 0
    this.written = []
    if (since !== undefined) {
      const cells = new Int32Array(2 * written.length)
      for (let k = 0; k < written.length; k++) {
        cells[2 * k] = written[k] * LIVE_FIELDS + LIVE_ID
        cells[2 * k + 1] = written[k] * LIVE_FIELDS + LIVE_RECORD
      }
      return since.shadow.changesAt(columns, count, cells, since.copy)
    }
    // Every row's id and record, free rows' too: a row taken again may keep its id cell, and a copy chained to this
    // one keeps only the cells that change.
    const kept = new Int32Array(2 * this.used)
    for (let row = 0; row < this.used; row++) {
      kept[2 * row] = row * LIVE_FIELDS + LIVE_ID
      kept[2 * row + 1] = row * LIVE_FIELDS + LIVE_RECORD
    }
    return RowCopy.whole(LIVE_SHAPE, columns, count, kept, [])
  }

  /** The live creates by id, in row order, as createdOf gives them from a copy of these rows. */
  created(): Map<number, number> {
    return createdOfCells(this.cells, this.used * LIVE_FIELDS)
  }

  /** The create record of each row (-1 on a free one), as slotRecordsOf gives it from a copy of these rows. */
  recordsBySlot(): Float64Array {
    const bySlot = new Float64Array(this.used)
    for (let row = 0; row < this.used; row++) bySlot[row] = this.cells[row * LIVE_FIELDS + LIVE_RECORD]
    return bySlot
  }

  /** The cells as they are, for the next checkpoint's copy. */
  shadow(): TableShadow {
    return TableShadow.of([this.cells], this.used * LIVE_FIELDS, [])
  }

  private grow(capacity: number): void {
    const cells = new Float64Array(capacity * LIVE_FIELDS)
    cells.set(this.cells)
    for (let row = this.capacity; row < capacity; row++) cells[row * LIVE_FIELDS + LIVE_RECORD] = -1
    this.cells = cells
    this.touched = grown(this.touched, capacity)
    this.capacity = capacity
  }
}

/** Frames a FrameBlock holds before it copies them into its columns. */
const BLOCK_FRAMES = 256

/**
 * Per-frame values of many columns, kept a block of frames at a time with one frame's values side by side, and
 * copied into the columns a block at once: a frame written straight into a hundred columns touches a cache line
 * in each, which the frame's records have pushed out of the cache by the next frame.
 */
class FrameBlock {
  /** `width` values per frame, the block's frames one after another. */
  readonly values: Float64Array
  private readonly width: number
  /**
   * The columns a flush writes, by index: those `written` says someone reads. A replay for its report alone keeps
   * 25 of the 108 columns of the model's totals; the others are the series table's scratch column, which no one
   * reads.
   */
  private readonly kept: Int32Array
  private first = 0
  private frames = 0

  constructor(
    private readonly columns: Float64Array[],
    written: (column: Float64Array) => boolean = () => true,
  ) {
    this.width = columns.length
    this.values = new Float64Array(BLOCK_FRAMES * this.width)
    const kept: number[] = []
    for (let c = 0; c < columns.length; c++) if (written(columns[c])) kept.push(c)
    this.kept = Int32Array.from(kept)
  }

  /** Where frame index `frame`'s values go in `values`: the frame after the last one, or the block's first. */
  at(frame: number): number {
    if (this.frames === BLOCK_FRAMES || (this.frames > 0 && frame !== this.first + this.frames)) this.flush()
    if (this.frames === 0) this.first = frame
    return this.frames++ * this.width
  }

  /** The block's frames into the columns; call it before anyone reads them. */
  flush(): void {
    const { values, width, first, frames } = this
    // Reset before the copy: the copy's loop is compiled while it runs (on-stack replacement), and a statement after
    // it that had never run would send the compiled code back, on every flush.
    this.frames = 0
    const kept = this.kept
    for (let k = 0; k < kept.length; k++) {
      const c = kept[k]
      const column = this.columns[c]
      for (let f = 0; f < frames; f++) column[first + f] = values[f * width + c]
    }
  }
}

export class Replay {
  readonly store: CaptureStore
  readonly config: ModelConfig
  readonly series: SeriesTable
  readonly graphs = new GraphExecutions()
  readonly residencyEvents: ResidencyEvents
  /** The aliasing hazards of the capture's placed resources, in capture order. */
  readonly checks: HazardLog
  /** Transient placed-resource cache hits and misses over the run. */
  cacheHits = 0
  cacheMisses = 0
  /** Transient heaps created over the run. */
  transientHeaps = 0
  private readonly checkpoints: Checkpoints<D3D12Model>
  /**
   * Columns of snapshot states let go (Snapshots gives them back), which the models stateAt rebuilds are written
   * into: without them each snapshot of a large capture took tens of megabytes of new memory.
   */
  readonly recycled = new RecycledColumns()
  /** While the replay runs: the last checkpoint and the tables as they were then; the next checkpoint keeps what differs. */
  private shadow: { model: CheckpointShadow; live: TableShadow; liveCopy: RowCopy } | undefined
  /** Reused desc objects for the model (snapshots and playback replay through them too). */
  descs: DescScratch
  private final: D3D12Model | undefined
  /** The live rows at the end of the replay, where it kept them (not a report's): finalState's live creates. */
  private finalRows: LiveTags | undefined

  private constructor(store: CaptureStore, options: ReplayOptions, growing: boolean) {
    this.store = store
    this.config = options.config
    this.residencyEvents = new ResidencyEvents(options.residencyEvents !== false)
    this.checkpoints = new Checkpoints(store, options)
    this.series = new SeriesTable(store.frames.n, { growing, keep: options.keepSeries })
    this.checks = new HazardLog(aliasingOf(store), store.frames.n)
    this.descs = new DescScratch(store)
  }

  static async run(store: CaptureStore, options: ReplayOptions): Promise<Replay> {
    const replay = new Replay(store, options, false)
    await replay.play(options)
    return replay
  }

  /**
   * Replay a capture still being written, through `options.gate`: the replay at once, and the end of its replay
   * (when the gate has ended). Until then the replay answers for the frames it has replayed so far.
   */
  static follow(store: CaptureStore, options: ReplayOptions & { gate: FrameGate }): { replay: Replay; done: Promise<void> } {
    return Replay.start(store, options)
  }

  /** The replay at once and the end of its replay: a followed one (`options.gate`) or a whole one. */
  static start(store: CaptureStore, options: ReplayOptions): { replay: Replay; done: Promise<void> } {
    const replay = new Replay(store, options, options.gate !== undefined)
    return { replay, done: replay.play(options) }
  }

  private async play(options: ReplayOptions): Promise<void> {
    const store = this.store
    const gate = options.gate
    let frames = store.frames.length
    const series = this.series
    const checkpoints = this.checkpoints

    // Per-tag bookkeeping: id → tag, occupied and requested bytes of live resources.
    const tags = new TagTotals(store, series)
    const liveTag = new LiveTags()
    let currentTag = 0
    let currentRecord = 0

    let frame = 0
    const events = this.residencyEvents
    // what the residency manager did in the frame being finished
    const tick = { evicted: 0.5, evictions: 0, madeBytes: 0.5, made: 0, overBudget: 0 }
    // its byte counts are doubles from the start (a fraction above): the first count past 2^30 would otherwise
    // change the object's shape mid-replay, and the optimised code that reads it would be thrown away
    tick.evicted = tick.madeBytes = 0
    // Each tag's row in `tags`, by the tag's string id (-1: not looked up yet): a create reads no map.
    let tagSlots = new Int32Array(64).fill(-1)
    const liveRows = options.reportOnly !== true
    const rows: ModelSink = {
      placed: (info) => {
        if (info.placement === 'Transient') return
        if (currentTag >= tagSlots.length) tagSlots = grown(tagSlots, Math.max(currentTag + 1, tagSlots.length * 2), -1)
        let slot = tagSlots[currentTag]
        if (slot < 0) slot = tagSlots[currentTag] = tags.slotOf(currentTag)
        liveTag.add(info.slot!, info.id, slot, info.size, info.requested, currentRecord)
        tags.add(slot, info.size, info.requested)
      },
      releasePending: (_id, _frame, row) => {
        if (row === undefined || !liveTag.has(row)) return
        const c = liveTag.cells
        const o = row * LIVE_FIELDS
        tags.remove(c[o + LIVE_TAG], c[o + LIVE_SIZE], c[o + LIVE_REQUESTED])
        liveTag.delete(row)
      },
    }
    const sink: ModelSink = {
      ...(liveRows ? rows : {}),
      madeResident: (object, bytes) => {
        events.push(frame, RESIDENCY_EVENT.makeResident, object, bytes)
        tick.made++
        tick.madeBytes += bytes
      },
      evicted: (object, bytes) => {
        events.push(frame, RESIDENCY_EVENT.evict, object, bytes)
        tick.evictions++
        tick.evicted += bytes
      },
      overBudget: (_frame, resident) => {
        events.push(frame, RESIDENCY_EVENT.overBudget, -1, resident)
        tick.overBudget = 1
      },
      transientHeapCreated: () => {
        this.transientHeaps++
      },
    }
    const model = modelFor(store, options.config, sink)

    // Columns written every frame.
    const info = (name: string, label: string, unit: SeriesInfo['unit'], group: string): SeriesInfo => ({
      name,
      label,
      unit,
      group,
    })
    const heapColumns = HEAP_TYPES.map((heap) =>
      TOTAL_FIELDS.map((field) => series.column(info(seriesName.heap(heap, field), `${heap} ${FIELD_LABEL[field]}`, 'bytes', 'heap'))),
    )
    const rowColumns = TOTAL_ROWS.map((row) =>
      TOTAL_FIELDS.map((field) =>
        series.column(info(seriesName.placement(row, field), `${row} ${FIELD_LABEL[field]}`, 'bytes', 'placement')),
      ),
    )
    const total = {
      heap: series.column(info(TOTAL_SERIES.heapBytes, 'all heaps: heap bytes', 'bytes', 'heap')),
      occupied: series.column(info(TOTAL_SERIES.occupiedBytes, 'all heaps: occupied', 'bytes', 'heap')),
      requested: series.column(info(TOTAL_SERIES.requestedBytes, 'all heaps: requested', 'bytes', 'heap')),
    }
    const liveRequested = series.column(info(SERIES.liveRequested, 'live requested bytes', 'bytes', 'resources'))
    const liveCount = series.column(info(SERIES.liveCount, 'live resources', 'count', 'resources'))
    const res = {
      resident: series.column(info(RESIDENCY_SERIES.resident, 'resident bytes', 'bytes', 'residency')),
      budget: series.column(info(RESIDENCY_SERIES.budget, 'budget', 'bytes', 'residency')),
      evictedBytes: series.column(info(RESIDENCY_SERIES.evictedBytes, 'evicted bytes', 'bytes', 'residency')),
      evictions: series.column(info(RESIDENCY_SERIES.evictions, 'evictions', 'count', 'residency')),
      madeBytes: series.column(info(RESIDENCY_SERIES.madeResidentBytes, 'made resident bytes', 'bytes', 'residency')),
      made: series.column(info(RESIDENCY_SERIES.makeResident, 'made resident', 'count', 'residency')),
      overBudget: series.column(info(RESIDENCY_SERIES.overBudget, 'over budget', 'flag', 'residency')),
    }
    const tr = {
      heapBytes: series.column(info(TRANSIENT_SERIES.heapBytes, 'transient heaps', 'bytes', 'transient')),
      requested: series.column(info(TRANSIENT_SERIES.requestedBytes, 'transient requests', 'bytes', 'transient')),
      highWater: series.column(info(TRANSIENT_SERIES.highWaterBytes, 'transient high-water', 'bytes', 'transient')),
      saving: series.column(info(TRANSIENT_SERIES.savingBytes, 'aliasing saving', 'bytes', 'transient')),
      executions: series.column(info(TRANSIENT_SERIES.executions, 'graph executions', 'count', 'transient')),
    }
    const up = {
      bytes: series.column(info(UPLOAD_SERIES.bytes, 'upload traffic', 'bytes', 'upload')),
      lock: series.column(info(UPLOAD_SERIES.lockBytes, 'lock staging', 'bytes', 'upload')),
    }
    // Application heaps and placed resources (manual heaps, imported dumps): outside the model's pools.
    const manualHeap = HEAP_TYPES.map((heap) =>
      series.column(info(seriesName.manual(heap, 'heapBytes'), `${heap} application heaps`, 'bytes', 'heap')),
    )
    const manualPlaced = HEAP_TYPES.map((heap) =>
      series.column(info(seriesName.manual(heap, 'placedBytes'), `${heap} placed in application heaps`, 'bytes', 'heap')),
    )
    // The totals per heap and per placement row, as the model keeps them (byHeap, then byRow), a block of frames at a time.
    const totalsBlock = new FrameBlock([...heapColumns.flat(), ...rowColumns.flat()], (column) => series.keeps(column))
    const checks = options.reportOnly === true ? null : new FrameChecks(store, new Findings(series, this.checks))
    const manualHeaps = new Map<number, { type: number; size: Bytes }>()
    const manualLive = new ManualPlaced()
    const manualBytes = [0, 0, 0]
    const manualPlacedBytes = [0, 0, 0]
    // residency of application heaps as a driver-level trace observed it (`resident`, `evict` records)
    const observed = new ObservedResidency(this.residencyEvents)

    const totals = model.totals
    const FIELDS = TOTAL_FIELDS.length
    const residency = model.residencyManager()
    const transient = model.transientAllocator()
    let { kind: kinds, ref: refs } = store.records

    // What the frame's records add up to.
    let uploadBytes = 0
    let lockBytes = 0
    let frameTransientRequested = 0
    let frameHighWater = 0
    let frameSaving = 0
    let frameExecutions = 0
    // The transient heaps the frame's graphs used (a few): counted once each.
    const frameHeaps: number[] = []
    let frameHeapBytes = 0
    // A run of release records (a frame's come together) is read ahead, up to WARM_RUN at a time, once WARM_LIVE
    // resources are live: the slots, the model's columns and pools and this replay's rows of its ids (see
    // D3D12Model.warmReleases).
    const warmIds = new Float64Array(WARM_RUN)
    const warmSlots = new Int32Array(WARM_RUN)
    let warmedTo = 0
    const warmReleases = (from: number, end: number): number => {
      let n = 0
      let i = from
      while (i < end && n < WARM_RUN && kinds[i] === RECORD_KIND.release) warmIds[n++] = store.ops[refs[i++]]
      // a lone release has nothing to overlap with, and the rows of a few thousand live resources stay in cache
      if (n > 1 && (liveRows ? liveTag.count : model.liveCount()) >= WARM_LIVE) {
        model.warmReleases(warmIds, n, warmSlots)
        if (liveRows) liveTag.warm(warmSlots, n)
      }
      return i
    }
    // A graph execution's summary into the graph table and the frame's transient figures.
    const graphEnded = (): void => {
      const summary = transient.lastSummary()
      if (!summary) return
      const g = this.graphs
      g.frame.push(frame)
      g.name.push(0)
      g.passes.push(summary.passes)
      g.resources.push(summary.resources)
      g.heaps.push(summary.heaps)
      g.heapBytes.push(summary.heapBytes)
      g.requestedBytes.push(summary.requestedBytes)
      g.occupiedBytes.push(summary.occupiedBytes)
      g.highWaterBytes.push(summary.highWaterBytes)
      g.savingBytes.push(summary.saving)
      g.overlaps.push(summary.overlapCount)
      g.cacheHits.push(summary.cacheHits)
      g.cacheMisses.push(summary.cacheMisses)
      this.cacheHits += summary.cacheHits
      this.cacheMisses += summary.cacheMisses
      frameTransientRequested += summary.requestedBytes
      frameHighWater += summary.highWaterBytes
      frameSaving += summary.saving
      frameExecutions++
      for (let h = 0; h < summary.heaps; h++) {
        if (!frameHeaps.includes(summary.heapId[h])) {
          frameHeaps.push(summary.heapId[h])
          frameHeapBytes += summary.heapSize[h]
        }
      }
    }
    // A frame's records, in a plain function: the optimizer compiles it apart from this async one.
    const lines = useLinesOf(store)
    const playRecords = (start: number, end: number): void => {
      const descs = this.descs
      const ops = store.ops
      for (let i = start; i < end; i++) {
        const k = kinds[i]
        currentRecord = i
        // The kinds most records are go straight to their paths, most frequent first (applyRecord would read the
        // kind again and test it once more per kind before its own).
        if (k === RECORD_KIND.buffer) {
          const r = refs[i]
          currentTag = store.buffers.tag.data[r]
          descs.createBuffer(model, r)
          continue
        }
        if (k === RECORD_KIND.texture) {
          const r = refs[i]
          currentTag = store.textures.tag.data[r]
          descs.createTexture(model, r)
          continue
        }
        if (k === RECORD_KIND.transient) {
          descs.applyTransient(model, refs[i])
          continue
        }
        if (k === RECORD_KIND.use) {
          applyUse(store, model, refs[i], lines)
          continue
        }
        if (k === RECORD_KIND.release) {
          if (i >= warmedTo) warmedTo = warmReleases(i, end)
          const id = ops[refs[i]]
          // Only a capture with placed resources has any: the others' releases skip the look-up.
          if (manualLive.count === 0 || !manualLive.release(id, manualPlacedBytes)) model.release(id)
          continue
        }
        if (k === RECORD_KIND.upload) {
          const r = refs[i]
          uploadBytes += ops[r + 1]
          model.upload(UPLOAD_VIAS[ops[r]], ops[r + 1], ops[r + 2])
          continue
        }
        if (k === RECORD_KIND.gpu) {
          model.gpuDone(ops[refs[i]])
          continue
        }
        if (k === RECORD_KIND.endgraph) {
          model.endGraph(ops[refs[i]])
          graphEnded()
          continue
        }
        if (k === RECORD_KIND.lock) lockBytes += ops[refs[i] + 1]
        else if (k === RECORD_KIND.heap) {
          const r = refs[i]
          const entry = { type: ops[r + 2], size: ops[r + 1] }
          manualHeaps.set(ops[r], entry)
          manualBytes[entry.type] += entry.size
          continue
        } else if (k === RECORD_KIND.free) {
          // a heap, and what is placed in it; else a placed resource
          const id = ops[refs[i]]
          const h = manualHeaps.get(id)
          if (h) {
            manualHeaps.delete(id)
            manualBytes[h.type] -= h.size
            observed.free(id)
            manualLive.freeHeap(id, manualPlacedBytes)
          } else manualLive.release(id, manualPlacedBytes)
          continue
        } else if (k === RECORD_KIND.placed) {
          const r = refs[i]
          const desc = store.placed.desc.data[r]
          const isBuffer = store.placed.kind.data[r] === 0
          const id = store.placed.id.data[r]
          const size = isBuffer ? store.buffers.size.data[desc] : store.textures.size.data[desc]
          const heap = store.placed.a.data[r]
          manualLive.place(id, heap, manualHeaps.get(heap)?.type ?? 0, Number.isNaN(size) ? 0 : size, manualPlacedBytes)
          continue
        } else if (k === RECORD_KIND.resident || k === RECORD_KIND.evict) {
          observed.apply(store, i, frame, manualHeaps)
          continue
        }
        applyRecord(store, model, i, descs)
      }
    }
    // One frame (index `frame`): its records, the model's frame end and the frame's samples. A function of its own
    // rather than the body of the loop below: that loop is an async function's, resumed after every await, and the
    // engine compiles such a function again whole once it has run long enough. With the frame's work inside it, that
    // compilation took 64 ms of a compiler thread near the end of a one-shot report of `gen streaming` (7.8 MB), and
    // the process waited 20 to 40 ms at its exit for code it would never run (bench/README.md, "A frame's work out of
    // the replay's async loop").
    const playFrame = (): void => {
      const start = store.frames.firstRecord[frame]
      const end = frameEnd(store, frame)
      if (checkpoints.due(start)) checkpoints.add(this.checkpoint(frame, model, liveTag))
      uploadBytes = lockBytes = frameTransientRequested = frameHighWater = frameSaving = frameExecutions = 0
      frameHeaps.length = 0
      frameHeapBytes = 0
      playRecords(start, end)
      tick.evicted = tick.evictions = tick.madeBytes = tick.made = tick.overBudget = 0
      model.finishFrame()
      checks?.advance(frame + 1)

      // Sample the frame.
      const at = totalsBlock.at(frame)
      totalsBlock.values.set(totals.byHeap, at)
      totalsBlock.values.set(totals.byRow, at + totals.byHeap.length)
      let heapSum = 0
      let occSum = 0
      let reqSum = 0
      for (let h = 0; h < HEAP_TYPES.length; h++) {
        heapSum += totals.byHeap[h * FIELDS] + manualBytes[h]
        occSum += totals.byHeap[h * FIELDS + 1] + manualPlacedBytes[h]
        reqSum += totals.byHeap[h * FIELDS + 2] + manualPlacedBytes[h]
        manualHeap[h][frame] = manualBytes[h]
        manualPlaced[h][frame] = manualPlacedBytes[h]
      }
      total.heap[frame] = heapSum
      total.occupied[frame] = occSum
      total.requested[frame] = reqSum
      const liveReq = tags.sample(frame)
      liveRequested[frame] = liveReq + manualPlacedBytes[0] + manualPlacedBytes[1] + manualPlacedBytes[2]
      liveCount[frame] = liveTag.count + manualLive.count
      res.resident[frame] = residency.residentBytes()
      res.budget[frame] = Math.min(residency.budget(), Number.MAX_SAFE_INTEGER)
      res.evictedBytes[frame] = tick.evicted
      res.evictions[frame] = tick.evictions
      res.madeBytes[frame] = tick.madeBytes
      res.made[frame] = tick.made
      res.overBudget[frame] = tick.overBudget
      observed.sample(frame, res)
      tr.heapBytes[frame] = frameHeapBytes
      tr.requested[frame] = frameTransientRequested
      tr.highWater[frame] = frameHighWater
      tr.saving[frame] = frameSaving
      tr.executions[frame] = frameExecutions
      up.bytes[frame] = uploadBytes
      up.lock[frame] = lockBytes
    }

    for (frame = 0; ; frame++) {
      if (frame >= frames) {
        if (!gate) break
        totalsBlock.flush()
        frames = await gate.wait(frame)
        if (frame >= frames) break
        // the store grew: its columns may be new arrays
        ;({ kind: kinds, ref: refs } = store.records)
        series.grow(store.frames.n)
        this.descs.storeGrew()
        checkpoints.storeGrew()
      }
      playFrame()
      if ((frame & 255) === 255) {
        totalsBlock.flush()
        options.onProgress?.({ framesDone: frame + 1, frames })
        if (options.signal?.aborted) throw new Error('replay cancelled')
        await Promise.resolve()
      }
    }
    totalsBlock.flush()
    model.endCapture()
    this.final = model
    if (liveRows) this.finalRows = liveTag
    this.shadow = undefined
    options.onProgress?.({ framesDone: frames, frames })
    series.settle(store.frames.n)
    this.checks.frameNumbers = store.frames.n
    // Keep the columns people look at even when zero; drop placements and tags that never held anything.
    series.dropEmpty((name) => keepsEmpty(name, 'd3d12'))
  }

  /**
   * A copy of the model and the live creates at the start of frame index `frame`: whole, or chained to the last
   * checkpoint (only the rows of its tables that changed since, see Checkpoints.wholeDue).
   */
  private checkpoint(frame: number, model: D3D12Model, live: LiveTags): Checkpoint<D3D12Model> {
    const since = this.checkpoints.wholeDue() ? undefined : this.shadow
    const made = model.checkpoint(NO_SINK, since?.model)
    const rows = live.copy(since && { shadow: since.live, copy: since.liveCopy })
    this.shadow = { model: made.shadow, live: since?.live ?? live.shadow(), liveCopy: rows }
    const copy = made.copy
    const measure = () => copy.byteSize() + rows.byteLength
    return {
      frame,
      model: copy,
      bytes: measure(),
      liveIds: NO_IDS,
      liveRecords: NO_IDS,
      created: () => createdOf(rows),
      bySlot: () => slotRecordsOf(rows),
      chain: {
        whole: () => copy.isWholeCopy() && rows.previous === null,
        absorbPrevious: () => {
          copy.absorbPrevious()
          rows.absorbPrevious()
          return measure()
        },
      },
    }
  }

  /**
   * The model after frame index `frame` (its records applied and the frame finished), the live creates, and,
   * through `onLayout`, the transient layout of each graph execution in that frame. `states`: models already
   * rebuilt at other frames (a snapshot cache); the nearest one before `frame` is advanced when it is nearer than
   * the checkpoint.
   */
  modelAt(
    frame: number,
    onLayout?: (execution: TransientExecution) => void,
    states: readonly ModelState[] = [],
  ): { model: D3D12Model; created: Map<number, number> } {
    const { model, live } = this.stateAt(frame, onLayout, states)
    return { model, created: live.map }
  }

  /** What modelAt answers, the live creates made into a map only when read (see LiveCreates). */
  stateAt(
    frame: number,
    onLayout?: (execution: TransientExecution) => void,
    states: readonly ModelState[] = [],
  ): { model: D3D12Model; live: LiveCreates } {
    const target = Math.max(0, Math.min(this.store.frames.length - 1, frame))
    const cp = this.checkpoints.before(target)!
    // A state after an earlier frame at or past the checkpoint replays less: a cursor moving forward a few frames
    // advances a copy of the state it left instead of replaying from the checkpoint again.
    let from: ModelState | undefined
    for (const s of states) if (s.frame < target && s.frame >= cp.frame && (!from || s.frame > from.frame)) from = s
    let model: D3D12Model
    let live: LiveCreates
    let first: number
    if (from) {
      const state = from
      model = state.model.clone(NO_SINK, { pool: this.recycled })
      live = new LiveCreates(
        () => new Map(state.created),
        () => (state.live ? state.live.bySlot.slice() : slotRecordsOfMap(state.model, state.created)),
      )
      first = state.frame + 1
    } else {
      const checkpoint = cp
      model = checkpoint.model.clone(NO_SINK, { pool: this.recycled })
      live = new LiveCreates(
        () => liveMap(checkpoint),
        () => (checkpoint.bySlot ? checkpoint.bySlot() : slotRecordsOfMap(checkpoint.model, liveMap(checkpoint))),
      )
      first = cp.frame
    }
    for (let f = first; f <= target; f++) this.advance(model, live, f, f === target ? onLayout : undefined)
    return { model, live }
  }

  /** Frame index `f`'s records applied to `model` and the frame finished; `created` kept to the live creates. */
  private advance(
    model: D3D12Model,
    created: Map<number, number> | LiveCreates,
    f: number,
    onLayout?: (execution: TransientExecution) => void,
  ): void {
    const store = this.store
    const { kind: kinds, ref: refs } = store.records
    const descs = this.descs
    const start = store.frames.firstRecord[f]
    const end = frameEnd(store, f)
    for (let i = start; i < end; i++) {
      const k = kinds[i]
      if (k === RECORD_KIND.heap || k === RECORD_KIND.free || k === RECORD_KIND.placed) continue
      if (k === RECORD_KIND.release) created.delete(store.ops[refs[i]])
      applyRecord(store, model, i, descs)
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture) {
        const id = k === RECORD_KIND.buffer ? store.buffers.id.data[refs[i]] : store.textures.id.data[refs[i]]
        if (created instanceof LiveCreates) created.created(id, i, model.slotOf(id))
        else created.set(id, i)
      } else if (k === RECORD_KIND.endgraph && onLayout) {
        const layout = model.transientAllocator().lastLayout()
        if (layout) {
          const execution = executionOf(layout)
          const names = passNamesOf(store, i, execution.passes)
          if (names) execution.passNames = names
          onLayout(execution)
        }
      }
    }
    model.finishFrame()
  }

  /**
   * The model after each frame index from `from` to `to` in turn, one model advanced frame by frame (no snapshot
   * per frame), with the live creates; `visit` returns false to stop early.
   */
  walk(from: number, to: number, visit: (frame: number, model: D3D12Model, created: Map<number, number>) => boolean | void): void {
    const last = Math.min(this.store.frames.length - 1, to)
    if (from > last) return
    const { model, created } = this.modelAt(from)
    if (visit(from, model, created) === false) return
    for (let f = from + 1; f <= last; f++) {
      this.advance(model, created, f)
      if (visit(f, model, created) === false) return
    }
  }

  /**
   * Checkpoints held, the most records a snapshot replays, and the bytes of the checkpoints' tables; `parts`: also
   * by the model's parts (D3D12Model.byteSizeByPart), summed over the checkpoints.
   */
  checkpointStats(parts = false): CheckpointStats {
    return this.checkpoints.stats(parts ? (model) => model.byteSizeByPart() : undefined)
  }

  /**
   * The model after the last frame and its live creates, as stateAt(last frame) would rebuild them, read from the
   * replay's own final model (only read: not a copy) once the replay has ended; undefined before, and for a replay
   * that kept no live rows (a report's). It holds no transient layout. Snapshots read the last frame from it
   * (Snapshots.build), which a replay with no checkpoint past the first would otherwise replay whole again.
   */
  finalState(): { model: D3D12Model; live: LiveCreates } | undefined {
    const rows = this.finalRows
    if (this.final === undefined || rows === undefined) return undefined
    return { model: this.final, live: new LiveCreates(() => rows.created(), () => rows.recordsBySlot()) }
  }

  /** The model at the end of the capture; while a followed capture grows, after the last frame replayed. */
  finalModel(): D3D12Model {
    return this.final ?? this.modelAt(this.store.frames.length - 1).model
  }
}

/**
 * The pass names an `endgraph` record gives (capture format 1.4: `"passNames": [...]`, kept among its unknown
 * members), one per pass: extra names dropped, missing ones ''; null when it gives none or not as strings.
 */
export function passNamesOf(store: CaptureStore, record: number, passes: number): string[] | null {
  const extras = store.extras.get(record)
  if (extras === undefined || !extras.includes('"passNames"')) return null
  let names: unknown
  try {
    names = (JSON.parse(`{${extras}}`) as { passNames?: unknown }).passNames
  } catch {
    return null
  }
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return null
  return Array.from({ length: passes }, (_, p) => (names as string[])[p] ?? '')
}

/** A transient layout as it crosses IPC: columns copied out of the allocator's reused buffers. */
export function executionOf(layout: TransientLayout): TransientExecution {
  const r = layout.resources
  const h = layout.heaps
  return {
    execution: layout.execution,
    name: layout.name,
    passes: layout.passes,
    heaps: { id: h.id.slice(0, h.length), size: h.size.slice(0, h.length), highWater: h.highWater.slice(0, h.length) },
    resources: {
      id: r.id.slice(0, r.length),
      heap: r.heap.slice(0, r.length),
      offset: r.offset.slice(0, r.length),
      size: r.size.slice(0, r.length),
      first: r.first.slice(0, r.length),
      last: r.last.slice(0, r.length),
      texture: r.texture.slice(0, r.length),
      cacheHit: r.cacheHit.slice(0, r.length),
      name: r.name.slice(0, r.length).map((n) => n ?? ''),
    },
    overlaps: layout.overlaps.slice(0, layout.overlapCount * 2),
    requestedBytes: layout.requestedBytes,
    highWaterBytes: layout.highWaterBytes,
    savingBytes: layout.saving,
    cacheHits: layout.cacheHits,
    cacheMisses: layout.cacheMisses,
  }
}
