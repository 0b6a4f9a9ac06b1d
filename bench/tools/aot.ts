/**
 * What compiling the model ahead of time would change: two of the D3D12 model's allocators as V8 compiles them while
 * they run, against the same allocators written in AssemblyScript (bench/tools/aot/) and run as WebAssembly, each
 * kernel on one stream of operations: the buddy pool (src/main/model/d3d12/buddy.ts, bit scans) and the placed
 * resources' pool (memoryPool.ts: a linked block table and a free list sorted for best fit). A report of a small
 * capture spends most of its time before V8 has optimised the replay's functions (bench/README.md, "Code compiled
 * before it runs"); a WebAssembly module is compiled whole before its first call, by V8's baseline compiler (Liftoff, then its hot functions again by the
 * optimising one in the background) or, with `--no-liftoff` set before the module is compiled, by the optimising
 * one at once.
 *
 * The streams: 2 000 000 operations by a fixed linear congruential generator; each allocates a block in the first
 * pool of 64 MiB that takes it, in the order the pools were made (a new pool where none does), or frees a random
 * live block. Buddy: one of six orders (64 KiB to 2 MiB), about 30 000 blocks live once it settles; placed: 64 KiB
 * to 2 MiB in steps of 64 KiB, about 8 000 live. Both sides sum the offsets they return, and the sums must agree.
 *
 * Each engine runs in a fresh process, in alternating rounds: the stream three times (the first cold), each run in
 * eighths. Printed per engine: the mean milliseconds to compile the module, of the first run's first eighth and
 * the whole first run, and of the third run (warm).
 * Usage, from the repository root: bash bench/tools/run.sh aot [ROUNDS=5] [OPS=2000000] [KERNEL=buddy,placed]
 *
 * `aot scan FILE [ROUNDS=5]` measures the load the same way: the least a scanner does (bench/tools/aot/scan.ts: each
 * line's JSON read through, strings hashed, numbers parsed, nothing kept) compiled ahead of time, against the app's
 * load of the capture (loadCaptureFile, reading on its own thread as the command does) and the JSON.parse baseline,
 * each read from the file three times in a fresh process: milliseconds of the first read and of the third.
 *
 * AOT_PREBUILT=1 runs the modules already built in bench/data/tools/aot/ (a machine without the compiler, such as a
 * lent one reached through a copy of the working tree).
 */
import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { BuddyPool } from '../../src/main/model/d3d12/buddy'
import { BlockTable, FreeOrder, MemoryPool, NONE } from '../../src/main/model/d3d12/memoryPool'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { jsonParseBaseline } from '../baseline'

const KIB = 1024
const MIB = 1024 * KIB
const SEED = 7
const RUNS = 3
const EIGHTHS = 8
const ENGINES = ['js', 'wasm', 'wasm-no-liftoff'] as const
type EngineName = (typeof ENGINES)[number]

interface Engine {
  reset(): void
  /** `ops` operations of the stream; the sum of the offsets the allocations returned. */
  run(ops: number): number
}

/** The stream's choices, as both sides make them: a fixed linear congruential generator. */
class Stream {
  private seed = SEED
  live = 0

  constructor(private readonly target: number) {}

  reset(): void {
    this.seed = SEED
    this.live = 0
  }

  next(n: number): number {
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0
    return (this.seed >>> 8) % n
  }

  /** Whether the next operation allocates (else it frees a live block). */
  allocates(): boolean {
    return this.live === 0 || this.next(64) < (this.live < this.target ? 40 : 24)
  }
}

interface Kernel {
  /** The AssemblyScript source, from the repository root. */
  source: string
  /** The module's reset arguments, before the live target and the seed. */
  args: number[]
  live: number
  /** The stream over the model's own class, as the replay's code runs it. */
  script(): Engine
}

const BUDDY_ORDERS = 6
const BUDDY_LIVE = 30_000
const PLACED_UNITS = 32
const PLACED_LIVE = 8_000

/** The buddy pool: a block of one of six orders in the first of the 64 MiB pools that has one. */
function buddyScript(): Engine {
  const stream = new Stream(BUDDY_LIVE)
  const liveOffset = new Float64Array(BUDDY_LIVE * 2 + 16)
  const liveOrder = new Int32Array(BUDDY_LIVE * 2 + 16)
  const livePool = new Int32Array(BUDDY_LIVE * 2 + 16)
  let pools: BuddyPool[] = []
  return {
    reset() {
      stream.reset()
      pools = []
    },
    run(ops) {
      let sum = 0
      for (let i = 0; i < ops; i++) {
        if (stream.allocates()) {
          const order = stream.next(BUDDY_ORDERS)
          let p = 0
          while (p < pools.length && !pools[p].canAllocate(order)) p++
          if (p === pools.length) pools.push(new BuddyPool(p, 64 * KIB, 10, 0))
          const offset = pools[p].allocate(order)
          liveOffset[stream.live] = offset
          liveOrder[stream.live] = order
          livePool[stream.live] = p
          stream.live++
          sum += offset + p * 7
        } else {
          const j = stream.next(stream.live)
          pools[livePool[j]].deallocate(liveOffset[j], liveOrder[j])
          const last = --stream.live
          liveOffset[j] = liveOffset[last]
          liveOrder[j] = liveOrder[last]
          livePool[j] = livePool[last]
        }
      }
      return sum
    },
  }
}

/** The placed resources' pool, best fit: 64 KiB to 2 MiB in the first of the 64 MiB pools that takes it. */
function placedScript(): Engine {
  const stream = new Stream(PLACED_LIVE)
  const liveBlock = new Int32Array(PLACED_LIVE * 2 + 16)
  const livePool = new Int32Array(PLACED_LIVE * 2 + 16)
  let blocks = new BlockTable()
  let pools: MemoryPool[] = []
  return {
    reset() {
      stream.reset()
      blocks = new BlockTable()
      pools = []
    },
    run(ops) {
      let sum = 0
      for (let i = 0; i < ops; i++) {
        if (stream.allocates()) {
          const size = (stream.next(PLACED_UNITS) + 1) * 64 * KIB
          let p = 0
          let b = NONE
          while (p < pools.length) {
            b = pools[p].tryAllocate(blocks, size, stream.live)
            if (b !== NONE) break
            p++
          }
          if (p === pools.length) {
            pools.push(new MemoryPool(p, 64 * MIB, 64 * KIB, FreeOrder.BySize, 0, blocks))
            b = pools[p].tryAllocate(blocks, size, stream.live)
          }
          liveBlock[stream.live] = b
          livePool[stream.live] = p
          stream.live++
          sum += pools[p].allocatedOffset + p * 7
        } else {
          const j = stream.next(stream.live)
          pools[livePool[j]].deallocate(blocks, liveBlock[j])
          const last = --stream.live
          liveBlock[j] = liveBlock[last]
          livePool[j] = livePool[last]
        }
      }
      return sum
    },
  }
}

const KERNELS: Record<string, Kernel> = {
  buddy: { source: 'bench/tools/aot/buddy.ts', args: [64 * KIB, 10, BUDDY_ORDERS], live: BUDDY_LIVE, script: buddyScript },
  placed: {
    source: 'bench/tools/aot/memoryPool.ts',
    args: [64 * KIB, 64 * MIB, PLACED_UNITS],
    live: PLACED_LIVE,
    script: placedScript,
  },
}

interface KernelExports {
  reset(a: number, b: number, c: number, live: number, seed: number): void
  run(ops: number): number
}

/** The engine's WebAssembly API (this project's Node typings declare no such global). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

/** The module built at `file`, compiled and instantiated: its exports. */
function instantiate(file: string): unknown {
  const module = new wasmApi.Module(readFileSync(file))
  const abort = () => {
    throw new Error(`${file} aborted`)
  }
  return new wasmApi.Instance(module, { env: { abort } }).exports
}

function wasmDriver(kernel: Kernel, file: string): Engine {
  const exports = instantiate(file) as KernelExports
  const [a, b, c] = kernel.args
  return {
    reset: () => exports.reset(a, b, c, kernel.live, SEED),
    run: (ops) => exports.run(ops),
  }
}

interface ChildResult {
  compileMs: number
  /** Per run, the milliseconds of each eighth. */
  eighths: number[][]
  sums: number[]
}

/** One kernel on one engine in this process: its module compiled, then the stream RUNS times. */
function measure(kernel: Kernel, engine: EngineName, ops: number, wasm: string): ChildResult {
  if (engine === 'wasm-no-liftoff') setFlagsFromString('--no-liftoff')
  const started = performance.now()
  const driver = engine === 'js' ? kernel.script() : wasmDriver(kernel, wasm)
  const compileMs = performance.now() - started
  const eighths: number[][] = []
  const sums: number[] = []
  const step = Math.ceil(ops / EIGHTHS)
  for (let r = 0; r < RUNS; r++) {
    driver.reset()
    const times: number[] = []
    let sum = 0
    for (let e = 0; e < EIGHTHS; e++) {
      const t = performance.now()
      sum += driver.run(Math.min(step, ops - e * step))
      times.push(performance.now() - t)
    }
    eighths.push(times)
    sums.push(sum)
  }
  return { compileMs, eighths, sums }
}

async function compileModule(source: string, out: string): Promise<void> {
  mkdirSync(dirname(out), { recursive: true })
  const { default: asc } = await import('assemblyscript/asc')
  let messages = ''
  const { error } = await asc.main(
    [source, '-O3', '--noAssert', '--runtime', 'stub', '--outFile', out],
    { stderr: { write: (text: string | Uint8Array) => ((messages += text.toString()), true) } },
  )
  if (error) throw new Error(`asc failed: ${error.message}\n${messages}`)
}

/** This script run again in a fresh process with `args`: what it printed, as JSON. */
function child<T>(script: string, args: string[]): T {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr}`)
  return JSON.parse(run.stdout) as T
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0)

/** The scanner kernel's exports. */
interface ScanExports {
  memory: { buffer: ArrayBuffer }
  init(capacity: number): number
  scan(length: number): number
  recordCount(): number
  faults(): number
}

const SCAN_CHUNK = 1 << 20
const SCAN_ENGINES = ['wasm', 'load', 'json'] as const
type ScanEngine = (typeof SCAN_ENGINES)[number]

/** One read of `file` through the scanner kernel: 1 MiB chunks read straight behind the line left over. */
function scanFile(exports: ScanExports, file: string): number {
  const start = exports.init(2 * SCAN_CHUNK + 64)
  const fd = openSync(file, 'r')
  let kept = 0
  try {
    for (;;) {
      const view = new Uint8Array(exports.memory.buffer, start, 2 * SCAN_CHUNK)
      const read = readSync(fd, view, kept, SCAN_CHUNK, null)
      if (read === 0) break
      const length = kept + read
      const used = exports.scan(length)
      view.copyWithin(0, used, length)
      kept = length - used
    }
  } finally {
    closeSync(fd)
  }
  return exports.recordCount()
}

/** Three reads of the capture by one engine in this process: milliseconds each, and what each read counted. */
async function measureScan(engine: ScanEngine, file: string, wasm: string): Promise<{ ms: number[]; counts: number[] }> {
  const ms: number[] = []
  const counts: number[] = []
  let exports: ScanExports | null = null
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now()
    let count: number
    if (engine === 'wasm') {
      exports ??= instantiate(wasm) as ScanExports
      count = scanFile(exports, file)
      if (exports.faults() > 0) throw new Error(`${file}: the kernel read ${exports.faults()} lines as no JSON object`)
    } else if (engine === 'load') {
      const { store, error } = await loadCaptureFile(file, { syncReads: true })
      if (error) throw error
      count = store.records.length
    } else count = (await jsonParseBaseline(file)) - 1
    ms.push(performance.now() - t)
    counts.push(count)
  }
  return { ms, counts }
}

async function scanMain(here: string, wasm: string, file: string, rounds: number): Promise<void> {
  if (!process.env.AOT_PREBUILT) await compileModule('bench/tools/aot/scan.ts', wasm)
  const results = new Map<ScanEngine, { ms: number[]; counts: number[] }[]>(SCAN_ENGINES.map((e) => [e, []]))
  for (let r = 0; r < rounds; r++) {
    for (const engine of SCAN_ENGINES) {
      results.get(engine)!.push(child(here, ['--scan-child', engine, file]))
    }
  }
  console.log(`${file}: ${rounds} rounds of fresh processes, three reads each (mean ms)`)
  console.log('  engine   first read   third read   records')
  for (const engine of SCAN_ENGINES) {
    const rs = results.get(engine)!
    const counts = new Set(rs.flatMap((x) => x.counts))
    console.log(
      `  ${engine.padEnd(8)} ${mean(rs.map((x) => x.ms[0])).toFixed(1).padStart(10)} ${mean(rs.map((x) => x.ms[RUNS - 1])).toFixed(1).padStart(12)}` +
        `   ${[...counts].join(' or ')}`,
    )
  }
}

async function main(): Promise<void> {
  const here = fileURLToPath(import.meta.url)
  // the modules beside this script's bundle, in bench/data/tools/aot/
  const modules = join(dirname(here), 'aot')
  const wasmOf = (name: string) => join(modules, `${name}.wasm`)
  if (process.argv[2] === '--scan-child') {
    const result = await measureScan(process.argv[3] as ScanEngine, process.argv[4], wasmOf('scan'))
    process.stdout.write(JSON.stringify(result))
    return
  }
  if (process.argv[2] === 'scan') return scanMain(here, wasmOf('scan'), process.argv[3], Number(process.argv[4] ?? 5))
  if (process.argv[2] === '--child') {
    const name = process.argv[3]
    const result = measure(KERNELS[name], process.argv[4] as EngineName, Number(process.argv[5]), wasmOf(name))
    process.stdout.write(JSON.stringify(result))
    return
  }
  const rounds = Number(process.argv[2] ?? 5)
  const ops = Number(process.argv[3] ?? 2_000_000)
  const names = (process.argv[4] ?? Object.keys(KERNELS).join(',')).split(',')
  for (const name of names) if (!KERNELS[name]) throw new Error(`no kernel ${name} (${Object.keys(KERNELS).join(', ')})`)
  if (!process.env.AOT_PREBUILT) for (const name of names) await compileModule(KERNELS[name].source, wasmOf(name))
  let agree = true
  for (const name of names) {
    const results = new Map<EngineName, ChildResult[]>(ENGINES.map((e) => [e, []]))
    for (let r = 0; r < rounds; r++) {
      for (const engine of ENGINES) {
        results.get(engine)!.push(child<ChildResult>(here, ['--child', name, engine, String(ops)]))
      }
    }
    const sums = new Set([...results.values()].flatMap((rs) => rs.flatMap((x) => x.sums)))
    if (sums.size !== 1) agree = false
    console.log(`${name}: ${ops} operations, ${rounds} rounds of fresh processes; the engines' sums ${sums.size === 1 ? 'agree' : 'DIFFER'}`)
    console.log('  engine            compile   first eighth   first run   third run   (mean ms)')
    for (const engine of ENGINES) {
      const rs = results.get(engine)!
      const cols = [
        mean(rs.map((x) => x.compileMs)),
        mean(rs.map((x) => x.eighths[0][0])),
        mean(rs.map((x) => sumOf(x.eighths[0]))),
        mean(rs.map((x) => sumOf(x.eighths[RUNS - 1]))),
      ]
      console.log(
        `  ${engine.padEnd(16)} ${cols[0].toFixed(1).padStart(8)} ${cols[1].toFixed(1).padStart(14)} ${cols[2].toFixed(1).padStart(11)}` +
          ` ${cols[3].toFixed(1).padStart(11)}`,
      )
    }
  }
  if (!agree) process.exitCode = 1
}

await main()
