/**
 * The D3D12 allocator model: Unreal Engine 5.8's D3D12 RHI routing every buffer and texture request (seed
 * §3–§8), the pools it keeps, deferred release on frame fences, defrag and pool life, with residency (§9) and
 * render-graph transients (§6) through their own modules. Pure and deterministic: the same records and config
 * give the same placements, byte for byte.
 *
 * Methods mirror the capture records. Descs are read, never kept (callers may reuse one scratch object). A create
 * returns the model's one scratch ModelPlacement, valid until the next call; `copy()` it to keep it. The sink's
 * `placed` info object is reused the same way.
 */
import type { BufferDesc, BufferStateMode, TextureDesc, TransientRecord, UploadVia } from '../../../shared/capture'
import { HEAP_TYPES, PLACEMENTS } from '../../../shared/model'
import type { HeapType, ModelConfig, Placement } from '../../../shared/model'
import { roundUp, roundUpPow2 } from '../../../shared/units'
import type { Bytes, Frame } from '../../../shared/units'
import type { ModelSink, PlacementInfo, ResidencyPriority } from '../events'
import { Allocations, IdMap, Kind, Loc, SlotFlag, SlotState } from './allocations'
import { BuddyPool } from './buddy'
import { DescIds } from '../../../shared/descIds'
import {
  Buddy,
  BuddyFamily,
  buddySpecs,
  familySpecs,
  PoolFamily,
} from './families'
import {
  BufferDecisions,
  decideBuffer,
  Family,
  HEAP_INDEX,
  newBufferDecision,
  PLACEMENT_INDEX,
  Target,
  TILE,
  Usage,
  uploadTarget,
  usageMask,
} from './ladder'
import type { BufferRequest } from './ladder'
import { alignedOffset, alignedSize, BlockState, BlockTable, MemoryPool, NONE, pads } from './memoryPool'
import { defragFrame, DefragSearch } from './defrag'
import type { DefragMoves } from './defrag'
import { ResidencyManager, type ResidencyObjectInfo } from './residency'
import { RouteTrace, Step } from './route'
import {
  decideTexture,
  isRenderTarget,
  newGeometry,
  newTextureDecision,
  readGeometry,
  TextureDecisions,
  textureFlagMask,
  transientTextureLayout,
} from './texture'
import type { TextureDecision, TextureGeometry, TransientTextureLayout } from './texture'
import { TOTAL_FIELD, ROW_FAST_CONSTANT_PAGE, Totals } from './totals'
import { TransientAllocator } from './transient'
import { BUFFERS, RENDER_TARGETS, TEXTURES } from './transientHeap'
import { STAMPED_IDS, UseCache } from './useCache'
import { FastAllocatorPages } from './upload'
import { Pend, pendMeta, PendingQueue, STRIDE } from './pending'
import { allocationView, liveAllocations, livePlacements, liveRow, liveTable, poolBlocks, poolSummaries, poolViews } from './views'
import type { AllocationView, LivePlacements, LiveRow, LiveTable, ModelTables, PoolBlocks, PoolView } from './views'
import { retainedBytes } from '../retainedBytes'
import type { Column, RecycledColumns, TableShadow } from './rowCopy'

export { BlockCode } from './views'
export type { AllocationView, BlockView, LivePlacements, LiveRow, LiveTable, PoolBlocks, PoolView } from './views'

/**
 * What a replay keeps beside its last checkpoint to make the next one (D3D12Model.checkpoint): that checkpoint and
 * the model's allocations, blocks and ids as they were when it was made.
 */
export interface CheckpointShadow {
  model: D3D12Model
  allocs: TableShadow
  blocks: TableShadow
  ids: TableShadow
}

export interface D3D12ModelOptions {
  /** The capture's adapter: its resource heap tier wins over the config's. */
  adapter?: { resourceHeapTier?: number }
  /** The local memory budget at the start (header `budget`); unlimited when absent. */
  budget?: Bytes
  /**
   * true: the capture has `gpu` records and only they complete frames. false: frame n completes when frame
   * n + framesInFlight begins. 'auto': the latter until the first gpuDone call, the former from then on (for a
   * stream that cannot be looked at ahead).
   */
  explicitGpuFences?: boolean | 'auto'
  /** true: `use` records name what each frame uses; false: every live residency object is used every frame. */
  hasUseRecords?: boolean
  /**
   * false: nothing reads what a create or endGraph returns (a replay that reads totals, layouts and the sink's
   * events): a create returns NOT_FILLED rather than filling its placement, endGraph returns no placements and
   * transients keep no route. Default true.
   */
  placements?: boolean
}

/** What a create by form number reads of its desc, and only when it must: the name (a label) and the tag. */
export interface Named {
  readonly name?: string | undefined
  readonly tag?: string | undefined
}

/** A placement as a create (or endGraph) returns it. */
export class ModelPlacement {
  id = 0
  placement: Placement = 'Committed'
  heap: HeapType = 'DEFAULT'
  /** Pool id, -1 when the request has no pool (committed, reserved, transient). */
  pool = -1
  /** "DEFAULT/SingleState/0"; transients name their heap; null for committed and reserved resources. */
  poolName: string | null = null
  offset: Bytes = 0
  /** Occupied bytes, padding included (reserved: the virtual size rounded up to 64 KiB). */
  size: Bytes = 0
  requested: Bytes = 0
  alignment: Bytes = 0
  estimated = false
  trace: RouteTrace
  /**
   * The model whose last create this is, when `trace` is still to be worked out: a create leaves its ladder steps
   * until someone reads them (a replay never does), then the model goes down the ladder again from its request.
   */
  explainer: D3D12Model | null = null

  constructor(trace: RouteTrace) {
    this.trace = trace
  }

  /** The ladder steps, rendered now. */
  get route(): string[] {
    this.explain()
    return this.trace.render()
  }

  copy(): ModelPlacement {
    this.explain()
    const c = new ModelPlacement(this.trace.copy())
    c.id = this.id
    c.placement = this.placement
    c.heap = this.heap
    c.pool = this.pool
    c.poolName = this.poolName
    c.offset = this.offset
    c.size = this.size
    c.requested = this.requested
    c.alignment = this.alignment
    c.estimated = this.estimated
    return c
  }

  private explain(): void {
    const model = this.explainer
    if (model === null) return
    this.explainer = null
    model.explainLastCreate(this.trace)
  }
}

/**
 * What a create returns from a model made with `placements: false`, whose callers read nothing of it: one frozen
 * placement of no resource (id NaN), so that a caller that reads it anyway gets no other resource's figures.
 */
export const NOT_FILLED = Object.freeze(
  Object.assign(new ModelPlacement(new RouteTrace(1)), { id: NaN }),
) as ModelPlacement

interface PendingTransient {
  id: number
  size: Bytes
  alignment: Bytes
  estimated: boolean
  trace: RouteTrace
}

const GpuMode = { Implicit: 0, Explicit: 1, Auto: 2 } as const
/**
 * D3D12Model.resolveLine's objects so far: by residency object number (the model numbers them from 0), its place
 * + 1 (0: not yet); reset to 0 at its end (it runs to its end before another).
 */
let lineObjects = new Int32Array(1024)
/** The slots, then the residency objects, of a `use` record's ids (use() runs to its end before another). */
let useScratch = new Int32Array(64)
/**
 * What the reads ahead add up to (see warmReleases), kept so that the engine keeps the reads: in an array, so that
 * the sum, a double, changes no object's shape.
 */
const warmth = new Float64Array(1)
/** D3D12Model.lastCreate of a texture decided through TextureDecisions (beside Kind.Buffer and Kind.Texture). */
const LAST_TEXTURE_BY_KEY = 100

/** D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT: constants are bump-allocated at 256 B. */
const CONSTANT_ALIGNMENT = 256
/** Staging alignment for buffer locks and initial data. */
const STAGING_ALIGNMENT = 16
/** Staging from `upload` records serves texture copies: D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT. */
const TEXTURE_STAGING_ALIGNMENT = 512
/** Pend.Meta of a released FastConstantAllocator page (a buddy block of the model's own, no slot). */
const CONSTANT_PAGE_META = pendMeta(Loc.Buddy, ROW_FAST_CONSTANT_PAGE, HEAP_INDEX.UPLOAD, false)

export class D3D12Model {
  readonly config: ModelConfig
  /** Running totals per placement row and per heap (see totals.ts); read them at any time without allocating. */
  totals: Totals

  private sink: ModelSink
  private residency: ResidencyManager
  private transients: TransientAllocator
  private readonly tier: 1 | 2
  private readonly budgetStart: Bytes
  private readonly hasUseRecords: boolean
  private readonly placements: boolean
  private gpuMode: number

  private blocks: BlockTable
  private allocs: Allocations
  private live: IdMap
  private families: PoolFamily[]
  /** The defrag candidates and targets of the defragmenting families, kept as blocks come and go. */
  private defragSearch: DefragSearch
  /** What defragFrame asks of this model; each copy makes its own. */
  private defragMoves: DefragMoves
  private buddies: BuddyFamily[]
  private poolById: PoolRegistry
  /** Residency object of each memory pool in service, by pool id (NONE otherwise): `use` reads it per id. */
  private poolObjects: PoolObjects
  /** What each line of `use` ids resolved to (useLine); each copy starts its own. */
  private useCache = new UseCache()
  private fast: FastAllocatorPages
  /** The FastConstantAllocator's current page: its buddy pool's id (NONE when there is none) and its start there. */
  private constantPool = NONE
  private constantBase: Bytes = 0
  /** The slot of staging copies in big-block pools (see bigStagingSlot), NONE before the first. */
  private bigStaging = NONE
  private constantOffset: Bytes = 0
  /** The config's upload bounds, read once: the config is an object of many string keys, slower to read. */
  private readonly smallUploadMax: Bytes
  private readonly bigUploadMax: Bytes
  private readonly constantPage: Bytes

  private frame: Frame = 0
  private started = false
  /** finishFrame() ran for the current frame. */
  private frameFinished = false
  private completed: Frame = -1
  private nextPoolId = 0
  private nextObjectId = 0

  /** Releases waiting for the GPU, oldest first. */
  private pending = new PendingQueue()

  private graphOpen = false
  private graphTransients: PendingTransient[] = []
  private transientHeapBytes: Map<number, Bytes>

  private readonly trace = new RouteTrace()
  /**
   * What the last create was, for explainLastCreate: Kind.Buffer (its request is `request`), Kind.Texture (its
   * geometry is `geometry`) or LAST_TEXTURE_BY_KEY (a texture decided by its desc's number, lastTextureForm).
   */
  private lastCreate = 0
  private lastTextureForm = 0
  /** Texture decisions by desc: append-only, shared by the model and its clones like the desc identities. */
  private readonly textureDecisions = new TextureDecisions()
  /** Buffer decisions by form and span of sizes: append-only, shared by the model and its clones (one config). */
  private readonly bufferDecisions: BufferDecisions
  private readonly result: ModelPlacement
  private readonly bufferDecision = newBufferDecision()
  private readonly textureDecision = newTextureDecision()
  private readonly geometry: TextureGeometry = newGeometry()
  private readonly textureLayout: TransientTextureLayout = { size: 0, alignment: 0, resourceAlignment: 0 }
  private readonly request: BufferRequest = {
    size: 0,
    usage: 0,
    stride: 0,
    state: 'default',
    readback: false,
    scratch: false,
  }
  private readonly info: PlacementInfo = {
    id: 0,
    placement: 'Committed',
    heap: 'DEFAULT',
    pool: -1,
    offset: 0,
    size: 0,
    requested: 0,
    alignment: 0,
    slot: 0,
  }
  /**
   * Transient desc identities, buffers and textures apart (their placed resources are cached apart), names by
   * number. Append-only and never renumbered, so the model and its clones share them: equal descs get equal
   * numbers in every copy.
   */
  private readonly bufferDescs = new DescIds(3)
  private readonly textureDescs = new DescIds(9)
  private readonly descNames = new Map<string, number>()
  private readonly transientForms = new TransientForms()
  /** Residency labels of live reserved resources, by object: registered only while tiles are committed. */
  private reservedLabels = new Map<number, string>()
  private poolScratch: MemoryPool | null = null
  /** A chained checkpoint's pools that are the checkpoint before's own copies, unchanged since (see clone's `since`). */
  private keptPools: Set<MemoryPool> | null = null
  private blockScratch = NONE

  constructor(config: ModelConfig, options: D3D12ModelOptions = {}, sink: ModelSink = {}) {
    this.config = config
    this.sink = sink
    // Frames and byte offsets: doubles from the start (model/doubles.ts; private fields, so set here).
    this.frame = this.completed = this.constantBase = this.constantOffset = 0.5
    this.frame = this.constantBase = this.constantOffset = 0
    this.completed = -1
    this.bufferDecisions = new BufferDecisions(config)
    this.smallUploadMax = config['upload.smallBlock.maxAllocation']
    this.bigUploadMax = config['upload.bigBlock.maxAllocation']
    this.constantPage = config['fastConstant.pageSize']
    const tier = options.adapter?.resourceHeapTier
    this.tier = tier === 1 || tier === 2 ? tier : config.resourceHeapTier === 1 ? 1 : 2
    this.budgetStart = options.budget ?? Number.MAX_SAFE_INTEGER
    this.hasUseRecords = options.hasUseRecords ?? false
    this.placements = options.placements ?? true
    const explicit = options.explicitGpuFences ?? false
    this.gpuMode = explicit === 'auto' ? GpuMode.Auto : explicit ? GpuMode.Explicit : GpuMode.Implicit
    this.totals = new Totals()
    this.blocks = new BlockTable()
    this.allocs = new Allocations()
    this.live = new IdMap()
    this.families = familySpecs(config).map((s) => new PoolFamily(s))
    this.defragSearch = new DefragSearch(this.families)
    this.defragMoves = this.newDefragMoves()
    this.buddies = buddySpecs(config).map((s) => new BuddyFamily(s))
    this.poolById = new PoolRegistry()
    this.poolObjects = new PoolObjects()
    this.fast = new FastAllocatorPages(config['fastAllocator.pageSize'])
    this.transientHeapBytes = new Map()
    this.result = new ModelPlacement(this.trace)
    this.residency = new ResidencyManager(
      {
        enabled: config['residency.enabled'] === 1,
        startResident: config['residency.startResident'] === 1,
        budget: this.budgetStart,
        usedWhenHeld: !this.hasUseRecords,
      },
      sink,
    )
    this.transients = new TransientAllocator(
      {
        minimumHeapSize: config['transient.minimumHeapSize'],
        gcLatency: config['transient.gcLatency'],
        resourceHeapTier: this.tier,
      },
      this.transientSink(),
      this.residency,
      () => this.nextObjectId++,
    )
  }


  /** Frame `n` begins: the previous frame ends (residency, pool clean-up, defrag), then frames may complete. */
  beginFrame(n: Frame): void {
    if (n <= this.frame) {
      if (n === this.frame && !this.started) {
        this.started = true
        return
      }
      this.sink.warning?.('frameNotIncreasing', `frame ${n} does not follow frame ${this.frame}`, this.frame)
      return
    }
    if (!this.frameFinished) this.endOfFrame(this.frame)
    this.frameFinished = false
    this.frame = n
    this.started = true
    if (this.gpuMode !== GpuMode.Explicit) this.advanceCompleted(n - this.config.framesInFlight)
  }

  /** The GPU finished frame `n` (a `gpu` record). */
  gpuDone(n: Frame): void {
    if (this.gpuMode === GpuMode.Auto) this.gpuMode = GpuMode.Explicit
    this.advanceCompleted(n)
  }

  /**
   * The current frame's work is done: residency settles, empty pools age out, defrag runs. The analysis calls it
   * to read a frame's totals before the next frame begins; otherwise beginFrame does it.
   */
  finishFrame(): void {
    if (this.frameFinished) return
    this.endOfFrame(this.frame)
    this.frameFinished = true
  }

  /** The capture ends: the last frame's residency is settled. */
  endCapture(): void {
    if (this.frameFinished) return
    this.residency.endFrame(this.frame)
  }

  currentFrame(): Frame {
    return this.frame
  }

  /** The last frame the GPU finished (-1 before any). */
  completedFrame(): Frame {
    return this.completed
  }


  createBuffer(id: number, desc: BufferDesc): ModelPlacement {
    const size = this.validSize(desc.size, id)
    if (this.live.has(id)) this.replaceLive(id)
    const req = this.request
    req.size = size
    req.usage = usageMask(desc.usage)
    req.stride = desc.stride !== undefined && desc.stride > 0 ? Math.floor(desc.stride) : 0
    req.state = stateMode(desc.state)
    req.readback = desc.heap === 'readback'
    // Whether it is a scratch buffer counts only for a committed one past the gates: worked out there, below.
    req.scratch = false
    decideBuffer(req, this.config, null, this.bufferDecision)
    this.lastCreate = Kind.Buffer
    return this.placeBuffer(id, desc.init === true, desc)
  }

  /**
   * A buffer create whose desc has form `form` (what bufferFormOfLast() gave after a create of a desc equal but for
   * its size, init, name and tag, in this model or a copy: see createFormsKey), with its size and init flag. Its
   * decision comes from the form's for the size's span (BufferDecisions). `named`'s name and tag are read only
   * for a committed or reserved buffer.
   */
  createBufferForm(id: number, form: number, size: Bytes, init: boolean, named: Named): ModelPlacement {
    const valid = this.validSize(size, id)
    if (this.live.has(id)) this.replaceLive(id)
    const req = this.bufferDecisions.requestOf(form, this.request)
    req.size = valid
    this.bufferDecisions.decide(form, req, this.config, this.bufferDecision)
    this.lastCreate = Kind.Buffer
    return this.placeBuffer(id, init, named)
  }

  /** The form of the last create's desc (its size, init, name and tag aside) when it was a buffer, else -1. */
  bufferFormOfLast(): number {
    return this.lastCreate === Kind.Buffer ? this.bufferDecisions.formOf(this.request) : -1
  }

  /** What bufferFormOfLast() and textureFormOfLast() numbers belong to: the same object for a model and its copies. */
  createFormsKey(): object {
    return this.bufferDecisions
  }

  /** The buffer of this.request and this.bufferDecision placed, its initial data staged. */
  private placeBuffer(id: number, init: boolean, named: Named): ModelPlacement {
    const req = this.request
    const size = req.size
    const d = this.bufferDecision
    const a = this.allocs
    const slot = a.alloc()
    a.id[slot] = id
    a.kind[slot] = Kind.Buffer
    a.state[slot] = SlotState.Live
    a.placement[slot] = d.placement
    a.heap[slot] = d.heap
    a.requested[slot] = size
    a.alignment[slot] = d.alignment
    a.created[slot] = this.frame
    if (d.width === 0) {
      this.placeNothing(slot)
    } else if (d.target === Target.Pool) {
      this.placeInFamily(slot, d.family, d.width, d.alignment)
    } else if (d.target === Target.UploadSmall) {
      this.placeInBuddy(slot, Buddy.SmallBlock, d.width, d.alignment)
    } else if (d.target === Target.Committed) {
      const high = d.highPriority || (d.gated && isScratch(req.usage, named))
      const priority: ResidencyPriority = high ? 'high' : 'normal'
      if (high) a.flags[slot] |= SlotFlag.HighPriority
      this.placeCommitted(slot, roundUp(d.width, TILE), priority, named.name)
    } else {
      this.placeReserved(slot, roundUp(d.width, TILE), 0, named.name)
    }
    this.live.set(id, slot)
    this.useCache.changed(id)
    this.holdResidency(slot, true)
    if (init && d.heap !== HEAP_INDEX.UPLOAD && d.target !== Target.Reserved && d.width > 0) {
      // Initial data: the block stays locked until the GPU finished the copy, and the copy needs staging.
      a.lockFrame[slot] = this.frame
      this.staging(d.width, STAGING_ALIGNMENT)
    }
    return this.emitPlaced(slot)
  }


  createTexture(id: number, desc: TextureDesc): ModelPlacement {
    if (this.live.has(id)) this.replaceLive(id)
    const d = this.textureDecision
    const form = this.textureDecisions.decide(desc, this.config, d)
    if (form >= 0) {
      this.lastTextureForm = form
      this.lastCreate = LAST_TEXTURE_BY_KEY
    } else {
      decideTexture(readGeometry(desc, this.geometry), this.config, null, d)
      this.lastCreate = Kind.Texture
    }
    return this.placeTexture(id, d, desc)
  }

  /**
   * A texture create whose desc has decision number `form`: the number textureFormOfLast() gave after a create of
   * an equal desc (name and tag aside) in this model or a copy (see createFormsKey). Only `named.name` is read,
   * and only for a committed or reserved texture.
   */
  createTextureForm(id: number, form: number, named: Named): ModelPlacement {
    if (this.live.has(id)) this.replaceLive(id)
    const d = this.textureDecision
    this.textureDecisions.decisionOf(form, d)
    this.lastTextureForm = form
    this.lastCreate = LAST_TEXTURE_BY_KEY
    return this.placeTexture(id, d, named)
  }

  /** The decision number of the last create's desc when it was a texture decided by its desc, else -1. */
  textureFormOfLast(): number {
    return this.lastCreate === LAST_TEXTURE_BY_KEY ? this.lastTextureForm : -1
  }

  private placeTexture(id: number, d: TextureDecision, named: Named): ModelPlacement {
    const a = this.allocs
    const slot = a.alloc()
    a.id[slot] = id
    a.kind[slot] = Kind.Texture
    a.state[slot] = SlotState.Live
    a.placement[slot] = d.placement
    a.heap[slot] = d.heap
    a.requested[slot] = d.requested
    a.alignment[slot] = d.alignment
    a.created[slot] = this.frame
    if (d.estimated) a.flags[slot] |= SlotFlag.Estimated
    if (d.target === Target.Pool) this.placeInFamily(slot, d.family, d.requested, d.alignment)
    else if (d.target === Target.Committed) this.placeCommitted(slot, d.size, 'normal', named.name)
    else this.placeReserved(slot, d.size, d.committed, named.name)
    this.live.set(id, slot)
    this.useCache.changed(id)
    this.holdResidency(slot, true)
    return this.emitPlaced(slot)
  }


  /**
   * The ladder steps of the last create into `trace`, worked out again from the request it kept (its result
   * reads them only when asked: see ModelPlacement.explainer). Valid until the next create or transient.
   */
  explainLastCreate(trace: RouteTrace): void {
    trace.reset()
    if (this.lastCreate === Kind.Buffer) {
      const d = newBufferDecision()
      decideBuffer(this.request, this.config, trace, d)
      if (d.width === 0) trace.push(Step.ZeroSize)
    } else if (this.lastCreate === Kind.Texture) {
      decideTexture(this.geometry, this.config, trace, newTextureDecision())
    } else if (this.lastCreate === LAST_TEXTURE_BY_KEY) {
      const desc = this.textureDecisions.descOf(this.lastTextureForm, {})
      decideTexture(readGeometry(desc, newGeometry()), this.config, trace, newTextureDecision())
    }
  }

  /** The resource is released: its bytes are pending until the GPU finished this frame. */
  release(id: number): void {
    const slot = this.live.get(id)
    if (slot === undefined) {
      this.sink.warning?.('releaseOfUnknownId', `release of ${id}, which is not live`, this.frame)
      return
    }
    this.live.delete(id)
    this.useCache.changed(id)
    this.holdResidency(slot, false)
    this.releaseSlot(slot, id, true)
    this.sink.releasePending?.(id, this.frame, slot)
  }

  /**
   * Reads ahead, changing nothing, what releasing `ids[0..n)` one after another will read first: each id's slot,
   * the slot's columns and its pool. Called before a run of releases, it lets their cache misses overlap instead of
   * coming one release after another. `slots` gets each id's slot (NONE for an id not live), for the caller's own
   * rows of them.
   */
  warmReleases(ids: Float64Array, n: number, slots: Int32Array): void {
    const live = this.live
    for (let k = 0; k < n; k++) slots[k] = live.get(ids[k]) ?? NONE
    const a = this.allocs
    let sum = 0
    for (let k = 0; k < n; k++) {
      const s = slots[k]
      if (s !== NONE) sum += a.loc[s] + a.placement[s] + a.heap[s] + a.pool[s] + a.block[s] + a.size[s] + a.requested[s]
    }
    for (let k = 0; k < n; k++) {
      const s = slots[k]
      if (s === NONE) continue
      const loc = a.loc[s]
      const pool = loc === Loc.Pool || loc === Loc.Buddy ? this.poolById.get(a.pool[s]) : undefined
      if (pool !== undefined) sum += pool.pending
    }
    warmth[0] = sum
  }

  /** A reserved resource now has `bytes` committed, in whole 64 KiB tiles, never beyond its virtual size. */
  commit(id: number, bytes: Bytes): void {
    const slot = this.live.get(id)
    const a = this.allocs
    if (slot === undefined || a.loc[slot] !== Loc.Reserved) {
      this.sink.warning?.('commitNotReserved', `commit for ${id}, which is not a live reserved resource`, this.frame)
      return
    }
    let asked = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
    const virtualSize = a.size[slot]
    if (asked > virtualSize) {
      this.sink.warning?.(
        'reservedGrow',
        `reserved resource ${id} cannot grow beyond its creation size ${virtualSize}: commit of ${bytes} clamped`,
        this.frame,
      )
      asked = virtualSize
    }
    const target = roundUp(asked, TILE)
    const before = a.committed[slot]
    const beforeAsked = a.commitRequested[slot]
    this.totals.add(PLACEMENT_INDEX.Reserved, HEAP_INDEX.DEFAULT, TOTAL_FIELD.Heap, target - before)
    this.totals.add(PLACEMENT_INDEX.Reserved, HEAP_INDEX.DEFAULT, TOTAL_FIELD.Occupied, target - before)
    this.totals.add(PLACEMENT_INDEX.Reserved, HEAP_INDEX.DEFAULT, TOTAL_FIELD.Requested, asked - beforeAsked)
    this.totals.add(PLACEMENT_INDEX.Reserved, HEAP_INDEX.DEFAULT, TOTAL_FIELD.Waste, target - before - (asked - beforeAsked))
    a.committed[slot] = target
    a.commitRequested[slot] = asked
    this.useCache.changed(id)
    this.commitBacking(slot, before, target)
  }

  /**
   * A CPU write lock. A dynamic buffer is renamed: a new location from the upload allocator, the old one released.
   * A texture takes staging from the FastAllocator; any other buffer from the UploadHeapAllocator.
   */
  lock(id: number, bytes: Bytes): void {
    const slot = this.live.get(id)
    if (slot === undefined) {
      this.sink.warning?.('lockOfUnknownId', `lock of ${id}, which is not live`, this.frame)
      return
    }
    const a = this.allocs
    const size = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
    if (a.kind[slot] === Kind.Texture) this.fastUpload(size, 1)
    else if (a.heap[slot] === HEAP_INDEX.UPLOAD && a.loc[slot] !== Loc.None) this.rename(slot)
    else this.staging(size, STAGING_ALIGNMENT)
  }


  /** `count` allocations totalling `bytes` from a per-frame allocator. */
  upload(via: UploadVia, bytes: Bytes, count = 1): void {
    if (!(bytes > 0)) return
    const n = Math.max(1, Math.floor(Number.isFinite(count) ? count : 1))
    const small = Math.floor(bytes / n)
    const rest = bytes - small * n
    // `rest` allocations of small + 1 bytes, then n − rest of `small` bytes: exactly `bytes` in `n` allocations.
    this.uploadSome(via, small + 1, rest)
    this.uploadSome(via, small, n - rest)
  }

  private uploadSome(via: UploadVia, size: Bytes, count: number): void {
    if (size <= 0 || count <= 0) return
    if (via === 'fast') this.fastUpload(size, count)
    else if (via === 'fastConstant') this.constantUpload(size, count)
    else for (let i = 0; i < count; i++) this.staging(size, TEXTURE_STAGING_ALIGNMENT)
  }


  /**
   * GPU work of this frame referenced the resources `ids[from, from + count)`, line `line` of a caller's lines (a
   * line number names one list of ids, read from one array, for the model's life): what use() does, from what the
   * line's ids resolved to when it was last named, unless one of them changed since (see useCache.ts).
   */
  useLine(line: number, ids: Float64Array, from: number, count: number): void {
    const cache = this.useCache
    let n = cache.objectsOf(line, ids, from, count)
    if (n < 0) n = this.resolveLine(line, ids, from, count)
    const objects = cache.objects
    const counts = cache.counts
    const residency = this.residency
    for (let k = from; k < from + n; k++) residency.markUsedBy(objects[k], counts[k])
  }

  /** A line's objects worked out from its ids and kept (useLine); returns how many. */
  private resolveLine(line: number, ids: Float64Array, from: number, count: number): number {
    const cache = this.useCache
    cache.prepare(line, ids)
    const { objects, counts } = cache
    if (lineObjects.length < this.nextObjectId) lineObjects = new Int32Array(Math.max(this.nextObjectId, 2 * lineObjects.length))
    const placeOf = lineObjects
    let n = 0
    let stamped = true
    let top = -1
    for (let k = from; k < from + count; k++) {
      const id = ids[k]
      if (!(Number.isInteger(id) && id >= 0 && id < STAMPED_IDS)) stamped = false
      else if (id > top) top = id
      const slot = this.live.get(id)
      if (slot === undefined) continue
      const object = this.residencyObjectOf(slot)
      if (object < 0) continue
      const at = placeOf[object]
      if (at === 0) {
        placeOf[object] = from + n + 1
        objects[from + n] = object
        counts[from + n] = 1
        n++
      } else counts[at - 1]++
    }
    for (let k = from; k < from + n; k++) placeOf[objects[k]] = 0
    cache.keep(line, from, count, n, stamped && cache.covers(top, this.live.size))
    return n
  }

  /** GPU work of this frame referenced these resources. */
  use(ids: readonly number[]): void {
    // In passes: every id's slot, then every slot's object, then the marks. Each pass's look-ups do not wait on one
    // another, so their cache misses overlap.
    const n = ids.length
    if (useScratch.length < n) useScratch = new Int32Array(Math.max(n, useScratch.length * 2))
    const found = useScratch
    for (let i = 0; i < n; i++) found[i] = this.live.get(ids[i]) ?? NONE
    for (let i = 0; i < n; i++) if (found[i] !== NONE) found[i] = this.residencyObjectOf(found[i])
    // Resources of one pool often follow each other: their object, once marked, needs no second mark.
    let marked = NONE
    for (let i = 0; i < n; i++) {
      const object = found[i]
      if (object >= 0 && object !== marked && this.residency.markUsed(object)) marked = object
    }
  }

  setBudget(bytes: Bytes): void {
    this.residency.setBudget(bytes)
  }

  residencyManager(): ResidencyManager {
    return this.residency
  }

  transientAllocator(): TransientAllocator {
    return this.transients
  }


  beginGraph(name: string): void {
    this.transients.beginGraph(name, this.frame)
    this.graphOpen = true
    if (this.graphTransients.length > 0) this.graphTransients = []
  }

  /**
   * A transient of the open graph; it is placed at endGraph. Returns the number of its form (what the model
   * derives from its desc), which transientForm() takes for another transient of an equal desc, or -1 (a desc
   * that warns, outside a graph).
   */
  transient(record: TransientRecord): number {
    if (!this.graphOpen) {
      this.sink.warning?.('transientOutsideGraph', `transient ${record.id} outside a graph`, this.frame)
      return -1
    }
    const forms = this.transientForms
    // The desc as the capture gives it; what the model derives from it is worked out once per such form.
    const raw = forms.ids.fields
    let valid = true
    if (record.kind === 'buffer') {
      valid = Number.isFinite(record.size) && record.size >= 0
      raw[0] = 0
      raw[1] = record.size
      raw[2] = usageMask(record.usage)
      raw[3] = record.stride ?? 0
      raw.fill(0, 4)
    } else {
      raw[0] = 1
      raw[1] = this.descName(record.format ?? '')
      raw[2] = this.descName(record.dim ?? '2d')
      raw[3] = record.width ?? NaN
      raw[4] = record.height ?? NaN
      raw[5] = record.depth ?? NaN
      raw[6] = record.mips ?? NaN
      raw[7] = record.samples ?? NaN
      raw[8] = textureFlagMask(record.flags)
      raw[9] = record.size ?? NaN
      raw[10] = record.align ?? NaN
    }
    const form = forms.ids.id()
    if (form === forms.count) {
      if (record.kind === 'buffer') this.deriveBufferForm(record, form)
      else this.deriveTextureForm(record, form)
    } else if (!valid && record.kind === 'buffer') {
      // The size warns each time, as it did the first.
      this.validSize(record.size, record.id)
    }
    this.addTransient(form, record.id, record.first, record.last, record.name)
    return valid ? form : -1
  }

  /** A transient whose desc has the form `form`, a number transient() returned for this model or a copy of it. */
  transientForm(form: number, id: number, first: number, last: number, name: string | undefined): void {
    if (!this.graphOpen) {
      this.sink.warning?.('transientOutsideGraph', `transient ${id} outside a graph`, this.frame)
      return
    }
    this.addTransient(form, id, first, last, name)
  }

  /** What transient() form numbers belong to: the same object for a model and its copies. */
  transientFormsKey(): object {
    return this.transientForms
  }

  private addTransient(form: number, id: number, first: number, last: number, name: string | undefined): void {
    const forms = this.transientForms
    const bits = forms.bits[form]
    const buffer = (bits & FormBit.Buffer) !== 0
    const size = forms.size[form]
    const alignment = forms.alignment[form]
    const kind = buffer ? BUFFERS : (bits & FormBit.RenderTarget) !== 0 ? RENDER_TARGETS : TEXTURES
    this.transients.addRequest(id, kind, (bits & FormBit.Msaa) !== 0, size, alignment, first, last, forms.desc[form], name)
    if (!this.placements) return
    const trace = new RouteTrace(4)
    trace.push(Step.Transient, 1)
    const estimated = (bits & FormBit.Estimated) !== 0
    if (buffer) trace.push(Step.TransientBuffer, size)
    else trace.push(Step.TransientTexture, alignment, forms.resourceAlignment[form], size, estimated ? 1 : 0)
    this.graphTransients.push({ id, size, alignment, estimated, trace })
  }

  /** A transient buffer form seen for the first time: 64 KiB aligned, its desc identity. */
  private deriveBufferForm(record: TransientRecord & { kind: 'buffer' }, form: number): void {
    const width = roundUp(this.validSize(record.size, record.id), 16)
    const size = roundUp(width, TILE)
    // The fields that make two placed buffers interchangeable.
    const key = this.bufferDescs.fields
    key[0] = size
    key[1] = usageMask(record.usage)
    key[2] = record.stride ?? 0
    this.transientForms.add(form, size, TILE, 0, FormBit.Buffer, this.bufferDescs.id())
  }

  /** A transient texture form seen for the first time: its layout, kind bits and desc identity. */
  private deriveTextureForm(record: TextureDesc, form: number): void {
    const g = readGeometry(record, this.geometry)
    const layout = transientTextureLayout(g, this.textureLayout)
    const key = this.textureDescs.fields
    key[0] = this.descName(record.format ?? '')
    key[1] = this.descName(g.dim)
    key[2] = g.width
    key[3] = g.height
    key[4] = g.depth
    key[5] = g.slices
    key[6] = g.mips
    key[7] = g.samples
    key[8] = g.flags
    const bits =
      (isRenderTarget(g) ? FormBit.RenderTarget : 0) |
      (g.samples > 1 ? FormBit.Msaa : 0) |
      (g.driverSize === 0 ? FormBit.Estimated : 0)
    const desc = this.textureDescs.id()
    this.transientForms.add(form, layout.size, layout.alignment, layout.resourceAlignment, bits, desc)
  }

  /** A number for a format or dimension name in a desc identity. */
  private descName(name: string): number {
    let id = this.descNames.get(name)
    if (id === undefined) this.descNames.set(name, (id = this.descNames.size))
    return id
  }

  /** The graph ends: its transients are placed, in the order they were added. */
  endGraph(passes: number): ModelPlacement[] {
    const infos = this.transients.endGraph(passes, this.frame, this.placements)
    const pending = this.graphTransients
    this.graphOpen = false
    if (!this.placements) return []
    this.graphTransients = []
    const out: ModelPlacement[] = []
    for (let i = 0; i < infos.length; i++) {
      const info = infos[i]
      const t = pending[i]
      const p = new ModelPlacement(t ? t.trace : new RouteTrace(1))
      p.id = info.id
      p.placement = 'Transient'
      p.heap = 'DEFAULT'
      p.pool = -1
      p.poolName = `DEFAULT/TransientHeap/${info.heap}`
      p.offset = info.offset
      p.size = info.size
      p.requested = t ? t.size : info.size
      p.alignment = t ? t.alignment : TILE
      p.estimated = t ? t.estimated : false
      out.push(p)
    }
    return out
  }


  /** Live buffers and textures, by creation frame, then id. */
  liveAllocations(): AllocationView[] {
    return liveAllocations(this.tables())
  }


  /** How many resources are live: the rows of liveTable(). */
  liveCount(): number {
    return this.live.size
  }

  /** The live resources counted by placement, the reserved ones' bytes summed (views.ts, livePlacements). */
  livePlacements(): LivePlacements {
    return livePlacements(this.tables())
  }


  /** What liveAllocations() lists, as columns: a table of thousands of rows without an object per row. */
  /** The live resources as columns (views.ts liveTable), taken from `pool` where one is given. */
  liveTable(pool?: RecycledColumns): LiveTable {
    return liveTable(this.tables(), pool)
  }


  /** The slot of a live resource (PlacementInfo.slot, LiveTable.slot); undefined when `id` is not live. */
  slotOf(id: number): number | undefined {
    return this.live.get(id)
  }

  /**
   * One live resource as liveTable() lists it: where it is, the bytes it occupies (a reserved resource's committed
   * bytes, its virtual size apart) and the bytes asked for them; undefined when `id` is not live.
   */
  liveRow(id: number): LiveRow | undefined {
    return liveRow(this.tables(), id)
  }


  /**
   * The residency object that holds a live resource's memory (its own, or its pool's), as the manager sees it now;
   * undefined when residency is not modelled (`residency.enabled` 0).
   */
  residencyOf(id: number): ResidencyObjectInfo | undefined {
    const slot = this.live.get(id)
    if (slot === undefined || this.config['residency.enabled'] !== 1) return undefined
    const object = this.residencyObjectOf(slot)
    return object < 0 ? undefined : this.residency.objectInfo(object)
  }

  allocation(id: number): AllocationView | undefined {
    const slot = this.live.get(id)
    return slot === undefined ? undefined : allocationView(this.tables(), slot)
  }

  /** Every pool with its blocks: memory pools, spares, buddy pools and FastAllocator pages. */
  pools(): PoolView[] {
    return poolViews(this.poolBlocks())
  }


  /** What pools() lists, each pool's blocks as columns (see PoolBlocks); `blocks` false: the columns empty. */
  poolBlocks(blocks = true): PoolBlocks[] {
    return blocks ? poolBlocks(this.tables()) : poolSummaries(this.tables())
  }

  /** The tables the views read. */
  private tables(): ModelTables {
    return {
      allocs: this.allocs,
      blocks: this.blocks,
      live: this.live,
      families: this.families,
      buddies: this.buddies,
      pools: this.poolById,
      fast: this.fast,
      completed: this.completed,
      pending: this.pending,
      constantPool: this.constantPool,
      constantBase: this.constantBase,
    }
  }


  /**
   * Bytes the model's typed arrays hold (its tables: allocations, blocks, ids, pools, residency, transients), an
   * estimate of its memory that leaves out small objects and what it shares with its copies.
   */
  byteSize(): number {
    return retainedBytes(this, this.sharedWithCopies())
  }

  /**
   * byteSize() by the model's fields, in their order (a part reached through two fields counts in the first):
   * where a checkpoint's bytes go (bench/tools/checkpoints.ts).
   */
  byteSizeByPart(): Record<string, number> {
    // the model itself seen, as byteSize's walk starts from it: a part that points back to it does not count it
    const seen = this.sharedWithCopies().add(this)
    const self = this as unknown as Record<string, unknown>
    const parts: Record<string, number> = {}
    for (const key of Object.keys(self)) parts[key] = retainedBytes(self[key], seen)
    return parts
  }

  /** What byteSize leaves out: what every copy shares, and a chained checkpoint's parts that count in the one before. */
  private sharedWithCopies(): Set<unknown> {
    const shared = new Set<unknown>([
      this.config,
      this.bufferDescs,
      this.textureDescs,
      this.transientForms,
      this.textureDecisions,
      this.bufferDecisions,
      this.sink,
    ])
    // A checkpoint's copies chained to the checkpoint before count only their own rows, and its pools kept from
    // that one count there; a kept pool's family (its watcher) is the newest checkpoint's that holds it.
    for (const table of [this.allocs, this.blocks, this.live]) if (table.copy !== null) shared.add(table.copy.previous).add(table.copy.shape)
    for (const pool of this.keptPools ?? []) shared.add(pool)
    for (const family of this.families) for (const pool of family.slots) if (pool !== null && !this.families.includes(pool.watcher as PoolFamily)) shared.add(pool.watcher)
    return shared
  }

  /**
   * A copy to keep (a checkpoint), and what the next checkpoint is made against. Without `since`: a packed copy
   * (clone's `packed`). With it: of the allocations, blocks and ids only the rows that differ from the checkpoint
   * before (`since.model`): from the tables as they were then (`since`'s shadows, then brought up to this model's),
   * the rest whole. Its clone continues exactly as a clone of a packed copy made here would.
   */
  checkpoint(sink: ModelSink, since?: CheckpointShadow): { copy: D3D12Model; shadow: CheckpointShadow } {
    if (since === undefined) {
      const copy = this.clone(sink, { packed: true })
      return { copy, shadow: { model: copy, allocs: this.allocs.shadow(), blocks: this.blocks.shadow(), ids: this.live.shadow() } }
    }
    const copy = this.clone(sink, { packed: true, since })
    since.model = copy
    return { copy, shadow: since }
  }

  /**
   * A checkpoint made against the one before it takes that one's rows in (see RowCopy.absorbPrevious), so that
   * one can go: it is then made against the one before that, or whole.
   */
  absorbPrevious(): void {
    for (const table of [this.allocs, this.blocks, this.live]) table.copy?.absorbPrevious()
    // Its kept pools are its own to count now (the one before may also: counted twice rather than not at all).
    this.keptPools = null
  }

  /** Whether this checkpoint is restored from its own tables alone (a packed copy, or one that absorbed one). */
  isWholeCopy(): boolean {
    return this.allocs.copy?.previous == null && this.blocks.copy?.previous == null && this.live.copy?.previous == null
  }

  /**
   * This model's allocations, blocks and ids, for a RecycledColumns: only where nothing reads this model again (a
   * snapshot state its cache let go). Its tables are left empty.
   */
  letGoTables(): Column[] {
    return [...this.allocs.letGo(), ...this.blocks.letGo(), ...this.live.letGo()]
  }

  /**
   * A deep copy that continues exactly as this model would, sending its events to `sink`. Every table is copied
   * at the size in use, not its capacity. `packed`: a copy to keep and clone later (a checkpoint), holding only
   * the allocations, blocks and ids in use; its own clones are whole again. `pool`: recycled columns the copy's
   * allocations, blocks and ids are taken from (see letGoTables).
   */
  clone(sink: ModelSink, options: { packed?: boolean; since?: CheckpointShadow; pool?: RecycledColumns } = {}): D3D12Model {
    // Made by the constructor, so the copy has the original's shape and the hot paths stay monomorphic.
    const c = new D3D12Model(this.config, {}, sink)
    const self = this as unknown as Record<string, unknown>
    const copy = c as unknown as Record<string, unknown>
    // Plain values and read-only scratch first; every mutable structure below is copied.
    for (const key of Object.keys(self)) copy[key] = self[key]
    c.sink = sink
    c.totals = this.totals.clone()
    const since = options.since
    if (since !== undefined) {
      c.blocks = this.blocks.changedSince(since.blocks, since.model.blocks)
      c.allocs = this.allocs.changedSince(since.allocs, since.model.allocs)
      c.live = this.live.changedSince(since.ids, since.model.live)
    } else {
      c.blocks = options.packed ? this.blocks.packedClone() : this.blocks.clone(options.pool)
      c.allocs = options.packed ? this.allocs.packedClone() : this.allocs.clone(options.pool)
      c.live = options.packed ? this.live.packedClone() : this.live.cloneWith(options.pool)
    }
    c.poolById = new PoolRegistry()
    c.poolObjects = this.poolObjects.clone()
    c.useCache = new UseCache()
    // A chained checkpoint keeps the checkpoint before's copy of a pool unchanged since (checkpoints are only read).
    const before = options.since?.model
    c.keptPools = before !== undefined ? new Set() : null
    const registerPool = (p: MemoryPool): MemoryPool => {
      const kept = before?.poolById.get(p.id)
      const q = kept instanceof MemoryPool && samePool(p, kept) ? kept : p.clone(options.packed)
      if (q === kept) c.keptPools!.add(q)
      c.poolById.set(q.id, q)
      return q
    }
    const registerBuddy = (p: BuddyPool): BuddyPool => {
      const q = p.clone()
      c.poolById.set(q.id, q)
      return q
    }
    c.families = this.families.map((f) => f.clone(registerPool, options.packed))
    // A packed copy is only cloned, and its clones build their own index: it keeps an empty one.
    c.defragSearch = options.packed ? new DefragSearch(c.families) : DefragSearch.rebuild(c.families, c.blocks)
    c.defragMoves = c.newDefragMoves()
    c.buddies = this.buddies.map((f) => f.clone(registerBuddy))
    c.fast = this.fast.clone()
    c.pending = this.pending.clone()
    c.graphTransients = this.graphTransients.map((t) => ({ ...t, trace: t.trace.copy() }))
    c.transientHeapBytes = new Map(this.transientHeapBytes)
    c.reservedLabels = new Map(this.reservedLabels)
    c.poolScratch = null
    const scratch = c as unknown as {
      trace: RouteTrace
      result: ModelPlacement
      bufferDecision: unknown
      textureDecision: unknown
      geometry: unknown
      textureLayout: TransientTextureLayout
      request: unknown
      info: unknown
    }
    scratch.trace = new RouteTrace()
    scratch.result = new ModelPlacement(scratch.trace)
    scratch.bufferDecision = newBufferDecision()
    scratch.textureDecision = newTextureDecision()
    scratch.geometry = newGeometry()
    scratch.textureLayout = { size: 0, alignment: 0, resourceAlignment: 0 }
    scratch.request = { ...this.request }
    scratch.info = { ...this.info }
    c.residency = this.residency.clone(sink, options.packed)
    c.transients = this.transients.clone(c.transientSink(), c.residency, () => c.nextObjectId++)
    return c
  }


  private placeNothing(slot: number): void {
    const a = this.allocs
    a.loc[slot] = Loc.None
    a.size[slot] = 0
    a.offset[slot] = 0
    a.poolAlignment[slot] = a.alignment[slot]
    this.totals.take(a.placement[slot], a.heap[slot], 0, a.requested[slot], false)
  }

  /** Into a pool of `family`: GetAlignedSize / GetAlignedOffset, best (or first) fit, growing the family. */
  private placeInFamily(slot: number, family: number, size: Bytes, alignment: Bytes): void {
    const fam = this.families[family]
    const spec = fam.spec
    const poolAlignment = spec.poolAlignment
    // A placed pool aligns to its own alignment (a multiple of itself: the config keeps it at least 1), so only a
    // shared pool can pad; the test is made once for the size and the offset.
    const allocAlignment = spec.placed ? poolAlignment : alignment
    const padded = !spec.placed && pads(poolAlignment, alignment)
    const blockSize = alignedSize(size, poolAlignment, allocAlignment, padded)
    this.allocateInFamily(fam, blockSize, slot)
    const pool = this.poolScratch!
    const block = this.blockScratch
    const start = pool.allocatedOffset
    const a = this.allocs
    a.loc[slot] = Loc.Pool
    a.pool[slot] = pool.id
    a.block[slot] = block
    a.offset[slot] = alignedOffset(start, poolAlignment, allocAlignment, padded)
    a.size[slot] = blockSize
    a.poolAlignment[slot] = allocAlignment
    this.totals.take(spec.row, spec.heap, blockSize, a.requested[slot], true)
    this.defragSearch.touch(pool)
  }

  private allocateInFamily(fam: PoolFamily, size: Bytes, owner: number): void {
    const found = fam.firstWithRoom(this.blocks, size)
    if (found !== null) {
      const block = found.tryAllocate(this.blocks, size, owner)
      if (block === NONE) throw new Error(`${found.name}: a free block of ${found.largestFree()} cannot hold ${size}`)
      this.poolScratch = found
      this.blockScratch = block
      return
    }
    const pool = this.growFamily(fam, size)
    const block = pool.tryAllocate(this.blocks, size, owner)
    if (block === NONE) throw new Error(`${pool.name}: a new pool of ${pool.size} cannot hold ${size}`)
    this.poolScratch = pool
    this.blockScratch = block
  }

  /**
   * A new pool for a request that fits no existing one. Larger than the pool size: roundUpPow2(size) capped at
   * the max allocation, made at once. Otherwise async families take their spare and make the next one ahead;
   * the others create the pool at once.
   */
  private growFamily(fam: PoolFamily, size: Bytes): MemoryPool {
    const spec = fam.spec
    if (size > spec.poolSize) {
      const poolSize = Math.max(roundUp(size, spec.poolAlignment), Math.min(roundUpPow2(size), spec.maxAllocation))
      return this.activatePool(fam, this.newPool(fam, poolSize))
    }
    if (!spec.async) return this.activatePool(fam, this.newPool(fam, spec.poolSize))
    const taken = fam.spare ?? this.newPool(fam, spec.poolSize)
    fam.spare = null
    this.activatePool(fam, taken)
    const spare = this.newPool(fam, spec.poolSize)
    spare.spare = true
    fam.spare = spare
    return taken
  }

  private newPool(fam: PoolFamily, size: Bytes): MemoryPool {
    const spec = fam.spec
    const pool = new MemoryPool(this.nextPoolId++, size, spec.poolAlignment, spec.order, this.frame, this.blocks)
    this.poolById.set(pool.id, pool)
    this.totals.pool(spec.row, spec.heap, size)
    return pool
  }

  /** A pool enters service: it gets its slot (and name), its residency object, and is announced. */
  private activatePool(fam: PoolFamily, pool: MemoryPool): MemoryPool {
    const spec = fam.spec
    const slot = fam.takeSlot()
    fam.setSlot(slot, pool)
    pool.slot = slot
    pool.name = `${spec.name}/${slot}`
    pool.spare = false
    pool.lastUsedFrame = this.frame
    if (spec.heap === HEAP_INDEX.DEFAULT) {
      pool.object = this.nextObjectId++
      this.poolObjects.set(pool.id, pool.object)
      this.residency.addObject(pool.object, pool.size, spec.priority, pool.name, this.frame)
    }
    const info = { pool: pool.id, name: pool.name, placement: PLACEMENTS[spec.row], heap: HEAP_TYPES[spec.heap] }
    this.sink.poolCreated?.({ ...info, bytes: pool.size }, this.frame)
    this.defragSearch.add(spec.index, pool)
    return pool
  }

  private destroyPool(fam: PoolFamily, pool: MemoryPool): void {
    const spec = fam.spec
    this.defragSearch.remove(pool)
    fam.setSlot(pool.slot, null)
    pool.dispose(this.blocks)
    this.poolById.delete(pool.id)
    this.poolObjects.set(pool.id, NONE)
    this.totals.pool(spec.row, spec.heap, -pool.size)
    if (pool.object !== NONE) this.residency.removeObject(pool.object, this.frame)
    this.sink.poolDestroyed?.(pool.id, this.frame)
  }

  /** Into a buddy pool: the smallest block holding the request (plus its alignment, if minBlock is not a multiple). */
  private placeInBuddy(slot: number, buddy: number, size: Bytes, alignment: Bytes): void {
    const fam = this.buddies[buddy]
    const spec = fam.spec
    const pad = spec.minBlock % alignment !== 0 ? alignment : 0
    const order = fam.orderFor(size + pad)
    if (order === NONE) {
      // Larger than a whole buddy pool (only with an odd config): the big-block allocator takes it.
      this.allocs.placement[slot] = PLACEMENT_INDEX.UploadBigBlock
      this.placeInFamily(slot, Family.UploadBigBlock, size, alignment)
      return
    }
    const pool = fam.firstFor(order) ?? this.growBuddy(fam)
    const base = pool.allocate(order)
    const blockBytes = fam.blockBytes(order)
    const a = this.allocs
    a.loc[slot] = Loc.Buddy
    a.pool[slot] = pool.id
    a.block[slot] = order
    a.base[slot] = base
    a.offset[slot] = pad ? roundUp(base, alignment) : base
    a.size[slot] = blockBytes
    a.poolAlignment[slot] = pad ? alignment : spec.minBlock
    this.totals.take(spec.row, spec.heap, blockBytes, a.requested[slot], true)
  }

  private growBuddy(fam: BuddyFamily): BuddyPool {
    const taken = fam.spare ?? this.newBuddy(fam)
    fam.spare = null
    taken.spare = false
    taken.index = fam.created++
    taken.name = `${fam.spec.name}/${taken.index}`
    taken.lastUsedFrame = this.frame
    fam.add(taken)
    const row = fam.spec.row
    if (row < PLACEMENTS.length) {
      const info = { pool: taken.id, name: taken.name, placement: PLACEMENTS[row], heap: HEAP_TYPES[fam.spec.heap] }
      this.sink.poolCreated?.({ ...info, bytes: taken.size }, this.frame)
    }
    if (fam.spec.async) {
      const spare = this.newBuddy(fam)
      spare.spare = true
      fam.spare = spare
    }
    return taken
  }

  private newBuddy(fam: BuddyFamily): BuddyPool {
    const pool = new BuddyPool(this.nextPoolId++, fam.spec.minBlock, fam.spec.maxOrder, this.frame)
    this.poolById.set(pool.id, pool)
    this.totals.pool(fam.spec.row, fam.spec.heap, pool.size)
    return pool
  }

  private placeCommitted(slot: number, size: Bytes, priority: ResidencyPriority, name: string | undefined): void {
    const a = this.allocs
    a.loc[slot] = Loc.Committed
    a.size[slot] = size
    a.offset[slot] = 0
    a.poolAlignment[slot] = a.alignment[slot]
    const heap = a.heap[slot]
    this.totals.take(PLACEMENT_INDEX.Committed, heap, size, a.requested[slot], false)
    if (heap === HEAP_INDEX.DEFAULT) {
      const object = this.nextObjectId++
      a.object[slot] = object
      this.residency.addObject(object, size, priority, `Committed ${name ?? `#${a.id[slot]}`}`, this.frame)
    }
  }

  private placeReserved(slot: number, virtualSize: Bytes, committed: Bytes, name: string | undefined): void {
    const a = this.allocs
    a.loc[slot] = Loc.Reserved
    a.size[slot] = virtualSize
    a.offset[slot] = 0
    a.poolAlignment[slot] = TILE
    a.committed[slot] = committed
    a.commitRequested[slot] = committed
    this.totals.take(PLACEMENT_INDEX.Reserved, HEAP_INDEX.DEFAULT, committed, committed, false)
    // The number is the resource's from its creation; the object is registered while tiles are committed.
    const object = this.nextObjectId++
    a.object[slot] = object
    this.reservedLabels.set(object, `Reserved ${name ?? `#${a.id[slot]}`}`)
    if (committed > 0) this.addBacking(slot)
  }

  /** §7.1: the backing heaps of a reserved resource's committed tiles are its residency object; none without. */
  private addBacking(slot: number): void {
    const a = this.allocs
    const object = a.object[slot]
    this.residency.addObject(object, a.committed[slot], 'normal', this.reservedLabels.get(object) ?? '', this.frame)
  }

  /** A commit changed a reserved resource's tiles from `before` to `after` bytes. */
  private commitBacking(slot: number, before: Bytes, after: Bytes): void {
    const a = this.allocs
    const object = a.object[slot]
    if (before === 0 && after > 0) {
      this.addBacking(slot)
      if (a.state[slot] === SlotState.Live && !this.hasUseRecords) this.residency.addHolder(object)
    } else if (before > 0 && after === 0) {
      this.residency.removeObject(object, this.frame)
    } else if (after !== before) {
      this.residency.resizeObject(object, after, this.frame)
    }
  }

  /** The residency object a resource's memory belongs to: its own, or its pool's; NONE when unmanaged. */
  private residencyObjectOf(slot: number): number {
    const a = this.allocs
    const loc = a.loc[slot]
    if (loc === Loc.Pool) return this.poolObjects.get(a.pool[slot])
    if (loc === Loc.Reserved && a.committed[slot] === 0) return NONE
    return a.object[slot]
  }

  /**
   * A live resource starts or stops holding its residency object's memory: in use without `use` records. With
   * them what a frame uses is what they name, and the manager is told nothing (see ResidencyManager.holders).
   */
  private holdResidency(slot: number, live: boolean): void {
    if (this.hasUseRecords) return
    const object = this.residencyObjectOf(slot)
    if (object < 0) return
    if (live) this.residency.addHolder(object)
    else this.residency.removeHolder(object)
  }

  /** The UploadHeapAllocator (AllocUploadResource): small block, big block or committed UPLOAD. */
  private placeUpload(slot: number, size: Bytes, alignment: Bytes): void {
    // uploadTarget with the bounds the model keeps (decideUpload's decision object is not read after an upload).
    const a = this.allocs
    a.heap[slot] = HEAP_INDEX.UPLOAD
    const target = uploadTarget(size, this.smallUploadMax, this.bigUploadMax)
    if (target === Target.UploadSmall) {
      a.placement[slot] = PLACEMENT_INDEX.UploadSmallBlock
      this.placeInBuddy(slot, Buddy.SmallBlock, size, alignment)
    } else if (target === Target.Pool) {
      a.placement[slot] = PLACEMENT_INDEX.UploadBigBlock
      this.placeInFamily(slot, Family.UploadBigBlock, size, alignment)
    } else {
      a.placement[slot] = PLACEMENT_INDEX.Committed
      this.placeCommitted(slot, roundUp(size, TILE), 'normal', undefined)
    }
  }

  /**
   * Staging memory for one copy: taken now, released at once, free when the GPU finished this frame. A copy in a
   * big-block pool is placed through the model's one staging slot (see bigStaging); any other gets a slot of its own.
   */
  private staging(bytes: Bytes, alignment: Bytes): void {
    if (!(bytes > 0)) return
    const a = this.allocs
    const big = uploadTarget(bytes, this.smallUploadMax, this.bigUploadMax) === Target.Pool
    const slot = big ? this.bigStagingSlot() : a.alloc()
    a.id[slot] = -1
    a.kind[slot] = Kind.Staging
    a.state[slot] = big ? SlotState.Pending : SlotState.Live
    a.requested[slot] = bytes
    a.alignment[slot] = alignment
    a.created[slot] = this.frame
    this.placeUpload(slot, bytes, alignment)
    this.releaseSlot(slot, -1, false)
  }

  /**
   * The slot every staging copy in a big-block pool is placed through: pending for good, it owns each such copy's
   * block while the copy waits for the GPU (the pools' views show a pending block of the model's own), and the
   * pending queue keeps what the copy's completion needs. A copy so costs no slot of its own.
   */
  private bigStagingSlot(): number {
    if (this.bigStaging === NONE) {
      const a = this.allocs
      this.bigStaging = a.alloc()
      a.id[this.bigStaging] = -1
      a.kind[this.bigStaging] = Kind.Staging
      a.state[this.bigStaging] = SlotState.Pending
    }
    return this.bigStaging
  }

  /** FastAllocator: pages for what fits a page, the UploadHeapAllocator for larger requests. */
  private fastUpload(size: Bytes, count: number): void {
    if (!(size > 0) || count <= 0) return
    if (size > this.fast.pageSize) {
      for (let i = 0; i < count; i++) this.staging(size, STAGING_ALIGNMENT)
      return
    }
    this.fast.allocate(size, count, this.frame, this.completed, this.totals, () => this.nextPoolId++)
  }

  /**
   * FastConstantAllocator: 256-aligned bumps in 64 KiB pages from the UploadHeapAllocator; a full page is released.
   * Worked out a page at a time: what the current page still takes, then whole pages of `page / size` bumps.
   */
  private constantUpload(bytes: Bytes, count: number): void {
    const size = roundUp(bytes, CONSTANT_ALIGNMENT)
    const page = this.constantPage
    if (size > page) {
      for (let i = 0; i < count; i++) this.staging(size, CONSTANT_ALIGNMENT)
      return
    }
    if (!(count > 0)) return
    let left = count
    if (this.constantPool !== NONE) {
      const fit = Math.floor((page - this.constantOffset) / size)
      if (left <= fit) {
        this.constantOffset += left * size
        return
      }
      left -= fit
      this.releaseConstantPage(page)
    }
    const perPage = Math.floor(page / size)
    let pool: BuddyPool | null = null
    while (left > perPage) {
      pool = this.newConstantPage(page, pool)
      this.releaseConstantPage(page)
      left -= perPage
    }
    this.newConstantPage(page, pool)
    this.constantOffset = left * size
  }

  /**
   * A page from the FastConstantPages buddy family (one block of order 0: the family's minimum block is a page). A
   * page takes no slot: the model keeps where the current one is (constantPool, constantBase) and the pending
   * queue where each released one is, until its completion frees it. `last`: the pool of the page before in the
   * same upload, or null. It was the first pool with a free block and still is while it has one (the pools before
   * it had none, and nothing is freed during an upload), so the family's search is asked only when it is full.
   */
  private newConstantPage(page: Bytes, last: BuddyPool | null): BuddyPool {
    const fam = this.buddies[Buddy.FastConstantPages]
    const pool = last !== null && last.largestFreeOrder() >= 0 ? last : fam.firstFor(0) ?? this.growBuddy(fam)
    this.constantBase = pool.allocate(0)
    this.constantPool = pool.id
    this.totals.take(ROW_FAST_CONSTANT_PAGE, HEAP_INDEX.UPLOAD, page, page, true)
    return pool
  }

  /** The current constant page is full: pending until the GPU finished this frame (releaseSlot's, for a page). */
  private releaseConstantPage(page: Bytes): void {
    this.totals.release(ROW_FAST_CONSTANT_PAGE, HEAP_INDEX.UPLOAD, page, page)
    const pool = this.poolById.get(this.constantPool)!
    pool.pending += page
    pool.pendingBlocks++
    pool.lastUsedFrame = this.frame
    this.pending.push(NONE, this.frame, CONSTANT_PAGE_META, pool.id, 0, this.constantBase, page, -1)
    this.constantPool = NONE
  }

  /** A dynamic buffer's lock: a fresh upload location; the old one is released like a moved block. */
  private rename(slot: number): void {
    const a = this.allocs
    const fromPool = a.pool[slot]
    const fromOffset = a.offset[slot]
    this.detach(slot)
    this.placeUpload(slot, roundUp(a.requested[slot], 16), a.alignment[slot])
    this.useCache.changed(a.id[slot])
    this.sink.moved?.(a.id[slot], fromPool, fromOffset, a.pool[slot], a.offset[slot], a.size[slot], this.frame)
  }

  /**
   * Hands a live allocation's location to a new internal slot, released at once (pending until the GPU is done),
   * so the resource's own slot can take a new location. The resource stays live throughout.
   */
  private detach(slot: number): number {
    const a = this.allocs
    const old = a.alloc()
    a.id[old] = -1
    a.kind[old] = Kind.Moved
    a.state[old] = SlotState.Live
    a.loc[old] = a.loc[slot]
    a.placement[old] = a.placement[slot]
    a.heap[old] = a.heap[slot]
    a.pool[old] = a.pool[slot]
    a.block[old] = a.block[slot]
    a.base[old] = a.base[slot]
    a.offset[old] = a.offset[slot]
    a.size[old] = a.size[slot]
    a.requested[old] = a.requested[slot]
    a.alignment[old] = a.alignment[slot]
    a.poolAlignment[old] = a.poolAlignment[slot]
    a.object[old] = a.object[slot]
    a.created[old] = this.frame
    if (a.loc[slot] === Loc.Pool) this.blocks.owner[a.block[slot]] = old
    a.object[slot] = NONE
    // The old location's bytes move from occupied to pending; the new location counts as occupied when placed.
    this.releaseSlot(old, -1, false)
    return old
  }


  /**
   * A live allocation is released (`resource`: buffer or texture `id`; else the model's own): pending until the GPU
   * finished this frame.
   */
  private releaseSlot(slot: number, id: number, resource: boolean): void {
    const a = this.allocs
    a.state[slot] = SlotState.Pending
    const loc = a.loc[slot]
    const row = this.rowOf(slot)
    const heap = a.heap[slot]
    const meta = pendMeta(loc, row, heap, resource)
    if (loc === Loc.Pool || loc === Loc.Buddy) {
      const size = a.size[slot]
      this.totals.release(row, heap, size, a.requested[slot])
      const pool = this.poolById.get(a.pool[slot])!
      pool.pending += size
      pool.pendingBlocks++
      pool.lastUsedFrame = this.frame
      if (loc === Loc.Pool) this.defragSearch.pending(pool as MemoryPool)
      this.pending.push(slot, this.frame, meta, pool.id, a.block[slot], loc === Loc.Buddy ? a.base[slot] : 0, size, id)
    } else {
      // Its completion reads the bytes and the residency object from the queue: the slot is cold by then.
      const bytes = a.bytes(slot)
      this.totals.release(row, heap, bytes, a.requestedBytes(slot))
      this.pending.push(slot, this.frame, meta, NONE, a.object[slot], 0, bytes, id)
    }
  }

  /** The release at `o` in the pending queue is done: its bytes are free, its slot too. */
  private completeSlot(o: number): void {
    const c = this.pending.cells
    // Read on every completion, not only where one is reported: a load first run late sends the compiled code back.
    const freed = this.sink.freed
    // The queue's cells are floats; its integer fields are read back as integers (`| 0`), so a slot or block
    // number never reaches a free list or a pool's links as a double (which would change their shapes mid-replay).
    const slot = c[o + Pend.Slot] | 0
    const meta = c[o + Pend.Meta] | 0
    const loc = meta & 255
    const row = (meta >> 8) & 255
    const heap = (meta >> 16) & 255
    const a = this.allocs
    if (loc === Loc.Pool) {
      const size = c[o + Pend.Size]
      const pool = this.poolById.get(c[o + Pend.Pool] | 0) as MemoryPool
      pool.pending -= size
      pool.pendingBlocks--
      pool.deallocate(this.blocks, c[o + Pend.Block] | 0)
      this.defragSearch.touch(pool)
      this.totals.free(row, heap, size, true)
    } else if (loc === Loc.Buddy) {
      const size = c[o + Pend.Size]
      const pool = this.poolById.get(c[o + Pend.Pool] | 0) as BuddyPool
      pool.pending -= size
      pool.pendingBlocks--
      pool.deallocate(c[o + Pend.Base], c[o + Pend.Block] | 0)
      this.totals.free(row, heap, size, true)
    } else {
      const bytes = c[o + Pend.Size]
      const object = c[o + Pend.Block] | 0
      this.totals.free(row, heap, bytes, false)
      // A reserved resource's object exists while it has committed bytes.
      if (object !== NONE && (loc !== Loc.Reserved || bytes > 0)) this.residency.removeObject(object, this.frame)
      if (loc === Loc.Reserved) this.reservedLabels.delete(object)
    }
    if (meta >>> 24 !== 0 && freed !== undefined) freed.call(this.sink, c[o + Pend.Id], this.frame)
    if (slot !== NONE && slot !== this.bigStaging) a.release(slot)
  }

  private advanceCompleted(frame: Frame): void {
    if (frame <= this.completed) return
    this.completed = frame
    const q = this.pending
    const end = q.dueEnd(frame)
    for (let o = q.head; o < end; o += STRIDE) this.completeSlot(o)
    q.drop(end)
    this.fast.complete(frame, this.totals)
  }


  private endOfFrame(frame: Frame): void {
    this.residency.endFrame(frame)
    this.cleanUp()
    this.defrag(frame)
  }

  /** CleanUpAllocations: pools empty since `pool.emptyFramesBeforeRelease` completed frames go; orders re-sort. */
  private cleanUp(): void {
    const lag = this.config['pool.emptyFramesBeforeRelease']
    const completed = this.completed
    for (const fam of this.families) {
      for (const pool of fam.emptyPools()) if (pool.lastUsedFrame + lag <= completed) this.destroyPool(fam, pool)
      fam.sortOrder()
    }
    for (const fam of this.buddies) {
      let kept = 0
      for (const pool of fam.pools) {
        if (pool.allocatedBlocks === 0 && pool.lastUsedFrame + lag <= completed) {
          this.poolById.delete(pool.id)
          this.totals.pool(fam.spec.row, fam.spec.heap, -pool.size)
          if (fam.spec.row < PLACEMENTS.length) this.sink.poolDestroyed?.(pool.id, this.frame)
        } else {
          fam.pools[kept++] = pool
        }
      }
      if (kept < fam.pools.length) {
        fam.poolsRemoved()
        fam.pools.length = kept
      }
    }
    this.fast.cleanUp(completed, lag, this.totals)
  }

  /** §8.2: per budget class, each defrag-enabled family clears up to maxPoolsPerFrame pools, rotating (defrag.ts). */
  private defrag(frame: Frame): void {
    const budget = this.config['defrag.maxCopyPerFrame']
    const maxPools = this.config['defrag.maxPoolsPerFrame']
    if (this.config['defrag.enabled'] !== 1 || maxPools <= 0 || budget <= 0) return
    defragFrame(this.defragSearch, this.families, budget, maxPools, this.defragMoves, frame)
  }

  private newDefragMoves(): DefragMoves {
    return {
      blocks: () => this.blocks,
      movable: (block) => this.movable(block),
      move: (fam, pool, target, block, frame) => this.moveBlock(fam, pool, target, block, frame),
    }
  }

  /** An allocated block of a live buffer or texture, not locked (initial data or a move in flight). */
  private movable(block: number): boolean {
    const b = this.blocks
    const a = this.allocs
    const owner = b.owner[block]
    return (
      b.state[block] === BlockState.Allocated &&
      a.state[owner] === SlotState.Live &&
      (a.kind[owner] === Kind.Buffer || a.kind[owner] === Kind.Texture) &&
      !(a.lockFrame[owner] >= 0 && a.lockFrame[owner] > this.completed)
    )
  }

  /** Moves a movable block of `pool` into `target`, which has a free block of its size; returns the bytes copied. */
  private moveBlock(fam: PoolFamily, pool: MemoryPool, target: MemoryPool, block: number, frame: Frame): Bytes {
    const b = this.blocks
    const a = this.allocs
    const owner = b.owner[block]
    const size = b.size[block]
    const moved = target.tryAllocate(b, size, owner)
    if (moved === NONE) throw new Error(`${target.name}: no free block of ${size} for a defrag move`)
    const fromOffset = a.offset[owner]
    this.detachForMove(owner, pool)
    this.holdResidency(owner, false)
    a.pool[owner] = target.id
    a.block[owner] = moved
    this.useCache.changed(a.id[owner])
    a.offset[owner] = alignedOffset(target.allocatedOffset, fam.spec.poolAlignment, a.poolAlignment[owner])
    a.lockFrame[owner] = frame
    this.holdResidency(owner, true)
    this.totals.add(fam.spec.row, fam.spec.heap, TOTAL_FIELD.PoolFree, -size)
    this.defragSearch.moved(pool, target, b)
    this.sink.moved?.(a.id[owner], pool.id, fromOffset, target.id, a.offset[owner], size, frame)
    return size
  }

  /** The source block of a defrag move (in `pool`) becomes an internal pending release; the bytes stay occupied. */
  private detachForMove(slot: number, pool: MemoryPool): void {
    const a = this.allocs
    const old = a.alloc()
    a.id[old] = -1
    a.kind[old] = Kind.Moved
    a.state[old] = SlotState.Pending
    a.loc[old] = Loc.Pool
    a.placement[old] = a.placement[slot]
    a.heap[old] = a.heap[slot]
    a.pool[old] = a.pool[slot]
    a.block[old] = a.block[slot]
    a.offset[old] = a.offset[slot]
    a.size[old] = a.size[slot]
    a.requested[old] = a.requested[slot]
    a.alignment[old] = a.alignment[slot]
    a.poolAlignment[old] = a.poolAlignment[slot]
    a.created[old] = this.frame
    this.blocks.owner[a.block[slot]] = old
    pool.pending += a.size[slot]
    pool.pendingBlocks++
    pool.lastUsedFrame = this.frame
    this.totals.add(a.placement[slot], a.heap[slot], TOTAL_FIELD.Pending, a.size[slot])
    this.pending.push(old, this.frame, pendMeta(Loc.Pool, a.placement[slot], a.heap[slot], false), pool.id, a.block[slot], 0, a.size[slot], -1)
  }


  /** The totals row of a slot: its placement, or the page row for the model's own pages. */
  private rowOf(slot: number): number {
    return this.allocs.placement[slot]
  }

  private emitPlaced(slot: number): ModelPlacement {
    const placed = this.sink.placed
    if (!this.placements && placed === undefined) return NOT_FILLED
    const a = this.allocs
    const loc = a.loc[slot]
    const p = loc === Loc.Pool || loc === Loc.Buddy ? this.poolById.get(a.pool[slot])! : null
    const pool = p !== null ? p.id : -1
    if (placed !== undefined) {
      const info = this.info
      this.writePlaced(info, slot, pool)
      info.slot = slot
      placed.call(this.sink, info, this.frame)
    }
    if (!this.placements) return NOT_FILLED
    const r = this.result
    this.writePlaced(r, slot, pool)
    r.estimated = (a.flags[slot] & SlotFlag.Estimated) !== 0
    r.explainer = this
    r.poolName = p !== null ? p.name : null
    return r
  }

  /** Where slot `slot` is, as the sink's info and a create's placement both tell it (`pool`: its pool's id, or -1). */
  private writePlaced(to: Omit<PlacementInfo, 'slot'>, slot: number, pool: number): void {
    const a = this.allocs
    to.id = a.id[slot]
    to.placement = PLACEMENTS[a.placement[slot]]
    to.heap = HEAP_TYPES[a.heap[slot]]
    to.pool = pool
    to.offset = a.offset[slot]
    to.size = a.size[slot]
    to.requested = a.requested[slot]
    to.alignment = a.alignment[slot]
  }

  /** A second create of a live id: the first is released (the capture's ingest warns about it too). */
  private replaceLive(id: number): void {
    this.sink.warning?.('duplicateId', `create of ${id}, which is live: the earlier one is released`, this.frame)
    this.release(id)
  }

  private validSize(size: Bytes, id: number): Bytes {
    if (Number.isFinite(size) && size >= 0) return Math.floor(size)
    this.sink.warning?.('badSize', `request ${id} has size ${size}: taken as 0`, this.frame)
    return 0
  }

  /** The transient allocator's events: heaps are counted in the Transient row, all go on to the model's sink. */
  private transientSink(): ModelSink {
    return {
      transientHeapCreated: (heap, bytes, frame) => {
        this.transientHeapBytes.set(heap, bytes)
        this.totals.pool(PLACEMENT_INDEX.Transient, HEAP_INDEX.DEFAULT, bytes)
        this.sink.transientHeapCreated?.(heap, bytes, frame)
      },
      transientHeapDestroyed: (heap, frame) => {
        const bytes = this.transientHeapBytes.get(heap) ?? 0
        this.transientHeapBytes.delete(heap)
        this.totals.pool(PLACEMENT_INDEX.Transient, HEAP_INDEX.DEFAULT, -bytes)
        this.sink.transientHeapDestroyed?.(heap, frame)
      },
      // Only when someone listens: the allocator then builds no placement info per resource.
      transientPlaced: this.sink.transientPlaced ? (info, frame) => this.sink.transientPlaced?.(info, frame) : undefined,
      warning: (kind, message, frame) => this.sink.warning?.(kind, message, frame),
    }
  }
}

/**
 * Whether a pool is as its copy `kept` was made: every field the same (the free list's arrays element for element
 * over the entries in use, the only ones a pool reads, or the very arrays a copy shares), but the family it tells
 * (`watcher`) and whether it shares its free list (`shared`). A field holding another object makes it not the same.
 */
function samePool(pool: MemoryPool, kept: MemoryPool): boolean {
  const a = pool as unknown as Record<string, unknown>
  const b = kept as unknown as Record<string, unknown>
  const n = pool.freeCount
  if (kept.freeCount !== n) return false
  for (const key of Object.keys(a)) {
    if (key === 'watcher' || key === 'shared') continue
    const x = a[key]
    const y = b[key]
    if (x === y && typeof x === 'object') continue
    if (x instanceof Int32Array) {
      if (!(y instanceof Int32Array) || !sameInts(x, y, n)) return false
    } else if (x instanceof Float64Array) {
      if (!(y instanceof Float64Array) || !sameFloats(x, y, n)) return false
    } else if (ArrayBuffer.isView(x)) {
      return false
    } else if (typeof x === 'object' && x !== null) {
      return false
    } else if (!Object.is(x, y)) {
      return false
    }
  }
  return true
}

/** Whether two int arrays hold the same first `n` numbers. */
function sameInts(x: Int32Array, y: Int32Array, n: number): boolean {
  if (x.length < n || y.length < n) return false
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return false
  return true
}

/**
 * Whether two float arrays hold the same first `n` numbers, as Object.is tells them (-0 apart from 0, NaN equal to
 * NaN).
 */
function sameFloats(x: Float64Array, y: Float64Array, n: number): boolean {
  if (x.length < n || y.length < n) return false
  for (let i = 0; i < n; i++) {
    const a = x[i]
    const b = y[i]
    if (a === b ? a === 0 && 1 / a !== 1 / b : a === a || b === b) return false
  }
  return true
}

const FormBit = { RenderTarget: 1, Msaa: 2, Estimated: 4, Buffer: 8 } as const

/**
 * Transients by their desc as the capture gives it (kind, then the raw fields), each form with what the model
 * derives from it: a pure function of those fields. Append-only, shared by a model and its clones like the desc
 * identities.
 */
class TransientForms {
  readonly ids = new DescIds(11)
  count = 0
  size = new Float64Array(64)
  alignment = new Float64Array(64)
  resourceAlignment = new Float64Array(64)
  desc = new Int32Array(64)
  bits = new Uint8Array(64)

  add(form: number, size: Bytes, alignment: Bytes, resourceAlignment: Bytes, bits: number, desc: number): void {
    if (form === this.size.length) {
      const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T, b: T): T => {
        b.set(a)
        return b
      }
      const n = form * 2
      this.size = grow(this.size, new Float64Array(n))
      this.alignment = grow(this.alignment, new Float64Array(n))
      this.resourceAlignment = grow(this.resourceAlignment, new Float64Array(n))
      this.desc = grow(this.desc, new Int32Array(n))
      this.bits = grow(this.bits, new Uint8Array(n))
    }
    this.size[form] = size
    this.alignment[form] = alignment
    this.resourceAlignment[form] = resourceAlignment
    this.desc[form] = desc
    this.bits[form] = bits
    this.count = form + 1
  }
}

/** A residency object number per pool id, NONE by default; ids are dense, so a growing typed array. */
class PoolObjects {
  private objects = new Int32Array(64).fill(NONE)

  get(pool: number): number {
    return pool < this.objects.length ? this.objects[pool] : NONE
  }

  set(pool: number, object: number): void {
    if (pool >= this.objects.length) {
      const grown = new Int32Array(Math.max(pool + 1, this.objects.length * 2)).fill(NONE)
      grown.set(this.objects)
      this.objects = grown
    }
    this.objects[pool] = object
  }

  clone(): PoolObjects {
    const c = new PoolObjects()
    c.objects = this.objects.slice()
    return c
  }
}

/** Pools by id: ids are dense over the replay, so an array (a hole once a pool is destroyed). */
class PoolRegistry {
  private items: (MemoryPool | BuddyPool | undefined)[] = []

  get(id: number): MemoryPool | BuddyPool | undefined {
    return this.items[id]
  }

  /** One past the largest id registered. */
  get bound(): number {
    return this.items.length
  }

  set(id: number, pool: MemoryPool | BuddyPool): void {
    this.items[id] = pool
  }

  delete(id: number): void {
    this.items[id] = undefined
  }
}

/** A ray-tracing scratch buffer: UnorderedAccess without AccelerationStructure, tagged RayTracing or named scratch. */
function isScratch(usage: number, desc: Named): boolean {
  return (
    (usage & Usage.UnorderedAccess) !== 0 &&
    (usage & Usage.AccelerationStructure) === 0 &&
    (desc.tag === 'RayTracing' || (desc.name !== undefined && /scratch/i.test(desc.name)))
  )
}

function stateMode(state: string | undefined): BufferStateMode {
  return state === 'single' || state === 'multi' ? state : 'default'
}

