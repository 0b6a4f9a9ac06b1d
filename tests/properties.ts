/**
 * A property's run count: `n` in `npm test`, `n` times the fuzz factor under `npm run fuzz` (HEAPSCOPE_FUZZ, see
 * tests/README.md). Pass it as fast-check's `numRuns`, which a file's own parameters otherwise fix.
 */
import { inject } from 'vitest'

export function runs(n: number): number {
  return n * inject('fastCheck').runs
}

/**
 * A test's time limit in ms, scaled as its runs are: a property given its own limit (beyond vitest's) would
 * otherwise run out of time under `npm run fuzz` with many times its cases.
 */
export function scaled(ms: number): number {
  return ms * inject('fastCheck').runs
}
