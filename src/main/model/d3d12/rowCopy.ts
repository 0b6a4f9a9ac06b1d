/**
 * A table of typed-array columns (the allocations, the blocks, the id map) as a checkpoint keeps it: a whole copy of
 * the rows in use, or only the rows that differ from the checkpoint before, chained to it. A row not kept by any
 * copy of the chain reads as its column's fill value. Restoring writes the whole copy's rows, then each row a later
 * copy keeps from the newest one that keeps it.
 * What a replay compares the next checkpoint with is the table as it was at the last checkpoint (a TableShadow), so
 * a restored table equals the model's in every row in use and every row written since the last whole copy.
 */

export type Column = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>

/** The columns' element types and the value a row reads as when no copy keeps it. */
export interface TableShape {
  readonly kinds: readonly ('f64' | 'i32' | 'u8')[]
  readonly fill: readonly number[]
}

/** A float column's rows, as 32-bit integers when every one of them is one (half the bytes, the same numbers). */
export function gatherF64(column: Float64Array, rows: Int32Array): Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> {
  let narrow = true
  for (let k = 0; k < rows.length; k++) {
    const v = column[rows[k]]
    if ((v | 0) !== v || (v === 0 && 1 / v < 0)) {
      narrow = false
      break
    }
  }
  const out = narrow ? new Int32Array(rows.length) : new Float64Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

// Copies by element type, so each loop sees one kind of array (a loop over all three is slow to index).
function gatherI32(column: Int32Array, rows: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

function gatherU8(column: Uint8Array, rows: Int32Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(rows.length)
  for (let k = 0; k < rows.length; k++) out[k] = column[rows[k]]
  return out
}

function gather(column: Column, rows: Int32Array): Column {
  if (column instanceof Float64Array) return gatherF64(column, rows)
  if (column instanceof Int32Array) return gatherI32(column, rows)
  return gatherU8(column, rows)
}

/** out[to[k]] = values[from[k]] for k < m, by element type: each loop reads and writes one kind of array. */
function scatterAt(values: Column, from: Int32Array, to: Int32Array, m: number, out: Column): void {
  if (out instanceof Float64Array) {
    if (values instanceof Float64Array) scatterAtF64(values, from, to, m, out)
    else scatterAtI32F64(values as Int32Array, from, to, m, out)
  } else if (out instanceof Int32Array) scatterAtI32(values as Int32Array, from, to, m, out)
  else scatterAtU8(values as Uint8Array, from, to, m, out)
}

function scatterAtF64(values: Float64Array, from: Int32Array, to: Int32Array, m: number, out: Float64Array): void {
  for (let k = 0; k < m; k++) out[to[k]] = values[from[k]]
}

function scatterAtI32F64(values: Int32Array, from: Int32Array, to: Int32Array, m: number, out: Float64Array): void {
  for (let k = 0; k < m; k++) out[to[k]] = values[from[k]]
}

function scatterAtI32(values: Int32Array, from: Int32Array, to: Int32Array, m: number, out: Int32Array): void {
  for (let k = 0; k < m; k++) out[to[k]] = values[from[k]]
}

function scatterAtU8(values: Uint8Array, from: Int32Array, to: Int32Array, m: number, out: Uint8Array): void {
  for (let k = 0; k < m; k++) out[to[k]] = values[from[k]]
}

/** Runs this long or longer are copied as a block (TypedArray set); shorter ones row by row, which costs less. */
const BLOCK_RUN = 16

/** The runs of consecutive rows of ascending `rows` below `n`: [first index in rows, first row, length] each. */
function runsOf(rows: Int32Array, n: number): Int32Array {
  let end = rows.length
  while (end > 0 && rows[end - 1] >= n) end--
  let count = 0
  for (let k = 0; k < end; k++) if (k === 0 || rows[k] !== rows[k - 1] + 1) count++
  const runs = new Int32Array(3 * count)
  for (let k = 0, i = -3; k < end; k++) {
    if (k === 0 || rows[k] !== rows[k - 1] + 1) {
      i += 3
      runs[i] = k
      runs[i + 1] = rows[k]
    }
    runs[i + 2]++
  }
  return runs
}

/**
 * Each run of `runs` (see runsOf) of a copy's `values` into `out` at its rows: a block copy if long, else row by row;
 * by element type, as scatterAt.
 */
function copyRuns(values: Column, runs: Int32Array, out: Column): void {
  if (out instanceof Float64Array) {
    if (values instanceof Float64Array) copyRunsF64(values, runs, out)
    else copyRunsI32F64(values as Int32Array, runs, out)
  } else if (out instanceof Int32Array) copyRunsI32(values as Int32Array, runs, out)
  else copyRunsU8(values as Uint8Array, runs, out)
}

function copyRunsF64(values: Float64Array, runs: Int32Array, out: Float64Array): void {
  for (let i = 0; i < runs.length; i += 3) {
    const k = runs[i]
    const r = runs[i + 1]
    const n = runs[i + 2]
    if (n >= BLOCK_RUN) out.set(values.subarray(k, k + n), r)
    else for (let d = 0; d < n; d++) out[r + d] = values[k + d]
  }
}

function copyRunsI32F64(values: Int32Array, runs: Int32Array, out: Float64Array): void {
  for (let i = 0; i < runs.length; i += 3) {
    const k = runs[i]
    const r = runs[i + 1]
    const n = runs[i + 2]
    if (n >= BLOCK_RUN) out.set(values.subarray(k, k + n), r)
    else for (let d = 0; d < n; d++) out[r + d] = values[k + d]
  }
}

function copyRunsI32(values: Int32Array, runs: Int32Array, out: Int32Array): void {
  for (let i = 0; i < runs.length; i += 3) {
    const k = runs[i]
    const r = runs[i + 1]
    const n = runs[i + 2]
    if (n >= BLOCK_RUN) out.set(values.subarray(k, k + n), r)
    else for (let d = 0; d < n; d++) out[r + d] = values[k + d]
  }
}

function copyRunsU8(values: Uint8Array, runs: Int32Array, out: Uint8Array): void {
  for (let i = 0; i < runs.length; i += 3) {
    const k = runs[i]
    const r = runs[i + 1]
    const n = runs[i + 2]
    if (n >= BLOCK_RUN) out.set(values.subarray(k, k + n), r)
    else for (let d = 0; d < n; d++) out[r + d] = values[k + d]
  }
}

/**
 * The rows a table restored from a checkpoint's copy of `count` rows gets (see RowCopy.restore): a quarter more, so
 * a snapshot's replay from the checkpoint seldom grows it (a growth copies every column at twice the size).
 */
export function restoredCapacity(count: number): number {
  return count + Math.max(1024, count >> 2)
}

/** A column of `capacity` rows, the first `n` (all of them by default) holding `fill`, the others 0. */
function column(kind: ColumnKind, n: number, fill: number, capacity = n, pool?: RecycledColumns): Column {
  const reused = pool?.take(kind, capacity)
  if (reused !== undefined) {
    reused.fill(fill, 0, n)
    reused.fill(0, n)
    return reused
  }
  // A new column is zeros already: its rows past `n` are left unwritten, and their pages untouched until a row is.
  const c = pool !== undefined ? pool.fresh(kind, capacity) : newColumn(kind, capacity)
  if (fill !== 0) c.fill(fill, 0, n)
  return c
}

/**
 * Columns of tables no one reads any more, for the next restored or cloned table to be written into instead of new
 * arrays: a snapshot of a large capture rebuilds tens of megabytes of them from a checkpoint, and that much new
 * memory had the engine collect its whole heap every four to six snapshots, each collection about as long as a
 * snapshot (bench/README.md, "Snapshots: restored tables written into the columns of states let go"). Only an owner
 * sure that nothing reads a table again gives its columns back (the snapshot cache, for a state it lets go). Of each
 * kind it keeps at most twice as many columns as one give brought, the largest: one state's tables twice over.
 */
export class RecycledColumns {
  private readonly kept: Record<ColumnKind, Column[]> = { f64: [], i32: [], u8: [] }
  private readonly most: Record<ColumnKind, number> = { f64: 0, i32: 0, u8: 0 }
  /**
   * The longest column of each kind given or made: once columns come back, a new one is made as long, so that it
   * fits what comes next.
   */
  private readonly longest: Record<ColumnKind, number> = { f64: 0, i32: 0, u8: 0 }
  /** Whether columns were ever given back: new ones are then made as long as the longest of their kind. */
  private given = false

  /** Columns no one reads again, all of one owner's tables. */
  give(columns: readonly Column[]): void {
    this.given = true
    const brought: Record<ColumnKind, number> = { f64: 0, i32: 0, u8: 0 }
    for (const c of columns) {
      if (c.length === 0) continue
      const kind = kindOf(c)
      const list = this.kept[kind]
      if (list.some((k) => k.buffer === c.buffer)) continue
      const whole = wholeView(c)
      list.push(whole)
      this.longest[kind] = Math.max(this.longest[kind], whole.length)
      brought[kind]++
    }
    for (const kind of COLUMN_KINDS) {
      this.most[kind] = Math.max(this.most[kind], brought[kind])
      const list = this.kept[kind]
      if (list.length > 2 * this.most[kind]) {
        list.sort((a, b) => b.length - a.length)
        list.length = 2 * this.most[kind]
      }
    }
  }

  /**
   * A kept column of `kind` with room for `length` values, as a view of exactly `length` (its values whatever they
   * were); undefined when none has the room, and for no values (a kept column is not spent on an empty table). The
   * smallest that fits, so the large ones stay for large tables.
   */
  take(kind: ColumnKind, length: number): Column | undefined {
    if (length === 0) return undefined
    const list = this.kept[kind]
    let best = -1
    for (let i = 0; i < list.length; i++) {
      if (list[i].length >= length && (best < 0 || list[i].length < list[best].length)) best = i
    }
    if (best < 0) return undefined
    const [c] = list.splice(best, 1)
    return c.length === length ? c : (c.subarray(0, length) as Column)
  }

  /**
   * A column of `kind` and `length`: a kept one (its values whatever they were), else a new one of zeros (fresh()).
   * Once columns come back, a new one is made as long as the longest of its kind so far and viewed at `length`: the
   * states of a capture's late frames need longer tables than its early ones, and a column made only as long as one
   * state needs fits few of the next. The pages past `length` of a new column are never written, so they cost no
   * memory, though they count as the engine's external memory.
   */
  column(kind: ColumnKind, length: number): Column {
    return this.take(kind, length) ?? this.fresh(kind, length)
  }

  /**
   * A new column of `kind` and `length`, of zeros, made as column() makes one when it keeps none with the room. As
   * long as nothing was given back, only `length`: a new column's bytes count towards the engine's external memory
   * whether its pages are written or not, and each 64 MB more of it starts a collection of the whole heap. The
   * bench's 303 snapshots of stress-2000000, each read once (their columns never given back), started 66 to 74 such
   * collections with columns made at the longest length, 41 or 42 so (bench/README.md, "A frame's work out of the
   * replay's async loop; snapshots' new columns at their length").
   */
  fresh(kind: ColumnKind, length: number): Column {
    const whole = this.given ? Math.max(length, this.longest[kind]) : length
    this.longest[kind] = Math.max(whole, this.longest[kind])
    const c = newColumn(kind, whole)
    return whole === length ? c : (c.subarray(0, length) as Column)
  }

  /** Values kept, of each kind. */
  counts(): Record<ColumnKind, number> {
    const sum = (list: Column[]) => list.reduce((n, c) => n + c.length, 0)
    return { f64: sum(this.kept.f64), i32: sum(this.kept.i32), u8: sum(this.kept.u8) }
  }
}

export type ColumnKind = 'f64' | 'i32' | 'u8'
const COLUMN_KINDS: readonly ColumnKind[] = ['f64', 'i32', 'u8']

/** A column of `length` zeros. */
function newColumn(kind: ColumnKind, length: number): Column {
  return kind === 'f64' ? new Float64Array(length) : kind === 'i32' ? new Int32Array(length) : new Uint8Array(length)
}

function kindOf(c: Column): ColumnKind {
  return c instanceof Float64Array ? 'f64' : c instanceof Int32Array ? 'i32' : 'u8'
}

/** A column as a view of its whole buffer (a restored table's columns may be views of part of one). */
function wholeView(c: Column): Column {
  if (c.byteOffset === 0 && c.byteLength === c.buffer.byteLength) return c
  if (c instanceof Float64Array) return new Float64Array(c.buffer)
  if (c instanceof Int32Array) return new Int32Array(c.buffer)
  return new Uint8Array(c.buffer)
}

/** A copy of the first `n` values of `c` (its slice); with a `pool`, into one of its columns. */
export function copyColumn<C extends Column>(c: C, n: number, pool?: RecycledColumns): C {
  if (pool === undefined) return c.slice(0, n) as C
  const copy = pool.column(kindOf(c), n)
  copy.set(c.subarray(0, n))
  return copy as C
}

/**
 * The 64 bits of each value of a float column as two 32-bit integers: a float column is compared bit for bit (NaN
 * and -0 included) by comparing these, with no float compare, whose zeros would need a division each to tell -0.
 */
function halves(a: Float64Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, 2 * a.length)
}

/** Marks the rows below n where two float columns, as halves(), differ bit for bit. */
function markF64(a: Int32Array, b: Int32Array, n: number, mark: Uint8Array): void {
  for (let r = 0, i = 0; r < n; r++, i += 2) if (a[i] !== b[i] || a[i + 1] !== b[i + 1]) mark[r] = 1
}

/** markF64 at rows `at[0..n)`, marking mark[k] for at[k]. */
function markF64At(a: Int32Array, b: Int32Array, at: Int32Array, n: number, mark: Uint8Array): void {
  for (let k = 0; k < n; k++) {
    const i = 2 * at[k]
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1]) mark[k] = 1
  }
}

function markI32(a: Int32Array, b: Int32Array, n: number, mark: Uint8Array): void {
  for (let r = 0; r < n; r++) if (a[r] !== b[r]) mark[r] = 1
}

/**
 * Four rows at a time, read as one 32-bit integer (a column of bytes changes in few rows), then each row of a four
 * that differs.
 */
function markU8(a: Uint8Array, b: Uint8Array, n: number, mark: Uint8Array): void {
  const words = (a.byteOffset & 3) === 0 && (b.byteOffset & 3) === 0 ? n >> 2 : 0
  if (words > 0) {
    const x = new Int32Array(a.buffer, a.byteOffset, words)
    const y = new Int32Array(b.buffer, b.byteOffset, words)
    for (let w = 0; w < words; w++) {
      if (x[w] === y[w]) continue
      const r = w << 2
      if (a[r] !== b[r]) mark[r] = 1
      if (a[r + 1] !== b[r + 1]) mark[r + 1] = 1
      if (a[r + 2] !== b[r + 2]) mark[r + 2] = 1
      if (a[r + 3] !== b[r + 3]) mark[r + 3] = 1
    }
  }
  for (let r = words << 2; r < n; r++) if (a[r] !== b[r]) mark[r] = 1
}

/**
 * The rows below `count`, ascending, where any column of `now` differs from the same column of `before`, bit for
 * bit (each column at least `count` long, `before`'s of the same element types). Every row is compared: between
 * two checkpoints of the bench's captures the changed rows are spread over the whole table (a released slot is
 * taken again by the next create), so no block of rows could be passed over.
 */
export function changedRows(now: readonly Column[], before: readonly Column[], count: number): Int32Array {
  const mark = new Uint8Array(count)
  for (let j = 0; j < now.length; j++) {
    const a = now[j]
    const b = before[j]
    if (a instanceof Float64Array) markF64(halves(a), halves(b as Float64Array), count, mark)
    else if (a instanceof Int32Array) markI32(a, b as Int32Array, count, mark)
    else markU8(a, b as Uint8Array, count, mark)
  }
  let changed = 0
  for (let r = 0; r < count; r++) changed += mark[r]
  const rows = new Int32Array(changed)
  for (let r = 0, k = 0; r < count; r++) if (mark[r] === 1) rows[k++] = r
  return rows
}

/** Copies rows of `from` into `to`. */
function copyRows(from: Column, to: Column, rows: Int32Array): void {
  if (to instanceof Float64Array) for (let k = 0; k < rows.length; k++) to[rows[k]] = from[rows[k]]
  else if (to instanceof Int32Array) for (let k = 0; k < rows.length; k++) to[rows[k]] = from[rows[k]]
  else for (let k = 0; k < rows.length; k++) to[rows[k]] = from[rows[k]]
}

export class RowCopy {
  constructor(
    readonly shape: TableShape,
    /** Rows the table had made (its columns' length once restored). */
    public count: number,
    /** The rows kept, ascending. */
    public rows: Int32Array,
    /** Each column's values at `rows`; a float column as 32-bit integers when every value kept is one. */
    public values: Column[],
    /** The free list: the first `freeKeep` entries of the previous copy's, then `free`. */
    public freeKeep: number,
    public free: number[],
    /** The copy this one changes; null for a whole copy. */
    public previous: RowCopy | null,
  ) {}

  /** A whole copy of `rows` (the rows in use) of columns of `count` rows; the free list whole. */
  static whole(shape: TableShape, columns: readonly Column[], count: number, rows: Int32Array, free: readonly number[]): RowCopy {
    return new RowCopy(shape, count, rows, columns.map((c) => gather(c, rows)), 0, free.slice(), null)
  }

  /** Bytes it holds (its own rows, not the copies before it). */
  get byteLength(): number {
    let bytes = this.rows.byteLength + 8 * this.free.length
    for (const v of this.values) bytes += v.byteLength
    return bytes
  }

  /**
   * The table as restored: each row below `count` as the newest copy of the chain keeps it, and the free list. The
   * columns are `capacity` rows long (`count` by default), the rows past `count` 0, as a grown table's are: a table
   * restored to be written again takes its next rows without growing first. With a `pool`, the columns are its
   * (RecycledColumns.column).
   */
  restore(capacity = this.count, pool?: RecycledColumns): { columns: Column[]; free: number[] } {
    const chain: RowCopy[] = [this]
    for (let c = this.previous; c !== null; c = c.previous) chain.push(c)
    const shape = this.shape
    const n = this.count
    const columns = shape.kinds.map((kind, j) => column(kind, n, shape.fill[j], Math.max(n, capacity), pool))
    // The whole copy first, its runs of consecutive rows copied as blocks: most rows of a long chain are the whole
    // copy's, unchanged since (a leak's), and a block copy costs a fraction of a row by row one.
    const whole = chain[chain.length - 1]
    const runs = runsOf(whole.rows, n)
    for (let j = 0; j < columns.length; j++) copyRuns(whole.values[j], runs, columns[j])
    if (chain.length > 1) {
      // Then the copies after it, newest first, each row from the newest copy that keeps it: every row is written
      // once more at most, however long the chain (the same rows change again and again between checkpoints).
      const written = new Uint8Array(n)
      let most = 0
      for (let i = 0; i < chain.length - 1; i++) most = Math.max(most, chain[i].rows.length)
      const take = new Int32Array(most)
      const at = new Int32Array(most)
      for (let i = 0; i < chain.length - 1; i++) {
        const link = chain[i]
        const rows = link.rows
        let m = 0
        for (let k = 0; k < rows.length; k++) {
          const r = rows[k]
          // Ascending: the first row past the count ends them.
          if (r >= n) break
          if (written[r] === 1) continue
          written[r] = 1
          take[m] = r
          at[m++] = k
        }
        if (m === 0) continue
        for (let j = 0; j < columns.length; j++) scatterAt(link.values[j], at, take, m, columns[j])
      }
    }
    const free: number[] = []
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i]
      free.length = link.freeKeep
      for (const f of link.free) free.push(f)
    }
    return { columns, free }
  }

  /**
   * Takes in the copy before it (which is then no longer needed): its rows and this one's, this one's values
   * winning, chained to the copy before that one. A whole copy before it makes this one whole.
   */
  absorbPrevious(): void {
    const older = this.previous
    if (older === null) return
    const a = older.rows
    const b = this.rows
    // The union of both rows, ascending (the older copy's past this one's count left out); from[r] >= 0: this
    // copy's index, else -1 - the older copy's.
    const union = new Int32Array(a.length + b.length)
    const from = new Int32Array(a.length + b.length)
    let n = 0
    let i = 0
    let k = 0
    while (i < a.length || k < b.length) {
      if (k < b.length && (i >= a.length || b[k] <= a[i])) {
        if (i < a.length && a[i] === b[k]) i++
        union[n] = b[k]
        from[n++] = k++
      } else {
        if (a[i] < this.count) {
          union[n] = a[i]
          from[n++] = -1 - i
        }
        i++
      }
    }
    const picks = from.subarray(0, n)
    this.values = this.shape.kinds.map((kind, j) => merge(kind, this.values[j], older.values[j], picks))
    this.rows = union.slice(0, n)
    if (this.freeKeep <= older.freeKeep) {
      this.free = this.free.slice()
    } else {
      this.free = [...older.free.slice(0, this.freeKeep - older.freeKeep), ...this.free]
      this.freeKeep = older.freeKeep
    }
    this.previous = older.previous
  }
}

/**
 * A column's values of two copies merged (absorbPrevious): from[r] >= 0 takes `mine[from[r]]`, else
 * `theirs[-1 - from[r]]`; a float column as 32-bit integers when every value is one.
 */
function merge(kind: 'f64' | 'i32' | 'u8', mine: Column, theirs: Column, from: Int32Array): Column {
  const n = from.length
  if (kind === 'u8') {
    const out = new Uint8Array(n)
    const x = mine as Uint8Array
    const y = theirs as Uint8Array
    for (let r = 0; r < n; r++) out[r] = from[r] >= 0 ? x[from[r]] : y[-1 - from[r]]
    return out
  }
  if (kind === 'i32' || (mine instanceof Int32Array && theirs instanceof Int32Array)) {
    const out = new Int32Array(n)
    const x = mine as Int32Array
    const y = theirs as Int32Array
    for (let r = 0; r < n; r++) out[r] = from[r] >= 0 ? x[from[r]] : y[-1 - from[r]]
    return out
  }
  const out = new Float64Array(n)
  for (let r = 0; r < n; r++) out[r] = from[r] >= 0 ? mine[from[r]] : theirs[-1 - from[r]]
  return narrowF64(out)
}

/** A float column as 32-bit integers when every value is one (half the bytes, the same numbers), else itself. */
function narrowF64(column: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> {
  for (let k = 0; k < column.length; k++) {
    const v = column[k]
    if ((v | 0) !== v || (v === 0 && 1 / v < 0)) return column
  }
  return Int32Array.from(column)
}

/**
 * A table as it was at the last checkpoint, kept by a replay to make the next checkpoint's copy: the rows that
 * differ from it. Brought up to the table each time. A row that changed since is in that copy; a row that did not
 * is restored as the copy before restores it: a whole copy restores the rows in use, and a free row (not in use)
 * reads as its fill until it is written, which a table's user does before reading it.
 */
export class TableShadow {
  private constructor(
    private columns: Column[],
    private count: number,
    private free: number[],
  ) {}

  /** A copy of a table's `columns` (its first `count` rows) and free list. */
  static of(columns: readonly Column[], count: number, free: readonly number[]): TableShadow {
    return new TableShadow(
      columns.map((c) => c.slice(0, count) as Column),
      count,
      free.slice(),
    )
  }

  /**
   * A copy, chained to `previous` (the copy this shadow was restored from or brought up to), of the rows of a
   * table's `columns` (of `count` rows, at least as long) that differ from this shadow; the shadow then equals the
   * table.
   */
  changes(columns: readonly Column[], count: number, free: readonly number[], previous: RowCopy): RowCopy {
    this.fit(previous.shape, count)
    const rows = changedRows(columns, this.columns, count)
    for (let j = 0; j < columns.length; j++) copyRows(columns[j], this.columns[j], rows)
    let keep = 0
    const before = this.free
    while (keep < before.length && keep < free.length && before[keep] === free[keep]) keep++
    this.free = free.slice()
    return new RowCopy(previous.shape, count, rows, columns.map((c) => gather(c, rows)), keep, free.slice(keep), previous)
  }

  /**
   * What changes() gives of a table without a free list whose only rows written since this shadow was brought up
   * are among `candidates` (ascending): of those rows, the ones that differ from this shadow, which then equals the
   * table in those rows. The table's writer lists the rows it wrote; the others are not read.
   */
  changesAt(columns: readonly Column[], count: number, candidates: Int32Array, previous: RowCopy): RowCopy {
    this.fit(previous.shape, count)
    let n = 0
    while (n < candidates.length && candidates[n] < count) n++
    const mark = new Uint8Array(n)
    for (let j = 0; j < columns.length; j++) {
      const a = columns[j]
      const b = this.columns[j]
      if (a instanceof Float64Array) markF64At(halves(a), halves(b as Float64Array), candidates, n, mark)
      else for (let k = 0; k < n; k++) if (a[candidates[k]] !== b[candidates[k]]) mark[k] = 1
    }
    let changed = 0
    for (let k = 0; k < n; k++) changed += mark[k]
    const rows = new Int32Array(changed)
    for (let k = 0, m = 0; k < n; k++) if (mark[k] === 1) rows[m++] = candidates[k]
    for (let j = 0; j < columns.length; j++) copyRows(columns[j], this.columns[j], rows)
    return new RowCopy(previous.shape, count, rows, columns.map((c) => gather(c, rows)), 0, [], previous)
  }

  /** The shadow's columns made `count` rows long at least, the rows it gains read as their fill. */
  private fit(shape: TableShape, count: number): void {
    if (count > this.columns[0].length) {
      const n = Math.max(count, 2 * this.columns[0].length)
      this.columns = this.columns.map((c, j) => {
        const grown = column(shape.kinds[j], n, shape.fill[j])
        grown.set(c.subarray(0, this.count) as never)
        return grown
      })
    } else if (count > this.count) {
      for (let j = 0; j < this.columns.length; j++) this.columns[j].fill(shape.fill[j], this.count, count)
    }
    this.count = count
    if (this.columns.length === 0) throw new Error('a table without columns')
  }
}
