/**
 * `npx tsx bench/gen.ts [SCENARIO…] [--frames N] [--seed S]`: generator throughput, written to /dev/null as the
 * CLI would write a file (chunks of about 1 MiB). Prints records/s per scenario, by wall time and by the CPU time
 * of the process (the truer figure on a machine busy with other work); by default every scenario at enough
 * frames for about two million records, after a warm-up run.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { runGen, SCENARIOS } from '../src/main/cli/gen'

const args = process.argv.slice(2)
const option = (name: string): number | undefined => {
  const at = args.indexOf(name)
  if (at < 0) return undefined
  const value = Number(args[at + 1])
  args.splice(at, 2)
  return value
}
const frames = option('--frames')
const seed = option('--seed') ?? 1
const names = args.length > 0 ? args : SCENARIOS.map((s) => s.name)

// Frames for about two million records, from the records 300 frames add once the loading is over.
async function framesFor(name: string): Promise<number> {
  const count = async (frames: number): Promise<number> => (await runGen(name, { frames, seed }, () => {})).records
  const perFrame = ((await count(600)) - (await count(300))) / 300
  return Math.max(300, Math.round(2_000_000 / perFrame))
}

const fd = openSync('/dev/null', 'w')
try {
  for (const name of names) {
    const n = frames ?? (await framesFor(name))
    // A short run first: the measure is of steady state, after the JIT and the graph variants warmed up.
    if (frames !== undefined) await runGen(name, { frames: 200, seed }, () => {})
    let bytes = 0
    const start = performance.now()
    const cpuStart = process.cpuUsage()
    const { records } = await runGen(name, { frames: n, seed }, (chunk) => {
      // Characters, not bytes: the same but for the rare non-ASCII name.
      bytes += chunk.length
      writeSync(fd, chunk)
    })
    const seconds = (performance.now() - start) / 1000
    const cpu = process.cpuUsage(cpuStart)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    // On a machine shared with other work, wall time overstates the cost; CPU time is what this process used.
    console.log(
      `${name.padEnd(12)} ${String(n).padStart(7)} frames ${String(records).padStart(10)} records ` +
        `${(bytes / 1e6).toFixed(0).padStart(6)} MB  ` +
        `wall ${seconds.toFixed(2)} s ${(records / seconds / 1e6).toFixed(2)} M records/s  ` +
        `cpu ${cpuSeconds.toFixed(2)} s ${(records / cpuSeconds / 1e6).toFixed(2)} M records/s`,
    )
  }
} finally {
  closeSync(fd)
}
