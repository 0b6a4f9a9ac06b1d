/**
 * The D3D12 model's throughput: placements per second over a generated workload of a few million requests
 * (deterministic for its seed), with the heap bytes the model ends up holding, once per size of the live set
 * (4 000, 40 000 and 200 000 resources alive: the cost of a placement must not grow with what is alive). Run
 * with `npm run bench:model` (`-- --requests N` to change the count, `--live a,b` the live set sizes); `npm run
 * bench` runs the same workload (`placementRun`) at 4 000 and 200 000 alive beside its replay figures.
 */
import type { BufferDesc, BufferUsage, TextureDesc, TextureFlag } from '../src/shared/capture'
import { defaultConfig, HEAP_TYPES } from '../src/shared/model'
import { formatBytes, formatCount, KiB, MiB } from '../src/shared/units'
import { D3D12Model } from '../src/main/model/d3d12/model'
import { TOTAL_FIELD, TOTAL_ROWS } from '../src/main/model/d3d12/totals'

const PER_FRAME = 2_000

/** xorshift32: the same workload on every run. */
let state = 0
function random(): number {
  state ^= state << 13
  state ^= state >>> 17
  state ^= state << 5
  return (state >>> 0) / 0x1_0000_0000
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
/** Log-uniform in [lo, hi]. */
const logSize = (lo: number, hi: number) => Math.floor(lo * Math.exp(random() * Math.log(hi / lo)))

const BUFFER_KINDS: { usage: BufferUsage[]; stride: number; weight: number; lo: number; hi: number }[] = [
  { usage: ['Static', 'VertexBuffer'], stride: 0, weight: 30, lo: 256, hi: 1 * MiB },
  { usage: ['Static', 'IndexBuffer'], stride: 0, weight: 15, lo: 256, hi: 512 * KiB },
  { usage: ['StructuredBuffer', 'ShaderResource'], stride: 12, weight: 10, lo: 1 * KiB, hi: 2 * MiB },
  { usage: ['UnorderedAccess', 'StructuredBuffer'], stride: 16, weight: 10, lo: 1 * KiB, hi: 4 * MiB },
  { usage: ['Dynamic', 'VertexBuffer'], stride: 0, weight: 15, lo: 256, hi: 256 * KiB },
  { usage: ['Uniform', 'Static'], stride: 0, weight: 15, lo: 64, hi: 16 * KiB },
  { usage: ['AccelerationStructure'], stride: 0, weight: 4, lo: 4 * KiB, hi: 4 * MiB },
  { usage: ['ByteAddressBuffer', 'DrawIndirect', 'UnorderedAccess'], stride: 4, weight: 1, lo: 64, hi: 64 * KiB },
]
const BUFFER_TABLE = BUFFER_KINDS.flatMap((k) => Array<(typeof BUFFER_KINDS)[number]>(k.weight).fill(k))
const FORMATS = ['BC7_UNORM', 'BC1_UNORM', 'BC5_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'R8_UNORM']
const SIDES = [16, 32, 32, 64, 64, 64, 128, 128, 128, 128, 256, 256, 256, 512, 512, 1024]
const RT_FLAGS: TextureFlag[][] = [
  ['RenderTargetable', 'ShaderResource'],
  ['UAV', 'ShaderResource'],
  ['ShaderResource'],
]

/**
 * `requests` placements (and about as many releases) with the live set kept near `liveTarget`; returns placements
 * per CPU second and per second. `detail`: the heaps and placements at the end printed too.
 */
export function placementRun(liveTarget: number, requests: number, detail = true): { perCpuSecond: number; perSecond: number } {
  state = 0x9e3779b9
  const model = new D3D12Model(defaultConfig(), { budget: 8 * 1024 * MiB }, {})
  // One scratch desc per kind, reused for every request as the capture store's reader does.
  const buffer: BufferDesc = { size: 0, usage: [], stride: 0 }
  const texture: TextureDesc = { dim: '2d', format: '', width: 1, height: 1, mips: 1, flags: [] }
  const live = new Float64Array(liveTarget * 2)
  let liveCount = 0
  let nextId = 1
  let frame = 0
  let peak = 0

  const start = performance.now()
  const cpuStart = process.cpuUsage()
  for (let i = 0; i < requests; i++) {
    if (i % PER_FRAME === 0) {
      model.beginFrame(++frame)
      model.upload('fastConstant', 512 * KiB, 2048)
      model.upload('fast', 2 * MiB, 64)
      model.upload('staging', 1 * MiB, 8)
      const held = model.totals.heap(0, TOTAL_FIELD.Heap)
      if (held > peak) peak = held
    }
    // Keep the live set near its target: release a random live resource about as often as one is made.
    if (liveCount >= liveTarget || (liveCount > 0 && random() < 0.45)) {
      const k = Math.floor(random() * liveCount)
      model.release(live[k])
      live[k] = live[--liveCount]
    }
    const id = nextId++
    if (random() < 0.8) {
      const kind = pick(BUFFER_TABLE)
      buffer.size = logSize(kind.lo, kind.hi)
      buffer.usage = kind.usage
      buffer.stride = kind.stride
      buffer.init = random() < 0.3
      model.createBuffer(id, buffer)
    } else {
      const side = pick(SIDES)
      texture.format = pick(FORMATS)
      texture.width = side
      texture.height = random() < 0.8 ? side : side / 2
      texture.mips = random() < 0.7 ? Math.log2(side) + 1 : 1
      texture.flags = random() < 0.1 ? pick(RT_FLAGS) : RT_FLAGS[2]
      texture.samples = random() < 0.02 ? 4 : 1
      model.createTexture(id, texture)
    }
    live[liveCount++] = id
  }
  model.endCapture()
  const seconds = (performance.now() - start) / 1000
  const cpu = process.cpuUsage(cpuStart)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6

  const rates = { perCpuSecond: requests / cpuSeconds, perSecond: requests / seconds }
  if (!detail) return rates
  console.log('')
  console.log(
    `D3D12 model, ${formatCount(liveTarget)} alive: ${formatCount(requests)} requests over ${formatCount(frame)} ` +
      `frames in ${seconds.toFixed(2)} s`,
  )
  console.log(`  ${formatCount(requests / seconds)} placements/s (${formatCount(requests / cpuSeconds)} per CPU second)`)
  console.log(`  live at the end: ${formatCount(model.liveAllocations().length)} resources`)
  for (let h = 0; h < HEAP_TYPES.length; h++) {
    const held = model.totals.heap(h, TOTAL_FIELD.Heap)
    const occupied = model.totals.heap(h, TOTAL_FIELD.Occupied)
    const waste = model.totals.heap(h, TOTAL_FIELD.Waste)
    const pending = model.totals.heap(h, TOTAL_FIELD.Pending)
    const b = (n: number) => formatBytes(n).padStart(10)
    const name = HEAP_TYPES[h].padEnd(8)
    console.log(`  ${name} heap ${b(held)}  occupied ${b(occupied)}  alignment waste ${b(waste)}  pending ${b(pending)}`)
  }
  console.log(`  DEFAULT heap peak (sampled per frame): ${formatBytes(peak)}`)
  for (let row = 0; row < TOTAL_ROWS.length; row++) {
    const held = model.totals.get(row, TOTAL_FIELD.Heap)
    if (held > 0) console.log(`    ${TOTAL_ROWS[row].padEnd(26)} ${formatBytes(held).padStart(10)}`)
  }
  return rates
}

// run as `npm run bench:model` (tsx bench/model.ts), not where npm run bench's bundle takes placementRun
if (process.argv[1]?.endsWith('model.ts')) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--requests')
  const requests = at >= 0 ? Number(args[at + 1]) : 3_000_000
  const liveAt = args.indexOf('--live')
  const targets = (liveAt >= 0 ? args[liveAt + 1] : '4000,40000,200000').split(',').map(Number)
  const rates = targets.map((target) => placementRun(target, requests).perCpuSecond)
  console.log('')
  console.log('placements per CPU second by live set:')
  targets.forEach((target, i) => console.log(`  ${formatCount(target).padStart(9)} alive  ${formatCount(rates[i]).padStart(12)}/s`))
}
