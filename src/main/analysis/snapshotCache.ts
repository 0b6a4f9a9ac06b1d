/**
 * The few states a run's snapshots keep (a state: the model at the end of a frame index, with its live resources as
 * a table), most recently used first: a cursor moving back and forth over a few frames replays nothing again.
 * Every backend's snapshots keep theirs here (CachedSnapshots).
 */
import { NO_BLOCKS, type PoolMap, type ResourcePage, type ResourceQuery, type Snapshot } from '../../shared/ipc'
import { recordAt } from '../ingest/records'
import type { CaptureStore } from '../ingest/store'
import { Lifetimes } from './records'
import type { ResourceTable } from './resourceTable'

/** A live resource as every backend's details start from it (CachedSnapshots.liveResource). */
export interface LiveResource<State> {
  state: State
  /** Its row in the state's table. */
  index: number
  /** Its create record; -1 where none made it (live before the records kept). */
  record: number
  /** The create record as the capture wrote it. */
  desc: Record<string, unknown>
  /** The frame whose release ends its life, null while nothing does. */
  releasedFrame: number | null
}

/** The states kept per run. */
export const SNAPSHOT_CACHE_SIZE = 4

/**
 * Captures of at least this many records get WARM_SNAPSHOTS snapshots rebuilt, one a turn of the event loop, just
 * after their load answers (the engine's warmSoon): on the 10-million-record bench capture the first five snapshots
 * after a load take 40–90 ms and the later ones 10–25, and these should not be the first cursor moves someone makes.
 * Each is let go once built, so its tables are there for the next (see CachedSnapshots.dropped).
 */
export const WARM_RECORDS = 1_000_000
export const WARM_SNAPSHOTS = 8

/** The frame index of the `k`th of the WARM_SNAPSHOTS, spread over `frames`. */
export function warmFrame(k: number, frames: number): number {
  return Math.floor(((k + 0.5) / WARM_SNAPSHOTS) * frames)
}

export class SnapshotCache<State extends { frame: number }> {
  private readonly kept: State[] = []

  /** `dropped`: told of each state the cache lets go, which no one reads through the cache again. */
  constructor(
    private readonly size = SNAPSHOT_CACHE_SIZE,
    private readonly dropped?: (state: State) => void,
  ) {}

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
    if (this.kept.length > this.size) this.dropped?.(this.kept.pop()!)
  }

  forget(state: State): void {
    const at = this.kept.indexOf(state)
    if (at >= 0) this.dropped?.(this.kept.splice(at, 1)[0])
  }
}

/** A pool map with its figures and no blocks: the block columns empty (SnapshotQuery.blocks false). */
export function withoutBlocks(map: PoolMap): PoolMap {
  return { ...map, ...NO_BLOCKS }
}

/** A snapshot whose pools' blocks are left out, for a backend that worked them out anyway. */
export function leaveOutBlocks(snapshot: Snapshot): Snapshot {
  return snapshot.blocksLeftOut ? snapshot : { ...snapshot, pools: snapshot.pools.map(withoutBlocks), blocksLeftOut: true }
}

/** The frame index a snapshot query for `frame` answers for: clamped to the store's frames. */
export function snapshotFrame(store: CaptureStore, frame: number): number {
  return Math.max(0, Math.min(store.frames.length - 1, Math.floor(frame)))
}

/**
 * A backend's snapshots over its cache: the state at a frame index (from the cache, else built by the backend from
 * its checkpoints), its table, a page of its resources, and warming. The backend builds a state and says what a
 * snapshot, a resource's details and a frame's transients are.
 */
export abstract class CachedSnapshots<State extends { frame: number; table: ResourceTable }> {
  protected readonly cache = new SnapshotCache<State>(SNAPSHOT_CACHE_SIZE, (state) => this.dropped(state))
  private lifetimes: Lifetimes | undefined

  constructor(private readonly snapshotStore: CaptureStore) {}

  /** The state at the end of frame index `target` (already clamped), built from the backend's checkpoints. */
  protected abstract build(target: number): State

  /**
   * A state the cache let go: a backend may take back what it holds (see d3d12/snapshot.ts). A state's model is read
   * only by the call that asked for the state, before it asks for another (a table, once built, holds copies): the
   * cache, which keeps four, has let go of none of the states being read.
   */
  protected dropped(_state: State): void {}

  abstract snapshot(runId: string, frame: number, blocks?: boolean): Snapshot

  /** The state at the end of frame index `frame`, from the cache or the checkpoint before it. */
  state(frame: number): State {
    const target = snapshotFrame(this.snapshotStore, frame)
    const hit = this.cache.get(target)
    if (hit) return hit
    const state = this.build(target)
    this.cache.add(state)
    return state
  }

  /** The resource `id` live at the end of frame index `frame`, its create record and its end; null when not live. */
  protected liveResource(frame: number, id: number): LiveResource<State> | null {
    const state = this.state(frame)
    const index = state.table.id.indexOf(id)
    if (index < 0) return null
    const record = state.table.createRecord[index]
    const desc = record >= 0 ? (recordAt(this.snapshotStore, record) as unknown as Record<string, unknown>) : {}
    this.lifetimes ??= new Lifetimes(this.snapshotStore)
    const releasedFrame = record >= 0 ? this.lifetimes.releasedFrame(record) : null
    return { state, index, record, desc, releasedFrame }
  }

  /**
   * The live resources at the end of frame index `frame`. A backend builds the last frame's state from the model its
   * replay ended with, where the replay kept it: a replay with no checkpoint past the first (`heapscope diff`'s)
   * would otherwise replay the whole capture again for it.
   */
  table(frame: number): ResourceTable {
    return this.state(frame).table
  }

  resources(query: ResourceQuery): ResourcePage {
    const s = this.state(query.frame)
    return s.table.page(query, s.frame)
  }

  /**
   * Rebuild the snapshot of a frame as the inspector first asks for it (the table in its default order, the pool
   * maps) and forget it: run after a large load, so the code a cursor move runs is ready before someone moves it.
   */
  warm(frame: number): void {
    const s = this.state(frame)
    s.table.order('occupied', true)
    this.snapshot('', frame)
    this.cache.forget(s)
  }
}
