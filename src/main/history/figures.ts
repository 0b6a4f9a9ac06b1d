/**
 * What the history keeps of one run: the figures of `heapscope report --json` (the same replay, the same report),
 * the aliasing hazards `heapscope check` counts, each tag's peak and end from the replay's per-tag series, and the
 * run's metadata (docs/history.md). Exports and `history add` both start here.
 */
import type { CaptureHeader } from '../../shared/capture'
import type { RunReport } from '../../shared/ipc'
import { HEAPSCOPE_VERSION } from '../../shared/version'
import type { HazardLog } from '../analysis/hazards'
import type { PeakEnd } from '../analysis/reportEnvelope'
import { SERIES_NAME } from '../../shared/series'
import { replayCapture, type ReplayedCapture } from '../analysis/run'
import type { LoadResult } from '../ingest/read'

/** Who made the run, where and with what: goes with every exported file and every row of `runs`. */
export interface RunMeta {
  /** The capture's path as it was given (the app opens the run from it). */
  path: string
  file: string
  format: string
  api: 'd3d12' | 'vulkan'
  app: string | null
  build: string | null
  platform: string | null
  adapter: string | null
  /** The header's `captured` time, as written (ISO 8601 by the format). */
  captured: string | null
  /** The config the run replayed under: the header's, then the `--config` overrides, as JSON. */
  config: string
  heapscopeVersion: string
  labels: Record<string, string>
}

export interface RunFigures {
  meta: RunMeta
  report: RunReport
  /** Aliasing hazards, as `heapscope check` counts them (its exit 4). */
  hazards: number
  /** Bytes the live resources of each tag occupy, peak and end, and how many are alive at the end. */
  tags: Record<string, PeakEnd & { count: number }>
  /** Sum of the heaps' end bytes. */
  endBytes: number
}

export interface RunOptions {
  path: string
  config?: readonly string[]
  /** Overrides the header's `build`. */
  build?: string
  labels?: Record<string, string>
}

const TAG_OCCUPIED = /^tag\.(.*)\.occupiedBytes$/

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The run's metadata from its header; `build` and `platform` are optional header keys (docs/capture-format.md). */
export function runMeta(result: LoadResult, config: unknown, options: RunOptions): RunMeta {
  const header: CaptureHeader = result.store.header
  return {
    path: options.path,
    file: result.store.file,
    format: result.format,
    api: header.api ?? 'd3d12',
    app: text(header.app),
    build: options.build ?? text(header.build),
    platform: text(header.platform),
    adapter: text(header.adapter?.name),
    captured: text(header.captured),
    config: JSON.stringify(config),
    heapscopeVersion: HEAPSCOPE_VERSION,
    labels: { ...(options.labels ?? {}) },
  }
}

export function tagFigures(replayed: ReplayedCapture): RunFigures['tags'] {
  const series = replayed.replay.series
  const tags: RunFigures['tags'] = {}
  for (const info of series.list()) {
    const match = TAG_OCCUPIED.exec(info.name)
    if (!match) continue
    const tag = match[1]
    // from the tag's steps: a capture can have thousands of tags, each a column of every frame if read whole
    const bytes = series.peakAndLast(info.name)
    const count = series.peakAndLast(SERIES_NAME.tag(tag, 'count'))
    tags[tag] = { peakBytes: bytes?.peak ?? 0, endBytes: bytes?.last ?? 0, count: count?.last ?? 0 }
  }
  return tags
}

export function figuresOf(result: LoadResult, replayed: ReplayedCapture, checks: HazardLog, options: RunOptions): RunFigures {
  const report = replayed.report
  let endBytes = 0
  for (const heap of Object.values(report.heaps)) endBytes += heap.endBytes
  return {
    meta: runMeta(result, replayed.replay.config, options),
    report,
    hazards: checks.hazardCount,
    tags: tagFigures(replayed),
    endBytes,
  }
}

/**
 * Replay a loaded capture and gather its figures (the replay is handed back for an export to read on: its series,
 * residency and resource rows, never a snapshot, so it keeps no checkpoints). `replayed`: the capture was replayed
 * as it was read (loadAndReplay, with the same config and no checkpoints).
 */
export async function runFigures(result: LoadResult, options: RunOptions, replayed?: ReplayedCapture) {
  replayed ??= await replayCapture(result, options.config ?? [], { checkpoints: false })
  // the hazards and warnings, as the run's backend found them
  const checks = replayed.replay.checks
  return { figures: figuresOf(result, replayed, checks, options), replayed, checks }
}
