/**
 * `heapscope`: the engine headless, for terminals and CI jobs (docs/cli.md). Output on stdout, diagnostics
 * on stderr. Exit status: 0 done, 1 bad usage, 2 the input could not be read, 3 a diff threshold crossed,
 * 4 a hazard found by `check`, 5 a build's growth past `history trend --fail-on-growth`; `record` exits with its
 * program's status.
 */
import { createWriteStream } from 'node:fs'
import { basename, resolve } from 'node:path'
import { createGzip } from 'node:zlib'
import { Command, CommanderError, Option } from 'commander'
import { CONFIG_KEYS, ConfigError, parseConfigPairs, resolveConfig } from '../../shared/model'
import { formatCount } from '../../shared/units'
import {
  HISTORY_GROUPS as TREND_GROUPS,
  HISTORY_METRICS as TREND_METRICS,
  IMPORT_BUCKET_MS,
  IMPORT_MODELS,
  type CaptureImportOptions,
  type HistoryGroup as TrendGroup,
  type HistoryMetric as TrendMetric,
  type ImportModel,
} from '../../shared/ipc'
import { CaptureError } from '../ingest/errors'
import { importOptionsOf } from '../ingest/importers/options'
import { ImportError } from '../ingest/importers/source'
import { loadCapture, loadCaptureFile, type LoadProgress, type LoadResult } from '../ingest/read'
import { formatReport } from './report'
import { beforeCapture, withoutOptimisingCompiler } from './shortRun'
import { loadAndReplay, replayCapture, type ReplayedCapture } from '../analysis/run'
import { HEAPSCOPE_VERSION } from '../../shared/version'
import { HistoryError } from '../history/duckdb'
import type { RunFigures } from '../history/figures'
import type { GateLine } from '../history/gate'

// `report`'s modules load with the program; every other command's when it runs (import() in its action), so a
// one-shot `heapscope report` compiles none of the generator, the history database, `route`, `check` or `record`.

export const EXIT = { ok: 0, usage: 1, input: 2, threshold: 3, hazard: 4, growth: 5 } as const

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

/**
 * How a capture is read: its progress bar and an imported trace's options. A command does nothing else while its
 * capture loads on this thread, so the file's chunks are read here too (`syncReads`), not through libuv's pool
 * (ingest/fileChunks.ts says why).
 */
function loadOptions(file: string, options: { headerOptional?: boolean; frames?: FrameFlags }) {
  const name = file === '-' ? 'stdin' : basename(file)
  return {
    onProgress: progressBar(name),
    headerOptional: options.headerOptional,
    import: importOptionsOf(importOptionsFrom(options.frames)),
    syncReads: true,
  }
}

/** Read a capture (or an importable file, or stdin for "-"); unreadable input ends with exit 2. */
async function read(file: string, options: { headerOptional?: boolean; frames?: FrameFlags } = {}): Promise<LoadResult> {
  const load = loadOptions(file, options)
  return loaded(file === '-' ? loadCapture(process.stdin, { file: 'stdin', ...load }) : loadCaptureFile(file, load))
}

/**
 * Read a capture and replay it: a file's replay follows its read, at once (loadAndReplay); stdin is read, then
 * replayed. Unreadable input ends with exit 2 as `read`; `replayed` gives the replay (bad `--config` pairs are
 * bad usage), once the read has answered.
 */
async function readReplayed(
  file: string,
  pairs: string[],
  options: { frames?: FrameFlags; residencyEvents?: boolean; series?: 'all' | 'report' } = {},
): Promise<{ result: LoadResult; replayed: () => Promise<ReplayedCapture> }> {
  const replay = { checkpoints: false, residencyEvents: options.residencyEvents, series: options.series }
  if (file === '-') {
    const result = await read(file, options)
    return { result, replayed: () => replayRun(replayCapture(result, pairs, replay)) }
  }
  beforeCapture(file)
  const load = { ...loadOptions(file, options), prime: !withoutOptimisingCompiler() }
  const loading = loadAndReplay(file, pairs, { load, ...replay })
  const result = await loaded(loading.loaded)
  return { result, replayed: () => replayRun(loading.replayed) }
}

/** A load's outcome: a fault before the first record, or input that cannot be read, ends with exit 2. */
async function loaded(loading: Promise<LoadResult>): Promise<LoadResult> {
  try {
    const result = await loading
    clearProgress()
    // A fault before the first record leaves nothing to report: say so alone, with no empty report beside it.
    if (result.error && result.store.records.length === 0) throw new ExitError(EXIT.input, result.error.message)
    return result
  } catch (err) {
    clearProgress()
    if (err instanceof ExitError) throw err
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

/**
 * A whole replay of a capture through the model of its API, for its figures (no snapshot is asked of it, so it
 * keeps no checkpoints); bad `--config` pairs are bad usage.
 */
async function replayRun(replaying: Promise<ReplayedCapture>): Promise<ReplayedCapture> {
  try {
    return await replaying
  } catch (err) {
    if (err instanceof ConfigError) throw new ExitError(EXIT.usage, err.message)
    throw err
  }
}

const collect = (value: string, previous: string[]) => [...previous, value]

/**
 * `--bucket-ms N` and `--no-frame-markers`: how an imported trace's time becomes frames; `--model d3d12`: a GPGMM
 * trace's requests replayed through the model in place of what GPGMM did; `--model vulkan`: a VMA dump through the
 * Vulkan model in place of its blocks as they are.
 */
interface FrameFlags {
  bucketMs?: number
  frameMarkers?: boolean
  model?: ImportModel
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

const modelOption = () =>
  new Option(
    '--model <model>',
    "d3d12: replay a GPGMM trace's requests through the UE 5.8 D3D12 model, without GPGMM's heaps; vulkan: a VMA dump through the Vulkan model (default: what the allocator did)",
  ).argParser((v) => {
    if (!(IMPORT_MODELS as readonly string[]).includes(v)) throw new ExitError(EXIT.usage, `--model expects ${IMPORT_MODELS.join(' or ')}, got "${v}"`)
    return v as ImportModel
  })

function importOptionsFrom(flags: FrameFlags | undefined): CaptureImportOptions | undefined {
  if (!flags) return undefined
  const options: CaptureImportOptions = {}
  if (flags.bucketMs !== undefined) options.bucketMs = flags.bucketMs
  if (flags.frameMarkers === false) options.frameMarkers = false
  if (flags.model !== undefined) options.model = flags.model
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
    .version(HEAPSCOPE_VERSION)
    .showHelpAfterError()
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      `\nExit status: 0 done, 1 bad usage, 2 the input could not be read, 3 a diff threshold was crossed, 4 check found a hazard, 5 history trend --fail-on-growth: the newest build grew.\nConfig keys (--config KEY=VALUE): ${Object.keys(CONFIG_KEYS).join(', ')}`,
    )

  program
    .command('route')
    .description('place every request through the D3D12 model; one JSON line per placement, in input order')
    .argument('[file]', 'capture records (a header line is optional); - or nothing reads stdin', '-')
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .action(async (file: string, opts: { config: string[] } & FrameFlags) => {
      // routing is the model's: a trace that holds requests gives them, not what its allocator did
      const result = await read(file, { headerOptional: true, frames: { ...opts, model: 'd3d12' } })
      const [{ backendFor }, { d3d12Backend }, { recordsOf }, { runRoute }] = await Promise.all([
        import('../analysis/backends'),
        import('../analysis/d3d12/backend'),
        import('../ingest/records'),
        import('./route'),
      ])
      const backend = backendFor(result.store.header, result.store)
      if (backend !== d3d12Backend && backend.config) {
        // route speaks the D3D12 model's ladders; another model's placements are in report, check and the app.
        throw new ExitError(
          EXIT.usage,
          `${file} is a ${backend.label ?? backend.id} capture (header "api": "${result.store.header.api}"); route explains D3D12 placements only. ` +
            'Use `heapscope report` or `heapscope check` for it.',
        )
      }
      const config = configFrom(opts.config, result.store.header)
      const requests = await runRoute(
        recordsOf(result.store),
        { config, header: result.store.header, gpuRecords: result.store.hasGpuRecords },
        writeLine,
      )
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
      if (requests === 0) {
        const observed = result.format !== 'heapscope-capture' ? ` (the ${result.format} import records what the allocator did, not what was asked of it: try report)` : ''
        throw new ExitError(EXIT.input, `${result.store.file}: no requests to route: no buffer, texture or transient records${observed}`)
      }
    })

  program
    .command('report')
    .description('replay a whole capture and print its figures')
    .argument('<capture>', 'a capture or an importable file (gzip or not)')
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .option('--json', 'one JSON object')
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .addOption(modelOption())
    .action(async (file: string, opts: { config: string[]; json?: boolean } & FrameFlags) => {
      // the report's figures only: the residency events are counted, not kept, and the series it reads alone kept
      const { result, replayed } = await readReplayed(file, opts.config, { frames: opts, residencyEvents: false, series: 'report' })
      const { report } = await replayed()
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
    .addOption(modelOption())
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
        const { buildDiff, formatDiff, runLabel } = await import('./diff')
        const pairsA = [...opts.config, ...opts.configA]
        const pairsB = [...opts.config, ...opts.configB]
        // neither side's residency events are read as rows: counted only (the reports' figures)
        const runA = await readReplayed(fileA, pairsA, { frames: opts, residencyEvents: false })
        const resultA = runA.result
        // one capture under two configs: read once, its second replay over the store the first one followed
        const runB =
          fileB === undefined || fileB === fileA
            ? { result: resultA, replayed: () => replayRun(replayCapture(resultA, pairsB, { checkpoints: false, residencyEvents: false })) }
            : await readReplayed(fileB, pairsB, { frames: opts, residencyEvents: false })
        const resultB = runB.result
        const a = await runA.replayed()
        const b = await runB.replayed()
        const diff = buildDiff(a, b, { a: runLabel(resultA.store.file, pairsA), b: runLabel(resultB.store.file, pairsB) })
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
      const { runGen, SCENARIOS } = await import('./gen')
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
    .addOption(modelOption())
    .action(async (file: string, opts: { json?: boolean } & FrameFlags) => {
      const { checkCapture, checkExitCode, formatCheck } = await import('./check')
      const { result, replayed } = await readReplayed(file, [], { frames: opts, residencyEvents: false })
      const check = await checkCapture(result, { replayed: await replayed() })
      process.stdout.write(formatCheck(check, opts.json ?? false))
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
      const code = checkExitCode(check)
      if (code !== EXIT.ok) throw new ExitError(code, '')
    })

  program
    .command('record')
    .description('run a Vulkan program (or an OpenGL one through Zink) under the HeapScope capture layer and write its capture')
    .usage('[-o FILE] [--frames-from submit|present] [--stacks] -- PROGRAM [ARGS...]')
    .argument('<program>', 'the program to run')
    .argument('[args...]', "the program's arguments (after --)")
    .option('-o, --output <file>', 'the capture to write (default: PROGRAM-DATE-TIME.hscap here)')
    .addOption(
      new Option('--frames-from <what>', 'what ends a frame: submit (each queue submit) or present (each present); default: submits until the first present')
        .choices(['submit', 'present']),
    )
    .option('--stacks', 'record the call stack of each allocation and resource creation')
    .passThroughOptions()
    .action(async (command: string, args: string[], opts: { output?: string; framesFrom?: 'submit' | 'present'; stacks?: boolean }) => {
      const { runRecord, summarize } = await import('./record')
      let result
      try {
        result = await runRecord(command, args, opts)
      } catch (err) {
        throw new ExitError(EXIT.usage, (err as Error).message)
      }
      if (!result.written) {
        if (result.status !== 127) process.stderr.write(`heapscope: ${command} made no Vulkan device under the layer: no capture was written\n`)
      } else {
        writeLine(`capture written to ${result.output}`)
        try {
          writeLine(await summarize(result.output))
        } catch (err) {
          process.stderr.write(`heapscope: the capture cannot be read: ${(err as Error).message}\n`)
        }
      }
      if (result.status !== EXIT.ok) throw new ExitError(result.status, '')
    })

  program
    .command('export')
    .description('write a run as Parquet files: per-frame series, resources, residency events and hazards')
    .argument('<capture>', 'a capture or an importable file (gzip or not)')
    .requiredOption('--parquet <dir>', 'the folder the files go to (made if missing)')
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .option('--build <build>', "the run's build (default: the header's build)")
    .option('--label <key=value>', 'a label for the run (repeatable)', collect, [])
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .addOption(modelOption())
    .action(async (file: string, opts: { parquet: string; config: string[]; build?: string; label: string[] } & FrameFlags) => {
      const run = await readReplayed(file, opts.config, { frames: opts })
      const result = run.result
      const { figures, replayed, checks } = await gather(result, file, opts, await run.replayed())
      const { exportParquet } = await import('../history/parquet')
      const files = await historyCall(() => exportParquet(opts.parquet, result, replayed, checks, figures))
      for (const f of files) writeLine(`${f.path}  ${formatCount(f.rows)} rows  ${formatCount(f.bytes)} bytes`)
      if (result.error) throw new ExitError(EXIT.input, result.error.message)
    })

  const history = program.command('history').description('a DuckDB database of runs over many builds: add, query, trends')
  history
    .command('add')
    .description('add runs to a history database (made if missing)')
    .argument('<db>', 'the history database file')
    .argument('<captures...>', 'captures or importable files')
    .option('--build <build>', "the runs' build (default: each header's build, else a build of its own)")
    .option('--label <key=value>', 'a label for the runs (repeatable)', collect, [])
    .option('--config <key=value>', 'override a model config key (repeatable)', collect, [])
    .addOption(bucketMsOption())
    .addOption(noFrameMarkersOption())
    .addOption(modelOption())
    .action(async (db: string, files: string[], opts: { build?: string; label: string[]; config: string[] } & FrameFlags) => {
      labelsFrom(opts.label)
      // every run is read and replayed first, then all go in, in one transaction, or none: the database is locked
      // for the moments of the write only, so the app can read it meanwhile
      const runs: RunFigures[] = []
      for (const file of files) {
        const { result, replayed } = await readReplayed(file, opts.config, { frames: opts })
        if (result.error) throw new ExitError(EXIT.input, result.error.message)
        runs.push((await gather(result, file, opts, await replayed())).figures)
      }
      const { History } = await import('../history/db')
      const store = await historyCall(() => History.open(db))
      try {
        const ids = await historyCall(() => store.add(runs))
        for (const [i, figures] of runs.entries()) {
          writeLine(`run ${ids[i]}: ${basename(files[i])}  build ${figures.meta.build ?? `#${ids[i]}`}  peak ${formatCount(figures.report.peak.bytes)} bytes`)
        }
      } finally {
        store.close()
      }
    })
  history
    .command('query')
    .description('run SQL on a history database (read-only)')
    .argument('<db>', 'the history database file')
    .argument('<sql>', 'a query; the tables are in docs/history.md')
    .option('--json', 'one JSON object: columns and rows')
    .action(async (db: string, sql: string, opts: { json?: boolean }) => {
      const [{ History }, { formatQuery }] = await Promise.all([import('../history/db'), import('./history')])
      const store = await historyCall(() => History.open(db, { readOnly: true }))
      try {
        const answer = await historyCall(() => store.query(sql))
        process.stdout.write(opts.json ? `${JSON.stringify(answer)}\n` : formatQuery(answer))
      } finally {
        store.close()
      }
    })
  history
    .command('trend')
    .description('a metric per build, in total or by heap, placement or tag: a table and a chart')
    .argument('<db>', 'the history database file')
    .addOption(new Option('--metric <metric>', 'what to follow').choices(TREND_METRICS).default('peak'))
    .addOption(new Option('--by <group>', 'one line per heap, placement or tag').choices(TREND_GROUPS))
    .option('--label <key=value>', 'only runs with this label (repeatable)', collect, [])
    .option('--json', 'one JSON object: builds and lines (and the gate)')
    .addOption(new Option('--last <n>', 'builds in the table').default(20).argParser((v) => positive('--last', v)))
    .addOption(
      new Option('--fail-on-growth <percent>', 'exit 5 when the newest build grows more than PERCENT over the median of the builds before it').argParser(
        (v) => {
          const n = Number(v)
          if (!Number.isFinite(n) || n < 0) throw new ExitError(EXIT.usage, `--fail-on-growth expects a percentage, got "${v}"`)
          return n
        },
      ),
    )
    .addOption(new Option('--window <n>', 'builds before the newest the median is taken over').default(5).argParser((v) => positive('--window', v)))
    .action(
      async (
        db: string,
        opts: { metric: TrendMetric; by?: TrendGroup; label: string[]; json?: boolean; last: number; failOnGrowth?: number; window: number },
      ) => {
        const labels = labelsFrom(opts.label)
        if (opts.by && (opts.metric === 'evictions' || opts.metric === 'hazards')) {
          throw new ExitError(EXIT.usage, `--metric ${opts.metric} is counted per run, not by ${opts.by}: leave --by out`)
        }
        const [{ History }, { growthGate }, { formatGate, formatGateLines, formatTrend }] = await Promise.all([
          import('../history/db'),
          import('../history/gate'),
          import('./history'),
        ])
        const store = await historyCall(() => History.open(db, { readOnly: true }))
        try {
          const trend = await historyCall(() => store.trend({ metric: opts.metric, by: opts.by, labels }))
          let failure: string | null = null
          let gate = null
          if (opts.failOnGrowth !== undefined) {
            gate = growthGate(trend, opts.failOnGrowth, opts.window)
            if (gate && gate.grew.length > 0) {
              failure = formatGate(gate, opts.metric, opts.failOnGrowth)
              // a total that grew is named by the placements and tags that grew with it
              if (!opts.by && (opts.metric === 'peak' || opts.metric === 'end')) {
                const named: GateLine[] = []
                for (const by of ['placement', 'tag'] as const) {
                  const parts = growthGate(await store.trend({ metric: opts.metric, by, labels }), opts.failOnGrowth, opts.window)
                  for (const line of parts?.grew ?? []) named.push({ ...line, name: `${by} ${line.name}` })
                }
                named.sort((a, b) => b.growth - a.growth)
                if (named.length) failure += `; grew with it: ${formatGateLines(named, opts.metric)}`
              }
            }
          }
          process.stdout.write(opts.json ? `${JSON.stringify({ ...trend, gate })}\n` : formatTrend(trend, { last: opts.last, chart: 60 }))
          if (failure) throw new ExitError(EXIT.growth, failure)
        } finally {
          store.close()
        }
      },
    )

  return program
}

function positive(flag: string, v: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new ExitError(EXIT.usage, `${flag} expects a whole number from 1, got "${v}"`)
  return n
}

/** `--label K=V` pairs; a malformed one is bad usage. */
function labelsFrom(pairs: string[]): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new ExitError(EXIT.usage, `--label expects KEY=VALUE, got "${pair}"`)
    labels[pair.slice(0, eq).trim()] = pair.slice(eq + 1)
  }
  return labels
}

/** A history or export step; its errors (a database that is not a history, bad SQL) are bad input. */
async function historyCall<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (err) {
    if (err instanceof HistoryError) throw new ExitError(EXIT.input, err.message)
    throw err
  }
}

/** A loaded capture's figures, as `report --json` makes them, with its metadata, from its replay. */
async function gather(result: LoadResult, file: string, opts: { config: string[]; build?: string; label: string[] }, replayed: ReplayedCapture) {
  const { runFigures } = await import('../history/figures')
  try {
    return await runFigures(result, { path: resolve(file), config: opts.config, build: opts.build, labels: labelsFrom(opts.label) }, replayed)
  } catch (err) {
    if (err instanceof ConfigError) throw new ExitError(EXIT.usage, err.message)
    throw err
  }
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
