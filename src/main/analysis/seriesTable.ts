/**
 * Per-frame series of a run: one Float64Array column per series, each with a min/max/sum pyramid built by the
 * first query whose buckets are wide, so a {frame range, resolution} query reads a bounded number of cells however
 * long the capture. Buckets of a few frames are read from the column itself.
 */
import type { SeriesAnswer, SeriesBuckets, SeriesInfo, SeriesQuery } from '../../shared/ipc'
import { peakEnd } from './reportEnvelope'
import { StepLog } from './stepLog'

/**
 * Levels halve the length: level k holds the min, max and sum of 2^k frames per cell. Level 0 is the column
 * itself; levels 1 and up sit end to end in one array, level k from cell `start[k]`, each cell's min, max and sum
 * side by side: a bucket's climb reads one cache line a cell, not three (a wide query over a long capture touches
 * every series' pyramid, and its time is its cache misses).
 */
interface Pyramid {
  levels: number
  start: Int32Array
  /** min, max, sum of each cell. */
  cells: Float64Array
}

/** Buckets at most this wide are read straight from the column; wider ones from the pyramid. */
const DIRECT_WIDTH = 16

/**
 * The most frames a series of a capture still being written can grow to: 2^21 frames, nine hours at 60 frames a
 * second. Its columns sit on resizable buffers that reserve this much address space (16 MiB each, never touched
 * until written), so that they grow in place.
 */
export const MAX_GROWING_FRAMES = 1 << 21

/** An ArrayBuffer that can grow in place (ES2024); a typed array made over it without a length follows its size. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void
}
type ResizableArrayBufferCtor = new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer

export interface SeriesTableOptions {
  /** Columns grow with the capture (`grow`). */
  growing?: boolean
  /**
   * The series to keep, where a run is read for a few of them (its report): the others are written to one scratch
   * column, which no one reads, instead of a column of their own that a page of fresh memory at a time fills with
   * zeroes. `get` of a series not kept throws.
   */
  keep?: (name: string) => boolean
}

export class SeriesTable {
  frames: number
  /** The capture's frame number of each frame index. */
  frameNumbers: Float64Array
  private readonly columns = new Map<string, Float64Array>()
  private readonly infos = new Map<string, SeriesInfo>()
  private readonly pyramids = new Map<string, Pyramid>()
  /** Columns grow with the capture (`grow`): the replay keeps writing through the arrays it was handed. */
  private growing: boolean
  /** The frames a growing table's buffers hold, `frames` and the zeroed ones past it. */
  private capacity: number
  /** The series kept (SeriesTableOptions.keep); the others write to `scratch`. */
  private readonly keep: ((name: string) => boolean) | undefined
  /** The series not kept, by name: `get` of one throws, where it would otherwise answer with nothing. */
  private readonly discarded = new Set<string>()
  /** The one column every series not kept writes to, and no one reads. */
  private scratch: Float64Array | undefined
  /**
   * Series kept as steps (stepSeries): their changes, written by their numbers in the log; the numbers by name; the
   * frames they are written through (stepsWritten).
   */
  readonly stepLog = new StepLog()
  private readonly steps = new Map<string, number>()
  private stepFrames = 0
  /** The columns made from steps for queries, and the frames their steps were written through then. */
  private readonly stepColumns = new Map<string, { column: Float64Array; through: number }>()

  constructor(frameNumbers: Float64Array, options: SeriesTableOptions = {}) {
    this.frames = frameNumbers.length
    this.capacity = this.frames
    this.frameNumbers = frameNumbers
    this.growing = options.growing ?? false
    this.keep = options.keep
  }

  /** The column of a series, created zero-filled on first use. */
  column(info: SeriesInfo): Float64Array {
    let column = this.columns.get(info.name)
    if (!column) {
      if (this.keep !== undefined && !this.keep(info.name)) {
        this.discarded.add(info.name)
        return (this.scratch ??= this.newColumn())
      }
      column = this.newColumn()
      this.columns.set(info.name, column)
      this.infos.set(info.name, info)
    }
    return column
  }

  /** Whether a column column() gave is one some series keeps: false for the scratch column of those not kept. */
  keeps(column: Float64Array): boolean {
    return column !== this.scratch
  }

  /**
   * A series that changes at few of its frames, kept as steps in `stepLog` (the writer writes there, by the number
   * this returns), created on first use; -1 for one this run does not keep. Reads see a column of every frame.
   */
  stepSeries(info: SeriesInfo): number {
    let steps = this.steps.get(info.name)
    if (steps === undefined) {
      if (this.keep !== undefined && !this.keep(info.name)) {
        this.discarded.add(info.name)
        return -1
      }
      steps = this.stepLog.add()
      this.steps.set(info.name, steps)
      this.infos.set(info.name, info)
    }
    return steps
  }

  /** The step series hold their values through frame index `frames` - 1; later frames read 0 until written. */
  stepsWritten(frames: number): void {
    this.stepFrames = frames
  }

  private newColumn(): Float64Array {
    if (!this.growing) return new Float64Array(this.frames)
    const Buffer = ArrayBuffer as unknown as ResizableArrayBufferCtor
    return new Float64Array(new Buffer(this.capacity * 8, { maxByteLength: MAX_GROWING_FRAMES * 8 }))
  }

  /**
   * More frames of a growing table: every column grows to them (zero-filled), in place. The buffers grow half again
   * at a time, not to each new count: a pipelined load's replay grows the table at every increment, and each resize
   * of each column is a call into the system. Until the table settles, a column may hold zeroed frames past
   * `frames`; `get` gives the frames alone.
   */
  grow(frameNumbers: Float64Array): void {
    const frames = frameNumbers.length
    if (!this.growing) throw new Error('this run\'s series do not grow')
    if (frames > MAX_GROWING_FRAMES) throw new Error(`a capture followed live holds at most ${MAX_GROWING_FRAMES} frames`)
    if (frames > this.capacity) {
      this.capacity = Math.min(MAX_GROWING_FRAMES, Math.max(frames, Math.ceil(this.capacity * 1.5)))
      for (const column of this.columns.values()) (column.buffer as ResizableArrayBuffer).resize(this.capacity * 8)
      ;(this.scratch?.buffer as ResizableArrayBuffer | undefined)?.resize(this.capacity * 8)
    }
    this.frames = frames
    this.frameNumbers = frameNumbers
    this.pyramids.clear()
    this.stepColumns.clear()
  }

  /** The table stops growing: each column becomes a plain array of its frames, as a loaded run's are. */
  settle(frameNumbers: Float64Array): void {
    if (!this.growing) return
    this.grow(frameNumbers)
    for (const [name, column] of this.columns) this.columns.set(name, column.slice(0, this.frames))
    this.growing = false
  }

  /** A series' value at every frame; a step series' is made anew at each call (query keeps the ones it reads). */
  get(name: string): Float64Array | undefined {
    if (this.discarded.has(name)) throw new Error(`series ${name} is not kept by this run`)
    const column = this.columns.get(name)
    if (column) return this.growing ? column.subarray(0, this.frames) : column
    const steps = this.steps.get(name)
    if (steps === undefined) return undefined
    const out = new Float64Array(this.frames)
    this.stepLog.fill(steps, out, Math.min(this.frames, this.stepFrames))
    return out
  }

  has(name: string): boolean {
    return this.columns.has(name) || this.steps.has(name)
  }

  /**
   * A series' largest value (0 at least) and its value at the last frame, as a walk over get(name) gives them; a
   * step series' from its steps, without a column of every frame (a capture's thousands of tags). Undefined for a
   * series the table does not have.
   */
  peakAndLast(name: string): { peak: number; last: number } | undefined {
    const steps = this.steps.get(name)
    if (steps !== undefined && !this.discarded.has(name)) return this.stepLog.peakAndLast(steps, this.frames, this.stepFrames)
    const column = this.get(name)
    if (!column) return undefined
    const { peakBytes, endBytes } = peakEnd(column)
    return { peak: peakBytes, last: endBytes }
  }

  list(): SeriesInfo[] {
    return [...this.infos.values()]
  }

  /**
   * Put the named series in this order, each where one of them stood: the others keep their places. `list()` gives
   * the new order, and the timeline's lanes follow it.
   */
  reorder(names: readonly string[]): void {
    const moved = new Set(names.filter((name) => this.infos.has(name)))
    const queue = [...moved]
    const entries = [...this.infos.values()].map((info) => (moved.has(info.name) ? this.infos.get(queue.shift()!)! : info))
    this.infos.clear()
    for (const info of entries) this.infos.set(info.name, info)
  }

  /** Drop series that stayed zero over the whole run (placements never used, …). */
  dropEmpty(keep: (name: string) => boolean = () => false): void {
    for (const [name, column] of this.columns) {
      if (keep(name)) continue
      if (allZero(column)) {
        this.columns.delete(name)
        this.infos.delete(name)
      }
    }
    for (const [name, steps] of this.steps) {
      if (keep(name) || !this.stepLog.isZero(steps)) continue
      this.steps.delete(name)
      this.infos.delete(name)
    }
  }

  byteSize(): number {
    let n = 0
    for (const c of this.columns.values()) n += c.byteLength
    for (const p of this.pyramids.values()) n += p.cells.byteLength
    n += this.stepLog.byteSize()
    for (const c of this.stepColumns.values()) n += c.column.byteLength
    return n
  }

  private pyramid(name: string, column: Float64Array): Pyramid {
    let p = this.pyramids.get(name)
    if (p) return p
    let levels = 1
    let count = 0
    for (let length = column.length; length > 1; levels++) {
      length = Math.ceil(length / 2)
      count += length
    }
    const start = new Int32Array(levels + 1)
    const cells = new Float64Array(3 * count)
    let length = column.length
    let at = 0
    for (let level = 1; level < levels; level++) {
      const next = Math.ceil(length / 2)
      const below = start[level - 1]
      start[level] = at
      for (let i = 0; i < next; i++) {
        const out = 3 * (at + i)
        if (level === 1) {
          // level 1 reads the column
          const a = 2 * i
          const b = a + 1 < length ? a + 1 : a
          cells[out] = Math.min(column[a], column[b])
          cells[out + 1] = Math.max(column[a], column[b])
          cells[out + 2] = b === a ? column[a] : column[a] + column[b]
        } else {
          const a = 3 * (below + 2 * i)
          const b = 2 * i + 1 < length ? a + 3 : a
          cells[out] = Math.min(cells[a], cells[b])
          cells[out + 1] = Math.max(cells[a + 1], cells[b + 1])
          cells[out + 2] = b === a ? cells[a + 2] : cells[a + 2] + cells[b + 2]
        }
      }
      at += next
      length = next
    }
    p = { levels, start, cells }
    this.pyramids.set(name, p)
    return p
  }

  /** The column a query reads: a step series' is kept for the next query, until its steps or the frames change. */
  private queried(name: string): Float64Array | undefined {
    if (!this.steps.has(name) || this.discarded.has(name)) return this.get(name)
    const kept = this.stepColumns.get(name)
    if (kept && kept.through === this.stepFrames) return kept.column
    const column = this.get(name)!
    this.stepColumns.set(name, { column, through: this.stepFrames })
    this.pyramids.delete(name)
    return column
  }

  query(query: SeriesQuery): SeriesAnswer {
    const from = Math.max(0, Math.min(this.frames, Math.floor(query.from)))
    const to = Math.max(from, Math.min(this.frames, Math.ceil(query.to)))
    const span = to - from
    const resolution = Math.max(1, Math.min(Math.floor(query.resolution), 100_000))
    const width = Math.max(1, Math.ceil(span / resolution))
    const buckets = span === 0 ? 0 : Math.ceil(span / width)
    const start = new Float64Array(buckets)
    const frame = new Float64Array(buckets)
    for (let b = 0; b < buckets; b++) {
      start[b] = from + b * width
      frame[b] = this.frameNumbers[from + b * width]
    }
    const series: Record<string, SeriesBuckets> = {}
    for (const name of query.series) {
      const column = this.queried(name)
      if (!column) continue
      const min = new Float64Array(buckets)
      const max = new Float64Array(buckets)
      const mean = new Float64Array(buckets)
      if (width <= DIRECT_WIDTH) {
        // Buckets of a few frames: read them from the column, no pyramid built for it.
        for (let b = 0; b < buckets; b++) {
          const s = from + b * width
          const e = Math.min(to, s + width)
          let lo = column[s]
          let hi = lo
          let sum = lo
          for (let f = s + 1; f < e; f++) {
            const v = column[f]
            lo = Math.min(lo, v)
            hi = Math.max(hi, v)
            sum += v
          }
          min[b] = lo
          max[b] = hi
          mean[b] = sum / (e - s)
        }
      } else {
        const p = this.pyramid(name, column)
        const cells = p.cells
        const starts = p.start
        const top = p.levels
        for (let b = 0; b < buckets; b++) {
          const s = from + b * width
          const e = Math.min(to, s + width)
          // climb (a segment tree's range query): the odd ends at level 0 from the column, whole cells above
          let lo = s
          let hi = e
          let vmin = Infinity
          let vmax = -Infinity
          let sum = 0
          if (lo & 1) {
            const v = column[lo++]
            vmin = v
            vmax = v
            sum = v
          }
          if (hi & 1) {
            const v = column[--hi]
            if (v < vmin) vmin = v
            if (v > vmax) vmax = v
            sum += v
          }
          lo >>= 1
          hi >>= 1
          for (let level = 1; lo < hi && level < top; level++) {
            const base = starts[level]
            if (lo & 1) {
              const at = 3 * (base + lo++)
              if (cells[at] < vmin) vmin = cells[at]
              if (cells[at + 1] > vmax) vmax = cells[at + 1]
              sum += cells[at + 2]
            }
            if (hi & 1) {
              const at = 3 * (base + --hi)
              if (cells[at] < vmin) vmin = cells[at]
              if (cells[at + 1] > vmax) vmax = cells[at + 1]
              sum += cells[at + 2]
            }
            lo >>= 1
            hi >>= 1
          }
          min[b] = vmin
          max[b] = vmax
          mean[b] = sum / (e - s)
        }
      }
      series[name] = { min, max, mean }
    }
    return { runId: query.runId, start, frame, width, series }
  }
}

/** Whether every value is 0 (a plain loop: `every` on a Float64Array boxes each value for its callback). */
function allZero(column: Float64Array): boolean {
  for (let i = 0; i < column.length; i++) if (column[i] !== 0) return false
  return true
}
