/**
 * Capture records written straight as bytes. A resource class (a buffer usage set, a texture format and flags,
 * a render-graph resource) is encoded into JSON fragments once; each record then copies its fragments and
 * writes a few integers and an escaped name, so tens of millions of records cost no JSON.stringify, no record
 * objects and no string per line.
 */
import type {
  AnyCaptureRecord,
  BufferStateMode,
  BufferUsage,
  CaptureHeader,
  TextureDim,
  TextureFlag,
  UploadVia,
} from '../../shared/capture'
import { fragment, jsonNames, jsonString, LineBuilder, NdjsonSink, recordLine } from '../ingest/ndjsonWriter'
import { IdPool } from './ids'
import { textureAllocation, type AllocationInfo, type TextureShape } from './textures'

export interface BufferKind {
  usage: readonly BufferUsage[]
  stride?: number
  state?: BufferStateMode
  heap?: 'default' | 'readback'
  init?: boolean
  tag?: string
}

/** A buffer kind as the fragments of its records: `{"e":"buffer","id":N,"size":S` + desc + name + tail. */
export class BufferClass {
  /** `,"usage":[…]` up to `init`, as JSON text. */
  readonly descText: string
  readonly desc: Uint8Array
  readonly tail: Uint8Array

  constructor(readonly kind: BufferKind) {
    let desc = ',"usage":' + jsonNames(kind.usage)
    if (kind.stride) desc += ',"stride":' + kind.stride
    if (kind.state && kind.state !== 'default') desc += ',"state":"' + kind.state + '"'
    if (kind.heap && kind.heap !== 'default') desc += ',"heap":"' + kind.heap + '"'
    if (kind.init) desc += ',"init":true'
    this.descText = desc
    this.desc = fragment(desc)
    this.tail = fragment(kind.tag ? ',"tag":' + jsonString(kind.tag) + '}' : '}')
  }
}

export interface TextureKind {
  dim?: TextureDim
  format: string
  flags: readonly TextureFlag[]
  samples?: number
  tag?: string
}

export class TextureClass {
  readonly head: Uint8Array
  readonly flags: Uint8Array
  readonly tail: Uint8Array
  readonly target: boolean

  constructor(readonly kind: TextureKind) {
    this.head = fragment(',"dim":"' + (kind.dim ?? '2d') + '","format":' + jsonString(kind.format) + ',"width":')
    const samples = kind.samples && kind.samples > 1 ? ',"samples":' + kind.samples : ''
    this.flags = fragment(samples + ',"flags":' + jsonNames(kind.flags) + ',"name":')
    this.tail = fragment(kind.tag ? ',"tag":' + jsonString(kind.tag) : '')
    this.target = kind.flags.includes('RenderTargetable') || kind.flags.includes('DepthStencilTargetable')
  }

  shape(width: number, height: number, depth: number, mips: number): TextureShape {
    const kind = this.kind
    return {
      dim: kind.dim ?? '2d', format: kind.format, width, height, depth, mips, samples: kind.samples ?? 1,
      target: this.target,
    }
  }
}

export type TransientDesc =
  | { kind: 'buffer'; cls: BufferClass; size: number }
  | {
    kind: 'texture'; cls: TextureClass; width: number; height: number; depth?: number; mips?: number; driver?: boolean,
  }

/** One render-graph resource with its desc fixed: the line is head + id + mid + first + last + tail. */
export class TransientClass {
  readonly mid: string
  readonly tail: string

  constructor(
    readonly name: string,
    desc: TransientDesc,
  ) {
    let driver: AllocationInfo | undefined
    let mid: string
    if (desc.kind === 'buffer') {
      mid = ',"kind":"buffer","size":' + desc.size + desc.cls.descText
    } else {
      const k = desc.cls.kind
      const depth = desc.depth ?? 1
      const mips = desc.mips ?? 1
      // A 2d transient leaves `dim` out, as the format's own example does.
      mid = ',"kind":"texture"' + (k.dim && k.dim !== '2d' ? ',"dim":"' + k.dim + '"' : '')
      mid += ',"format":' + jsonString(k.format) + ',"width":' + desc.width + ',"height":' + desc.height
      if (depth !== 1) mid += ',"depth":' + depth
      if (mips !== 1) mid += ',"mips":' + mips
      if (k.samples && k.samples > 1) mid += ',"samples":' + k.samples
      mid += ',"flags":' + jsonNames(k.flags)
      if (desc.driver) driver = textureAllocation(desc.cls.shape(desc.width, desc.height, depth, mips))
    }
    this.mid = mid + ',"first":'
    const size = driver ? ',"size":' + driver.size + ',"align":' + driver.align : ''
    this.tail = ',"name":' + jsonString(name) + size + '}'
  }

  /** Everything after the id for one pass range: a graph replayed every frame encodes its lines once. */
  rest(first: number, last: number): Uint8Array {
    return fragment(this.mid + first + ',"last":' + last + this.tail)
  }
}

const F = {
  frame: fragment('{"e":"frame","n":'),
  t: fragment(',"t":'),
  gpu: fragment('{"e":"gpu","n":'),
  close: fragment('}'),
  upload: fragment('{"e":"upload","via":"'),
  uploadBytes: fragment('","bytes":'),
  count: fragment(',"count":'),
  budget: fragment('{"e":"budget","bytes":'),
  buffer: fragment('{"e":"buffer","id":'),
  size: fragment(',"size":'),
  name: fragment(',"name":'),
  texture: fragment('{"e":"texture","id":'),
  height: fragment(',"height":'),
  depth: fragment(',"depth":'),
  mips: fragment(',"mips":'),
  align: fragment(',"align":'),
  release: fragment('{"e":"release","id":'),
  commit: fragment('{"e":"commit","id":'),
  lock: fragment('{"e":"lock","id":'),
  bytes: fragment(',"bytes":'),
  use: fragment('{"e":"use","ids":['),
  useEnd: fragment(']}'),
  graph: fragment('{"e":"graph","name":'),
  transient: fragment('{"e":"transient","id":'),
  endgraph: fragment('{"e":"endgraph","passes":'),
}
const VIA: Record<UploadVia, Uint8Array> = {
  fast: fragment('fast'),
  fastConstant: fragment('fastConstant'),
  staging: fragment('staging'),
}

/**
 * Records into a line builder, counting them. Resource ids come from an IdPool (released ids come back a few
 * frames later); transient ids are given back at `endgraph`.
 */
export class CaptureWriter {
  records = 0
  frameNumber = 0
  /** The last hand-over to the output that has to be awaited (its backpressure), if any. */
  pending: Promise<void> | undefined
  readonly ids: IdPool
  private readonly b: LineBuilder
  private transients = new Float64Array(512)
  private transientCount = 0
  /** Bytes and count of buffers created with initial data since the last `takeInitialData`: staging uploads. */
  private initBytes = 0
  private initCount = 0

  constructor(sink: NdjsonSink, ids = new IdPool(1, 3)) {
    this.b = new LineBuilder(sink)
    this.ids = ids
  }

  private end(): void {
    this.records++
    const wait = this.b.end()
    if (wait) this.pending = wait
  }

  /** Hands over the last lines and waits for the output. */
  flush(): Promise<void> {
    return this.b.flush()
  }

  header(header: CaptureHeader): void {
    this.b.text(recordLine(header))
    this.end()
  }

  /**
   * Any record as an object, written by the capture writer's rules: for the few records without a fragment
   * path (Vulkan memory, binds, maps, flushes, placed resources and their barriers and accesses).
   */
  record(record: AnyCaptureRecord): void {
    this.b.text(recordLine(record))
    this.end()
  }

  frame(n: number, t: number): void {
    this.frameNumber = n
    const b = this.b
    b.raw(F.frame)
    b.number(n)
    b.raw(F.t)
    b.number(t)
    b.raw(F.close)
    this.end()
  }

  gpu(n: number): void {
    this.b.raw(F.gpu)
    this.b.number(n)
    this.b.raw(F.close)
    this.end()
  }

  upload(via: UploadVia, bytes: number, count: number): void {
    const b = this.b
    b.raw(F.upload)
    b.raw(VIA[via])
    b.raw(F.uploadBytes)
    b.number(bytes)
    b.raw(F.count)
    b.number(count)
    b.raw(F.close)
    this.end()
  }

  budget(bytes: number): void {
    this.b.raw(F.budget)
    this.b.number(bytes)
    this.b.raw(F.close)
    this.end()
  }

  buffer(cls: BufferClass, size: number, name: string): number {
    const id = this.ids.take(this.frameNumber)
    if (cls.kind.init) {
      this.initBytes += size
      this.initCount++
    }
    const b = this.b
    b.raw(F.buffer)
    b.number(id)
    b.raw(F.size)
    b.number(size)
    b.raw(cls.desc)
    b.raw(F.name)
    b.string(name)
    b.raw(cls.tail)
    this.end()
    return id
  }

  /** A texture; `driver` writes the driver's size and alignment, otherwise the model estimates them. */
  texture(
    cls: TextureClass,
    width: number,
    height: number,
    depth: number,
    mips: number,
    name: string,
    driver: boolean,
  ): number {
    const id = this.ids.take(this.frameNumber)
    const b = this.b
    b.raw(F.texture)
    b.number(id)
    b.raw(cls.head)
    b.number(width)
    b.raw(F.height)
    b.number(height)
    if (depth !== 1) {
      b.raw(F.depth)
      b.number(depth)
    }
    if (mips !== 1) {
      b.raw(F.mips)
      b.number(mips)
    }
    b.raw(cls.flags)
    b.string(name)
    b.raw(cls.tail)
    if (driver) {
      const info = textureAllocation(cls.shape(width, height, depth, mips))
      b.raw(F.size)
      b.number(info.size)
      b.raw(F.align)
      b.number(info.align)
    }
    b.raw(F.close)
    this.end()
    return id
  }

  /** Initial data written since the last call: [bytes, buffers]. */
  takeInitialData(): [number, number] {
    const out: [number, number] = [this.initBytes, this.initCount]
    this.initBytes = 0
    this.initCount = 0
    return out
  }

  release(id: number): void {
    this.ids.give(id, this.frameNumber)
    this.b.raw(F.release)
    this.b.number(id)
    this.b.raw(F.close)
    this.end()
  }

  commit(id: number, bytes: number): void {
    this.idBytes(F.commit, id, bytes)
  }

  lock(id: number, bytes: number): void {
    this.idBytes(F.lock, id, bytes)
  }

  private idBytes(head: Uint8Array, id: number, bytes: number): void {
    const b = this.b
    b.raw(head)
    b.number(id)
    b.raw(F.bytes)
    b.number(bytes)
    b.raw(F.close)
    this.end()
  }

  /** `count` ids of `ids` from `offset`. */
  use(ids: ArrayLike<number>, count: number, offset = 0): void {
    const b = this.b
    b.raw(F.use)
    b.integers(ids, count, offset)
    b.raw(F.useEnd)
    this.end()
  }

  graph(name: string): void {
    this.b.raw(F.graph)
    this.b.string(name)
    this.b.raw(F.close)
    this.end()
  }

  /** A transient whose line after the id is `rest` (TransientClass.rest). */
  transient(rest: Uint8Array): number {
    const id = this.ids.take(this.frameNumber)
    if (this.transientCount === this.transients.length) {
      const grown = new Float64Array(this.transients.length * 2)
      grown.set(this.transients)
      this.transients = grown
    }
    this.transients[this.transientCount++] = id
    const b = this.b
    b.raw(F.transient)
    b.number(id)
    b.raw(rest)
    this.end()
    return id
  }

  endgraph(passes: number): void {
    for (let i = 0; i < this.transientCount; i++) this.ids.give(this.transients[i], this.frameNumber)
    this.transientCount = 0
    this.b.raw(F.endgraph)
    this.b.number(passes)
    this.b.raw(F.close)
    this.end()
  }
}
