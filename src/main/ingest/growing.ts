/**
 * A capture still being written, as a store that grows. It holds the complete frames read so far (a frame is
 * complete once the next one has begun, or once the capture has ended) and reads the builder's columns in place;
 * after each batch of lines `update` points it at them again. When the capture ends, `finish` makes it the
 * builder's finished store, so a run that followed a capture holds what a load of the whole file would.
 */
import type { StringTable } from './strings'
import type { AttachedTable, BufferTable, CaptureStore, StoreWarnings, TextureTable } from './store'
import type { RecordExtras } from './recordExtras'
import type { CaptureBuilder } from './storeBuilder'
import type { CaptureHeader } from '../../shared/capture'

export class GrowingStore implements CaptureStore {
  header: CaptureHeader
  readonly strings: StringTable
  records: { kind: Uint8Array; ref: Uint32Array; length: number }
  frames: { n: Float64Array; t: Float64Array; firstRecord: Uint32Array; length: number }
  buffers: BufferTable
  textures: TextureTable
  transients: AttachedTable
  placed: AttachedTable
  ops: Float64Array
  useIds: Uint8Array | Float64Array
  extras: RecordExtras
  raw: string[]
  warnings: StoreWarnings
  hasUseRecords = false
  hasGpuRecords = false
  sourceBytes = 0
  lines = 0
  partial = false
  /** The capture has ended: the store is the builder's finished one. */
  ended = false

  constructor(
    private readonly builder: CaptureBuilder,
    readonly file: string,
  ) {
    this.header = builder.header
    this.strings = builder.strings
    this.buffers = builder.buffers
    this.textures = builder.textures
    this.transients = builder.transients
    this.placed = builder.placed
    this.extras = builder.extras
    this.raw = builder.raw
    this.warnings = builder.warnings
    this.records = { kind: new Uint8Array(0), ref: new Uint32Array(0), length: 0 }
    this.frames = { n: new Float64Array(0), t: new Float64Array(0), firstRecord: new Uint32Array(0), length: 0 }
    this.ops = new Float64Array(0)
    this.useIds = new Uint8Array(0)
  }

  /**
   * Point at the builder's columns after more lines: the frames before the last one the builder has (which more
   * records may still join), and their records. Returns the count of those frames.
   */
  update(sourceBytes: number, lines: number): number {
    const b = this.builder
    const now = b.soFar()
    const complete = Math.max(0, b.frameN.length - 1)
    const records = complete < b.frameN.length ? b.frameFirst.data[complete] : now.records
    this.header = b.header
    this.records = { kind: now.kind.subarray(0, records), ref: now.ref.subarray(0, records), length: records }
    this.frames = {
      n: b.frameN.data.subarray(0, complete),
      t: b.frameT.data.subarray(0, complete),
      firstRecord: b.frameFirst.data.subarray(0, complete),
      length: complete,
    }
    this.ops = now.ops
    this.useIds = now.useIds
    this.hasUseRecords = now.hasUse
    this.hasGpuRecords = now.hasGpu
    this.sourceBytes = sourceBytes
    this.lines = lines
    return complete
  }

  /** The capture has ended: hold the whole of it, as the builder finished it. Returns its frame count. */
  finish(store: CaptureStore): number {
    this.header = store.header
    this.records = store.records
    this.frames = store.frames
    this.buffers = store.buffers
    this.textures = store.textures
    this.transients = store.transients
    this.placed = store.placed
    this.ops = store.ops
    this.useIds = store.useIds
    this.extras = store.extras
    this.raw = store.raw
    this.warnings = store.warnings
    this.hasUseRecords = store.hasUseRecords
    this.hasGpuRecords = store.hasGpuRecords
    this.sourceBytes = store.sourceBytes
    this.lines = store.lines
    this.partial = store.partial
    this.ended = true
    return store.frames.length
  }
}
