import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { AliasingChecker } from '../../../../../src/main/model/aliasing/checker'
import { checkTransientLayout, type TransientRectangle } from '../../../../../src/main/model/aliasing/transient'
import type { Hazard } from '../../../../../src/main/model/aliasing/hazards'
import type { AccessOp, CaptureRecord } from '../../../../../src/shared/capture'
import { runs } from '../../../../properties'

const UNIT = 65536

const resource = fc.record({
  start: fc.integer({ min: 0, max: 3 }),
  length: fc.integer({ min: 1, max: 4 }),
  kind: fc.constantFrom('buffer' as const, 'texture' as const, 'target' as const),
})
const step = fc.record({
  pick: fc.nat(),
  init: fc.constantFrom<AccessOp>('clear', 'discard', 'copy'),
  ops: fc.array(fc.constantFrom<AccessOp>('read', 'write'), { minLength: 1, maxLength: 3 }),
  boundary: fc.constantFrom('none', 'none', 'submit', 'frame'),
})
const scenario = fc.record({
  resources: fc.array(resource, { minLength: 2, maxLength: 6 }),
  steps: fc.array(step, { minLength: 2, maxLength: 30 }),
  remove: fc.nat(),
})
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

function layoutOf(s: Scenario) {
  return s.resources.map((r, i) => {
    const start = r.start * UNIT
    const end = Math.min(4, r.start + r.length) * UNIT
    return { id: 100 + i, start, end, kind: r.kind }
  })
}

/** The simple model's correct usage: activate a resource, initialize it when it is a target, then use it. */
function records(s: Scenario, without = -1): { list: CaptureRecord[]; picks: number[] } {
  const res = layoutOf(s)
  const list: CaptureRecord[] = [{ e: 'frame', n: 1 }, { e: 'heap', id: 1, size: 4 * UNIT }]
  for (const r of res) {
    if (r.kind === 'buffer') list.push({ e: 'placed', id: r.id, heap: 1, offset: r.start, kind: 'buffer', size: r.end - r.start })
    else {
      const flags = r.kind === 'target' ? (['RenderTargetable'] as const) : (['ShaderResource'] as const)
      list.push({ e: 'placed', id: r.id, heap: 1, offset: r.start, kind: 'texture', size: r.end - r.start, flags: [...flags] })
    }
  }
  let frame = 1
  const picks: number[] = []
  s.steps.forEach((st, k) => {
    const r = res[st.pick % res.length]
    picks.push(st.pick % res.length)
    if (k !== without) list.push({ e: 'barrier', after: r.id })
    if (r.kind === 'target') list.push({ e: 'access', id: r.id, op: st.init })
    for (const op of st.ops) list.push({ e: 'access', id: r.id, op })
    if (st.boundary === 'submit') list.push({ e: 'submit' })
    if (st.boundary === 'frame') list.push({ e: 'frame', n: ++frame })
  })
  return { list, picks }
}

function hazards(model: 'simple' | 'advanced', list: CaptureRecord[]) {
  const checker = new AliasingChecker({ model })
  for (const r of list) checker.apply(r)
  return checker.hazards
}

describe('aliasing checks over random sequences', () => {
  it('a correct sequence has no hazard in either model', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { list } = records(s)
        expect(hazards('simple', list)).toEqual([])
        expect(hazards('advanced', list)).toEqual([])
      }),
      { numRuns: runs(400) },
    )
  })

  it('removing the barrier before a switch to an overlapping resource is caught by both models', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const res = layoutOf(s)
        const { picks } = records(s)
        // Steps whose resource differs from, overlaps, and follows in the same submit the previous step's resource.
        const candidates: number[] = []
        for (let k = 1; k < picks.length; k++) {
          const a = res[picks[k - 1]]
          const b = res[picks[k]]
          if (a !== b && a.start < b.end && b.start < a.end && s.steps[k - 1].boundary === 'none') candidates.push(k)
        }
        fc.pre(candidates.length > 0)
        const k = candidates[s.remove % candidates.length]
        const { list } = records(s, k)
        const mine = res[picks[k]].id
        const previous = res[picks[k - 1]].id
        const simple = hazards('simple', list)
        const names = (h: Hazard) => h.resources[0] === mine && h.resources[1] === previous
        expect(simple.some((h) => h.rule === 'access-inactive' && names(h))).toBe(true)
        const advanced = hazards('advanced', list)
        expect(advanced.some((h) => h.rule === 'barrier-missing' && names(h))).toBe(true)
      }),
      { numRuns: runs(400) },
    )
  })
})

describe('transient layouts over random lifetimes', () => {
  /** First fit over the heap with pass lifetimes: what a correct transient allocator produces. */
  function firstFit(items: { size: number; first: number; length: number; target: boolean }[]): TransientRectangle[] {
    const placed: TransientRectangle[] = []
    items.forEach((it, i) => {
      const first = it.first
      const last = it.first + it.length
      const busy = placed.filter((p) => p.first <= last && first <= p.last)
      let offset = 0
      for (let moved = true; moved; ) {
        moved = false
        for (const p of busy) {
          if (p.offset < offset + it.size && offset < p.offset + p.size) {
            offset = p.offset + p.size
            moved = true
          }
        }
      }
      const renderTarget = it.target
      placed.push({ id: 1000 + i, execution: 0, heap: 7, offset, size: it.size, first, last, cacheHit: false, renderTarget })
    })
    return placed
  }

  const items = fc.array(
    fc.record({
      size: fc.constantFrom(UNIT, 2 * UNIT, 3 * UNIT),
      first: fc.integer({ min: 0, max: 10 }),
      length: fc.integer({ min: 0, max: 4 }),
      target: fc.boolean(),
    }),
    { minLength: 1, maxLength: 20 },
  )

  it('a correct layout has no hazard, and moving one rectangle onto a live neighbour makes one', () => {
    fc.assert(
      fc.property(items, fc.nat(), (list, pick) => {
        const layout = firstFit(list)
        expect(checkTransientLayout(layout)).toEqual([])
        // Put one rectangle on the bytes of another that lives in a shared pass.
        const pairs: [number, number][] = []
        for (let i = 0; i < layout.length; i++) {
          for (let j = 0; j < layout.length; j++) {
            if (i !== j && layout[i].first <= layout[j].last && layout[j].first <= layout[i].last) pairs.push([i, j])
          }
        }
        fc.pre(pairs.length > 0)
        const [i, j] = pairs[pick % pairs.length]
        const broken = layout.map((r, n) => (n === i ? { ...r, offset: layout[j].offset } : r))
        expect(checkTransientLayout(broken).length).toBeGreaterThan(0)
      }),
      { numRuns: runs(300) },
    )
  })
})
