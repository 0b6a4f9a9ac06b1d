/**
 * The capture store: a loaded capture as typed-array columns. `storeBuilder.ts` validates records into it.
 *
 *
 * Every record is one row of `records` (its kind and a `ref`). Creates point at a row of their desc table
 * (buffers, textures, transients, placed: the last two hold the resource's id, and point at a buffer or texture
 * row, which transients of one desc share); every other kind points at its operands in `ops`:
 *   gpu [n] · release [id] · commit [id, bytes] · lock [id, bytes] · upload [via, bytes, count] ·
 *   use [count, first] · budget [bytes] · graph [name] · endgraph [passes] · heap [id, size, type, name, memory] ·
 *   barrier [after, before|NaN] · access [id, op] · submit [] · free [id] ·
 *   bind, map, unmap, write, flush [id|NaN, memory|NaN, offset|NaN, size|NaN, raw]: raw is the index in `raw` of
 *   the record's JSON when it holds anything but numbers in those fields (then the others are NaN), else -1
 * Other extension records (1.1 and later) are kept whole, as their JSON: `ref` is their index in `raw`.
 * A frame can reference thousands of resources, often listed in runs of consecutive ids, so a `use` record's
 * ids are packed from byte `first` of `useIds` (read them with useIdsOf in records.ts) as varints (seven bits a
 * byte, low bits first, the high bit set on every byte but the last). Each id is written as its difference from
 * the id before, zigzag-coded (0, -1, 1, -2 … as 0, 1, 2, 3 …), times two, plus one when a second varint
 * follows: how many ids after it continue the run one by one. If any id is not an integer in [0, 2^51),
 * `useIds` holds plain 64-bit floats instead and `first` is an index.
 * Frames are rows of `frames`, with the index of their first record, so a frame range is a record range.
 */
import { RECORD_KINDS, type CaptureHeader, type WarningKind } from '../../shared/capture'
import { Column, float64Column, Table, uint16Column, uint32Column, uint8Column } from './columns'
import type { StringTable } from './strings'
import type { RecordExtras } from './recordExtras'

export const RECORD_KIND = Object.fromEntries(RECORD_KINDS.map((k, i) => [k, i])) as {
  [P in (typeof RECORD_KINDS)[number]]: number
}

/** Whether records of `kind` are kept as range operands (bind, map, unmap, write, flush: see above). */
export function rangeOperands(kind: number): boolean {
  return kind >= RECORD_KIND.bind && kind <= RECORD_KIND.flush
}

/** Buffer `attrs` bits: state mode (2 bits), readback heap, initial data. */
export const BUFFER_ATTR = { stateMask: 3, readback: 4, init: 8 } as const

export interface WarningSample {
  kind: WarningKind
  line: number
  offset: number
  message: string
}

export interface StoreWarnings {
  counts: Partial<Record<WarningKind, number>>
  /** The first few of each kind, with where they are. */
  samples: WarningSample[]
}

export class BufferTable extends Table {
  readonly id = float64Column(0)
  readonly size = float64Column(0)
  readonly usage = uint32Column(0)
  readonly stride = uint32Column(0)
  readonly attrs = uint8Column(0)
  readonly name = uint32Column(0)
  readonly tag = uint32Column(0)
  columns(): Column<never>[] {
    return [this.id, this.size, this.usage, this.stride, this.attrs, this.name, this.tag] as Column<never>[]
  }

  /**
   * A new row holding row `from`'s desc under another id; returns its index. Column by column by name: one loop over
   * columns() would read columns of several element types at one place, slower on this per-record path.
   */
  repeat(from: number, id: number): number {
    const row = this.row()
    this.id.data[row] = id
    this.size.data[row] = this.size.data[from]
    this.usage.data[row] = this.usage.data[from]
    this.stride.data[row] = this.stride.data[from]
    this.attrs.data[row] = this.attrs.data[from]
    this.name.data[row] = this.name.data[from]
    this.tag.data[row] = this.tag.data[from]
    return row
  }
}

export class TextureTable extends Table {
  readonly id = float64Column(0)
  /** Driver size, NaN when the capture does not give it. */
  readonly size = float64Column(0)
  /** Driver alignment, 0 when the capture does not give it. */
  readonly align = float64Column(0)
  readonly dim = uint8Column(0)
  readonly format = uint32Column(0)
  readonly width = uint32Column(0)
  readonly height = uint32Column(0)
  readonly depth = uint32Column(0)
  readonly mips = uint16Column(0)
  readonly samples = uint16Column(0)
  readonly flags = uint32Column(0)
  readonly name = uint32Column(0)
  readonly tag = uint32Column(0)
  columns(): Column<never>[] {
    return [
      this.id,
      this.size,
      this.align,
      this.dim,
      this.format,
      this.width,
      this.height,
      this.depth,
      this.mips,
      this.samples,
      this.flags,
      this.name,
      this.tag,
    ] as Column<never>[]
  }
}

/**
 * Transients and placed resources: their desc is a row of the buffer or texture table. Transients of one desc share
 * its row (a render graph declares the same transients frame after frame): the row's own `id` is the first one's,
 * and each transient's is in `id` here.
 */
export class AttachedTable extends Table {
  /** The resource's id. */
  readonly id = float64Column(0)
  /** 0 buffer, 1 texture. */
  readonly kind = uint8Column(0)
  readonly desc = uint32Column(0)
  /** Transients: first pass; placed: heap id. */
  readonly a = float64Column(0)
  /** Transients: last pass; placed: heap offset. */
  readonly b = float64Column(0)
  /**
   * The number of the row's desc among the table's distinct ones, in order of first appearance: its kind and the
   * columns of its buffer or texture row but id, name and tag. A replay sends the model a transient of a shape seen
   * before by the number of that shape's form, without reading its desc again.
   */
  readonly shape = uint32Column(0)
  columns(): Column<never>[] {
    return [this.id, this.kind, this.desc, this.a, this.b, this.shape] as Column<never>[]
  }
}

export interface CaptureStore {
  readonly file: string
  readonly header: CaptureHeader
  readonly strings: StringTable
  readonly records: { kind: Uint8Array; ref: Uint32Array; length: number }
  readonly frames: { n: Float64Array; t: Float64Array; firstRecord: Uint32Array; length: number }
  readonly buffers: BufferTable
  readonly textures: TextureTable
  readonly transients: AttachedTable
  readonly placed: AttachedTable
  readonly ops: Float64Array
  /** The ids of `use` records: delta-coded bytes, or plain ids when one does not fit the coding. */
  readonly useIds: Uint8Array | Float64Array
  /** Unknown keys of a record (raw JSON members), by record index. */
  readonly extras: RecordExtras
  /** Extension records (bind, map, write, flush, resident, evict, …) as their JSON; `ref` indexes this. */
  readonly raw: string[]
  readonly warnings: StoreWarnings
  readonly hasUseRecords: boolean
  readonly hasGpuRecords: boolean
  /** Bytes of the file read (compressed size for gzip). */
  readonly sourceBytes: number
  readonly lines: number
  /** The load stopped part way at a fatal error: what came before it is here. */
  readonly partial: boolean
}

/**
 * The `count` ids of a `use` record from `first` in `useIds` (see the top of this file), into `out`, which is
 * resized to them and returned.
 */
export function unpackUseIds(useIds: Uint8Array | Float64Array, count: number, first: number, out: number[]): number[] {
  // setting an array's length is a call even when it does not change: most `use` records of a capture are as long
  if (out.length !== count) out.length = count
  if (useIds instanceof Float64Array) {
    for (let i = 0; i < count; i++) out[i] = useIds[first + i]
    return out
  }
  let at = first
  let id = 0
  for (let i = 0; i < count; ) {
    let b = useIds[at++]
    let v = b & 0x7f
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      b = useIds[at++]
      v += (b & 0x7f) * scale
    }
    const zigzag = Math.floor(v / 2)
    id += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2
    out[i++] = id
    if (v % 2 === 1) {
      b = useIds[at++]
      let run = b & 0x7f
      for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
        b = useIds[at++]
        run += (b & 0x7f) * scale
      }
      // a run past the record's count is a coding fault: stop, rather than grow `out` without end
      if (run > count - i) throw new Error(`use ids from byte ${first}: a run of ${run} past the record's ${count} ids`)
      for (; run > 0; run--) out[i++] = ++id
    }
  }
  return out
}

/** The first record of frame index `frame`, or the end of the records when there is no such frame. */
export function frameStart(store: CaptureStore, frame: number): number {
  return frame < store.frames.length ? store.frames.firstRecord[frame] : store.records.length
}

/** The record after frame `frame`'s last: the next frame's first, or the end of the records for the last frame. */
export function frameEnd(store: CaptureStore, frame: number): number {
  return frameStart(store, frame + 1)
}

/** Where the records of frame indices [from, to) are, as record indices [start, end); the range is clamped. */
export function recordRange(store: CaptureStore, from = 0, to = store.frames.length): { start: number; end: number } {
  const frames = store.frames.length
  const first = Math.max(0, Math.min(frames, Math.floor(from)))
  const last = Math.max(first, Math.min(frames, Math.ceil(to)))
  return { start: frameStart(store, first), end: frameStart(store, last) }
}

/** Bytes the store's columns hold. */
export function storeByteSize(store: CaptureStore): number {
  let n = store.records.kind.byteLength + store.records.ref.byteLength + store.ops.byteLength + store.useIds.byteLength
  n += store.frames.n.byteLength + store.frames.t.byteLength + store.frames.firstRecord.byteLength
  for (const table of [store.buffers, store.textures, store.transients, store.placed]) {
    for (const c of table.columns()) n += c.byteLength()
  }
  return n + store.strings.byteSize()
}
