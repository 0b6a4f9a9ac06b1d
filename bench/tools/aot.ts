/**
 * What compiling the model ahead of time would change: the D3D12 buddy pool (src/main/model/d3d12/buddy.ts) as V8
 * compiles it while it runs, against the same pool written in AssemblyScript (bench/tools/aot/buddy.ts) and run as
 * WebAssembly, on one stream of operations. A report of a small capture spends most of its time before V8 has
 * optimised the replay's functions (bench/README.md, "Where a page fault is cheap"); a WebAssembly module is
 * compiled whole before its first call, by V8's baseline compiler (Liftoff, then its hot functions again by the
 * optimising one in the background) or, with `--no-liftoff` set before the module is compiled, by the optimising
 * one at once.
 *
 * The stream: 2 000 000 operations by a fixed linear congruential generator; each allocates a block of one of six
 * orders (64 KiB to 2 MiB) in the first pool of 64 MiB with room for it, in the order the pools were made (a new
 * pool where none has), or frees a random live block; about 30 000 blocks live once it settles. Both sides sum the
 * offsets they return, and the sums must agree.
 *
 * Each engine runs in a fresh process, in alternating rounds: the stream three times (the first cold), each run in
 * eighths. Printed per engine: the mean milliseconds to compile the module, of the first run's first eighth and
 * the whole first run, and of the third run (warm).
 * Usage, from the repository root: bash bench/tools/run.sh aot [ROUNDS=5] [OPS=2000000]
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { BuddyPool } from '../../src/main/model/d3d12/buddy'

const MIN_BLOCK = 64 * 1024
const MAX_ORDER = 10
const ORDERS = 6
const LIVE = 30_000
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

/** The stream over the model's own BuddyPool, as the replay's code runs it. */
class ScriptDriver implements Engine {
  private pools: BuddyPool[] = []
  private liveOffset = new Float64Array(LIVE * 2 + 16)
  private liveOrder = new Int32Array(LIVE * 2 + 16)
  private livePool = new Int32Array(LIVE * 2 + 16)
  private live = 0
  private seed = SEED

  reset(): void {
    this.pools = []
    this.live = 0
    this.seed = SEED
  }

  private next(n: number): number {
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0
    return (this.seed >>> 8) % n
  }

  run(ops: number): number {
    let sum = 0
    const pools = this.pools
    for (let i = 0; i < ops; i++) {
      if (this.live === 0 || this.next(64) < (this.live < LIVE ? 40 : 24)) {
        const order = this.next(ORDERS)
        let p = 0
        while (p < pools.length && !pools[p].canAllocate(order)) p++
        if (p === pools.length) pools.push(new BuddyPool(p, MIN_BLOCK, MAX_ORDER, 0))
        const offset = pools[p].allocate(order)
        this.liveOffset[this.live] = offset
        this.liveOrder[this.live] = order
        this.livePool[this.live] = p
        this.live++
        sum += offset + p * 7
      } else {
        const j = this.next(this.live)
        pools[this.livePool[j]].deallocate(this.liveOffset[j], this.liveOrder[j])
        const last = --this.live
        this.liveOffset[j] = this.liveOffset[last]
        this.liveOrder[j] = this.liveOrder[last]
        this.livePool[j] = this.livePool[last]
      }
    }
    return sum
  }
}

interface BuddyExports {
  reset(minBlock: number, maxOrder: number, orders: number, live: number, seed: number): void
  run(ops: number): number
}

/** The engine's WebAssembly API (this project's Node typings declare no such global). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

function wasmDriver(file: string): Engine {
  const module = new wasmApi.Module(readFileSync(file))
  const exports = new wasmApi.Instance(module, {
    env: {
      abort: () => {
        throw new Error('buddy.wasm aborted')
      },
    },
  }).exports as unknown as BuddyExports
  return {
    reset: () => exports.reset(MIN_BLOCK, MAX_ORDER, ORDERS, LIVE, SEED),
    run: (ops) => exports.run(ops),
  }
}

interface ChildResult {
  compileMs: number
  /** Per run, the milliseconds of each eighth. */
  eighths: number[][]
  sums: number[]
}

/** One engine in this process: its module compiled, then the stream RUNS times. */
function measure(engine: EngineName, ops: number, wasm: string): ChildResult {
  if (engine === 'wasm-no-liftoff') setFlagsFromString('--no-liftoff')
  const started = performance.now()
  const driver = engine === 'js' ? new ScriptDriver() : wasmDriver(wasm)
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
  const { default: asc } = await import('assemblyscript/asc')
  let messages = ''
  const { error } = await asc.main(
    [source, '-O3', '--noAssert', '--runtime', 'stub', '--outFile', out],
    { stderr: { write: (text: string | Uint8Array) => ((messages += text.toString()), true) } },
  )
  if (error) throw new Error(`asc failed: ${error.message}\n${messages}`)
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0)

async function main(): Promise<void> {
  const here = fileURLToPath(import.meta.url)
  const wasm = join(dirname(here), 'aot', 'buddy.wasm')
  if (process.argv[2] === '--child') {
    const result = measure(process.argv[3] as EngineName, Number(process.argv[4]), wasm)
    process.stdout.write(JSON.stringify(result))
    return
  }
  const rounds = Number(process.argv[2] ?? 5)
  const ops = Number(process.argv[3] ?? 2_000_000)
  mkdirSync(dirname(wasm), { recursive: true })
  await compileModule('bench/tools/aot/buddy.ts', wasm)
  const results = new Map<EngineName, ChildResult[]>(ENGINES.map((e) => [e, []]))
  for (let r = 0; r < rounds; r++) {
    for (const engine of ENGINES) {
      const child = spawnSync(process.execPath, [here, '--child', engine, String(ops)], { encoding: 'utf8' })
      if (child.status !== 0) throw new Error(`${engine}: ${child.stderr}`)
      results.get(engine)!.push(JSON.parse(child.stdout) as ChildResult)
    }
  }
  const sums = new Set([...results.values()].flatMap((rs) => rs.flatMap((x) => x.sums)))
  console.log(`${ops} operations, ${rounds} rounds of fresh processes; the engines' sums ${sums.size === 1 ? 'agree' : 'DIFFER'}`)
  console.log('engine            compile   first eighth   first run   third run   (mean ms)')
  for (const engine of ENGINES) {
    const rs = results.get(engine)!
    const cols = [
      mean(rs.map((x) => x.compileMs)),
      mean(rs.map((x) => x.eighths[0][0])),
      mean(rs.map((x) => sumOf(x.eighths[0]))),
      mean(rs.map((x) => sumOf(x.eighths[RUNS - 1]))),
    ]
    console.log(
      `${engine.padEnd(16)} ${cols[0].toFixed(1).padStart(8)} ${cols[1].toFixed(1).padStart(14)} ${cols[2].toFixed(1).padStart(11)}` +
        ` ${cols[3].toFixed(1).padStart(11)}`,
    )
  }
  if (sums.size !== 1) process.exitCode = 1
}

await main()
