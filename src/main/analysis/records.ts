/**
 * A capture store's records as every backend reads them: the frame a record belongs to, the id a create record
 * makes, and when each resource's life ends.
 */
import { RECORD_KIND, type BufferTable, type CaptureStore, type TextureTable } from '../ingest/store'
import { IdTable } from '../model/idTable'

/**
 * The resources each record ends, read in record order: a `release` its id; a `free` of a placed resource that
 * resource, and a `free` of a heap what is placed in it, which it takes along (docs/aliasing.md), as the load counts
 * them. Every reader that ends a resource's life (a resource's details, the search, the exported rows) asks here.
 */
export class LifeEnds {
  /** The live heaps, each with the ids placed in it and still live. */
  private readonly heaps = new Map<number, Set<number>>()
  /** Each live placed resource's heap. */
  private readonly heapOf = new Map<number, number>()
  /** A release's answer, one id, reused. */
  private readonly one = [0]

  /**
   * Whether read() must see records of this kind: a release, a heap, a free or a placed resource. The others end
   * nothing and change nothing it keeps, so a reader may pass them by.
   */
  static reads(kind: number): boolean {
    return kind === RECORD_KIND.release || kind === RECORD_KIND.heap || kind === RECORD_KIND.free || kind === RECORD_KIND.placed
  }

  /** The ids record `record` ends (none for most records); the answer is read before the next call. */
  read(store: CaptureStore, record: number): readonly number[] {
    const k = store.records.kind[record]
    const r = store.records.ref[record]
    if (k === RECORD_KIND.release) {
      const id = store.ops[r]
      this.forget(id)
      this.one[0] = id
      return this.one
    }
    if (k === RECORD_KIND.heap) this.heaps.set(store.ops[r], new Set())
    else if (k === RECORD_KIND.placed) {
      const id = createdIdOf(store, record)
      const heap = store.placed.a.data[r]
      this.forget(id)
      this.heapOf.set(id, heap)
      this.heaps.get(heap)?.add(id)
    } else if (k === RECORD_KIND.free) {
      const id = store.ops[r]
      const held = this.heaps.get(id)
      if (held !== undefined) {
        this.heaps.delete(id)
        const ended = [...held]
        for (const p of ended) this.heapOf.delete(p)
        return ended
      }
      if (this.heapOf.has(id)) {
        this.forget(id)
        this.one[0] = id
        return this.one
      }
    }
    return NOTHING
  }

  private forget(id: number): void {
    const heap = this.heapOf.get(id)
    if (heap === undefined) return
    this.heapOf.delete(id)
    this.heaps.get(heap)?.delete(id)
  }
}

const NOTHING: readonly number[] = []

/**
 * When each resource's life ends: the record index of every create (buffer, texture, placed) and of the release
 * or the `free` that ends it (LifeEnds), built in one pass when first asked, so a resource's details need no scan
 * of the records after it.
 */
export class Lifetimes {
  private readonly create: Uint32Array
  private readonly release: Int32Array

  constructor(private readonly store: CaptureStore) {
    const { kind } = store.records
    const records = store.records.length
    // the creates counted first, so that both columns are made once at their length
    let n = 0
    for (let i = 0; i < records; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed) n++
    }
    const creates = new Uint32Array(n)
    const releases = new Int32Array(n).fill(-1)
    // id → its live create's row: a flat table for the ids a capture numbers densely (model/idTable.ts)
    const live = new IdTable()
    const ends = new LifeEnds()
    let row = 0
    for (let i = 0; i < records; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed) {
        live.set(createdIdOf(store, i), row)
        creates[row++] = i
      }
      if (!LifeEnds.reads(k)) continue
      for (const id of ends.read(store, i)) {
        const at = live.get(id)
        if (at === undefined) continue
        releases[at] = i
        live.delete(id)
      }
    }
    this.create = creates
    this.release = releases
  }

  /** The frame number of the release that ended what a create record made, or null when it lived to the end. */
  releasedFrame(createRecord: number): number | null {
    const { create, release } = this
    let lo = 0
    let hi = create.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (create[mid] < createRecord) lo = mid + 1
      else hi = mid
    }
    const at = create[lo] === createRecord ? release[lo] : -1
    return at >= 0 ? this.store.frames.n[frameOfRecord(this.store.frames.firstRecord, at)] : null
  }
}

/**
 * The desc table of what a create record makes (a buffer, texture, placed or transient resource): the buffer or the
 * texture table, whose row descRowOf gives.
 */
export function descTableOf(store: CaptureStore, record: number): BufferTable | TextureTable {
  const kind = store.records.kind[record]
  if (kind === RECORD_KIND.buffer) return store.buffers
  if (kind === RECORD_KIND.texture) return store.textures
  const table = kind === RECORD_KIND.transient ? store.transients : store.placed
  return table.kind.data[store.records.ref[record]] === 0 ? store.buffers : store.textures
}

/** The row of descTableOf(store, record) that holds the desc of what a create record makes. */
export function descRowOf(store: CaptureStore, record: number): number {
  const kind = store.records.kind[record]
  const r = store.records.ref[record]
  if (kind === RECORD_KIND.buffer || kind === RECORD_KIND.texture) return r
  return (kind === RECORD_KIND.transient ? store.transients : store.placed).desc.data[r]
}

/** The id a buffer, texture or placed record creates. */
export function createdIdOf(store: CaptureStore, record: number): number {
  const kind = store.records.kind[record]
  const r = store.records.ref[record]
  if (kind === RECORD_KIND.buffer) return store.buffers.id.data[r]
  if (kind === RECORD_KIND.texture) return store.textures.id.data[r]
  return store.placed.id.data[r]
}

/** The frame index a record belongs to. */
export function frameOfRecord(firstRecord: Uint32Array, record: number): number {
  let lo = 0
  let hi = firstRecord.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (firstRecord[mid] <= record) lo = mid
    else hi = mid - 1
  }
  return lo
}
