import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { ModelSink } from '../../../../../src/main/model/events'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import { livePoolName } from '../../../../../src/main/model/d3d12/views'
import { KiB, MiB } from '../../../../../src/shared/units'
import { runs } from '../../../../properties'
import { newModel } from './helpers'

type Op =
  | { k: 'buffer'; id: number; size: number; usage: 'Static' | 'Dynamic' }
  | { k: 'texture'; id: number; side: number }
  | { k: 'releases'; ids: number[] }
  | { k: 'frame' }
  | { k: 'gpu' }

const id = fc.integer({ min: 0, max: 23 })
const op: fc.Arbitrary<Op> = fc.oneof(
  // Buddy (small dynamic), pooled (small static) and committed (20 MiB) buffers; textures pooled and committed.
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('buffer' as const),
      id,
      size: fc.constantFrom(256, 4 * KiB, 256 * KiB, 20 * MiB),
      usage: fc.constantFrom('Static' as const, 'Dynamic' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('texture' as const), id, side: fc.constantFrom(64, 1024, 4096) }) },
  // A run of releases: live, repeated and unknown ids (up to 27).
  { weight: 3, arbitrary: fc.record({ k: fc.constant('releases' as const), ids: fc.array(fc.integer({ min: 0, max: 27 }), { maxLength: 9 }) }) },
  { weight: 2, arbitrary: fc.constant({ k: 'frame' as const }) },
  { weight: 1, arbitrary: fc.constant({ k: 'gpu' as const }) },
)

/** Every event a model sends, as text. */
function logSink(log: string[]): ModelSink {
  return {
    placed: (p, f) => log.push(`placed ${p.id} ${p.placement} ${p.pool} ${p.offset} ${p.size} ${p.slot}@${f}`),
    releasePending: (i, f, slot) => log.push(`release ${i} ${slot}@${f}`),
    freed: (i, f) => log.push(`freed ${i}@${f}`),
    poolCreated: (p) => log.push(`pool ${p.pool} ${p.name}`),
    poolDestroyed: (p, f) => log.push(`-pool ${p}@${f}`),
    warning: (kind, _m, f) => log.push(`warn ${kind}@${f}`),
  }
}

/** What a model holds: its totals, its live table and its pools with their blocks. */
function state(m: D3D12Model): unknown {
  const t = m.liveTable()
  return {
    byRow: Array.from(m.totals.byRow),
    byHeap: Array.from(m.totals.byHeap),
    live: Array.from({ length: t.length }, (_, i) => [t.id[i], livePoolName(t, i), t.offset[i], t.size[i], t.slot[i]]),
    pools: m.pools(),
  }
}

describe('reading a run of releases ahead', () => {
  it('changes nothing the model does, and gives each id the slot its release frees', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 150 }), (ops) => {
        const logs: string[][] = [[], []]
        const options = { explicitGpuFences: true, hasUseRecords: true }
        const plain = newModel({}, options, logSink(logs[0]))
        const warmed = newModel({}, options, logSink(logs[1]))
        const live = new Set<number>()
        let frame = 0
        for (const o of ops) {
          if (o.k === 'releases') {
            const ids = Float64Array.from(o.ids)
            const slots = new Int32Array(ids.length)
            warmed.warmReleases(ids, ids.length, slots)
            // each id's slot is the one its release reports (the first release of a repeated id)
            const from = logs[1].length
            for (const i of o.ids) warmed.release(i)
            const reported = logs[1].slice(from).filter((line) => line.startsWith('release '))
            const expected = o.ids
              .map((i, k) => ({ i, slot: slots[k], first: o.ids.indexOf(i) === k }))
              .filter((e) => e.first && live.has(e.i))
              .map((e) => `release ${e.i} ${e.slot}@${frame}`)
            expect(reported).toEqual(expected)
            o.ids.forEach((i, k) => {
              if (!live.has(i)) expect(slots[k]).toBe(-1)
            })
            for (const i of o.ids) plain.release(i)
            for (const i of o.ids) live.delete(i)
            continue
          }
          for (const m of [plain, warmed]) {
            if (o.k === 'buffer' && !live.has(o.id)) m.createBuffer(o.id, { size: o.size, usage: [o.usage] })
            else if (o.k === 'texture' && !live.has(o.id)) m.createTexture(o.id, { format: 'BC7_UNORM', width: o.side, height: o.side })
            else if (o.k === 'frame') m.beginFrame(frame + 1)
            else if (o.k === 'gpu') m.gpuDone(frame - 1)
          }
          if ((o.k === 'buffer' || o.k === 'texture') && !live.has(o.id)) live.add(o.id)
          else if (o.k === 'frame') frame++
        }
        expect(logs[1]).toEqual(logs[0])
        expect(state(warmed)).toEqual(state(plain))
      }),
      { numRuns: runs(200) },
    )
  })
})
