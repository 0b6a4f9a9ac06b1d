/**
 * Pool block maps laid out for drawing: pools in heap and placement order, each a bar whose x is the byte
 * offset within the pool; and the block under a point, found by binary search on the offsets.
 */
import { HEAP_TYPES } from '../../../shared/model'
import type { PoolMap } from '../../../shared/ipc'
import { LANE_ROWS } from './palette'

export function sortPools(pools: readonly PoolMap[]): PoolMap[] {
  const heapOrder = (h: string) => {
    const i = (HEAP_TYPES as readonly string[]).indexOf(h)
    return i < 0 ? HEAP_TYPES.length : i
  }
  const rowOrder = (p: string) => {
    const i = (LANE_ROWS as readonly string[]).indexOf(p)
    return i < 0 ? LANE_ROWS.length : i
  }
  return [...pools].sort(
    (a, b) =>
      heapOrder(a.heap) - heapOrder(b.heap) ||
      rowOrder(a.placement) - rowOrder(b.placement) ||
      a.name.localeCompare(b.name, 'en', { numeric: true }),
  )
}

/** The block holding byte `at` of the pool, or -1 (past the end, or an empty pool). */
export function blockAt(pool: Pick<PoolMap, 'offset' | 'size'>, at: number): number {
  const n = pool.offset.length
  if (n === 0 || at < 0) return -1
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (pool.offset[mid] <= at) lo = mid
    else hi = mid - 1
  }
  return at < pool.offset[lo] + pool.size[lo] ? lo : -1
}

/**
 * The block nearest to pixel `x` of a bar `width` pixels wide: the block at that byte, or, when blocks are
 * thinner than a pixel, the widest block the pixel covers (what the eye sees there).
 */
export function blockAtPixel(pool: Pick<PoolMap, 'offset' | 'size' | 'bytes'>, x: number, width: number): number {
  if (pool.bytes <= 0 || width <= 0) return -1
  const perPixel = pool.bytes / width
  const first = blockAt(pool, Math.max(0, Math.floor(x) * perPixel))
  if (first < 0 || pool.size[first] >= perPixel) return blockAt(pool, (x / width) * pool.bytes)
  const end = (Math.floor(x) + 1) * perPixel
  let best = first
  for (let i = first; i < pool.offset.length && pool.offset[i] < end; i++) if (pool.size[i] > pool.size[best]) best = i
  return best
}

/** Largest free block of a pool (what a new request can still get in one piece). */
export function largestFree(pool: Pick<PoolMap, 'size' | 'state'>): number {
  let max = 0
  for (let i = 0; i < pool.size.length; i++) if (pool.state[i] === 0 && pool.size[i] > max) max = pool.size[i]
  return max
}
