/**
 * The FastConstantAllocator's pages (model.ts constantUpload): worked out whole pages at a time, each page taken
 * from the pool of the page before while that pool has room, against the plain rule written as UE's loop, one bump
 * count at a time, asking for every page the first pool of the family in creation order that can allocate a page (a
 * linear scan of the pools, not the family's index). Random streams of constant uploads of every size (bumps that
 * fill a page exactly, leave room, or take more than a page: staging), frames that complete pages and let empty
 * pools go, on pools of a few pages so the family grows, fills and shrinks. After every step both models hold the
 * same pools with the same blocks, the same totals and the same pending queue.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { KiB } from '../../../../../src/shared/units'
import type { Bytes } from '../../../../../src/shared/units'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import type { BuddyFamily } from '../../../../../src/main/model/d3d12/families'
import { Buddy } from '../../../../../src/main/model/d3d12/families'
import type { BuddyPool } from '../../../../../src/main/model/d3d12/buddy'
import { HEAP_INDEX } from '../../../../../src/main/model/d3d12/ladder'
import { NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import type { PendingQueue } from '../../../../../src/main/model/d3d12/pending'
import { ROW_FAST_CONSTANT_PAGE } from '../../../../../src/main/model/d3d12/totals'
import { checkInvariants, newModel } from './helpers'
import { runs } from '../../../../properties'

/** Pages of 4 KiB in pools of 16 KiB: four pages a pool. */
const CONFIG = {
  'fastConstant.pageSize': 4 * KiB,
  'upload.smallBlock.poolSize': 16 * KiB,
  'upload.smallBlock.minBlock': 4 * KiB,
  'pool.emptyFramesBeforeRelease': 1,
}

/** What the plain rule reads and writes of a model: private members. */
interface Inner {
  buddies: BuddyFamily[]
  constantPool: number
  constantBase: Bytes
  constantOffset: Bytes
  constantPage: Bytes
  pending: PendingQueue
  growBuddy(fam: BuddyFamily): BuddyPool
  releaseConstantPage(page: Bytes): void
  staging(bytes: Bytes, alignment: Bytes): void
}

/** D3D12Model.upload's split of `bytes` into `count` bumps, each part given to the plain FastConstantAllocator. */
function plainUpload(model: D3D12Model, bytes: Bytes, count: number): void {
  const n = Math.max(1, Math.floor(count))
  const small = Math.floor(bytes / n)
  const rest = bytes - small * n
  if (small + 1 > 0 && rest > 0) plainConstantUpload(model, small + 1, rest)
  if (small > 0 && n - rest > 0) plainConstantUpload(model, small, n - rest)
}

/** UE's FastConstantAllocator loop: a bump count at a time, a new page whenever the current one is full. */
function plainConstantUpload(model: D3D12Model, bytes: Bytes, count: number): void {
  const m = model as unknown as Inner
  const size = Math.ceil(bytes / 256) * 256
  const page = m.constantPage
  if (size > page) {
    for (let i = 0; i < count; i++) m.staging(size, 256)
    return
  }
  let left = count
  while (left > 0) {
    if (m.constantPool === NONE) {
      const fam = m.buddies[Buddy.FastConstantPages]
      const pool = fam.pools.find((p) => p.canAllocate(0)) ?? m.growBuddy(fam)
      m.constantBase = pool.allocate(0)
      m.constantPool = pool.id
      model.totals.take(ROW_FAST_CONSTANT_PAGE, HEAP_INDEX.UPLOAD, page, page, true)
      m.constantOffset = 0
    }
    const fit = Math.floor((page - m.constantOffset) / size)
    if (fit === 0) {
      m.releaseConstantPage(page)
      continue
    }
    const n = Math.min(fit, left)
    m.constantOffset += n * size
    left -= n
  }
}

/** What the two models must agree on. */
function state(model: D3D12Model): unknown {
  const m = model as unknown as Inner
  const q = m.pending
  return {
    pools: model.pools(),
    byRow: Array.from(model.totals.byRow),
    byHeap: Array.from(model.totals.byHeap),
    pending: Array.from(q.cells.subarray(q.head, q.tail)),
    page: [m.constantPool, m.constantBase, m.constantOffset],
  }
}

type Op = { k: 'upload'; bytes: number; count: number } | { k: 'frame' }

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('upload' as const),
      // Bumps of 1 B to past a page (staging), counts that fill part of a page or many pages.
      bytes: fc.oneof(fc.integer({ min: 1, max: 16 * KiB }), fc.integer({ min: 1, max: 200 * KiB })),
      count: fc.integer({ min: 1, max: 60 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ k: 'frame' as const }) },
)

describe('constant pages worked out a page at a time', () => {
  it('take the pages, pools and totals that the plain loop with a search per page takes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 50 }), (ops) => {
        const fast = newModel(CONFIG)
        const plain = newModel(CONFIG)
        let frame = 0
        fast.beginFrame(0)
        plain.beginFrame(0)
        for (const o of ops) {
          if (o.k === 'frame') {
            frame++
            fast.beginFrame(frame)
            plain.beginFrame(frame)
          } else {
            fast.upload('fastConstant', o.bytes, o.count)
            plainUpload(plain, o.bytes, o.count)
          }
          expect(state(fast)).toEqual(state(plain))
          checkInvariants(fast)
        }
      }),
      { numRuns: runs(300) },
    )
  })
})
