import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import type { ModelSink } from '../../../../../src/main/model/events'
import { runs } from '../../../../properties'

type Op =
  | { op: 'add'; object: number; bytes: number; high: boolean }
  | { op: 'remove'; object: number }
  | { op: 'resize'; object: number; bytes: number }
  | { op: 'use'; object: number }
  | { op: 'hold'; object: number }
  | { op: 'unhold'; object: number }
  | { op: 'budget'; bytes: number }
  | { op: 'end' }

const objectId = fc.integer({ min: 0, max: 11 })
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('add' as const), object: objectId, bytes: fc.integer({ min: 0, max: 60 }), high: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('remove' as const), object: objectId }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('resize' as const), object: objectId, bytes: fc.integer({ min: 0, max: 80 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('use' as const), object: objectId }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('hold' as const), object: objectId }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('unhold' as const), object: objectId }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('budget' as const), bytes: fc.integer({ min: 0, max: 200 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('end' as const) }) },
)

function recorder(): { sink: ModelSink; log: string[] } {
  const log: string[] = []
  return {
    log,
    sink: {
      madeResident: (o, b, f) => log.push(`+${o}:${b}@${f}`),
      evicted: (o, b, f) => log.push(`-${o}:${b}@${f}`),
      overBudget: (f, r, b) => log.push(`over@${f}:${r}>${b}`),
      residencyObjectCreated: (o, b, p, _l, f) => log.push(`new ${o}:${b}:${p}@${f}`),
      residencyObjectDestroyed: (o, f) => log.push(`del ${o}@${f}`),
    },
  }
}

/**
 * The rules of §9 written the slow, obvious way: every touch (made resident at creation, used in a frame) takes a
 * new sequence number, and eviction sorts the resident objects not in use by sequence every time, by recency
 * alone (priority plays no part). In use: with `use` records the objects marked, touched in the order first
 * marked; without them (usedWhenHeld) the objects holding a live resource or marked, the resident ones touched in
 * their previous order, then the others in the order of their first change in the frame.
 */
class ReferenceResidency {
  objects = new Map<number, { bytes: number; high: boolean; resident: boolean; seq: number; holders: number }>()
  used: number[] = []
  changed: number[] = []
  seq = 0
  constructor(
    private budget: number,
    private readonly startResident: boolean,
    private readonly usedWhenHeld: boolean,
    private readonly log: string[],
  ) {}

  private change(o: number): void {
    if (!this.changed.includes(o)) this.changed.push(o)
  }
  add(o: number, bytes: number, high: boolean, frame: number): void {
    if (this.objects.has(o)) this.remove(o, frame)
    this.log.push(`new ${o}:${bytes}:${high ? 'high' : 'normal'}@${frame}`)
    this.objects.set(o, { bytes, high, resident: this.startResident, seq: this.startResident ? ++this.seq : 0, holders: 0 })
    if (this.startResident) this.log.push(`+${o}:${bytes}@${frame}`)
    this.change(o)
  }
  remove(o: number, frame: number): void {
    if (!this.objects.delete(o)) return
    this.used = this.used.filter((u) => u !== o)
    this.changed = this.changed.filter((u) => u !== o)
    this.log.push(`del ${o}@${frame}`)
  }
  resize(o: number, bytes: number): void {
    const obj = this.objects.get(o)
    if (obj) obj.bytes = bytes
  }
  use(o: number): void {
    if (this.objects.has(o) && !this.used.includes(o)) {
      this.used.push(o)
      this.change(o)
    }
  }
  hold(o: number): void {
    const obj = this.objects.get(o)
    if (!obj) return
    if (++obj.holders === 1) this.change(o)
  }
  unhold(o: number): void {
    const obj = this.objects.get(o)
    if (!obj || obj.holders === 0) return
    if (--obj.holders === 0) this.change(o)
  }
  setBudget(bytes: number): void {
    this.budget = bytes
  }
  resident(): number {
    let sum = 0
    for (const o of this.objects.values()) if (o.resident) sum += o.bytes
    return sum
  }
  /** Resident objects, least recently used first. */
  order(): number[] {
    return [...this.objects.entries()].filter(([, o]) => o.resident).sort(([, a], [, b]) => a.seq - b.seq).map(([id]) => id)
  }
  private inUse(id: number): boolean {
    return this.used.includes(id) || (this.usedWhenHeld && this.objects.get(id)!.holders > 0)
  }
  end(frame: number): void {
    let touched: number[]
    if (!this.usedWhenHeld) touched = this.used
    else {
      const resident = this.order().filter((id) => this.inUse(id))
      const others = this.changed.filter((id) => this.objects.has(id) && !this.objects.get(id)!.resident && this.inUse(id))
      touched = [...resident, ...others]
    }
    for (const id of touched) {
      const o = this.objects.get(id)!
      o.seq = ++this.seq
      if (!o.resident) {
        o.resident = true
        this.log.push(`+${id}:${o.bytes}@${frame}`)
      }
    }
    while (this.resident() > this.budget) {
      const victim = this.order().find((id) => !this.inUse(id))
      if (victim === undefined) {
        this.log.push(`over@${frame}:${this.resident()}>${this.budget}`)
        break
      }
      const o = this.objects.get(victim)!
      o.resident = false
      this.log.push(`-${victim}:${o.bytes}@${frame}`)
    }
    this.used = []
    this.changed = []
  }
}

function apply(rm: ResidencyManager, op: Op, frame: number): number {
  switch (op.op) {
    case 'add':
      rm.addObject(op.object, op.bytes, op.high ? 'high' : 'normal', `o${op.object}`, frame)
      break
    case 'remove':
      if (rm.has(op.object)) rm.removeObject(op.object, frame)
      break
    case 'resize':
      if (rm.has(op.object)) rm.resizeObject(op.object, op.bytes, frame)
      break
    case 'use':
      rm.markUsed(op.object)
      break
    case 'hold':
      rm.addHolder(op.object)
      break
    case 'unhold':
      rm.removeHolder(op.object)
      break
    case 'budget':
      rm.setBudget(op.bytes)
      break
    case 'end':
      rm.endFrame(frame)
      return frame + 1
  }
  return frame
}

describe('ResidencyManager properties', () => {
  it('matches the slow reference: same events, same resident total after every operation', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 150, size: 'max' }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 200 }),
        (ops, startResident, usedWhenHeld, budget) => {
        const { sink, log } = recorder()
        const rm = new ResidencyManager({ enabled: true, startResident, budget, usedWhenHeld }, sink)
        const refLog: string[] = []
        const ref = new ReferenceResidency(budget, startResident, usedWhenHeld, refLog)
        let frame = 0
        for (const op of ops) {
          if (op.op === 'add') ref.add(op.object, op.bytes, op.high, frame)
          else if (op.op === 'remove') ref.remove(op.object, frame)
          else if (op.op === 'resize') ref.resize(op.object, op.bytes)
          else if (op.op === 'use') ref.use(op.object)
          else if (op.op === 'hold') ref.hold(op.object)
          else if (op.op === 'unhold') ref.unhold(op.object)
          else if (op.op === 'budget') ref.setBudget(op.bytes)
          else ref.end(frame)
          frame = apply(rm, op, frame)
          expect(rm.residentBytes()).toBe(ref.resident())
          expect(rm.evictionOrder()).toEqual(ref.order())
        }
        expect(log).toEqual(refLog)
        // The snapshot agrees with the running totals.
        const objects = rm.objects()
        expect(objects.filter((o) => o.resident).reduce((s, o) => s + o.bytes, 0)).toBe(rm.residentBytes())
        expect(objects.reduce((s, o) => s + o.bytes, 0)).toBe(rm.totals().bytes)
      }),
      { numRuns: runs(600) },
    )
  })

  it('keeps the resident total within the budget after endFrame unless the frame was reported over budget', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 200, size: 'max' }), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 200 }), (ops, startResident, usedWhenHeld, budget) => {
        const overFrames = new Set<number>()
        const evictedUsed: string[] = []
        let used = new Set<number>()
        const rm = new ResidencyManager(
          { enabled: true, startResident, budget, usedWhenHeld },
          {
            overBudget: (f) => overFrames.add(f),
            evicted: (o, _b, f) => {
              if (used.has(o)) evictedUsed.push(`${o}@${f}`)
            },
          },
        )
        let frame = 0
        for (const op of ops) {
          // A use names the object live at that moment; a new object under the same id is not used yet.
          if (op.op === 'use' && rm.has(op.object)) used.add(op.object)
          if (op.op === 'remove' || op.op === 'add') used.delete(op.object)
          const ended = op.op === 'end'
          const f = frame
          frame = apply(rm, op, frame)
          if (ended) {
            if (!overFrames.has(f)) expect(rm.residentBytes()).toBeLessThanOrEqual(rm.budget())
            else expect(rm.residentBytes()).toBeGreaterThan(rm.budget())
            used = new Set()
          }
        }
        // An object used in a frame is never evicted in that frame.
        expect(evictedUsed).toEqual([])
      }),
      { numRuns: runs(400) },
    )
  })

  it('clone() continues identically, and so does a clone of a packed copy (a checkpoint)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 160, size: 'max' }), fc.nat(), fc.boolean(), fc.boolean(), fc.boolean(), (ops, cut, startResident, usedWhenHeld, packed) => {
        const at = ops.length === 0 ? 0 : cut % (ops.length + 1)
        const a = recorder()
        const original = new ResidencyManager({ enabled: true, startResident, budget: 100, usedWhenHeld }, a.sink)
        let frame = 0
        for (const op of ops.slice(0, at)) frame = apply(original, op, frame)
        const b = recorder()
        // A packed copy holds its tables cut to the slots made; only its clones go on.
        const copy = packed ? original.clone(recorder().sink, true).clone(b.sink) : original.clone(b.sink)
        const before = a.log.length
        let frameA = frame
        let frameB = frame
        for (const op of ops.slice(at)) {
          frameA = apply(original, op, frameA)
          frameB = apply(copy, op, frameB)
        }
        expect(b.log).toEqual(a.log.slice(before))
        expect(copy.objects()).toEqual(original.objects())
        expect(copy.counters()).toEqual(original.counters())
        expect(copy.evictionOrder()).toEqual(original.evictionOrder())
      }),
      { numRuns: runs(300) },
    )
  })
})
