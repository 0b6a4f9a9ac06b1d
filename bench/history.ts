/**
 * `npx tsx bench/history.ts [--runs N] [--frames F] [--queries Q]` (`npm run bench:history`): a history database of
 * N generated runs (1 000 by default), and what it costs.
 *
 * - The runs: the scenarios in turn, each with a seed of its own, F frames (24), four runs a build (builds 1.0.0,
 *   1.0.1, …), labels map= and platform= that vary with the run. Generated into bench/data/history/ once.
 * - add vs report, per run: `report` is what `heapscope report --json` does short of writing (load the capture,
 *   replay it, build the report, JSON.stringify); `add` is what `heapscope history add DB FILE…` does, one call
 *   per build with its four files as a nightly job makes it: per file load, replay, report, hazards and tag
 *   figures, then one transaction for the four into the database (its time shared among them). Both in this
 *   process, a build at a time and each first every other build, so they see the same machine; the sum over all runs, p50 / p95 per run, and the
 *   ratio of the sums are printed.
 * - trend queries on the full database, opened read-only as the app and `history trend` open it: every metric and
 *   grouping, Q times each (20), p50 / p95 / max. Done when every one answers in under a second.
 */
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { SCENARIOS, runGen } from '../src/main/cli/gen'
import { replayCapture } from '../src/main/analysis/run'
import { loadCaptureFile } from '../src/main/ingest/read'
import { History, TREND_GROUPS, TREND_METRICS, type TrendQuery } from '../src/main/history/db'
import { runFigures, type RunFigures } from '../src/main/history/figures'
import { growthGate } from '../src/main/history/gate'

const ROOT = resolve(import.meta.dirname, '..')
const DATA = join(ROOT, 'bench/data/history')

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const RUNS = option('--runs', 1000)
const FRAMES = option('--frames', 24)
const QUERIES = option('--queries', 20)
const MAPS = ['Forest', 'City', 'Desert', 'Harbour']
const PLATFORMS = ['Win64', 'Linux', 'Win64-RT']
const TARGET_MS = 1000

function log(line: string): void {
  process.stdout.write(`${line}\n`)
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const ms = (v: number) => `${v.toFixed(1)} ms`

interface Run {
  file: string
  build: string
  labels: Record<string, string>
}

async function generate(): Promise<Run[]> {
  mkdirSync(DATA, { recursive: true })
  const runs: Run[] = []
  const started = performance.now()
  let made = 0
  for (let i = 0; i < RUNS; i++) {
    const scenario = SCENARIOS[i % SCENARIOS.length].name
    const file = join(DATA, `${String(i).padStart(4, '0')}-${scenario}-${FRAMES}.hscap`)
    if (!existsSync(file)) {
      const chunks: string[] = []
      await runGen(scenario, { frames: FRAMES, seed: 1000 + i }, (chunk) => void chunks.push(chunk))
      writeFileSync(file, chunks.join(''))
      made++
    }
    runs.push({ file, build: `1.0.${Math.floor(i / 4)}`, labels: { map: MAPS[i % MAPS.length], platform: PLATFORMS[i % PLATFORMS.length], scenario } })
  }
  if (made) log(`generated ${made} captures of ${FRAMES} frames in ${((performance.now() - started) / 1000).toFixed(0)} s (${DATA})`)
  return runs
}

async function main(): Promise<void> {
  const runs = await generate()
  const db = join(DATA, `history-${RUNS}.duckdb`)
  rmSync(db, { force: true })
  rmSync(`${db}.wal`, { force: true })
  const history = await History.open(db)
  const report: number[] = []
  const add: number[] = []
  let records = 0
  // one warm-up of each, so the first run does not pay for compiling
  for (const r of runs.slice(0, 2)) await replayCapture(await loadCaptureFile(r.file), [])
  const started = performance.now()
  for (let b = 0; b < runs.length; b += 4) {
    const build = runs.slice(b, b + 4)
    const reports = async () => {
      for (const r of build) {
        const t = performance.now()
        const loaded = await loadCaptureFile(r.file)
        JSON.stringify((await replayCapture(loaded, [])).report)
        report.push(performance.now() - t)
        records += loaded.store.records.length
      }
    }
    const adds = async () => {
      const figures: RunFigures[] = []
      const each: number[] = []
      for (const r of build) {
        const t = performance.now()
        const result = await loadCaptureFile(r.file)
        figures.push((await runFigures(result, { path: r.file, build: r.build, labels: r.labels })).figures)
        each.push(performance.now() - t)
      }
      const t = performance.now()
      await history.add(figures)
      const share = (performance.now() - t) / build.length
      for (const e of each) add.push(e + share)
    }
    // each goes first every other build, so neither always finds the files or the heap as the other left them
    if ((b / 4) % 2 === 0) {
      await reports()
      await adds()
    } else {
      await adds()
      await reports()
    }
    if ((b + build.length) % 100 === 0) log(`  ${b + build.length} runs (${((performance.now() - started) / 1000).toFixed(0)} s)`)
  }
  history.close()
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0)
  log('')
  log(`${RUNS} runs, ${FRAMES} frames each, ${(records / RUNS).toFixed(0)} records a run on average, ${RUNS / 4} builds`)
  log(`report  total ${(sum(report) / 1000).toFixed(1)} s   per run p50 ${ms(percentile(report, 50))}  p95 ${ms(percentile(report, 95))}`)
  log(`add     total ${(sum(add) / 1000).toFixed(1)} s   per run p50 ${ms(percentile(add, 50))}  p95 ${ms(percentile(add, 95))}`)
  log(`add / report: ${(sum(add) / sum(report)).toFixed(2)}`)

  const reader = await History.open(db, { readOnly: true })
  log('')
  log(`trend queries on ${await reader.runCount()} runs (${QUERIES} each, read-only):`)
  const queries: TrendQuery[] = []
  for (const metric of TREND_METRICS) {
    queries.push({ metric })
    if (metric === 'peak' || metric === 'end') for (const by of TREND_GROUPS) queries.push({ metric, by })
  }
  queries.push({ metric: 'peak', by: 'placement', labels: { map: 'Forest' } })
  let worst = 0
  for (const q of queries) {
    const times: number[] = []
    let lines = 0
    for (let k = 0; k < QUERIES; k++) {
      const t = performance.now()
      const trend = await reader.trend(q)
      growthGate(trend, 10, 5)
      times.push(performance.now() - t)
      lines = trend.series.length
    }
    worst = Math.max(worst, ...times)
    const name = `${q.metric}${q.by ? ` by ${q.by}` : ''}${q.labels ? ' map=Forest' : ''}`
    log(`  ${name.padEnd(28)} ${String(lines).padStart(3)} lines  p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  max ${ms(Math.max(...times))}`)
  }
  reader.close()
  log(`slowest trend query: ${ms(worst)} (target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'NOT met'})`)
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
