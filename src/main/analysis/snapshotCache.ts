/**
 * The few states a run's snapshots keep (a state: the model at the end of a frame index, with its live resources as
 * a table), most recently used first: a cursor moving back and forth over a few frames replays nothing again.
 * Every backend's snapshots keep theirs here.
 */
import type { CaptureStore } from '../ingest/store'

/** The states kept per run. */
export const SNAPSHOT_CACHE_SIZE = 4

export class SnapshotCache<State extends { frame: number }> {
  private readonly kept: State[] = []

  constructor(private readonly size = SNAPSHOT_CACHE_SIZE) {}

  /** The kept states, most recently used first. */
  get states(): readonly State[] {
    return this.kept
  }

  /** The state of frame index `frame`, made the most recently used; undefined when none is kept. */
  get(frame: number): State | undefined {
    const hit = this.kept.findIndex((s) => s.frame === frame)
    if (hit < 0) return undefined
    const [state] = this.kept.splice(hit, 1)
    this.kept.unshift(state)
    return state
  }

  /** Keep a state, the least recently used one going when more than `size` are kept. */
  add(state: State): void {
    this.kept.unshift(state)
    if (this.kept.length > this.size) this.kept.pop()
  }

  forget(state: State): void {
    const at = this.kept.indexOf(state)
    if (at >= 0) this.kept.splice(at, 1)
  }
}

/** The frame index a snapshot query for `frame` answers for: clamped to the store's frames. */
export function snapshotFrame(store: CaptureStore, frame: number): number {
  return Math.max(0, Math.min(store.frames.length - 1, Math.floor(frame)))
}
