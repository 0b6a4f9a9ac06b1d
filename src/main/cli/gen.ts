/**
 * `heapscope gen SCENARIO [--frames N] [--seed S]`: a synthetic capture of a realistic workload written as NDJSON
 * chunks. The command-line parsing and the file or gzip output live with the other commands; this is the part
 * that knows the scenarios.
 */
import { NdjsonSink } from '../ingest/ndjsonWriter'
import { SCENARIO_LIST } from '../gen/scenarios'
import { CaptureWriter } from '../gen/writer'

export const SCENARIOS: { name: string; description: string; defaultFrames: number }[] = SCENARIO_LIST.map((s) => ({
  name: s.name,
  description: s.description,
  defaultFrames: s.defaultFrames,
}))

export interface GenOptions {
  frames?: number
  seed?: number
  /** Characters per chunk handed to `write` (about 1 MiB by default). */
  chunkSize?: number
}

/**
 * Writes the scenario's capture through `write`, awaiting it whenever it returns a promise (the output stream's
 * backpressure). Returns the number of records written, the header included.
 */
export async function runGen(
  scenario: string,
  options: GenOptions,
  write: (chunk: string) => void | Promise<void>,
): Promise<{ records: number }> {
  const found = SCENARIO_LIST.find((s) => s.name === scenario)
  if (!found) {
    const names = SCENARIO_LIST.map((s) => `  ${s.name}: ${s.description}`).join('\n')
    throw new Error(`unknown scenario "${scenario}"; valid scenarios:\n${names}`)
  }
  const frames = options.frames ?? found.defaultFrames
  const seed = options.seed ?? 1
  if (!Number.isSafeInteger(frames) || frames < 1) throw new Error(`--frames must be a positive integer, got ${frames}`)
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${seed}`)
  const sink = new NdjsonSink(write, options.chunkSize)
  const out = new CaptureWriter(sink)
  for (const _ of found.run(out, { frames, seed })) {
    if (out.pending) {
      const wait = out.pending
      out.pending = undefined
      await wait
    }
  }
  await out.flush()
  return { records: out.records }
}
