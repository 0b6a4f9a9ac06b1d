/**
 * Loaded with `node --import` (as bench/data/exitCpu.mjs) into each one-shot process `npm run bench` times: at
 * exit, the process's CPU time in seconds (user and system, all its threads) goes to the file that
 * HEAPSCOPE_BENCH_CPU names.
 */
import { writeFileSync } from 'node:fs'

const out = process.env.HEAPSCOPE_BENCH_CPU
if (out) {
  process.on('exit', () => {
    const cpu = process.cpuUsage()
    writeFileSync(out, String((cpu.user + cpu.system) / 1e6))
  })
}
