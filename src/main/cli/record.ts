/**
 * `heapscope record [-o FILE] [--frames-from submit|present] [--stacks] -- PROGRAM [ARGS…]` (docs/capture-vulkan.md):
 * runs a program under the Vulkan capture layer, waits for it, then says where the capture went and what it holds.
 * The exit status is the program's: its own code, 128 + N when a signal N ended it, 127 when it could not start.
 */
import { constants } from 'node:os'
import { basename, dirname, resolve } from 'node:path'
import { existsSync, statSync } from 'node:fs'
import { formatCount } from '../../shared/units'
import { loadCaptureFile } from '../ingest/read'
import { countResources } from '../analysis/reportEnvelope'
import { vulkanFigures } from '../analysis/vulkan/report'
import { launchUnderLayer, type LaunchOptions } from '../record/launch'

export interface RecordOptions {
  output?: string
  framesFrom?: 'submit' | 'present'
  stacks?: boolean
}

/** The exit status a shell would give: the code, or 128 + the signal's number. */
export function exitStatusOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code
  const number = signal ? (constants.signals as Record<string, number>)[signal] : undefined
  return 128 + (number ?? 0)
}

/** `<program>-<date>-<time>.hscap` in the working folder. */
export function defaultOutput(program: string, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
  return `${basename(program).replace(/\.exe$/i, '')}-${stamp}.hscap`
}

/** Run the program; resolves with its exit status once it ended. */
export function runUnderLayer(launch: LaunchOptions): Promise<number> {
  return new Promise((done, fail) => {
    let child
    try {
      child = launchUnderLayer(launch)
    } catch (err) {
      fail(err)
      return
    }
    // Ctrl-C reaches the program too (same process group); this process waits for it to end, then reports
    const ignore = () => {}
    process.on('SIGINT', ignore)
    child.once('error', (err: NodeJS.ErrnoException) => {
      process.off('SIGINT', ignore)
      process.stderr.write(`heapscope: cannot start ${launch.program}: ${err.message}\n`)
      done(127)
    })
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore)
      done(exitStatusOf(code, signal))
    })
  })
}

/** One line about a capture: frames, resources, allocations, names, warnings. */
export async function summarize(file: string): Promise<string> {
  const { store, error } = await loadCaptureFile(file)
  const resources = countResources(store)
  const v = vulkanFigures(store)
  const warnings = Object.values(store.warnings.counts).reduce((a, b) => a + (b ?? 0), 0)
  const device = (store.header as { adapter?: { name?: string } }).adapter?.name
  const parts = [
    `${formatCount(store.frames.length)} frames`,
    `${formatCount(resources.created)} buffers and images`,
    `${formatCount(v.allocations)} allocations (${formatCount(v.bindsAtOffset)} binds at a non-zero offset)`,
    `${formatCount(v.names)} names`,
    warnings ? `${formatCount(warnings)} warnings` : 'no warnings',
  ]
  const size = store.records.length ? `, ${formatCount(store.records.length)} records` : ''
  return `${device ? `${device}: ` : ''}${parts.join(', ')}${size}${error ? ` (read up to: ${error.message})` : ''}`
}

export interface RecordResult {
  status: number
  output: string
  written: boolean
}

export async function runRecord(program: string, args: string[], options: RecordOptions): Promise<RecordResult> {
  const output = resolve(options.output ?? defaultOutput(program))
  if (!existsSync(dirname(output))) throw new Error(`cannot write ${output}: its folder does not exist`)
  // a file left there by an earlier run is not this run's capture
  const before = existsSync(output) ? statSync(output).mtimeMs : -1
  const status = await runUnderLayer({
    program,
    args,
    output,
    framesFrom: options.framesFrom,
    stacks: options.stacks,
  })
  return { status, output, written: existsSync(output) && statSync(output).mtimeMs !== before }
}
