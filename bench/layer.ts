/**
 * `npm run bench:layer [-- --runs R] [--frames N] [--seconds S]`: the Vulkan capture layer's cost to a real
 * program, as its frame rate with and without the layer. Two programs on Mesa's lavapipe under one Xvfb:
 * vkcube (`--c N` frames, default 1500; frame rate = N / the program's wall time, its start included; and its
 * CPU time per frame, all threads, which a busy machine disturbs less) and
 * glmark2's build, texture and shading scenes through Zink (S seconds each, default 2; glmark2's own FPS per
 * scene, summed; CPU time per frame from the frames that makes). Runs alternate, without the layer then with it, R times each (default 5); the medians count.
 * Needs what the record tests need (docs/capture-vulkan.md) and the layer built (npm run build:layer).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findLayerDir, layerEnv } from '../src/main/record/launch'

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at < 0 ? fallback : Number(args[at + 1])
}
const runs = option('--runs', 5)
const frames = option('--frames', 1500)
const seconds = option('--seconds', 2)

const layerDir = findLayerDir()
if (!layerDir) throw new Error('the layer is not built: npm run build:layer')
const work = mkdtempSync(join(tmpdir(), 'heapscope-bench-layer-'))

/** An Xvfb of our own for the whole run; its display number as Xvfb chose it. */
async function startXvfb(): Promise<{ display: string; stop: () => void }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] })
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.once('error', reject)
    xvfb.stdout.once('data', (chunk: Buffer) => resolve(`:${chunk.toString().trim()}`))
  })
  return { display, stop: () => xvfb.kill() }
}

interface Run {
  ms: number
  /** CPU time of the program, all its threads, user + system. */
  cpuMs: number
  stdout: string
}

/** bash's `times` prints the children's user and system time on its second line: `0m1.234s 0m0.056s`. */
function cpuOf(times: string): number {
  const line = times.trim().split('\n').at(-1) ?? ''
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((ms, m) => ms + (Number(m[1]) * 60 + Number(m[2])) * 1000, 0)
}

function runProgram(program: string, programArgs: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const script = '"$@"; status=$?; times >&2; exit $status'
    const child = spawn('bash', ['-c', script, 'bash', program, ...programArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${program} exited ${code}`))
      else resolve({ ms: performance.now() - start, cpuMs: cpuOf(stderr), stdout })
    })
  })
}

interface Program {
  name: string
  program: string
  args: string[]
  env: NodeJS.ProcessEnv
  /** Frames per second of one run. */
  fps(run: Run): number
  /** Frames of one run, when the run has a fixed number: CPU time per frame is shown too. */
  frames?: number
  /** Or the frames a run of a fixed duration drew at a frame rate. */
  framesOf?: (fps: number) => number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function measure(p: Program): Promise<void> {
  const without: number[] = []
  const withLayer: number[] = []
  const cpuWithout: number[] = []
  const cpuWith: number[] = []
  let captureBytes = 0
  // one run of each first, untimed: caches warm for both alike
  const output = join(work, `${p.name}.hscap`)
  const layered = () => layerEnv({ layerDir: layerDir!, output, env: p.env })
  await runProgram(p.program, p.args, p.env)
  await runProgram(p.program, p.args, layered())
  for (let r = 0; r < runs; r++) {
    const plain = await runProgram(p.program, p.args, p.env)
    const recorded = await runProgram(p.program, p.args, layered())
    without.push(p.fps(plain))
    withLayer.push(p.fps(recorded))
    cpuWithout.push(plain.cpuMs)
    cpuWith.push(recorded.cpuMs)
    captureBytes = statSync(output).size
  }
  const a = median(without)
  const b = median(withLayer)
  const fmt = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ')
  console.log(`${p.name}`)
  console.log(`  without the layer  median ${a.toFixed(1)} fps  (runs: ${fmt(without)})`)
  console.log(`  with the layer     median ${b.toFixed(1)} fps  (runs: ${fmt(withLayer)})`)
  console.log(`  with / without     ${(b / a).toFixed(3)}  (capture ${(captureBytes / 1024).toFixed(0)} KiB)`)
  if (p.frames || p.framesOf) {
    const perFrame = (values: number[], fps: number[]) => (median(values) * 1000) / (p.frames ?? p.framesOf!(median(fps)))
    const x = perFrame(cpuWithout, without)
    const y = perFrame(cpuWith, withLayer)
    console.log(`  CPU per frame      ${x.toFixed(0)} µs without, ${y.toFixed(0)} µs with: ${(y / x).toFixed(3)} (medians)`)
  }
}

const xvfb = await startXvfb()
try {
  const base = { ...process.env, DISPLAY: xvfb.display }
  console.log(`${runs} alternating runs each, on ${xvfb.display}`)
  await measure({
    name: `vkcube --c ${frames}`,
    program: 'vkcube',
    args: ['--c', String(frames)],
    env: base,
    fps: (run) => (frames * 1000) / run.ms,
    frames,
  })
  const scenes = ['build', 'texture', 'shading'].flatMap((s) => ['-b', `${s}:duration=${seconds}`])
  await measure({
    name: `glmark2 through Zink (build, texture, shading, ${seconds} s each)`,
    program: 'glmark2',
    args: ['-s', '640x480', ...scenes],
    env: { ...base, LIBGL_ALWAYS_SOFTWARE: '1', GALLIUM_DRIVER: 'zink' },
    fps: (run) => [...run.stdout.matchAll(/FPS: (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0),
    // each scene runs `seconds` at its own rate: the frames are the rates' sum times the duration
    framesOf: (fps) => fps * seconds,
  })
} finally {
  xvfb.stop()
  rmSync(work, { recursive: true, force: true })
}
