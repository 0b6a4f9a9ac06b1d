/**
 * How a D3D12 replay's time divides between its kinds of work: the model fed every record of a capture, then only
 * some of them, each subset from a fresh model over the same loaded store, warm (the first round warms the engine;
 * the rounds after it are the figures). Frame and `gpu` records are always fed, so frames end and the GPU completes:
 *   all          every record
 *   buffers      buffer creates, their releases, uploads and locks (no texture, `use`, graph or transient)
 *   textures     texture creates and their releases (no buffer, upload, lock, `use`, graph or transient)
 *   no-use       every record but `use` records
 *   no-graphs    every record but render graphs and their transients
 * The subsets weigh a split of the replay across threads: a part that runs alone on its own thread takes at least
 * its subset's time. They interact (a texture's pool is evicted for a buffer's use), so they need not add up to
 * `all`. The model's sink takes no events. Usage: bash bench/tools/run.sh parts FILE [ROUNDS=3]
 */
import { applyRecord, modelFor } from '../../src/main/analysis/d3d12/replay'
import { DescScratch } from '../../src/main/analysis/descScratch'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { RECORD_KIND } from '../../src/main/ingest/store'
import { resolveConfig } from '../../src/shared/model'

const file = process.argv[2]
const rounds = Number(process.argv[3] ?? 3)
const { store } = await loadCaptureFile(file)
if (store.header.api === 'vulkan') throw new Error(`${file}: a Vulkan capture; this tool replays the D3D12 model`)
const kinds = store.records.kind
const refs = store.records.ref
const K = RECORD_KIND

/** Whether each release record frees a texture: the kind of the last create of its id before it. */
const releasesTexture = new Uint8Array(kinds.length)
const textureLive = new Map<number, boolean>()
for (let i = 0; i < kinds.length; i++) {
  const k = kinds[i]
  if (k === K.texture) textureLive.set(store.textures.id.data[refs[i]], true)
  else if (k === K.buffer) textureLive.set(store.buffers.id.data[refs[i]], false)
  else if (k === K.release && textureLive.get(store.ops[refs[i]]) === true) releasesTexture[i] = 1
}

const isGraph = (k: number) => k === K.graph || k === K.transient || k === K.endgraph
const isTexture = (k: number, i: number) => k === K.texture || (k === K.release && releasesTexture[i] === 1)
const isBuffer = (k: number, i: number) =>
  k === K.buffer || k === K.upload || k === K.lock || (k === K.release && releasesTexture[i] === 0)
const SUBSETS: Record<string, (k: number, i: number) => boolean> = {
  all: () => true,
  buffers: isBuffer,
  textures: isTexture,
  'no-use': (k) => k !== K.use,
  'no-graphs': (k) => !isGraph(k),
}

// Each subset's records, listed before any is timed: the timed loop reads a list, not the tests above.
const lists = Object.entries(SUBSETS).map(([name, keep]) => {
  const kept: number[] = []
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i]
    if (k === K.frame || k === K.gpu || keep(k, i)) kept.push(i)
  }
  return { name, records: Int32Array.from(kept) }
})
const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
for (let round = 1; round <= rounds; round++) {
  const line: string[] = []
  for (const { name, records } of lists) {
    const model = modelFor(store, config, {})
    const descs = new DescScratch(store)
    const t0 = performance.now()
    for (let j = 0; j < records.length; j++) applyRecord(store, model, records[j], descs)
    line.push(`${name} ${(performance.now() - t0).toFixed(0)} ms`)
  }
  console.log(`round ${round}: ${line.join(', ')}`)
}
