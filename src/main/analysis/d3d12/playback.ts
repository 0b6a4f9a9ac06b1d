/**
 * Playback: frame after frame at the rate the renderer asks, each message the changes since the previous one
 * it received. Time advances at `fps` whatever the renderer does; a frame is sent only once the previous one is
 * acknowledged, so a slow renderer gets fewer, larger steps (frames skipped), never a growing queue.
 */
import { HEAP_TYPES } from '../../../shared/model'
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../../shared/ipc'
import { frameEnd, RECORD_KIND } from '../../ingest/store'
import type { D3D12Model } from '../../model/d3d12/model'
import { applyRecord, type Replay } from './replay'

/** Rows of created resources in one message; beyond this the renderer pages the table again. */
export const MAX_CREATED_ROWS = 500
const FIELDS = 6

/**
 * The pacing every playback shares: a clock at `fps` moves the target frame; when the renderer has acknowledged
 * what it was sent, the model is advanced to the target and the changes since then are sent as one message.
 * Subclasses apply records (`advanceTo`) and build the message (`message`).
 */
export abstract class PlaybackClock {
  /** Last frame applied to the model, and last frame sent. */
  protected applied: number
  protected sent: number
  private target: number
  private awaitingAck = false
  private timer: ReturnType<typeof setInterval> | undefined
  /** Created since the last message (still alive), and released since then (created before it). */
  protected readonly pendingCreated = new Set<number>()
  protected readonly pendingReleased = new Set<number>()
  stopped = false

  constructor(
    private readonly frames: number,
    protected readonly request: PlaybackRequest,
    private readonly send: (frame: PlaybackFrame) => void,
    private readonly onEnd: () => void,
  ) {
    const from = PlaybackClock.firstFrame(frames, request)
    this.applied = from
    this.sent = from
    this.target = from
  }

  static firstFrame(frames: number, request: PlaybackRequest): number {
    return Math.max(0, Math.min(frames - 1, Math.floor(request.from)))
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

  private end(): number {
    return Math.min(this.frames, Math.max(1, Math.floor(this.request.to))) - 1
  }

  private tick(): void {
    if (this.stopped) return
    if (this.target < this.end()) this.target++
    if (this.awaitingAck) return
    if (this.target === this.sent) {
      if (this.target >= this.end()) {
        this.stop()
        this.onEnd()
      }
      return
    }
    this.advanceTo(this.target)
    const message = this.message()
    this.pendingCreated.clear()
    this.pendingReleased.clear()
    this.sent = this.applied
    this.awaitingAck = true
    this.send(message)
  }

  /** Apply the records of the frames after `applied` up to `frame`, noting what was created and released. */
  protected abstract advanceTo(frame: number): void

  /** The changes since the last message sent (the pending sets), as of frame `applied`. */
  protected abstract message(): PlaybackFrame

  /** A resource that ended: it leaves the created set, or joins the released one when it was sent before. */
  protected released(id: number): void {
    if (!this.pendingCreated.delete(id)) this.pendingReleased.add(id)
  }
}

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
    return {
      playbackId: this.request.playbackId,
      frame: this.applied,
      frameNumber,
      skipped: this.applied - this.sent - 1,
      created,
      createdTruncated: this.pendingCreated.size > created.length,
      released: [...this.pendingReleased],
      liveCount: this.created.size,
      heapBytes,
      residentBytes: this.model.residencyManager().residentBytes(),
    }
  }
}
