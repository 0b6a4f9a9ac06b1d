/**
 * Snapshots of an observed run: the trace's live heaps and the resources placed in them at any frame, from the
 * checkpoint before it, in the shapes every run answers with. Each heap is a pool map (its placed resources as used
 * ranges, the gaps free; resources that alias share bytes, so blocks may overlap), named by the trace or by its
 * memory and id; the resource table's placement is "Observed", its heap the memory kind, its pool the heap.
 */
import type { ResourceDetails, Snapshot, PoolMap } from '../../../shared/ipc'
import { recordAt } from '../../ingest/records'
import { frameEnd } from '../../ingest/store'
import { CaptureNames } from '../names'
import { frameOfRecord } from '../records'
import { ResourceTable } from '../resourceTable'
import { CachedSnapshots } from '../snapshotCache'
import { RESIDENCY_SERIES } from '../../../shared/series'
import { OBSERVED_PLACEMENT, type ObservedHeap, type ObservedReplay, type ObservedState } from './replay'

export interface ObservedSnapshotState extends ObservedState {
  table: ResourceTable
}

export class ObservedSnapshots extends CachedSnapshots<ObservedSnapshotState> {
  private names: CaptureNames | undefined

  constructor(private readonly replay: ObservedReplay) {
    super(replay.store)
  }

  protected build(target: number): ObservedSnapshotState {
    const live = this.replay.stateAt(target)
    return { ...live, table: this.tableOf(live) }
  }

  /** A heap as pools and rows name it: the trace's name, else its memory and id. */
  heapName(heap: ObservedHeap): string {
    const store = this.replay.store
    const name = store.strings.get(store.ops[store.records.ref[heap.record] + 3])
    return name ?? `${this.replay.memories[heap.memory]}/${heap.id}`
  }

  captureNames(): CaptureNames {
    this.names ??= new CaptureNames(this.replay.store)
    return this.names
  }

  /** A resource's row fields that come from its `placed` record: name (the latest `name` record first), tag, kind. */
  describe(record: number, id: number, end: number): { name: string; tag: string; kind: 'buffer' | 'texture' } {
    const store = this.replay.store
    const r = store.records.ref[record]
    const texture = store.placed.kind.data[r] === 1
    const row = store.placed.desc.data[r]
    const table = texture ? store.textures : store.buffers
    const names = this.captureNames()
    return {
      name: (names.empty ? undefined : names.resource(id, record, end)) ?? store.strings.get(table.name.data[row]) ?? '',
      tag: store.strings.get(table.tag.data[row]) ?? '',
      kind: texture ? 'texture' : 'buffer',
    }
  }

  private tableOf(state: ObservedState): ResourceTable {
    const store = this.replay.store
    const live = [...state.placed.values()]
    const n = live.length
    const id = new Float64Array(n)
    const occupied = new Float64Array(n)
    const offset = new Float64Array(n)
    const created = new Float64Array(n)
    const createRecord = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const p = live[i]
      id[i] = p.id
      occupied[i] = p.size
      offset[i] = p.offset
      createRecord[i] = p.record
      created[i] = store.frames.n[frameOfRecord(store.frames.firstRecord, p.record)]
    }
    const end = frameEnd(store, state.frame)
    return new ResourceTable(store.frames.n[state.frame], {
      id,
      occupied,
      // the trace says what each resource holds, not what was asked: no waste to show
      requested: occupied,
      offset,
      created,
      createRecord,
      estimated: new Uint8Array(n),
      text: () => {
        const text: ResourceTable['text'] = { name: [], tag: [], placement: [], heap: [], pool: [], kind: [] }
        for (const p of live) {
          const d = this.describe(p.record, p.id, end)
          const heap = state.heaps.get(p.heap)
          text.name.push(d.name)
          text.tag.push(d.tag)
          text.kind.push(d.kind)
          text.placement.push(OBSERVED_PLACEMENT)
          text.heap.push(heap ? this.replay.memories[heap.memory] : '')
          text.pool.push(heap ? this.heapName(heap) : null)
        }
        return text
      },
    })
  }

  snapshot(runId: string, frame: number): Snapshot {
    const s = this.state(frame)
    const byHeap = new Map<number, { offset: number; size: number; id: number }[]>()
    for (const p of s.placed.values()) {
      let list = byHeap.get(p.heap)
      if (!list) byHeap.set(p.heap, (list = []))
      list.push({ offset: p.offset, size: p.size, id: p.id })
    }
    const pools: PoolMap[] = [...s.heaps.values()].map((heap) => {
      const blocks = (byHeap.get(heap.id) ?? []).sort((a, b) => a.offset - b.offset)
      const offsets: number[] = []
      const sizes: number[] = []
      const states: number[] = []
      const ids: number[] = []
      let cursor = 0
      let used = 0
      const block = (offset: number, size: number, state: number, id: number) => {
        offsets.push(offset)
        sizes.push(size)
        states.push(state)
        ids.push(id)
      }
      for (const b of blocks) {
        if (b.offset > cursor) block(cursor, b.offset - cursor, 0, NaN)
        // bytes two resources share count once
        used += Math.max(0, Math.min(heap.size, b.offset + b.size) - Math.max(cursor, b.offset))
        block(b.offset, b.size, 1, b.id)
        cursor = Math.max(cursor, b.offset + b.size)
      }
      if (cursor < heap.size) block(cursor, heap.size - cursor, 0, NaN)
      return {
        pool: heap.id,
        name: this.heapName(heap),
        placement: OBSERVED_PLACEMENT,
        heap: this.replay.memories[heap.memory],
        bytes: heap.size,
        used,
        pending: 0,
        free: heap.size - used,
        spare: false,
        offset: Float64Array.from(offsets),
        size: Float64Array.from(sizes),
        state: Uint8Array.from(states),
        id: Float64Array.from(ids),
        heapId: heap.id,
      }
    })
    const store = this.replay.store
    return {
      runId,
      frame: s.frame,
      frameNumber: store.frames.n[s.frame],
      liveCount: s.table.length,
      pools,
      residency: {
        residentBytes: this.replay.series.get(RESIDENCY_SERIES.resident)?.[s.frame] ?? 0,
        budgetBytes: typeof store.header.budget === 'number' ? store.header.budget : 0,
        objects: s.heaps.size,
        residentObjects: s.resident.size,
      },
      graphs: 0,
    }
  }

  details(runId: string, frame: number, id: number): ResourceDetails | null {
    const s = this.state(frame)
    const index = s.table.id.indexOf(id)
    const placed = s.placed.get(id)
    if (index < 0 || !placed) return null
    const store = this.replay.store
    const heap = s.heaps.get(placed.heap)
    const where = heap ? `heap ${this.heapName(heap)} (${this.replay.memories[heap.memory]}, ${heap.size} bytes)` : `heap ${placed.heap}`
    return {
      runId,
      frame: s.frame,
      row: s.table.row(index),
      desc: recordAt(store, placed.record) as unknown as Record<string, unknown>,
      releasedFrame: this.replay.releasedFrame(placed.record),
      route: [`placed by the trace in ${where} at offset ${placed.offset}: observed, no model chose it`],
      residency: null,
    }
  }
}
