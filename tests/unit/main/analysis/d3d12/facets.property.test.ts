/**
 * A first page's facets (the placements, heaps and tags present at a frame), found from the rows' codes and tag
 * numbers marked in flags, against the distinct values of the table's text columns, one string per row.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Replay } from '../../../../../src/main/analysis/d3d12/replay'
import { Snapshots } from '../../../../../src/main/analysis/d3d12/snapshot'
import { distinct } from '../../../../../src/main/analysis/resourceTable'
import { defaultConfig } from '../../../../../src/shared/model'
import { KiB, MiB } from '../../../../../src/shared/units'
import { lines, scan } from '../../ingest/helpers'
import { runs } from '../../../../properties'

const id = fc.integer({ min: 0, max: 30 })
// Tags and names share the capture's string table: a name may be a tag's string too.
const tag = fc.constantFrom('Meshes', 'Textures', 'RayTracing', 'Lumen', '', undefined)
const name = fc.constantFrom('Meshes', 'SM_Rock.VB', 'T_Rock_D', undefined)
const record = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      e: fc.constant('buffer'),
      id,
      size: fc.constantFrom(0, 256, 4 * KiB, 3 * MiB, 40 * MiB),
      usage: fc.constantFrom(['Static'], ['Static', 'UnorderedAccess'], ['Dynamic'], ['Uniform', 'Dynamic']),
      tag,
      name,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      e: fc.constant('texture'),
      id,
      format: fc.constantFrom('BC7_UNORM', 'R8G8B8A8_UNORM'),
      width: fc.constantFrom(64, 512, 4096),
      height: fc.constantFrom(64, 512),
      mips: fc.constantFrom(1, 4),
      flags: fc.constantFrom(['ShaderResource'], ['RenderTargetable']),
      tag,
      name,
    }),
  },
  { weight: 3, arbitrary: fc.record({ e: fc.constant('release'), id }) },
  { weight: 2, arbitrary: fc.constant({ e: 'frame' }) },
)

describe("a first page's facets", () => {
  it('are the distinct placements, heaps and tags of the text columns, at every frame, store after store', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 120 }), async (records) => {
        let frame = 0
        const capture = [{ e: 'frame', n: 0 }, ...records.map((r) => (r.e === 'frame' ? { e: 'frame', n: ++frame } : r))]
        const { store } = scan(lines(...capture))
        const replay = await Replay.run(store, { config: defaultConfig(), checkpointRecords: 8 })
        for (let f = 0; f < store.frames.length; f++) {
          const page = new Snapshots(replay).resources({ runId: 'r', frame: f, sort: 'occupied', descending: true, offset: 0, limit: 10 })
          const text = new Snapshots(replay).table(f).text
          expect(page.facets).toEqual({ placement: distinct(text.placement), heap: distinct(text.heap), tag: distinct(text.tag) })
        }
      }),
      { numRuns: runs(60) },
    )
  })
})
