/**
 * Live capture: a program started under the Vulkan capture layer (src/main/record/launch.ts) on the host's own
 * machine, its capture followed by the engine as the layer writes it. Stop ends the program; when it has exited
 * the engine reads what is left and the run becomes a loaded run. The renderer hears of the program's start and
 * end as RecordStatus events.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { basename, isAbsolute, join, resolve } from 'node:path'
import type { LoadOutcome, LoadProgress, RecordInfo, RecordRequest, RecordStatus } from '../../shared/ipc'
import type { Engine } from '../engine/engine'
import { findLayerDir, launchUnderLayer } from '../record/launch'

/** A program asked to stop gets this long to exit before it is killed. */
export const STOP_GRACE_MS = 3000
/** The last bytes a program wrote to its output, kept to say why it failed. */
const OUTPUT_TAIL = 2048

export interface RecordingsOptions {
  engine: () => Engine
  progress: (progress: LoadProgress) => void
  status: (status: RecordStatus) => void
  /** Where captures go when a request names no output file. */
  capturesDir: string
  /** The layer's folder (tests); found as `heapscope record` finds it otherwise. */
  layerDir?: () => string | null
  /** The environment programs start with (tests); this process's otherwise. */
  env?: NodeJS.ProcessEnv
}

interface Recording {
  child: ChildProcess
  status: RecordStatus
  kill?: ReturnType<typeof setTimeout>
}

/** A file name for a new capture of `program`: its name and the local time, `vkcube-20261201-142233.hscap`. */
export function captureName(program: string, now: Date = new Date()): string {
  // either separator: a Windows path named to a host on another system still gives the program's own name
  const stem = (program.split(/[\\/]/).pop() ?? '').replace(/\.exe$/i, '').replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80) || 'capture'
  const two = (n: number) => String(n).padStart(2, '0')
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`
  return `${stem}-${stamp}.hscap`
}

export class Recordings {
  private readonly running = new Map<string, Recording>()

  constructor(private readonly options: RecordingsOptions) {}

  private layerDir(): string | null {
    return this.options.layerDir ? this.options.layerDir() : findLayerDir(this.options.env ?? process.env)
  }

  info(): RecordInfo {
    const layerDir = this.layerDir()
    return {
      layerDir,
      ...(layerDir
        ? {}
        : {
            problem:
              'The HeapScope Vulkan capture layer is not built. Build it with "npm run build:layer" (it needs a C compiler, CMake and the Vulkan headers), or set HEAPSCOPE_LAYER_DIR to the folder that holds it.',
          }),
      capturesDir: this.options.capturesDir,
      platform: process.platform,
    }
  }

  async start(request: RecordRequest): Promise<LoadOutcome> {
    const { loadId, program } = request
    if (this.running.has(loadId)) throw new Error(`recording ${loadId} is already running`)
    const layerDir = this.layerDir()
    const output = request.output ?? join(this.options.capturesDir, captureName(program))
    const failed = (message: string): LoadOutcome => ({
      ok: false,
      error: { file: basename(output), message, line: 0, byteOffset: 0, expected: '' },
    })
    if (!layerDir) return failed(this.info().problem!)
    if (!isAbsolute(output)) return failed(`${output}: the capture file needs an absolute path`)
    try {
      mkdirSync(resolve(output, '..'), { recursive: true })
      // a capture left by an earlier run would be read before the layer starts the file again
      await rm(output, { force: true })
    } catch (err) {
      return failed(`${output}: ${err instanceof Error ? err.message : String(err)}`)
    }

    let child: ChildProcess
    try {
      child = launchUnderLayer({
        program,
        args: request.args,
        output,
        framesFrom: request.framesFrom,
        stacks: request.stacks,
        layerDir,
        env: this.options.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch (err) {
      return failed(err instanceof Error ? err.message : String(err))
    }
    const status: RecordStatus = { loadId, program, output, state: 'running', ...(child.pid ? { pid: child.pid } : {}) }
    const recording: Recording = { child, status }
    this.running.set(loadId, recording)
    let said = ''
    const keep = (chunk: Buffer) => {
      said = (said + chunk.toString('utf8')).slice(-OUTPUT_TAIL)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    let startError: string | undefined
    const engine = this.options.engine()
    let ended = false
    /** How the program ended, for the error of a capture that never began; whether it failed. */
    let exitMessage: string | undefined
    let failedRun = false
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (ended) return
      ended = true
      // ended by Stop: what it said is not why it failed
      const stopped = recording.kill !== undefined
      clearTimeout(recording.kill)
      this.running.delete(loadId)
      failedRun = startError !== undefined || (!stopped && code !== 0)
      const message = startError ?? (failedRun && said.trim() ? said.trim().split('\n').slice(-6).join('\n') : undefined)
      const how = startError ?? (signal ? `${basename(program)} was ended by ${signal}` : `${basename(program)} exited with code ${code}`)
      exitMessage = `${how}${message && !startError ? `: ${message}` : ''} (before it wrote a capture frame to ${output})`
      this.options.status({ ...status, state: 'exited', code, signal, ...(message ? { message } : {}) })
      // what the program wrote before it exited is read, then the run is a loaded run (an engine that died has
      // nothing to read: its runs are gone)
      engine.endFollow(loadId).catch(() => undefined)
    }
    child.once('error', (err) => {
      startError = `${program}: ${err.message}`
      exited(null, null)
    })
    child.once('exit', exited)
    this.options.status(status)

    let outcome: LoadOutcome
    try {
      outcome = await engine.follow(loadId, { path: output, name: basename(output) }, this.options.progress)
    } catch (err) {
      this.stop(loadId)
      throw err
    }
    if (!outcome.ok && !ended) {
      // nothing to show for it: the program is not left running
      this.stop(loadId)
    }
    if (!outcome.ok && !outcome.cancelled && exitMessage) {
      // a program that ran to its end and wrote nothing most likely never used Vulkan: what the file lacks says so
      return failed(failedRun ? exitMessage : `${exitMessage}: ${outcome.error.message}`)
    }
    return outcome
  }

  /** Ask the program to end (SIGTERM), and kill it when it has not after STOP_GRACE_MS. */
  stop(loadId: string): void {
    const recording = this.running.get(loadId)
    if (!recording || recording.kill) return
    recording.child.kill('SIGTERM')
    recording.kill = setTimeout(() => recording.child.kill('SIGKILL'), STOP_GRACE_MS)
    recording.kill.unref()
  }

  /** The host is going away: every program it started is ended. */
  dispose(): void {
    for (const recording of this.running.values()) recording.child.kill('SIGKILL')
    this.running.clear()
  }
}
