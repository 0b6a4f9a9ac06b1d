/**
 * What the benchmarks share: the generated capture they measure on (written once under bench/data/ and reused),
 * and the JSON.parse baseline every reader is compared with.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'
import { runGen } from '../src/main/cli/gen'

export { jsonParseBaseline } from './baseline'

/** Stops the generator once it has written enough lines. */
class Enough {}

/** The path of the capture of `scenario` cut after `records` records, in `dataDir`. */
export function benchCaptureFile(dataDir: string, scenario: string, records: number): string {
  return join(dataDir, `${scenario}-${records}.hscap`)
}

/** Write the capture: the header and exactly `records` records, cut at a line end from a run of enough frames. */
export async function generateBenchCapture(dataDir: string, scenario: string, records: number): Promise<string> {
  const file = benchCaptureFile(dataDir, scenario, records)
  mkdirSync(dataDir, { recursive: true })
  const probeFrames = 500
  const probe = await runGen(scenario, { frames: probeFrames, seed: 1 }, () => {})
  // Records per frame is not constant (a scenario warms up, streams, leaks): ask for a margin more.
  let frames = Math.ceil((records / (probe.records - 1)) * probeFrames * 1.2)
  const partial = `${file}.part`
  for (;;) {
    const out = createWriteStream(partial)
    let lines = 0
    try {
      await runGen(scenario, { frames, seed: 1 }, (chunk) => {
        let end = 0
        while (lines <= records) {
          const nl = chunk.indexOf('\n', end)
          if (nl < 0) break
          lines++
          end = nl + 1
        }
        const done = lines > records
        const ok = out.write(done ? chunk.slice(0, end) : chunk)
        if (done) throw new Enough()
        if (!ok) return drained(out)
      })
    } catch (err) {
      if (!(err instanceof Enough)) throw err
    }
    await closed(out)
    if (lines > records) break
    frames *= 2
  }
  renameSync(partial, file)
  return file
}

/** The path of `heapscope gen SCENARIO --seed SEED` (its default frames, whole), in `dataDir`. */
export function genCaptureFile(dataDir: string, scenario: string, seed: number): string {
  return join(dataDir, `gen-${scenario}-seed${seed}.hscap`)
}

/** Write what `heapscope gen SCENARIO --seed SEED` writes, once: a file already there is reused. */
export async function generateGenCapture(dataDir: string, scenario: string, seed: number): Promise<string> {
  const file = genCaptureFile(dataDir, scenario, seed)
  if (existsSync(file)) return file
  mkdirSync(dataDir, { recursive: true })
  const partial = `${file}.part`
  const out = createWriteStream(partial)
  await runGen(scenario, { seed }, (chunk) => (out.write(chunk) ? undefined : drained(out)))
  await closed(out)
  renameSync(partial, file)
  return file
}

function drained(out: WriteStream): Promise<void> {
  return new Promise<void>((resolve) => out.once('drain', () => resolve()))
}

function closed(out: WriteStream): Promise<void> {
  return new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())))
}
