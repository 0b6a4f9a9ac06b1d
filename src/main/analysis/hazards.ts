/**
 * The checks' findings of a run, as `heapscope check` makes them (docs/cli.md) and the hazards list shows them:
 * aliasing hazards of the CreatePlacedResource rules over the capture's placed resources, and for a Vulkan run
 * the API-usage warnings its replay raises, each with the frame it happened in, kept in capture order and served
 * a page at a time. Every backend writes them through one sink while it replays (checks.ts), which also counts
 * them per frame in the `check.*` series.
 */
import { ACCESS_OPS, type CaptureRecord } from '../../shared/capture'
import type { HazardEntry, HazardsAnswer, HazardsQuery } from '../../shared/ipc'
import { partitionPoint } from '../../shared/search'
import type { Bytes } from '../../shared/units'
import { recordAt } from '../ingest/records'
import { RECORD_KIND, type CaptureStore } from '../ingest/store'
import { placedTarget, type AliasingChecker } from '../model/aliasing/checker'
import type { Hazard } from '../model/aliasing/hazards'
import type { AliasingModel } from '../model/vulkan/captureTypes'
import { vulkanSetup } from '../model/vulkan/device'

export const MAX_HAZARD_PAGE = 5000

/** Every finding of a run, in the order found (which is capture order), with counts by rule. */
export class HazardLog {
  readonly entries: HazardEntry[] = []
  readonly hazardRules: Record<string, number> = {}
  readonly warnings: Record<string, number> = {}
  hazardCount = 0
  warningCount = 0

  constructor(
    readonly aliasing: AliasingModel,
    /** The capture's frame number of each frame index (a capture followed live hands its longer one in). */
    public frameNumbers: Float64Array,
  ) {}

  addHazard(frame: number, hazard: Hazard): void {
    this.hazardCount++
    this.hazardRules[hazard.rule] = (this.hazardRules[hazard.rule] ?? 0) + 1
    this.entries.push({
      frame,
      frameNumber: this.frameNumbers[frame] ?? hazard.frame,
      rule: hazard.rule,
      severity: 'hazard',
      resources: hazard.resources.slice(),
      heap: hazard.heap,
      range: [hazard.range[0], hazard.range[1]],
      message: hazard.message,
    })
  }

  addWarning(
    frame: number,
    rule: string,
    message: string,
    resources: number[],
    heap: number | null,
    range: [Bytes, Bytes] | null,
  ): void {
    this.warningCount++
    this.warnings[rule] = (this.warnings[rule] ?? 0) + 1
    const frameNumber = this.frameNumbers[frame] ?? 0
    this.entries.push({ frame, frameNumber, rule, severity: 'warning', resources, heap, range, message })
  }

  /** The entries of one frame index and on: the hazards list jumps there. */
  firstAtFrame(frame: number): number {
    return partitionPoint(this.entries.length, (i) => this.entries[i].frame < frame)
  }

  page(query: HazardsQuery): HazardsAnswer {
    const offset = Math.max(0, Math.floor(query.offset))
    const limit = Math.max(0, Math.min(MAX_HAZARD_PAGE, Math.floor(query.limit)))
    let total: number
    let entries: HazardEntry[]
    if (query.severity === undefined) {
      total = this.entries.length
      entries = this.entries.slice(offset, offset + limit)
    } else {
      total = query.severity === 'hazard' ? this.hazardCount : this.warningCount
      entries = []
      let seen = 0
      for (const e of this.entries) {
        if (e.severity !== query.severity) continue
        if (seen >= offset && entries.length < limit) entries.push(e)
        seen++
        if (entries.length >= limit) break
      }
    }
    return {
      runId: query.runId,
      total,
      offset,
      entries: entries.map(copyEntry),
      aliasing: this.aliasing,
      hazardRules: { ...this.hazardRules },
      warnings: { ...this.warnings },
    }
  }
}

function copyEntry(e: HazardEntry): HazardEntry {
  return { ...e, resources: e.resources.slice(), range: e.range ? [e.range[0], e.range[1]] : null }
}

/**
 * Records to an AliasingChecker straight from the store, through the checker's own methods; a placed resource whose
 * size must be estimated, or whose record has other keys, as an object.
 */
export class AliasingFeed {
  private readonly release: CaptureRecord = { e: 'release', id: 0 }

  constructor(
    private readonly store: CaptureStore,
    readonly checker: AliasingChecker,
  ) {}

  /** Whether a record kind can matter to the checks. */
  static reads(kind: number): boolean {
    return (
      kind === RECORD_KIND.frame ||
      kind === RECORD_KIND.heap ||
      kind === RECORD_KIND.placed ||
      kind === RECORD_KIND.barrier ||
      kind === RECORD_KIND.access ||
      kind === RECORD_KIND.submit ||
      kind === RECORD_KIND.free ||
      kind === RECORD_KIND.release
    )
  }

  apply(index: number): void {
    const store = this.store
    const kind = store.records.kind[index]
    const ref = store.records.ref[index]
    const ops = store.ops
    const checker = this.checker
    switch (kind) {
      case RECORD_KIND.frame:
        checker.onFrame(store.frames.n[ref])
        return
      case RECORD_KIND.heap:
        checker.onHeap(ops[ref], ops[ref + 1])
        return
      case RECORD_KIND.placed: {
        const p = store.placed
        const desc = p.desc.data[ref]
        const texture = p.kind.data[ref] === 1
        const size = texture ? store.textures.size.data[desc] : store.buffers.size.data[desc]
        // the size stated by the record and no other keys (a Vulkan capture's memoryRequirements is one): from the
        // columns; else from the record, which estimates a texture's
        if (Number.isNaN(size) || store.extras.get(index) !== undefined) checker.apply(recordAt(store, index) as CaptureRecord)
        else if (texture) checker.onPlaced(store.textures.id.data[desc], p.a.data[ref], p.b.data[ref], size, 'texture', placedTarget(store.textures.flags.data[desc]))
        else checker.onPlaced(store.buffers.id.data[desc], p.a.data[ref], p.b.data[ref], size, 'buffer', 0)
        return
      }
      case RECORD_KIND.barrier: {
        // NaN: left out (NULL); both may be
        const after = ops[ref]
        const before = ops[ref + 1]
        checker.onBarrier(Number.isNaN(after) ? undefined : after, Number.isNaN(before) ? undefined : before)
        return
      }
      case RECORD_KIND.access:
        checker.onAccess(ops[ref], ACCESS_OPS[ops[ref + 1]])
        return
      case RECORD_KIND.submit:
        checker.onSubmit()
        return
      case RECORD_KIND.free:
        checker.onFree(ops[ref])
        return
      case RECORD_KIND.release:
        ;(this.release as { id: number }).id = ops[ref]
        checker.apply(this.release)
        return
    }
  }
}

/** The aliasing model a capture follows: its header's `aliasing`, "simple" by default. */
export function aliasingOf(store: CaptureStore): AliasingModel {
  return vulkanSetup(store.header).aliasing
}
