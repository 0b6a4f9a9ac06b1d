/**
 * Per-frame series of a run: one Float64Array column per series, each with a min/max/sum pyramid built by the
 * first query whose buckets are wide, so a {frame range, resolution} query reads a bounded number of cells however
 * long the capture. Buckets of a few frames are read from the column itself.
 */
import type { SeriesAnswer, SeriesBuckets, SeriesInfo, SeriesQuery } from '../../shared/ipc'

/**
 * Levels halve the length: level k holds the min, max and sum of 2^k frames per cell. Level 0 is the column
 * itself; levels 1 and up sit end to end in one array per statistic, level k from `start[k]` (three allocations a
 * series, not three a level).
 */
interface Pyramid {
  levels: number
  start: Int32Array
  min: Float64Array
  max: Float64Array
  sum: Float64Array
}

/** Buckets at most this wide are read straight from the column; wider ones from the pyramid. */
const DIRECT_WIDTH = 16

export class SeriesTable {
  readonly frames: number
  /** The capture's frame number of each frame index. */
  readonly frameNumbers: Float64Array
  private readonly columns = new Map<string, Float64Array>()
  private readonly infos = new Map<string, SeriesInfo>()
  private readonly pyramids = new Map<string, Pyramid>()

  constructor(frameNumbers: Float64Array) {
    this.frames = frameNumbers.length
    this.frameNumbers = frameNumbers
  }

  /** The column of a series, created zero-filled on first use. */
  column(info: SeriesInfo): Float64Array {
    let column = this.columns.get(info.name)
    if (!column) {
      column = new Float64Array(this.frames)
      this.columns.set(info.name, column)
      this.infos.set(info.name, info)
    }
    return column
  }

  get(name: string): Float64Array | undefined {
    return this.columns.get(name)
  }

  has(name: string): boolean {
    return this.columns.has(name)
  }

  list(): SeriesInfo[] {
    return [...this.infos.values()]
  }

  /** Drop series that stayed zero over the whole run (placements never used, …). */
  dropEmpty(keep: (name: string) => boolean = () => false): void {
    for (const [name, column] of this.columns) {
      if (keep(name)) continue
      if (column.every((v) => v === 0)) {
        this.columns.delete(name)
        this.infos.delete(name)
      }
    }
  }

  byteSize(): number {
    let n = 0
    for (const c of this.columns.values()) n += c.byteLength
    for (const p of this.pyramids.values()) n += p.min.byteLength + p.max.byteLength + p.sum.byteLength
    return n
  }

  private pyramid(name: string, column: Float64Array): Pyramid {
    let p = this.pyramids.get(name)
    if (p) return p
    let levels = 1
    let cells = 0
    for (let length = column.length; length > 1; levels++) {
      length = Math.ceil(length / 2)
      cells += length
    }
    const start = new Int32Array(levels + 1)
    const min = new Float64Array(cells)
    const max = new Float64Array(cells)
    const sum = new Float64Array(cells)
    let length = column.length
    let at = 0
    for (let level = 1; level < levels; level++) {
      const next = Math.ceil(length / 2)
      const below = start[level - 1]
      // Level 0 reads the column; the others the level under them in the flat arrays.
      const pmin = level === 1 ? column : min
      const pmax = level === 1 ? column : max
      const psum = level === 1 ? column : sum
      start[level] = at
      for (let i = 0; i < next; i++) {
        const a = below + 2 * i
        const b = 2 * i + 1 < length ? a + 1 : a
        min[at + i] = Math.min(pmin[a], pmin[b])
        max[at + i] = Math.max(pmax[a], pmax[b])
        sum[at + i] = b === a ? psum[a] : psum[a] + psum[b]
      }
      at += next
      length = next
    }
    p = { levels, start, min, max, sum }
    this.pyramids.set(name, p)
    return p
  }

  /** min, max and mean of frames [from, to) of a column, from the coarsest pyramid cells that fit. */
  private range(
    column: Float64Array,
    p: Pyramid,
    from: number,
    to: number,
    out: { min: number; max: number; sum: number },
  ): void {
    let min = Infinity
    let max = -Infinity
    let sum = 0
    let level = 0
    let lo = from
    let hi = to
    let mins = column
    let maxs = column
    let sums = column
    let base = 0
    // climb: take whole cells at each level from both ends
    while (lo < hi) {
      if (lo & 1) {
        min = Math.min(min, mins[base + lo])
        max = Math.max(max, maxs[base + lo])
        sum += sums[base + lo]
        lo++
      }
      if (hi & 1) {
        hi--
        min = Math.min(min, mins[base + hi])
        max = Math.max(max, maxs[base + hi])
        sum += sums[base + hi]
      }
      lo >>= 1
      hi >>= 1
      level++
      if (level >= p.levels) break
      mins = p.min
      maxs = p.max
      sums = p.sum
      base = p.start[level]
    }
    out.min = min
    out.max = max
    out.sum = sum
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
    const cell = { min: 0, max: 0, sum: 0 }
    for (const name of query.series) {
      const column = this.columns.get(name)
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
        for (let b = 0; b < buckets; b++) {
          const s = from + b * width
          const e = Math.min(to, s + width)
          this.range(column, p, s, e, cell)
          min[b] = cell.min
          max[b] = cell.max
          mean[b] = cell.sum / (e - s)
        }
      }
      series[name] = { min, max, mean }
    }
    return { runId: query.runId, start, frame, width, series }
  }
}
