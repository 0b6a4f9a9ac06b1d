/**
 * Checkpoints of a replay's model: a copy every so many records (at the next frame boundary), so a snapshot at any
 * frame replays a bounded stretch from the checkpoint before it, never from frame 0. What they hold is bounded
 * too: the ones still to come are spaced from what the last ones hold so that all fit in a byte budget, and past
 * it every other one goes and the spacing doubles. Every backend's replay keeps its checkpoints here. A backend
 * may chain a checkpoint to the one before it (CheckpointChain: the D3D12 replay keeps only the rows of the
 * model's big tables that changed since, docs/model.md `checkpoint`); a chain starts from a whole copy, made again
 * once the chained ones hold CHAIN_BYTES_PER_WHOLE times its bytes.
 */
import type { CaptureStore } from '../ingest/store'

/**
 * A checkpoint every this many records (at the next frame boundary) bounds a snapshot's replay. Measured on a
 * 2-million-record capture (bench/README.md): a snapshot replays at most 25 000 records, 8 ms at the median and
 * 12 ms at p95, and the 80 checkpoints hold 0.7 MiB each as whole copies (13 MiB in all, chained); 50 000 would
 * double the time.
 */
export const CHECKPOINT_RECORDS = 25_000

/**
 * What the checkpoints may hold (bytes of their tables, see D3D12Model.byteSize). Past it, every other checkpoint
 * goes and the spacing doubles, so a capture of tens of millions of records keeps a bounded number of them.
 */
export const CHECKPOINT_BYTES = 128 * 2 ** 20

/**
 * Past CHECKPOINT_BYTES, what the checkpoints may hold per record of the capture: they stay at CHECKPOINT_RECORDS
 * apart on longer captures, so a snapshot replays as little on ten million records as on two. On the 10-million-
 * record bench capture the checkpoints hold 22 bytes a record at that spacing (0.54 MiB each, 408 of them, 220 MiB)
 * beside the store's ~85; 24 keeps that spacing and caps their memory at 24 bytes a record.
 */
export const CHECKPOINT_BYTES_PER_RECORD = 24

/** Options for a replay that keeps no checkpoint past its first (BackendReplayOptions.checkpoints false). */
export const ONLY_FIRST_CHECKPOINT: CheckpointOptions = { checkpointRecords: Infinity }

/** What the checkpoints of a capture of `records` records may hold before they are thinned. */
export function checkpointBudget(records: number): number {
  return Math.max(CHECKPOINT_BYTES, CHECKPOINT_BYTES_PER_RECORD * records)
}

export interface CheckpointOptions {
  /** A checkpoint every this many records (CHECKPOINT_RECORDS). */
  checkpointRecords?: number
  /** What the checkpoints may hold before they are thinned (checkpointBudget of the capture's records). */
  checkpointBytes?: number
}

/** Checkpoints.stats(): how many, the most records a snapshot replays, their bytes (and by part, where asked). */
export interface CheckpointStats {
  count: number
  maxRecords: number
  bytes: number
  parts?: Record<string, number>
}

/** A copy of a model kept at the start of a frame, with the resources live then. */
export interface Checkpoint<Model> {
  /** Frame index whose records come next. */
  frame: number
  model: Model
  /** What the copy and the live lists hold. */
  bytes: number
  /** Live resource ids and the index of the record that created each. */
  liveIds: Float64Array
  liveRecords: Float64Array
  /** The live creates (id → create record), where the checkpoint keeps them otherwise (liveIds, liveRecords empty). */
  created?: () => Map<number, number>
  /**
   * Where a model numbers its resources by slot (PlacementInfo.slot): the create record of each slot that holds a
   * live resource (-1 elsewhere), a snapshot's table reads it without a map by id.
   */
  bySlot?: () => Float64Array
  /** A checkpoint that may keep only what changed since the one before it, restored through it. */
  chain?: CheckpointChain
}

/** What Checkpoints asks of a checkpoint that may be chained to the one before it. */
export interface CheckpointChain {
  /** Whether it is restored from itself alone (a whole copy). */
  whole(): boolean
  /** Takes in the checkpoint before it, which then goes (it may have been whole: so is this one then); its bytes after. */
  absorbPrevious(): number
}

/**
 * A checkpoint is whole again once the chained ones since the last whole copy hold this many times its bytes. A
 * restore reads each row once, from the newest copy that keeps it, so a longer chain costs a snapshot little (on
 * the 2-million-record stress capture a restore at the end of a chain took 12 ms of CPU against 6 at its whole
 * copy), while whole copies are most of what short chains hold: with 1 there, 16 of 40 checkpoints were whole and
 * held 73 of 113 MiB; with 8, 6 of 80 held 21 of 114 MiB (bench/README.md).
 */
export const CHAIN_BYTES_PER_WHOLE = 8

/** How many of the last checkpoints kept tell what the next ones may hold (Checkpoints' plan). */
const RECENT = 4

/**
 * What the plan counts a checkpoint to come to hold, over what the recent ones hold: a capture's model grows (a
 * leak), and the checkpoints farther apart hold more changed rows each. The plan is made again at every
 * checkpoint, so the margin only needs to cover the growth until the next. On the 2-million-record stress capture
 * (a leak) 1.25 left a tenth of the budget unused: 72 checkpoints holding 116 MiB of 128, 28 840 records apart at
 * most; 1.1 keeps 80 holding 123 MiB, at most 26 090 apart, and no thinning (bench/README.md).
 */
const PLAN_MARGIN = 1.1

export class Checkpoints<Model> {
  private readonly kept: Checkpoint<Model>[] = []
  private every: number
  private budget: number
  private bytes = 0
  private lastRecord = -Infinity

  constructor(
    private readonly store: CaptureStore,
    private readonly options: CheckpointOptions = {},
  ) {
    this.every = options.checkpointRecords ?? CHECKPOINT_RECORDS
    this.budget = options.checkpointBytes ?? checkpointBudget(store.records.length)
  }

  /** The store grew (a followed capture): the budget follows its records. */
  storeGrew(): void {
    this.budget = this.options.checkpointBytes ?? checkpointBudget(this.store.records.length)
  }

  /** Whether a frame starting at record `start` starts with a checkpoint. */
  due(start: number): boolean {
    return start - this.lastRecord >= this.every
  }

  /** The last checkpoint kept; undefined before the first. */
  last(): Checkpoint<Model> | undefined {
    return this.kept[this.kept.length - 1]
  }

  /**
   * Whether the next checkpoint should be whole rather than chained to the last one: none is kept, the last is
   * not chained, or the chained ones since the last whole one hold CHAIN_BYTES_PER_WHOLE times its bytes.
   */
  wholeDue(): boolean {
    let chained = 0
    for (let k = this.kept.length - 1; k >= 0; k--) {
      const c = this.kept[k]
      if (c.chain === undefined) return true
      if (c.chain.whole()) return chained >= CHAIN_BYTES_PER_WHOLE * c.bytes
      chained += c.bytes
    }
    return true
  }

  /**
   * Keep a checkpoint (of the frame `due` said takes one); over budget, every other one goes (the first and the
   * last stay), a chained one after it taking it in, and the spacing doubles, until they are within it.
   */
  add(checkpoint: Checkpoint<Model>): void {
    const kept = this.kept
    kept.push(checkpoint)
    this.bytes += checkpoint.bytes
    this.lastRecord = this.store.frames.firstRecord[checkpoint.frame]
    while (this.bytes > this.budget && kept.length > 2) {
      // Over budget: keep every other checkpoint (the first and the last always) and space the next ones twice as
      // far, again while still over (a chained one that takes in the one before it holds more than it did).
      const last = kept.length - 1
      const thinned: Checkpoint<Model>[] = []
      for (let k = 0; k <= last; k++) {
        if (k % 2 === 0 || k === last) {
          thinned.push(kept[k])
          continue
        }
        const after = kept[k + 1]
        if (after.chain !== undefined && !after.chain.whole()) after.bytes = after.chain.absorbPrevious()
      }
      kept.length = 0
      kept.push(...thinned)
      this.bytes = thinned.reduce((sum, c) => sum + c.bytes, 0)
      this.every *= 2
    }
    this.plan()
  }

  /**
   * Spaces the checkpoints still to come so that, holding what the recent ones hold, they fit in the budget with
   * those kept: the spacing doubles while they would not. A thinning then seldom comes (it throws away checkpoints
   * already made and merges chained ones), and the checkpoints made before the spacing grew stay closer together.
   */
  private plan(): void {
    const each = this.recentBytes() * PLAN_MARGIN
    if (each === 0) return
    const left = this.store.records.length - this.lastRecord
    if (left <= this.every || this.bytes + (left / this.every) * each <= this.budget) return
    const room = this.budget - this.bytes
    this.every = room > each ? Math.max(this.every, Math.ceil((left * each) / room)) : 2 * this.every
  }

  /**
   * What a checkpoint to come may hold, from the last ones kept: chained ones hold what changed since the one
   * before, and a whole copy comes again once they hold CHAIN_BYTES_PER_WHOLE times its bytes, so its share is
   * one part in CHAIN_BYTES_PER_WHOLE of theirs. 0 until a chained one is kept, where the checkpoints chain.
   */
  private recentBytes(): number {
    const kept = this.kept
    let chained = 0
    let chainedBytes = 0
    let whole = 0
    let wholeBytes = 0
    for (let k = kept.length - 1; k >= 0 && chained + whole < RECENT; k--) {
      const c = kept[k]
      if (c.chain !== undefined && !c.chain.whole()) {
        chained++
        chainedBytes += c.bytes
      } else {
        whole++
        wholeBytes += c.bytes
      }
    }
    if (chained > 0) return (chainedBytes / chained) * (1 + 1 / CHAIN_BYTES_PER_WHOLE)
    // Whole copies that chained ones will follow tell nothing yet.
    if (kept.length === 0 || kept[kept.length - 1].chain !== undefined) return 0
    return wholeBytes / whole
  }

  /** The last checkpoint at or before frame index `frame`; undefined before the first is taken. */
  before(frame: number): Checkpoint<Model> | undefined {
    let cp = this.kept[0]
    for (const c of this.kept) if (c.frame <= frame) cp = c
    return cp
  }

  /**
   * Checkpoints held, the most records a snapshot replays, and the bytes the checkpoints hold; with `partsOf`, what
   * it measures of each checkpoint's model, summed by part.
   */
  stats(partsOf?: (model: Model) => Record<string, number>): CheckpointStats {
    let max = 0
    let bytes = 0
    const cps = this.kept
    const store = this.store
    const parts: Record<string, number> = {}
    for (let c = 0; c < cps.length; c++) {
      const start = store.frames.firstRecord[cps[c].frame]
      const end = c + 1 < cps.length ? store.frames.firstRecord[cps[c + 1].frame] : store.records.length
      max = Math.max(max, end - start)
      bytes += cps[c].bytes
      if (partsOf) for (const [part, n] of Object.entries(partsOf(cps[c].model))) parts[part] = (parts[part] ?? 0) + n
    }
    return partsOf ? { count: cps.length, maxRecords: max, bytes, parts } : { count: cps.length, maxRecords: max, bytes }
  }
}

/** The live creates (id → create record) as the two columns a checkpoint keeps. */
export function liveColumns(created: {
  size: number
  forEach(visit: (record: number, id: number) => void): void
}): { liveIds: Float64Array; liveRecords: Float64Array } {
  const liveIds = new Float64Array(created.size)
  const liveRecords = new Float64Array(created.size)
  let i = 0
  created.forEach((record, id) => {
    liveIds[i] = id
    liveRecords[i] = record
    i++
  })
  return { liveIds, liveRecords }
}

/** The live creates a checkpoint keeps, as a map again (id → create record). */
export function liveMap(checkpoint: Checkpoint<unknown>): Map<number, number> {
  if (checkpoint.created !== undefined) return checkpoint.created()
  const created = new Map<number, number>()
  for (let i = 0; i < checkpoint.liveIds.length; i++) created.set(checkpoint.liveIds[i], checkpoint.liveRecords[i])
  return created
}
