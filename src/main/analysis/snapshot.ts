/**
 * Snapshots: the model's state at any frame, rebuilt from the checkpoint before it (never from frame 0), and
 * what the inspector asks of it: the live resources as a sorted, filtered table served a page at a time, pool
 * block maps, one resource's details with its route, and the frame's transient layouts. A few recent snapshots
 * are kept so scrolling a table or moving between nearby views does not replay again.
 */
import {
  type PoolMap,
  type ResourceDetails,
  type ResourceFilter,
  type ResourcePage,
  type ResourceQuery,
  type ResourceRow,
  type ResourceSortKey,
  type Snapshot,
  type TransientExecution,
} from '../../shared/ipc'
import type { BufferDesc, TextureDesc } from '../../shared/capture'
import { bufferDesc, recordAt, textureDesc } from '../ingest/records'
import { K } from '../ingest/store'
import type { D3D12Model } from '../model/d3d12/model'
import { D3D12Model as Model } from '../model/d3d12/model'
import { HEAP_TYPES, PLACEMENTS } from '../../shared/model'
import type { Replay } from './replay'

/** The columns of a ResourceTable. */
export interface ResourceColumns {
  id: Float64Array
  occupied: Float64Array
  requested: Float64Array
  offset: Float64Array
  created: Float64Array
  /** Index of the create record, -1 when unknown. */
  createRecord: Float64Array
  estimated: Uint8Array
  text: ResourceTable['text']
}

/** The live resources of a frame as columns, plus the row objects built lazily for the pages people see. */
export class ResourceTable {
  readonly length: number
  readonly id: Float64Array
  readonly occupied: Float64Array
  readonly requested: Float64Array
  readonly offset: Float64Array
  readonly created: Float64Array
  readonly createRecord: Float64Array
  readonly text: { name: string[]; tag: string[]; placement: string[]; heap: string[]; pool: (string | null)[]; kind: ('buffer' | 'texture')[] }
  readonly estimated: Uint8Array
  private readonly sorted = new Map<string, Uint32Array>()

  constructor(readonly frameNumber: number, columns: ResourceColumns) {
    this.length = columns.id.length
    this.id = columns.id
    this.occupied = columns.occupied
    this.requested = columns.requested
    this.offset = columns.offset
    this.created = columns.created
    this.createRecord = columns.createRecord
    this.estimated = columns.estimated
    this.text = columns.text
  }

  row(i: number): ResourceRow {
    return {
      id: this.id[i],
      name: this.text.name[i],
      tag: this.text.tag[i],
      kind: this.text.kind[i],
      placement: this.text.placement[i],
      heap: this.text.heap[i],
      pool: this.text.pool[i],
      offset: this.offset[i],
      occupied: this.occupied[i],
      requested: this.requested[i],
      waste: this.occupied[i] - this.requested[i],
      created: this.created[i],
      age: this.frameNumber - this.created[i],
      estimated: this.estimated[i] === 1,
    }
  }

  /** Row indices in the order of a sort key, computed once per key and direction. */
  order(key: ResourceSortKey, descending: boolean): Uint32Array {
    const cacheKey = `${key}:${descending ? 1 : 0}`
    let order = this.sorted.get(cacheKey)
    if (order) return order
    order = new Uint32Array(this.length)
    for (let i = 0; i < order.length; i++) order[i] = i
    const numeric: Record<string, Float64Array | undefined> = {
      id: this.id,
      offset: this.offset,
      occupied: this.occupied,
      requested: this.requested,
      created: this.created,
    }
    let compare: (a: number, b: number) => number
    if (key === 'waste') compare = (a, b) => this.occupied[a] - this.requested[a] - (this.occupied[b] - this.requested[b])
    else if (key === 'age') compare = (a, b) => this.created[b] - this.created[a]
    else if (numeric[key]) {
      const column = numeric[key]
      compare = (a, b) => column[a] - column[b]
    } else {
      const column = this.text[key as 'name' | 'tag' | 'placement' | 'heap' | 'pool' | 'kind']
      compare = (a, b) => {
        const x = column[a] ?? ''
        const y = column[b] ?? ''
        return x < y ? -1 : x > y ? 1 : 0
      }
    }
    const sign = descending ? -1 : 1
    // ties broken by id so pages are stable
    order.sort((a, b) => sign * compare(a, b) || this.id[a] - this.id[b])
    this.sorted.set(cacheKey, order)
    return order
  }

  matches(i: number, filter: ResourceFilter | undefined, needle: string): boolean {
    if (!filter) return true
    if (filter.placement?.length && !filter.placement.includes(this.text.placement[i])) return false
    if (filter.heap?.length && !filter.heap.includes(this.text.heap[i])) return false
    if (filter.tag?.length && !filter.tag.includes(this.text.tag[i])) return false
    if (needle && !this.text.name[i].toLowerCase().includes(needle)) return false
    return true
  }
}

export interface SnapshotState {
  frame: number
  model: D3D12Model
  /** Live id → index of its create record. */
  created: Map<number, number>
  table: ResourceTable
  transients: TransientExecution[]
}

const CACHE_SIZE = 4

export class Snapshots {
  private readonly cache: SnapshotState[] = []

  constructor(private readonly replay: Replay) {}

  /** The state at the end of frame index `frame`, from the cache or the checkpoint before it. */
  state(frame: number): SnapshotState {
    const store = this.replay.store
    const target = Math.max(0, Math.min(store.frames.length - 1, Math.floor(frame)))
    const hit = this.cache.findIndex((s) => s.frame === target)
    if (hit >= 0) {
      const [state] = this.cache.splice(hit, 1)
      this.cache.unshift(state)
      return state
    }
    const transients: TransientExecution[] = []
    const { model, created } = this.replay.modelAt(target, (layout) => transients.push(layout))
    const frameNumber = store.frames.n[target]
    const state: SnapshotState = { frame: target, model, created, table: this.tableOf(model, created, frameNumber), transients }
    this.cache.unshift(state)
    if (this.cache.length > CACHE_SIZE) this.cache.pop()
    return state
  }

  /** The live resources as columns, straight from the model's table, with names and tags from the records. */
  private tableOf(model: D3D12Model, created: Map<number, number>, frameNumber: number): ResourceTable {
    const store = this.replay.store
    const descs = this.replay.descs
    const live = model.liveTable()
    const n = live.length
    const createRecord = new Float64Array(n)
    const text: ResourceTable['text'] = {
      name: new Array<string>(n),
      tag: new Array<string>(n),
      placement: new Array<string>(n),
      heap: new Array<string>(n),
      pool: live.poolName,
      kind: new Array<'buffer' | 'texture'>(n),
    }
    for (let i = 0; i < n; i++) {
      const record = created.get(live.id[i]) ?? -1
      createRecord[i] = record
      let name = ''
      let tag = ''
      if (record >= 0) {
        const ref = store.records.ref[record]
        const names = store.records.kind[record] === K.texture ? store.textures : store.buffers
        name = descs.string(names.name.data[ref]) ?? ''
        tag = descs.string(names.tag.data[ref]) ?? ''
      }
      text.name[i] = name
      text.tag[i] = tag
      text.placement[i] = PLACEMENTS[live.placement[i]]
      text.heap[i] = HEAP_TYPES[live.heap[i]]
      text.kind[i] = live.texture[i] === 1 ? 'texture' : 'buffer'
    }
    return new ResourceTable(frameNumber, {
      id: live.id,
      occupied: live.size,
      requested: live.requested,
      offset: live.offset,
      created: live.created,
      createRecord,
      estimated: live.estimated,
      text,
    })
  }

  snapshot(runId: string, frame: number): Snapshot {
    const s = this.state(frame)
    const pools: PoolMap[] = s.model.poolBlocks().map((p) => ({
      pool: p.pool,
      name: p.name,
      placement: p.row,
      heap: p.heap,
      bytes: p.bytes,
      used: p.used,
      pending: p.pending,
      free: p.free,
      spare: p.spare,
      offset: p.offset,
      size: p.size,
      // The model's block codes are BLOCK_STATE's: 0 free, 1 used, 2 pending.
      state: p.state,
      id: p.id,
    }))
    const totals = s.model.residencyManager().totals()
    return {
      runId,
      frame: s.frame,
      frameNumber: this.replay.store.frames.n[s.frame],
      liveCount: s.table.length,
      pools,
      residency: {
        residentBytes: totals.residentBytes,
        budgetBytes: Math.min(totals.budget, Number.MAX_SAFE_INTEGER),
        objects: totals.objects,
        residentObjects: totals.residentObjects,
      },
      graphs: s.transients.length,
    }
  }

  resources(query: ResourceQuery): ResourcePage {
    const s = this.state(query.frame)
    const table = s.table
    const order = table.order(query.sort ?? 'id', query.descending ?? false)
    const needle = (query.filter?.name ?? '').toLowerCase()
    const offset = Math.max(0, Math.floor(query.offset))
    const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
    const rows: ResourceRow[] = []
    let total = 0
    for (let k = 0; k < order.length; k++) {
      const i = order[k]
      if (!table.matches(i, query.filter, needle)) continue
      if (total >= offset && rows.length < limit) rows.push(table.row(i))
      total++
    }
    const facet = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort()
    return {
      runId: query.runId,
      frame: s.frame,
      total,
      offset,
      rows,
      facets: { placement: facet(table.text.placement), heap: facet(table.text.heap), tag: facet(table.text.tag) },
    }
  }

  details(runId: string, frame: number, id: number): ResourceDetails | null {
    const s = this.state(frame)
    let index = -1
    for (let i = 0; i < s.table.length; i++) {
      if (s.table.id[i] === id) {
        index = i
        break
      }
    }
    if (index < 0) return null
    const store = this.replay.store
    const record = s.table.createRecord[index]
    const desc = record >= 0 ? (recordAt(store, record) as unknown as Record<string, unknown>) : {}
    // the release that ends this resource's life, if any
    let releasedFrame: number | null = null
    if (record >= 0) {
      for (let i = record + 1; i < store.records.length; i++) {
        if (store.records.kind[i] === K.release && store.ops[store.records.ref[i]] === id) {
          releasedFrame = store.frames.n[frameOfRecord(store.frames.firstRecord, i)]
          break
        }
      }
    }
    return {
      runId,
      frame: s.frame,
      row: s.table.row(index),
      desc,
      releasedFrame,
      route: record >= 0 ? this.route(record) : [],
      residencyObject: null,
    }
  }

  /** The ladder a create record goes down: the route depends on the desc and the config, not on pool state. */
  private route(record: number): string[] {
    const store = this.replay.store
    const model = new Model(this.replay.config, { adapter: store.header.adapter })
    const kind = store.records.kind[record]
    const ref = store.records.ref[record]
    const placement =
      kind === K.texture
        ? model.createTexture(store.textures.id.data[ref], textureDesc(store, ref) as TextureDesc)
        : model.createBuffer(store.buffers.id.data[ref], bufferDesc(store, ref) as BufferDesc)
    return placement.route
  }

  transients(frame: number): TransientExecution[] {
    return this.state(frame).transients
  }

  table(frame: number): ResourceTable {
    return this.state(frame).table
  }
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
