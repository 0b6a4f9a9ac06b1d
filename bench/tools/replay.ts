/**
 * Load a capture and replay it with one checkpoint, as `report` does (a Vulkan capture through the backend
 * `report` picks), N times in one process (the first cold, the later ones warm), printing each load's and
 * replay's milliseconds and the minor page faults each took (fresh memory the process touched). PROF=DIR writes each
 * replay's CPU profile as DIR/replay<i>.cpuprofile, and with PROF_LOAD=1 each load's as DIR/load<i>.cpuprofile.
 * REPORT=1 replays as `report --json` does (no checkpoint, residency events counted, the report's series only,
 * through the backend) and prints the nanoseconds per record of each eighth of the frames: a cost that grows with
 * what is alive shows as eighths that get dearer (the replay tells its progress every 256 frames, so the eighths of
 * a capture under some 4 000 frames are coarse). It prints the load's by eighth of its records too (the load tells
 * its progress after each chunk it reads): a cold load's first eighths show the engine's warm-up. HEAP=N prints
 * the N sites that allocate the most in the first (cold) load and the first replay, per thousand records, collected
 * objects included: what the young generation's collections sweep.
 * Usage: bash bench/tools/run.sh replay FILE [N=2]
 */
import { BACKENDS, backendFor } from '../../src/main/analysis/backends'
import { ONLY_FIRST_CHECKPOINT } from '../../src/main/analysis/checkpoints'
import { Replay } from '../../src/main/analysis/d3d12/replay'
import { replayCapture } from '../../src/main/analysis/run'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { resolveConfig } from '../../src/shared/model'
import { HeapSampler, Profiler } from './profiler'

const file = process.argv[2]
const runs = Number(process.argv[3] ?? 2)
const profiler = process.env.PROF ? new Profiler(process.env.PROF) : null
// HEAP=N: the N sites that allocate the most in the first load and the first replay, collected objects included
const sampler = process.env.HEAP ? new HeapSampler() : null
const faults = () => process.resourceUsage().minorPageFault
for (let i = 1; i <= runs; i++) {
  const f0 = faults()
  if (process.env.PROF_LOAD) await profiler?.start()
  if (i === 1) await sampler?.start()
  const t0 = performance.now()
  // REPORT=1: the records loaded at each chunk's end, and when
  const loadMarks: Mark[] = []
  const result = await loadCaptureFile(
    file,
    process.env.REPORT
      ? { progressIntervalMs: 0, onProgress: (p) => loadMarks.push({ at: performance.now(), done: p.records, records: p.records }) }
      : {},
  )
  const store = result.store
  const t1 = performance.now()
  const loadEighths = byEighth(t0, loadMarks, store.records.length)
  const f1 = faults()
  if (process.env.PROF_LOAD) await profiler?.stop(`load${i}`)
  if (i === 1 && sampler) {
    await sampler.stop(Number(process.env.HEAP), store.records.length / 1000, 'thousand records, the load')
    await sampler.start()
  }
  await profiler?.start()
  const t2 = performance.now()
  let eighths: string[] = []
  if (process.env.REPORT) {
    // as `report` runs it (analysis/run.ts replayCapture), timing each eighth of the frames
    const frames = store.frames.length
    const marks: Mark[] = []
    const started = backendFor(store.header, store, BACKENDS).replay(store, {
      checkpoints: false,
      residencyEvents: false,
      series: 'report',
      onProgress: (p) =>
        marks.push({
          at: performance.now(),
          done: p.framesDone,
          records: p.framesDone >= frames ? store.records.length : store.frames.firstRecord[p.framesDone],
        }),
    })
    await started.done
    eighths = byEighth(t2, marks, frames)
  } else if (store.header.api === 'vulkan') await replayCapture(result, [], { checkpoints: false })
  else {
    const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
    await Replay.run(store, { config, ...ONLY_FIRST_CHECKPOINT })
  }
  const t3 = performance.now()
  const f3 = faults()
  await profiler?.stop(`replay${i}`)
  if (i === 1) await sampler?.stop(Number(process.env.HEAP), store.records.length / 1000, 'thousand records, the replay')
  const each = eighths.length > 0 ? `; ns per record by eighth: load ${loadEighths.join(' ')}, replay ${eighths.join(' ')}` : ''
  console.log(`load ${(t1 - t0).toFixed(0)} ms (${f1 - f0} page faults) replay ${(t3 - t2).toFixed(0)} ms (${f3 - f1} page faults)${each}`)
}

/** By a time (`at`), `done` of the units an eighth counts (records, or frames) and the records up to them. */
interface Mark {
  at: number
  done: number
  records: number
}

/**
 * Nanoseconds per record in each eighth of `total` units, from marks of the units done: as coarse as the marks are
 * (eighths that one mark crosses together take its time once, the later ones none).
 */
function byEighth(start: number, marks: readonly Mark[], total: number): string[] {
  const out: string[] = []
  let at = start
  let from = 0
  let next = 1
  for (const mark of marks) {
    while (next <= 8 && mark.done >= Math.ceil((next * total) / 8)) {
      out.push(((1e6 * (mark.at - at)) / Math.max(1, mark.records - from)).toFixed(0))
      at = mark.at
      from = mark.records
      next++
    }
  }
  return out
}
