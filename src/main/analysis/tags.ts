/**
 * What each tag (the capture's `tag` strings) holds while a replay runs: the occupied and requested bytes and the
 * count of its live resources, and per frame the `tag.<tag>.*` series. Every backend's replay keeps its tags here.
 */
import type { SeriesInfo } from '../../shared/ipc'
import { SERIES_NAME } from '../../shared/series'
import type { Bytes } from '../../shared/units'
import type { CaptureStore } from '../ingest/store'
import type { SeriesTable } from './seriesTable'

export class TagTotals {
  /** By slot: the tag's name, and what its live resources hold. */
  readonly names: string[] = []
  readonly occupied: Bytes[] = []
  readonly requested: Bytes[] = []
  readonly count: number[] = []
  /** String id → slot. */
  private readonly slots = new Map<number, number>()
  /** By slot: its occupied, requested and count columns, made at the first frame the tag is sampled. */
  private readonly columns: Float64Array[][] = []

  constructor(
    private readonly store: CaptureStore,
    private readonly series: SeriesTable,
  ) {}

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
    }
    return slot
  }

  add(slot: number, size: Bytes, requested: Bytes): void {
    this.occupied[slot] += size
    this.requested[slot] += requested
    this.count[slot]++
  }

  remove(slot: number, size: Bytes, requested: Bytes): void {
    this.occupied[slot] -= size
    this.requested[slot] -= requested
    this.count[slot]--
  }

  /** Write frame index `frame` of every tag's series; the requested bytes of all tags together. */
  sample(frame: number): Bytes {
    let requested = 0
    for (let t = 0; t < this.names.length; t++) {
      let columns = this.columns[t]
      if (!columns) {
        const name = this.names[t]
        const info = (field: 'occupiedBytes' | 'requestedBytes' | 'count', label: string, unit: SeriesInfo['unit']): SeriesInfo => ({
          name: SERIES_NAME.tag(name, field),
          label: `${name} ${label}`,
          unit,
          group: 'tag',
        })
        columns = this.columns[t] = [
          this.series.column(info('occupiedBytes', 'occupied', 'bytes')),
          this.series.column(info('requestedBytes', 'requested', 'bytes')),
          this.series.column(info('count', 'resources', 'count')),
        ]
      }
      columns[0][frame] = this.occupied[t]
      columns[1][frame] = this.requested[t]
      columns[2][frame] = this.count[t]
      requested += this.requested[t]
    }
    return requested
  }
}
