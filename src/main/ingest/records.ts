/**
 * Records back out of the store as objects: for the CLI commands that print per record, the writer, and
 * a person looking at one resource. Never on a hot path over a whole capture in the app.
 */
import {
  ACCESS_OPS,
  BUFFER_STATES,
  BUFFER_USAGES,
  HEAP_KINDS,
  namesOf,
  RECORD_KINDS,
  TEXTURE_DIMS,
  TEXTURE_FLAGS,
  UPLOAD_VIAS,
  type BarrierRecord,
  type BufferDesc,
  type AnyCaptureRecord,
  type CaptureRecord,
  type ExtensionRecord,
  type HeapRecord,
  type TextureDesc,
} from '../../shared/capture'
import { BUFFER_ATTR, RECORD_KIND, rangeOperands, recordRange, unpackUseIds, type CaptureStore } from './store'

export function bufferDesc(store: CaptureStore, row: number): BufferDesc {
  const b = store.buffers
  const attrs = b.attrs.data[row]
  const desc: BufferDesc = { size: b.size.data[row] }
  const usage = namesOf(BUFFER_USAGES, b.usage.data[row])
  if (usage.length) desc.usage = usage
  if (b.stride.data[row]) desc.stride = b.stride.data[row]
  if (attrs & BUFFER_ATTR.stateMask) desc.state = BUFFER_STATES[attrs & BUFFER_ATTR.stateMask]
  if (attrs & BUFFER_ATTR.readback) desc.heap = 'readback'
  if (attrs & BUFFER_ATTR.init) desc.init = true
  const name = store.strings.get(b.name.data[row])
  if (name !== undefined) desc.name = name
  const tag = store.strings.get(b.tag.data[row])
  if (tag !== undefined) desc.tag = tag
  return desc
}

export function textureDesc(store: CaptureStore, row: number): TextureDesc {
  const t = store.textures
  const desc: TextureDesc = { dim: TEXTURE_DIMS[t.dim.data[row]] }
  const format = store.strings.get(t.format.data[row])
  if (format !== undefined) desc.format = format
  desc.width = t.width.data[row]
  desc.height = t.height.data[row]
  if (t.depth.data[row] !== 1) desc.depth = t.depth.data[row]
  if (t.mips.data[row] !== 1) desc.mips = t.mips.data[row]
  if (t.samples.data[row] !== 1) desc.samples = t.samples.data[row]
  const flags = namesOf(TEXTURE_FLAGS, t.flags.data[row])
  if (flags.length) desc.flags = flags
  const name = store.strings.get(t.name.data[row])
  if (name !== undefined) desc.name = name
  const tag = store.strings.get(t.tag.data[row])
  if (tag !== undefined) desc.tag = tag
  if (!Number.isNaN(t.size.data[row])) desc.size = t.size.data[row]
  if (t.align.data[row] !== 0) desc.align = t.align.data[row]
  return desc
}

/** The ids of the `use` record whose `ref` is given, into `out` (resized to them, reused by a replay). */
export function useIdsOf(store: CaptureStore, ref: number, out: number[] = []): number[] {
  return unpackUseIds(store.useIds, store.ops[ref], store.ops[ref + 1], out)
}

/** The record at `index` as an object, unknown keys included. */
export function recordAt(store: CaptureStore, index: number): AnyCaptureRecord {
  const kind = store.records.kind[index]
  if (rangeOperands(kind)) return rangeRecordAt(store, kind, store.records.ref[index])
  // extension records are kept whole, unknown keys included
  if (kind >= RECORD_KIND.bind) return JSON.parse(store.raw[store.records.ref[index]]) as ExtensionRecord
  const record = baseRecordAt(store, index)
  const extras = store.extras.get(index)
  return extras === undefined ? record : { ...(JSON.parse(`{${extras}}`) as object), ...record }
}

/**
 * A `bind`, `map`, `unmap`, `write` or `flush` from its operands [id, memory, offset, size, raw]: its JSON when it
 * has one (raw ≥ 0), else its members as that JSON would hold them, in the store's field order.
 */
function rangeRecordAt(store: CaptureStore, kind: number, ref: number): ExtensionRecord {
  const ops = store.ops
  const raw = ops[ref + 4]
  if (raw >= 0) return JSON.parse(store.raw[raw]) as ExtensionRecord
  const record: Record<string, unknown> = { e: RECORD_KINDS[kind] }
  if (!Number.isNaN(ops[ref])) record.id = ops[ref]
  if (!Number.isNaN(ops[ref + 3])) record.size = ops[ref + 3]
  if (!Number.isNaN(ops[ref + 2])) record.offset = ops[ref + 2]
  if (!Number.isNaN(ops[ref + 1])) record.memory = ops[ref + 1]
  return record as unknown as ExtensionRecord
}

function baseRecordAt(store: CaptureStore, index: number): CaptureRecord {
  const kind = store.records.kind[index]
  const ref = store.records.ref[index]
  const ops = store.ops
  switch (kind) {
    case RECORD_KIND.frame: {
      const t = store.frames.t[ref]
      return Number.isNaN(t) ? { e: 'frame', n: store.frames.n[ref] } : { e: 'frame', n: store.frames.n[ref], t }
    }
    case RECORD_KIND.gpu:
      return { e: 'gpu', n: ops[ref] }
    case RECORD_KIND.buffer:
      return { e: 'buffer', id: store.buffers.id.data[ref], ...bufferDesc(store, ref) }
    case RECORD_KIND.texture:
      return { e: 'texture', id: store.textures.id.data[ref], ...textureDesc(store, ref) }
    case RECORD_KIND.release:
      return { e: 'release', id: ops[ref] }
    case RECORD_KIND.commit:
      return { e: 'commit', id: ops[ref], bytes: ops[ref + 1] }
    case RECORD_KIND.lock:
      return { e: 'lock', id: ops[ref], bytes: ops[ref + 1] }
    case RECORD_KIND.upload:
      return { e: 'upload', via: UPLOAD_VIAS[ops[ref]], bytes: ops[ref + 1], count: ops[ref + 2] }
    case RECORD_KIND.use:
      return { e: 'use', ids: useIdsOf(store, ref) }
    case RECORD_KIND.budget:
      return Number.isNaN(ops[ref + 1])
        ? { e: 'budget', bytes: ops[ref] }
        : ({ e: 'budget', bytes: ops[ref], heap: ops[ref + 1] } as CaptureRecord)
    case RECORD_KIND.graph: {
      const name = store.strings.get(ops[ref])
      return name === undefined ? { e: 'graph' } : { e: 'graph', name }
    }
    case RECORD_KIND.transient: {
      const t = store.transients
      const desc = t.desc.data[ref]
      const common = { e: 'transient' as const, first: t.a.data[ref], last: t.b.data[ref] }
      return t.kind.data[ref] === 0
        ? { ...common, id: t.id.data[ref], kind: 'buffer', ...bufferDesc(store, desc) }
        : { ...common, id: t.id.data[ref], kind: 'texture', ...textureDesc(store, desc) }
    }
    case RECORD_KIND.endgraph:
      return { e: 'endgraph', passes: ops[ref] }
    case RECORD_KIND.heap: {
      const name = store.strings.get(ops[ref + 3])
      const memory = store.strings.get(ops[ref + 4])
      const heap: HeapRecord = { e: 'heap', id: ops[ref], size: ops[ref + 1], type: HEAP_KINDS[ops[ref + 2]] }
      if (name !== undefined) heap.name = name
      if (memory !== undefined) heap.memory = memory
      return heap
    }
    case RECORD_KIND.placed: {
      const p = store.placed
      const desc = p.desc.data[ref]
      const common = { e: 'placed' as const, heap: p.a.data[ref], offset: p.b.data[ref] }
      if (p.kind.data[ref] === 1) {
        return { ...common, id: p.id.data[ref], kind: 'texture', ...textureDesc(store, desc) }
      }
      // a placed buffer's `heap` is the heap record's id, never the desc's heap kind
      const { heap: _kind, ...buffer } = bufferDesc(store, desc)
      return { ...common, id: p.id.data[ref], kind: 'buffer', ...buffer }
    }
    case RECORD_KIND.barrier: {
      // NaN: the capture left the resource out (NULL)
      const barrier: BarrierRecord = { e: 'barrier' }
      if (!Number.isNaN(ops[ref])) barrier.after = ops[ref]
      if (!Number.isNaN(ops[ref + 1])) barrier.before = ops[ref + 1]
      return barrier
    }
    case RECORD_KIND.access:
      return { e: 'access', id: ops[ref], op: ACCESS_OPS[ops[ref + 1]] }
    case RECORD_KIND.submit:
      return { e: 'submit' }
    case RECORD_KIND.free:
      return { e: 'free', id: ops[ref] }
  }
  throw new Error(`record ${index} has an unknown kind ${kind}`)
}

/** All records of a frame range [from, to) of frame indices, in order. */
export function* recordsOf(
  store: CaptureStore,
  fromFrame = 0,
  toFrame = store.frames.length,
): Generator<AnyCaptureRecord> {
  const { start, end } = recordRange(store, fromFrame, toFrame)
  for (let i = start; i < end; i++) yield recordAt(store, i)
}
