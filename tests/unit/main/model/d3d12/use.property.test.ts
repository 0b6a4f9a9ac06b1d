import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { ModelSink } from '../../../../../src/main/model/events'
import { KiB, MiB } from '../../../../../src/shared/units'
import { runs } from '../../../../properties'
import { newModel } from './helpers'

type Op =
  | { k: 'buffer'; id: number; size: number }
  | { k: 'texture'; id: number; side: number }
  | { k: 'release'; id: number }
  | { k: 'use'; ids: number[] }
  | { k: 'frame' }

const id = fc.integer({ min: 0, max: 15 })
const op: fc.Arbitrary<Op> = fc.oneof(
  // Small buffers share pools (one residency object for many ids); 20 MiB ones are committed (one each).
  { weight: 3, arbitrary: fc.record({ k: fc.constant('buffer' as const), id, size: fc.constantFrom(4 * KiB, 256 * KiB, 20 * MiB) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('texture' as const), id, side: fc.constantFrom(64, 1024, 4096) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('release' as const), id }) },
  // Repeats, unknown and released ids, neighbours of one pool.
  { weight: 4, arbitrary: fc.record({ k: fc.constant('use' as const), ids: fc.array(fc.integer({ min: 0, max: 18 }), { maxLength: 12 }) }) },
  { weight: 2, arbitrary: fc.constant({ k: 'frame' as const }) },
)

describe('use records', () => {
  it('a record of many ids marks what the ids marked one record each would, in the same order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const logs: string[][] = [[], []]
        const sink = (log: string[]): ModelSink => ({
          madeResident: (o, b, f) => log.push(`+${o}:${b}@${f}`),
          evicted: (o, b, f) => log.push(`-${o}:${b}@${f}`),
          overBudget: (f, r) => log.push(`over@${f}:${r}`),
        })
        const options = { hasUseRecords: true, budget: 40 * MiB }
        const whole = newModel({}, options, sink(logs[0]))
        const each = newModel({}, options, sink(logs[1]))
        const live = new Set<number>()
        let frame = 0
        for (const o of ops) {
          for (const m of [whole, each]) {
            if (o.k === 'buffer' && !live.has(o.id)) m.createBuffer(o.id, { size: o.size, usage: ['Static'] })
            else if (o.k === 'texture' && !live.has(o.id)) m.createTexture(o.id, { format: 'BC7_UNORM', width: o.side, height: o.side })
            else if (o.k === 'release' && live.has(o.id)) m.release(o.id)
            else if (o.k === 'frame') m.beginFrame(frame + 1)
          }
          if (o.k === 'use') {
            whole.use(o.ids)
            for (const i of o.ids) each.use([i])
          }
          if ((o.k === 'buffer' || o.k === 'texture') && !live.has(o.id)) live.add(o.id)
          else if (o.k === 'release') live.delete(o.id)
          else if (o.k === 'frame') frame++
        }
        whole.endCapture()
        each.endCapture()
        expect(logs[0]).toEqual(logs[1])
        expect(whole.residencyManager().counters()).toEqual(each.residencyManager().counters())
        expect(whole.residencyManager().evictionOrder()).toEqual(each.residencyManager().evictionOrder())
      }),
      { numRuns: runs(200) },
    )
  })
})
