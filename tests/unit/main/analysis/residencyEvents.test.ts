/**
 * Residency events counted as they come: a replay that keeps no rows (`report`) gives the report of one that keeps
 * them, on a generated stress capture under a 256 MiB budget (exceeded every frame) and one whose budget drops; the counts equal a
 * scan of the kept rows; and the counters stay exact past 2^32 bytes.
 */
import { describe, expect, it } from 'vitest'
import { replayCapture } from '../../../../src/main/analysis/run'
import { RESIDENCY_EVENT, ResidencyEvents } from '../../../../src/main/analysis/residencyEvents'
import type { LoadResult } from '../../../../src/main/ingest/read'
import { generated, scan } from '../ingest/helpers'

/** A generated capture; `budget` in place of its header's, so its residency manager evicts early. */
async function loaded(scenario: string, frames: number, budget?: number): Promise<LoadResult> {
  let text = await generated(scenario, frames)
  if (budget !== undefined) text = text.replace(/"budget":\d+\}\n/, `"budget":${budget}}\n`)
  const { store, error } = scan(text)
  expect(error).toBeUndefined()
  return { store, format: 'heapscope-capture', notes: [] }
}

describe('residency events counted without their rows', () => {
  for (const [scenario, frames, budget] of [
    ['stress', 150, 256 * 2 ** 20],
    ['budget-drop', 200, undefined],
  ] as const) {
    it(`give the report of a replay that keeps them (${scenario})`, async () => {
      const result = await loaded(scenario, frames, budget)
      const kept = await replayCapture(result, [], { checkpoints: false })
      const counted = await replayCapture(result, [], { checkpoints: false, residencyEvents: false })
      expect(JSON.stringify(counted.report)).toBe(JSON.stringify(kept.report))

      const rows = kept.replay.residency!
      expect(rows.length).toBeGreaterThan(0)
      expect(counted.replay.residency!.length).toBe(0)
      // the counters are a scan of the rows, in order
      let evictions = 0
      let evictedBytes = 0
      let made = 0
      let over = 0
      for (let i = 0; i < rows.length; i++) {
        const kind = rows.kind.data[i]
        if (kind === RESIDENCY_EVENT.evict) {
          evictions++
          evictedBytes += rows.bytes.data[i]
        } else if (kind === RESIDENCY_EVENT.makeResident) made++
        else over++
      }
      expect(evictions).toBeGreaterThan(0)
      expect(made).toBeGreaterThan(0)
      for (const events of [rows, counted.replay.residency!]) {
        expect([events.evictions, events.evictedBytes, events.madeResident, events.overBudget]).toEqual([evictions, evictedBytes, made, over])
      }
      expect(counted.report.residency).toMatchObject({ evictions, evictedBytes, makeResident: made })
    })
  }

  it('count bytes past 2^32 exactly, rows or not', () => {
    for (const keep of [true, false]) {
      const events = new ResidencyEvents(keep)
      events.push(0, RESIDENCY_EVENT.evict, 1, 3 * 2 ** 31)
      events.push(0, RESIDENCY_EVENT.evict, 2, 7)
      events.push(1, RESIDENCY_EVENT.makeResident, 1, 3 * 2 ** 31)
      events.push(1, RESIDENCY_EVENT.overBudget, -1, 2 ** 40)
      expect([events.evictions, events.evictedBytes, events.madeResident, events.overBudget]).toEqual([2, 3 * 2 ** 31 + 7, 1, 1])
      expect(events.length).toBe(keep ? 4 : 0)
      if (keep) expect([...events.kind.view()]).toEqual([1, 1, 0, 2])
    }
  })
})
