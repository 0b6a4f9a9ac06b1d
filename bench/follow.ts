/**
 * Following a capture as it is written: a generated capture appended to a file in equal pieces while the engine
 * follows it, each piece waited on until the run has grown. Prints the time from an append to the run grown (its
 * summary sent) for the first and the last pieces, which is the same when each update replays only the new frames
 * and grows with the capture when it does not, beside a load of the whole file. Run with `npx tsx bench/follow.ts`
 * (`-- --scenario S --frames F --pieces P`; the defaults: vulkan, 3 000 frames, 100 pieces).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runGen } from '../src/main/cli/gen'
import { LocalEngine } from '../src/main/engine/engine'
import { formatBytes, formatCount } from '../src/shared/units'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? args[at + 1] : fallback
}
const SCENARIO = option('scenario', 'vulkan')
const FRAMES = Number(option('frames', '3000'))
const PIECES = Number(option('pieces', '100'))
const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data')

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true })
  let text = ''
  await runGen(SCENARIO, { frames: FRAMES, seed: 1 }, (chunk) => void (text += chunk))
  const bytes = Buffer.from(text)
  const path = join(DATA, `follow-${SCENARIO}-${FRAMES}.hscap`)
  writeFileSync(path, bytes)

  let start = performance.now()
  const loaded = await new LocalEngine().load('load', { kind: 'file', path })
  const loadMs = performance.now() - start
  if (!loaded.ok) throw new Error(loaded.error.message)

  writeFileSync(path, '')
  const engine = new LocalEngine({ tail: { pollMs: 5, intervalMs: 1 } })
  let updates = 0
  const followed = engine.follow('follow', { path }, (p) => {
    if (p.phase === 'following') updates++
  })
  const step = Math.ceil(bytes.length / PIECES)
  const latency: number[] = []
  for (let i = 0; i < PIECES; i++) {
    const before = updates
    appendFileSync(path, bytes.subarray(i * step, (i + 1) * step))
    start = performance.now()
    // the first piece answers the follow instead of sending an update
    while (updates === before && i > 0 && performance.now() - start < 5000) await new Promise((resolve) => setTimeout(resolve, 0))
    if (i > 0) latency.push(performance.now() - start)
  }
  start = performance.now()
  await engine.endFollow('follow')
  const endMs = performance.now() - start
  const outcome = await followed
  if (!outcome.ok) throw new Error(outcome.error.message)
  const summary = await engine.summary(outcome.summary.runId)

  const part = Math.max(1, Math.floor(latency.length / 5))
  console.log(`${SCENARIO}: ${formatCount(summary.frames)} frames, ${formatCount(summary.records)} records, ${formatBytes(bytes.length)}`)
  console.log(`load of the whole file: ${loadMs.toFixed(0)} ms`)
  console.log(`followed in ${PIECES} pieces (${formatBytes(step)} each), ${updates} updates`)
  console.log(`append → run grown, median: first fifth ${median(latency.slice(0, part)).toFixed(1)} ms, last fifth ${median(latency.slice(-part)).toFixed(1)} ms`)
  console.log(`end of following (the last frame, the run settled): ${endMs.toFixed(0)} ms`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
