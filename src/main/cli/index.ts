/**
 * `heapscope`: the engine headless, for terminals and CI jobs (docs: CLI.md). Output on stdout, diagnostics
 * on stderr. Exit status: 0 done, 1 bad usage, 2 the input could not be read, 3 a diff threshold crossed,
 * 4 a hazard found by `check`.
 */
import { createWriteStream } from 'node:fs'
import { basename } from 'node:path'
import { createGzip } from 'node:zlib'
import { Command, CommanderError, Option } from 'commander'
import { CONFIG_KEYS, ConfigError, parseConfigPairs, resolveConfig } from '../../shared/model'
import { formatCount } from '../../shared/units'
import { IMPORT_BUCKET_MS, type CaptureImportOptions } from '../../shared/ipc'
import { CaptureError } from '../ingest/errors'
import { ImportError, importOptionsOf } from '../ingest/importers'
import { loadCapture, loadCaptureFile, type LoadProgress, type LoadResult } from '../ingest/read'
import { recordsOf } from '../ingest/records'
import { checkExitCode, formatCheck, runCheck } from './check'
import { runGen, SCENARIOS } from './gen'
import { buildRunReport } from '../analysis/report'
import { Replay } from '../analysis/replay'
import { formatReport } from './report'
import { buildDiff, formatDiff } from './diff'
import { Snapshots } from '../analysis/snapshot'
import { isVulkanRun, VulkanReplay, vulkanConfigOf } from '../analysis/vulkanReplay'
import { buildVulkanRunReport } from '../analysis/vulkanReport'
import { VulkanSnapshots } from '../analysis/vulkanSnapshot'
import { runRoute } from './route'

export const EXIT = { ok: 0, usage: 1, input: 2, threshold: 3, hazard: 4 } as const

class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** A progress bar on stderr, only on a terminal. */
function progressBar(label: string): ((p: LoadProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined
  return (p) => {
    const width = 30
    const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 0
    const filled = Math.round(fraction * width)
    process.stderr.write(
      `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0)}% ${formatCount(p.records)} records`,
    )
  }
}

function clearProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
}

/** Read a capture (or an importable file, or stdin for "-"); unreadable input ends with exit 2. */
async function read(file: string, options: { headerOptional?: boolean; frames?: FrameFlags } = {}): Promise<LoadResult> {
  const name = file === '-' ? 'stdin' : basename(file)
  const onProgress = progressBar(name)
  const load = { onProgress, headerOptional: options.headerOptional, import: importOptionsOf(importOptionsFrom(options.frames)) }
  try {
    const result =
      file === '-'
        ? await loadCapture(process.stdin, { file: name, ...load })
        : await loadCaptureFile(file, load)
    clearProgress()
    return result
  } catch (err) {
    clearProgress()
    if (err instanceof CaptureError || err instanceof ImportError) throw new ExitError(EXIT.input, err.message)
    throw err
  }
}

function configFrom(pairs: string[], header?: LoadResult['store']['header']) {
  try {
    return resolveConfig(header?.config as Record<string, number> | undefined, parseConfigPairs(pairs))
  } catch (err) {
    if (err instanceof ConfigError) throw new ExitError(EXIT.usage, err.message)
    throw err
  }
}

/** A Vulkan capture's config: the header's Vulkan keys, then `--config` pairs (D3D12 keys among them are skipped). */
function vulkanConfigFrom(pairs: string[], header: LoadResult['store']['header']) {
  const overrides: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new ExitError(EXIT.usage, `--config expects KEY=VALUE, got "${pair}"`)
    overrides[pair.slice(0, eq).trim()] = pair.slice(eq + 1)
  }
  try {
    return vulkanConfigOf(header, overrides)
  } catch (err) {
    if (err instanceof ConfigError) throw new ExitError(EXIT.usage, err.message)
    throw err
  }
}

/** A whole replay of a capture through the model of its API, with its snapshots and report. */
async function replayRun(result: LoadResult, pairs: string[]) {
  const header = result.store.header
  if (isVulkanRun(header)) {
    const replay = await VulkanReplay.run(result.store, { config: vulkanConfigFrom(pairs, header) })
    return { replay, snapshots: new VulkanSnapshots(replay), report: buildVulkanRunReport(result, replay) }
  }
  const replay = await Replay.run(result.store, { config: configFrom(pairs, header) })
  return { replay, snapshots: new Snapshots(replay), report: buildRunReport(result, replay) }
}

const collect = (value: string, previous: string[]) => [...previous, value]

/** `--bucket-ms N` and `--no-frame-markers`: how an imported trace's time becomes frames. */
interface FrameFlags {
  bucketMs?: number
  frameMarkers?: boolean
}

const bucketMsOption = () =>
  new Option('--bucket-ms <ms>', 'frames of an RMV, GPGMM or Unreal Insights trace without frame markers: time buckets of this length (default 16.6)').argParser(
    (v) => {
      const n = Number(v)
      if (!(n >= IMPORT_BUCKET_MS.min && n <= IMPORT_BUCKET_MS.max)) {
        throw new ExitError(EXIT.usage, `--bucket-ms expects milliseconds from ${IMPORT_BUCKET_MS.min} to ${IMPORT_BUCKET_MS.max}, got "${v}"`)
      }
      return n
    },
  )
const noFrameMarkersOption = () =>
  new Option('--no-frame-markers', 'cut an imported trace into time buckets even where it marks frames (presents)')

function importOptionsFrom(flags: FrameFlags | undefined): CaptureImportOptions | undefined {
  if (!flags) return undefined
  const options: CaptureImportOptions = {}
  if (flags.bucketMs !== undefined) options.bucketMs = flags.bucketMs
  if (flags.frameMarkers === false) options.frameMarkers = false
  return options
}

function writeLine(line: string): void {
  process.stdout.write(`${line}\n`)
}

export function buildProgram(): Command {
  const program = new Command()
  program
    .name('heapscope')
    .description('GPU memory profiler: replays D3D12 and Vulkan resource captures through allocator models')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      `\nExit status: 0 done, 1 bad usage, 2 the input could not be read, 3 a diff threshold was crossed, 4 check found a hazard.\nConfig keys (--config KEY=VALUE): ${Object.keys(CONFIG_KEYS).join(', ')}`,
    )

  program
    .command('route')
    .description('place every request through the D3D12 model; one JSON line per placement, in input order')
    .argument('[file]', 'capture records (a header line is optional); - or nothing reads stdin', '-')
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .action(async (file: string, opts: { config: string[] } & FrameFlags) => {
      const result = await read(file, { headerOptional: true, frames: opts })
      if (result.store.header.api === 'vulkan') {
        // route speaks the D3D12 model's ladders; a Vulkan capture's placements are in report, check and the app.
        throw new ExitError(
          EXIT.usage,
          `${file} is a Vulkan capture (header "api": "vulkan"); route explains D3D12 placements only. ` +
            'Use `heapscope report` or `heapscope check` for it.',
        )
      }
      const config = configFrom(opts.config, result.store.header)
      await runRoute(
        recordsOf(result.store),
        { config, header: result.store.header, gpuRecords: result.store.hasGpuRecords },
        writeLine,
      )
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
    })

  program
    .command('report')
    .description('replay a whole capture and print its figures')
    .argument('<capture>', 'a capture or an importable file (gzip or not)')
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .option('--json', 'one JSON object')
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .action(async (file: string, opts: { config: string[]; json?: boolean } & FrameFlags) => {
      const result = await read(file, { frames: opts })
      const { report } = await replayRun(result, opts.config)
      process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : formatReport(report))
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
    })

  program
    .command('diff')
    .description('compare two runs: two captures, or one capture under two configs (--config-a, --config-b)')
    .argument('<a>', 'capture A')
    .argument('[b]', 'capture B (default: A again, for two configs)')
    .option('--config <key=value>', 'override a model config key for both runs (repeatable)', collect, [])
    .option('--config-a <key=value>', 'override a model config key for run A (repeatable)', collect, [])
    .option('--config-b <key=value>', 'override a model config key for run B (repeatable)', collect, [])
    .option('--json', 'one JSON object')
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .addOption(
      new Option('--fail-on-growth <percent>', 'exit 3 when the peak heap bytes grow by more than PERCENT').argParser((v) => {
        const n = Number(v)
        if (!Number.isFinite(n) || n < 0) throw new ExitError(EXIT.usage, `--fail-on-growth expects a percentage, got "${v}"`)
        return n
      }),
    )
    .action(
      async (
        fileA: string,
        fileB: string | undefined,
        opts: { config: string[]; configA: string[]; configB: string[]; json?: boolean; failOnGrowth?: number } & FrameFlags,
      ) => {
        const resultA = await read(fileA, { frames: opts })
        const resultB = fileB === undefined || fileB === fileA ? resultA : await read(fileB, { frames: opts })
        const a = await replayRun(resultA, [...opts.config, ...opts.configA])
        const b = await replayRun(resultB, [...opts.config, ...opts.configB])
        const diff = buildDiff(a, b)
        process.stdout.write(opts.json ? `${JSON.stringify(diff)}\n` : formatDiff(diff))
        for (const result of [resultA, resultB]) if (result.error) throw new ExitError(EXIT.input, result.error.message)
        if (opts.failOnGrowth !== undefined && diff.peakGrowthPercent > opts.failOnGrowth) {
          const growth = Number.isFinite(diff.peakGrowthPercent) ? `${diff.peakGrowthPercent.toFixed(2)}%` : 'from zero'
          throw new ExitError(EXIT.threshold, `peak heap bytes grew ${growth}, more than ${opts.failOnGrowth}%`)
        }
      },
    )

  program
    .command('gen')
    .description('write a synthetic capture of a realistic workload (deterministic for a seed)')
    .argument('[scenario]', 'a scenario name (see --list)')
    .option('--list', 'name the scenarios')
    .addOption(new Option('--frames <n>', 'frames to generate').argParser((v) => Number(v)))
    .addOption(new Option('--seed <s>', 'random seed').argParser((v) => Number(v)))
    .option('-o, --output <file>', 'write to a file (.gz: gzip-compressed) instead of stdout')
    .action(async (scenario: string | undefined, opts: { list?: boolean; frames?: number; seed?: number; output?: string }) => {
      if (opts.list || !scenario) {
        for (const s of SCENARIOS) writeLine(`${s.name.padEnd(12)} ${s.description} (default ${s.defaultFrames} frames)`)
        if (!opts.list) throw new ExitError(EXIT.usage, 'gen needs a scenario')
        return
      }
      if (!SCENARIOS.some((s) => s.name === scenario)) {
        throw new ExitError(EXIT.usage, `unknown scenario "${scenario}"; valid: ${SCENARIOS.map((s) => s.name).join(', ')}`)
      }
      const file = opts.output ? createWriteStream(opts.output) : undefined
      const gzip = opts.output?.endsWith('.gz') ? createGzip({ level: 6 }) : undefined
      if (gzip && file) gzip.pipe(file)
      const out: NodeJS.WritableStream = gzip ?? file ?? process.stdout
      const write = (chunk: string) =>
        out.write(chunk) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve()))
      try {
        await runGen(scenario, { frames: opts.frames, seed: opts.seed }, write)
      } catch (err) {
        throw new ExitError(EXIT.usage, (err as Error).message)
      }
      if (out !== process.stdout) {
        await new Promise<void>((resolve, reject) => {
          file!.once('finish', () => resolve())
          file!.once('error', reject)
          out.end()
        })
      }
    })

  program
    .command('check')
    .description('run the aliasing and API-usage checks over a capture')
    .argument('<capture>', 'a capture')
    .option('--json', 'one JSON object')
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .action(async (file: string, opts: { json?: boolean } & FrameFlags) => {
      const result = await read(file, { frames: opts })
      const check = await runCheck(recordsOf(result.store), result.store.header, {
        reading: result.store.warnings,
        gpuRecords: result.store.hasGpuRecords,
      })
      process.stdout.write(formatCheck(check, opts.json ?? false))
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
      const code = checkExitCode(check)
      if (code !== EXIT.ok) throw new ExitError(code, '')
    })

  return program
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv, { from: 'user' })
    return EXIT.ok
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage
    }
    if (err instanceof ExitError) {
      if (err.message) process.stderr.write(`heapscope: ${err.message}\n`)
      return err.code
    }
    process.stderr.write(`heapscope: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    return EXIT.input
  }
}
