/**
 * The pacing every backend's playback shares: frame after frame at the rate the renderer asks, each message the
 * changes since the previous one it received. Time advances at `fps` whatever the renderer does; a frame is sent
 * only once the previous one is acknowledged, so a slow renderer gets fewer, larger steps (frames skipped), never a
 * growing queue.
 */
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../shared/ipc'

/** Rows of created resources in one message; beyond this the renderer pages the table again. */
export const MAX_CREATED_ROWS = 500

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
  /** The first frame, and when the clock started (performance.now()) at `fps` frames a second. */
  private readonly from: number
  private startedAt = 0
  private fps = 1
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
    this.from = from
    this.applied = from
    this.sent = from
    this.target = from
  }

  static firstFrame(frames: number, request: PlaybackRequest): number {
    return Math.max(0, Math.min(frames - 1, Math.floor(request.from)))
  }

  start(): void {
    this.fps = Math.max(0.5, Math.min(240, this.request.fps))
    this.startedAt = performance.now()
    this.timer = setInterval(() => this.tick(), 1000 / this.fps)
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
    // The target follows the time elapsed, not the ticks counted: a tick delayed by a busy process still lands
    // on the frame its time asks for.
    const due = this.from + Math.floor(((performance.now() - this.startedAt) * this.fps) / 1000)
    this.target = Math.max(this.target, Math.min(this.end(), due))
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

  /**
   * The message of frame `applied`: the rows made since the last one sent (at most MAX_CREATED_ROWS of the pending
   * set, `createdTruncated` where more are), the ids released since, and what the backend counts at the frame.
   */
  protected frameMessage(
    frameNumber: number,
    created: ResourceRow[],
    totals: Pick<PlaybackFrame, 'liveCount' | 'heapBytes' | 'residentBytes'>,
  ): PlaybackFrame {
    return {
      playbackId: this.request.playbackId,
      frame: this.applied,
      frameNumber,
      skipped: this.applied - this.sent - 1,
      created,
      createdTruncated: this.pendingCreated.size > created.length,
      released: [...this.pendingReleased],
      ...totals,
    }
  }

  /** A resource that ended: it leaves the created set, or joins the released one when it was sent before. */
  protected released(id: number): void {
    if (!this.pendingCreated.delete(id)) this.pendingReleased.add(id)
  }
}
