/**
 * A capture's buffer, texture and transient descs as the models read them: built into reused objects of one shape
 * each from the store's columns, for every backend whose replay runs a model.
 */
import {
  BUFFER_STATES,
  BUFFER_USAGES,
  namesOf,
  TEXTURE_DIMS,
  TEXTURE_FLAGS,
  type BufferDesc,
  type BufferUsage,
  type TextureDesc,
  type TextureFlag,
  type TransientRecord,
} from '../../shared/capture'
import type { Bytes } from '../../shared/units'
import { BUFFER_ATTR, type CaptureStore } from '../ingest/store'
import { DescIds } from '../../shared/descIds'
import type { D3D12Model, ModelPlacement } from '../model/d3d12/model'
import { doubleFields } from '../model/doubles'
import { grown } from '../model/grown'

/** A name and tag decoded only if the model reads them: a create sent by form number, and the descs below. */
class LazyNamed {
  nameId = 0
  tagId = 0

  constructor(private readonly text: DescScratch) {}

  get name(): string | undefined {
    return this.text.string(this.nameId)
  }

  get tag(): string | undefined {
    return this.text.string(this.tagId)
  }
}

/**
 * The reused buffer desc: its name and tag are string ids, decoded from the capture's string table only when read
 * (the model reads them for few requests; a capture naming every resource apart would decode a string per create).
 */
class LazyBufferDesc extends LazyNamed implements BufferDesc {
  size = 0
  usage: BufferUsage[] | undefined = undefined
  stride = 0
  state: BufferDesc['state'] = 'default'
  heap: BufferDesc['heap'] = 'default'
  init = false

  constructor(text: DescScratch) {
    super(text)
    // Read from the store's float columns: doubles from the start (model/doubles.ts).
    doubleFields(this, ['size'])
  }
}

/** The reused texture desc, its name and tag decoded when read (see LazyBufferDesc). */
class LazyTextureDesc extends LazyNamed implements TextureDesc {
  dim: TextureDesc['dim'] = '2d'
  format: string | undefined = undefined
  width = 1
  height = 1
  depth = 1
  mips = 1
  samples = 1
  flags: TextureFlag[] | undefined = undefined
  size: Bytes | undefined = undefined
  align: Bytes | undefined = undefined
}

/**
 * Descs for the model, built into reused objects of one shape each (the model reads a desc and never keeps it),
 * with usage and flag name lists cached per mask: a replay of millions of records allocates almost nothing.
 */
export class DescScratch {
  private readonly usageLists = new Map<number, BufferUsage[]>()
  private readonly flagLists = new Map<number, TextureFlag[]>()
  /** What bufferAt and textureAt return unless given an object to fill. */
  private readonly buffer = new LazyBufferDesc(this)
  private readonly texture = new LazyTextureDesc(this)
  private readonly transientBuffer = doubleFields<TransientRecord & { kind: 'buffer' }>(
    {
      e: 'transient',
      id: 0,
      kind: 'buffer',
      first: 0,
      last: 0,
      size: 0,
      usage: undefined,
      stride: 0,
      state: 'default',
      heap: 'default',
      init: false,
      name: undefined,
      tag: undefined,
    },
    ['id', 'first', 'last', 'size'],
  )
  private readonly transientTexture = doubleFields<TransientRecord & { kind: 'texture' }>(
    {
      e: 'transient',
      id: 0,
      kind: 'texture',
      first: 0,
      last: 0,
      dim: '2d',
      format: undefined,
      width: 1,
      height: 1,
      depth: 1,
      mips: 1,
      samples: 1,
      flags: undefined,
      size: undefined,
      align: undefined,
      name: undefined,
      tag: undefined,
    },
    ['id', 'first', 'last'],
  )

  /** The model's form for each transient desc shape of the store (AttachedTable.shape; -1: not known yet). */
  private formOf = new Int32Array(0)
  /** The models whose form numbers formOf holds: one model and its copies. */
  private formsKey: object | null = null
  /**
   * Buffer and texture creates by their columns but size, init, name and tag (buffers: usage, stride, attrs;
   * textures: those textureAt reads), and the model's form number for each (-1: not known yet), for the models
   * of createKey (one model and its copies).
   */
  private readonly bufferCreateKeys = new DescIds(3)
  private readonly textureKeys = new DescIds(10, 6)
  private bufferCreateForm = new Int32Array(0)
  private textureCreateForm = new Int32Array(0)
  private createKey: object | null = null
  private readonly named = new LazyNamed(this)
  /** Decoded strings by id, filled as they are first read (a plain array answers faster than the table). */
  private readonly text: (string | undefined)[]

  // Buffer columns a create's form key reads (`storeGrew` reads them again when a followed capture grows).
  private bufferSize: Float64Array
  private bufferUsage: Uint32Array
  private bufferStride: Uint32Array

  constructor(private readonly store: CaptureStore) {
    // Bounded: a capture naming every resource apart has millions of strings; ids past the array ask the table.
    this.text = new Array<string | undefined>(Math.min(store.strings.size + 1, 1 << 20)).fill(undefined)
    this.bufferSize = store.buffers.size.data
    this.bufferUsage = store.buffers.usage.data
    this.bufferStride = store.buffers.stride.data
  }

  /** The store grew (a capture followed live): its columns may be new arrays, and its strings more. */
  storeGrew(): void {
    this.bufferSize = this.store.buffers.size.data
    this.bufferUsage = this.store.buffers.usage.data
    this.bufferStride = this.store.buffers.stride.data
    // the strings interned since are read through the array too, as in a store loaded whole
    const size = Math.min(this.store.strings.size + 1, 1 << 20)
    while (this.text.length < size) this.text.push(undefined)
  }

  /** The string of an id of the capture's string table. */
  string(id: number): string | undefined {
    if (id >= this.text.length) return this.store.strings.get(id)
    let s = this.text[id]
    if (s === undefined && id !== 0) this.text[id] = s = this.store.strings.get(id)
    return s
  }

  private usage(mask: number): BufferUsage[] | undefined {
    if (mask === 0) return undefined
    let list = this.usageLists.get(mask)
    // Frozen: the model knows a frozen list's mask after its first look (usageMask).
    if (!list) this.usageLists.set(mask, (list = Object.freeze(namesOf(BUFFER_USAGES, mask)) as BufferUsage[]))
    return list
  }

  private flags(mask: number): TextureFlag[] | undefined {
    if (mask === 0) return undefined
    let list = this.flagLists.get(mask)
    if (!list) this.flagLists.set(mask, (list = namesOf(TEXTURE_FLAGS, mask)))
    return list
  }

  /** The desc of buffer row `row`: into `out` when given, else into the reused desc (name and tag read lazily). */
  bufferAt(row: number, out?: BufferDesc): BufferDesc {
    const b = this.store.buffers
    if (out === undefined) {
      const lazy = this.buffer
      this.bufferFields(row, lazy)
      lazy.nameId = b.name.data[row]
      lazy.tagId = b.tag.data[row]
      return lazy
    }
    this.bufferFields(row, out)
    out.name = this.string(b.name.data[row])
    out.tag = this.string(b.tag.data[row])
    return out
  }

  /** The desc of buffer row `row` into `out`, but its name and tag (which a model that never names them skips). */
  bufferFields(row: number, out: BufferDesc): void {
    const b = this.store.buffers
    const attrs = b.attrs.data[row]
    out.size = b.size.data[row]
    out.usage = this.usage(b.usage.data[row])
    out.stride = b.stride.data[row]
    out.state = BUFFER_STATES[attrs & BUFFER_ATTR.stateMask]
    out.heap = attrs & BUFFER_ATTR.readback ? 'readback' : 'default'
    out.init = (attrs & BUFFER_ATTR.init) !== 0
  }

  /** The desc of texture row `row`: into `out` when given, else into the reused desc (name and tag read lazily). */
  textureAt(row: number, out?: TextureDesc): TextureDesc {
    const t = this.store.textures
    if (out === undefined) {
      const lazy = this.texture
      this.textureFields(row, lazy)
      lazy.nameId = t.name.data[row]
      lazy.tagId = t.tag.data[row]
      return lazy
    }
    this.textureFields(row, out)
    out.name = this.string(t.name.data[row])
    out.tag = this.string(t.tag.data[row])
    return out
  }

  /** The desc of texture row `row` into `out`, but its name and tag. */
  textureFields(row: number, out: TextureDesc): void {
    const t = this.store.textures
    const size = t.size.data[row]
    const align = t.align.data[row]
    out.dim = TEXTURE_DIMS[t.dim.data[row]]
    out.format = this.string(t.format.data[row])
    out.width = t.width.data[row]
    out.height = t.height.data[row]
    out.depth = t.depth.data[row]
    out.mips = t.mips.data[row]
    out.samples = t.samples.data[row]
    out.flags = this.flags(t.flags.data[row])
    out.size = Number.isNaN(size) ? undefined : size
    out.align = align === 0 ? undefined : align
  }

  /**
   * Sends the transient of row `row` to the model. The first transient of each desc shape (the store's number for
   * its columns, name aside) goes as a record, and the model answers with the number of the desc's form; every
   * later one of that shape goes by that number, without a desc object built or read again. Numbers hold for one
   * model and its copies.
   */
  applyTransient(model: D3D12Model, row: number): void {
    const key = model.transientFormsKey()
    if (this.formsKey === null) this.formsKey = key
    const t = this.store.transients
    let known = -1
    if (this.formsKey === key) {
      known = t.shape.data[row]
      if (known >= this.formOf.length) this.formOf = grownForms(this.formOf, known)
      const form = this.formOf[known]
      if (form >= 0) {
        const desc = t.desc.data[row]
        const name = t.kind.data[row] === 0 ? this.store.buffers.name.data[desc] : this.store.textures.name.data[desc]
        model.transientForm(form, t.id.data[row], t.a.data[row], t.b.data[row], this.string(name))
        return
      }
    }
    const learnt = model.transient(this.transientAt(row))
    if (known >= 0 && learnt >= 0) this.formOf[known] = learnt
  }

  /**
   * Sends the create of buffer row `row` to the model. The first create of each desc (its columns but size, init,
   * name and tag) goes as a desc, and the model answers with the number of its form; every later one of an equal
   * desc goes by that number with its size and init flag, its name and tag decoded only if the model reads them.
   */
  createBuffer(model: D3D12Model, row: number): ModelPlacement {
    const b = this.store.buffers
    const attrs = b.attrs.data[row]
    const key = this.bufferCreateKeys.fields
    key[0] = this.bufferUsage[row]
    key[1] = this.bufferStride[row]
    key[2] = attrs & ~BUFFER_ATTR.init
    const known = this.bufferCreateKeys.id()
    this.formsOf(model)
    if (known >= this.bufferCreateForm.length) this.bufferCreateForm = grownForms(this.bufferCreateForm, known)
    const form = this.bufferCreateForm[known]
    if (form >= 0) {
      const named = this.named
      named.nameId = b.name.data[row]
      named.tagId = b.tag.data[row]
      return model.createBufferForm(b.id.data[row], form, this.bufferSize[row], (attrs & BUFFER_ATTR.init) !== 0, named)
    }
    const placed = model.createBuffer(b.id.data[row], this.bufferAt(row))
    this.bufferCreateForm[known] = model.bufferFormOfLast()
    return placed
  }

  /** Sends the create of texture row `row` to the model: by the number of its desc's decision once known (see createBuffer). */
  createTexture(model: D3D12Model, row: number): ModelPlacement {
    const t = this.store.textures
    const known = this.textureKey(row)
    this.formsOf(model)
    if (known >= this.textureCreateForm.length) this.textureCreateForm = grownForms(this.textureCreateForm, known)
    const form = this.textureCreateForm[known]
    if (form >= 0) {
      const named = this.named
      named.nameId = t.name.data[row]
      return model.createTextureForm(t.id.data[row], form, named)
    }
    const placed = model.createTexture(t.id.data[row], this.textureAt(row))
    this.textureCreateForm[known] = model.textureFormOfLast()
    return placed
  }

  /** The form tables hold `model`'s form numbers: emptied when they held another model's (not a copy's). */
  private formsOf(model: D3D12Model): void {
    const key = model.createFormsKey()
    if (key === this.createKey) return
    this.createKey = key
    this.bufferCreateForm.fill(-1)
    this.textureCreateForm.fill(-1)
  }

  /** The number of a texture desc row's columns (those textureAt reads but name and tag) among those seen. */
  private textureKey(row: number): number {
    const t = this.store.textures
    const key = this.textureKeys.fields
    // The hash reads the first six: descs of one size, format and flags often differ only in their mips or in
    // whether the driver gave a size, and a probe run shared by all of them compares every field of each.
    key[0] = t.width.data[row]
    key[1] = t.height.data[row]
    key[2] = t.format.data[row]
    key[3] = t.flags.data[row]
    key[4] = t.mips.data[row]
    key[5] = t.size.data[row]
    key[6] = t.dim.data[row]
    key[7] = t.depth.data[row]
    key[8] = t.samples.data[row]
    key[9] = t.align.data[row]
    return this.textureKeys.id()
  }

  transientAt(row: number): TransientRecord {
    const t = this.store.transients
    const desc = t.desc.data[row]
    if (t.kind.data[row] === 0) {
      const out = this.transientBuffer
      this.bufferAt(desc, out)
      out.id = t.id.data[row]
      out.first = t.a.data[row]
      out.last = t.b.data[row]
      return out
    }
    const out = this.transientTexture
    this.textureAt(desc, out)
    out.id = t.id.data[row]
    out.first = t.a.data[row]
    out.last = t.b.data[row]
    return out
  }
}

/** A form table with room for index `index`, new entries -1. */
function grownForms(forms: Int32Array<ArrayBuffer>, index: number): Int32Array<ArrayBuffer> {
  return grown(forms, Math.max(64, index * 2), -1)
}
