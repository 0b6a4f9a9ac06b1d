import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Replay } from '../../../../../src/main/analysis/d3d12/replay'
import { Snapshots } from '../../../../../src/main/analysis/d3d12/snapshot'
import { RECORD_KIND, frameEnd, type CaptureStore } from '../../../../../src/main/ingest/store'
import { defaultConfig } from '../../../../../src/shared/model'
import { KiB, MiB } from '../../../../../src/shared/units'
import { lines, scan } from '../../ingest/helpers'
import { runs } from '../../../../properties'

// Creates (ids reused while live too), releases (of live and unknown ids), `use` records and frames.
const id = fc.integer({ min: 0, max: 12 })
const record = fc.oneof(
  { weight: 4, arbitrary: fc.record({ e: fc.constant('buffer'), id, size: fc.constantFrom(0, 256, 4 * KiB, 3 * MiB, 20 * MiB), usage: fc.constantFrom(['Static'], ['Dynamic']) }) },
  { weight: 2, arbitrary: fc.record({ e: fc.constant('texture'), id, format: fc.constantFrom('BC7_UNORM', 'R8G8B8A8_UNORM'), width: fc.constantFrom(64, 4096), height: fc.constantFrom(64, 512), mips: fc.constantFrom(1, 4) }) },
  { weight: 3, arbitrary: fc.record({ e: fc.constant('release'), id }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('use'), ids: fc.array(id, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.constant({ e: 'frame' }) },
)

/** The plain reference: the live ids' create records after each frame, a map set at each create and cleared at each release. */
function createsByFrame(store: CaptureStore): Map<number, number>[] {
  const live = new Map<number, number>()
  const out: Map<number, number>[] = []
  for (let f = 0; f < store.frames.length; f++) {
    for (let i = store.frames.firstRecord[f]; i < frameEnd(store, f); i++) {
      const kind = store.records.kind[i]
      const ref = store.records.ref[i]
      if (kind === RECORD_KIND.release) live.delete(store.ops[ref])
      else if (kind === RECORD_KIND.buffer) live.set(store.buffers.id.data[ref], i)
      else if (kind === RECORD_KIND.texture) live.set(store.textures.id.data[ref], i)
    }
    out.push(new Map(live))
  }
  return out
}

describe("a snapshot table's create records, read by the model's slot", () => {
  it("read a slot taken again by a later create from the newest checkpoint of a chain that keeps it", async () => {
    // Buffer 1 (record 1) in slot 0, released in frame 1; its slot is free once the GPU is done, and buffer 2
    // (record 7, frame 4) takes it. The checkpoints from frame 2 on are chained to the one before: the slot's
    // record is 1 in an older copy, then -1, then 7.
    const capture = [
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 256, usage: ['Static'] },
      { e: 'frame', n: 1 },
      { e: 'release', id: 1 },
      ...[2, 3, 4].map((n) => ({ e: 'frame', n })),
      { e: 'buffer', id: 2, size: 256, usage: ['Static'] },
      { e: 'frame', n: 5 },
    ]
    const { store } = scan(lines(...capture))
    expect(store.records.kind[7]).toBe(RECORD_KIND.buffer)
    const replay = await Replay.run(store, { config: defaultConfig(), checkpointRecords: 1 })
    const table = new Snapshots(replay).table(5)
    expect(Array.from(table.id)).toEqual([2])
    expect(Array.from(table.createRecord)).toEqual([7])
  })

  it('are the records a plain map of the live ids gives, from a checkpoint and from a cached state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 80 }),
        fc.constantFrom(1, 4, 15, Number.POSITIVE_INFINITY),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        async (records, checkpointRecords, cursor) => {
          let frame = 0
          const capture = [{ e: 'frame', n: 0 }, ...records.map((r) => (r.e === 'frame' ? { e: 'frame', n: ++frame } : r))]
          const { store } = scan(lines(...capture))
          const replay = await Replay.run(store, { config: defaultConfig(), checkpointRecords })
          const expected = createsByFrame(store)
          // A cursor over frames (its snapshots start from the states it left), and a cold snapshot of each.
          const cached = new Snapshots(replay)
          for (const at of cursor) {
            const f = at % store.frames.length
            for (const snapshots of [cached, new Snapshots(replay)]) {
              const table = snapshots.table(f)
              const records = Array.from(table.id, (id) => expected[f].get(id) ?? -1)
              expect(Array.from(table.createRecord), `frame ${f}`).toEqual(records)
            }
          }
        },
      ),
      { numRuns: runs(60) },
    )
  })
})
