/**
 * Where a buffer request goes (seed §3.1–§3.2, §3.7, §5.1): its alignment, then the level-1 ladder, the level-2
 * pool strategy and the last gate, each step recorded in a RouteTrace. Pure functions of the request and the
 * config; the model does the allocation.
 */
import { BUFFER_STATES, BUFFER_USAGES } from '../../../shared/capture'
import type { BufferStateMode } from '../../../shared/capture'
import type { ModelConfig } from '../../../shared/model'
import { KiB, lcm, roundUp } from '../../../shared/units'
import type { Bytes } from '../../../shared/units'
import { grown } from '../grown'
import { DescIds } from '../../../shared/descIds'
import { Step } from './route'
import type { RouteTrace } from './route'
import { doubleFields } from '../doubles'

const bit = (name: (typeof BUFFER_USAGES)[number]) => 1 << BUFFER_USAGES.indexOf(name)

export const Usage = {
  Static: bit('Static'),
  Dynamic: bit('Dynamic'),
  Volatile: bit('Volatile'),
  UnorderedAccess: bit('UnorderedAccess'),
  ByteAddressBuffer: bit('ByteAddressBuffer'),
  DrawIndirect: bit('DrawIndirect'),
  ShaderResource: bit('ShaderResource'),
  Shared: bit('Shared'),
  AccelerationStructure: bit('AccelerationStructure'),
  StructuredBuffer: bit('StructuredBuffer'),
  ReservedResource: bit('ReservedResource'),
  Uniform: bit('Uniform'),
} as const

const USAGE_BITS = new Map<string, number>(BUFFER_USAGES.map((name, i) => [name, 1 << i]))

/** Masks of frozen usage lists (a replay hands the same few lists over and over): one look-up instead of one a name. */
const FROZEN_MASKS = new WeakMap<readonly string[], number>()

/** Usage names to a mask without allocating. Unknown names are ignored. */
export function usageMask(list: readonly string[] | undefined): number {
  let mask = 0
  if (!list) return mask
  const frozen = Object.isFrozen(list)
  if (frozen) {
    const known = FROZEN_MASKS.get(list)
    if (known !== undefined) return known
  }
  for (let i = 0; i < list.length; i++) mask |= USAGE_BITS.get(list[i]) ?? 0
  if (frozen) FROZEN_MASKS.set(list, mask)
  return mask
}

/** Placement indices, as in PLACEMENTS. */
export const PLACEMENT_INDEX = {
  Committed: 0,
  SharedBufferPool: 1,
  PlacedBufferPool: 2,
  AccelerationStructurePool: 3,
  TextureReadOnlyPool: 4,
  TextureReadOnly4KPool: 5,
  TextureRTPool: 6,
  TextureUAVPool: 7,
  Reserved: 8,
  UploadSmallBlock: 9,
  UploadBigBlock: 10,
  ReadbackPool: 11,
  Transient: 12,
} as const

/** Heap indices, as in HEAP_TYPES. */
export const HEAP_INDEX = { DEFAULT: 0, UPLOAD: 1, READBACK: 2 } as const

/** The pool families (FRHIPoolAllocator instances) of the model, by pool key. */
export const Family = {
  /** DEFAULT, shared strategy, no resource flags, GENERIC_READ */
  SharedDefault: 0,
  /** DEFAULT, shared strategy, ALLOW_UNORDERED_ACCESS, UNORDERED_ACCESS (single-state UAV buffers) */
  SharedUav: 1,
  /** DEFAULT, placed strategy (keyed by heap type and heap flags only) */
  PlacedDefault: 2,
  /** DEFAULT, shared strategy, RAYTRACING_ACCELERATION_STRUCTURE */
  AccelerationStructure: 3,
  /** READBACK, shared strategy, COPY_DEST */
  SharedReadback: 4,
  /** READBACK, placed strategy (alignment above 256) */
  PlacedReadback: 5,
  TextureReadOnly: 6,
  TextureReadOnly4K: 7,
  TextureRT: 8,
  TextureUAV: 9,
  UploadBigBlock: 10,
} as const
export const FAMILY_COUNT = 11

/** Where the model must put the request. */
export const Target = {
  /** Pooled: `family` names the pool family. */
  Pool: 0,
  /** A committed resource on `heap`. */
  Committed: 1,
  Reserved: 2,
  /** The UploadHeapAllocator's small-block (buddy) sub-allocator. */
  UploadSmall: 3,
} as const

/** The D3D12 tile and the alignment of committed buffers, reserved resources and placed pools. */
export const TILE = 64 * KiB
/** kD3D12ManualSubAllocationAlignment: constant buffer views and uniform buffers align to it. */
export const UNIFORM_ALIGNMENT = 256
/** Alignment of acceleration-structure buffers (CreateRayTracingBuffer). */
export const AS_ALIGNMENT = 256

/** A decision, filled in place (one scratch object per model). */
export interface BufferDecision {
  target: number
  placement: number
  heap: number
  family: number
  /** Width: the size rounded up to 16 (RHI_RAW_VIEW_ALIGNMENT). */
  width: Bytes
  /** The desc's alignment after the ladder (64 KiB once the last gate sends it Committed). */
  alignment: Bytes
  /** Residency priority high: a committed acceleration structure or scratch buffer. */
  highPriority: boolean
  /** The request went down to the pool gates, where a committed acceleration structure or scratch buffer is high. */
  gated: boolean
}

export function newBufferDecision(): BufferDecision {
  const d = { target: 0, placement: 0, heap: 0, family: -1, width: 0, alignment: 16, highPriority: false, gated: false }
  return doubleFields(d, ['width', 'alignment'])
}

export interface BufferRequest {
  size: Bytes
  usage: number
  stride: number
  state: BufferStateMode
  readback: boolean
  /** A ray-tracing scratch buffer (UnorderedAccess with the RayTracing tag or a name saying scratch). */
  scratch: boolean
}

/** §3.1 GetResourceDescAndAlignment. */
export function bufferAlignment(usage: number, stride: number): Bytes {
  if (usage & Usage.ReservedResource) return TILE
  if (stride > 0 && (usage & Usage.StructuredBuffer || !(usage & (Usage.ByteAddressBuffer | Usage.DrawIndirect)))) {
    return lcm(stride, 16)
  }
  return 16
}

/**
 * The UploadHeapAllocator's choice (AllocUploadResource) for `width` bytes: the small-block buddy up to `smallMax`,
 * the big-block pools up to `bigMax`, else a committed UPLOAD resource. The bounds are the config's
 * `upload.smallBlock.maxAllocation` and `upload.bigBlock.maxAllocation`; the model keeps them as numbers.
 */
export function uploadTarget(width: Bytes, smallMax: Bytes, bigMax: Bytes): number {
  return width <= smallMax ? Target.UploadSmall : width <= bigMax ? Target.Pool : Target.Committed
}

/** The UploadHeapAllocator's own ladder (AllocUploadResource): small block, big block or committed UPLOAD. */
export function decideUpload(width: Bytes, config: ModelConfig, trace: RouteTrace | null, out: BufferDecision): void {
  out.heap = HEAP_INDEX.UPLOAD
  out.family = -1
  const smallMax = config['upload.smallBlock.maxAllocation']
  const bigMax = config['upload.bigBlock.maxAllocation']
  const target = uploadTarget(width, smallMax, bigMax)
  trace?.push(Step.UploadSmall, width, smallMax, target === Target.UploadSmall ? 1 : 0)
  if (target === Target.UploadSmall) {
    out.target = Target.UploadSmall
    out.placement = PLACEMENT_INDEX.UploadSmallBlock
    return
  }
  trace?.push(Step.UploadBig, width, bigMax, target === Target.Pool ? 1 : 0)
  if (target === Target.Pool) {
    out.target = Target.Pool
    out.placement = PLACEMENT_INDEX.UploadBigBlock
    out.family = Family.UploadBigBlock
  } else {
    out.target = Target.Committed
    out.placement = PLACEMENT_INDEX.Committed
    out.alignment = TILE
  }
}

function committed(out: BufferDecision, heap: number): void {
  out.target = Target.Committed
  out.placement = PLACEMENT_INDEX.Committed
  out.heap = heap
  out.family = -1
  out.alignment = TILE
}

const STATE_CODE = { default: 0, single: 1, multi: 2 } as const

/** The whole buffer ladder, §3.2 level 1 and level 2 and the last gate; its steps into `trace` unless null. */
export function decideBuffer(req: BufferRequest, config: ModelConfig, trace: RouteTrace | null, out: BufferDecision): void {
  const usage = req.usage
  const width = roundUp(req.size, 16)
  out.width = width
  out.alignment = bufferAlignment(usage, req.stride)
  out.highPriority = false
  out.gated = false
  out.family = -1

  // Level 1 (FD3D12Adapter::AllocateBuffer, FD3D12DefaultBufferAllocator::AllocDefaultResource).
  const upload = (usage & (Usage.Dynamic | Usage.Volatile | Usage.Uniform)) !== 0
  trace?.push(Step.Upload, upload ? 1 : 0)
  if (upload) {
    if (usage & Usage.Uniform) {
      out.alignment = UNIFORM_ALIGNMENT
      trace?.push(Step.UniformAlign, UNIFORM_ALIGNMENT)
    }
    decideUpload(width, config, trace, out)
    return
  }
  trace?.push(Step.Transient, 0)
  const indirect = (usage & Usage.DrawIndirect) !== 0
  const allowIndirect = config.allowPoolAllocateIndirectArgBuffers
  trace?.push(Step.Indirect, indirect ? 1 : 0, allowIndirect)
  if (indirect && allowIndirect === 0) {
    committed(out, HEAP_INDEX.DEFAULT)
    return
  }
  const reserved = (usage & Usage.ReservedResource) !== 0
  trace?.push(Step.BufferReserved, reserved ? 1 : 0, roundUp(width, TILE))
  if (reserved) {
    out.target = Target.Reserved
    out.placement = PLACEMENT_INDEX.Reserved
    out.heap = HEAP_INDEX.DEFAULT
    out.alignment = TILE
    return
  }
  trace?.push(Step.Readback, req.readback ? 1 : 0)
  const threshold = config['bufferPool.alignment']
  const shared = (usage & Usage.Shared) !== 0
  if (req.readback) {
    const max = config['readbackPool.maxAllocation']
    const over = width > max
    trace?.push(Step.ReadbackSize, width, max, over ? 1 : 0)
    if (over) {
      committed(out, HEAP_INDEX.READBACK)
      return
    }
    const placed = out.alignment > threshold
    trace?.push(Step.StrategyAlignment, out.alignment, threshold, placed ? 1 : 0)
    trace?.push(Step.GateShared, shared ? 1 : 0)
    if (shared) {
      committed(out, HEAP_INDEX.READBACK)
      return
    }
    if (placed && !gateAlignment(out, config['placedBufferPool.alignment'], trace, HEAP_INDEX.READBACK)) return
    out.target = Target.Pool
    out.placement = PLACEMENT_INDEX.ReadbackPool
    out.heap = HEAP_INDEX.READBACK
    out.family = placed ? Family.PlacedReadback : Family.SharedReadback
    return
  }

  // Level 2: GetResourceAllocationStrategy.
  const as = (usage & Usage.AccelerationStructure) !== 0
  if (as) {
    out.alignment = AS_ALIGNMENT
    trace?.push(Step.AccelerationStructure, AS_ALIGNMENT)
  }
  const uav = (usage & Usage.UnorderedAccess) !== 0
  let placed = out.alignment > threshold
  trace?.push(Step.StrategyAlignment, out.alignment, threshold, placed ? 1 : 0)
  if (!placed) {
    // Acceleration structures are created SingleState whatever the request says (CreateRayTracingBuffer).
    const state = as ? 'single' : req.state
    placed = state === 'multi' || (state === 'default' && uav)
    trace?.push(
      Step.StrategyState,
      STATE_CODE[state],
      uav ? 1 : 0,
      placed ? 1 : 0,
      as ? PLACEMENT_INDEX.AccelerationStructurePool : PLACEMENT_INDEX.SharedBufferPool,
    )
  }
  let family: number
  if (placed) family = Family.PlacedDefault
  else if (as) family = Family.AccelerationStructure
  else family = uav ? Family.SharedUav : Family.SharedDefault

  // The last gate (FD3D12PoolAllocator::AllocateResource).
  const max = as && !placed ? config['asPool.maxAllocation'] : config['bufferPool.maxAllocation']
  const over = width > max
  trace?.push(Step.GateSize, width, max, over ? 1 : 0, as && !placed ? 1 : 0)
  out.highPriority = as || req.scratch
  out.gated = true
  if (over) {
    committed(out, HEAP_INDEX.DEFAULT)
    return
  }
  trace?.push(Step.GateShared, shared ? 1 : 0)
  if (shared) {
    committed(out, HEAP_INDEX.DEFAULT)
    return
  }
  if (placed && !gateAlignment(out, config['placedBufferPool.alignment'], trace, HEAP_INDEX.DEFAULT)) return
  out.target = Target.Pool
  out.heap = HEAP_INDEX.DEFAULT
  out.family = family
  out.placement = placed
    ? PLACEMENT_INDEX.PlacedBufferPool
    : family === Family.AccelerationStructure
      ? PLACEMENT_INDEX.AccelerationStructurePool
      : PLACEMENT_INDEX.SharedBufferPool
}

/** A placed pool cannot honour an alignment above its own: Committed instead. */
function gateAlignment(out: BufferDecision, poolAlignment: Bytes, trace: RouteTrace | null, heap: number): boolean {
  const over = out.alignment > poolAlignment
  trace?.push(Step.GateAlignment, out.alignment, poolAlignment, over ? 1 : 0)
  if (over) committed(out, heap)
  return !over
}

/** The config's bounds decideBuffer compares a width with: every comparison is `width > bound` or its negation. */
function widthBounds(config: ModelConfig): number[] {
  return [
    config['upload.smallBlock.maxAllocation'],
    config['upload.bigBlock.maxAllocation'],
    config['readbackPool.maxAllocation'],
    config['asPool.maxAllocation'],
    config['bufferPool.maxAllocation'],
  ]
}

/**
 * Buffer decisions by form: a form is what decideBuffer reads of a request but its size (usage, stride, state,
 * heap). The width enters the ladder only through its comparisons with the config's maximum allocations
 * (widthBounds), so the widths between two neighbouring bounds decide alike but for the width itself: a form keeps
 * one decision per such span, worked out by decideBuffer the first time a width of the span comes. Append-only;
 * the model and its copies (one config) share it.
 */
export class BufferDecisions {
  /** usage, stride, state (its index in BUFFER_STATES), readback. */
  private readonly ids = new DescIds(4)
  /** The bounds, increasing and distinct; null when one is NaN (its comparisons are false both ways: no cache). */
  private readonly bounds: Float64Array | null
  /** Spans per form: one more than the bounds. */
  private readonly spans: number
  private usage: number[] = []
  private stride: number[] = []
  private state: number[] = []
  private readback: boolean[] = []
  /** Per form and span (form * spans + span): 1 once its decision is kept. */
  private known = new Uint8Array(64)
  private target = new Uint8Array(64)
  private placement = new Uint8Array(64)
  private heap = new Uint8Array(64)
  private family = new Int8Array(64)
  private alignment = new Float64Array(64)
  /** highPriority (1) and gated (2). */
  private bits = new Uint8Array(64)

  constructor(config: ModelConfig) {
    const bounds = widthBounds(config)
    this.bounds = bounds.some(Number.isNaN) ? null : Float64Array.from(new Set(bounds)).sort()
    this.spans = (this.bounds?.length ?? 0) + 1
  }

  /** The form of a request (its size aside): a new number the first time one is seen. */
  formOf(req: BufferRequest): number {
    const key = this.ids.fields
    key[0] = req.usage
    key[1] = req.stride
    key[2] = BUFFER_STATES.indexOf(req.state)
    key[3] = req.readback ? 1 : 0
    const form = this.ids.id()
    if (form === this.usage.length) {
      this.usage.push(req.usage)
      this.stride.push(req.stride)
      this.state.push(key[2])
      this.readback.push(req.readback)
    }
    return form
  }

  /** The request of form `form` into `out`, its size aside (left as it is). */
  requestOf(form: number, out: BufferRequest): BufferRequest {
    out.usage = this.usage[form]
    out.stride = this.stride[form]
    out.state = BUFFER_STATES[this.state[form]]
    out.readback = this.readback[form]
    out.scratch = false
    return out
  }

  /**
   * decideBuffer(req, config, null, out) for a request of form `form` (requestOf, with its size): from the form's
   * decision for the width's span once there is one. `config` is the one the bounds came from.
   */
  decide(form: number, req: BufferRequest, config: ModelConfig, out: BufferDecision): void {
    const bounds = this.bounds
    if (bounds === null || req.scratch) {
      decideBuffer(req, config, null, out)
      return
    }
    const width = roundUp(req.size, 16)
    let span = 0
    while (span < bounds.length && bounds[span] < width) span++
    const at = form * this.spans + span
    if (at < this.known.length && this.known[at] === 1) {
      out.target = this.target[at]
      out.placement = this.placement[at]
      out.heap = this.heap[at]
      out.family = this.family[at]
      out.width = width
      out.alignment = this.alignment[at]
      out.highPriority = (this.bits[at] & 1) !== 0
      out.gated = (this.bits[at] & 2) !== 0
      return
    }
    decideBuffer(req, config, null, out)
    if (at >= this.known.length) this.grow(at + 1)
    this.known[at] = 1
    this.target[at] = out.target
    this.placement[at] = out.placement
    this.heap[at] = out.heap
    this.family[at] = out.family
    this.alignment[at] = out.alignment
    this.bits[at] = (out.highPriority ? 1 : 0) | (out.gated ? 2 : 0)
  }

  private grow(least: number): void {
    let n = this.known.length * 2
    while (n < least) n *= 2
    this.known = grown(this.known, n)
    this.target = grown(this.target, n)
    this.placement = grown(this.placement, n)
    this.heap = grown(this.heap, n)
    this.family = grown(this.family, n)
    this.alignment = grown(this.alignment, n)
    this.bits = grown(this.bits, n)
  }
}
