/**
 * The optimising compiler's budget for a short run. A command that replays a capture of a few tens of megabytes
 * runs for about a second, and most of that second warms the engine up: V8's optimising compiler makes some 250
 * compilations of the load's and the replay's hot functions, about 1.5 s of its threads' CPU, which on a machine
 * of two cores takes the core the replay runs on. Its inlining budget is made for pages that run for minutes: with
 * a quarter of it (`--max-inlined-bytecode-size-cumulative`, 920 by default), each compilation is smaller and its
 * code comes sooner. Half of it, measured on one-shot reports of 10 to 55 MB captures, took 5 to 10 % less wall time
 * and 8 to 12 % less CPU than the default; on a 109 MB capture the two were the same, and on a 218 MB one the
 * default made the faster code (bench/README.md, "A short run: one thread, and half the inlining budget"). A
 * quarter took 2 % less wall time than half on average over twelve captures of 8 to 52 MB (from 10 % less to 5 %
 * more, within this machine's noise) and 1 to 12 % less CPU on ten (bench/README.md, "… a quarter of the inlining
 * budget"). Where the compiler has cores of its own (sixteen), the budget changed nothing one could measure.
 *
 * On a machine of two cores or fewer, a capture of under 2 MiB (a few thousand to some 30 000 records) is read and
 * replayed before most of those compilations would be done: the process waits for the ones under way when it
 * exits, and their code runs for a few milliseconds if at all. Such a run goes without the optimising compiler
 * (`--no-turbofan`): on the 2-core bench machine, reports of 1 to 2 MB captures took 10 to 20 % less wall time and a
 * third less CPU (the demo 0.312 s against 0.373 s; `gen vulkan` at 600 and 900 frames, 16 000 and 25 000 records,
 * 63 and 37 ms less). At 33 000 Vulkan records (2.1 MB) the two were even, and from 36 000 records on the compiler
 * paid for itself. On a 16-core machine, whose compiler threads have cores of their own, the compiler made the same
 * small captures' reports 12 to 35 % faster, and pinned to two of its cores the two were even (bench/README.md,
 * "Small captures without the optimising compiler"). Once the captures a process has read come to 2 MiB together
 * (`diff` of a small capture and a large one, `history add` of many small ones), the compiler is turned on again,
 * before the one that makes up the sum is read.
 *
 * Only the command line's process entry (start.ts) turns this on, before any capture is read; the app, the browser
 * host, the benches' in-process runs and the build's code-cache warm-up keep V8's defaults. V8 refuses a code cache
 * made under other flags, which is why the warm-up must not set them.
 */
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { PIPELINE_MIN_BYTES } from '../analysis/run'
import { captureBytes } from '../ingest/captureBytes'

/** Captures smaller than this get the short run's budget: those a load reads on one thread (analysis/run.ts). */
export const SHORT_RUN_BYTES = PIPELINE_MIN_BYTES

/** The flags of a short run. */
export const SHORT_RUN_FLAGS = ['--max-inlined-bytecode-size-cumulative=230'] as const

/** Captures smaller than this run without the optimising compiler, on TINY_RUN_MAX_CORES cores or fewer. */
export const TINY_RUN_BYTES = 2 * 1024 * 1024
export const TINY_RUN_MAX_CORES = 2

/** The flags of a run over a capture smaller than TINY_RUN_BYTES: a short run's, without the compiler. */
export const TINY_RUN_FLAGS = [...SHORT_RUN_FLAGS, '--no-turbofan'] as const

let enabled = false
let decided = false
/** Whether the flags set so far turned the optimising compiler off, and the bytes of the captures read since. */
let withoutCompiler = false
let bytesWithout = 0

/** Let the first capture this process reads choose the compiler's budget (the command line's entry only). */
export function enableShortRunTuning(): void {
  enabled = true
}

/** The flags for a run over a capture of `bytes` bytes on `cores` cores: none for a long one. */
export function shortRunFlags(bytes: number, cores: number = availableParallelism()): readonly string[] {
  if (bytes < 0 || bytes >= SHORT_RUN_BYTES) return []
  return bytes < TINY_RUN_BYTES && cores <= TINY_RUN_MAX_CORES ? TINY_RUN_FLAGS : SHORT_RUN_FLAGS
}

/**
 * Called before a capture file is read: the first one decides, once, for the whole process (V8's flags are the
 * process's), by its bytes of capture lines (a gzip file's uncompressed size). A file that cannot be read, or a
 * pipe, decides nothing; its read reports any error. The one exception: where the first turned the optimising
 * compiler off, it is turned on again before the capture that brings the bytes read so far to TINY_RUN_BYTES.
 */
export function beforeCapture(
  file: string,
  setFlags: (flags: string) => void = setFlagsFromString,
  cores: number = availableParallelism(),
): void {
  if (!enabled || (decided && !withoutCompiler)) return
  const bytes = captureBytes(file)
  if (bytes < 0) return
  if (decided) {
    bytesWithout += bytes
    if (bytesWithout >= TINY_RUN_BYTES) {
      withoutCompiler = false
      setFlags('--turbofan')
    }
    return
  }
  decided = true
  const flags = shortRunFlags(bytes, cores)
  withoutCompiler = flags.includes('--no-turbofan')
  bytesWithout = bytes
  for (const flag of flags) setFlags(flag)
}

/** Whether the flags set so far turned the optimising compiler off (a load then needs no primer, ingest/prime.ts). */
export function withoutOptimisingCompiler(): boolean {
  return withoutCompiler
}

/** Back to the state of a fresh process (tests). */
export function resetShortRunTuning(): void {
  enabled = false
  decided = false
  withoutCompiler = false
  bytesWithout = 0
}
