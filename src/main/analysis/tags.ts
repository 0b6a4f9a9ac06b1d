/**
 * What each tag (the capture's `tag` strings) holds while a replay runs: the occupied and requested bytes and the
 * count of its live resources, and per frame the `tag.<tag>.*` series. Every backend's replay keeps its tags here.
 *
 * A frame writes only the tags whose resources changed in it, into step series (the series table's stepLog): a capture can have
 * thousands of tags, and writing every tag at every frame made a replay's cost and memory grow as tags × frames.
 */
import type { SeriesInfo } from '../../shared/ipc'
import { SERIES_NAME } from '../../shared/series'
import type { Bytes } from '../../shared/units'
import type { CaptureStore } from '../ingest/store'
import type { SeriesTable } from './seriesTable'
import type { StepLog } from './stepLog'

export class TagTotals {
  /** By slot: the tag's name, and what its live resources hold. */
  readonly names: string[] = []
  readonly occupied: Bytes[] = []
  readonly requested: Bytes[] = []
  readonly count: number[] = []
  /** String id → slot. */
  private readonly slots = new Map<number, number>()
  /**
   * Slot t's occupied, requested and count series, by their numbers in the table's step log, at 3t, 3t + 1 and
   * 3t + 2 (-1: not kept), made at the first frame it is sampled; `made` slots have them.
   */
  private steps = new Int32Array(192)
  private made = 0
  private readonly log: StepLog
  /** The slots changed since the last sample, each once (`changed` flags them). */
  private dirty: number[] = []
  private changed = new Uint8Array(64)
  /** The requested bytes of every tag together. */
  private requestedTotal: Bytes = 0

  constructor(
    private readonly store: CaptureStore,
    private readonly series: SeriesTable,
  ) {
    this.log = series.stepLog
  }

  /** The slot of a tag by its string id (0, no tag: "(untagged)"). */
  slotOf(tagId: number): number {
    let slot = this.slots.get(tagId)
    if (slot === undefined) {
      slot = this.names.length
      this.slots.set(tagId, slot)
      this.names.push(this.store.strings.get(tagId) ?? '(untagged)')
      this.occupied.push(0)
      this.requested.push(0)
      this.count.push(0)
      if (slot >= this.changed.length) {
        const changed = new Uint8Array(2 * this.changed.length)
        changed.set(this.changed)
        this.changed = changed
      }
    }
    return slot
  }

  add(slot: number, size: Bytes, requested: Bytes): void {
    this.occupied[slot] += size
    this.requested[slot] += requested
    this.count[slot]++
    this.requestedTotal += requested
    this.touch(slot)
  }

  remove(slot: number, size: Bytes, requested: Bytes): void {
    this.occupied[slot] -= size
    this.requested[slot] -= requested
    this.count[slot]--
    this.requestedTotal -= requested
    this.touch(slot)
  }

  private touch(slot: number): void {
    if (this.changed[slot] !== 0) return
    this.changed[slot] = 1
    this.dirty.push(slot)
  }

  /** Write frame index `frame` of the tags changed since the last sample; the requested bytes of all tags together. */
  sample(frame: number): Bytes {
    // a tag's series are made at the first frame after its first resource, in the order the tags came
    for (let t = this.made; t < this.names.length; t++) {
      const name = this.names[t]
      const info = (field: 'occupiedBytes' | 'requestedBytes' | 'count', label: string, unit: SeriesInfo['unit']): SeriesInfo => ({
        name: SERIES_NAME.tag(name, field),
        label: `${name} ${label}`,
        unit,
        group: 'tag',
      })
      if (3 * t + 3 > this.steps.length) {
        const steps = new Int32Array(2 * this.steps.length)
        steps.set(this.steps)
        this.steps = steps
      }
      this.steps[3 * t] = this.series.stepSeries(info('occupiedBytes', 'occupied', 'bytes'))
      this.steps[3 * t + 1] = this.series.stepSeries(info('requestedBytes', 'requested', 'bytes'))
      this.steps[3 * t + 2] = this.series.stepSeries(info('count', 'resources', 'count'))
      this.made = t + 1
    }
    const dirty = this.dirty
    const steps = this.steps
    const log = this.log
    for (let i = 0; i < dirty.length; i++) {
      const t = dirty[i]
      this.changed[t] = 0
      // the three are kept or not together (a run keeps the series of its report, and no tag's)
      if (steps[3 * t] < 0) continue
      log.write(steps[3 * t], frame, this.occupied[t])
      log.write(steps[3 * t + 1], frame, this.requested[t])
      log.write(steps[3 * t + 2], frame, this.count[t])
    }
    dirty.length = 0
    this.series.stepsWritten(frame + 1)
    return this.requestedTotal
  }
}
