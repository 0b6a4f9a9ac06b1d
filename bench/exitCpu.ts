/**
 * Loaded with `node --import` (as bench/data/exitCpu.mjs) into each one-shot process `npm run bench` times: at
 * exit, the process's CPU time in seconds (user and system, all its threads) and its minor page faults (fresh
 * memory it touched, which a virtual machine may charge dearly for) are appended to the file that
 * HEAPSCOPE_BENCH_CPU names, as a line of two numbers. A node process the command starts with the same arguments
 * (a large capture's command run again with huge pages, bin/hugePages.cjs) appends its own line: the reader sums
 * them.
 */
import { appendFileSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'

const out = process.env.HEAPSCOPE_BENCH_CPU
// a worker thread loads this too, and its exit would count the whole process's time again
if (out && isMainThread) {
  process.on('exit', () => {
    const cpu = process.cpuUsage()
    appendFileSync(out, `${(cpu.user + cpu.system) / 1e6} ${process.resourceUsage().minorPageFault}\n`)
  })
}
