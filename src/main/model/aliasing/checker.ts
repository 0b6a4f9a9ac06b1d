/**
 * The CreatePlacedResource aliasing rules over `heap`, `placed`, `barrier`, `access`, `submit`, `free` (and
 * `frame`, `release`) records, in either of the seed's two models (docs/aliasing.md says why each rule reads as
 * it does, with the seed's sentences):
 * - simple: a placed resource is created inactive; an aliasing barrier naming it in `after` activates it and
 *   deactivates every placed resource sharing any of its bytes; a GPU access to an inactive resource is
 *   `access-inactive`; a render target or depth-stencil accessed after its activation by anything but a clear,
 *   a discard or a full copy is `rt-not-initialized`.
 * - advanced: no active state; two accesses to different resources sharing bytes in one submit with no aliasing
 *   barrier between them (one naming either resource) are `barrier-missing`; the first access to a render target
 *   or depth-stencil after it was placed, or after another resource accessed its bytes, must initialize it.
 * Overlaps are linked when a resource is placed, so an access visits only the resources sharing its bytes; each heap
 * finds them through an interval tree (intervals.ts), not by a walk over what it holds. The live resources are found
 * by id through an IdTable and listed by heap in links of their own: a sub-allocator places and releases tens of
 * thousands, and a Map's or a Set's churn costs several times as much (bench/README.md, "The aliasing checks' live
 * resources without a Map").
 */
import {
  TEXTURE_FLAGS,
  maskOf,
  type AccessOp,
  type Api,
  type CaptureRecord,
  type TextureDesc,
  type TextureFlag,
} from '../../../shared/capture'
import { KiB, type Bytes, type Frame } from '../../../shared/units'
import {
  canBe4KAligned,
  estimateTextureSize,
  MSAA_ALIGNMENT,
  newGeometry,
  newVerdict,
  readGeometry,
  SMALL_ALIGNMENT,
} from '../d3d12/texture'
import { FourK } from '../d3d12/route'
import type { AliasingModel, VulkanCaptureRecord } from '../vulkan/captureTypes'
import { estimateTextureBytes } from '../vulkan/requirements'
import { accessVerb, isInitialization, type Hazard, type HazardRule } from './hazards'
import { IdTable } from '../idTable'
import { IntervalTree } from './intervals'

const RENDER_TARGET = 1 << TEXTURE_FLAGS.indexOf('RenderTargetable')
const DEPTH_STENCIL = 1 << TEXTURE_FLAGS.indexOf('DepthStencilTargetable')

/** What the checks hold of a placed resource, for views that show it: its bytes and, in the simple model, its state. */
export interface PlacedState {
  readonly id: number
  readonly heap: number
  /** Heap bytes [start, end). */
  readonly start: Bytes
  readonly end: Bytes
  readonly kind: 'buffer' | 'texture'
  /** 1 render target, 2 depth-stencil, 0 neither. */
  readonly target: 0 | 1 | 2
  /** Activated by an aliasing barrier and not deactivated since (the simple model's state). */
  readonly active: boolean
  /** The placed resources sharing at least one byte with it, in the order they were placed. */
  readonly overlaps: ReadonlySet<PlacedState>
}

/** The overlaps of a resource that shares no byte (most of a sub-allocator's): one set for all, never added to. */
const NO_OVERLAPS: ReadonlySet<Resident> = new Set<Resident>()

class Resident implements PlacedState {
  /** The resources sharing its bytes, made at the first. */
  linked: Set<Resident> | null = null
  /** Its row in the checker's table by id. */
  row = -1
  /** Its heap's list, in placement order: the one before and after it, and whether it is in the list. */
  prev: Resident | null = null
  next: Resident | null = null
  listed = false
  /** Its node in its heap's interval tree (IntervalTree.add's answer). */
  node = -1
  active = false
  /** The resource whose activation made this one inactive, -1 when none has (never activated yet). */
  deactivatedBy = -1
  deactivatedFrame: Frame = 0
  /** An access-inactive was reported for the current inactive spell. */
  inactiveReported = false
  needsInit: boolean
  /** Why it needs initialization, for the message: placed, activated, or its bytes reused by `initBy`. */
  initCause: 'placed' | 'activated' | 'reused' = 'placed'
  initFrame: Frame
  initBy = -1
  lastAccessSeq = -1
  lastAccessSubmit = -1
  lastAccessOp: AccessOp = 'read'
  lastBarrierSeq = -1

  constructor(
    readonly id: number,
    readonly heap: number,
    readonly start: Bytes,
    readonly end: Bytes,
    readonly kind: 'buffer' | 'texture',
    /** 1 render target, 2 depth-stencil, 0 neither. */
    readonly target: 0 | 1 | 2,
    readonly placedFrame: Frame,
    /** Placement order over the checker's life: later placements, larger numbers. */
    readonly order: number,
  ) {
    this.needsInit = target !== 0
    this.initFrame = placedFrame
  }

  get overlaps(): ReadonlySet<Resident> {
    return this.linked ?? NO_OVERLAPS
  }

  link(o: Resident): void {
    ;(this.linked ??= new Set()).add(o)
  }

  unlink(o: Resident): void {
    this.linked?.delete(o)
  }

  label(): string {
    return `${this.kind} ${this.id}`
  }

  /** A copy of the state, its row and its tree node; its overlaps and its heap's list left for the caller to link. */
  copy(): Resident {
    const c = new Resident(this.id, this.heap, this.start, this.end, this.kind, this.target, this.placedFrame, this.order)
    c.active = this.active
    c.deactivatedBy = this.deactivatedBy
    c.deactivatedFrame = this.deactivatedFrame
    c.inactiveReported = this.inactiveReported
    c.needsInit = this.needsInit
    c.initCause = this.initCause
    c.initFrame = this.initFrame
    c.initBy = this.initBy
    c.lastAccessSeq = this.lastAccessSeq
    c.lastAccessSubmit = this.lastAccessSubmit
    c.lastAccessOp = this.lastAccessOp
    c.lastBarrierSeq = this.lastBarrierSeq
    c.row = this.row
    c.node = this.node
    return c
  }

  targetLabel(): string {
    return `${this.target === 2 ? 'depth-stencil' : 'render target'} ${this.id}`
  }

  initText(): string {
    if (this.initCause === 'activated') return `after its activation at frame ${this.initFrame}`
    if (this.initCause === 'reused') return `after ${this.initBy} used the same bytes at frame ${this.initFrame}`
    return `since it was placed at frame ${this.initFrame}`
  }
}

export interface AliasingCheckerOptions {
  model?: AliasingModel
  /** How a texture without a size is estimated: D3D12's tiled layout (default) or Vulkan's linear sum. */
  api?: Api
  /** Called for each hazard as found; without it hazards collect in `hazards`. */
  onHazard?: (hazard: Hazard) => void
}

export class AliasingChecker {
  readonly model: AliasingModel
  readonly api: Api
  readonly hazards: Hazard[] = []
  frame: Frame = 0
  private readonly onHazard: (hazard: Hazard) => void
  private heapSize = new Map<number, Bytes>()
  private heapResidents = new Map<number, HeapResidents>()
  /** The live resources: id → row of `byRow`; rows freed by a removal are taken again first. */
  private ids = new IdTable()
  private byRow: (Resident | null)[] = []
  private freeRows: number[] = []
  /** Placements so far (Resident.order). */
  private placed = 0
  private seq = 0
  private submit = 0
  private globalBarrierSeq = -1

  constructor(options: AliasingCheckerOptions = {}) {
    this.model = options.model ?? 'simple'
    this.api = options.api ?? 'd3d12'
    this.onHazard = options.onHazard ?? ((h) => this.hazards.push(h))
  }

  /**
   * An independent checker in the same state, reporting to `onHazard` (or collecting): a checkpoint to replay
   * from, so a view of one frame need not check every record before it.
   */
  clone(options: Pick<AliasingCheckerOptions, 'onHazard'> = {}): AliasingChecker {
    const c = new AliasingChecker({ model: this.model, api: this.api, onHazard: options.onHazard })
    c.frame = this.frame
    c.seq = this.seq
    c.submit = this.submit
    c.globalBarrierSeq = this.globalBarrierSeq
    c.placed = this.placed
    c.heapSize = new Map(this.heapSize)
    // the same rows and ids: the copy's table is the original's
    c.ids = this.ids.clone()
    c.freeRows = this.freeRows.slice()
    c.byRow = this.byRow.map((r) => (r === null ? null : r.copy()))
    const copyOf = (r: Resident): Resident => c.byRow[r.row]!
    for (const r of this.byRow) if (r !== null) for (const o of r.overlaps) copyOf(r).link(copyOf(o))
    for (const [heap, list] of this.heapResidents) c.heapResidents.set(heap, list.cloneWith(copyOf))
    return c
  }

  /** A live placed resource's bytes and state, or undefined when `id` is none. */
  placedState(id: number): PlacedState | undefined {
    return this.resident(id)
  }

  private resident(id: number): Resident | undefined {
    const row = this.ids.get(id)
    return row === undefined ? undefined : this.byRow[row]!
  }

  /** The heaps the checks know (created by a `heap` record, or named by a `placed` one), each with its live resources in placement order. */
  *heaps(): IterableIterator<[number, Iterable<PlacedState>]> {
    for (const [heap, held] of this.heapResidents) yield [heap, held]
  }

  /** A heap's size from its `heap` record, or undefined when it had none. */
  heapSizeOf(id: number): Bytes | undefined {
    return this.heapSize.get(id)
  }

  /** Dispatch one record; kinds the checks do not read are ignored. */
  apply(record: CaptureRecord | VulkanCaptureRecord): void {
    switch (record.e) {
      case 'frame':
        return this.onFrame(record.n)
      case 'heap':
        return this.onHeap(record.id, record.size)
      case 'placed': {
        const size = placedSize(record, this.api)
        const target = record.kind === 'texture' ? placedTarget(maskOf<TextureFlag>(TEXTURE_FLAGS, record.flags)) : 0
        return this.onPlaced(record.id, record.heap, record.offset, size, record.kind, target)
      }
      case 'barrier':
        return this.onBarrier((record as { after?: number | null }).after ?? undefined, record.before)
      case 'access':
        return this.onAccess(record.id, record.op)
      case 'submit':
        return this.onSubmit()
      case 'free':
        return this.onFree(record.id)
      case 'release':
        return this.remove(record.id)
      default:
        return
    }
  }

  /** A new frame's work is a new ExecuteCommandLists: the previous frame's was submitted before it. */
  onFrame(n: Frame): void {
    this.frame = n
    this.submit++
  }

  onSubmit(): void {
    this.submit++
  }

  onHeap(id: number, size: Bytes): void {
    if (this.heapResidents.has(id)) this.onFree(id)
    this.heapSize.set(id, size)
    this.heapResidents.set(id, new HeapResidents())
  }

  onPlaced(id: number, heap: number, offset: Bytes, size: Bytes, kind: 'buffer' | 'texture', target: 0 | 1 | 2): void {
    if (this.ids.get(id) !== undefined) this.remove(id)
    const r = new Resident(id, heap, offset, offset + Math.max(size, 1), kind, target, this.frame, this.placed++)
    let held = this.heapResidents.get(heap)
    if (!held) {
      held = new HeapResidents()
      this.heapResidents.set(heap, held)
    }
    const shared = held.tree.overlapping(r.start, r.end, overlapScratch)
    // linked in placement order, as a walk over the heap's resources would find them
    if (shared.length > 1) shared.sort((a, b) => a.order - b.order)
    for (const o of shared) {
      o.link(r)
      r.link(o)
    }
    shared.length = 0
    held.add(r)
    r.row = this.freeRows.length > 0 ? this.freeRows.pop()! : this.byRow.length
    this.byRow[r.row] = r
    this.ids.set(id, r.row)
  }

  /** `after` absent: a barrier naming no resource, which separates every access before it from every one after. */
  onBarrier(after: number | undefined, before: number | undefined): void {
    const seq = this.seq++
    if (after === undefined && before === undefined) this.globalBarrierSeq = seq
    const b = before === undefined ? undefined : this.resident(before)
    if (b) b.lastBarrierSeq = seq
    const x = after === undefined ? undefined : this.resident(after)
    if (!x) return
    x.lastBarrierSeq = seq
    x.active = true
    x.inactiveReported = false
    if (x.target !== 0) {
      x.needsInit = true
      x.initCause = 'activated'
      x.initFrame = this.frame
    }
    for (const o of x.overlaps) {
      o.active = false
      o.deactivatedBy = x.id
      o.deactivatedFrame = this.frame
      o.inactiveReported = false
    }
  }

  onAccess(id: number, op: AccessOp): void {
    const r = this.resident(id)
    if (!r) return
    const seq = this.seq++
    if (this.model === 'simple') {
      if (!r.active) {
        if (!r.inactiveReported) this.reportInactive(r, op)
        r.inactiveReported = true
      } else this.checkInit(r, op)
    } else {
      for (const o of r.overlaps) {
        if (o.lastAccessSubmit !== this.submit) continue
        // Once per interleaving: o touched the bytes since r's own last access, and no barrier came after it.
        if (o.lastAccessSeq <= r.lastAccessSeq && r.lastAccessSubmit === this.submit) continue
        const barrier = Math.max(r.lastBarrierSeq, o.lastBarrierSeq, this.globalBarrierSeq)
        if (o.lastAccessSeq > barrier) this.reportMissingBarrier(r, op, o)
      }
      this.checkInit(r, op)
      // Any access of another resource on the shared bytes, a read too, is one the simple model would have
      // activated it for: 「Cette initialisation reste requise chaque fois qu'une ressource aurait été activée
      // dans le modèle simple」.
      for (const o of r.overlaps) {
        if (o.target === 0 || o.needsInit) continue
        o.needsInit = true
        o.initCause = 'reused'
        o.initFrame = this.frame
        o.initBy = r.id
      }
    }
    r.lastAccessSeq = seq
    r.lastAccessSubmit = this.submit
    r.lastAccessOp = op
  }

  /** `free` of a heap destroys it and what is placed in it; of a placed resource, that resource. */
  onFree(id: number): void {
    const list = this.heapResidents.get(id)
    if (!list) {
      this.remove(id)
      return
    }
    for (const r of [...list]) this.remove(r.id)
    this.heapResidents.delete(id)
    this.heapSize.delete(id)
  }

  private remove(id: number): void {
    const r = this.resident(id)
    if (!r) return
    this.ids.delete(id)
    this.byRow[r.row] = null
    this.freeRows.push(r.row)
    if (r.linked) for (const o of r.linked) o.unlink(r)
    this.heapResidents.get(r.heap)?.delete(r)
  }

  private checkInit(r: Resident, op: AccessOp): void {
    if (!r.needsInit) return
    r.needsInit = false
    if (isInitialization(op)) return
    const message = `${r.targetLabel()} ${accessVerb(op)} ${r.initText()} without a clear, discard or full copy first`
    this.report('rt-not-initialized', [r.id], r.heap, r.start, r.end, message)
  }

  private reportInactive(r: Resident, op: AccessOp): void {
    const what = `${r.label()} ${accessVerb(op)} while inactive`
    if (r.deactivatedBy < 0) {
      const message =
        `${what}: no aliasing barrier has activated it since it was placed at frame ${r.placedFrame} ` +
        '(placed resources are created inactive)'
      this.report('access-inactive', [r.id], r.heap, r.start, r.end, message)
      return
    }
    const message = `${what}: ${r.deactivatedBy} was activated on the same bytes at frame ${r.deactivatedFrame}`
    // The activating resource may be gone since; then its bytes are unknown and the whole range is named.
    const by = this.resident(r.deactivatedBy)
    const start = by ? Math.max(r.start, by.start) : r.start
    const end = by ? Math.min(r.end, by.end) : r.end
    this.report('access-inactive', [r.id, r.deactivatedBy], r.heap, start, end, message)
  }

  private reportMissingBarrier(r: Resident, op: AccessOp, o: Resident): void {
    const message =
      `${r.label()} ${accessVerb(op)} after ${o.label()} was ${accessVerb(o.lastAccessOp)} on the same bytes in the ` +
      `same submit at frame ${this.frame}, without an aliasing barrier between them`
    this.report('barrier-missing', [r.id, o.id], r.heap, Math.max(r.start, o.start), Math.min(r.end, o.end), message)
  }

  private report(rule: HazardRule, resources: number[], heap: number, start: Bytes, end: Bytes, message: string): void {
    this.onHazard({ frame: this.frame, rule, resources, heap, range: [start, end], message })
  }
}

/**
 * Bytes a placed resource covers: the driver's size when the record has it (memoryRequirements, or a texture's
 * `size`), a buffer's size, else a texture's estimate for the capture's API.
 */
/** A placed texture's target kind from its flags (TEXTURE_FLAGS' bit mask): 2 depth-stencil, 1 render target, 0 neither. */
export function placedTarget(flags: number): 0 | 1 | 2 {
  return flags & DEPTH_STENCIL ? 2 : flags & RENDER_TARGET ? 1 : 0
}

/** A heap's live placed resources: in placement order (a list linked through them), and by their bytes. */
class HeapResidents implements Iterable<Resident> {
  tree = new IntervalTree<Resident>()
  private first: Resident | null = null
  private last: Resident | null = null

  add(r: Resident): void {
    this.append(r)
    r.node = this.tree.add(r, r.start, r.end, r.order)
  }

  /** A copy of the list holding `copyOf` each resident (which keeps its node), the tree's rows copied. */
  cloneWith(copyOf: (r: Resident) => Resident): HeapResidents {
    const c = new HeapResidents()
    for (const r of this) c.append(copyOf(r))
    c.tree = this.tree.cloneWith(copyOf)
    return c
  }

  delete(r: Resident): void {
    if (!r.listed) return
    if (r.prev !== null) r.prev.next = r.next
    else this.first = r.next
    if (r.next !== null) r.next.prev = r.prev
    else this.last = r.prev
    r.prev = r.next = null
    r.listed = false
    this.tree.delete(r.node)
  }

  *[Symbol.iterator](): IterableIterator<Resident> {
    for (let r = this.first; r !== null; r = r.next) yield r
  }

  private append(r: Resident): void {
    r.prev = this.last
    r.next = null
    if (this.last !== null) this.last.next = r
    else this.first = r
    this.last = r
    r.listed = true
  }
}

/** What IntervalTree.overlapping finds, for onPlaced (emptied after each use). */
const overlapScratch: Resident[] = []

export function placedSize(
  record: Extract<CaptureRecord, { e: 'placed' }> & { memoryRequirements?: { size: Bytes } },
  api: Api = 'd3d12',
): Bytes {
  if (record.memoryRequirements) return record.memoryRequirements.size
  if (record.kind === 'buffer') return record.size
  if (record.size !== undefined) return record.size
  return api === 'vulkan' ? estimateTextureBytes(record) : d3d12TextureSize(record)
}

const geometry = newGeometry()
const verdict = newVerdict()

/** MODEL.md §4.1 alignment (4 KiB when it can be, 4 MiB for MSAA, else 64 KiB) and the D3D12 model's estimate. */
export function d3d12TextureSize(desc: TextureDesc): Bytes {
  const g = readGeometry(desc, geometry)
  const alignment =
    canBe4KAligned(g, verdict).verdict === FourK.Yes ? SMALL_ALIGNMENT : g.samples > 1 ? MSAA_ALIGNMENT : 64 * KiB
  return estimateTextureSize(g, alignment)
}
