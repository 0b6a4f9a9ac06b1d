/**
 * Where a D3D12 capture's checkpoints hold their bytes: the replay with the app's checkpoints (or EVERY=N records
 * apart, BUDGET_MIB=M), then each checkpoint's model measured as byteSize counts it (its chained tables' own rows,
 * its pools kept from the checkpoint before counted there), by the model's parts (D3D12Model.byteSizeByPart),
 * summed over the checkpoints; the rest is the replay's live rows kept beside each model.
 * Usage: bash bench/tools/run.sh checkpoints FILE [N=12 parts]
 */
import { Replay } from '../../src/main/analysis/d3d12/replay'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { resolveConfig } from '../../src/shared/model'

const file = process.argv[2]
const shown = Number(process.argv[3] ?? 12)
const { store } = await loadCaptureFile(file)
const replay = await Replay.run(store, {
  config: resolveConfig(store.header.config as Record<string, number> | undefined, {}),
  ...(process.env.EVERY ? { checkpointRecords: Number(process.env.EVERY) } : {}),
  ...(process.env.BUDGET_MIB ? { checkpointBytes: Number(process.env.BUDGET_MIB) * 2 ** 20 } : {}),
})
const stats = replay.checkpointStats(true)
const mib = (n: number) => (n / 2 ** 20).toFixed(1).padStart(7)
console.log(
  `${stats.count} checkpoints, at most ${stats.maxRecords} records apart, ${mib(stats.bytes).trim()} MiB ` +
    `(${(stats.bytes / stats.count / 1024).toFixed(0)} KiB each):`,
)
const parts = Object.entries(stats.parts ?? {}).sort((a, b) => b[1] - a[1])
const line = (part: string, bytes: number) =>
  console.log(`${part.padEnd(20)} ${mib(bytes)} MiB  ${(bytes / stats.count / 1024).toFixed(0).padStart(5)} KiB each`)
for (const [part, bytes] of parts.slice(0, shown)) line(part, bytes)
line('(the live rows)', stats.bytes - parts.reduce((sum, [, bytes]) => sum + bytes, 0))
