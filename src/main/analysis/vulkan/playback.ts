/**
 * Playback of a Vulkan run, with the D3D12 playback's contract: frames at the rate the renderer asks, each
 * message the changes since the previous one it received, the next frame sent only once the previous one is
 * acknowledged (a slow renderer gets fewer, larger steps). Heap bytes are per memory heap ("Heap 1"); there is
 * no residency.
 */
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../../shared/ipc'
import { frameEnd, RECORD_KIND } from '../../ingest/store'
import type { IdTable } from '../../model/idTable'
import type { VulkanModel } from '../../model/vulkan/model'
import { MAX_CREATED_ROWS, PlaybackClock } from '../playbackClock'
import { frameOfRecord } from '../records'
import { heapName, typeName, VulkanFeed, type VulkanReplay } from './replay'
import type { VulkanSnapshots } from './snapshot'

export class VulkanPlayback extends PlaybackClock {
  private readonly model: VulkanModel
  private readonly created: IdTable

  constructor(
    private readonly replay: VulkanReplay,
    /** Names the VkDeviceMemory of each row as the inspector's table does. */
    private readonly snapshots: VulkanSnapshots,
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
    const feed = this.replay.feed
    for (let f = this.applied + 1; f <= frame; f++) {
      const start = store.frames.firstRecord[f]
      const end = frameEnd(store, f)
      for (let i = start; i < end; i++) {
        const id = feed.createdId(i)
        if (!Number.isNaN(id)) {
          this.created.set(id, i)
          this.pendingCreated.add(id)
        }
        if (VulkanFeed.reads(store.records.kind[i])) feed.apply(this.model, i)
        const ended = feed.endedId(i)
        if (!Number.isNaN(ended)) {
          this.created.delete(ended)
          this.released(ended)
        }
      }
    }
    this.applied = frame
  }

  protected message(): PlaybackFrame {
    const store = this.replay.store
    const frameNumber = store.frames.n[this.applied]
    const created: ResourceRow[] = []
    const end = frameEnd(store, this.applied)
    const pools = this.pendingCreated.size ? this.snapshots.poolNamesOf(this.model, end) : undefined
    const names = this.snapshots.captureNames()
    for (const id of this.pendingCreated) {
      if (created.length >= MAX_CREATED_ROWS) break
      const p = this.model.placementOf(id)
      const record = this.created.get(id)
      if (!p || record === undefined) continue
      const k = store.records.kind[record]
      const ref = store.records.ref[record]
      const texture = k === RECORD_KIND.texture || (k === RECORD_KIND.placed && store.placed.kind.data[ref] === 1)
      const row = k === RECORD_KIND.placed ? store.placed.desc.data[ref] : ref
      const table = texture ? store.textures : store.buffers
      const createdFrame = store.frames.n[frameOfRecord(store.frames.firstRecord, record)]
      created.push({
        id,
        name: (names.empty ? undefined : names.resource(id, record, end)) ?? store.strings.get(table.name.data[row]) ?? '',
        tag: store.strings.get(table.tag.data[row]) ?? '',
        kind: texture ? 'texture' : 'buffer',
        placement: typeName(p.type),
        heap: heapName(p.heap),
        pool: pools?.get(p.memory) ?? null,
        offset: p.offset,
        occupied: p.size,
        requested: p.requested,
        waste: p.size - p.requested,
        created: createdFrame,
        age: frameNumber - createdFrame,
        estimated: p.estimated,
      })
    }
    const heapBytes: Record<string, number> = {}
    for (let h = 0; h < this.model.heapAllocated.length; h++) heapBytes[heapName(h)] = this.model.heapAllocated[h]
    return this.frameMessage(frameNumber, created, {
      liveCount: this.model.liveFigures().count,
      heapBytes,
      residentBytes: 0,
    })
  }
}
