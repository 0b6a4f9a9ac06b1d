import { describe, expect, it } from 'vitest'
import { GrowingStoreGate } from '../../../../src/main/analysis/frameGate'

describe('GrowingStoreGate', () => {
  it('lets a replay on at once while frames it has not replayed are offered, and waits once it has them all', async () => {
    const caught: number[] = []
    const gate = new GrowingStoreGate((done) => caught.push(done))
    gate.offer(3)
    expect(await gate.wait(2)).toBe(3)
    expect(caught).toEqual([])
    const waiting = gate.wait(3)
    expect(caught).toEqual([3])
    expect(gate.waitingAt()).toBe(3)
    // an offer of no more frames than replayed keeps it waiting
    gate.offer(3)
    expect(gate.waitingAt()).toBe(3)
    gate.offer(5)
    expect(await waiting).toBe(5)
    expect(gate.waitingAt()).toBeUndefined()
  })

  it('ends a wait with the final count, which may be the frames already replayed', async () => {
    const gate = new GrowingStoreGate()
    gate.offer(4)
    const waiting = gate.wait(4)
    gate.end(4)
    expect(await waiting).toBe(4)
    expect(gate.ended).toBe(true)
    expect(await gate.wait(4)).toBe(4)
  })
})
