/**
 * Playback: frame after frame at the rate the renderer asks, each message the changes since the previous one
 * it received. Time advances at `fps` whatever the renderer does; a frame is sent only once the previous one is
 * acknowledged, so a slow renderer gets fewer, larger steps (frames skipped), never a growing queue.
 */
import { HEAP_TYPES } from '../../../shared/model'
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../../shared/ipc'
import { frameEnd, RECORD_KIND } from '../../ingest/store'
import type { D3D12Model } from '../../model/d3d12/model'
import { MAX_CREATED_ROWS, PlaybackClock } from '../playbackClock'
import { applyRecord, type Replay } from './replay'

const FIELDS = 6

export class Playback extends PlaybackClock {
  private readonly model: D3D12Model
  private readonly created: Map<number, number>

  constructor(
    private readonly replay: Replay,
    request: PlaybackRequest,
    send: (frame: PlaybackFrame) => void,
    onEnd: () => void,
  ) {
    super(replay.store.frames.length, request, send, onEnd)
    const state = replay.modelAt(this.applied)
    this.model = state.model
    this.created = state.created
  }

  protected advanceTo(frame: number): void {
    const store = this.replay.store
    for (let f = this.applied + 1; f <= frame; f++) {
      const start = store.frames.firstRecord[f]
      const end = frameEnd(store, f)
      for (let i = start; i < end; i++) {
        const k = store.records.kind[i]
        if (k === RECORD_KIND.heap || k === RECORD_KIND.free || k === RECORD_KIND.placed) continue
        if (k === RECORD_KIND.release) {
          const id = store.ops[store.records.ref[i]]
          this.created.delete(id)
          this.released(id)
        }
        applyRecord(store, this.model, i, this.replay.descs)
        if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture) {
          const table = k === RECORD_KIND.buffer ? store.buffers : store.textures
          const id = table.id.data[store.records.ref[i]]
          this.created.set(id, i)
          this.pendingCreated.add(id)
        }
      }
      this.model.finishFrame()
    }
    this.applied = frame
  }

  protected message(): PlaybackFrame {
    const store = this.replay.store
    const frameNumber = store.frames.n[this.applied]
    const created: ResourceRow[] = []
    for (const id of this.pendingCreated) {
      if (created.length >= MAX_CREATED_ROWS) break
      const view = this.model.allocation(id)
      const record = this.created.get(id)
      if (!view || record === undefined) continue
      const kind = store.records.kind[record]
      const table = kind === RECORD_KIND.texture ? store.textures : store.buffers
      const ref = store.records.ref[record]
      created.push({
        id,
        name: store.strings.get(table.name.data[ref]) ?? '',
        tag: store.strings.get(table.tag.data[ref]) ?? '',
        kind: view.kind,
        placement: view.placement,
        heap: view.heap,
        pool: view.poolName,
        offset: view.offset,
        occupied: view.size,
        requested: view.requested,
        waste: view.size - view.requested,
        created: view.createdFrame,
        age: frameNumber - view.createdFrame,
        estimated: view.estimated,
      })
    }
    const heapBytes: Record<string, number> = {}
    HEAP_TYPES.forEach((heap, h) => (heapBytes[heap] = this.model.totals.byHeap[h * FIELDS]))
    return this.frameMessage(frameNumber, created, {
      liveCount: this.created.size,
      heapBytes,
      residentBytes: this.model.residencyManager().residentBytes(),
    })
  }
}
