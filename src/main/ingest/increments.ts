/**
 * A capture store sent in increments, from the thread that reads a capture to the thread that replays it (a
 * pipelined load, pipeline.ts). The builder keeps its columns in memory both threads share (SharedArrayBuffer,
 * CaptureBuilder.toShared) and only appends to them: every increment holds those columns as they are now and how
 * long each is, so the replaying side takes them as its store's columns without a copy, and reads only values no
 * later increment writes again (a column that grows is copied into new shared memory, the old one left as it was).
 * Beside them, the strings interned since, the new extras, raw records and warning samples, and the flags and
 * warning counts as they are now. One exception: when a `use` id does not fit the byte coding, the builder recodes
 * the ids of every `use` record as plain numbers and rewrites their operands, in new arrays; the next increment
 * holds them (`recoded`).
 *
 * Before, the reading side copied the rows each column gained into shared columns of its own: on deferred-2000000
 * that copy took 593 ms of the reading thread's 2.2 s, most of it the first writes to fresh memory (bench/README.md).
 *
 * The columns' lengths are read from outside the builder, from the store's layout (store.ts): the operands of a
 * record that has any follow those of the record before it, so each record's end in `ops` is its `ref` plus the
 * width of its kind, and a `use` record's ids end where its coded ids do. Every increment checks the layout as it
 * goes (each record's operands start where the last one's ended), and the last one checks the lengths against the
 * finished store's: a capture whose layout differs stops the pipelined load (StoreLayoutError) rather than
 * send a wrong store.
 */
import type { CaptureHeader, WarningKind } from '../../shared/capture'
import { Column, float64Column, uint32Column, uint8Column } from './columns'
import {
  AttachedTable,
  BufferTable,
  RECORD_KIND,
  rangeOperands,
  TextureTable,
  type CaptureStore,
  type StoreWarnings,
  type WarningSample,
} from './store'
import type { CaptureBuilder } from './storeBuilder'
import { StringTable } from './strings'
import { RecordExtras } from './recordExtras'

type TypedArray = Float64Array | Uint32Array | Uint16Array | Uint8Array

/**
 * A store as an increment sends it: its columns in shared memory, each as long as its length says (the arrays may
 * hold more), and what else it gained since the increment before.
 */
export interface StoreIncrement {
  header: CaptureHeader
  records: number
  kind: Uint8Array
  ref: Uint32Array
  frames: number
  frameN: Float64Array
  frameT: Float64Array
  frameFirst: Uint32Array
  /** The buffer, texture, transient and placed tables: each one's rows, and an array per column (columns() order). */
  tableRows: number[]
  tables: TypedArray[][]
  opsLength: number
  ops: Float64Array
  useLength: number
  useIds: Uint8Array | Float64Array
  /** `ops` and `useIds` are new arrays: the use ids were recoded as plain numbers. */
  recoded: boolean
  /** The new strings' UTF-8 bytes end to end, and where each ends. */
  strings: Uint8Array
  stringEnds: Uint32Array
  /**
   * The new records' extra keys: record index, text, the text's number (RecordExtras); a numbered text sent before
   * comes as '', and one without a number (0) as '' too, its bytes in `looseBytes`.
   */
  extras: [number, string, number][]
  /** The new texts without a number, in record order: their UTF-8 bytes end to end, and where each ends. */
  looseBytes: Uint8Array
  looseEnds: Uint32Array
  raw: string[]
  warningCounts: Partial<Record<WarningKind, number>>
  warningSamples: WarningSample[]
  hasUse: boolean
  hasGpu: boolean
  /** How far through its input the load is (LoadShare), for the receiving columns' growth. */
  fraction: number
}

/** The store's layout is not the one this reader sends in increments. */
export class StoreLayoutError extends Error {
  constructor(detail: string) {
    super(`the capture store's layout is not as store.ts describes it: ${detail}`)
    this.name = 'StoreLayoutError'
  }
}

/** Operands in `ops` of each record kind (store.ts); -1 where the kind's `ref` points elsewhere. */
const OPS_WIDTH = new Int8Array(256).fill(-1)
OPS_WIDTH[RECORD_KIND.gpu] = 1
OPS_WIDTH[RECORD_KIND.release] = 1
OPS_WIDTH[RECORD_KIND.commit] = 2
OPS_WIDTH[RECORD_KIND.lock] = 2
OPS_WIDTH[RECORD_KIND.upload] = 3
OPS_WIDTH[RECORD_KIND.use] = 2
OPS_WIDTH[RECORD_KIND.budget] = 2
OPS_WIDTH[RECORD_KIND.graph] = 1
OPS_WIDTH[RECORD_KIND.endgraph] = 1
OPS_WIDTH[RECORD_KIND.heap] = 5
OPS_WIDTH[RECORD_KIND.barrier] = 2
OPS_WIDTH[RECORD_KIND.access] = 2
OPS_WIDTH[RECORD_KIND.submit] = 0
OPS_WIDTH[RECORD_KIND.free] = 1
for (let kind = 0; kind < OPS_WIDTH.length; kind++) if (rangeOperands(kind)) OPS_WIDTH[kind] = 5

/** The byte after the coded ids of a `use` record: `count` ids from byte `first` (store.ts). */
function codedEnd(bytes: Uint8Array, count: number, first: number): number {
  let at = first
  for (let i = 0; i < count; ) {
    let b = bytes[at++]
    let v = b & 0x7f
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      b = bytes[at++]
      v += (b & 0x7f) * scale
    }
    i++
    if (v % 2 === 1) {
      b = bytes[at++]
      let run = b & 0x7f
      for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
        b = bytes[at++]
        run += (b & 0x7f) * scale
      }
      i += run
    }
  }
  return at
}

/** The parts of a store an increment reads: a builder's columns as they are, or its finished store. */
type StoreView = Pick<
  CaptureStore,
  'header' | 'strings' | 'records' | 'frames' | 'buffers' | 'textures' | 'transients' | 'placed' | 'ops' | 'useIds' | 'extras' | 'raw' | 'warnings' | 'hasUseRecords' | 'hasGpuRecords'
>

/** A builder's columns as they are now, untrimmed (the arrays are replaced as they grow: ask again each time). */
export function builderView(builder: CaptureBuilder): StoreView {
  const now = builder.soFar()
  return {
    header: builder.header,
    strings: builder.strings,
    records: { kind: now.kind, ref: now.ref, length: now.records },
    frames: { n: builder.frameN.data, t: builder.frameT.data, firstRecord: builder.frameFirst.data, length: builder.frameN.length },
    buffers: builder.buffers,
    textures: builder.textures,
    transients: builder.transients,
    placed: builder.placed,
    ops: now.ops,
    useIds: now.useIds,
    extras: builder.extras,
    raw: builder.raw,
    warnings: builder.warnings,
    hasUseRecords: now.hasUse,
    hasGpuRecords: now.hasGpu,
  }
}

/** An array in memory the replaying thread shares, or a StoreLayoutError: the builder was not made to share. */
function sharedArray<T extends TypedArray>(array: T, what: string): T {
  if (!(array.buffer instanceof SharedArrayBuffer)) throw new StoreLayoutError(`${what} is not in shared memory`)
  return array
}

/**
 * The reading side: what a store gained since the last increment taken. The builder's columns are in shared memory
 * (CaptureBuilder.toShared), so an increment holds them as they are, with how many values of each are final.
 */
export class IncrementTaker {
  private records = 0
  private readonly rows = [0, 0, 0, 0]
  /** The end of the operands and of the use ids of the records sent. */
  private opsEnd = 0
  private useEnd = 0
  private recoded = false
  private strings = 1
  private extras = 0
  /** The highest number of an extras text sent (RecordExtras: the texts are numbered in the order they first come). */
  private extrasSent = 0
  /** The texts without a number sent. */
  private loose = 0
  private raw = 0
  private samples = 0

  /** Records of a store of `records` that no increment has sent yet. */
  pending(records: number): number {
    return records - this.records
  }

  /**
   * The increment since the last one, and the arrays to transfer with it. `final`: the view is the finished
   * store, whose exact column lengths check those worked out from the layout.
   */
  take(view: StoreView, fraction: number, final = false): { increment: StoreIncrement; transfer: ArrayBuffer[] } {
    const records = view.records.length
    const recoded = view.useIds instanceof Float64Array && !this.recoded
    let from = this.records
    if (recoded) {
      // every use record's operands were rewritten, in new arrays: measure them again from the start
      this.recoded = true
      this.opsEnd = 0
      this.useEnd = 0
      from = 0
    }
    this.measure(view, from, records)
    if (final && (this.opsEnd !== view.ops.length || this.useEnd !== view.useIds.length)) {
      throw new StoreLayoutError(
        `operands end at ${this.opsEnd} of ${view.ops.length}, use ids at ${this.useEnd} of ${view.useIds.length}`,
      )
    }
    const transfer: ArrayBuffer[] = []
    const frames = view.frames.length
    const tables = [view.buffers, view.textures, view.transients, view.placed].map((table, t) => {
      this.rows[t] = table.length
      return table.columns().map((c) => sharedArray(c.data as TypedArray, 'a table column'))
    })

    const strings = view.strings
    const count = strings.size
    let bytes = 0
    for (let id = this.strings; id < count; id++) bytes += strings.byteLength(id)
    const stringBytes = new Uint8Array(bytes)
    const stringEnds = new Uint32Array(count - this.strings)
    for (let id = this.strings, at = 0; id < count; id++) {
      stringBytes.set(strings.bytes(id), at)
      at += strings.byteLength(id)
      stringEnds[id - this.strings] = at
    }
    transfer.push(stringBytes.buffer, stringEnds.buffer)
    this.strings = count

    // extras are added in record order and never removed; a numbered text is sent with the first record that has it
    const extras: [number, string, number][] = []
    const e = view.extras
    for (; this.extras < e.size; this.extras++) {
      const id = e.idAt(this.extras)
      const sent = id === 0 || id <= this.extrasSent
      if (id > this.extrasSent) this.extrasSent = id
      extras.push([e.recordAt(this.extras), sent ? '' : e.textAt(this.extras), id])
    }
    // the texts without a number, end to end as the view keeps them
    const looseEnds = new Uint32Array(e.looseCount - this.loose)
    const base = e.looseEnd(this.loose - 1)
    for (let k = this.loose; k < e.looseCount; k++) looseEnds[k - this.loose] = e.looseEnd(k) - base
    const looseBytes = e.looseSpan(this.loose, e.looseCount).slice()
    this.loose = e.looseCount
    transfer.push(looseBytes.buffer, looseEnds.buffer)
    const raw = view.raw.slice(this.raw)
    this.raw = view.raw.length
    const warningSamples = view.warnings.samples.slice(this.samples)
    this.samples = view.warnings.samples.length

    const increment: StoreIncrement = {
      header: view.header,
      records,
      kind: sharedArray(view.records.kind, 'the records'),
      ref: sharedArray(view.records.ref, 'the records'),
      frames,
      frameN: sharedArray(view.frames.n, 'the frames'),
      frameT: sharedArray(view.frames.t, 'the frames'),
      frameFirst: sharedArray(view.frames.firstRecord, 'the frames'),
      tableRows: this.rows.slice(),
      tables,
      opsLength: this.opsEnd,
      ops: sharedArray(view.ops, 'the operands'),
      useLength: this.useEnd,
      useIds: sharedArray(view.useIds, 'the use ids'),
      recoded,
      strings: stringBytes,
      stringEnds,
      extras,
      looseBytes,
      looseEnds,
      raw,
      warningCounts: { ...view.warnings.counts },
      warningSamples,
      hasUse: view.hasUseRecords,
      hasGpu: view.hasGpuRecords,
      fraction,
    }
    this.records = records
    return { increment, transfer }
  }

  /** The ends of the operands and use ids of records [from, to), each record's checked to start where the last ended. */
  private measure(view: StoreView, from: number, to: number): void {
    const { kind, ref } = view.records
    const ops = view.ops
    const coded = view.useIds instanceof Uint8Array ? view.useIds : undefined
    let opsEnd = this.opsEnd
    let useEnd = this.useEnd
    for (let i = from; i < to; i++) {
      const k = kind[i]
      const width = OPS_WIDTH[k]
      if (width < 0) continue
      const at = ref[i]
      if (at !== opsEnd) throw new StoreLayoutError(`record ${i}'s operands start at ${at}, not at ${opsEnd}`)
      opsEnd = at + width
      if (k !== RECORD_KIND.use) continue
      const count = ops[at]
      const first = ops[at + 1]
      if (first !== useEnd) throw new StoreLayoutError(`record ${i}'s use ids start at ${first}, not at ${useEnd}`)
      useEnd = coded ? codedEnd(coded, count, first) : first + count
    }
    this.opsEnd = opsEnd
    this.useEnd = useEnd
  }
}

/**
 * The replaying side: a store that grows by increments. Like a followed capture's store (growing.ts), it shows the
 * complete frames received so far (a frame is complete once the next one has begun) and their records; `finish`
 * makes it the whole store, as the builder finished it.
 */
export class PipedStore implements CaptureStore {
  header: CaptureHeader = { format: 'heapscope-capture', version: 1 }
  readonly strings = new StringTable()
  records: { kind: Uint8Array; ref: Uint32Array; length: number } = { kind: new Uint8Array(0), ref: new Uint32Array(0), length: 0 }
  frames: { n: Float64Array; t: Float64Array; firstRecord: Uint32Array; length: number } = {
    n: new Float64Array(0),
    t: new Float64Array(0),
    firstRecord: new Uint32Array(0),
    length: 0,
  }
  readonly buffers = new BufferTable()
  readonly textures = new TextureTable()
  readonly transients = new AttachedTable()
  readonly placed = new AttachedTable()
  ops: Float64Array = new Float64Array(0)
  useIds: Uint8Array | Float64Array = new Uint8Array(0)
  readonly extras = new RecordExtras()
  readonly raw: string[] = []
  readonly warnings: StoreWarnings = { counts: {}, samples: [] }
  hasUseRecords = false
  hasGpuRecords = false
  sourceBytes = 0
  lines = 0
  partial = false

  constructor(readonly file: string) {}
}

/**
 * Takes increments into a PipedStore: its columns are the increments' shared ones, each as long as the increment
 * says, read only below that length.
 */
export class StoreAppender {
  readonly store: PipedStore
  private readonly kind = uint8Column(0)
  private readonly ref = uint32Column(0)
  private readonly frameN = float64Column(0)
  private readonly frameT = float64Column(0)
  private readonly frameFirst = uint32Column(0)
  private readonly ops = float64Column(0)
  private useIds: Column<Uint8Array> | Column<Float64Array> = uint8Column(0)

  constructor(file: string) {
    this.store = new PipedStore(file)
  }

  /** Take an increment; returns the number of complete frames the store now shows. */
  append(inc: StoreIncrement): number {
    const store = this.store
    store.header = inc.header
    adopt(this.kind, inc.kind, inc.records)
    adopt(this.ref, inc.ref, inc.records)
    adopt(this.frameN, inc.frameN, inc.frames)
    adopt(this.frameT, inc.frameT, inc.frames)
    adopt(this.frameFirst, inc.frameFirst, inc.frames)
    ;[store.buffers, store.textures, store.transients, store.placed].forEach((table, t) => {
      const rows = inc.tableRows[t]
      table.columns().forEach((c, i) => adopt(c as Column<TypedArray>, inc.tables[t][i], rows))
      table.length = rows
    })
    adopt(this.ops, inc.ops, inc.opsLength)
    if (inc.useIds instanceof Float64Array && !(this.useIds.data instanceof Float64Array)) this.useIds = float64Column(0)
    adopt(this.useIds as Column<TypedArray>, inc.useIds, inc.useLength)
    const strings = store.strings
    // the table and the extras grow to the size projected from how far the load is, as the builder's do
    const share = { fraction: inc.fraction }
    strings.share = share
    store.extras.share = share
    for (let i = 0, start = 0; i < inc.stringEnds.length; i++) {
      const end = inc.stringEnds[i]
      const id = strings.internBytes(inc.strings, start, end)
      // the builder interns each string once, so each new one takes the next id
      if (id !== strings.size - 1) throw new StoreLayoutError(`string ${id} came twice`)
      start = end
    }
    let loose = 0
    let looseStart = 0
    for (const [record, json, id] of inc.extras) {
      if (id > 0) store.extras.set(record, json, id)
      else {
        const end = inc.looseEnds[loose++]
        store.extras.setBytes(record, inc.looseBytes, looseStart, end)
        looseStart = end
      }
    }
    for (const json of inc.raw) store.raw.push(json)
    store.warnings.counts = inc.warningCounts
    for (const sample of inc.warningSamples) store.warnings.samples.push(sample)
    store.hasUseRecords = inc.hasUse
    store.hasGpuRecords = inc.hasGpu
    return this.show()
  }

  /** Point the store at the complete frames: those before the last one received, which more records may join. */
  private show(): number {
    const store = this.store
    const frames = this.frameN.length
    const complete = Math.max(0, frames - 1)
    const records = complete < frames ? this.frameFirst.data[complete] : this.kind.length
    store.records = { kind: this.kind.data.subarray(0, records), ref: this.ref.data.subarray(0, records), length: records }
    store.frames = {
      n: this.frameN.data.subarray(0, complete),
      t: this.frameT.data.subarray(0, complete),
      firstRecord: this.frameFirst.data.subarray(0, complete),
      length: complete,
    }
    store.ops = this.ops.data
    store.useIds = this.useIds.data
    return complete
  }

  /**
   * The load has ended: the last increment (taken from the finished store) appended, the store holds every frame,
   * its columns trimmed as the builder's finish trims them. Returns its frame count.
   */
  finish(inc: StoreIncrement, sourceBytes: number, lines: number, partial: boolean): number {
    this.append(inc)
    const store = this.store
    for (const table of [store.buffers, store.textures, store.transients, store.placed]) table.trim()
    store.strings.trim()
    store.extras.trim()
    store.records = { kind: this.kind.trim(), ref: this.ref.trim(), length: this.kind.length }
    store.frames = { n: this.frameN.trim(), t: this.frameT.trim(), firstRecord: this.frameFirst.trim(), length: this.frameN.length }
    store.ops = this.ops.trim()
    store.useIds = this.useIds.trim()
    store.sourceBytes = sourceBytes
    store.lines = lines
    store.partial = partial
    return store.frames.length
  }
}

/** A column is now `data` (the increment's shared array), `length` long. */
function adopt<T extends TypedArray>(column: Column<T>, data: T, length: number): void {
  column.data = data
  column.length = length
}
