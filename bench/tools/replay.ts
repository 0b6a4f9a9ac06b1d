/**
 * Load a capture and replay it with one checkpoint, as `report` does (a Vulkan capture through the backend
 * `report` picks), N times in one process (the first cold, the later ones warm), printing each load's and
 * replay's milliseconds and the minor page faults each took (fresh memory the process touched). PROF=DIR writes each replay's CPU profile as DIR/replay<i>.cpuprofile.
 * Usage: bash bench/tools/run.sh replay FILE [N=2]
 */
import { ONLY_FIRST_CHECKPOINT } from '../../src/main/analysis/checkpoints'
import { Replay } from '../../src/main/analysis/d3d12/replay'
import { replayCapture } from '../../src/main/analysis/run'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { resolveConfig } from '../../src/shared/model'
import { Profiler } from './profiler'

const file = process.argv[2]
const runs = Number(process.argv[3] ?? 2)
const profiler = process.env.PROF ? new Profiler(process.env.PROF) : null
const faults = () => process.resourceUsage().minorPageFault
for (let i = 1; i <= runs; i++) {
  const f0 = faults()
  const t0 = performance.now()
  const result = await loadCaptureFile(file)
  const store = result.store
  const t1 = performance.now()
  const f1 = faults()
  await profiler?.start()
  const t2 = performance.now()
  // A D3D12 capture replays as the bench's report does; any other through the backend `report` picks for it.
  if (store.header.api === 'vulkan') await replayCapture(result, [], { checkpoints: false })
  else {
    const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
    await Replay.run(store, { config, ...ONLY_FIRST_CHECKPOINT })
  }
  const t3 = performance.now()
  const f3 = faults()
  await profiler?.stop(`replay${i}`)
  console.log(`load ${(t1 - t0).toFixed(0)} ms (${f1 - f0} page faults) replay ${(t3 - t2).toFixed(0)} ms (${f3 - f1} page faults)`)
}
