/**
 * Playback of an observed run, with every playback's contract (PlaybackClock): the trace's heaps and resources
 * advanced frame by frame, each message the resources placed and released since the previous one, heap bytes per
 * memory kind, and the trace's resident bytes.
 */
import type { PlaybackFrame, PlaybackRequest, ResourceRow } from '../../../shared/ipc'
import { frameEnd } from '../../ingest/store'
import { MAX_CREATED_ROWS, PlaybackClock } from '../playbackClock'
import { RESIDENCY_SERIES } from '../../../shared/series'
import { OBSERVED_PLACEMENT, PlacedChanges, type ObservedReplay, type ObservedState } from './replay'
import type { ObservedSnapshots } from './snapshot'

export class ObservedPlayback extends PlaybackClock {
  private readonly state: ObservedState
  /** What each frame touched (not a comparison of every live resource before and after it). */
  private readonly changes = new PlacedChanges()

  constructor(
    private readonly replay: ObservedReplay,
    /** Names heaps and resources as the inspector's table does. */
    private readonly snapshots: ObservedSnapshots,
    request: PlaybackRequest,
    send: (frame: PlaybackFrame) => void,
    onEnd: () => void,
  ) {
    super(replay.store.frames.length, request, send, onEnd)
    this.state = replay.stateAt(this.applied)
  }

  protected advanceTo(frame: number): void {
    for (let f = this.applied + 1; f <= frame; f++) {
      this.replay.advance(this.state, f, this.changes)
      this.changes.take(
        this.state,
        (id) => this.pendingCreated.add(id),
        (id) => this.released(id),
      )
    }
    this.applied = frame
  }

  protected message(): PlaybackFrame {
    const store = this.replay.store
    const frameNumber = store.frames.n[this.applied]
    const end = frameEnd(store, this.applied)
    const created: ResourceRow[] = []
    for (const id of this.pendingCreated) {
      if (created.length >= MAX_CREATED_ROWS) break
      const p = this.state.placed.get(id)
      if (!p) continue
      const heap = this.state.heaps.get(p.heap)
      const createdFrame = store.frames.n[this.replay.frameOf(p.record)]
      created.push({
        id,
        ...this.snapshots.describe(p.record, id, end),
        placement: OBSERVED_PLACEMENT,
        heap: heap ? this.replay.memories[heap.memory] : '',
        pool: heap ? this.snapshots.heapName(heap) : null,
        offset: p.offset,
        occupied: p.size,
        requested: p.size,
        waste: 0,
        created: createdFrame,
        age: frameNumber - createdFrame,
        estimated: false,
      })
    }
    const heapBytes: Record<string, number> = {}
    for (const memory of this.replay.memories) heapBytes[memory] = 0
    for (const heap of this.state.heaps.values()) heapBytes[this.replay.memories[heap.memory]] += heap.size
    return this.frameMessage(frameNumber, created, {
      liveCount: this.state.placed.size,
      heapBytes,
      residentBytes: this.replay.series.get(RESIDENCY_SERIES.resident)?.[this.applied] ?? 0,
    })
  }
}
