/**
 * A `use` line (D3D12Model.useLine: the line's objects kept from when it was last named, built again when one of its
 * ids changed) against use(), which looks every id up each time: on random streams of creates (pooled, committed,
 * reserved, upload), releases, commits, locks, defrag moves, pool clean-ups, fences and frames, with lines naming
 * live, released, unknown, repeated and unstamped ids, the two models send the same events, keep the same
 * counters (unknown uses included) and end with the same residency order.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { ModelSink } from '../../../../../src/main/model/events'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import { KiB, MiB } from '../../../../../src/shared/units'
import { runs } from '../../../../properties'
import { newModel } from './helpers'

type Op =
  | { k: 'buffer'; id: number; size: number; usage: 'Static' | 'Dynamic' }
  | { k: 'texture'; id: number; side: number; reserved: boolean }
  | { k: 'release'; id: number }
  | { k: 'commit'; id: number; bytes: number }
  | { k: 'lock'; id: number }
  | { k: 'use'; line: number }
  | { k: 'frame' }
  | { k: 'gpu' }

const LINES = 6
// Ids near 0, and a few past the use cache's first table of stamps (1 024), which it covers once a kept line names them.
const id = fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 19 }) }, { weight: 1, arbitrary: fc.integer({ min: 3000, max: 3003 }) })
const op: fc.Arbitrary<Op> = fc.oneof(
  // Pooled (small static), upload (dynamic) and committed (20 MiB) buffers.
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('buffer' as const),
      id,
      size: fc.constantFrom(64 * KiB, 256 * KiB, 512 * KiB, 20 * MiB),
      usage: fc.constantFrom('Static' as const, 'Static' as const, 'Dynamic' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('texture' as const), id, side: fc.constantFrom(64, 1024), reserved: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('release' as const), id }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('commit' as const), id, bytes: fc.constantFrom(0, 64 * KiB, 1 * MiB) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('lock' as const), id }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('use' as const), line: fc.integer({ min: 0, max: LINES - 1 }) }) },
  { weight: 2, arbitrary: fc.constant({ k: 'frame' as const }) },
  { weight: 2, arbitrary: fc.constant({ k: 'gpu' as const }) },
)
// Live, unknown (20 to 22) and repeated ids, some past the first table of stamps; now and then one no stamp covers (a
// fraction, a large id, one past what a table for so few live resources may hold).
const lineIds = fc.array(
  fc.oneof(
    { weight: 30, arbitrary: fc.integer({ min: 0, max: 22 }) },
    { weight: 6, arbitrary: fc.integer({ min: 3000, max: 3003 }) },
    { weight: 1, arbitrary: fc.constantFrom(2.5, 2 ** 30, 5_000_000) },
  ),
  { minLength: 1, maxLength: 14 },
)

/** The residency events and the moves a model sends, as text. */
function logSink(log: string[]): ModelSink {
  return {
    madeResident: (o, b, f) => log.push(`+${o}:${b}@${f}`),
    evicted: (o, b, f) => log.push(`-${o}:${b}@${f}`),
    overBudget: (f, r) => log.push(`over@${f}:${r}`),
    moved: (i, fromPool, _o, toPool, _t, _b, f) => log.push(`move ${i} ${fromPool}>${toPool}@${f}`),
    poolDestroyed: (p, f) => log.push(`-pool ${p}@${f}`),
  }
}

/** What decides a use: the residency order, the counters and the live objects. */
function residencyState(m: D3D12Model): unknown {
  const r = m.residencyManager()
  return { order: r.evictionOrder(), counters: r.counters(), totals: r.totals() }
}

// Small pools that defrag, clean-up at once and a budget of a few MiB: moves, evictions and over-budget frames.
const CONFIG = {
  'bufferPool.size': 1 * MiB,
  'bufferPool.maxAllocation': 512 * KiB,
  'pool.emptyFramesBeforeRelease': 0,
  'defrag.maxCopyPerFrame': 256 * KiB,
}

describe('use lines', () => {
  it('mark what use() marks for the same ids, as the ids change where they live', () => {
    let moves = 0
    let kept = 0
    fc.assert(
      fc.property(fc.array(lineIds, { minLength: LINES, maxLength: LINES }), fc.array(op, { minLength: 40, maxLength: 200 }), (lists, ops) => {
        const logs: string[][] = [[], []]
        const options = { explicitGpuFences: true, hasUseRecords: true, budget: 3 * MiB }
        const plain = newModel(CONFIG, options, logSink(logs[0]))
        const lined = newModel(CONFIG, options, logSink(logs[1]))
        // The lines' ids one after another, as UseLines keeps them.
        const pool = Float64Array.from(lists.flat())
        const from = lists.map((_, l) => lists.slice(0, l).reduce((n, ids) => n + ids.length, 0))
        const live = new Set<number>()
        let frame = 0
        for (const o of ops) {
          for (const m of [plain, lined]) {
            if (o.k === 'buffer' && !live.has(o.id)) m.createBuffer(o.id, { size: o.size, usage: [o.usage] })
            else if (o.k === 'texture' && !live.has(o.id)) {
              const flags: ('ReservedResource' | 'ShaderResource')[] = o.reserved ? ['ReservedResource'] : ['ShaderResource']
              m.createTexture(o.id, { format: 'R8G8B8A8_UNORM', width: o.side, height: o.side, flags })
            } else if (o.k === 'release' && live.has(o.id)) m.release(o.id)
            else if (o.k === 'commit' && live.has(o.id)) m.commit(o.id, o.bytes)
            else if (o.k === 'lock' && live.has(o.id)) m.lock(o.id, 4 * KiB)
            else if (o.k === 'frame') m.beginFrame(frame + 1)
            else if (o.k === 'gpu' && frame > 0) m.gpuDone(frame - 1)
          }
          if (o.k === 'use') {
            plain.use(lists[o.line])
            lined.useLine(o.line, pool, from[o.line], lists[o.line].length)
          }
          if ((o.k === 'buffer' || o.k === 'texture') && !live.has(o.id)) live.add(o.id)
          else if (o.k === 'release') live.delete(o.id)
          else if (o.k === 'frame') {
            frame++
            expect(residencyState(lined)).toEqual(residencyState(plain))
          }
        }
        plain.endCapture()
        lined.endCapture()
        expect(logs[1]).toEqual(logs[0])
        expect(residencyState(lined)).toEqual(residencyState(plain))
        moves += logs[0].filter((line) => line.startsWith('move')).length
        kept += logs[0].length
      }),
      { numRuns: runs(300) },
    )
    // the streams do move blocks and change residency
    expect(moves).toBeGreaterThan(0)
    expect(kept).toBeGreaterThan(0)
  })

  it('a line named from another array, or in a copy of the model, is worked out afresh', () => {
    const made = () => {
      const m = newModel(CONFIG, { hasUseRecords: true, budget: 30 * MiB })
      m.createBuffer(1, { size: 20 * MiB, usage: ['Static'] })
      m.createBuffer(2, { size: 20 * MiB, usage: ['Static'] })
      return m
    }
    // use() names buffer 1, then buffer 2: over the budget, buffer 1's object is evicted
    const plain = made()
    plain.use([1])
    plain.beginFrame(1)
    plain.use([2])
    plain.beginFrame(2)
    const m = made()
    m.useLine(0, Float64Array.from([1]), 0, 1)
    m.beginFrame(1)
    const copy = m.clone({})
    // line 0 again, read from another array: buffer 2
    const other = Float64Array.from([2])
    for (const model of [m, copy]) {
      model.useLine(0, other, 0, 1)
      model.beginFrame(2)
      expect(residencyState(model)).toEqual(residencyState(plain))
    }
    expect(plain.residencyManager().counters().evictions).toBe(1)
  })
})

describe('ResidencyManager.markUsedBy', () => {
  it('does what as many markUsed calls do', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ object: fc.integer({ min: 0, max: 9 }), times: fc.integer({ min: 1, max: 4 }), end: fc.boolean() }), { maxLength: 60 }),
        fc.boolean(),
        (marks, enabled) => {
          const managers = [0, 1].map(() => new ResidencyManager({ enabled, startResident: false, budget: 3 * MiB }, {}))
          // objects 0 to 5 are known, 6 to 9 are not
          for (const r of managers) for (let o = 0; o < 6; o++) r.addObject(o, (o + 1) * MiB, 'normal', `o${o}`, 0)
          let frame = 0
          for (const { object, times, end } of marks) {
            for (let t = 0; t < times; t++) managers[0].markUsed(object)
            managers[1].markUsedBy(object, times)
            if (end) {
              for (const r of managers) r.endFrame(frame)
              frame++
            }
          }
          expect(managers[1].counters()).toEqual(managers[0].counters())
          expect(managers[1].evictionOrder()).toEqual(managers[0].evictionOrder())
        },
      ),
      { numRuns: runs(200) },
    )
  })
})
