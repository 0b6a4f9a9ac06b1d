import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

/**
 * Property tests run with one seed. `npm test`: FIXED_SEED, the same answer on every run. `npm run fuzz`
 * (HEAPSCOPE_FUZZ=factor): a random seed, or HEAPSCOPE_SEED to replay one, and `factor` times the runs.
 */
const FIXED_SEED = 20261201
const fuzz = Number(process.env.HEAPSCOPE_FUZZ ?? 0)
const runs = fuzz > 1 ? Math.floor(fuzz) : 1
const given = process.env.HEAPSCOPE_SEED
const seed = given !== undefined && given !== '' ? Number(given) : fuzz > 0 ? Math.floor(Math.random() * 2 ** 31) : FIXED_SEED
if (!Number.isSafeInteger(seed)) throw new Error(`HEAPSCOPE_SEED must be an integer, got ${given}`)
console.log(`fast-check seed ${seed}${runs > 1 ? `, ${runs} times the runs` : ''} (replay: HEAPSCOPE_SEED=${seed})`)
const properties = {
  setupFiles: ['tests/setup/fastCheck.ts'],
  provide: { fastCheck: { seed, runs } },
}

export default defineConfig({
  test: {
    globalSetup: ['tests/globalSetup/tempRoot.ts'],
    projects: [
      {
        test: {
          name: 'shared',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'tests/unit/shared/**/*.test.ts'],
          ...properties,
        },
      },
      {
        test: {
          name: 'main',
          environment: 'node',
          include: ['src/main/**/*.test.ts', 'tests/unit/main/**/*.test.ts'],
          testTimeout: 30_000,
          ...properties,
        },
      },
      {
        plugins: [vue()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['src/renderer/**/*.test.ts', 'tests/unit/renderer/**/*.test.ts'],
          ...properties,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
