import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { applyRecord, modelFor, Replay, seriesName } from '../../../../../src/main/analysis/d3d12/replay'
import { DescScratch } from '../../../../../src/main/analysis/descScratch'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../../../../src/main/ingest/store'
import { defaultConfig } from '../../../../../src/shared/model'
import { KiB, MiB } from '../../../../../src/shared/units'
import { SERIES } from '../../../../../src/shared/ipc'
import { lines, scan } from '../../ingest/helpers'
import { runs } from '../../../../properties'

// Creates (ids reused while live too), releases (of live and unknown ids), `use` records and frames: what the
// replay's per-tag table of live resources follows, create by create.
const id = fc.integer({ min: 0, max: 12 })
const tag = fc.constantFrom('Meshes', 'Textures', 'RayTracing', undefined)
const record = fc.oneof(
  { weight: 4, arbitrary: fc.record({ e: fc.constant('buffer'), id, size: fc.constantFrom(0, 256, 4 * KiB, 3 * MiB, 20 * MiB), usage: fc.constantFrom(['Static'], ['Static', 'UnorderedAccess'], ['Dynamic']), tag }) },
  { weight: 2, arbitrary: fc.record({ e: fc.constant('texture'), id, format: fc.constantFrom('BC7_UNORM', 'R8G8B8A8_UNORM'), width: fc.constantFrom(64, 512, 4096), height: fc.constantFrom(64, 512), mips: fc.constantFrom(1, 4), tag }) },
  { weight: 3, arbitrary: fc.record({ e: fc.constant('release'), id }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('use'), ids: fc.array(id, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.constant({ e: 'frame' }) },
)

describe("the replay's per-tag live table", () => {
  it('gives every frame the tags totals a plain map of the live ids gives, and checkpoints their creates', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 80 }), async (records) => {
        let frame = 0
        const capture = [{ e: 'frame', n: 0 }, ...records.map((r) => (r.e === 'frame' ? { e: 'frame', n: ++frame } : r))]
        const { store } = scan(lines(...capture))
        // One checkpoint per frame: each frame's live creates come back from one.
        const replay = await Replay.run(store, { config: defaultConfig(), checkpointRecords: 1 })

        // The reference: live ids in a Map, the bytes the model placed them with, summed per tag after each frame.
        const live = new Map<number, { tag: string; size: number; requested: number; record: number }>()
        let current = { tag: '', record: 0 }
        const model = modelFor(store, defaultConfig(), {
          placed: (info) => live.set(info.id, { ...current, size: info.size, requested: info.requested }),
          releasePending: (releasedId) => live.delete(releasedId),
        })
        const descs = new DescScratch(store)
        const tags = new Set<string>()
        for (let f = 0; f < store.frames.length; f++) {
          for (let i = store.frames.firstRecord[f]; i < frameEnd(store, f); i++) {
            const r = recordsAt(store, i)
            if (r !== null) current = { tag: r.tag ?? '(untagged)', record: i }
            applyRecord(store, model, i, descs)
          }
          model.finishFrame()
          const sums = new Map<string, { occupied: number; requested: number; count: number }>()
          for (const v of live.values()) {
            tags.add(v.tag)
            const s = sums.get(v.tag) ?? { occupied: 0, requested: 0, count: 0 }
            s.occupied += v.size
            s.requested += v.requested
            s.count++
            sums.set(v.tag, s)
          }
          for (const t of tags) {
            const s = sums.get(t) ?? { occupied: 0, requested: 0, count: 0 }
            expect(replay.series.get(seriesName.tag(t, 'count'))?.[f] ?? 0, `${t} count, frame ${f}`).toBe(s.count)
            expect(replay.series.get(seriesName.tag(t, 'occupiedBytes'))?.[f] ?? 0).toBe(s.occupied)
            expect(replay.series.get(seriesName.tag(t, 'requestedBytes'))?.[f] ?? 0).toBe(s.requested)
          }
          expect(replay.series.get(SERIES.liveCount)![f]).toBe(live.size)
          const created = replay.modelAt(f).created
          expect(new Map([...created].sort((a, b) => a[0] - b[0]))).toEqual(
            new Map([...live].map(([k, v]) => [k, v.record] as [number, number]).sort((a, b) => a[0] - b[0])),
          )
        }
      }),
      { numRuns: runs(60) },
    )
  })
})

/** The create record at index `i` with its tag, or null for another kind. */
function recordsAt(store: CaptureStore, i: number): { tag: string | undefined } | null {
  const kind = store.records.kind[i]
  const ref = store.records.ref[i]
  if (kind === RECORD_KIND.buffer) return { tag: store.strings.get(store.buffers.tag.data[ref]) }
  if (kind === RECORD_KIND.texture) return { tag: store.strings.get(store.textures.tag.data[ref]) }
  return null
}
