import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SeriesTable } from '../../../../src/main/analysis/seriesTable'
import { TagTotals } from '../../../../src/main/analysis/tags'
import type { CaptureStore } from '../../../../src/main/ingest/store'
import { SERIES_NAME } from '../../../../src/shared/series'
import { runs } from '../../../properties'

/** Tag names by string id (0: no tag). */
const store = { strings: { get: (id: number) => (id === 0 ? undefined : `T${id}`) } } as unknown as CaptureStore

/**
 * The plain reference: every tag's three values written at every frame from the first frame after its first
 * resource, and the requested bytes summed over every tag at each frame.
 */
class EveryFrame {
  names: string[] = []
  occupied: number[] = []
  requested: number[] = []
  count: number[] = []
  slots = new Map<number, number>()
  columns: Float64Array[][] = []
  constructor(readonly frames: number) {}
  slotOf(tag: number): number {
    let slot = this.slots.get(tag)
    if (slot === undefined) {
      slot = this.names.length
      this.slots.set(tag, slot)
      this.names.push(store.strings.get(tag) ?? '(untagged)')
      this.occupied.push(0)
      this.requested.push(0)
      this.count.push(0)
    }
    return slot
  }
  sample(frame: number): number {
    let sum = 0
    for (let t = 0; t < this.names.length; t++) {
      this.columns[t] ??= [new Float64Array(this.frames), new Float64Array(this.frames), new Float64Array(this.frames)]
      this.columns[t][0][frame] = this.occupied[t]
      this.columns[t][1][frame] = this.requested[t]
      this.columns[t][2][frame] = this.count[t]
      sum += this.requested[t]
    }
    return sum
  }
}

type Op = { add: boolean; tag: number; size: number; requested: number }

describe('tag totals', () => {
  it('write the series and the requested sum a write of every tag at every frame gives (random frames of adds and removes)', () => {
    const op = fc.record({ add: fc.boolean(), tag: fc.integer({ min: 0, max: 12 }), size: fc.integer({ min: 0, max: 2 ** 40 }), requested: fc.integer({ min: 0, max: 2 ** 40 }) })
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 60 }), (frames: Op[][]) => {
        const n = frames.length
        const table = new SeriesTable(Float64Array.from({ length: n }, (_, i) => i))
        const tags = new TagTotals(store, table)
        const ref = new EveryFrame(n)
        // what is live, by tag slot: a remove takes back one of the tag's adds
        const live: { slot: number; size: number; requested: number }[] = []
        for (let f = 0; f < n; f++) {
          for (const o of frames[f]) {
            if (o.add) {
              const slot = tags.slotOf(o.tag)
              expect(ref.slotOf(o.tag)).toBe(slot)
              tags.add(slot, o.size, o.requested)
              ref.occupied[slot] += o.size
              ref.requested[slot] += o.requested
              ref.count[slot]++
              live.push({ slot, size: o.size, requested: o.requested })
            } else if (live.length > 0) {
              const gone = live.splice((o.tag * 7919) % live.length, 1)[0]
              tags.remove(gone.slot, gone.size, gone.requested)
              ref.occupied[gone.slot] -= gone.size
              ref.requested[gone.slot] -= gone.requested
              ref.count[gone.slot]--
            }
          }
          expect(tags.sample(f)).toBe(ref.sample(f))
        }
        const names = table.list().map((s) => s.name)
        expect(names).toEqual(ref.names.flatMap((name) => (['occupiedBytes', 'requestedBytes', 'count'] as const).map((field) => SERIES_NAME.tag(name, field))))
        ref.names.forEach((name, t) => {
          expect(Array.from(table.get(SERIES_NAME.tag(name, 'occupiedBytes'))!)).toEqual(Array.from(ref.columns[t][0]))
          expect(Array.from(table.get(SERIES_NAME.tag(name, 'requestedBytes'))!)).toEqual(Array.from(ref.columns[t][1]))
          expect(Array.from(table.get(SERIES_NAME.tag(name, 'count'))!)).toEqual(Array.from(ref.columns[t][2]))
        })
      }),
      { numRuns: runs(200) },
    )
  })

  it('cost a frame the tags it changed, not every tag: ten thousand tags, one changed a frame', () => {
    const frames = 2000
    const table = new SeriesTable(Float64Array.from({ length: frames }, (_, i) => i))
    const tags = new TagTotals(store, table)
    for (let t = 1; t <= 10_000; t++) tags.add(tags.slotOf(t), 4096, 4096)
    for (let f = 0; f < frames; f++) {
      if (f > 0) tags.add(tags.slotOf(1 + (f % 10_000)), 65536, 65536)
      expect(tags.sample(f)).toBe(10_000 * 4096 + f * 65536)
    }
    // three step series per tag: each tag's first frame, and one more entry for the 1 999 tags changed once more;
    // as columns of every frame they would hold 30 000 × 2 000 values (480 MB)
    expect(table.stepLog.length).toBe(3 * (10_000 + 1999))
    expect(table.byteSize()).toBeLessThan(3 * 2 ** 16 * 16 + 2 ** 15 * 12)
    expect(table.get(SERIES_NAME.tag('T2', 'occupiedBytes'))![frames - 1]).toBe(4096 + 65536)
    expect(table.get(SERIES_NAME.tag('T2', 'count'))![0]).toBe(1)
  })
})
