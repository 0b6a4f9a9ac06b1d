/**
 * The ingest's throughput and memory against a plain JSON.parse of the same lines. `npm run bench:ingest`
 * (`-- --records N --scenario NAME --runs R`) generates a capture of N records (2 million by default, from the
 * `deferred` scenario) under bench/data/, reused when present, then times `loadCaptureFile` and the baseline in
 * turns and keeps the best of each, wall and CPU time, since a shared machine is noisy. Memory is measured on a
 * load of its own in a fresh process: the peak of heap used + array buffers, sampled after a forced gc while it
 * runs and once the store is built, less what the process held before.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { benchCaptureFile, generateBenchCapture, jsonParseBaseline } from './capture'
import { loadCaptureFile } from '../src/main/ingest/read'
import { storeByteSize } from '../src/main/ingest/store'

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at < 0 ? undefined : args[at + 1]
}
const RECORDS = Number(option('--records') ?? 2_000_000)
const SCENARIO = option('--scenario') ?? 'deferred'
const RUNS = Number(option('--runs') ?? 3)
const CHUNK = 1 << 20

// A gc to call between measures, without asking whoever runs the script for --expose-gc.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const dataDir = join(dirname(fileURLToPath(import.meta.url)), 'data')
const file = benchCaptureFile(dataDir, SCENARIO, RECORDS)


interface Timing {
  wall: number
  cpu: number
}

async function timed(run: () => Promise<number>): Promise<Timing & { records: number }> {
  gc()
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  const records = await run()
  const cpu = process.cpuUsage(cpuStart)
  return { wall: (performance.now() - start) / 1000, cpu: (cpu.user + cpu.system) / 1e6, records }
}

/** What any reader must do at least (bench/capture.ts); the header is a line, not a record. */
async function baseline(): Promise<number> {
  return (await jsonParseBaseline(file, CHUNK)) - 1
}

async function ingest(): Promise<number> {
  const { store, error } = await loadCaptureFile(file)
  if (error) throw error
  return store.records.length
}

const held = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** A full collection, and time for freed array buffers to leave the count. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

interface Memory {
  peak: number
  retained: number
  store: number
  records: number
}

/** Measured in a process of its own, so nothing the timed runs left behind is counted. */
async function memory(): Promise<Memory> {
  await settle()
  const before = held()
  let peak = 0
  const { store, error } = await loadCaptureFile(file, {
    progressIntervalMs: 200,
    onProgress: () => {
      gc()
      peak = Math.max(peak, held() - before)
    },
  })
  if (error) throw error
  await settle()
  const retained = held() - before
  return { peak: Math.max(peak, retained), retained, store: storeByteSize(store), records: store.records.length }
}

function memoryInChild(): Promise<Memory> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1), '--memory-only'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Memory) : reject(new Error(`memory run exited ${code}`))))
  })
}

const rate = (records: number, seconds: number) => `${(records / seconds / 1e6).toFixed(2)} M records/s`

async function main(): Promise<void> {
  if (args.includes('--memory-only')) {
    process.stdout.write(JSON.stringify(await memory()))
    return
  }
  if (!existsSync(file)) {
    console.log(`generating ${file} …`)
    await generateBenchCapture(dataDir, SCENARIO, RECORDS)
  }
  let bestBase: Timing = { wall: Infinity, cpu: Infinity }
  let bestIngest: Timing = { wall: Infinity, cpu: Infinity }
  let records = 0
  for (let run = 0; run < RUNS; run++) {
    const b = await timed(baseline)
    const i = await timed(ingest)
    if (b.records !== i.records) throw new Error(`the baseline parsed ${b.records} records, the ingest ${i.records}`)
    records = i.records
    console.log(
      `run ${run + 1}: baseline wall ${b.wall.toFixed(2)} s cpu ${b.cpu.toFixed(2)} s · ` +
        `ingest wall ${i.wall.toFixed(2)} s cpu ${i.cpu.toFixed(2)} s`,
    )
    bestBase = { wall: Math.min(bestBase.wall, b.wall), cpu: Math.min(bestBase.cpu, b.cpu) }
    bestIngest = { wall: Math.min(bestIngest.wall, i.wall), cpu: Math.min(bestIngest.cpu, i.cpu) }
  }
  const m = await memoryInChild()
  console.log(`${SCENARIO}, ${records} records, best of ${RUNS}:`)
  console.log(`  JSON.parse baseline  wall ${rate(records, bestBase.wall)}  cpu ${rate(records, bestBase.cpu)}`)
  console.log(`  ingest               wall ${rate(records, bestIngest.wall)}  cpu ${rate(records, bestIngest.cpu)}`)
  console.log(
    `  ingest / baseline    wall ${(bestBase.wall / bestIngest.wall).toFixed(2)}x  cpu ${(bestBase.cpu / bestIngest.cpu).toFixed(2)}x`,
  )
  console.log(
    `  memory per record    peak ${(m.peak / m.records).toFixed(1)} B  retained ${(m.retained / m.records).toFixed(1)} B  ` +
      `store ${(m.store / m.records).toFixed(1)} B`,
  )
}

await main()
