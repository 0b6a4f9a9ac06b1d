/**
 * `npx tsx bench/ui.ts [--records N] [--zooms K] [--cursors K]` (`npm run bench:ui`): the profiler UI on a
 * generated capture of ten million records, in Chromium through the browser host, as a person uses it.
 *
 * - zoom: a wheel event on the DEFAULT lane → the lanes redrawn. Two times: to the first redraw (the
 *   window moved, drawn from the data on hand) and to the redraw with the new window's own buckets (queried
 *   at the plot's width, answered, drawn). Zooms alternate in and out around random frames.
 * - cursor: a click on a lane at a frame not looked at before → the inspector showing that frame (the live
 *   resources' first page and the pool maps, rendered).
 *
 * Prints p50, p95 and max of each, against the target of 100 ms. The capture is generated once, with the
 * built CLI's `gen budget-drop`, under bench/data/ (git-ignored); the app must be built (`npm run build`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromium, type Page } from 'playwright-core'
import { runGen } from '../src/main/cli/gen'

const ROOT = resolve(import.meta.dirname, '..')
const DATA = join(ROOT, 'bench/data')
const CLI = join(ROOT, 'out/main/cli.js')
const HOST = join(ROOT, 'out/main/host.js')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SCENARIO = 'budget-drop'
const TARGET_MS = 100

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const RECORDS = option('--records', 10_000_000)
const ZOOMS = option('--zooms', 40)
const CURSORS = option('--cursors', 30)

function log(line: string): void {
  process.stdout.write(`${line}\n`)
}

/** Frames of the scenario that give at least `records` records, from the rate of a short run. */
async function framesFor(records: number): Promise<number> {
  const probe = 2000
  const { records: got } = await runGen(SCENARIO, { frames: probe, seed: 1 }, () => {})
  return Math.ceil((records / got) * probe * 1.01)
}

async function capture(): Promise<string> {
  mkdirSync(DATA, { recursive: true })
  const frames = await framesFor(RECORDS)
  const path = join(DATA, `ui-${SCENARIO}-${frames}.hscap.gz`)
  if (existsSync(path)) return path
  log(`generating ${path} (${frames} frames of ${SCENARIO}, once)…`)
  const started = performance.now()
  await promisify(execFile)(process.execPath, [CLI, 'gen', SCENARIO, '--frames', String(frames), '--seed', '1', '-o', `${path}.part.gz`], { cwd: ROOT })
  renameSync(`${path}.part.gz`, path)
  log(`  ${(statSync(path).size / 1e6).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  return path
}

function startHost(file: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...process.env, HEAPSCOPE_USER_DATA: mkdtempSync(join(tmpdir(), 'heapscope-bench-')) }
  const child = spawn(process.execPath, [HOST, file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((done, fail) => {
    const onData = (data: Buffer) => {
      output += data.toString()
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)
      if (match) done({ url: match[1], child })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => fail(new Error(`the host exited with ${code}:\n${output}`)))
  })
}

/**
 * In the page: a wheel event on the DEFAULT lane at fraction `at` of its width, then the time to the next draw
 * and to the draw of the data asked for the new window. Written as source: it runs in the browser.
 */
const ZOOM = `async ([at, deltaY]) => {
  const view = document.querySelector('[data-testid=timeline-view]')
  const lane = document.querySelector('[data-testid=timeline-chart]')
  const box = lane.getBoundingClientRect()
  const draws = Number(view.dataset.drawCount)
  const seq = Number(view.dataset.lanesSeq)
  const paint = () => new Promise((r) => requestAnimationFrame(() => r()))
  const until = (test) => new Promise((resolve) => {
    if (test()) return resolve()
    const observer = new MutationObserver(() => { if (test()) { observer.disconnect(); resolve() } })
    observer.observe(view, { attributes: true })
  })
  performance.clearMarks()
  const t0 = performance.now()
  lane.dispatchEvent(new WheelEvent('wheel', { deltaY, clientX: box.left + box.width * at, clientY: box.top + box.height / 2, bubbles: true, cancelable: true }))
  await until(() => Number(view.dataset.drawCount) > draws)
  await paint()
  const first = performance.now() - t0
  // the first redraw may already be the one with the new window's buckets: then it is that time, not a frame later
  const answered = () => Number(view.dataset.lanesSeq) > seq && Number(view.dataset.drawnSeq) === Number(view.dataset.lanesSeq)
  let refined = first
  if (!answered()) {
    await until(answered)
    await paint()
    refined = performance.now() - t0
  }
  const mark = (name) => { const all = performance.getEntriesByName(name); return all.length ? all[all.length - 1].startTime - t0 : NaN }
  return { first, refined, asked: mark('hs:lanes:asked'), answered: mark('hs:lanes:answered') }
}`

/** In the page: a click on the DEFAULT lane at fraction `at` of its width, then the time to the inspector showing the frame. */
const CURSOR = `async (at) => {
  const inspector = document.querySelector('[data-testid=inspector]')
  const lane = document.querySelector('[data-testid=timeline-chart]')
  const box = lane.getBoundingClientRect()
  const seq = Number(inspector.dataset.seq)
  const x = box.left + box.width * at
  const y = box.top + box.height / 2
  performance.clearMarks()
  const t0 = performance.now()
  for (const type of ['pointerdown', 'pointerup']) lane.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true }))
  await new Promise((resolve) => {
    const observer = new MutationObserver(() => { if (Number(inspector.dataset.seq) > seq) { observer.disconnect(); resolve() } })
    observer.observe(inspector, { attributes: true })
  })
  await new Promise((r) => requestAnimationFrame(() => r()))
  const ms = performance.now() - t0
  const mark = (name) => { const all = performance.getEntriesByName(name); return all.length ? all[all.length - 1].startTime - t0 : NaN }
  return { ms, frame: Number(inspector.dataset.frame), rows: Number(inspector.dataset.rows), asked: mark('hs:inspector:asked'), answered: mark('hs:inspector:answered') }
}`

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  const p50 = at(0.5)
  const p95 = at(0.95)
  const verdict = p95 <= TARGET_MS ? 'within' : p50 <= TARGET_MS ? 'p50 within, p95 over' : 'over'
  return `p50 ${p50.toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${sorted[sorted.length - 1].toFixed(1)} ms  (n=${values.length}; ${verdict} the ${TARGET_MS} ms target)`
}

async function attr(page: Page, selector: string, name: string): Promise<string | null> {
  return page.locator(selector).getAttribute(name)
}

async function main(): Promise<void> {
  if (!existsSync(HOST) || !existsSync(CLI)) throw new Error('the app is not built: run npm run build first')
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  const file = await capture()
  const { url, child } = await startHost(file)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    const loadStart = performance.now()
    await page.goto(url)
    await page.getByTestId('frame-count').waitFor({ timeout: 60 * 60_000 })
    const loadSeconds = (performance.now() - loadStart) / 1000
    // settled: the first lanes drawn and the inspector showing the start cursor
    await page.locator('[data-testid=timeline-view][data-drawn-seq]:not([data-drawn-seq="0"])').waitFor({ timeout: 120_000 })
    await page.locator('[data-testid=inspector]:not([data-seq="0"])').waitFor({ timeout: 120_000 })
    const frames = Number(await page.getByTestId('frame-count').textContent())
    const records = (await page.getByTestId('record-count').textContent()) ?? ''
    const width = (await page.evaluate(`Math.round(document.querySelector('[data-testid=timeline-chart]').getBoundingClientRect().width)`)) as number
    log(`${file.replace(`${ROOT}/`, '')}: ${records} records, ${frames} frames; opened and replayed in ${loadSeconds.toFixed(1)} s`)
    log(`lanes ${width} px wide: at most that many buckets per query`)

    // zoom: in five times around a random frame, then out five times, and again
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const first: number[] = []
    const refined: number[] = []
    const zoomQuery: number[] = []
    const zoomDraw: number[] = []
    for (let i = 0; i < ZOOMS; i++) {
      const zoomIn = Math.floor(i / 5) % 2 === 0
      const result = (await page.evaluate(`(${ZOOM})(${JSON.stringify([0.1 + 0.8 * random(), zoomIn ? -500 : 500])})`)) as {
        first: number
        refined: number
        asked: number
        answered: number
      }
      first.push(result.first)
      refined.push(result.refined)
      if (Number.isFinite(result.answered)) {
        zoomQuery.push(result.answered - result.asked)
        zoomDraw.push(result.refined - result.answered)
      }
    }
    log(`zoom → first redraw:                        ${stats(first)}`)
    log(`zoom → redrawn at the new window's buckets: ${stats(refined)}`)
    log(`  of which the query (engine, socket):       ${stats(zoomQuery)}`)
    log(`  and the lanes drawn once answered:         ${stats(zoomDraw)}`)

    // cursor: whole capture in view, clicks at frames not shown before
    await page.keyboard.press('0')
    await page.waitForTimeout(500)
    const cursor: number[] = []
    const cursorQuery: number[] = []
    const seen = new Set<string | null>([await attr(page, '[data-testid=inspector]', 'data-frame')])
    let rows = 0
    for (let i = 0; i < CURSORS; i++) {
      const result = (await page.evaluate(`(${CURSOR})(${0.02 + 0.96 * random()})`)) as {
        ms: number
        frame: number
        rows: number
        asked: number
        answered: number
      }
      if (seen.has(String(result.frame))) continue
      seen.add(String(result.frame))
      cursor.push(result.ms)
      if (Number.isFinite(result.answered)) cursorQuery.push(result.answered - result.asked)
      rows = Math.max(rows, result.rows)
    }
    log(`cursor → inspector updated:                 ${stats(cursor)}  (up to ${rows.toLocaleString('en')} live resources a frame)`)
    log(`  of which the query (engine, socket):       ${stats(cursorQuery)}`)
  } finally {
    await browser.close()
    child.kill('SIGTERM')
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(1)
})
