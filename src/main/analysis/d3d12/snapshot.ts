/**
 * Snapshots: the model's state at any frame, rebuilt from the checkpoint before it (never from frame 0), and
 * what the inspector asks of it: the live resources as a sorted, filtered table served a page at a time, pool
 * block maps, one resource's details with its route, and the frame's transient layouts. A few recent snapshots
 * are kept so scrolling a table or moving between nearby views does not replay again.
 */
import {
  BLOCK_STATE,
  type PoolMap,
  type ResidencyDetails,
  type ResourceDetails,
  type Snapshot,
  type TransientExecution,
} from '../../../shared/ipc'
import type { BufferDesc, TextureDesc } from '../../../shared/capture'
import { bufferDesc, textureDesc } from '../../ingest/records'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import type { D3D12Model } from '../../model/d3d12/model'
import { livePoolName } from '../../model/d3d12/views'
import { D3D12Model as Model } from '../../model/d3d12/model'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { ResidencyObjectInfo } from '../../model/d3d12/residency'
import type { LiveCreates, Replay } from './replay'
import type { Column } from '../../model/d3d12/rowCopy'
import { createdIdOf, frameOfRecord } from '../records'
import { distinct, ResourceTable } from '../resourceTable'
import { CachedSnapshots, withoutBlocks } from '../snapshotCache'

export interface SnapshotState {
  frame: number
  model: D3D12Model
  /** Live id → index of its create record. */
  readonly created: Map<number, number>
  /** The same live creates, by id and by the model's slot, each made when first read. */
  live: LiveCreates
  /** The live resources (the model's, then those placed in application heaps), built when first read. */
  readonly table: ResourceTable
  /** Columns of the table no one else holds, once it is built: they go back with the model's when it is let go. */
  owned: Column[]
  /** The frame's transient layouts; the last frame's are rebuilt when first read (see Snapshots.build). */
  readonly transients: TransientExecution[]
  /** How many render graphs the frame executed: its transient layouts, counted without building them. */
  graphs: number
  /** The model is the replay's own final model (Replay.finalState): read, never given back. */
  final: boolean
  /** Application heaps (manual heaps, imported dumps, driver allocations of a trace) and what is placed in them. */
  heaps: ApplicationHeap[]
}

/** An application-created heap at a frame, with the resources placed in it. */
export interface ApplicationHeap {
  id: number
  size: number
  /** Index in HEAP_KINDS: default, upload, readback. */
  type: number
  name: string
  /** Index of the `heap` record. */
  record: number
  /** Placed resources: their `placed` record indices, in creation order. */
  placed: number[]
}

const HEAP_NAMES = ['DEFAULT', 'UPLOAD', 'READBACK'] as const
/** The placement a resource the application placed in its own heap shows in tables. */
export const APPLICATION_PLACEMENT = 'ApplicationHeap'

/**
 * Application heaps and their placed resources alive at the end of record `end`, from the records before it. The
 * model does not hold them: an index of every heap and placed record, with the record that ended each, is made from
 * the records once (and extended as a followed capture grows), and a snapshot reads it. Only captures that have heap
 * records pay for it.
 */
export function applicationHeapsAt(replay: Replay, end: number): ApplicationHeap[] {
  let index = heapIndexes.get(replay)
  if (!index) heapIndexes.set(replay, (index = new ApplicationHeapIndex(replay)))
  return index.at(end)
}

const heapIndexes = new WeakMap<Replay, ApplicationHeapIndex>()

/** One `heap` record's heap: its placed records, and the record that ended each (Infinity: none yet). */
interface IndexedHeap {
  heap: Omit<ApplicationHeap, 'placed'>
  /** The record that freed the heap, or made another under its id (Infinity: none yet). */
  ended: number
  /** Where the heap stands among those alive: a heap made under an id already alive takes its place. */
  position: number
  placed: number[]
  placedEnded: number[]
  /** Its placed records' places in `placed`, by id: a release ends every one of its id in the heap it was last placed in. */
  byId: Map<number, number[]>
}

/**
 * The heaps and placed resources of a replay's records, as one pass over them gives them: what a scan to any record
 * would find, read from here at the cost of the heaps and their placed records instead of every record before.
 */
class ApplicationHeapIndex {
  private readonly heaps: IndexedHeap[] = []
  /** By heap id, the heap alive under it; by placed id, the heap it was last placed in. */
  private readonly current = new Map<number, IndexedHeap>()
  private readonly placedIn = new Map<number, IndexedHeap>()
  private positions = 0
  private scanned = 0

  constructor(private readonly replay: Replay) {}

  at(end: number): ApplicationHeap[] {
    this.scan(end)
    const alive = this.heaps.filter((h) => h.heap.record < end && h.ended >= end).sort((a, b) => a.position - b.position)
    return alive.map((h) => {
      const placed: number[] = []
      for (let k = 0; k < h.placed.length && h.placed[k] < end; k++) if (h.placedEnded[k] >= end) placed.push(h.placed[k])
      return { ...h.heap, placed }
    })
  }

  private scan(end: number): void {
    const store = this.replay.store
    const { kind, ref } = store.records
    const ops = store.ops
    for (let i = this.scanned; i < end; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.heap) {
        const r = ref[i]
        const id = ops[r]
        const before = this.current.get(id)
        if (before) before.ended = i
        const heap = { id, size: ops[r + 1], type: ops[r + 2], name: store.strings.get(ops[r + 3]) ?? '', record: i }
        const indexed: IndexedHeap = { heap, ended: Infinity, position: before ? before.position : this.positions++, placed: [], placedEnded: [], byId: new Map() }
        this.heaps.push(indexed)
        this.current.set(id, indexed)
      } else if (k === RECORD_KIND.free && this.current.has(ops[ref[i]])) {
        // a heap, and what is placed in it with it (a free of a placed resource ends it as a release does, below)
        const id = ops[ref[i]]
        this.current.get(id)!.ended = i
        this.current.delete(id)
      } else if (k === RECORD_KIND.placed) {
        const heap = this.current.get(store.placed.a.data[ref[i]])
        if (!heap) continue
        const id = placedId(this.replay, i)
        const at = heap.placed.push(i) - 1
        heap.placedEnded.push(Infinity)
        const places = heap.byId.get(id)
        if (places) places.push(at)
        else heap.byId.set(id, [at])
        this.placedIn.set(id, heap)
      } else if (k === RECORD_KIND.release || k === RECORD_KIND.free) {
        const id = ops[ref[i]]
        const heap = this.placedIn.get(id)
        if (!heap) continue
        this.placedIn.delete(id)
        for (const at of heap.byId.get(id) ?? []) heap.placedEnded[at] = i
        heap.byId.delete(id)
      }
    }
    this.scanned = Math.max(this.scanned, end)
  }
}

function placedId(replay: Replay, record: number): number {
  return createdIdOf(replay.store, record)
}


/** Per store, how many records were looked at for `heap` records and whether one was found (a followed store grows). */
const heapRecordsSeen = new WeakMap<CaptureStore, { records: number; found: boolean }>()

/** Whether the store has `heap` records (application heaps): looked for once per store, then in what it gained. */
function hasHeapRecords(store: CaptureStore): boolean {
  const seen = heapRecordsSeen.get(store) ?? { records: 0, found: false }
  const kinds = store.records.kind
  for (let i = seen.records; i < kinds.length && !seen.found; i++) if (kinds[i] === RECORD_KIND.heap) seen.found = true
  seen.records = kinds.length
  heapRecordsSeen.set(store, seen)
  return seen.found
}

/** The codes whose flag is set, ascending. */
function codesSet(flags: Uint8Array): number[] {
  const out: number[] = []
  for (let code = 0; code < flags.length; code++) if (flags[code] === 1) out.push(code)
  return out
}

/** Flags by string id, kept between calls: liveTagIds marks a tag when first met and clears what it marked. */
let tagSeen = new Uint8Array(0)

/**
 * The distinct tags (string ids) of the first `rows` create records (-1: none), in the order first met. Each is
 * marked in flags by its id, not added to a set row by row: the rows' tags are a few, each met thousands of times.
 */
export function liveTagIds(store: CaptureStore, createRecord: Float64Array, rows: number): number[] {
  const kinds = store.records.kind
  const refs = store.records.ref
  const textureTags = store.textures.tag.data
  const bufferTags = store.buffers.tag.data
  // Tags are string ids, below the table's size; one past it (never in a store as the load makes it) still counts.
  const strings = store.strings.size
  if (tagSeen.length < strings) tagSeen = new Uint8Array(Math.max(strings, 2 * tagSeen.length))
  const seen = tagSeen
  const found: number[] = []
  const beyond = new Set<number>()
  for (let i = 0; i < rows; i++) {
    const record = createRecord[i]
    if (record < 0) continue
    const ref = refs[record]
    const tag = kinds[record] === RECORD_KIND.texture ? textureTags[ref] : bufferTags[ref]
    if (tag < strings) {
      if (seen[tag] === 0) {
        seen[tag] = 1
        found.push(tag)
      }
    } else if (!beyond.has(tag)) {
      beyond.add(tag)
      found.push(tag)
    }
  }
  for (const tag of found) if (tag < strings) seen[tag] = 0
  return found
}

export class Snapshots extends CachedSnapshots<SnapshotState> {
  constructor(private readonly replay: Replay) {
    super(replay.store)
  }

  /** Its model's tables and its table's columns go back to the replay, for the next state to be written into. */
  protected override dropped(state: SnapshotState): void {
    this.replay.recycled.give(state.final ? state.owned : [...state.model.letGoTables(), ...state.owned])
    state.owned = []
  }

  /**
   * The state at the end of frame index `target`: from the checkpoint before it, or a nearer cached state. The last
   * frame's is read from the model the replay ended with (Replay.finalState), the frame a leak is first looked at,
   * answered without a replay: that model is the replay's, only read and never given back. The replay keeps no
   * transient layout, so the last frame's are rebuilt from its checkpoint when first read (the aliasing view); a
   * snapshot counts them from the replay's graph table.
   */
  protected build(target: number): SnapshotState {
    const final = target === this.replay.store.frames.length - 1 ? this.replay.finalState() : undefined
    if (final) {
      const graphs = this.replay.graphs.executionsIn(target)
      return this.stateOf(target, final.model, final.live, () => this.transientsAt(target), graphs, true)
    }
    const transients: TransientExecution[] = []
    const { model, live } = this.replay.stateAt(target, (layout) => transients.push(layout), this.cache.states)
    return this.stateOf(target, model, live, () => transients, transients.length, false)
  }

  /** A state of `model` after frame index `target`: its table and its transient layouts made when first read. */
  private stateOf(
    target: number,
    model: D3D12Model,
    live: LiveCreates,
    transientsOf: () => TransientExecution[],
    graphs: number,
    final: boolean,
  ): SnapshotState {
    const store = this.replay.store
    const heaps = hasHeapRecords(store) ? applicationHeapsAt(this.replay, frameEnd(store, target)) : []
    // The table when first read (a page, a sort, a resource's details): a snapshot itself needs only its length.
    let table: ResourceTable | undefined
    let transients: TransientExecution[] | undefined
    const owned: Column[] = []
    const tableOf = () => this.tableOf(model, live, store.frames.n[target], heaps, owned)
    return {
      frame: target,
      model,
      live,
      owned,
      final,
      // Made into a map when first read: a snapshot itself reads only the model.
      get created() {
        return live.map
      },
      get table() {
        return (table ??= tableOf())
      },
      get transients() {
        return (transients ??= transientsOf())
      },
      graphs,
      heaps,
    }
  }

  /** Frame index `target`'s transient layouts, from a replay of the frame on a copy whose tables then go back. */
  private transientsAt(target: number): TransientExecution[] {
    const transients: TransientExecution[] = []
    const { model } = this.replay.stateAt(target, (layout) => transients.push(layout), this.cache.states)
    this.replay.recycled.give(model.letGoTables())
    return transients
  }

  /** The live resources as columns, straight from the model's table, with names and tags from the records. */
  private tableOf(model: D3D12Model, creates: LiveCreates, frameNumber: number, heaps: ApplicationHeap[], owned: Column[]): ResourceTable {
    const store = this.replay.store
    const descs = this.replay.descs
    const pool = this.replay.recycled
    const live = model.liveTable(pool)
    const modelRows = live.length
    let n = modelRows
    for (const heap of heaps) n += heap.placed.length
    const createRecord = pool.column('f64', n) as Float64Array<ArrayBuffer>
    createRecord.fill(0, modelRows)
    // A row's create record by its slot: no map by id is built.
    const bySlot = creates.bySlot
    for (let i = 0; i < modelRows; i++) {
      const slot = live.slot[i]
      createRecord[i] = slot < bySlot.length ? bySlot[slot] : -1
    }
    // One model row's name or tag, from its create record.
    const descText = (i: number, field: 'name' | 'tag'): string => {
      const record = createRecord[i]
      if (record < 0) return ''
      const descsOfKind = store.records.kind[record] === RECORD_KIND.texture ? store.textures : store.buffers
      return descs.string(descsOfKind[field].data[store.records.ref[record]]) ?? ''
    }
    const nameOf = (i: number): string => descText(i, 'name')
    const tagOf = (i: number): string => descText(i, 'tag')
    // The model's rows' text, built when a sort or a filter first reads it; heap rows fill theirs below.
    const text = (): ResourceTable['text'] => {
      const t: ResourceTable['text'] = {
        name: new Array<string>(n),
        tag: new Array<string>(n),
        placement: new Array<string>(n),
        heap: new Array<string>(n),
        pool: Array.from({ length: n }, (_, i) => (i < modelRows ? livePoolName(live, i) : null)),
        kind: new Array<'buffer' | 'texture'>(n),
      }
      for (let i = 0; i < modelRows; i++) {
        t.name[i] = nameOf(i)
        t.tag[i] = tagOf(i)
        t.placement[i] = PLACEMENTS[live.placement[i]]
        t.heap[i] = HEAP_TYPES[live.heap[i]]
        t.kind[i] = live.texture[i] === 1 ? 'texture' : 'buffer'
      }
      return t
    }
    if (modelRows === n) {
      // The table and its closures hold these, and nothing else does.
      const held = [live.id, live.size, live.requested, live.offset, live.created, live.estimated, live.virtual]
      owned.push(...([...held, live.texture, live.placement, live.heap, live.pool, live.slot, createRecord] as Column[]))
      return new ResourceTable(frameNumber, {
        id: live.id,
        occupied: live.size,
        requested: live.requested,
        offset: live.offset,
        created: live.created,
        createRecord,
        estimated: live.estimated,
        virtual: live.virtual,
        text,
        // A first page reads 100 rows' text and the facets: from the rows' codes and tag numbers, not every row's text.
        rowText: (i) => ({
          name: nameOf(i),
          tag: tagOf(i),
          placement: PLACEMENTS[live.placement[i]],
          heap: HEAP_TYPES[live.heap[i]],
          pool: livePoolName(live, i),
          kind: live.texture[i] === 1 ? 'texture' : 'buffer',
        }),
        facets: () => {
          // Placements and heaps are codes below 256: marked in flags, not added to sets row by row.
          const placements = new Uint8Array(256)
          const heaps = new Uint8Array(256)
          for (let i = 0; i < modelRows; i++) {
            placements[live.placement[i]] = 1
            heaps[live.heap[i]] = 1
          }
          return {
            placement: distinct(codesSet(placements).map((p) => PLACEMENTS[p])),
            heap: distinct(codesSet(heaps).map((h) => HEAP_TYPES[h])),
            tag: distinct(liveTagIds(store, createRecord, modelRows).map((tag) => descs.string(tag) ?? '')),
          }
        },
      })
    }
    // Resources the application placed in its own heaps: their size and offset are the capture's.
    const grow = (column: Float64Array) => {
      const out = new Float64Array(n)
      out.set(column.subarray(0, modelRows))
      return out
    }
    const id = grow(live.id)
    const occupied = grow(live.size)
    const requested = grow(live.requested)
    const offset = grow(live.offset)
    const createdFrame = grow(live.created)
    const estimated = new Uint8Array(n)
    estimated.set(live.estimated.subarray(0, modelRows))
    const firstRecord = store.frames.firstRecord
    // Only captures with heap records get here: their text is built at once.
    const columns = text()
    let row = modelRows
    for (const heap of heaps) {
      const poolName = heap.name || `heap ${heap.id}`
      for (const record of heap.placed) {
        const r = store.records.ref[record]
        const desc = store.placed.desc.data[r]
        const isBuffer = store.placed.kind.data[r] === 0
        const names = isBuffer ? store.buffers : store.textures
        const size = isBuffer ? store.buffers.size.data[desc] : store.textures.size.data[desc]
        id[row] = store.placed.id.data[r]
        occupied[row] = Number.isNaN(size) ? 0 : size
        requested[row] = occupied[row]
        offset[row] = store.placed.b.data[r]
        createdFrame[row] = store.frames.n[frameOfRecord(firstRecord, record)]
        estimated[row] = Number.isNaN(size) ? 1 : 0
        createRecord[row] = record
        columns.name[row] = descs.string(names.name.data[desc]) ?? ''
        columns.tag[row] = descs.string(names.tag.data[desc]) ?? ''
        columns.placement[row] = APPLICATION_PLACEMENT
        columns.heap[row] = HEAP_NAMES[heap.type] ?? 'DEFAULT'
        columns.pool[row] = poolName
        columns.kind[row] = isBuffer ? 'buffer' : 'texture'
        row++
      }
    }
    return new ResourceTable(frameNumber, {
      id,
      occupied,
      requested,
      offset,
      created: createdFrame,
      createRecord,
      estimated,
      virtual: grow(live.virtual),
      text: columns,
    })
  }

  snapshot(runId: string, frame: number, blocks = true): Snapshot {
    const s = this.state(frame)
    // Without blocks, the model lists its pools' figures alone; an application heap's are worked out from its blocks.
    const pools: PoolMap[] = s.model.poolBlocks(blocks).map((p) => ({
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
    for (const heap of s.heaps) pools.push(blocks ? this.applicationPool(heap) : withoutBlocks(this.applicationPool(heap)))
    const totals = s.model.residencyManager().totals()
    return {
      ...(blocks ? {} : { blocksLeftOut: true }),
      runId,
      frame: s.frame,
      frameNumber: this.replay.store.frames.n[s.frame],
      liveCount: s.model.liveCount() + s.heaps.reduce((n, heap) => n + heap.placed.length, 0),
      pools,
      residency: {
        residentBytes: totals.residentBytes,
        budgetBytes: Math.min(totals.budget, Number.MAX_SAFE_INTEGER),
        objects: totals.objects,
        residentObjects: totals.residentObjects,
      },
      graphs: s.graphs,
    }
  }

  /** An application heap as a block map: its placed resources by offset (they may overlap: aliasing), gaps free. */
  private applicationPool(heap: ApplicationHeap): PoolMap {
    const store = this.replay.store
    const placed = heap.placed
      .map((record) => {
        const r = store.records.ref[record]
        const desc = store.placed.desc.data[r]
        const isBuffer = store.placed.kind.data[r] === 0
        const size = isBuffer ? store.buffers.size.data[desc] : store.textures.size.data[desc]
        return { offset: store.placed.b.data[r], size: Number.isNaN(size) ? 0 : size, id: placedId(this.replay, record) }
      })
      .sort((a, b) => a.offset - b.offset || a.id - b.id)
    const offset: number[] = []
    const size: number[] = []
    const state: number[] = []
    const id: number[] = []
    let end = 0
    let used = 0
    for (const p of placed) {
      if (p.offset > end) {
        offset.push(end)
        size.push(p.offset - end)
        state.push(BLOCK_STATE.free)
        id.push(NaN)
      }
      offset.push(p.offset)
      size.push(p.size)
      state.push(BLOCK_STATE.used)
      id.push(p.id)
      used += Math.max(0, p.offset + p.size - Math.max(end, p.offset))
      end = Math.max(end, p.offset + p.size)
    }
    if (end < heap.size) {
      offset.push(end)
      size.push(heap.size - end)
      state.push(BLOCK_STATE.free)
      id.push(NaN)
    }
    return {
      pool: -1 - heap.id,
      name: heap.name || `heap ${heap.id}`,
      placement: APPLICATION_PLACEMENT,
      heap: HEAP_NAMES[heap.type] ?? 'DEFAULT',
      bytes: heap.size,
      used,
      pending: 0,
      free: Math.max(0, heap.size - used),
      spare: false,
      offset: Float64Array.from(offset),
      size: Float64Array.from(size),
      state: Uint8Array.from(state),
      id: Float64Array.from(id),
      heapId: heap.id,
    }
  }

  details(runId: string, frame: number, id: number): ResourceDetails | null {
    const live = this.liveResource(frame, id)
    if (!live) return null
    const { state: s, index, record, desc, releasedFrame } = live
    const store = this.replay.store
    const placedByApplication = record >= 0 && store.records.kind[record] === RECORD_KIND.placed
    return {
      runId,
      frame: s.frame,
      row: s.table.row(index),
      desc,
      releasedFrame,
      route:
        record < 0
          ? []
          : placedByApplication
            ? [`placed by the application in heap ${store.placed.a.data[store.records.ref[record]]} at offset ${store.placed.b.data[store.records.ref[record]]}`]
            : this.route(record),
      residency: residencyDetails(s.model.residencyOf(id)),
    }
  }

  /** The ladder a create record goes down: the route depends on the desc and the config, not on pool state. */
  private route(record: number): string[] {
    const store = this.replay.store
    const model = new Model(this.replay.config, { adapter: store.header.adapter })
    const kind = store.records.kind[record]
    const ref = store.records.ref[record]
    const placement =
      kind === RECORD_KIND.texture
        ? model.createTexture(store.textures.id.data[ref], textureDesc(store, ref) as TextureDesc)
        : model.createBuffer(store.buffers.id.data[ref], bufferDesc(store, ref) as BufferDesc)
    return placement.route
  }

  transients(frame: number): TransientExecution[] {
    return this.state(frame).transients
  }
}

/** What the details show of a residency object; null where the model manages none (residency off, upload memory). */
function residencyDetails(info: ResidencyObjectInfo | undefined): ResidencyDetails | null {
  if (!info) return null
  const { object, label, bytes, priority, resident, lastUsedFrame } = info
  return { object, label, bytes, priority, resident, lastUsedFrame }
}
