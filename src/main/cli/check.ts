/**
 * `heapscope check CAPTURE [--json]` (docs/cli.md): the aliasing checks over the capture's placed resources, in the
 * model its header names (`"aliasing": "simple"` by default, or `"advanced"`), and for a Vulkan capture the
 * usage rules the Vulkan model checks while it replays. The command-line parser reads the capture and maps the
 * result to the exit status with checkExitCode.
 */
import type { AnyCaptureRecord, CaptureHeader, WarningKind } from '../../shared/capture'
import type { StoreWarnings, WarningSample } from '../ingest/store'
import type { Frame } from '../../shared/units'
import { AliasingChecker } from '../model/aliasing/checker'
import type { Hazard } from '../model/aliasing/hazards'
import type { AliasingModel, VulkanCaptureRecord } from '../model/vulkan/captureTypes'
import { resolveVulkanConfig, VULKAN_CONFIG_KEYS, type VulkanConfig } from '../model/vulkan/config'
import { vulkanSetup } from '../model/vulkan/device'
import { VULKAN_RULES, type VulkanRule } from '../model/vulkan/events'
import { VulkanModel } from '../model/vulkan/model'

/** A hazard with its resources' names as the capture gave them when it happened ('' for an unnamed one). */
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

export interface CheckOptions {
  /** Overrides the header's `aliasing`. */
  aliasing?: AliasingModel
  /** Overrides the Vulkan config from the header. */
  config?: VulkanConfig
  /** Each Vulkan rule warning with its message, as found. */
  onWarning?: (rule: VulkanRule, message: string, frame: Frame) => void
  /** The reader's warnings about the capture, reported with the result. */
  reading?: StoreWarnings
  /** Whether the capture has `gpu` records (the Vulkan model then waits for them to free memory). */
  gpuRecords?: boolean
}

type AnyRecord = AnyCaptureRecord | VulkanCaptureRecord

function isRule(kind: string): kind is VulkanRule {
  return (VULKAN_RULES as readonly string[]).includes(kind)
}

/** The Vulkan keys of the header's config; other keys belong to other models and are left alone. */
function headerVulkanConfig(header: CaptureHeader | undefined): VulkanConfig {
  const picked: Record<string, number | boolean> = {}
  for (const [key, value] of Object.entries(header?.config ?? {})) {
    if (Object.hasOwn(VULKAN_CONFIG_KEYS, key)) picked[key] = value
  }
  return resolveVulkanConfig(picked)
}

export async function runCheck(
  records: AsyncIterable<AnyRecord> | Iterable<AnyRecord>,
  header?: CaptureHeader,
  options: CheckOptions = {},
): Promise<CheckResult> {
  const setup = vulkanSetup(header)
  const aliasing = new AliasingChecker({ model: options.aliasing ?? setup.aliasing, api: header?.api ?? 'd3d12' })
  const warnings: Partial<Record<VulkanRule, number>> = {}
  const warningList: CheckWarning[] = []
  let vulkan: VulkanModel | null = null
  if (header?.api === 'vulkan') {
    vulkan = new VulkanModel(setup.device, options.config ?? headerVulkanConfig(header), {
      warning(kind, message, frame) {
        if (!isRule(kind)) return
        warnings[kind] = (warnings[kind] ?? 0) + 1
        if (warningList.length < MAX_LISTED_WARNINGS) warningList.push({ rule: kind, frame, message })
        options.onWarning?.(kind, message, frame)
      },
    }, { gpuRecords: options.gpuRecords })
  }
  // each live id's name, so a hazard names its resources as they were when it happened
  const names = new Map<number, string>()
  const hazards: NamedHazard[] = []
  const step = (record: AnyRecord) => {
    // observed residency (1.2) is for the timeline, names, stacks and driver reports (1.3) for the inspector
    if (record.e === 'resident' || record.e === 'evict' || record.e === 'name' || record.e === 'stack' || record.e === 'report') return
    const named = record as { id?: unknown; name?: unknown }
    if (typeof named.id === 'number' && (record.e === 'buffer' || record.e === 'texture' || record.e === 'placed' || record.e === 'transient')) {
      names.set(named.id, typeof named.name === 'string' ? named.name : '')
    }
    aliasing.apply(record)
    for (let i = hazards.length; i < aliasing.hazards.length; i++) {
      const h = aliasing.hazards[i]
      hazards.push({ ...h, names: h.resources.map((id) => names.get(id) ?? '') })
    }
    vulkan?.apply(record as VulkanCaptureRecord)
  }
  if (Symbol.iterator in records) for (const record of records) step(record)
  else for await (const record of records) step(record)
  // The last frame ends with the capture: its writes had to be flushed before its submit too.
  vulkan?.onSubmit()
  const result: CheckResult = { hazards, warnings, warningList }
  const reading = options.reading
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
