/**
 * `npm run bench`: the replay's acceptance figures in one run, on generated captures written once under
 * bench/data/ and reused (`deferred` and `stress`, each cut after 250 000 and 2 000 000 records; the ingest
 * benchmark makes and reads the same deferred file):
 * - on each capture, the JSON.parse-per-line baseline and the whole `report` (load + replay + figures, as
 *   `report --json` does: the load in a worker thread and the replay following it, loadAndReplay), best of --runs
 *   each, wall and CPU time (of both threads), and the ratio; then how the ratio grows from 250 000 records to
 *   2 000 000 (the replay's cost per record must not grow with what is alive);
 * - on each capture, the same one-shot, as a user runs it: the built CLI's `report --json` in a fresh process against
 *   the baseline in a fresh process, best of --runs each, with each process's minor page faults (left out when
 *   out/main/cli.js is missing: npm run build); then the same on the other leaking and over-budget workloads,
 *   `heapscope gen SCENARIO --seed 7` whole (leak, streaming, budget-drop, raytracing, stress);
 * - on each 2-million-record capture, snapshot latency at 100 random frames, each from a fresh Snapshots (nothing
 *   from a cache), then from one Snapshots for them all as the app asks (the table shown, the pools' blocks left
 *   out; each pass alone beside), p50 and p95, and
 *   series query latency over random frame ranges at resolution 2000, p50 and p95; each as each sample's best of
 *   a few passes, with CPU time beside wall time, and the first pass alone;
 * - on the deferred capture of 2 000 000 records: memory per record (heap + array buffers after a full gc, and
 *   the peak RSS, in a process of its own), and checkpoint spacing against the checkpoints' memory and snapshot
 *   latency;
 * - the D3D12 model alone, bench:model's workload (model.ts): placements per second with 4 000 and 200 000
 *   resources alive.
 *
 * Options: `-- --records N` (one capture size instead of the two), `--scenarios a,b` (deferred,stress), `--runs R`
 * (timed repetitions, 3), `--frames F` (snapshot frames, 100), `--passes P` (passes over those frames and the
 * series ranges, each sample's best kept, 3), `--others a,b` (the gen scenarios measured one-shot) or `--no-others`,
 * `--no-latency`, `--no-memory`, `--no-spacing`, `--no-placements`, `--one-thread` or
 * `--worker` (the `report` measured loads, then replays, on one thread; or loads in a worker thread, the replay
 * following it; without either, as the CLI chooses for the machine's cores).
 *
 * The code under test is bundled with esbuild into bench/data/ and measured in `node --expose-gc`: under tsx every
 * imported binding is a module getter, which costs about 1.8x in hot loops.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { benchCaptureFile, generateBenchCapture, generateGenCapture, jsonParseBaseline } from './capture'
import { CHECKPOINT_RECORDS, Replay } from '../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../src/main/analysis/d3d12/report'
import { Snapshots } from '../src/main/analysis/d3d12/snapshot'
import { WARM_RECORDS, WARM_SNAPSHOTS, warmFrame } from '../src/main/analysis/snapshotCache'
import { loadAndReplay, pipelineWorthIt } from '../src/main/analysis/run'
import { captureBytes } from '../src/main/ingest/captureBytes'
import { loadCaptureFile, type LoadResult } from '../src/main/ingest/read'
import { resolveConfig, type ModelConfig } from '../src/shared/model'
import { formatCount } from '../src/shared/units'
import { placementRun } from './model'

/**
 * The processor, the cores this process may use, and what a minor page fault costs (a fresh 64 MiB array written a
 * byte a page, best of three). The baseline reads every chunk into fresh strings and takes two to four times the
 * report's faults, so the ratios move with that cost from one machine to another: 11.3 µs a fault made a baseline of
 * 250 000 stress records twice as slow as one on a machine where a fault took 1.8 µs (bench/README.md, "Where a page
 * fault is cheap").
 */
function machine(): string {
  const pages = (64 * 1024 * 1024) / 4096
  let best = Infinity
  for (let round = 0; round < 3; round++) {
    const before = process.resourceUsage().minorPageFault
    const start = performance.now()
    const bytes = new Uint8Array(pages * 4096)
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1
    const took = performance.now() - start
    const faults = process.resourceUsage().minorPageFault - before
    if (faults > pages / 2) best = Math.min(best, (1000 * took) / faults)
  }
  const fault = Number.isFinite(best) ? `a minor page fault ${best.toFixed(1)} µs` : 'page faults not counted here'
  return `machine: ${cpus()[0]?.model.trim() ?? 'an unnamed processor'}, ${availableParallelism()} cores, ${fault}`
}

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at < 0 ? fallback : Number(args[at + 1])
}
/** A comma-separated option's names, `fallback`'s when the option is not given. */
const list = (name: string, fallback: string): string[] => {
  const at = args.indexOf(name)
  return (at < 0 ? fallback : args[at + 1]).split(',')
}
const RECORDS = args.includes('--records') ? [option('--records', 0)] : [250_000, 2_000_000]
const SCENARIOS = list('--scenarios', 'deferred,stress')
const RUNS = option('--runs', 3)
const FRAMES = option('--frames', 100)
/** Passes over the same snapshot frames and series ranges: each one's best time counts (the machine is shared). */
const PASSES = option('--passes', 3)
/** The capture the memory and spacing figures are taken on: `deferred`, or the first scenario asked for without it. */
const MEMORY_SCENARIO = SCENARIOS.includes('deferred') ? 'deferred' : SCENARIOS[0]
const SPACINGS = [12_500, 25_000, 50_000, 100_000]
/**
 * The other leaking and over-budget workloads, one-shot only: `heapscope gen SCENARIO --seed 7` at the scenario's
 * default frames (`--others a,b`, or none with `--no-others`).
 */
const OTHERS = args.includes('--no-others') ? [] : list('--others', 'leak,streaming,budget-drop,raytracing,stress')
const OTHERS_SEED = 7
/**
 * Where the report's load runs: `--one-thread` the load, then the replay, on one thread; `--worker` in a worker
 * thread with the replay following it; neither: as the CLI chooses for this machine (analysis/run.ts).
 */
const ONE_THREAD: boolean | undefined = args.includes('--one-thread') ? true : args.includes('--worker') ? false : undefined
/** The live set sizes of the model's placement rate (`--no-placements` leaves it out). */
const PLACEMENT_LIVE = [4_000, 200_000]

const here = dirname(fileURLToPath(import.meta.url))
// The bundle runs from bench/data/: the capture sits beside it.
const dataDir = here.endsWith('data') ? here : join(here, 'data')
const largest = Math.max(...RECORDS)
/** The capture a child process measures: the argument after its mode. */
const file = ((): string => {
  const at = args.findIndex((a) => a === '--ratio' || a === '--measure' || a === '--memory' || a === '--spacing')
  return at >= 0 ? args[at + 1] : ''
})()
/** Whether the measured report's load runs in a worker: as asked, else as the CLI would choose for this capture. */
const PIPELINED = ONE_THREAD === undefined ? pipelineWorthIt(captureBytes(file)) : !ONE_THREAD


// ---------------------------------------------------------------------------------------------------------------
// Measures (in the bundled child process)

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

/** A full collection, and a turn of the event loop for freed array buffers to leave the count. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const held = (): number => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

interface Timing {
  wall: number
  cpu: number
}

async function timed<T>(run: () => Promise<T> | T): Promise<Timing & { value: T }> {
  const cpu0 = process.cpuUsage()
  const start = performance.now()
  const value = await run()
  const cpu = process.cpuUsage(cpu0)
  return { wall: (performance.now() - start) / 1000, cpu: (cpu.user + cpu.system) / 1e6, value }
}

const best = (a: Timing, b: Timing): Timing => ({ wall: Math.min(a.wall, b.wall), cpu: Math.min(a.cpu, b.cpu) })
const NONE: Timing = { wall: Infinity, cpu: Infinity }
const s = (t: Timing) => `${t.wall.toFixed(2)} s (cpu ${t.cpu.toFixed(2)} s)`
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
const ms = (v: number) => `${v.toFixed(1)} ms`

/** The p-quantile (0..1) of some values, nearest rank. */
function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]
}

/** A small seeded generator, so every run asks for the same frames and ranges. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** What any reader must do at least (bench/capture.ts): the lines parsed. */
async function baseline(): Promise<number> {
  return jsonParseBaseline(file)
}

function configOf(result: LoadResult): ModelConfig {
  return resolveConfig(result.store.header.config as Record<string, number> | undefined, {})
}

interface Report {
  result: LoadResult
  json: string
  /** Until the load has ended (the replay follows it meanwhile, on this thread). */
  load: Timing
  /** From the load's end until the replay and its figures have (after the load, on one thread). */
  run: Timing
  /** The report as JSON. */
  figures: Timing
}

/**
 * `report --json` without the write, as the CLI runs it (loadAndReplay: the load in a worker thread, the replay
 * following it, no checkpoints, residency events counted and not kept, the report's series alone, the figures),
 * then the JSON. CPU times are the process's: both threads.
 */
async function report(): Promise<Report> {
  const loading = loadAndReplay(file, [], { checkpoints: false, residencyEvents: false, series: 'report', oneThread: ONE_THREAD })
  const load = await timed(() => loading.loaded)
  const result = load.value
  if (result.error) throw result.error
  const run = await timed(() => loading.replayed)
  const figures = await timed(() => JSON.stringify(run.value.report))
  return { result, json: figures.value, load, run, figures }
}

interface Latency {
  /** The first pass's wall times. */
  first: number[]
  /** Each pass's wall times. */
  passes: number[][]
  /** Per sample, the best of the passes: wall, and CPU time of the process. */
  wall: number[]
  cpu: number[]
}

/** Runs every sample `passes` times, in the same order each pass, and keeps each sample's best time. */
function latency(count: number, passes: number, sample: (i: number) => void): Latency {
  const each: number[][] = []
  const wall = new Array<number>(count).fill(Infinity)
  const cpu = new Array<number>(count).fill(Infinity)
  for (let pass = 0; pass < passes; pass++) {
    const times: number[] = []
    each.push(times)
    for (let i = 0; i < count; i++) {
      const cpu0 = process.cpuUsage()
      const start = performance.now()
      sample(i)
      const time = performance.now() - start
      const used = process.cpuUsage(cpu0)
      times.push(time)
      wall[i] = Math.min(wall[i], time)
      cpu[i] = Math.min(cpu[i], (used.user + used.system) / 1000)
    }
  }
  return { first: each[0], passes: each, wall, cpu }
}

const latencies = (l: Latency, p: number) =>
  `${ms(quantile(l.wall, p))} (cpu ${ms(quantile(l.cpu, p))}, one pass ${ms(quantile(l.first, p))})`

/**
 * Snapshot latency at `count` random frames, each from a fresh Snapshots, or from `kept`, one Snapshots for them all
 * as the app keeps one per run (its cache of a few states, and the tables of those it lets go written into again);
 * `open` adds what the inspector asks next.
 */
/** `blocks` false: each pool's figures without its blocks, as the app asks while its pool maps are hidden. */
function snapshotLatency(replay: Replay, count: number, seed: number, passes: number, open = false, kept?: Snapshots, blocks = true): Latency {
  const next = random(seed)
  const frames = Array.from({ length: count }, () => Math.floor(next() * replay.store.frames.length))
  return latency(count, passes, (i) => {
    const frame = frames[i]
    const snapshots = kept ?? new Snapshots(replay)
    snapshots.snapshot('bench', frame, blocks)
    if (open) {
      // The first page of the table and the frame's graphs, from the state just built.
      snapshots.resources({ runId: 'bench', frame, sort: 'occupied', descending: true, offset: 0, limit: 100 })
      snapshots.transients(frame)
    }
  })
}

/** Series queries over random frame ranges at resolution 2000, after a first one over the whole capture. */
function seriesLatency(replay: Replay, count: number, passes: number): { first: number; latency: Latency; series: number } {
  const next = random(7)
  const names = replay.series
    .list()
    .map((info) => info.name)
    .filter((name) => name.startsWith('total.') || name.startsWith('heap.') || name.startsWith('residency.'))
  const frames = replay.store.frames.length
  const start = performance.now()
  replay.series.query({ runId: 'bench', series: names, from: 0, to: frames, resolution: 2000 })
  const first = performance.now() - start
  const ranges = Array.from({ length: count }, () => {
    const a = Math.floor(next() * frames)
    const b = Math.floor(next() * frames)
    return [Math.min(a, b), Math.max(a, b) + 1]
  })
  const l = latency(count, passes, (i) => {
    replay.series.query({ runId: 'bench', series: names, from: ranges[i][0], to: ranges[i][1], resolution: 2000 })
  })
  return { first, latency: l, series: names.length }
}

/** Where a `--ratio` child leaves its figures for the parent. */
const ratioFile = join(dataDir, 'ratio.json')

/** Baseline and whole report, best of RUNS, on one capture; the last line is the figures for the parent. */
async function measureRatio(): Promise<void> {
  console.log(`capture ${file}`)
  let base = NONE
  let whole = NONE
  let load = NONE
  let run = NONE
  let figures = NONE
  // Each run's report over its own baseline, timed one after the other: steadier than the two bests when the
  // machine's load changes between runs.
  let ratio = NONE
  // Only one capture in memory at a time: the last run's goes before the next is timed.
  const kept: { last?: Report } = {}
  let json = ''
  let records = 0
  for (let r = 0; r < RUNS; r++) {
    kept.last = undefined
    await settle()
    const b = await timed(baseline)
    await settle()
    const w = await timed(report)
    const rep = w.value
    records = rep.result.store.records.length
    if (b.value - 1 !== records) throw new Error(`the baseline parsed ${b.value} lines, the report read ${records} records`)
    if (json !== '' && json !== rep.json) throw new Error('two runs gave different reports')
    json = rep.json
    console.log(
      `run ${r + 1}: baseline ${s(b)} · report ${s(w)} = load ${s(rep.load)} + then replay ${s(rep.run)} + JSON ${s(rep.figures)}`,
    )
    base = best(base, b)
    ratio = best(ratio, { wall: w.wall / b.wall, cpu: w.cpu / b.cpu })
    whole = best(whole, w)
    load = best(load, rep.load)
    run = best(run, rep.run)
    figures = best(figures, rep.figures)
    kept.last = rep
  }
  const live = kept.last!.result.store
  console.log(`${records} records, ${live.frames.length} frames; best of ${RUNS}:`)
  console.log(`  JSON.parse baseline    ${s(base)}`)
  console.log(`  report (whole)         ${s(whole)}  ${PIPELINED ? 'the replay following a load in a worker thread' : 'load, then replay, on one thread'}`)
  console.log(`    until loaded         ${s(load)}`)
  console.log(`    replay after that    ${s(run)}  (with the figures)`)
  console.log(`    JSON                 ${s(figures)}`)
  const bests = { wall: whole.wall / base.wall, cpu: whole.cpu / base.cpu }
  console.log(
    `  report / baseline      ${bests.wall.toFixed(2)} wall, ${bests.cpu.toFixed(2)} cpu ` +
      `(bests); ${ratio.wall.toFixed(2)} wall, ${ratio.cpu.toFixed(2)} cpu (best run)  (done when ≤ 1)`,
  )
  const alive = (JSON.parse(json) as { resources: { liveAtEnd: number } }).resources.liveAtEnd
  writeFileSync(ratioFile, JSON.stringify({ records: live.records.length, alive, base, whole, bests, ratio, json }))
}

/** Snapshot and series latency on one capture, after one replay. */
async function measureLatency(): Promise<void> {
  const result = await loadCaptureFile(file)
  if (result.error) throw result.error
  const replay = await Replay.run(result.store, { config: configOf(result) })
  const stats = replay.checkpointStats()
  console.log('')
  console.log(`${file}: ${result.store.records.length} records, ${replay.store.frames.length} frames`)
  // Warm the snapshot path once (as a person's first click would), then measure.
  snapshotLatency(replay, 3, 99, 1)
  const snap = snapshotLatency(replay, FRAMES, 1, PASSES)
  const open = snapshotLatency(replay, FRAMES, 1, PASSES, true)
  console.log(
    `snapshots at ${FRAMES} random frames, a fresh Snapshots each (${stats.count} checkpoints, every ` +
      `${CHECKPOINT_RECORDS} records; at most ${stats.maxRecords} records replayed); best of ${PASSES} passes per frame:`,
  )
  console.log(`  snapshot               p50 ${latencies(snap, 0.5)}`)
  console.log(`                         p95 ${latencies(snap, 0.95)}  (done when p95 ≤ 50 ms)`)
  console.log(`  + first table page and graphs  p50 ${latencies(open, 0.5)}  p95 ${latencies(open, 0.95)}`)
  // As the app asks for them: one Snapshots for the run. Its cache seldom holds a random frame's state, and its
  // states let go give their tables to the next; each pass alone is what a person scrubbing waits for.
  // Warmed as the engine warms a run once its load has answered: snapshots spread over it, each let go once built.
  const kept = new Snapshots(replay)
  if (replay.store.records.length >= WARM_RECORDS) for (let k = 0; k < WARM_SNAPSHOTS; k++) kept.warm(warmFrame(k, replay.store.frames.length))
  const app = snapshotLatency(replay, FRAMES, 1, PASSES, true, kept, false)
  const eachPass = app.passes.map((times) => ms(quantile(times, 0.95))).join(', ')
  console.log(`  as the app asks, one Snapshots for the run, with the first page and graphs, the pools without their blocks:`)
  console.log(`                         p50 ${latencies(app, 0.5)}`)
  console.log(`                         p95 ${latencies(app, 0.95)}; each pass alone p95 ${eachPass}`)

  const series = seriesLatency(replay, 200, PASSES)
  console.log(`series queries, ${series.series} series each, 200 random ranges, resolution 2000; best of ${PASSES}:`)
  console.log(`  first, over the whole capture (cold)  ${ms(series.first)}`)
  console.log(`  then                   p50 ${latencies(series.latency, 0.5)}`)
  console.log(`                         p95 ${latencies(series.latency, 0.95)}  (done when ≤ 10 ms)`)
}

/** Memory in a process of its own: after a full gc, before the load, after it, after the replay. */
async function measureMemory(): Promise<void> {
  await settle()
  const before = held()
  const result = await loadCaptureFile(file)
  await settle()
  const loaded = held()
  const config = configOf(result)
  const kept: { replay?: Replay } = { replay: await Replay.run(result.store, { config }) }
  const json = JSON.stringify(buildRunReport(result, kept.replay!))
  const checkpoints = kept.replay!.checkpointStats().count
  await settle()
  const replayed = held()
  const records = result.store.records.length
  kept.replay = undefined
  await settle()
  // The same replay with one checkpoint (frame 0): the difference is what the others hold.
  const single = await Replay.run(result.store, { config, checkpointRecords: Number.POSITIVE_INFINITY })
  await settle()
  const singleHeld = held()
  const rss = process.resourceUsage().maxRSS * 1024
  const perRecord = (bytes: number) => `${(bytes / records).toFixed(1)} B/record`
  console.log('')
  console.log('memory (heap + array buffers after a full gc; a process of its own):')
  console.log(`  store                  ${mib(loaded - before)}  ${perRecord(loaded - before)}`)
  console.log(`  store + replay         ${mib(replayed - before)}  ${perRecord(replayed - before)}`)
  console.log(
    `    checkpoints          ${mib(replayed - singleHeld)} (${checkpoints} of them, ` +
      `${mib((replayed - singleHeld) / Math.max(1, checkpoints - 1))} each)`,
  )
  console.log(`    series               ${mib(single.series.byteSize())}`)
  console.log(`  peak RSS               ${mib(rss)}  ${perRecord(rss)}`)
  if (json.length === 0) throw new Error('no report')
}

/** Records per checkpoint against memory and snapshot latency. */
async function measureSpacing(): Promise<void> {
  const result = await loadCaptureFile(file)
  const config = configOf(result)
  await settle()
  const base = held()
  const kept: { one?: Replay } = {
    one: await Replay.run(result.store, { config, checkpointRecords: Number.POSITIVE_INFINITY }),
  }
  await settle()
  // What a replay holds with one checkpoint (series, graphs, events, the final model): not counted below.
  const withOne = held() - base
  kept.one = undefined
  await settle()
  console.log('')
  console.log(
    'checkpoint spacing (records per checkpoint, no byte budget; memory beyond a replay with one checkpoint; 50 frames):',
  )
  for (const every of SPACINGS) {
    const t = await timed(() =>
      Replay.run(result.store, { config, checkpointRecords: every, checkpointBytes: Number.POSITIVE_INFINITY }),
    )
    await settle()
    const memory = held() - base - withOne
    snapshotLatency(t.value, 3, 99, 1)
    const snap = snapshotLatency(t.value, 50, 3, PASSES)
    const stats = t.value.checkpointStats()
    console.log(
      `  ${String(every).padStart(7)}  ${String(stats.count).padStart(4)} checkpoints  ${mib(memory).padStart(9)}  ` +
        `replay ${s(t)}  snapshot p50 ${latencies(snap, 0.5)} p95 ${latencies(snap, 0.95)}`,
    )
    await settle()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The parent: the capture, the bundle, the child processes.

interface RatioFigures {
  records: number
  alive: number
  base: Timing
  whole: Timing
  bests: Timing
  ratio: Timing
  /** The report, as `report --json` prints it. */
  json: string
}

/**
 * The one-shot figures: the baseline and the built CLI's `report --json`, each a fresh process, best of RUNS; with
 * the fewest minor page faults of a run, and what the report printed.
 */
interface OneShotFigures {
  base: Timing & { faults: number }
  report: Timing & { faults: number }
  printed: string
}

/**
 * What a user and a CI job run: `node bin/heapscope.js report FILE --json` in a fresh process (the built CLI:
 * out/main/cli.cjs with its code cache, or out/main/cli.js), against the baseline in a fresh process of its own
 * (bench/baseline.ts), one after the other, RUNS times. Wall time from the spawn to the exit, as a shell's `time`
 * gives it; CPU time of every thread of the child and of a child of its own, taken at their exits (bench/exitCpu.ts). The process pays the engine's start and warm-up, which the
 * in-process figures above leave out after their first run. Throws when the CLI prints another report than
 * `json` (a build older than the sources: `npm run build`); `json` null checks nothing.
 */
function oneShot(path: string, json: string | null, cli: string, scripts: { baseline: string; exitCpu: string }): OneShotFigures {
  const cpuFile = join(dataDir, 'exitCpu.txt')
  const run = (argv: string[]): Timing & { faults: number; out: string } => {
    rmSync(cpuFile, { force: true })
    const start = performance.now()
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(scripts.exitCpu).href, ...argv], {
      env: { ...process.env, HEAPSCOPE_BENCH_CPU: cpuFile },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    })
    const wall = (performance.now() - start) / 1000
    if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`)
    // a line for each process: the command's, and a child's that ran it again (bin/hugePages.cjs)
    let cpu = 0
    let faults = 0
    for (const line of readFileSync(cpuFile, 'utf8').trim().split('\n')) {
      const [c, f] = line.split(' ').map(Number)
      cpu += c
      faults += f
    }
    return { wall, cpu, faults, out: r.stdout }
  }
  let base = { ...NONE, faults: Infinity }
  let report = { ...NONE, faults: Infinity }
  let printed = ''
  const faulted = (t: { faults: number }) => `${t.faults} page faults`
  for (let r = 0; r < RUNS; r++) {
    const b = run([scripts.baseline, path])
    const w = run([cli, 'report', path, '--json'])
    if (json !== null && w.out !== `${json}\n`) throw new Error(`${cli} printed another report than this tree's: run npm run build`)
    console.log(`one-shot run ${r + 1}: baseline ${s(b)}, ${faulted(b)} · report ${s(w)}, ${faulted(w)}`)
    base = { ...best(base, b), faults: Math.min(base.faults, b.faults) }
    report = { ...best(report, w), faults: Math.min(report.faults, w.faults) }
    printed = w.out
  }
  return { base, report, printed }
}

async function parent(): Promise<void> {
  const files = new Map<string, string>()
  for (const scenario of SCENARIOS) {
    for (const records of RECORDS) {
      const path = benchCaptureFile(dataDir, scenario, records)
      if (!existsSync(path)) {
        console.log(`generating ${path} …`)
        await generateBenchCapture(dataDir, scenario, records)
      }
      files.set(`${scenario} ${records}`, path)
    }
  }
  const { build } = await import('esbuild')
  const bundle = join(dataDir, 'bench.mjs')
  const bundled = { bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning' } as const
  await build({ ...bundled, entryPoints: [fileURLToPath(import.meta.url)], outfile: bundle })
  // the pipelined load's worker, beside the bundle (where src/main/ingest/pipeline.ts looks for it)
  await build({ ...bundled, entryPoints: [join(here, '../src/main/ingest/pipeWorker.ts')], outfile: join(dataDir, 'ingestWorker.js') })
  // the one-shot processes: the baseline as a script of its own, and the hook that gives a child's CPU time
  const scripts = { baseline: join(dataDir, 'baseline.mjs'), exitCpu: join(dataDir, 'exitCpu.mjs') }
  await build({ ...bundled, entryPoints: [join(here, 'baseline.ts')], outfile: scripts.baseline })
  await build({ ...bundled, entryPoints: [join(here, 'exitCpu.ts')], outfile: scripts.exitCpu })
  const cli = join(here, '../bin/heapscope.js')
  const built = join(here, '../out/main/cli.js')
  const oneShots = existsSync(built)
  const cached = existsSync(join(here, '../out/main/cli.cjs'))
  const options = args.filter((a) => !a.endsWith('.hscap'))
  const child = (mode: string, path: string): void => {
    const r = spawnSync(process.execPath, ['--expose-gc', bundle, mode, path, ...options], { stdio: 'inherit' })
    if (r.status !== 0) throw new Error(`${mode} ${path} exited ${r.status}`)
  }
  console.log(`node ${process.version}, bundled with esbuild (under tsx module getters cost about 1.8x in hot loops)`)
  console.log(machine())
  if (!oneShots) console.log(`${built} is missing (npm run build): the one-shot reports are left out`)
  else if (!cached) console.log('out/main/cli.cjs is missing (npm run build): the one-shot reports run the ES module build, without its code cache')
  const figures = new Map<string, RatioFigures>()
  const cold = new Map<string, OneShotFigures>()
  for (const [key, path] of files) {
    console.log('')
    rmSync(ratioFile, { force: true })
    child('--ratio', path)
    const f = JSON.parse(readFileSync(ratioFile, 'utf8')) as RatioFigures
    figures.set(key, f)
    if (oneShots) cold.set(key, oneShot(path, f.json, cli, scripts))
  }
  console.log('')
  console.log(`report / JSON.parse baseline, best of ${RUNS} each (done when ≤ 1 on every capture):`)
  console.log('  in one process (its first run pays the warm-up, the best is a warm one):')
  console.log('  scenario     records     alive   baseline (cpu)      report (cpu)        ratio wall  cpu')
  const t = (x: Timing) => `${x.wall.toFixed(2)} s (${x.cpu.toFixed(2)} s)`.padEnd(20)
  for (const [key, f] of figures) {
    const [scenario] = key.split(' ')
    console.log(
      `  ${scenario.padEnd(10)} ${String(f.records).padStart(9)} ${String(f.alive).padStart(9)}   ${t(f.base)}${t(f.whole)}` +
        `${f.bests.wall.toFixed(2).padStart(6)} ${f.bests.cpu.toFixed(2).padStart(5)}`,
    )
  }
  if (cold.size > 0) {
    console.log('  one-shot, as a user runs it: `heapscope report FILE --json` and the baseline, each a fresh process:')
    console.log('  scenario     records     alive   baseline (cpu)      report (cpu)        ratio wall  cpu   page faults')
    for (const [key, c] of cold) {
      const [scenario] = key.split(' ')
      const f = figures.get(key)!
      console.log(
        `  ${scenario.padEnd(10)} ${String(f.records).padStart(9)} ${String(f.alive).padStart(9)}   ${t(c.base)}${t(c.report)}` +
          `${(c.report.wall / c.base.wall).toFixed(2).padStart(6)} ${(c.report.cpu / c.base.cpu).toFixed(2).padStart(5)}` +
          `   ${c.base.faults} / ${c.report.faults}`,
      )
    }
  }
  if (RECORDS.length === 2) {
    // In one process, the best of several runs over the smaller capture reuses memory the runs before it freed, where
    // each run over the larger takes fresh pages; one-shot, both start from fresh memory, as a user's run does.
    console.log(`growth of the ratio from ${RECORDS[0]} to ${RECORDS[1]} records (done when within 15 %):`)
    const pct = (x: number, y: number) => `${((y / x - 1) * 100).toFixed(0).padStart(4)} %`
    for (const scenario of SCENARIOS) {
      const a = figures.get(`${scenario} ${RECORDS[0]}`)!
      const b = figures.get(`${scenario} ${RECORDS[1]}`)!
      let line = `  ${scenario.padEnd(10)} in one process: wall ${pct(a.bests.wall, b.bests.wall)}   cpu ${pct(a.bests.cpu, b.bests.cpu)}`
      const ca = cold.get(`${scenario} ${RECORDS[0]}`)
      const cb = cold.get(`${scenario} ${RECORDS[1]}`)
      if (ca && cb) {
        const ratio = (c: OneShotFigures, k: 'wall' | 'cpu') => c.report[k] / c.base[k]
        line += `   one-shot: wall ${pct(ratio(ca, 'wall'), ratio(cb, 'wall'))}   cpu ${pct(ratio(ca, 'cpu'), ratio(cb, 'cpu'))}`
      }
      console.log(line)
      // a ratio's growth is the report's cost a record over the baseline's: each apart, in one process
      const us = (f: RatioFigures, k: 'whole' | 'base') => (1e6 * f[k].wall) / f.records
      console.log(
        `  ${''.padEnd(10)} a record, in one process: report ${us(a, 'whole').toFixed(2)} → ${us(b, 'whole').toFixed(2)} µs` +
          ` (${pct(us(a, 'whole'), us(b, 'whole')).trim()}), baseline ${us(a, 'base').toFixed(2)} → ${us(b, 'base').toFixed(2)} µs` +
          ` (${pct(us(a, 'base'), us(b, 'base')).trim()})`,
      )
    }
  }
  if (cold.size > 0 && OTHERS.length > 0) {
    // The stale-build check above has run: these reports are not compared with an in-process one.
    const others: [string, number, OneShotFigures][] = []
    for (const scenario of OTHERS) {
      const path = await generateGenCapture(dataDir, scenario, OTHERS_SEED)
      console.log('')
      console.log(`gen ${scenario} --seed ${OTHERS_SEED}:`)
      const figures = oneShot(path, null, cli, scripts)
      others.push([scenario, (JSON.parse(figures.printed) as { records: number }).records, figures])
    }
    console.log('')
    const gen = `\`heapscope gen SCENARIO --seed ${OTHERS_SEED}\``
    console.log(`other leaking and over-budget captures, one-shot (${gen}, its default frames):`)
    console.log('  scenario      records   baseline (cpu)      report (cpu)        ratio wall  cpu')
    for (const [scenario, records, c] of others) {
      console.log(
        `  ${scenario.padEnd(11)} ${String(records).padStart(9)}   ${t(c.base)}${t(c.report)}` +
          `${(c.report.wall / c.base.wall).toFixed(2).padStart(6)} ${(c.report.cpu / c.base.cpu).toFixed(2).padStart(5)}`,
      )
    }
  }
  if (!args.includes('--no-latency')) for (const scenario of SCENARIOS) child('--measure', files.get(`${scenario} ${largest}`)!)
  const memoryFile = files.get(`${MEMORY_SCENARIO} ${largest}`)
  if (memoryFile && !args.includes('--no-memory')) child('--memory', memoryFile)
  if (memoryFile && !args.includes('--no-spacing')) child('--spacing', memoryFile)
  if (!args.includes('--no-placements')) child('--placements', '')
  console.log('')
  console.log(`done ${new Date().toISOString()}`)
}

/**
 * bench:model's workload (model.ts) in a process of its own: placements per second with 4 000 and with 200 000
 * resources alive, a million requests each, best of two runs of each (after a first that warms the engine).
 */
function measurePlacements(): void {
  const requests = 1_000_000
  console.log('')
  console.log(`D3D12 model alone (bench:model's workload, ${formatCount(requests)} requests, best of 2 after a warm-up run):`)
  placementRun(4_000, requests / 4, false)
  const rates = PLACEMENT_LIVE.map((live) => {
    const a = placementRun(live, requests, false)
    const b = placementRun(live, requests, false)
    return { perSecond: Math.max(a.perSecond, b.perSecond), perCpuSecond: Math.max(a.perCpuSecond, b.perCpuSecond) }
  })
  PLACEMENT_LIVE.forEach((live, i) =>
    console.log(
      `  ${formatCount(live).padStart(9)} alive  ${formatCount(rates[i].perSecond).padStart(10)} placements/s ` +
        `(${formatCount(rates[i].perCpuSecond)} per CPU second)`,
    ),
  )
  const drop = rates[rates.length - 1].perCpuSecond / rates[0].perCpuSecond
  console.log(`  with ${formatCount(PLACEMENT_LIVE[PLACEMENT_LIVE.length - 1])} alive: ${drop.toFixed(2)} of the rate with ${formatCount(PLACEMENT_LIVE[0])}`)
}

if (args.includes('--ratio')) await measureRatio()
else if (args.includes('--placements')) measurePlacements()
else if (args.includes('--measure')) await measureLatency()
else if (args.includes('--memory')) await measureMemory()
else if (args.includes('--spacing')) await measureSpacing()
else await parent()
