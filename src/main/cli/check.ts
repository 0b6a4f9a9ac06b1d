/**
 * `heapscope check CAPTURE [--json]` (docs/cli.md): the checks of the capture's backend, as the app runs them. The
 * capture replays through the same backend `report` and the app use (analysis/run.ts); its findings are the run's
 * hazard log, the list the app's hazards page pages through: the aliasing checks over placed resources, in the
 * model the header names (`"aliasing": "simple"` by default, or `"advanced"`), and for a Vulkan capture the usage
 * rules the Vulkan model checks while it replays. The command-line parser reads the capture and maps the result to
 * the exit status with checkExitCode.
 */
import type { AnyCaptureRecord, CaptureHeader, WarningKind } from '../../shared/capture'
import type { Frame } from '../../shared/units'
import type { HazardLog } from '../analysis/hazards'
import { replayCapture, type ReplayedCapture } from '../analysis/run'
import { ResourceIndex } from '../analysis/search'
import { loadCapture, type LoadResult } from '../ingest/read'
import type { StoreWarnings, WarningSample } from '../ingest/store'
import type { Hazard } from '../model/aliasing/hazards'
import type { AliasingModel, VulkanCaptureRecord } from '../model/vulkan/captureTypes'
import { VULKAN_RULES, type VulkanRule } from '../model/vulkan/events'

/** A hazard with its resources' names as the capture gave them at its frame ('' for an unnamed one). */
export type NamedHazard = Hazard & { names: string[] }

/** One Vulkan usage warning, as found. */
export interface CheckWarning {
  rule: VulkanRule
  frame: Frame
  message: string
}

/** How many reading warnings `check` lists one by one (of the reader's first few of each kind); the counts cover them all. */
export const READING_SAMPLES = 10

/** What reading the capture warned about: records skipped or corrected before any check saw them. */
export interface CheckReading {
  /** Warning kind → how many. */
  counts: Partial<Record<WarningKind, number>>
  /** The first few of each kind, in file order, at most READING_SAMPLES, with where they are. */
  first: WarningSample[]
}

/** Exactly the JSON `check --json` prints. */
export interface CheckResult {
  hazards: NamedHazard[]
  /** Vulkan rule name → how many times it was broken; rules never broken are absent. */
  warnings: Partial<Record<VulkanRule, number>>
  /** Every Vulkan usage warning, one by one, in capture order (at most MAX_LISTED_WARNINGS; `warnings` counts all). */
  warningList: CheckWarning[]
  /** Present only when reading the capture warned. */
  reading?: CheckReading
}

/** Warnings listed one by one, at most: a broken capture may break a rule on every record. */
export const MAX_LISTED_WARNINGS = 10_000

export interface CaptureCheckOptions {
  /** `--config` pairs, as `report` takes them. */
  config?: readonly string[]
  /** Each Vulkan rule warning with its message and frame number, in capture order. */
  onWarning?: (rule: VulkanRule, message: string, frame: Frame) => void
  /** What reading the capture warned about; the store's own warnings by default. */
  reading?: StoreWarnings
  /** The capture's replay, where it was replayed as it was read (loadAndReplay); else it is replayed here. */
  replayed?: ReplayedCapture
}

export interface CheckOptions extends Omit<CaptureCheckOptions, 'reading'> {
  /** Overrides the header's `aliasing`. */
  aliasing?: AliasingModel
  /** The capture has `gpu` records elsewhere (the Vulkan model then waits for them to free memory). */
  gpuRecords?: boolean
  /** The reader's warnings about the capture the records came from, reported with the result. */
  reading?: StoreWarnings
}

type AnyRecord = AnyCaptureRecord | VulkanCaptureRecord

function isRule(rule: string): rule is VulkanRule {
  return (VULKAN_RULES as readonly string[]).includes(rule)
}

/** A loaded capture's checks: its replay through its backend, the run's findings with their resources named. */
export async function checkCapture(result: LoadResult, options: CaptureCheckOptions = {}): Promise<CheckResult> {
  // the findings are the replay's own, and the names come from the store: no snapshot is asked for, so no checkpoint
  const { replay } = options.replayed ?? (await replayCapture(result, options.config ?? [], { checkpoints: false }))
  return checkResultOf(replay.checks, new ResourceIndex(result.store), options.reading ?? result.store.warnings, options.onWarning)
}

/**
 * Records and their header as a capture's lines, read by the capture reader and checked as checkCapture checks a
 * file (the records go through the same validation a file's would).
 */
export async function runCheck(
  records: AsyncIterable<AnyRecord> | Iterable<AnyRecord>,
  header: CaptureHeader = { format: 'heapscope-capture', version: 1 },
  options: CheckOptions = {},
): Promise<CheckResult> {
  const lines = [JSON.stringify(options.aliasing ? { ...header, aliasing: options.aliasing } : header)]
  if (Symbol.iterator in records) for (const record of records) lines.push(JSON.stringify(record))
  else for await (const record of records) lines.push(JSON.stringify(record))
  const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`)
  const loaded = await loadCapture(
    (async function* () {
      yield bytes
    })(),
    { file: 'check' },
  )
  if (loaded.error) throw loaded.error
  const store = options.gpuRecords ? { ...loaded.store, hasGpuRecords: true } : loaded.store
  return checkCapture({ ...loaded, store }, { ...options, reading: options.reading ?? { counts: {}, samples: [] } })
}

/** The JSON of docs/cli.md from a run's findings: hazards with their frame numbers and names, then the warnings. */
export function checkResultOf(
  log: HazardLog,
  index: ResourceIndex,
  reading?: StoreWarnings,
  onWarning?: (rule: VulkanRule, message: string, frame: Frame) => void,
): CheckResult {
  const hazards: NamedHazard[] = []
  const warningList: CheckWarning[] = []
  for (const e of log.entries) {
    if (e.severity === 'hazard') {
      hazards.push({
        frame: e.frameNumber,
        rule: e.rule as Hazard['rule'],
        resources: e.resources.slice(),
        heap: e.heap ?? -1,
        range: e.range ? [e.range[0], e.range[1]] : [0, 0],
        message: e.message,
        names: e.resources.map((id) => index.nameAt(id, e.frame)),
      })
    } else if (isRule(e.rule)) {
      onWarning?.(e.rule, e.message, e.frameNumber)
      if (warningList.length < MAX_LISTED_WARNINGS) warningList.push({ rule: e.rule, frame: e.frameNumber, message: e.message })
    }
  }
  const warnings: Partial<Record<VulkanRule, number>> = {}
  for (const [rule, n] of Object.entries(log.warnings)) if (isRule(rule)) warnings[rule] = n
  const result: CheckResult = { hazards, warnings, warningList }
  if (reading && reading.samples.length > 0) {
    const first = reading.samples.slice().sort((a, b) => a.offset - b.offset).slice(0, READING_SAMPLES)
    result.reading = { counts: { ...reading.counts }, first }
  }
  return result
}

export function checkExitCode(result: CheckResult): 0 | 4 {
  return result.hazards.length > 0 ? 4 : 0
}

/** The JSON of docs/cli.md on one line, or a readable report: one line per hazard, then the warning counts. */
export function formatCheck(result: CheckResult, json: boolean): string {
  if (json) return `${JSON.stringify(result)}\n`
  const lines: string[] = []
  const n = result.hazards.length
  lines.push(n === 0 ? 'No aliasing hazard found.' : `${n} aliasing hazard${n === 1 ? '' : 's'}:`)
  const ruleWidth = Math.max(0, ...result.hazards.map((h) => h.rule.length))
  for (const h of result.hazards) {
    const resources = h.resources.map((id, i) => (h.names[i] ? `#${id} ${h.names[i]}` : `#${id}`)).join(', ')
    lines.push(`  frame ${h.frame}  ${h.rule.padEnd(ruleWidth)}  heap ${h.heap} [${h.range[0]}, ${h.range[1]})  resources ${resources}: ${h.message}`)
  }
  const kinds = VULKAN_RULES.filter((r) => result.warnings[r])
  if (kinds.length) {
    const total = kinds.reduce((sum, k) => sum + (result.warnings[k] ?? 0), 0)
    lines.push(`${total} Vulkan usage warning${total === 1 ? '' : 's'}:`)
    const width = Math.max(...result.warningList.map((w) => w.rule.length))
    for (const w of result.warningList) lines.push(`  frame ${w.frame}  ${w.rule.padEnd(width)}  ${w.message}`)
    if (result.warningList.length < total) lines.push(`  … and ${total - result.warningList.length} more`)
    lines.push('by rule:')
    const ruleWidth2 = Math.max(...kinds.map((k) => k.length))
    for (const k of kinds) lines.push(`  ${k.padEnd(ruleWidth2)}  ${result.warnings[k]}`)
  }
  if (result.reading) {
    const counts = Object.entries(result.reading.counts)
    const total = counts.reduce((sum, [, n]) => sum + (n ?? 0), 0)
    lines.push(`Reading the capture: ${total} warning${total === 1 ? '' : 's'} (records skipped or corrected before the checks):`)
    const width = Math.max(...counts.map(([k]) => k.length))
    for (const [k, n] of counts) lines.push(`  ${k.padEnd(width)}  ${n}`)
    const first = result.reading.first
    lines.push(total > first.length ? `The first of each kind (${first.length} of ${total}):` : 'Each:')
    for (const w of first) lines.push(`  line ${w.line} (byte ${w.offset}): ${w.kind}: ${w.message}`)
  }
  return `${lines.join('\n')}\n`
}
