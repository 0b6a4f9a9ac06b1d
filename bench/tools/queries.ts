/**
 * The app's queries on one capture, as the engine answers them (LocalEngine, the capture replayed as the app
 * replays it): each asked three times in a row, as a person pages or asks again, the first paying what the later
 * ones find kept. Milliseconds per ask.
 *
 * PROF=DIR writes each query's first ask's CPU profile as DIR/q<n>.cpuprofile (n from 1, in the order printed).
 *
 * Usage: bash bench/tools/run.sh queries FILE [OTHER]   (OTHER: a second capture, compared with the first)
 */
import { LocalEngine } from '../../src/main/engine/engine'
import { loadCaptureFile } from '../../src/main/ingest/read'
import { Profiler } from './profiler'

const [file, other] = process.argv.slice(2)
if (!file) throw new Error('usage: queries FILE [OTHER]')
const engine = new LocalEngine()
const add = async (path: string) => {
  const t = performance.now()
  const run = await engine.addRun(await loadCaptureFile(path), {})
  console.log(`${path}: ${run.store.records.length} records, ${run.store.frames.length} frames, loaded and replayed in ${(performance.now() - t).toFixed(0)} ms`)
  return run
}
const run = await add(file)
const runB = other ? await add(other) : run
const runId = run.id
const last = run.store.frames.length - 1

const profiler = process.env.PROF ? new Profiler(process.env.PROF) : null
let queries = 0

async function asked(label: string, ask: (k: number) => Promise<unknown>): Promise<void> {
  const ms: number[] = []
  queries++
  for (let k = 0; k < 3; k++) {
    if (k === 0) await profiler?.start(100)
    const t = performance.now()
    await ask(k)
    ms.push(performance.now() - t)
    if (k === 0) await profiler?.stop(`q${queries}`)
  }
  console.log(`  ${label.padEnd(46)} ${ms.map((m) => m.toFixed(1).padStart(8)).join(' ')} ms`)
}

await asked('resources at the last frame, pages by size', (k) =>
  engine.resources({ runId, frame: last, sort: 'occupied', descending: true, offset: 100 * k, limit: 100 }),
)
await asked('resources at the last frame, pages by name', (k) =>
  engine.resources({ runId, frame: last, sort: 'name', descending: false, offset: 100 * k, limit: 100 }),
)
await asked('a resource and its life', async () => {
  const page = await engine.resources({ runId, frame: last, sort: 'occupied', descending: true, offset: 0, limit: 1 })
  if (page.rows[0]) await engine.resource({ runId, frame: last, id: page.rows[0].id })
})
await asked('search "a", pages', (k) => engine.search({ runId, text: 'a', offset: 50 * k, limit: 50 }))
await asked('search /\\d{3}/, pages', (k) => engine.search({ runId, text: '/\\d{3}/', offset: 50 * k, limit: 50 }))
await asked('leak candidates from a quarter in, pages', (k) =>
  engine.leaks({ runId, from: Math.floor(last / 4), to: last, offset: 100 * k, limit: 100 }),
)
await asked(`resource diff against ${other ? 'the other' : 'itself at a third'}, pages`, (k) =>
  engine.resourceDiff({ runA: runId, runB: runB.id, ...(other ? {} : { frameB: Math.floor(last / 3) }), offset: 100 * k, limit: 100 }),
)
await asked('residency events over the run', () => engine.residencyEvents({ runId, from: 0, to: last, limit: 20_000 }))
await asked('hazards, a page', () => engine.hazards({ runId, offset: 0, limit: 100 }))
await asked('the report', () => engine.report(runId))
await engine.dispose()
