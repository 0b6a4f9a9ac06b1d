#!/usr/bin/env node
// `npm run fuzz [-- --runs N] [--seed S] [vitest filters…]`: the unit tests with every fast-check property on a
// random seed (or S, to replay a failure) and N times its runs (20 by default); see tests/README.md.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const take = (name) => {
  const at = args.indexOf(name)
  if (at < 0) return undefined
  const [, value] = args.splice(at, 2)
  return value
}
const runs = take('--runs') ?? '20'
const seed = take('--seed')
if (!/^[1-9]\d*$/.test(runs)) throw new Error(`--runs must be a positive integer, got ${runs}`)
const env = { ...process.env, HEAPSCOPE_FUZZ: runs }
if (seed !== undefined) env.HEAPSCOPE_SEED = seed
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
const projects = ['--project', 'shared', '--project', 'main', '--project', 'renderer']
// Many more runs take longer than a test's usual time limit.
const r = spawnSync(process.execPath, [vitest, 'run', ...projects, '--testTimeout', '1800000', ...args], {
  stdio: 'inherit',
  env,
})
process.exitCode = r.status ?? 1
