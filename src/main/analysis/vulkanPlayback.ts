/**
 * Playback of a Vulkan run, with the D3D12 playback's contract: frames at the rate the renderer asks, each
 * message the changes since the previous one it received, the next frame sent only once the previous one is
 * acknowledged (a slow renderer gets fewer, larger steps). Heap bytes are per memory heap ("Heap 1"); there is
 * no residency.
 */
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../shared/ipc'
import { K } from '../ingest/store'
import type { VulkanModel } from '../model/vulkan/model'
import { MAX_CREATED_ROWS } from './playback'
import { frameOfRecord } from './snapshot'
import { heapName, typeName, VulkanFeed, type VulkanReplay } from './vulkanReplay'
import type { VulkanSnapshots } from './vulkanSnapshot'

export class VulkanPlayback {
  private readonly model: VulkanModel
  private readonly created: Map<number, number>
  private applied: number
  private sent: number
  private target: number
  private awaitingAck = false
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly pendingCreated = new Set<number>()
  private readonly pendingReleased = new Set<number>()
  stopped = false

  constructor(
    private readonly replay: VulkanReplay,
    /** Names the VkDeviceMemory of each row as the inspector's table does. */
    private readonly snapshots: VulkanSnapshots,
    private readonly request: PlaybackRequest,
    private readonly send: (frame: PlaybackFrame) => void,
    private readonly onEnd: () => void,
  ) {
    const frames = replay.store.frames.length
    const from = Math.max(0, Math.min(frames - 1, Math.floor(request.from)))
    const state = replay.modelAt(from)
    this.model = state.model
    this.created = state.created
    this.applied = from
    this.sent = from
    this.target = from
  }

  start(): void {
    const fps = Math.max(0.5, Math.min(240, this.request.fps))
    this.timer = setInterval(() => this.tick(), 1000 / fps)
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }

  ack(frame: number): void {
    if (frame === this.sent) this.awaitingAck = false
  }

  private last(): number {
    return Math.min(this.replay.store.frames.length, Math.max(1, Math.floor(this.request.to))) - 1
  }

  private tick(): void {
    if (this.stopped) return
    if (this.target < this.last()) this.target++
    if (this.awaitingAck) return
    if (this.target === this.sent) {
      if (this.target >= this.last()) {
        this.stop()
        this.onEnd()
      }
      return
    }
    this.advanceTo(this.target)
    this.emit()
  }

  private advanceTo(frame: number): void {
    const store = this.replay.store
    const feed = this.replay.feed
    for (let f = this.applied + 1; f <= frame; f++) {
      const start = store.frames.firstRecord[f]
      const end = f + 1 < store.frames.length ? store.frames.firstRecord[f + 1] : store.records.length
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
          if (!this.pendingCreated.delete(ended)) this.pendingReleased.add(ended)
        }
      }
    }
    this.applied = frame
  }

  private emit(): void {
    const store = this.replay.store
    const frameNumber = store.frames.n[this.applied]
    const created: ResourceRow[] = []
    const pools = this.pendingCreated.size ? this.snapshots.poolNamesOf(this.model) : undefined
    for (const id of this.pendingCreated) {
      if (created.length >= MAX_CREATED_ROWS) break
      const p = this.model.placementOf(id)
      const record = this.created.get(id)
      if (!p || record === undefined) continue
      const k = store.records.kind[record]
      const ref = store.records.ref[record]
      const texture = k === K.texture || (k === K.placed && store.placed.kind.data[ref] === 1)
      const row = k === K.placed ? store.placed.desc.data[ref] : ref
      const table = texture ? store.textures : store.buffers
      const createdFrame = store.frames.n[frameOfRecord(store.frames.firstRecord, record)]
      created.push({
        id,
        name: store.strings.get(table.name.data[row]) ?? '',
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
    const message: PlaybackFrame = {
      playbackId: this.request.playbackId,
      frame: this.applied,
      frameNumber,
      skipped: this.applied - this.sent - 1,
      created,
      createdTruncated: this.pendingCreated.size > created.length,
      released: [...this.pendingReleased],
      liveCount: this.model.liveAllocations().filter((a) => !a.pendingFree).length,
      heapBytes,
      residentBytes: 0,
    }
    this.pendingCreated.clear()
    this.pendingReleased.clear()
    this.sent = this.applied
    this.awaitingAck = true
    this.send(message)
  }
}
