/**
 * The capture builder: records, checked one by one, appended to the columns of a capture store (store.ts, whose
 * header describes the layout, the packed `use` ids among it).
 */
import {
  ACCESS_OPS,
  BUFFER_STATES,
  BUFFER_USAGES,
  HEAP_KINDS,
  MAX_MEMORY_LENGTH,
  RECORD_KINDS,
  TEXTURE_DIMS,
  TEXTURE_FLAGS,
  UPLOAD_VIAS,
  WARNING_KINDS,
  type CaptureHeader,
  type WarningKind,
} from '../../shared/capture'
import { DescIds } from '../../shared/descIds'
import { Column, float64Column, ParseShare, Table, uint32Column, uint8Column } from './columns'
import { F, FIELD, FieldValue, type RecordScratch } from './fields'
import { IdSet } from './idset'
import {
  AttachedTable,
  BUFFER_ATTR,
  BufferTable,
  RECORD_KIND,
  rangeOperands,
  TextureTable,
  unpackUseIds,
  type CaptureStore,
  type StoreWarnings,
} from './store'
import { StringTable } from './strings'
import { RecordExtras } from './recordExtras'

class RecordTable extends Table {
  readonly kind = uint8Column(0)
  readonly ref = uint32Column(0)
  columns(): Column<never>[] {
    return [this.kind, this.ref] as Column<never>[]
  }
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

// Record kinds as constants, so the builder's switch compiles to a jump table.
const FRAME = RECORD_KIND.frame
const GPU = RECORD_KIND.gpu
const BUFFER = RECORD_KIND.buffer
const TEXTURE = RECORD_KIND.texture
const RELEASE = RECORD_KIND.release
const COMMIT = RECORD_KIND.commit
const LOCK = RECORD_KIND.lock
const UPLOAD = RECORD_KIND.upload
const USE = RECORD_KIND.use
const BUDGET = RECORD_KIND.budget
const GRAPH = RECORD_KIND.graph
const TRANSIENT = RECORD_KIND.transient
const ENDGRAPH = RECORD_KIND.endgraph
const HEAP = RECORD_KIND.heap
const PLACED = RECORD_KIND.placed
const BARRIER = RECORD_KIND.barrier
const ACCESS = RECORD_KIND.access
const SUBMIT = RECORD_KIND.submit
const FREE = RECORD_KIND.free
/**
 * Extension records (minor versions) are kept whole, as JSON, in `raw`, and read by their own models; but for a
 * Vulkan capture's `bind`, `map`, `unmap`, `write` and `flush`, which come by the thousand: those that hold only
 * numbers in the fields they have (id, memory, offset, size) are operands (store.ts), the others JSON built from
 * the fields they hold.
 */
const FIRST_EXTENSION = RECORD_KIND.bind
/** The fields an extension record kept as operands may have; any other makes it JSON. */
const RANGE_FIELDS = new Set<number>([F.e, F.id, F.memory, F.offset, F.size])

/** Required integer fields of each extension record. */
const EXTENSION_REQUIRED: Record<string, readonly string[]> = {
  bind: ['id', 'memory', 'offset'],
  map: ['memory'],
  unmap: ['memory'],
  write: ['offset', 'size'],
  flush: ['offset'],
  resident: ['heap'],
  evict: ['heap'],
  stack: ['id'],
}

/** Each extension kind's required fields, as field numbers (index: record kind). */
const EXTENSION_REQUIRED_FIELDS: readonly (readonly number[])[] = RECORD_KINDS.map((e) =>
  (EXTENSION_REQUIRED[e] ?? []).flatMap((key) => {
    const field = (F as Record<string, number>)[key]
    return field === undefined ? [] : [field]
  }),
)

/** Each field's name as a JSON key with its colon (`"name":`), for the JSON an extension record is kept as. */
const FIELD_KEY: readonly string[] = FIELD.map((name) => `${JSON.stringify(name)}:`)

/**
 * Receives validated records. The scanner and importers fill a RecordScratch and call `add`; the builder
 * checks required fields and types, ids and frame order, counts warnings, and appends to the columns.
 */
export class CaptureBuilder {
  readonly strings = new StringTable()
  private readonly records = new RecordTable()
  readonly frameN = float64Column(64)
  readonly frameT = float64Column(64)
  readonly frameFirst = uint32Column(64)
  readonly buffers = new BufferTable()
  readonly textures = new TextureTable()
  readonly transients = new AttachedTable()
  readonly placed = new AttachedTable()
  private readonly ops = float64Column(1 << 12)
  /** Small at first, so it first grows while the engine still interprets packUseIds (StringTable's arena). */
  private useBytes = uint8Column(1 << 8)
  /** Plain use ids, once one does not fit the byte coding. */
  private useWide: Column<Float64Array> | undefined
  /** The columns are in shared memory (toShared). */
  private shared = false
  readonly extras = new RecordExtras()
  readonly raw: string[] = []
  readonly warnings: StoreWarnings = { counts: {}, samples: [] }
  header: CaptureHeader = { format: 'heapscope-capture', version: 1 }

  /** Where the current record is, for warnings. */
  line = 0
  offset = 0

  private readonly live = new IdSet(1 << 16)
  private readonly liveHeaps = new IdSet()
  /** Live placed resources: id → heap, and heap → the ids placed in it. */
  private readonly heapOfPlaced = new Map<number, number>()
  private readonly placedIn = new Map<number, Set<number>>()
  private readonly liveTransients = new IdSet()
  /** The distinct descs of transients and of placed resources (AttachedTable.shape), numbered as first seen. */
  private readonly transientShapes = newShapes()
  private readonly placedShapes = newShapes()
  /**
   * Transients of one desc share its row (store.ts): the distinct descs of transients, by their shape, name and tag
   * numbered as first seen, and the row of each.
   */
  private readonly transientDescs = new DescIds(3)
  private readonly transientDescRow = uint32Column(64)
  private inGraph = false
  private hasUse = false
  private hasGpu = false
  private warningTotal = 0
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

  /** How far through its input the load is: the columns grow toward their projected size. */
  readonly share = new ParseShare()

  constructor() {
    for (const table of [this.records, this.buffers, this.textures, this.transients, this.placed]) table.share = this.share
    this.ops.share = this.share
    this.useBytes.share = this.share
    this.strings.share = this.share
    this.extras.share = this.share
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
    return this.records.length
  }

  warn(kind: WarningKind, message: string): void {
    const counts = this.warnings.counts
    const n = (counts[kind] ?? 0) + 1
    counts[kind] = n
    this.warningTotal++
    if (n <= SAMPLES_PER_KIND) {
      this.warnings.samples.push({ kind, line: this.line, offset: this.offset, message: message || WARNING_KINDS[kind] })
    }
  }

  warningCount(): number {
    return this.warningTotal
  }

  /** Validate one record held in `r` and append it. Returns false when it was skipped with a warning. */
  add(r: RecordScratch): boolean {
    if (r.type[F.e] !== FieldValue.String) {
      this.warn('unknownRecord', r.has(F.e) ? 'record field "e" is not a string' : 'record without "e"')
      return false
    }
    const kind = this.kindOf.get(r.str[F.e])
    switch (kind) {
      case FRAME:
        return this.addFrame(r)
      case GPU: {
        const n = this.int(r, F.n, 'gpu', 'n')
        if (n === undefined) return false
        this.hasGpu = true
        return this.pushOps1(kind, r, n)
      }
      case BUFFER:
        return this.addBuffer(r)
      case TEXTURE:
        return this.addTexture(r)
      case RELEASE: {
        const id = this.int(r, F.id, 'release', 'id')
        if (id === undefined) return false
        if (!this.live.delete(id)) {
          this.warn('releaseOfUnknownId', `release of id ${id}, which is not live`)
          return false
        }
        if (this.heapOfPlaced.size > 0 && this.heapOfPlaced.has(id)) this.forgetPlaced(id)
        return this.pushOps1(kind, r, id)
      }
      case COMMIT:
      case LOCK: {
        const what = kind === COMMIT ? 'commit' : 'lock'
        const id = this.int(r, F.id, what, 'id')
        const bytes = this.size(r, F.bytes, what, 'bytes', true)
        if (id === undefined || bytes === undefined) return false
        return this.pushOps2(kind, r, id, bytes)
      }
      case UPLOAD: {
        const via = this.enumOf(r, F.via, this.viaOf, 'upload', 'via', UPLOAD_VIAS, true)
        const bytes = this.size(r, F.bytes, 'upload', 'bytes', true)
        const count = r.has(F.count) ? this.int(r, F.count, 'upload', 'count') : 1
        if (via === undefined || bytes === undefined || count === undefined) return false
        // The models place an upload's allocations a page or a copy at a time: bounds keep one record's work finite.
        if (bytes > UPLOAD_BYTES_MAX || count < 0 || count > UPLOAD_COUNT_MAX) {
          const what =
            bytes > UPLOAD_BYTES_MAX ? `"bytes" ${bytes} is over ${UPLOAD_BYTES_MAX}` : `"count" ${count} is outside 0…${UPLOAD_COUNT_MAX}`
          this.warn('badField', `upload: ${what}`)
          return false
        }
        return this.pushOps3(kind, r, via, bytes, count)
      }
      case USE:
        return this.addUse(r)
      case BUDGET: {
        const bytes = this.size(r, F.bytes, 'budget', 'bytes', true)
        if (bytes === undefined) return false
        // 1.1: a Vulkan budget may name its memory heap
        const heap = r.has(F.heap) ? this.int(r, F.heap, 'budget', 'heap') : NaN
        if (heap === undefined) return false
        return this.pushOps2(kind, r, bytes, heap)
      }
      case GRAPH: {
        if (this.inGraph) this.closeGraph()
        this.inGraph = true
        return this.pushOps1(kind, r, r.type[F.name] === FieldValue.String ? r.str[F.name] : 0)
      }
      case TRANSIENT:
        return this.addTransient(r)
      case ENDGRAPH: {
        const passes = this.int(r, F.passes, 'endgraph', 'passes')
        if (passes === undefined) return false
        if (!this.inGraph) {
          this.warn('transientOutsideGraph', 'endgraph without a graph')
          return false
        }
        this.closeGraph()
        return this.pushOps1(kind, r, passes)
      }
      case HEAP: {
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
        this.pushRecord(kind, this.ops.length, r)
        const ops = this.ops
        ops.reserve(5)
        ops.data[ops.length++] = id
        ops.data[ops.length++] = size
        ops.data[ops.length++] = type
        ops.data[ops.length++] = r.type[F.name] === FieldValue.String ? r.str[F.name] : 0
        ops.data[ops.length++] = this.memoryOf(r, id)
        return true
      }
      case PLACED:
        return this.addPlaced(r)
      case BARRIER: {
        // Either may be left out: pResourceBefore may be NULL, and so may both (docs/aliasing.md).
        const after = r.has(F.after) ? this.int(r, F.after, 'barrier', 'after') : NaN
        if (after === undefined) return false
        const before = r.has(F.before) ? this.int(r, F.before, 'barrier', 'before') : NaN
        if (before === undefined) return false
        return this.pushOps2(kind, r, after, before)
      }
      case ACCESS: {
        const id = this.int(r, F.id, 'access', 'id')
        const op = this.enumOf(r, F.op, this.opOf, 'access', 'op', ACCESS_OPS, true)
        if (id === undefined || op === undefined) return false
        return this.pushOps2(kind, r, id, op)
      }
      case SUBMIT:
        this.pushRecord(kind, this.ops.length, r)
        return true
      case FREE: {
        const id = this.int(r, F.id, 'free', 'id')
        if (id === undefined) return false
        if (this.liveHeaps.delete(id)) {
          // A freed heap takes what is placed in it along (docs/aliasing.md): those ids may be placed again.
          const placed = this.placedIn.get(id)
          if (placed) for (const p of placed) this.forgetPlaced(p)
        } else if (this.heapOfPlaced.has(id)) {
          // `free` of a placed resource destroys it.
          this.forgetPlaced(id)
        } else {
          this.warn('releaseOfUnknownId', `free of ${id}, which is neither a live heap nor a live placed resource`)
          return false
        }
        return this.pushOps1(kind, r, id)
      }
    }
    if (kind >= FIRST_EXTENSION) return this.addExtension(kind, r)
    this.warn('unknownRecord', `unknown record kind "${this.strings.get(r.str[F.e])}"`)
    return false
  }

  /**
   * An extension record: its required fields checked, then the whole record kept as JSON: "e", then the fields in
   * FIELD's order, then the unknown keys as they came.
   */
  private addExtension(kind: number, r: RecordScratch): boolean {
    const e = RECORD_KINDS[kind]
    for (const field of EXTENSION_REQUIRED_FIELDS[kind]) {
      if (this.int(r, field, e, FIELD[field]) === undefined) return false
      if (r.num[field] < 0) {
        this.warn('badField', `${e}: "${FIELD[field]}" ${r.num[field]} is negative`)
        return false
      }
    }
    const operands = rangeOperands(kind)
    if (operands && !r.hasExtras() && this.plainRange(r)) {
      // + 0: a -0 reads back as JSON would give it, 0
      const id = r.has(F.id) ? r.num[F.id] + 0 : NaN
      const memory = r.has(F.memory) ? r.num[F.memory] + 0 : NaN
      const offset = r.has(F.offset) ? r.num[F.offset] + 0 : NaN
      this.pushOps5(kind, id, memory, offset, r.has(F.size) ? r.num[F.size] + 0 : NaN, -1)
      return true
    }
    let json = `{"e":${JSON.stringify(e)}`
    for (let field = 1; field < FIELD.length; field++) {
      switch (r.type[field]) {
        case FieldValue.Number:
          json += `,${FIELD_KEY[field]}${r.num[field]}`
          break
        case FieldValue.String:
          json += `,${FIELD_KEY[field]}${JSON.stringify(this.strings.get(r.str[field]) ?? '')}`
          break
        case FieldValue.Bool:
          json += `,${FIELD_KEY[field]}${r.str[field] === 1}`
          break
        case FieldValue.Strings: {
          const list: string[] = []
          for (let i = r.listStart[field]; i < r.listEnd[field]; i++) list.push(this.strings.get(r.strList[i]) ?? '')
          json += `,${FIELD_KEY[field]}${JSON.stringify(list)}`
          break
        }
        case FieldValue.Numbers: {
          const values =
            field === F.ids ? r.ids.data.subarray(0, r.ids.length) : r.nums.data.subarray(r.listStart[field], r.listEnd[field])
          json += `,${FIELD_KEY[field]}${JSON.stringify(Array.from(values))}`
          break
        }
      }
    }
    const extras = r.extrasJson()
    json += extras === undefined ? '}' : `,${extras}}`
    if (operands) {
      // operands that say where its JSON is
      this.pushOps5(kind, NaN, NaN, NaN, NaN, this.raw.length)
      this.raw.push(json)
      return true
    }
    const records = this.records
    const index = records.row()
    records.kind.data[index] = kind
    records.ref.data[index] = this.raw.length
    this.raw.push(json)
    return true
  }

  /** Whether an extension record holds only finite numbers, in the fields an operand row has. */
  private plainRange(r: RecordScratch): boolean {
    for (let field = 0; field < FIELD.length; field++) {
      const type = r.type[field]
      if (type === FieldValue.Absent || field === F.e) continue
      if (type !== FieldValue.Number || !RANGE_FIELDS.has(field) || !Number.isFinite(r.num[field])) return false
    }
    return true
  }

  private pushOps5(kind: number, a: number, b: number, c: number, d: number, e: number): void {
    const ops = this.ops
    this.pushPlain(kind, ops.length)
    ops.reserve(5)
    const data = ops.data
    let at = ops.length
    data[at++] = a
    data[at++] = b
    data[at++] = c
    data[at++] = d
    data[at++] = e
    ops.length = at
  }

  private closeGraph(): void {
    this.inGraph = false
    this.liveTransients.clear()
  }

  private pushRecord(kind: number, ref: number, r: RecordScratch): void {
    const index = this.pushPlain(kind, ref)
    if (r.extras !== undefined) this.extras.set(index, r.extras, r.extrasId)
    else if (r.extrasBytes !== null) this.extras.setBytes(index, r.extrasBytes, r.extrasStart, r.extrasEnd)
  }

  /** A record row for a record without unknown keys; returns its index. */
  private pushPlain(kind: number, ref: number): number {
    const records = this.records
    const index = records.row()
    records.kind.data[index] = kind
    records.ref.data[index] = ref
    return index
  }

  private pushOps1(kind: number, r: RecordScratch, a: number): boolean {
    const ops = this.ops
    this.pushRecord(kind, ops.length, r)
    ops.push(a)
    return true
  }

  private pushOps2(kind: number, r: RecordScratch, a: number, b: number): boolean {
    const ops = this.ops
    this.pushRecord(kind, ops.length, r)
    ops.reserve(2)
    ops.data[ops.length++] = a
    ops.data[ops.length++] = b
    return true
  }

  private pushOps3(kind: number, r: RecordScratch, a: number, b: number, c: number): boolean {
    const ops = this.ops
    this.pushRecord(kind, ops.length, r)
    ops.reserve(3)
    ops.data[ops.length++] = a
    ops.data[ops.length++] = b
    ops.data[ops.length++] = c
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
    const t = r.type[F.t] === FieldValue.Number ? r.num[F.t] : NaN
    // Records before the first frame record belong to frame 0: an implicit frame 0 when the first frame is
    // later, or frame 0 itself starting at record 0.
    let first = this.records.length
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
    this.pushRecord(RECORD_KIND.frame, index, r)
    return true
  }

  private addBufferDesc(r: RecordScratch, what: string, id: number): number {
    const type = r.type
    const size = this.size(r, F.size, what, 'size', true)
    if (size === undefined) return -1
    const stride = type[F.stride] !== FieldValue.Absent ? this.int(r, F.stride, what, 'stride') : 0
    if (stride === undefined) return -1
    let attrs = 0
    if (type[F.state] !== FieldValue.Absent) {
      const state = this.enumOf(r, F.state, this.stateOf, what, 'state', BUFFER_STATES, false)
      if (state === undefined) return -1
      attrs |= state
    }
    if (type[F.heap] === FieldValue.String) {
      if (r.str[F.heap] === this.idOfReadback) attrs |= BUFFER_ATTR.readback
      else if (this.heapKindOf.get(r.str[F.heap]) !== 0) {
        this.warn('badField', `${what} ${id}: heap "${this.strings.get(r.str[F.heap])}" is neither default nor readback`)
      }
    }
    if (type[F.init] === FieldValue.Bool && r.str[F.init] === 1) attrs |= BUFFER_ATTR.init
    const b = this.buffers
    const row = b.row()
    b.id.data[row] = id
    b.size.data[row] = size
    b.usage.data[row] = this.mask(r, F.usage, this.usageBit)
    b.stride.data[row] = Math.min(stride, 0xffffffff)
    b.attrs.data[row] = attrs
    b.name.data[row] = type[F.name] === FieldValue.String ? r.str[F.name] : 0
    b.tag.data[row] = type[F.tag] === FieldValue.String ? r.str[F.tag] : 0
    return row
  }

  private addTextureDesc(r: RecordScratch, what: string, id: number): number {
    const type = r.type
    const size = type[F.size] !== FieldValue.Absent ? this.size(r, F.size, what, 'size', false) : NaN
    const align = type[F.align] !== FieldValue.Absent ? this.size(r, F.align, what, 'align', false) : 0
    if (size === undefined || align === undefined) return -1
    const dim = type[F.dim] !== FieldValue.Absent ? this.enumOf(r, F.dim, this.dimOf, what, 'dim', TEXTURE_DIMS, false) : 0
    const width = this.dimension(r, F.width, what, 'width', 0xffffffff)
    const height = this.dimension(r, F.height, what, 'height', 0xffffffff)
    const depth = this.dimension(r, F.depth, what, 'depth', 0xffffffff)
    const mips = this.dimension(r, F.mips, what, 'mips', 0xffff)
    const samples = this.dimension(r, F.samples, what, 'samples', 0xffff)
    if (dim === undefined || width < 0 || height < 0 || depth < 0 || mips < 0 || samples < 0) return -1
    const t = this.textures
    const row = t.row()
    t.id.data[row] = id
    t.size.data[row] = size
    t.align.data[row] = align
    t.dim.data[row] = dim
    t.format.data[row] = type[F.format] === FieldValue.String ? r.str[F.format] : 0
    t.width.data[row] = width
    t.height.data[row] = height
    t.depth.data[row] = depth
    t.mips.data[row] = mips
    t.samples.data[row] = samples
    t.flags.data[row] = this.mask(r, F.flags, this.flagBit)
    t.name.data[row] = type[F.name] === FieldValue.String ? r.str[F.name] : 0
    t.tag.data[row] = type[F.tag] === FieldValue.String ? r.str[F.tag] : 0
    return row
  }

  private addBuffer(r: RecordScratch): boolean {
    const id = this.claimId(r, 'buffer', this.live)
    if (id === undefined) return false
    const row = this.addBufferDesc(r, 'buffer', id)
    if (row < 0) return this.unclaim(this.live, id)
    this.pushRecord(BUFFER, row, r)
    return true
  }

  private addTexture(r: RecordScratch): boolean {
    const id = this.claimId(r, 'texture', this.live)
    if (id === undefined) return false
    const row = this.addTextureDesc(r, 'texture', id)
    if (row < 0) return this.unclaim(this.live, id)
    this.pushRecord(TEXTURE, row, r)
    return true
  }

  private attachedKind(r: RecordScratch, what: string): 0 | 1 | undefined {
    if (r.type[F.kind] === FieldValue.String) {
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
    const id = this.claimId(r, 'transient', this.liveTransients)
    const kind = this.attachedKind(r, 'transient')
    const first = this.int(r, F.first, 'transient', 'first')
    const last = this.int(r, F.last, 'transient', 'last')
    if (id === undefined) return false
    if (kind === undefined || first === undefined || last === undefined) return this.unclaim(this.liveTransients, id)
    const added = kind === 0 ? this.addBufferDesc(r, 'transient', id) : this.addTextureDesc(r, 'transient', id)
    if (added < 0) return this.unclaim(this.liveTransients, id)
    const shape = this.shapeOf(this.transientShapes, kind, added)
    const desc = this.transientDesc(kind, added, shape)
    const t = this.transients
    const row = t.row()
    t.id.data[row] = id
    t.kind.data[row] = kind
    t.desc.data[row] = desc
    t.a.data[row] = first
    t.b.data[row] = last
    t.shape.data[row] = shape
    this.pushRecord(TRANSIENT, row, r)
    return true
  }

  /**
   * The desc row of a transient whose desc was just added as row `added` of its table: an earlier transient's row of
   * the same desc (the same shape, name and tag), the one just added then dropped again; else `added`.
   */
  private transientDesc(kind: number, added: number, shape: number): number {
    const table = kind === 0 ? this.buffers : this.textures
    const key = this.transientDescs.fields
    key[0] = shape
    key[1] = table.name.data[added]
    key[2] = table.tag.data[added]
    const known = this.transientDescs.id()
    const rows = this.transientDescRow
    if (known < rows.length) {
      // the last row of its table, never sent to another thread (increments are taken between records)
      table.length--
      return rows.data[known]
    }
    rows.push(added)
    return added
  }

  /** The number of the desc of kind `kind` (0 buffer, 1 texture) at row `desc` among those of `shapes`. */
  private shapeOf(shapes: DescIds, kind: number, desc: number): number {
    const key = shapes.fields
    key[0] = kind
    if (kind === 0) {
      const b = this.buffers
      key[1] = b.size.data[desc]
      key[2] = b.usage.data[desc]
      key[3] = b.stride.data[desc]
      key[4] = b.attrs.data[desc]
      key.fill(0, 5)
    } else {
      const t = this.textures
      key[1] = t.width.data[desc]
      key[2] = t.height.data[desc]
      key[3] = t.format.data[desc]
      key[4] = t.flags.data[desc]
      key[5] = t.mips.data[desc]
      key[6] = t.size.data[desc]
      key[7] = t.dim.data[desc]
      key[8] = t.depth.data[desc]
      key[9] = t.samples.data[desc]
      key[10] = t.align.data[desc]
    }
    return shapes.id()
  }

  /**
   * A transient whose members but its id (an integer the scanner read, under 2^53) are those of transient row
   * `like`, which was added without a warning: the same checks would pass again, so its row is a copy of that
   * one's but for the id, and shares its desc. False, with nothing done, when the record needs the full path:
   * outside a graph, or its id already live in it.
   */
  repeatTransient(id: number, like: number): boolean {
    if (!this.inGraph || !this.liveTransients.add(id)) return false
    const t = this.transients
    const row = t.row()
    t.id.data[row] = id
    t.kind.data[row] = t.kind.data[like]
    t.desc.data[row] = t.desc.data[like]
    t.a.data[row] = t.a.data[like]
    t.b.data[row] = t.b.data[like]
    t.shape.data[row] = t.shape.data[like]
    this.pushPlain(TRANSIENT, row)
    return true
  }

  /**
   * A buffer whose members but its id and size (an integer the scanner read, under 2^53) are those of buffer row
   * `like`, which a buffer create added without a warning: its row is a copy of that one's. False, with nothing
   * done, when the record needs the full path: an id that is not an integer, or one already live.
   */
  repeatBuffer(id: number, size: number, like: number): boolean {
    if (!Number.isSafeInteger(id) || !this.live.add(id)) return false
    const row = this.buffers.repeat(like, id)
    this.buffers.size.data[row] = size
    this.pushPlain(BUFFER, row)
    return true
  }

  private addPlaced(r: RecordScratch): boolean {
    const id = this.claimId(r, 'placed', this.live)
    const kind = this.attachedKind(r, 'placed')
    const heap = this.int(r, F.heap, 'placed', 'heap')
    const offset = this.size(r, F.offset, 'placed', 'offset', true)
    if (id === undefined) return false
    if (kind === undefined || heap === undefined || offset === undefined) return this.unclaim(this.live, id)
    const desc = kind === 0 ? this.addBufferDesc(r, 'placed', id) : this.addTextureDesc(r, 'placed', id)
    if (desc < 0) return this.unclaim(this.live, id)
    const p = this.placed
    const row = p.row()
    p.id.data[row] = id
    p.kind.data[row] = kind
    p.desc.data[row] = desc
    p.a.data[row] = heap
    p.b.data[row] = offset
    p.shape.data[row] = this.shapeOf(this.placedShapes, kind, desc)
    this.heapOfPlaced.set(id, heap)
    let inHeap = this.placedIn.get(heap)
    if (!inHeap) this.placedIn.set(heap, (inHeap = new Set()))
    inHeap.add(id)
    this.pushRecord(PLACED, row, r)
    return true
  }

  /** A placed resource is destroyed (its heap freed, or itself): its id is free for a new create. */
  private forgetPlaced(id: number): void {
    const heap = this.heapOfPlaced.get(id)
    if (heap === undefined) return
    this.live.delete(id)
    this.heapOfPlaced.delete(id)
    const inHeap = this.placedIn.get(heap)
    inHeap?.delete(id)
    if (inHeap?.size === 0) this.placedIn.delete(heap)
  }

  private addUse(r: RecordScratch): boolean {
    if (r.type[F.ids] !== FieldValue.Numbers) {
      this.warn(r.has(F.ids) ? 'badField' : 'missingField', 'use needs "ids": an array of resource ids')
      return false
    }
    this.hasUse = true
    const ids = r.ids.data
    const count = r.ids.length
    if (this.useWide === undefined) {
      if (this.packUseIds(r, ids, count)) return true
      this.widenUseIds()
    }
    const wide = this.useWide!
    const first = wide.length
    wide.reserve(count)
    wide.data.set(ids.subarray(0, count), first)
    wide.length = first + count
    return this.pushOps2(USE, r, count, first)
  }

  /**
   * The end of the packed use ids so far, where the next use record's start; -1 once they are plain floats (a
   * use id that did not fit the byte coding). A record's packed bytes depend on its ids alone.
   */
  usePackedEnd(): number {
    return this.useWide === undefined ? this.useBytes.length : -1
  }

  /**
   * A use record whose ids are those of an earlier one, packed in `length` bytes from `first` (while usePackedEnd
   * is not -1): its bytes copied, no id read again. The scanner finds such records (NdjsonScanner's use arrays).
   */
  repeatUse(r: RecordScratch, first: number, length: number, count: number): boolean {
    const out = this.useBytes
    const at = out.length
    out.reserve(length)
    out.data.copyWithin(at, first, first + length)
    out.length = at + length
    this.hasUse = true
    return this.pushOps2(USE, r, count, at)
  }

  /** The `count` ids packed from byte `first`, into `ids` (a use record repeated, read after all). */
  unpackUse(first: number, count: number, ids: Column<Float64Array>): void {
    const list = unpackUseIds(this.useBytes.data, count, first, [])
    ids.length = 0
    ids.reserve(count)
    ids.data.set(list)
    ids.length = count
  }

  /** Append ids in the byte coding and their record; false, with nothing appended, if one does not fit it. */
  private packUseIds(r: RecordScratch, ids: Float64Array, count: number): boolean {
    const out = this.useBytes
    const first = out.length
    // at most eight bytes an id and its run: a value under 2^53 has 53 bits
    out.reserve(count * 8 + 8)
    const bytes = out.data
    let at = first
    let i = 0
    // Ids under 2^28, nearly all of them, in small-integer arithmetic while the last id coded is under 2^28 too:
    // their coded values stay under 2^30. From the first other id on, the loop after codes any id under
    // USE_ID_LIMIT the same way.
    let last = 0
    for (; i < count; i++) {
      const id = ids[i] | 0
      if (id !== ids[i] || (id | last) >>> 28 !== 0) break
      const delta = id - last
      last = id
      while (i + 1 < count && ids[i + 1] === last + 1) {
        last++
        i++
      }
      const run = last - id
      at = putShortVarint(bytes, at, (delta >= 0 ? delta << 2 : (-delta << 2) - 2) + (run > 0 ? 1 : 0))
      if (run > 0) at = putShortVarint(bytes, at, run)
    }
    let previous = last
    for (; i < count; i++) {
      const id = ids[i]
      if (id >>> 0 !== id && !(id >= 0 && id < USE_ID_LIMIT && Math.floor(id) === id)) return false
      let run = 0
      // A run ends below USE_ID_LIMIT: the id past it is checked as the next run's first. Past the limit, the
      // next difference times four would pass 2^53 and lose the bit that says whether a run follows.
      while (i + 1 < count && ids[i + 1] === ids[i] + 1 && ids[i + 1] < USE_ID_LIMIT) {
        run++
        i++
      }
      const delta = id - previous
      previous = ids[i]
      at = putShortVarint(bytes, at, (delta >= 0 ? delta * 4 : -delta * 4 - 2) + (run > 0 ? 1 : 0))
      if (run > 0) at = putShortVarint(bytes, at, run)
    }
    out.length = at
    this.pushOps2(USE, r, count, first)
    return true
  }

  /**
   * Keep the columns of records, frames, tables, operands and use ids in memory another thread reads as they grow
   * (SharedArrayBuffer): a pipelined load sends them without a copy (increments.ts). From then on no value written
   * is written again in place: recoding the use ids writes new arrays.
   */
  toShared(): void {
    for (const table of [this.records, this.buffers, this.textures, this.transients, this.placed]) table.toShared()
    for (const column of [this.frameN, this.frameT, this.frameFirst, this.ops, this.useBytes]) column.toShared()
    this.useWide?.toShared()
    this.shared = true
  }

  /** From here on use ids are plain floats: the ones packed so far are unpacked into them. */
  private widenUseIds(): void {
    const wide = float64Column(Math.max(1024, this.useBytes.length))
    wide.share = this.share
    if (this.shared) {
      // the operands of the use records are rewritten below: in shared memory, in a copy, as the reader may be at them
      this.ops.resize(this.ops.data.length)
      wide.toShared()
    }
    const { kind, ref } = this.records
    const ops = this.ops.data
    const scratch: number[] = []
    for (let i = 0; i < this.records.length; i++) {
      if (kind.data[i] !== USE) continue
      const at = ref.data[i]
      const ids = unpackUseIds(this.useBytes.data, ops[at], ops[at + 1], scratch)
      ops[at + 1] = wide.length
      wide.reserve(ids.length)
      for (const id of ids) wide.data[wide.length++] = id
    }
    this.useWide = wide
    this.useBytes = uint8Column(0)
  }

  /**
   * The id of a create, made live at once (one probe of the set); undefined after a warning when it is not an
   * integer or already live. A create found bad later gives its id back with unclaim.
   */
  private claimId(r: RecordScratch, what: string, live: IdSet): number | undefined {
    const id = this.int(r, F.id, what, 'id')
    if (id === undefined) return undefined
    if (!live.add(id)) {
      this.warn('duplicateId', `${what} ${id} created while an earlier ${id} is live`)
      return undefined
    }
    return id
  }

  private unclaim(live: IdSet, id: number): false {
    live.delete(id)
    return false
  }

  /**
   * A heap's `memory` (1.5) as a string id, 0 when absent. One that is not a string, empty, or longer than
   * MAX_MEMORY_LENGTH is ignored with a warning; the heap is kept.
   */
  private memoryOf(r: RecordScratch, id: number): number {
    const type = r.type[F.memory]
    if (type === FieldValue.Absent) return 0
    const memory = type === FieldValue.String ? this.strings.get(r.str[F.memory]) : undefined
    if (memory === undefined || memory.length === 0 || memory.length > MAX_MEMORY_LENGTH) {
      this.warn(
        'badField',
        memory === undefined
          ? `heap ${id}: memory is not a string; ignored`
          : `heap ${id}: memory is ${memory.length} characters long, expected 1 to ${MAX_MEMORY_LENGTH}; ignored`,
      )
      return 0
    }
    return r.str[F.memory]
  }

  private int(r: RecordScratch, field: number, what: string, key: string): number | undefined {
    const v = r.num[field]
    if (r.type[field] !== FieldValue.Number || !Number.isSafeInteger(v)) return this.badInt(r, field, what, key)
    return v
  }

  private badInt(r: RecordScratch, field: number, what: string, key: string): undefined {
    if (r.type[field] !== FieldValue.Number) {
      this.warn(r.has(field) ? 'badField' : 'missingField', `${what}: "${key}" must be an integer`)
    } else this.warn('badField', `${what}: "${key}" ${r.num[field]} is not an integer`)
    return undefined
  }

  private size(r: RecordScratch, field: number, what: string, key: string, required: boolean): number | undefined {
    const v = r.num[field]
    if (r.type[field] !== FieldValue.Number || !Number.isSafeInteger(v) || v < 0) return this.badSize(r, field, what, key, required)
    return v
  }

  private badSize(r: RecordScratch, field: number, what: string, key: string, required: boolean): undefined {
    if (r.type[field] !== FieldValue.Number) {
      if (required || r.has(field)) {
        this.warn(r.has(field) ? 'badSize' : 'missingField', `${what}: "${key}" must be a byte count`)
      }
    } else this.warn('badSize', `${what}: "${key}" ${r.num[field]} is negative or not an integer`)
    return undefined
  }

  /** A dimension within 1…max (1 when absent), or -1 after a warning. */
  private dimension(r: RecordScratch, field: number, what: string, key: string, max: number): number {
    if (r.type[field] === FieldValue.Absent) return 1
    const v = this.int(r, field, what, key)
    if (v === undefined) return -1
    if (v < 1 || v > max) {
      this.warn('badField', `${what}: "${key}" ${v} is outside 1…${max}`)
      return -1
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
    const code = r.type[field] === FieldValue.String ? table.get(r.str[field]) : -1
    if (code < 0) {
      if (required || r.has(field)) {
        this.warn(r.has(field) ? 'badField' : 'missingField', `${what}: "${key}" must be one of ${names.join(', ')}`)
      }
      return undefined
    }
    return code
  }

  private mask(r: RecordScratch, field: number, bits: NameCodes): number {
    if (r.type[field] !== FieldValue.Strings) return 0
    let mask = 0
    const list = r.strList
    for (let i = r.listStart[field], end = r.listEnd[field]; i < end; i++) {
      const bit = bits.get(list[i])
      if (bit >= 0) mask |= 1 << bit
      else {
        // the record is kept; only the name the format does not define is not stored, and that is said
        const key = field === F.usage ? 'usage' : 'flags'
        this.warn('unknownName', `"${this.strings.get(list[i])}" is not a ${key === 'usage' ? 'buffer usage' : 'texture flag'} name; ignored`)
      }
    }
    return mask >>> 0
  }

  /**
   * The columns as they are now, untrimmed: a capture followed live is read while it grows (GrowingStore). The
   * arrays are replaced as they grow, so they are asked for again after each batch of records.
   */
  soFar(): { kind: Uint8Array; ref: Uint32Array; records: number; ops: Float64Array; useIds: Uint8Array | Float64Array; hasUse: boolean; hasGpu: boolean } {
    return {
      kind: this.records.kind.data,
      ref: this.records.ref.data,
      records: this.records.length,
      ops: this.ops.data,
      useIds: this.useWide ? this.useWide.data : this.useBytes.data,
      hasUse: this.hasUse,
      hasGpu: this.hasGpu,
    }
  }

  /** Freeze into a store, dropping growth slack. */
  finish(file: string, sourceBytes: number, lines: number, partial: boolean): CaptureStore {
    if (this.frameN.length === 0 && this.records.length > 0) {
      this.frameN.push(0)
      this.frameT.push(NaN)
      this.frameFirst.push(0)
    }
    for (const table of [this.records, this.buffers, this.textures, this.transients, this.placed]) table.trim()
    this.strings.trim()
    this.extras.trim()
    return {
      file,
      header: this.header,
      strings: this.strings,
      records: { kind: this.records.kind.data, ref: this.records.ref.data, length: this.records.length },
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
      useIds: this.useWide ? this.useWide.trim() : this.useBytes.trim(),
      extras: this.extras,
      raw: this.raw,
      warnings: this.warnings,
      hasUseRecords: this.hasUse,
      hasGpuRecords: this.hasGpu,
      sourceBytes,
      lines,
      partial,
    }
  }
}

/** Use ids past this are kept as plain floats: their coded differences would not all be exact. */
const USE_ID_LIMIT = 2 ** 51

/**
 * An `upload` record's bounds (docs/capture-format.md): at most 64 GiB in at most 65 536 allocations, four times
 * the most `heapscope gen` writes in one. The models work out a staging copy, or an allocation larger than a page,
 * one at a time, and FastAllocator pages one page at a time: one record of 2^53 bytes or 2^53 allocations would
 * replay for hours, and one of 2^20 staging copies took 4 s and 400 MB. A frame with more traffic than one record
 * holds is written as several.
 */
export const UPLOAD_BYTES_MAX = 2 ** 36
export const UPLOAD_COUNT_MAX = 2 ** 16

/** Write a non-negative integer under 2^53 as a varint; returns the position after it. */
/**
 * putVarint with its one-, two- and three-byte codes written inline: the ids of one capture are seldom far apart,
 * so nearly every use id's code is short.
 */
function putShortVarint(bytes: Uint8Array, at: number, v: number): number {
  if (v < 0x80) bytes[at++] = v
  else if (v < 0x4000) {
    bytes[at++] = (v & 0x7f) | 0x80
    bytes[at++] = v >>> 7
  } else if (v < 0x200000) {
    bytes[at++] = (v & 0x7f) | 0x80
    bytes[at++] = ((v >>> 7) & 0x7f) | 0x80
    bytes[at++] = v >>> 14
  } else at = putVarint(bytes, at, v)
  return at
}

function putVarint(bytes: Uint8Array, at: number, v: number): number {
  if (v < 0x80000000) {
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
  } else {
    while (v >= 0x80) {
      bytes[at++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
  }
  bytes[at++] = v
  return at
}

/**
 * Desc shapes (AttachedTable.shape): a kind, then a buffer's size, usage, stride and attrs, or a texture's width,
 * height, format, flags, mips, size, dim, depth, samples and align. The hash reads the kind and the next six.
 */
function newShapes(): DescIds {
  return new DescIds(11, 7)
}
