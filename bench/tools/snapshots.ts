/**
 * Snapshot latency as the bench measures it (bench/index.ts): the replay with the app's checkpoints, then
 * `Snapshots.snapshot()` at 100 random frames (seed 1), a fresh Snapshots for each (`--app`: one for them all, as the
 * app keeps one per run), each frame's best of 3 passes; prints p50, p95 and the slowest, and each pass's alone.
 * FROM=F keeps only frames ≥ F (the late, heavy ones of a leak); FRAMES=A,B,… measures those frame indices instead; `--open` adds what
 * the inspector asks next (the first table page, the frame's transients); `--each` prints every frame's best time, then
 * its time in each pass (a frame slow in one pass only was slowed by something else: a collection, the machine);
 * PROF=DIR writes the second pass's CPU profile (PASS=0: the first's), HEAP=N prints the N sites that allocated the most in it (per
 * snapshot, what was collected since included); each pass's minor page faults per snapshot are printed too;
 * EVERY=N asks for a checkpoint every N records instead of CHECKPOINT_RECORDS, BUDGET_MIB=M lets them hold M MiB
 * instead of their budget (the budget may thin them: the first line says how many were kept, the most records a
 * snapshot replays and the checkpoints' bytes). A Vulkan capture goes through the Vulkan replay and its snapshots.
 * `--no-blocks` asks for the pools' figures without their blocks, as the app does while its pool maps are hidden.
 * Usage: bash bench/tools/run.sh snapshots FILE [--open] [--app] [--each] [--no-blocks]
 */
import { Replay } from '../../src/main/analysis/d3d12/replay'
import { Snapshots } from '../../src/main/analysis/d3d12/snapshot'
import { WARM_RECORDS, WARM_SNAPSHOTS, warmFrame } from '../../src/main/analysis/snapshotCache'
import { VulkanReplay, vulkanConfigOf } from '../../src/main/analysis/vulkan/replay'
import { VulkanSnapshots } from '../../src/main/analysis/vulkan/snapshot'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { resolveConfig } from '../../src/shared/model'
import { PerformanceObserver } from 'node:perf_hooks'
import { HeapSampler, Profiler } from './profiler'

const file = process.argv[2]
const open = process.argv.includes('--open')
// --no-blocks: the pools' figures without their blocks, as the app asks while its pool maps are hidden
const noBlocks = process.argv.includes('--no-blocks')
const { store } = await loadCaptureFile(file)
const spacing = {
  ...(process.env.EVERY ? { checkpointRecords: Number(process.env.EVERY) } : {}),
  ...(process.env.BUDGET_MIB ? { checkpointBytes: Number(process.env.BUDGET_MIB) * 2 ** 20 } : {}),
}
// a Vulkan capture through the Vulkan replay and its snapshots, as the app's backend for it
const vulkan = store.header.api === 'vulkan'
const replay = vulkan
  ? await VulkanReplay.run(store, { config: vulkanConfigOf(store.header, {}), ...spacing })
  : await Replay.run(store, { config: resolveConfig(store.header.config as Record<string, number> | undefined, {}), ...spacing })

/** The bench's generator, so the frames are the bench's. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}
const framesOf = (seed: number, count: number): number[] => {
  const next = random(seed)
  return Array.from({ length: count }, () => Math.floor(next() * store.frames.length))
}
// --app: one Snapshots for every frame, as the app keeps one per run (its cache, its states' tables written into again)
const kept = process.argv.includes('--app') ? (replay instanceof VulkanReplay ? new VulkanSnapshots(replay) : new Snapshots(replay)) : null
const one = (frame: number): void => {
  const snapshots = kept ?? (replay instanceof VulkanReplay ? new VulkanSnapshots(replay) : new Snapshots(replay))
  snapshots.snapshot('bench', frame, !noBlocks)
  if (open) {
    snapshots.resources({ runId: 'bench', frame, sort: 'occupied', descending: true, offset: 0, limit: 100 })
    if (snapshots instanceof Snapshots) snapshots.transients(frame)
  }
}
// a few frames first, as the bench warms its measure; with --app, as the engine warms a run after its load
if (kept && store.records.length >= WARM_RECORDS) for (let k = 0; k < WARM_SNAPSHOTS; k++) kept.warm(warmFrame(k, store.frames.length))
else for (const f of framesOf(99, 3)) one(f)
const frames = process.env.FRAMES
  ? process.env.FRAMES.split(',').map(Number)
  : framesOf(1, 100).filter((f) => f >= Number(process.env.FROM ?? 0))
const best = frames.map(() => Infinity)
const profiler = process.env.PROF ? new Profiler(process.env.PROF) : null
/** The pass PROF and HEAP measure: the second (1) unless PASS says otherwise (0, the first: the app's first asks). */
const PROF_PASS = Number(process.env.PASS ?? 1)
const heap = process.env.HEAP ? new HeapSampler() : null
const faults = () => process.resourceUsage().minorPageFault
const passFaults: number[] = []
const passTimes: number[][] = []
const passStarts: number[][] = []
// the collector's pauses, to tell a snapshot slowed by one from a slow snapshot
const pauses: { start: number; duration: number }[] = []
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration })
})
observer.observe({ entryTypes: ['gc'] })
for (let pass = 0; pass < 3; pass++) {
  const times: number[] = []
  const starts: number[] = []
  passTimes.push(times)
  passStarts.push(starts)
  if (pass === PROF_PASS) await profiler?.start(100)
  if (pass === PROF_PASS) await heap?.start()
  const f0 = faults()
  frames.forEach((f, i) => {
    const t = performance.now()
    one(f)
    starts.push(t)
    times.push(performance.now() - t)
    best[i] = Math.min(best[i], times[i])
  })
  passFaults.push(faults() - f0)
  if (pass === PROF_PASS) await profiler?.stop('snapshots')
  if (pass === PROF_PASS) await heap?.stop(Number(process.env.HEAP), frames.length, 'snapshot')
}
console.log(`page faults per snapshot, by pass: ${passFaults.map((n) => (n / frames.length).toFixed(0)).join(', ')}`)
const quantile = (times: readonly number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1)
}
console.log(`each pass alone: ${passTimes.map((t) => `p50 ${quantile(t, 0.5)} p95 ${quantile(t, 0.95)} ms`).join(', ')}`)
// the observer is told of pauses after they happen, on a later turn of the event loop (a timer's, not setImmediate's)
await new Promise((resolve) => setTimeout(resolve, 20))
observer.disconnect()
/** Milliseconds of collector pauses that began within each snapshot of a pass. */
const paused = passTimes.map((times, p) =>
  times.map((dt, i) => {
    const from = passStarts[p][i]
    let ms = 0
    for (const g of pauses) if (g.start >= from && g.start < from + dt) ms += g.duration
    return ms
  }),
)
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
console.log(
  `collector pauses within the snapshots, by pass: ${paused.map((g) => `${g.filter((ms) => ms > 0).length} snapshots, ${sum(g).toFixed(0)} ms`).join('; ')}`,
)
console.log(
  `each pass without them: ${passTimes.map((t, p) => t.map((ms, i) => ms - paused[p][i])).map((t) => `p50 ${quantile(t, 0.5)} p95 ${quantile(t, 0.95)} ms`).join(', ')}`,
)
const sorted = [...best].sort((a, b) => a - b)
const at = (q: number) => quantile(best, q)
console.log(`${JSON.stringify(replay.checkpointStats())} p50 ${at(0.5)} ms p95 ${at(0.95)} ms max ${sorted[sorted.length - 1].toFixed(1)} ms`)
const passText = (i: number) => passTimes.map((t, p) => `${t[i].toFixed(1)}${paused[p][i] > 0 ? ` (${paused[p][i].toFixed(1)} paused)` : ''}`)
if (process.argv.includes('--each')) frames.forEach((f, i) => console.log(f, best[i].toFixed(1), ...passText(i)))
