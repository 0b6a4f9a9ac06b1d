/**
 * Per-frame series of a run: one Float64Array column per series, each with a min/max/sum pyramid built on first
 * query, so a {frame range, resolution} query reads a bounded number of cells however long the capture.
 */
import type { SeriesAnswer, SeriesBuckets, SeriesInfo, SeriesQuery } from '../../shared/ipc'

/** Levels halve the length: level k holds the min, max and sum of 2^k frames per cell. */
interface Pyramid {
  min: Float64Array[]
  max: Float64Array[]
  sum: Float64Array[]
}

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
    for (const p of this.pyramids.values()) for (const level of p.min) n += level.byteLength * 3
    return n
  }

  private pyramid(name: string, column: Float64Array): Pyramid {
    let p = this.pyramids.get(name)
    if (p) return p
    p = { min: [column], max: [column], sum: [column] }
    let length = column.length
    for (let level = 1; length > 1; level++) {
      const next = Math.ceil(length / 2)
      const min = new Float64Array(next)
      const max = new Float64Array(next)
      const sum = new Float64Array(next)
      const pmin = p.min[level - 1]
      const pmax = p.max[level - 1]
      const psum = p.sum[level - 1]
      for (let i = 0; i < next; i++) {
        const a = 2 * i
        const b = a + 1 < length ? a + 1 : a
        min[i] = Math.min(pmin[a], pmin[b])
        max[i] = Math.max(pmax[a], pmax[b])
        sum[i] = b === a ? psum[a] : psum[a] + psum[b]
      }
      p.min.push(min)
      p.max.push(max)
      p.sum.push(sum)
      length = next
    }
    this.pyramids.set(name, p)
    return p
  }

  /** min, max and mean of frames [from, to) of a column, from the coarsest pyramid cells that fit. */
  private range(p: Pyramid, from: number, to: number, out: { min: number; max: number; sum: number }): void {
    let min = Infinity
    let max = -Infinity
    let sum = 0
    let level = 0
    let lo = from
    let hi = to
    // climb: take whole cells at each level from both ends
    while (lo < hi) {
      if (lo & 1) {
        min = Math.min(min, p.min[level][lo])
        max = Math.max(max, p.max[level][lo])
        sum += p.sum[level][lo]
        lo++
      }
      if (hi & 1) {
        hi--
        min = Math.min(min, p.min[level][hi])
        max = Math.max(max, p.max[level][hi])
        sum += p.sum[level][hi]
      }
      lo >>= 1
      hi >>= 1
      level++
      if (level >= p.min.length) break
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
      const p = this.pyramid(name, column)
      const min = new Float64Array(buckets)
      const max = new Float64Array(buckets)
      const mean = new Float64Array(buckets)
      for (let b = 0; b < buckets; b++) {
        const s = from + b * width
        const e = Math.min(to, s + width)
        this.range(p, s, e, cell)
        min[b] = cell.min
        max[b] = cell.max
        mean[b] = cell.sum / (e - s)
      }
      series[name] = { min, max, mean }
    }
    return { runId: query.runId, start, frame, width, series }
  }
}
