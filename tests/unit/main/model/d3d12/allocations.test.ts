import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Allocations, IdMap, SlotState } from '../../../../../src/main/model/d3d12/allocations'
import { ID_BASE_FROM } from '../../../../../src/main/model/idTable'
import { runs } from '../../../../properties'
import { BlockTable } from '../../../../../src/main/model/d3d12/memoryPool'

describe('packed copies (checkpoints)', () => {
  it('keep the slots in use, floats as integers only when exact, and unpack to the same table', () => {
    const a = new Allocations()
    const sizes = [2 ** 40, 7, 1.5, -0, 2 ** 31, -(2 ** 31)]
    for (const size of sizes) {
      const slot = a.alloc()
      a.state[slot] = SlotState.Live
      a.size[slot] = size
      a.offset[slot] = slot * 256
      a.id[slot] = 100 + slot
    }
    a.release(1)
    a.release(4)
    const copy = a.packedClone().clone()
    expect(copy.count).toBe(a.count)
    for (const slot of [0, 2, 3, 5]) {
      // 2^40 and 1.5 are not 32-bit integers, nor is -0 kept as 0, nor 2^31: the size column stays float.
      expect(Object.is(copy.size[slot], a.size[slot])).toBe(true)
      expect(copy.offset[slot]).toBe(slot * 256)
      expect(copy.id[slot]).toBe(100 + slot)
      expect(copy.state[slot]).toBe(SlotState.Live)
    }
    expect(copy.state[1]).toBe(SlotState.Free)
    // The free slots come back in the original's order: 4 was released last, so it is taken first.
    expect([copy.alloc(), copy.alloc(), copy.alloc()]).toEqual([a.alloc(), a.alloc(), a.alloc()])
  })

  it('give block tables back whole: the blocks in use with their offsets and sizes, released ones reusable', () => {
    const t = new BlockTable()
    const blocks = [t.alloc(), t.alloc(), t.alloc()]
    blocks.forEach((b, i) => {
      t.offset[b] = i * 2 ** 33
      t.size[b] = 2 ** 33
      t.owner[b] = i
    })
    t.release(blocks[1])
    const copy = t.packedClone().clone()
    expect(copy.offset[blocks[2]]).toBe(2 * 2 ** 33)
    expect(copy.size[blocks[0]]).toBe(2 ** 33)
    expect(copy.owner[blocks[1]]).toBe(-1)
    expect(copy.alloc()).toBe(blocks[1])
  })

  it('pack an id table to its live ids, far ones included', () => {
    const ids = new IdMap()
    ids.set(3, 30)
    ids.set(2 ** 30, 40)
    ids.set(-5, 50)
    ids.set(7, 70)
    ids.delete(7)
    const copy = ids.packedClone().clone()
    expect(copy.size).toBe(3)
    expect([copy.get(3), copy.get(2 ** 30), copy.get(-5), copy.get(7)]).toEqual([30, 40, 50, undefined])
    expect(Array.from(copy.slots()).sort((x, y) => x - y)).toEqual([30, 40, 50])
  })
})

describe('an id map', () => {
  it('lists every live slot once, the direct ids in ascending order first, whatever was set and deleted', () => {
    // ids near 0 (the direct table), large, negative and fractional ones (the far map); slots as drawn
    const id = fc.oneof(
      fc.nat(3000),
      fc.integer({ min: 2 ** 24, max: 2 ** 30 }),
      fc.integer({ min: -50, max: -1 }),
      fc.constantFrom(0.5, 7.25),
      // a capture numbering from ten million: the table starts there, and ids below it are far
      fc.integer({ min: 10_000_000, max: 10_003_000 }),
    )
    const op = fc.record({ del: fc.boolean(), id, slot: fc.nat(100_000) })
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.boolean(), (ops, packed) => {
        let ids = new IdMap()
        const plain = new Map<number, number>()
        for (const o of ops) {
          if (o.del) {
            ids.delete(o.id)
            plain.delete(o.id)
          } else {
            ids.set(o.id, o.slot)
            plain.set(o.id, o.slot)
          }
        }
        if (packed) ids = ids.packedClone().clone()
        for (const o of ops) expect(ids.get(o.id)).toBe(plain.get(o.id))
        // the flat table's ids (where it starts and how long it grew are IdTable's, model/idTable.ts), then the far ones
        const inner = ids as unknown as { direct: Int32Array; base: number }
        const first = ops.find((o) => !o.del && Number.isInteger(o.id) && o.id >= 0)?.id ?? 0
        if (inner.direct.length > 0) expect(inner.base).toBe(first >= ID_BASE_FROM ? first : 0)
        const inTable = (k: number) => Number.isInteger(k) && k >= inner.base && k < inner.base + inner.direct.length
        const direct = [...plain.keys()].filter(inTable).sort((x, y) => x - y)
        const far = [...plain.keys()].filter((k) => !direct.includes(k))
        const slots = Array.from(ids.slots())
        expect(slots.length).toBe(plain.size)
        expect(slots.slice(0, direct.length)).toEqual(direct.map((k) => plain.get(k)))
        expect(slots.slice(direct.length).sort((x, y) => x - y)).toEqual(far.map((k) => plain.get(k)!).sort((x, y) => x - y))
      }),
      { numRuns: runs(200) },
    )
  })
})
