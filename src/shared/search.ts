/**
 * Binary searches over sorted columns, shared by the engine's indexes and the renderer's frame lookups, so each
 * answers "where does this value start" the same way.
 */

/** The first index in [0, length) for which `below` is false, where `below` is true for a prefix and false after. */
export function partitionPoint(length: number, below: (index: number) => boolean): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (below(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index of ascending `values` whose value is at or after `value` (`values.length` when none is). */
export function lowerBound(values: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
