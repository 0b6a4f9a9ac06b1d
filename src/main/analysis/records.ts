/**
 * A capture store's records as every backend reads them: the frame a record belongs to, the id a create record
 * makes, and when each resource's life ends.
 */
import { RECORD_KIND, type CaptureStore } from '../ingest/store'

/**
 * When each resource's life ends: the record index of every create (buffer, texture, placed) and of the release
 * that ends it, built in one pass when first asked, so a resource's details need no scan of the records after it.
 */
export class Lifetimes {
  private readonly create: Uint32Array
  private readonly release: Int32Array

  constructor(private readonly store: CaptureStore) {
    const { kind, ref } = store.records
    const creates: number[] = []
    const releases: number[] = []
    const live = new Map<number, number>()
    for (let i = 0; i < store.records.length; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed) {
        live.set(createdIdOf(store, i), creates.length)
        creates.push(i)
        releases.push(-1)
      } else if (k === RECORD_KIND.release) {
        const id = store.ops[ref[i]]
        const at = live.get(id)
        if (at !== undefined) {
          releases[at] = i
          live.delete(id)
        }
      }
    }
    this.create = Uint32Array.from(creates)
    this.release = Int32Array.from(releases)
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

/** The id a buffer, texture or placed record creates. */
export function createdIdOf(store: CaptureStore, record: number): number {
  const kind = store.records.kind[record]
  const r = store.records.ref[record]
  if (kind === RECORD_KIND.buffer) return store.buffers.id.data[r]
  if (kind === RECORD_KIND.texture) return store.textures.id.data[r]
  const desc = store.placed.desc.data[r]
  return store.placed.kind.data[r] === 0 ? store.buffers.id.data[desc] : store.textures.id.data[desc]
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
