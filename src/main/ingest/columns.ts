/**
 * Growable typed-array columns: the capture store keeps one per field. Capacity grows to the size projected from
 * how far the load is (by half again where that is unknown), so a large capture reaches its size in a step or
 * two; `trim()` gives each its exact length.
 * The columns of one table grow together (`Table.row`) and are written through `data`, so the hot path makes
 * one capacity check per row, not one per cell.
 */
type TypedArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array
type TypedArrayCtor<T extends TypedArray> = {
  new (length: number): T
  new (buffer: SharedArrayBuffer): T
  BYTES_PER_ELEMENT: number
}

/**
 * How far through its input a load is, from 0 (unknown) to 1. A column or table that grows projects its final
 * size from it, so a large capture reaches its size in a few steps instead of many half-again copies.
 */
export interface LoadShare {
  readonly fraction: number
}

/**
 * A load's share for the columns of the store it builds: the parse's own position against the input's size where
 * both count one input's bytes (a plain file), else the share read so far, which runs ahead of the parse by up to
 * a chunk (a compressed file's bytes read). Projected from the read share, a table grew five or six times over a
 * 250 000-record capture, the last time at 90 % of the file; from the parse position, three or four.
 */
export class ParseShare implements LoadShare {
  /** The share of the input read, set as chunks come. */
  read = 0
  /** The bytes parsed so far, and the input's size in the same bytes. */
  parsed: (() => number) | undefined
  total = 0
  get fraction(): number {
    return this.parsed !== undefined && this.total > 0 ? Math.min(1, this.parsed() / this.total) : this.read
  }
}

/**
 * From this share of the input on, a column grows at once to its projected size and a fifth more. Each growth
 * copies what the column holds into fresh memory (on stress-2000000, 66.7 MB of copies when every growth was at
 * most fourfold, the last ones at 40 % and 99 % of the file, each copying most of a column; 6.6 MB so). The fifth
 * covers a capture whose later frames hold more records a byte than its first ones.
 */
const TRUSTED_SHARE = 0.02
const TRUSTED_MARGIN = 1.2
/**
 * What a projection may reserve beyond four times a column's length. A kind of record a capture holds only in its
 * first few percent (the textures of a level load) is projected to up to sixty times what it holds; its pages are
 * never written, but the reservation is real, so for a capture of gigabytes it stays within this.
 */
const MAX_EXTRA_BYTES = 64 * 1024 * 1024

/**
 * The capacity to grow to from `capacity` holding `length`, of elements of `bytes` bytes: half again when the share
 * is unknown; else the projected size (a little over, since the share read runs ahead of the parse), at most four
 * times `length` until TRUSTED_SHARE of the input is parsed; and at least an eighth more.
 */
export function grownCapacity(capacity: number, length: number, share: LoadShare | undefined, bytes = 8): number {
  const fraction = share?.fraction ?? 0
  if (!(fraction > 0 && fraction < 1)) return Math.max(1024, Math.ceil(capacity * 1.5))
  const projected =
    fraction >= TRUSTED_SHARE
      ? Math.min(Math.ceil((length / fraction) * TRUSTED_MARGIN), length * 4 + Math.floor(MAX_EXTRA_BYTES / bytes))
      : Math.min(length * 4, Math.ceil((length / fraction) * 1.03))
  return Math.max(1024, Math.ceil(capacity * 1.125), projected)
}

/** The capacity to grow to so that `need` values fit: grownCapacity, then half again until they do. */
export function capacityFor(capacity: number, need: number, share: LoadShare | undefined, bytes: number): number {
  let grown = grownCapacity(capacity, need, share, bytes)
  while (grown < need) grown = Math.ceil(grown * 1.5)
  return grown
}

/**
 * `data` cut to its first `length` elements: behind a view where the slack is no longer than what is held (its
 * pages were never written, and a copy would write the whole array into fresh memory again), else copied, so the
 * slack's reservation is let go.
 */
export function trimmed<T extends TypedArray>(data: T, length: number): T {
  const slack = data.length - length
  if (slack <= 0) return data
  return (slack <= length ? data.subarray(0, length) : data.slice(0, length)) as T
}

export class Column<T extends TypedArray> {
  data: T
  length = 0
  share: LoadShare | undefined
  /**
   * In memory another thread may read (SharedArrayBuffer): a pipelined load's builder (ingest/increments.ts). Its
   * arrays are only ever replaced, never cut down in place: a growth copies into new shared memory, and `trim` keeps
   * a view.
   */
  private shared = false
  private readonly ctor: TypedArrayCtor<T>

  constructor(ctor: TypedArrayCtor<T>, capacity = 1024) {
    this.ctor = ctor
    this.data = new ctor(capacity)
  }

  push(value: number): number {
    if (this.length === this.data.length) this.grow(this.length + 1)
    this.data[this.length] = value
    return this.length++
  }

  /** Make room for `extra` more values without pushing them. */
  reserve(extra: number): void {
    if (this.length + extra > this.data.length) this.grow(this.length + extra)
  }

  get(index: number): number {
    return this.data[index]
  }

  set(index: number, value: number): void {
    this.data[index] = value
  }

  private grow(min: number): void {
    // Projected from the length the column is about to have: a run of values appended at once (a pipelined load's
    // increment) counts in the share it came with.
    this.resize(capacityFor(this.data.length, min, this.share, this.ctor.BYTES_PER_ELEMENT))
  }

  /** Reallocate to `capacity` values, keeping the first `length`. */
  resize(capacity: number): void {
    const next = this.shared ? new this.ctor(new SharedArrayBuffer(capacity * this.ctor.BYTES_PER_ELEMENT)) : new this.ctor(capacity)
    next.set(this.data.subarray(0, Math.min(this.length, capacity)) as never)
    this.data = next
  }

  /** From now on in shared memory (see `shared`): what it holds is copied there now, and each growth stays there. */
  toShared(): void {
    if (this.shared) return
    this.shared = true
    this.resize(this.data.length)
  }

  /**
   * Drop unused capacity; returns the exact-length array. Slack no longer than the length is kept behind an
   * exact-length view rather than copied away: a copy would briefly hold the column twice, and touch as much fresh
   * memory again, where the slack's pages were never written (a projection is a fifth over by design). A column
   * projected far past what it came to hold is copied to its length; one in shared memory never is (the thread
   * that reads it trims the store it keeps).
   */
  trim(): T {
    this.data = this.shared ? (this.data.subarray(0, this.length) as T) : trimmed(this.data, this.length)
    return this.data
  }

  /** The filled part, without copying. */
  view(): T {
    return this.data.subarray(0, this.length) as T
  }

  byteLength(): number {
    return this.data.byteLength
  }
}

export const float64Column = (capacity?: number) => new Column(Float64Array, capacity)
export const uint32Column = (capacity?: number) => new Column(Uint32Array, capacity)
export const uint16Column = (capacity?: number) => new Column(Uint16Array, capacity)
export const uint8Column = (capacity?: number) => new Column(Uint8Array, capacity)

/** Columns with one row count. Cells of a new row are written through each column's `data`. */
export abstract class Table {
  length = 0
  share: LoadShare | undefined
  private capacity = 0

  abstract columns(): Column<never>[]

  /** The index of a new row, with room made for it in every column. */
  row(): number {
    if (this.length === this.capacity) this.grow()
    return this.length++
  }

  private grow(): void {
    this.capacity = grownCapacity(this.capacity, this.length, this.share)
    for (const c of this.columns()) {
      c.length = this.length
      c.resize(this.capacity)
    }
  }

  /** Every column in shared memory from now on (Column.toShared). */
  toShared(): void {
    for (const c of this.columns()) {
      c.length = this.length
      c.toShared()
    }
  }

  /** Drop the slack: every column exactly `length` long. */
  trim(): void {
    for (const c of this.columns()) {
      c.length = this.length
      c.trim()
    }
  }
}
