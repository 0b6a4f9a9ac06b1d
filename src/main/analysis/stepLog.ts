/**
 * Series that change at few of their frames (a tag's bytes, where a capture can have thousands of tags, most of
 * which change in a few frames of many thousands), kept as one log of their changes: each entry a frame index, a
 * series and its value from that frame on. A frame's writes append where the last ones ended, whichever series
 * they are of; a read groups the entries by series once (a counting sort) and keeps the grouping until more are
 * written. As a column per series, written every frame, their cost in time and memory was series × frames; as
 * steps of their own (arrays per series), each write was a few cache misses of its own.
 */
export class StepLog {
  /** The entries in the order written: frame index, series, value; `length` of them. */
  private frames = new Int32Array(0)
  private series = new Int32Array(0)
  private values = new Float64Array(0)
  length = 0
  /** By series: its value at the last entry (0 before any), and its count of entries; `count` series. */
  private last = new Float64Array(0)
  private entries = new Int32Array(0)
  count = 0
  /** The entries grouped by series (each group in the order written), as they were at `length` entries. */
  private grouped: { length: number; start: Int32Array; order: Int32Array } | null = null

  /** A new series, 0 at every frame until written: its number. */
  add(): number {
    if (this.count === this.last.length) {
      this.last = grown(this.last, Math.max(64, 2 * this.count))
      this.entries = grown(this.entries, Math.max(64, 2 * this.count))
    }
    return this.count++
  }

  /**
   * Series `s` has `value` from frame index `frame` on. Frames are written in ascending order; a frame written
   * again takes the value written last. A write of the value the series has is no entry.
   */
  write(s: number, frame: number, value: number): void {
    if (value === this.last[s]) return
    this.last[s] = value
    const n = this.length
    if (n === this.frames.length) {
      this.frames = grown(this.frames, Math.max(1024, 2 * n))
      this.series = grown(this.series, Math.max(1024, 2 * n))
      this.values = grown(this.values, Math.max(1024, 2 * n))
    }
    this.frames[n] = frame
    this.series[n] = s
    this.values[n] = value
    this.length = n + 1
    this.entries[s]++
  }

  /** Whether series `s` is 0 at every frame (it never left 0: each entry is a change, and it starts at 0). */
  isZero(s: number): boolean {
    return this.entries[s] === 0
  }

  /** Series `s`'s values at frames [0, `through`) into `out` (zeroed, at least that long). */
  fill(s: number, out: Float64Array, through: number): void {
    const { start, order } = this.group()
    const end = start[s + 1]
    for (let k = start[s]; k < end; k++) {
      const e = order[k]
      const from = this.frames[e]
      if (from >= through) break
      const to = k + 1 < end ? Math.min(this.frames[order[k + 1]], through) : through
      out.fill(this.values[e], from, to)
    }
  }

  /**
   * Series `s`'s largest value (0 at least: it starts at 0) and its value at frame index `frames` - 1, over frames
   * [0, `frames`) of which those from `through` on read 0: what its column would give, without making it.
   */
  peakAndLast(s: number, frames: number, through: number): { peak: number; last: number } {
    const { start, order } = this.group()
    const bound = Math.min(frames, through)
    let peak = 0
    let last = 0
    for (let k = start[s]; k < start[s + 1]; k++) {
      const e = order[k]
      if (this.frames[e] >= bound) break
      // an entry a later one of the same frame replaces is no frame's value
      if (k + 1 < start[s + 1] && this.frames[order[k + 1]] === this.frames[e]) continue
      if (this.values[e] > peak) peak = this.values[e]
      last = this.values[e]
    }
    return { peak, last: frames > 0 && frames <= through ? last : 0 }
  }

  byteSize(): number {
    const grouped = this.grouped ? this.grouped.start.byteLength + this.grouped.order.byteLength : 0
    return this.frames.byteLength + this.series.byteLength + this.values.byteLength + this.last.byteLength + this.entries.byteLength + grouped
  }

  private group(): { start: Int32Array; order: Int32Array } {
    if (this.grouped?.length === this.length) return this.grouped
    const count = this.count
    const start = new Int32Array(count + 1)
    for (let s = 0; s < count; s++) start[s + 1] = start[s] + this.entries[s]
    const next = start.slice(0, count)
    const order = new Int32Array(this.length)
    for (let e = 0; e < this.length; e++) order[next[this.series[e]]++] = e
    this.grouped = { length: this.length, start, order }
    return this.grouped
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const out = new (array.constructor as new (length: number) => T)(length)
  out.set(array)
  return out
}
