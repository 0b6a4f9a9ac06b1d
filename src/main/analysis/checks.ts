/**
 * One path for the checks' findings, whatever the backend: each finding goes to the run's HazardLog (the hazards
 * list, `heapscope check`) and to the per-frame series the timeline's hazards lane draws, `check.<rule>` (findings
 * of one rule per frame) beside `check.hazards`, `check.warnings` (a backend that checks API usage) and
 * `check.total`, as src/shared/series.ts names and describes them. A backend writes into a Findings while it replays, frame by frame in capture order; the aliasing
 * checks of a capture with placed resources run through FrameChecks, a frame at a time right after the backend
 * replayed it.
 */
import type { SeriesInfo } from '../../shared/ipc'
import { CHECK_SERIES, SERIES_NAME } from '../../shared/series'
import type { Bytes } from '../../shared/units'
import { frameEnd, type CaptureStore } from '../ingest/store'
import { AliasingChecker } from '../model/aliasing/checker'
import type { Hazard } from '../model/aliasing/hazards'
import { AliasingFeed, aliasingOf, HazardLog } from './hazards'
import { SeriesTable } from './seriesTable'

/** Warnings listed one by one in a run's log, at most: a broken capture may break a rule on every record. */
export const MAX_CHECK_WARNINGS_KEPT = 1_000_000

const info = (name: string, label: string): SeriesInfo => ({ name, label, unit: 'count', group: 'checks' })

export interface FindingsOptions {
  /** What the backend's API-usage warnings are called; without it the backend raises none (no `check.warnings`). */
  warnings?: string
}

/** The sink every backend writes its findings into: the run's log and its `check.*` series. */
export class Findings {
  readonly log: HazardLog

  constructor(
    private readonly series: SeriesTable,
    log: HazardLog,
    private readonly options: FindingsOptions = {},
  ) {
    this.log = log
    series.column(info(CHECK_SERIES.total, 'findings of the checks'))
    series.column(info(CHECK_SERIES.hazards, 'aliasing hazards'))
    if (options.warnings !== undefined) series.column(info(CHECK_SERIES.warnings, options.warnings))
  }

  /** An aliasing hazard at frame index `frame`. */
  hazard(frame: number, hazard: Hazard): void {
    this.log.addHazard(frame, hazard)
    this.count(frame, CHECK_SERIES.hazards, hazard.rule)
  }

  /** An API-usage warning; past MAX_CHECK_WARNINGS_KEPT it is counted (rule and series) but not listed. */
  warning(
    frame: number,
    rule: string,
    message: string,
    resources: number[],
    heap: number | null,
    range: [Bytes, Bytes] | null,
  ): void {
    if (this.log.warningCount >= MAX_CHECK_WARNINGS_KEPT) this.log.warnings[rule] = (this.log.warnings[rule] ?? 0) + 1
    else this.log.addWarning(frame, rule, message, resources, heap, range)
    this.count(frame, CHECK_SERIES.warnings, rule)
  }

  private count(frame: number, kind: string, rule: string): void {
    const series = this.series
    const label = kind === CHECK_SERIES.warnings ? this.options.warnings ?? 'warnings' : 'aliasing hazards'
    series.column(info(CHECK_SERIES.total, 'findings of the checks'))[frame]++
    series.column(info(kind, label))[frame]++
    series.column(info(SERIES_NAME.check(rule), rule))[frame]++
  }
}

/**
 * The aliasing checks of a capture frame by frame, for a backend whose model does not feed the checker itself:
 * `advance` feeds it the frames it has not seen, so a capture followed live is checked as it grows, once. A
 * capture that has no placed resource (yet) costs nothing: the frames wait until one arrives.
 */
export class FrameChecks {
  private readonly feed: AliasingFeed
  /** The frames checked so far. */
  private frame = 0

  constructor(
    private readonly store: CaptureStore,
    private readonly findings: Findings,
  ) {
    const checker = new AliasingChecker({
      model: findings.log.aliasing,
      api: store.header.api ?? 'd3d12',
      onHazard: (hazard) => findings.hazard(this.frame, hazard),
    })
    this.feed = new AliasingFeed(store, checker)
  }

  /** Check the frame indices before `to` not checked yet. */
  advance(to = this.store.frames.length): void {
    const store = this.store
    this.findings.log.frameNumbers = store.frames.n
    if (store.placed.length === 0) return
    const kinds = store.records.kind
    for (; this.frame < Math.min(to, store.frames.length); this.frame++) {
      const end = frameEnd(store, this.frame)
      for (let i = store.frames.firstRecord[this.frame]; i < end; i++) if (AliasingFeed.reads(kinds[i])) this.feed.apply(i)
    }
  }
}

/**
 * The aliasing hazards of a capture in one pass over its records, with no model replayed: the checks a backend
 * runs, for a store on its own (a view of one frame's rules, tests).
 */
export function checkStore(store: CaptureStore): HazardLog {
  const findings = new Findings(new SeriesTable(store.frames.n), new HazardLog(aliasingOf(store), store.frames.n))
  new FrameChecks(store, findings).advance()
  return findings.log
}
