/**
 * The allocation order's blocks against a plain array: slots kept sorted by (key, slot), each with a room; the first
 * slot in order with room for a request is the array's first, after any run of adds, moves and room changes, and in
 * a copy (a checkpoint's packed one too); every slot sits in one block at its index, each block knows its largest
 * room, full blocks split and empty ones go. And FirstFit, the max-tree over the blocks, against a plain array.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FirstFit, NO_ROOM } from '../../../../../src/main/model/firstFit'
import { LAST, PoolOrder } from '../../../../../src/main/model/d3d12/poolOrder'
import { runs } from '../../../../properties'

type Op = { k: 'add'; room: number } | { k: 'move'; pick: number; key: number } | { k: 'room'; pick: number; room: number }

const room = fc.oneof(fc.constant(NO_ROOM), fc.integer({ min: 0, max: 64 }))
const key = fc.oneof(fc.integer({ min: -8, max: 8 }), fc.constantFrom(LAST, Number.NEGATIVE_INFINITY))
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('add' as const), room }),
  fc.record({ k: fc.constant('move' as const), pick: fc.nat(), key }),
  fc.record({ k: fc.constant('room' as const), pick: fc.nat(), room }),
)

/** One step on the tree and on the plain arrays of its keys and rooms alike. */
function apply(tree: PoolOrder, keys: number[], rooms: number[], o: Op): void {
  if (o.k === 'add') {
    tree.insert(keys.length, LAST, o.room)
    keys.push(LAST)
    rooms.push(o.room)
  } else if (keys.length > 0) {
    const slot = o.pick % keys.length
    if (o.k === 'move') {
      tree.move(slot, o.key)
      keys[slot] = o.key
    } else {
      tree.setRoom(slot, o.room)
      rooms[slot] = o.room
    }
  }
}

describe('PoolOrder', () => {
  it('keeps the slots in (key, slot) order and finds the first with room as a walk over them does', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 150, size: 'max' }), fc.nat(), fc.boolean(), (ops, cut, packed) => {
        let tree = new PoolOrder()
        const keys: number[] = []
        const rooms: number[] = []
        const sorted = () =>
          keys.map((_, s) => s).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b))
        ops.forEach((o, i) => {
          if (i === cut % Math.max(1, ops.length)) {
            // A checkpoint's copy (packed: its arrays cut after the last slot) is only cloned, and its clone goes on.
            const copy = tree.clone(packed)
            if (packed) expect((copy as unknown as { blockOf: Int32Array }).blockOf.length).toBe(keys.length)
            tree = packed ? copy.clone() : copy
          }
          apply(tree, keys, rooms, o)
          const order = sorted()
          expect(tree.slots()).toEqual(order)
          for (const need of [0, 1, 17, 40, 64, 65]) {
            const first = order.find((s) => rooms[s] >= need) ?? -1
            expect(tree.first(need)).toBe(first)
          }
        })
      }),
      { numRuns: runs(100) },
    )
  })
})

describe('PoolOrder as the defrag targets', () => {
  it('finds the last slot with room, the last slot, the room after a rank, through inserts, moves and removals', () => {
    type Step =
      | { k: 'in'; pick: number; key: number; room: number }
      | { k: 'out'; pick: number }
      | { k: 'move'; pick: number; key: number }
      | { k: 'room'; pick: number; room: number }
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ k: fc.constant('in' as const), pick: fc.nat(), key: fc.integer({ min: 0, max: 40 }), room }),
      fc.record({ k: fc.constant('out' as const), pick: fc.nat() }),
      fc.record({ k: fc.constant('move' as const), pick: fc.nat(), key: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ k: fc.constant('room' as const), pick: fc.nat(), room }),
    )
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.array(step, { maxLength: 400 }), (slots, steps) => {
        const tree = new PoolOrder()
        const keys = new Map<number, number>()
        const rooms = new Map<number, number>()
        const after = (a: number, key: number, slot: number) => keys.get(a)! > key || (keys.get(a) === key && a > slot)
        for (const o of steps) {
          const slot = o.pick % slots
          const placed = keys.has(slot)
          if (o.k === 'in' && !placed) {
            tree.insert(slot, o.key, o.room)
            keys.set(slot, o.key)
            rooms.set(slot, o.room)
          } else if (o.k === 'out' && placed) {
            tree.remove(slot)
            keys.delete(slot)
            rooms.delete(slot)
          } else if (o.k === 'move' && placed) {
            tree.move(slot, o.key)
            keys.set(slot, o.key)
          } else if (o.k === 'room' && placed) {
            tree.setRoom(slot, o.room)
            rooms.set(slot, o.room)
          }
          expect(tree.has(slot)).toBe(keys.has(slot))
          const order = [...keys.keys()].sort((a, b) => keys.get(a)! - keys.get(b)! || a - b)
          expect(tree.slots()).toEqual(order)
          expect(tree.lastSlot()).toBe(order.length > 0 ? order[order.length - 1] : -1)
          for (const need of [0, 1, 33, 64, 65]) {
            const last = [...order].reverse().find((s) => rooms.get(s)! >= need) ?? -1
            expect(tree.last(need)).toBe(last)
          }
          for (const [key, at] of [[0, 0], [10, slot], [keys.get(slot) ?? 20, slot], [40, slots]]) {
            const later = order.filter((s) => after(s, key, at)).map((s) => rooms.get(s)!)
            expect(tree.roomAfter(key, at)).toBe(Math.max(NO_ROOM, ...later))
          }
        }
      }),
      { numRuns: runs(60) },
    )
  })
})

/** The order's own arrays, read to check its structure. */
interface BlockArrays {
  key: Float64Array
  blockOf: Int32Array
  at: Int32Array
  entries: Int32Array
  rooms: Float64Array
  size: Int32Array
  best: Float64Array
  position: Int32Array
  order: Int32Array
  blocks: number
  spare: number[]
}

/** Entries a block holds at most (poolOrder.ts). */
const BLOCK = 32

/** What is wrong with the order's blocks, against the slots' keys and rooms: nothing when it is right. */
function structureOf(tree: PoolOrder, keys: number[], rooms: number[]): string[] {
  const t = tree as unknown as BlockArrays
  const wrong: string[] = []
  const seen = new Set<number>()
  for (let p = 0; p < t.blocks; p++) {
    const b = t.order[p]
    if (t.position[b] !== p) wrong.push(`position of block ${b}`)
    if (t.spare.includes(b)) wrong.push(`block ${b} both in order and spare`)
    const n = t.size[b]
    // only a lone block may be empty; none holds more than BLOCK
    if (n > BLOCK || (n === 0 && t.blocks > 1)) wrong.push(`size of block ${b}: ${n}`)
    let best = NO_ROOM
    for (let i = 0; i < n; i++) {
      const slot = t.entries[b * BLOCK + i]
      seen.add(slot)
      if (t.blockOf[slot] !== b || t.at[slot] !== i) wrong.push(`place of slot ${slot}`)
      if (t.rooms[b * BLOCK + i] !== rooms[slot]) wrong.push(`room of slot ${slot}`)
      if (t.key[slot] !== keys[slot]) wrong.push(`key of slot ${slot}`)
      best = Math.max(best, rooms[slot])
    }
    if (t.best[b] !== best) wrong.push(`best of block ${b}`)
  }
  if (seen.size !== keys.length) wrong.push(`${seen.size} slots placed of ${keys.length}`)
  for (let s = keys.length; s < t.blockOf.length; s++) if (t.blockOf[s] !== -1) wrong.push(`slot ${s} placed`)
  return wrong
}

describe('PoolOrder structure', () => {
  it('keeps every slot in one block at its index, each block its largest room, through adds, moves and copies', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 150, size: 'max' }), (ops) => {
        let tree = new PoolOrder()
        const keys: number[] = []
        const rooms: number[] = []
        ops.forEach((o, i) => {
          apply(tree, keys, rooms, o)
          if (i % 37 === 36) tree = tree.clone(i % 2 === 0).clone()
          expect(structureOf(tree, keys, rooms)).toEqual([])
        })
      }),
      { numRuns: runs(100) },
    )
  })

  it('splits full blocks and lets empty ones go: hundreds of pools re-sorted many times over', () => {
    // Many pools whose keys (fullest first: minus their used bytes) move far at each sort, as a leak's do.
    fc.assert(
      fc.property(
        fc.integer({ min: 40, max: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: -50, max: 50 }), room), { minLength: 50, maxLength: 2000 }),
        (pools, steps) => {
          const tree = new PoolOrder()
          const keys: number[] = []
          const rooms: number[] = []
          for (let s = 0; s < pools; s++) {
            tree.insert(s, LAST, NO_ROOM)
            keys.push(LAST)
            rooms.push(NO_ROOM)
          }
          const sorted = () =>
            keys.map((_, s) => s).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b))
          steps.forEach(([pick, key, r], i) => {
            const slot = pick % pools
            tree.move(slot, key)
            keys[slot] = key
            tree.setRoom(slot, r)
            rooms[slot] = r
            if (i % 50 === 49) {
              expect(structureOf(tree, keys, rooms)).toEqual([])
              const order = sorted()
              expect(tree.slots()).toEqual(order)
              for (const need of [0, 1, 33, 64]) {
                expect(tree.first(need)).toBe(order.find((s) => rooms[s] >= need) ?? -1)
              }
            }
          })
          // every pool to one end and back: blocks empty and fill again
          for (let s = 0; s < pools; s++) {
            tree.move(s, -1000 - s)
            keys[s] = -1000 - s
          }
          for (let s = pools - 1; s >= 0; s--) {
            tree.move(s, 1000)
            keys[s] = 1000
          }
          expect(structureOf(tree, keys, rooms)).toEqual([])
          expect(tree.slots()).toEqual(sorted())
        },
      ),
      { numRuns: runs(40) },
    )
  })
})

describe('FirstFit', () => {
  it('finds the leftmost position with room, from any start, after single and bulk updates', () => {
    fc.assert(
      fc.property(
        fc.array(room, { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), room), { maxLength: 40 }),
        (initial, updates) => {
          const tree = new FirstFit()
          tree.reset(initial.length)
          initial.forEach((r, i) => tree.setLeaf(i, r))
          tree.rebuild()
          const rooms = initial.slice()
          const check = () => {
            for (const need of [0, 1, 17, 64, 65]) {
              expect(tree.first(need)).toBe(rooms.findIndex((r) => r >= need))
              for (const start of [0, 1, 3, 7, 20, 39, 64]) {
                const found = rooms.findIndex((r, i) => i >= start && r >= need)
                expect(tree.firstFrom(start, need), `from ${start} for ${need}`).toBe(found)
              }
              expect(tree.last(need)).toBe(rooms.findLastIndex((r) => r >= need))
            }
          }
          const checkMax = () => {
            for (const start of [0, 1, 3, 7, 20, 39, 64]) {
              expect(tree.maxFrom(start)).toBe(Math.max(NO_ROOM, ...rooms.slice(start)))
            }
          }
          check()
          checkMax()
          for (const [pick, r] of updates) {
            if (rooms.length === 0) break
            tree.set(pick % rooms.length, r)
            rooms[pick % rooms.length] = r
            check()
            checkMax()
          }
        },
      ),
      { numRuns: runs(100) },
    )
  })
})
