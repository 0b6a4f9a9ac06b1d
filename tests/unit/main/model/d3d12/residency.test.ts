import { describe, expect, it } from 'vitest'
import { ResidencyManager } from '../../../../../src/main/model/d3d12/residency'
import type { ModelSink } from '../../../../../src/main/model/events'

/** A sink that writes the residency events as short lines: "+1:40@0" made resident, "-1:40@2" evicted. */
function recorder(): { sink: ModelSink; log: string[] } {
  const log: string[] = []
  const sink: ModelSink = {
    madeResident: (o, b, f) => log.push(`+${o}:${b}@${f}`),
    evicted: (o, b, f) => log.push(`-${o}:${b}@${f}`),
    overBudget: (f, r, b) => log.push(`over@${f}:${r}>${b}`),
    residencyObjectCreated: (o, b, p, l, f) => log.push(`new ${o}:${b}:${p}:${l}@${f}`),
    residencyObjectDestroyed: (o, f) => log.push(`del ${o}@${f}`),
    warning: (k, _m, f) => log.push(`warn ${k}@${f}`),
  }
  return { sink, log }
}

function manager(budget: number, startResident = false, enabled = true) {
  const { sink, log } = recorder()
  const rm = new ResidencyManager({ enabled, startResident, budget }, sink)
  return { rm, log }
}

/** Runs one frame: marks `used`, ends the frame, returns the residency events it produced. */
function frame(rm: ResidencyManager, log: string[], n: number, used: number[]): string[] {
  const start = log.length
  for (const o of used) rm.markUsed(o)
  rm.endFrame(n)
  return log.slice(start)
}

describe('ResidencyManager: LRU eviction under a budget', () => {
  it('evicts the least recently used object not used in the frame, 40/40/40 under a budget of 100', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(2, 40, 'normal', 'B', 0)
    rm.addObject(3, 40, 'normal', 'C', 0)
    // Created not resident: nothing counts yet.
    expect(rm.residentBytes()).toBe(0)
    expect(rm.isResident(1)).toBe(false)

    expect(frame(rm, log, 0, [1])).toEqual(['+1:40@0']) // 40
    expect(frame(rm, log, 1, [2])).toEqual(['+2:40@1']) // 80
    // 40 + 40 + 40 = 120 > 100: evict the LRU unused one, A (last used frame 0) → 80.
    expect(frame(rm, log, 2, [3])).toEqual(['+3:40@2', '-1:40@2'])
    expect(rm.residentBytes()).toBe(80)
    // A back: 120 > 100, LRU unused is now B (frame 1; C frame 2) → 80.
    expect(frame(rm, log, 3, [1])).toEqual(['+1:40@3', '-2:40@3'])
    // B back: evicts C (frame 2; A frame 3).
    expect(frame(rm, log, 4, [2])).toEqual(['+2:40@4', '-3:40@4'])
    // Using resident objects changes no residency, only the LRU order: A used at 5 makes B the LRU.
    expect(frame(rm, log, 5, [1])).toEqual([])
    expect(rm.evictionOrder()).toEqual([2, 1])
    // C back: 120 > 100, evicts B (frame 4) rather than A (frame 5).
    expect(frame(rm, log, 6, [3])).toEqual(['+3:40@6', '-2:40@6'])
    expect(rm.counters()).toMatchObject({
      evictions: 4,
      evictedBytes: 160, // 4 × 40
      makeResident: 6,
      madeResidentBytes: 240, // 6 × 40
      overBudgetFrames: 0,
    })
  })

  it('evicts by recency alone: an older high-priority object goes before a newer normal one (§9)', () => {
    // §9: 「超出预算时，按最近最少使用的顺序驱逐其他对象」, the seed's only eviction rule. HIGH (§3.7, §6.1) is the
    // priority handed to the OS through SetResidencyPriority: kept and shown, not an eviction order.
    const { rm, log } = manager(100)
    rm.addObject(10, 40, 'high', 'TransientHeap', 0)
    rm.addObject(11, 40, 'normal', 'A', 0)
    rm.addObject(12, 40, 'normal', 'C', 0)
    frame(rm, log, 0, [10]) // H resident, last used 0
    frame(rm, log, 1, [11]) // A resident, last used 1
    // 120 > 100: H (frame 0) is the least recently used object not in use → 80.
    expect(frame(rm, log, 2, [12])).toEqual(['+12:40@2', '-10:40@2'])
    expect(rm.objectInfo(10)).toMatchObject({ priority: 'high', resident: false, lastUsedFrame: 0 })
    expect(rm.evictionOrder()).toEqual([11, 12])
    // H back: 120 > 100, A (frame 1) goes before C (frame 2).
    expect(frame(rm, log, 3, [10])).toEqual(['+10:40@3', '-11:40@3'])
  })

  it('reports one over-budget frame when everything resident is in use', () => {
    const { rm, log } = manager(100)
    for (const o of [1, 2, 3]) rm.addObject(o, 40, 'normal', `o${o}`, 0)
    // All three used in frame 0: 120 resident, nothing evictable → one over-budget event, no eviction.
    expect(frame(rm, log, 0, [1, 2, 3, 2, 1])).toEqual(['+1:40@0', '+2:40@0', '+3:40@0', 'over@0:120>100'])
    expect(rm.residentBytes()).toBe(120)
    expect(rm.counters().overBudgetFrames).toBe(1)
    // Frame 1 uses only object 1: 120 > 100, the LRU unused among 2 and 3 (both frame 0, marked 2 before 3) is 2.
    expect(frame(rm, log, 1, [1])).toEqual(['-2:40@1'])
    expect(rm.residentBytes()).toBe(80)
    expect(rm.counters().overBudgetFrames).toBe(1)
  })

  it('applies a budget drop at the next endFrame', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(2, 40, 'normal', 'B', 0)
    frame(rm, log, 0, [1])
    frame(rm, log, 1, [2]) // 80 ≤ 100
    rm.setBudget(50)
    expect(rm.budget()).toBe(50)
    // Nothing happens before the frame ends.
    expect(rm.residentBytes()).toBe(80)
    // 80 > 50: A (frame 0) is unused → evicted, 40 ≤ 50.
    expect(frame(rm, log, 2, [2])).toEqual(['-1:40@2'])
    rm.setBudget(30)
    // 40 > 30 and B is in use: over budget.
    expect(frame(rm, log, 3, [2])).toEqual(['over@3:40>30'])
    // B unused in frame 4: 40 > 30 → evicted, 0 ≤ 30.
    expect(frame(rm, log, 4, [])).toEqual(['-2:40@4'])
    expect(rm.residentBytes()).toBe(0)
  })

  it('frees the bytes of a removed resident object without an eviction, and resizes resident bytes', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(2, 30, 'normal', 'Reserved', 0)
    frame(rm, log, 0, [1, 2]) // 70
    rm.removeObject(1, 1)
    expect(rm.residentBytes()).toBe(30)
    expect(rm.has(1)).toBe(false)
    // A reserved resource commits more tiles: 30 → 90 resident bytes at once, within the budget.
    rm.resizeObject(2, 90, 1)
    expect(rm.residentBytes()).toBe(90)
    expect(frame(rm, log, 1, [])).toEqual([])
    // Commit grows to 120 > 100; unused in frame 2 → evicted with its new size.
    rm.resizeObject(2, 120, 2)
    expect(frame(rm, log, 2, [])).toEqual(['-2:120@2'])
    // Resizing a non-resident object changes nothing resident.
    rm.resizeObject(2, 10, 3)
    expect(rm.residentBytes()).toBe(0)
    expect(rm.totals()).toEqual({ objects: 1, bytes: 10, residentObjects: 0, residentBytes: 0, budget: 100 })
    expect(log.filter((l) => l.startsWith('del'))).toEqual(['del 1@1'])
  })

  it('drops a use of an object removed in the same frame, and reuses its slot only afterwards', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.markUsed(1)
    rm.removeObject(1, 0)
    rm.addObject(2, 50, 'normal', 'B', 0)
    rm.markUsed(99) // unknown: ignored, counted
    expect(frame(rm, log, 0, [])).toEqual([])
    expect(rm.isResident(2)).toBe(false)
    expect(rm.counters().unknownUses).toBe(1)
  })

  it('counts everything resident and sends no residency events when disabled', () => {
    const { rm, log } = manager(50, false, false)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(2, 40, 'high', 'B', 0)
    expect(rm.residentBytes()).toBe(80)
    expect(frame(rm, log, 0, [1, 2])).toEqual([])
    expect(frame(rm, log, 1, [])).toEqual([])
    rm.removeObject(1, 2)
    expect(rm.residentBytes()).toBe(40)
    expect(log.some((l) => /^[+-]|^over/.test(l))).toBe(false)
    expect(rm.counters()).toMatchObject({ evictions: 0, makeResident: 0, overBudgetFrames: 0 })
  })

  it('creates objects resident under startResident, and evicts them when unused and over budget', () => {
    const { rm, log } = manager(100, true)
    rm.addObject(1, 60, 'normal', 'A', 0)
    rm.addObject(2, 60, 'normal', 'B', 0)
    expect(log).toEqual(['new 1:60:normal:A@0', '+1:60@0', 'new 2:60:normal:B@0', '+2:60@0'])
    expect(rm.residentBytes()).toBe(120)
    // Frame 0 uses B: 120 > 100, A (resident since creation, never used) is evicted.
    expect(frame(rm, log, 0, [2])).toEqual(['-1:60@0'])
    expect(rm.objectInfo(1)).toMatchObject({ resident: false, lastUsedFrame: -1, createdFrame: 0 })
    expect(rm.objectInfo(2)).toMatchObject({ resident: true, lastUsedFrame: 0 })
  })

  it('without use records, counts as used the objects holding a live resource, plus those marked', () => {
    const { sink, log } = recorder()
    const rm = new ResidencyManager({ enabled: true, startResident: false, budget: 100, usedWhenHeld: true }, sink)
    for (const o of [1, 2, 3]) rm.addObject(o, 40, 'normal', `o${o}`, 0)
    rm.addObject(4, 40, 'high', 'TransientHeap', 0)
    for (const o of [1, 2, 3]) rm.addHolder(o)
    // Frame 0: 1, 2, 3 hold a live resource; 4 holds none and is not marked. 120 > 100 with all three in use.
    expect(frame(rm, log, 0, [])).toEqual(['+1:40@0', '+2:40@0', '+3:40@0', 'over@0:120>100'])
    // Frame 1: the last resource of 1 is released (pending for its fence), the transient heap 4 is marked.
    rm.removeHolder(1)
    // 4 made resident: 160 > 100; 1 is not in use and the least recent → 120, still over with 2, 3, 4 in use.
    expect(frame(rm, log, 1, [4])).toEqual(['+4:40@1', '-1:40@1', 'over@1:120>100'])
    // Frame 2: 4 is not marked again: no longer in use, the least recently used of the resident → 80.
    expect(frame(rm, log, 2, [])).toEqual(['-4:40@2'])
    expect(rm.objectInfo(2)).toMatchObject({ resident: true, lastUsedFrame: 2 })
    expect(rm.objectInfo(4)).toMatchObject({ resident: false, lastUsedFrame: 1, priority: 'high' })
  })

  it('warns on a duplicate object and on removing an unknown one', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(1, 20, 'high', 'A2', 1)
    rm.removeObject(7, 2)
    expect(log).toEqual([
      'new 1:40:normal:A@0',
      'warn residencyDuplicateObject@1',
      'del 1@1',
      'new 1:20:high:A2@1',
      'warn residencyUnknownObject@2',
    ])
    expect(rm.totals().bytes).toBe(20)
  })

  it('handles object ids beyond the flat table', () => {
    const { rm, log } = manager(100)
    const big = 2 ** 40
    rm.addObject(big, 70, 'normal', 'far', 0)
    rm.addObject(5, 70, 'normal', 'near', 0)
    expect(frame(rm, log, 0, [big])).toEqual([`+${big}:70@0`])
    expect(frame(rm, log, 1, [5])).toEqual(['+5:70@1', `-${big}:70@1`])
    rm.removeObject(big, 2)
    expect(rm.has(big)).toBe(false)
  })

  it('lists its objects for a snapshot', () => {
    const { rm, log } = manager(100)
    rm.addObject(1, 40, 'normal', 'A', 0)
    rm.addObject(2, 50, 'high', 'B', 1)
    frame(rm, log, 1, [2])
    expect(rm.objects()).toEqual([
      { object: 1, bytes: 40, priority: 'normal', label: 'A', resident: false, lastUsedFrame: -1, createdFrame: 0 },
      { object: 2, bytes: 50, priority: 'high', label: 'B', resident: true, lastUsedFrame: 1, createdFrame: 1 },
    ])
  })
})
