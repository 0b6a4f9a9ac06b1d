import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AliasingChecker } from '../../../../../src/main/model/aliasing/checker'
import { IntervalTree } from '../../../../../src/main/model/aliasing/intervals'
import { runs } from '../../../../properties'

interface Range {
  start: number
  end: number
  order: number
  /** Its node in the tree. */
  node: number
}

const node = (start: number, end: number, order: number): Range => ({ start, end, order, node: -1 })
const add = (tree: IntervalTree<Range>, n: Range): void => {
  n.node = tree.add(n, n.start, n.end, n.order)
}

describe('interval tree (a heap’s placed resources by their bytes)', () => {
  it('finds exactly the ranges a walk over every live one finds, after any adds and deletes, and in a copy', () => {
    const op = fc.oneof(
      fc.record({ add: fc.constant(true), start: fc.integer({ min: 0, max: 200 }), length: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ add: fc.constant(false), pick: fc.nat() }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 260 }), fc.integer({ min: 1, max: 80 })), { minLength: 1, maxLength: 10 }), fc.nat(), (ops, queries, cut) => {
        let tree = new IntervalTree<Range>()
        let live: Range[] = []
        let order = 0
        const check = () => {
          for (const [start, length] of queries) {
            const found = tree.overlapping(start, start + length, []).map((n) => n.order)
            const walked = live.filter((n) => n.start < start + length && start < n.end).sort((a, b) => a.start - b.start || a.order - b.order).map((n) => n.order)
            expect(found).toEqual(walked)
          }
          expect(tree.size).toBe(live.length)
          expect(tree.fault()).toBeNull()
        }
        ops.forEach((o, i) => {
          if (i === cut % ops.length) {
            // from here on, a copy (as a checkpoint's model makes one): every node copied once, the original untouched
            const copies = new Map<Range, Range>()
            const copy = tree.cloneWith((n) => {
              const c = { ...n }
              copies.set(n, c)
              return c
            })
            expect(copies.size).toBe(live.length)
            // the original changed after the copy leaves the copy as it was
            add(tree, node(0, 1000, order++))
            if (live.length > 0) tree.delete(live[0].node)
            tree = copy
            live = live.map((n) => copies.get(n) as Range)
            check()
          }
          if ('start' in o) {
            const n = node(o.start, o.start + o.length, order++)
            add(tree, n)
            live.push(n)
          } else if (live.length > 0) {
            const [n] = live.splice(o.pick % live.length, 1)
            tree.delete(n.node)
          }
          check()
        })
      }),
      { numRuns: runs(150) },
    )
  })

  it('answers among a hundred thousand ranges side by side, and after half are gone', () => {
    const tree = new IntervalTree<Range>()
    const nodes = Array.from({ length: 100_000 }, (_, i) => node(i * 64, i * 64 + 64, i))
    for (const n of nodes) add(tree, n)
    // a treap of 100 000 nodes is about 2 ln n (23) deep, expected; placed in order without rotations, 100 000
    expect(tree.height()).toBeLessThan(60)
    // [6400, 6464) is range 100's alone; [6410, 6530) reaches 101 and 102 as well
    expect(tree.overlapping(6400, 6464, []).map((n) => n.order)).toEqual([100])
    expect(tree.overlapping(6410, 6530, []).map((n) => n.order)).toEqual([100, 101, 102])
    for (let i = 0; i < nodes.length; i += 2) tree.delete(nodes[i].node)
    expect(tree.size).toBe(50_000)
    expect(tree.height()).toBeLessThan(60)
    expect(tree.overlapping(6410, 6530, []).map((n) => n.order)).toEqual([101])
    // one range over all of them
    add(tree, node(0, 64 * 100_000, 100_000))
    expect(tree.overlapping(64 * 99_999, 64 * 99_999 + 1, []).map((n) => n.order)).toEqual([100_000, 99_999])
  })
})

describe('the aliasing checks’ overlaps, found through each heap’s interval tree', () => {
  it('link each live placed resource to exactly those of its heap sharing its bytes, in placement order', () => {
    const op = fc.oneof(
      fc.record({ e: fc.constant('placed' as const), id: fc.integer({ min: 1, max: 12 }), heap: fc.integer({ min: 100, max: 102 }), start: fc.integer({ min: 0, max: 12 }), size: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ e: fc.constant('release' as const), id: fc.integer({ min: 1, max: 12 }) }),
      fc.record({ e: fc.constant('free' as const), id: fc.integer({ min: 1, max: 102 }) }),
      fc.record({ e: fc.constant('heap' as const), id: fc.integer({ min: 100, max: 102 }) }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const checker = new AliasingChecker()
        // the plain reference: every live resource in placement order, [start, end) as the checks take it
        let live: { id: number; heap: number; start: number; end: number }[] = []
        for (const o of ops) {
          if (o.e === 'placed') {
            checker.onPlaced(o.id, o.heap, o.start * 64, o.size * 64, 'buffer', 0)
            live = live.filter((r) => r.id !== o.id)
            live.push({ id: o.id, heap: o.heap, start: o.start * 64, end: o.start * 64 + Math.max(o.size * 64, 1) })
          } else if (o.e === 'release') {
            checker.apply({ e: 'release', id: o.id })
            live = live.filter((r) => r.id !== o.id)
          } else if (o.e === 'free') {
            const heap = [...checker.heaps()].some(([id]) => id === o.id)
            checker.onFree(o.id)
            live = live.filter((r) => (heap ? r.heap !== o.id : r.id !== o.id))
          } else {
            checker.onHeap(o.id, 1 << 20)
            live = live.filter((r) => r.heap !== o.id)
          }
          for (const [heap, residents] of checker.heaps()) {
            expect([...residents].map((r) => r.id)).toEqual(live.filter((r) => r.heap === heap).map((r) => r.id))
          }
          for (const r of live) {
            const state = checker.placedState(r.id)!
            const shared = live.filter((o) => o !== r && o.heap === r.heap && o.start < r.end && r.start < o.end).map((o) => o.id)
            expect([...state.overlaps].map((o) => o.id)).toEqual(shared)
          }
        }
        const copy = checker.clone()
        for (const r of live) expect([...copy.placedState(r.id)!.overlaps].map((o) => o.id)).toEqual([...checker.placedState(r.id)!.overlaps].map((o) => o.id))
      }),
      { numRuns: runs(200) },
    )
  })
})
