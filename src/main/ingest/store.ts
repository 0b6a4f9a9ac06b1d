/**
 * The capture store: a loaded capture as typed-array columns, and the builder that validates records into it.
 *
 * Every record is one row of `records` (its kind and a `ref`). Creates point at a row of their desc table
 * (buffers, textures, transients, placed); every other kind points at its operands in `ops`:
 *   gpu [n] · release [id] · commit [id, bytes] · lock [id, bytes] · upload [via, bytes, count] ·
 *   use [count, id…] · budget [bytes] · graph [name] · endgraph [passes] · heap [id, size, type, name] ·
 *   barrier [after, before|NaN] · access [id, op] · submit [] · free [id]
 * Frames are rows of `frames`, with the index of their first record, so a frame range is a record range.
 */
import {
  ACCESS_OPS,
  BUFFER_STATES,
  BUFFER_USAGES,
  HEAP_KINDS,
  RECORD_KINDS,
  TEXTURE_DIMS,
  TEXTURE_FLAGS,
  UPLOAD_VIAS,
  WARNING_KINDS,
  type CaptureHeader,
  type WarningKind,
} from '../../shared/capture'
import { Column, f64, u16, u32, u8 } from './columns'
import { F, V, type RecordScratch } from './fields'
import { IdSet } from './idset'
import { StringTable } from './strings'

export const K = Object.fromEntries(RECORD_KINDS.map((k, i) => [k, i])) as {
  [P in (typeof RECORD_KINDS)[number]]: number
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

export class BufferTable {
  readonly id = f64()
  readonly size = f64()
  readonly usage = u32()
  readonly stride = u32()
  readonly attrs = u8()
  readonly name = u32()
  readonly tag = u32()
  get length(): number {
    return this.id.length
  }
  columns(): Column<never>[] {
    return [this.id, this.size, this.usage, this.stride, this.attrs, this.name, this.tag] as Column<never>[]
  }
}

export class TextureTable {
  readonly id = f64()
  /** Driver size, NaN when the capture does not give it. */
  readonly size = f64()
  /** Driver alignment, 0 when the capture does not give it. */
  readonly align = f64()
  readonly dim = u8()
  readonly format = u32()
  readonly width = u32()
  readonly height = u32()
  readonly depth = u32()
  readonly mips = u16()
  readonly samples = u16()
  readonly flags = u32()
  readonly name = u32()
  readonly tag = u32()
  get length(): number {
    return this.id.length
  }
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

/** Transients and placed resources: their desc is a row of the buffer or texture table. */
export class AttachedTable {
  /** 0 buffer, 1 texture. */
  readonly kind = u8()
  readonly desc = u32()
  /** Transients: first pass; placed: heap id. */
  readonly a = f64()
  /** Transients: last pass; placed: heap offset. */
  readonly b = f64()
  get length(): number {
    return this.kind.length
  }
  columns(): Column<never>[] {
    return [this.kind, this.desc, this.a, this.b] as Column<never>[]
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
  /** Unknown keys of a record (raw JSON members), by record index. */
  readonly extras: Map<number, string>
  readonly warnings: StoreWarnings
  readonly hasUseRecords: boolean
  readonly hasGpuRecords: boolean
  /** Bytes of the file read (compressed size for gzip). */
  readonly sourceBytes: number
  readonly lines: number
  /** The load stopped part way at a fatal error: what came before it is here. */
  readonly partial: boolean
}

const SAMPLES_PER_KIND = 5

/**
 * String id → code for a fixed list of names. The names are interned when the builder starts, so their ids
 * are small and a typed array answers faster than a Map.
 */
class NameCodes {
  private codes = new Int16Array(0)
  constructor(strings: StringTable, names: readonly string[]) {
    const ids = names.map((name) => strings.intern(name))
    this.codes = new Int16Array(Math.max(...ids) + 1).fill(-1)
    ids.forEach((id, code) => (this.codes[id] = code))
  }
  /** The name's code, or -1. */
  get(id: number): number {
    return id < this.codes.length ? this.codes[id] : -1
  }
}

/**
 * Receives validated records. The scanner and importers fill a RecordScratch and call `add`; the builder
 * checks required fields and types, ids and frame order, counts warnings, and appends to the columns.
 */
export class CaptureBuilder {
  readonly strings = new StringTable()
  readonly recKind = u8(1 << 18)
  readonly recRef = u32(1 << 18)
  readonly frameN = f64()
  readonly frameT = f64()
  readonly frameFirst = u32()
  readonly buffers = new BufferTable()
  readonly textures = new TextureTable()
  readonly transients = new AttachedTable()
  readonly placed = new AttachedTable()
  readonly ops = f64(1 << 18)
  readonly extras = new Map<number, string>()
  readonly warnings: StoreWarnings = { counts: {}, samples: [] }
  header: CaptureHeader = { format: 'heapscope-capture', version: 1 }

  /** Where the current record is, for warnings. */
  line = 0
  offset = 0

  private readonly live = new IdSet(1 << 16)
  private readonly liveHeaps = new IdSet()
  private readonly liveTransients = new IdSet()
  private inGraph = false
  private hasUse = false
  private hasGpu = false
  private readonly kindOf: NameCodes
  private readonly usageBit: NameCodes
  private readonly flagBit: NameCodes
  private readonly dimOf: NameCodes
  private readonly stateOf: NameCodes
  private readonly heapKindOf: NameCodes
  private readonly viaOf: NameCodes
  private readonly opOf: NameCodes
  private readonly idOfBuffer: number
  private readonly idOfTexture: number
  private readonly idOfReadback: number

  constructor() {
    const s = this.strings
    this.kindOf = new NameCodes(s, RECORD_KINDS)
    this.usageBit = new NameCodes(s, BUFFER_USAGES)
    this.flagBit = new NameCodes(s, TEXTURE_FLAGS)
    this.dimOf = new NameCodes(s, TEXTURE_DIMS)
    this.stateOf = new NameCodes(s, BUFFER_STATES)
    this.heapKindOf = new NameCodes(s, HEAP_KINDS)
    this.viaOf = new NameCodes(s, UPLOAD_VIAS)
    this.opOf = new NameCodes(s, ACCESS_OPS)
    this.idOfBuffer = s.intern('buffer')
    this.idOfTexture = s.intern('texture')
    this.idOfReadback = s.intern('readback')
  }

  get recordCount(): number {
    return this.recKind.length
  }

  warn(kind: WarningKind, message: string): void {
    const counts = this.warnings.counts
    const n = (counts[kind] ?? 0) + 1
    counts[kind] = n
    if (n <= SAMPLES_PER_KIND) {
      this.warnings.samples.push({ kind, line: this.line, offset: this.offset, message: message || WARNING_KINDS[kind] })
    }
  }

  warningCount(): number {
    let n = 0
    for (const v of Object.values(this.warnings.counts)) n += v ?? 0
    return n
  }

  /** Validate one record held in `r` and append it. Returns false when it was skipped with a warning. */
  add(r: RecordScratch): boolean {
    if (r.type[F.e] !== V.String) {
      this.warn('unknownRecord', r.has(F.e) ? 'record field "e" is not a string' : 'record without "e"')
      return false
    }
    const kind = this.kindOf.get(r.str[F.e])
    if (kind < 0) {
      this.warn('unknownRecord', `unknown record kind "${this.strings.get(r.str[F.e])}"`)
      return false
    }
    switch (kind) {
      case K.frame:
        return this.addFrame(r)
      case K.gpu: {
        const n = this.int(r, F.n, 'gpu', 'n')
        if (n === undefined) return false
        this.hasGpu = true
        return this.pushOps(kind, r, n)
      }
      case K.buffer:
        return this.addBuffer(r)
      case K.texture:
        return this.addTexture(r)
      case K.release: {
        const id = this.int(r, F.id, 'release', 'id')
        if (id === undefined) return false
        if (!this.live.delete(id)) {
          this.warn('releaseOfUnknownId', `release of id ${id}, which is not live`)
          return false
        }
        return this.pushOps(kind, r, id)
      }
      case K.commit:
      case K.lock: {
        const what = kind === K.commit ? 'commit' : 'lock'
        const id = this.int(r, F.id, what, 'id')
        const bytes = this.size(r, F.bytes, what, 'bytes', true)
        if (id === undefined || bytes === undefined) return false
        return this.pushOps(kind, r, id, bytes)
      }
      case K.upload: {
        const via = this.enumOf(r, F.via, this.viaOf, 'upload', 'via', UPLOAD_VIAS, true)
        const bytes = this.size(r, F.bytes, 'upload', 'bytes', true)
        const count = r.has(F.count) ? this.int(r, F.count, 'upload', 'count') : 1
        if (via === undefined || bytes === undefined || count === undefined) return false
        return this.pushOps(kind, r, via, bytes, count)
      }
      case K.use:
        return this.addUse(r)
      case K.budget: {
        const bytes = this.size(r, F.bytes, 'budget', 'bytes', true)
        if (bytes === undefined) return false
        return this.pushOps(kind, r, bytes)
      }
      case K.graph: {
        if (this.inGraph) this.closeGraph()
        this.inGraph = true
        return this.pushOps(kind, r, r.type[F.name] === V.String ? r.str[F.name] : 0)
      }
      case K.transient:
        return this.addTransient(r)
      case K.endgraph: {
        const passes = this.int(r, F.passes, 'endgraph', 'passes')
        if (passes === undefined) return false
        if (!this.inGraph) {
          this.warn('transientOutsideGraph', 'endgraph without a graph')
          return false
        }
        this.closeGraph()
        return this.pushOps(kind, r, passes)
      }
      case K.heap: {
        const id = this.int(r, F.id, 'heap', 'id')
        const size = this.size(r, F.size, 'heap', 'size', true)
        if (id === undefined || size === undefined) return false
        const type = r.has(F.type) ? this.enumOf(r, F.type, this.heapKindOf, 'heap', 'type', HEAP_KINDS, false) : 0
        if (type === undefined) return false
        if (this.liveHeaps.has(id)) {
          this.warn('duplicateId', `heap ${id} created while live`)
          return false
        }
        this.liveHeaps.add(id)
        return this.pushOps(kind, r, id, size, type, r.type[F.name] === V.String ? r.str[F.name] : 0)
      }
      case K.placed:
        return this.addPlaced(r)
      case K.barrier: {
        const after = this.int(r, F.after, 'barrier', 'after')
        if (after === undefined) return false
        const before = r.has(F.before) ? this.int(r, F.before, 'barrier', 'before') : NaN
        if (before === undefined) return false
        return this.pushOps(kind, r, after, before)
      }
      case K.access: {
        const id = this.int(r, F.id, 'access', 'id')
        const op = this.enumOf(r, F.op, this.opOf, 'access', 'op', ACCESS_OPS, true)
        if (id === undefined || op === undefined) return false
        return this.pushOps(kind, r, id, op)
      }
      case K.submit:
        return this.pushOps(kind, r)
      case K.free: {
        const id = this.int(r, F.id, 'free', 'id')
        if (id === undefined) return false
        if (!this.liveHeaps.delete(id)) {
          this.warn('releaseOfUnknownId', `free of heap ${id}, which is not live`)
          return false
        }
        return this.pushOps(kind, r, id)
      }
    }
    return false
  }

  private closeGraph(): void {
    this.inGraph = false
    this.liveTransients.clear()
  }

  private pushRecord(kind: number, ref: number, r: RecordScratch): void {
    const index = this.recKind.push(kind)
    this.recRef.push(ref)
    if (r.extras !== undefined) this.extras.set(index, r.extras)
  }

  private pushOps(kind: number, r: RecordScratch, ...values: number[]): boolean {
    this.pushRecord(kind, this.ops.length, r)
    for (const v of values) this.ops.push(v)
    return true
  }

  private addFrame(r: RecordScratch): boolean {
    const n = this.int(r, F.n, 'frame', 'n')
    if (n === undefined) return false
    const frames = this.frameN.length
    if (frames > 0 && n <= this.frameN.data[frames - 1]) {
      this.warn('frameNotIncreasing', `frame ${n} after frame ${this.frameN.data[frames - 1]}`)
      return false
    }
    const t = r.type[F.t] === V.Number ? r.num[F.t] : NaN
    // Records before the first frame record belong to frame 0: an implicit frame 0 when the first frame is
    // later, or frame 0 itself starting at record 0.
    let first = this.recKind.length
    if (frames === 0 && first > 0) {
      if (n > 0) {
        this.frameN.push(0)
        this.frameT.push(NaN)
        this.frameFirst.push(0)
      } else first = 0
    }
    const index = this.frameN.push(n)
    this.frameT.push(t)
    this.frameFirst.push(first)
    this.pushRecord(K.frame, index, r)
    return true
  }

  private addBufferDesc(r: RecordScratch, what: string, id: number): number | undefined {
    const size = this.size(r, F.size, what, 'size', true)
    if (size === undefined) return undefined
    const stride = r.has(F.stride) ? this.int(r, F.stride, what, 'stride') : 0
    if (stride === undefined) return undefined
    let attrs = 0
    if (r.has(F.state)) {
      const state = this.enumOf(r, F.state, this.stateOf, what, 'state', BUFFER_STATES, false)
      if (state === undefined) return undefined
      attrs |= state
    }
    if (r.type[F.heap] === V.String) {
      if (r.str[F.heap] === this.idOfReadback) attrs |= BUFFER_ATTR.readback
      else if (this.heapKindOf.get(r.str[F.heap]) !== 0) {
        this.warn('badField', `${what} ${id}: heap "${this.strings.get(r.str[F.heap])}" is neither default nor readback`)
      }
    }
    if (r.type[F.init] === V.Bool && r.str[F.init] === 1) attrs |= BUFFER_ATTR.init
    const b = this.buffers
    const row = b.id.push(id)
    b.size.push(size)
    b.usage.push(this.mask(r, F.usage, this.usageBit))
    b.stride.push(Math.min(stride, 0xffffffff))
    b.attrs.push(attrs)
    b.name.push(r.type[F.name] === V.String ? r.str[F.name] : 0)
    b.tag.push(r.type[F.tag] === V.String ? r.str[F.tag] : 0)
    return row
  }

  private addTextureDesc(r: RecordScratch, what: string, id: number): number | undefined {
    const size = r.has(F.size) ? this.size(r, F.size, what, 'size', false) : NaN
    const align = r.has(F.align) ? this.size(r, F.align, what, 'align', false) : 0
    if (size === undefined || align === undefined) return undefined
    const dim = r.has(F.dim) ? this.enumOf(r, F.dim, this.dimOf, what, 'dim', TEXTURE_DIMS, false) : 0
    const width = this.dimension(r, F.width, what, 'width', 0xffffffff)
    const height = this.dimension(r, F.height, what, 'height', 0xffffffff)
    const depth = this.dimension(r, F.depth, what, 'depth', 0xffffffff)
    const mips = this.dimension(r, F.mips, what, 'mips', 0xffff)
    const samples = this.dimension(r, F.samples, what, 'samples', 0xffff)
    if (dim === undefined || width === undefined || height === undefined || depth === undefined) return undefined
    if (mips === undefined || samples === undefined) return undefined
    const t = this.textures
    const row = t.id.push(id)
    t.size.push(size)
    t.align.push(align)
    t.dim.push(dim)
    t.format.push(r.type[F.format] === V.String ? r.str[F.format] : 0)
    t.width.push(width)
    t.height.push(height)
    t.depth.push(depth)
    t.mips.push(mips)
    t.samples.push(samples)
    t.flags.push(this.mask(r, F.flags, this.flagBit))
    t.name.push(r.type[F.name] === V.String ? r.str[F.name] : 0)
    t.tag.push(r.type[F.tag] === V.String ? r.str[F.tag] : 0)
    return row
  }

  private addBuffer(r: RecordScratch): boolean {
    const id = this.createId(r, 'buffer', this.live)
    if (id === undefined) return false
    const row = this.addBufferDesc(r, 'buffer', id)
    if (row === undefined) return false
    this.live.add(id)
    this.pushRecord(K.buffer, row, r)
    return true
  }

  private addTexture(r: RecordScratch): boolean {
    const id = this.createId(r, 'texture', this.live)
    if (id === undefined) return false
    const row = this.addTextureDesc(r, 'texture', id)
    if (row === undefined) return false
    this.live.add(id)
    this.pushRecord(K.texture, row, r)
    return true
  }

  private attachedKind(r: RecordScratch, what: string): 0 | 1 | undefined {
    if (r.type[F.kind] === V.String) {
      if (r.str[F.kind] === this.idOfBuffer) return 0
      if (r.str[F.kind] === this.idOfTexture) return 1
    }
    this.warn(r.has(F.kind) ? 'badField' : 'missingField', `${what} needs "kind": "buffer" or "texture"`)
    return undefined
  }

  private addTransient(r: RecordScratch): boolean {
    if (!this.inGraph) {
      this.warn('transientOutsideGraph', '')
      return false
    }
    const id = this.createId(r, 'transient', this.liveTransients)
    const kind = this.attachedKind(r, 'transient')
    const first = this.int(r, F.first, 'transient', 'first')
    const last = this.int(r, F.last, 'transient', 'last')
    if (id === undefined || kind === undefined || first === undefined || last === undefined) return false
    const desc = kind === 0 ? this.addBufferDesc(r, 'transient', id) : this.addTextureDesc(r, 'transient', id)
    if (desc === undefined) return false
    this.liveTransients.add(id)
    const t = this.transients
    const row = t.kind.push(kind)
    t.desc.push(desc)
    t.a.push(first)
    t.b.push(last)
    this.pushRecord(K.transient, row, r)
    return true
  }

  private addPlaced(r: RecordScratch): boolean {
    const id = this.createId(r, 'placed', this.live)
    const kind = this.attachedKind(r, 'placed')
    const heap = this.int(r, F.heap, 'placed', 'heap')
    const offset = this.size(r, F.offset, 'placed', 'offset', true)
    if (id === undefined || kind === undefined || heap === undefined || offset === undefined) return false
    const desc = kind === 0 ? this.addBufferDesc(r, 'placed', id) : this.addTextureDesc(r, 'placed', id)
    if (desc === undefined) return false
    this.live.add(id)
    const p = this.placed
    const row = p.kind.push(kind)
    p.desc.push(desc)
    p.a.push(heap)
    p.b.push(offset)
    this.pushRecord(K.placed, row, r)
    return true
  }

  private addUse(r: RecordScratch): boolean {
    if (r.type[F.ids] !== V.Numbers) {
      this.warn(r.has(F.ids) ? 'badField' : 'missingField', 'use needs "ids": an array of resource ids')
      return false
    }
    this.hasUse = true
    const ids = r.ids
    this.pushRecord(K.use, this.ops.length, r)
    this.ops.reserve(ids.length + 1)
    this.ops.push(ids.length)
    for (let i = 0; i < ids.length; i++) this.ops.push(ids.data[i])
    return true
  }

  private createId(r: RecordScratch, what: string, live: IdSet): number | undefined {
    const id = this.int(r, F.id, what, 'id')
    if (id === undefined) return undefined
    if (live.has(id)) {
      this.warn('duplicateId', `${what} ${id} created while an earlier ${id} is live`)
      return undefined
    }
    return id
  }

  private int(r: RecordScratch, field: number, what: string, key: string): number | undefined {
    if (r.type[field] !== V.Number) {
      this.warn(r.has(field) ? 'badField' : 'missingField', `${what}: "${key}" must be an integer`)
      return undefined
    }
    const v = r.num[field]
    if (!Number.isSafeInteger(v)) {
      this.warn('badField', `${what}: "${key}" ${v} is not an integer`)
      return undefined
    }
    return v
  }

  private size(r: RecordScratch, field: number, what: string, key: string, required: boolean): number | undefined {
    if (r.type[field] !== V.Number) {
      if (required || r.has(field)) {
        this.warn(r.has(field) ? 'badSize' : 'missingField', `${what}: "${key}" must be a byte count`)
      }
      return undefined
    }
    const v = r.num[field]
    if (!Number.isSafeInteger(v) || v < 0) {
      this.warn('badSize', `${what}: "${key}" ${v} is negative or not an integer`)
      return undefined
    }
    return v
  }

  private dimension(r: RecordScratch, field: number, what: string, key: string, max: number): number | undefined {
    if (!r.has(field)) return 1
    const v = this.int(r, field, what, key)
    if (v === undefined) return undefined
    if (v < 1 || v > max) {
      this.warn('badField', `${what}: "${key}" ${v} is outside 1…${max}`)
      return undefined
    }
    return v
  }

  private enumOf(
    r: RecordScratch,
    field: number,
    table: NameCodes,
    what: string,
    key: string,
    names: readonly string[],
    required: boolean,
  ): number | undefined {
    const code = r.type[field] === V.String ? table.get(r.str[field]) : -1
    if (code < 0) {
      if (required || r.has(field)) {
        this.warn(r.has(field) ? 'badField' : 'missingField', `${what}: "${key}" must be one of ${names.join(', ')}`)
      }
      return undefined
    }
    return code
  }

  private mask(r: RecordScratch, field: number, bits: NameCodes): number {
    if (r.type[field] !== V.Strings) return 0
    let mask = 0
    for (let i = r.listStart[field]; i < r.listEnd[field]; i++) {
      const bit = bits.get(r.strList[i])
      if (bit >= 0) mask |= 1 << bit
    }
    return mask >>> 0
  }

  /** Freeze into a store, dropping growth slack. */
  finish(file: string, sourceBytes: number, lines: number, partial: boolean): CaptureStore {
    if (this.frameN.length === 0 && this.recKind.length > 0) {
      this.frameN.push(0)
      this.frameT.push(NaN)
      this.frameFirst.push(0)
    }
    for (const table of [this.buffers, this.textures, this.transients, this.placed]) {
      for (const c of table.columns()) c.trim()
    }
    this.strings.trim()
    return {
      file,
      header: this.header,
      strings: this.strings,
      records: { kind: this.recKind.trim(), ref: this.recRef.trim(), length: this.recKind.length },
      frames: {
        n: this.frameN.trim(),
        t: this.frameT.trim(),
        firstRecord: this.frameFirst.trim(),
        length: this.frameN.length,
      },
      buffers: this.buffers,
      textures: this.textures,
      transients: this.transients,
      placed: this.placed,
      ops: this.ops.trim(),
      extras: this.extras,
      warnings: this.warnings,
      hasUseRecords: this.hasUse,
      hasGpuRecords: this.hasGpu,
      sourceBytes,
      lines,
      partial,
    }
  }
}

/** Bytes the store's columns hold. */
export function storeByteSize(store: CaptureStore): number {
  let n = store.records.kind.byteLength + store.records.ref.byteLength + store.ops.byteLength
  n += store.frames.n.byteLength + store.frames.t.byteLength + store.frames.firstRecord.byteLength
  for (const table of [store.buffers, store.textures, store.transients, store.placed]) {
    for (const c of table.columns()) n += c.byteLength()
  }
  return n + store.strings.byteSize()
}
