/**
 * Every property test's seed and run count, set once per test file (vitest.config.ts picks them): `npm test` runs
 * each property with the same fixed seed on every run; `npm run fuzz` with a random one and many more runs.
 */
import fc from 'fast-check'
import { inject } from 'vitest'

const { seed, runs } = inject('fastCheck')
fc.configureGlobal({ seed, ...(runs > 1 ? { numRuns: 100 * runs } : {}) })
