/**
 * The allocation order's search tree against a plain array: slots kept sorted by (key, slot), each with a room;
 * the first slot in order with room for a request is the array's first, after any run of adds, moves and room
 * changes, and in a copy (a checkpoint's packed one too).
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
            if (packed) expect((copy as unknown as { present: Uint8Array }).present.length).toBe(keys.length)
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

/** The tree's own arrays, read to check its structure. */
interface TreeArrays {
  root: number
  left: Int32Array
  right: Int32Array
  parent: Int32Array
  priority: Uint32Array
  room: Float64Array
  most: Float64Array
}

describe('PoolOrder structure', () => {
  it('stays the treap its keys and priorities define, parents and subtree rooms right, through moves', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 150, size: 'max' }), (ops) => {
        const tree = new PoolOrder()
        const keys: number[] = []
        const rooms: number[] = []
        const check = () => {
          const t = tree as unknown as TreeArrays
          const wrong: string[] = []
          // Each child points back to its parent and ranks below it; each node's `most` is its subtree's largest.
          const walk = (n: number, up: number): number => {
            if (n < 0) return NO_ROOM
            if (t.parent[n] !== up) wrong.push(`parent of ${n}`)
            if (up >= 0 && t.priority[n] >= t.priority[up]) wrong.push(`priority of ${n}`)
            const most = Math.max(t.room[n], walk(t.left[n], n), walk(t.right[n], n))
            if (t.most[n] !== most) wrong.push(`most of ${n}`)
            return most
          }
          walk(t.root, -1)
          // The same slots inserted afresh in key order make the same tree.
          const fresh = new PoolOrder()
          const order = tree.slots()
          order.forEach((s) => fresh.insert(s, keys[s], rooms[s]))
          const f = fresh as unknown as TreeArrays
          if (t.root !== f.root) wrong.push('root')
          for (const s of order) {
            if (t.left[s] !== f.left[s] || t.right[s] !== f.right[s]) wrong.push(`children of ${s}`)
          }
          expect(wrong).toEqual([])
        }
        for (const o of ops) {
          apply(tree, keys, rooms, o)
          check()
        }
      }),
      { numRuns: runs(100) },
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
            }
          }
          check()
          for (const [pick, r] of updates) {
            if (rooms.length === 0) break
            tree.set(pick % rooms.length, r)
            rooms[pick % rooms.length] = r
            check()
          }
        },
      ),
      { numRuns: runs(100) },
    )
  })
})
