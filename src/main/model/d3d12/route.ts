/**
 * Route explanations: each ladder step a request went through, recorded as a small numeric code with up to five
 * numbers, rendered to text only when someone reads it. A replay of millions of requests writes a few numbers per
 * step into one reused typed array and builds no strings.
 */
import type { Bytes } from '../../../shared/units'
import { GiB, KiB, MiB } from '../../../shared/units'

/** Step codes. Arguments (a0…a4) are described next to each; booleans are 0/1. */
export const Step = {
  /** a0 yes */
  Upload: 1,
  /** a0 alignment */
  UniformAlign: 2,
  /** a0 size, a1 max, a2 fits */
  UploadSmall: 3,
  /** a0 size, a1 max, a2 fits */
  UploadBig: 4,
  /** a0 yes */
  Transient: 5,
  /** a0 DrawIndirect, a1 allowPoolAllocateIndirectArgBuffers */
  Indirect: 6,
  /** a0 yes, a1 virtual size */
  BufferReserved: 7,
  /** a0 yes */
  Readback: 8,
  /** a0 size, a1 max, a2 over */
  ReadbackSize: 9,
  /** a0 alignment */
  AccelerationStructure: 10,
  /** a0 alignment, a1 threshold, a2 over */
  StrategyAlignment: 11,
  /** a0 state (0 default, 1 single, 2 multi), a1 UnorderedAccess, a2 placed, a3 destination placement index */
  StrategyState: 12,
  /** a0 size, a1 max, a2 over, a3 config key index (GATE_KEYS) */
  GateSize: 13,
  /** a0 yes */
  GateShared: 14,
  /** a0 alignment, a1 pool alignment, a2 over */
  GateAlignment: 15,
  /** no arguments */
  ZeroSize: 16,
  /** a0 yes, a1 footprint bytes */
  CpuReadback: 17,
  /** a0 flag set, a1 dimension allows it, a2 virtual size, a3 ImmediateCommit */
  TextureReserved: 18,
  /** a0 verdict (FourK.*), a1 tiles or samples, a2 tile width, a3 tile height, a4 tile depth */
  FourK: 19,
  /** a0 alignment, a1 source (AlignSource.*) */
  TextureAlignment: 20,
  /** a0 size, a1 estimated, a2 tile bytes of the estimate */
  TextureSize: 21,
  /** a0 yes, a1 pool size, a2 placement index when yes */
  RenderTarget: 22,
  /** a0 yes, a1 pool size, a2 placement index when yes */
  Uav: 23,
  /** a0 4 KiB aligned */
  ReadOnlyPool: 24,
  /** a0 size */
  TransientBuffer: 25,
  /** a0 alignment, a1 resource alignment, a2 size, a3 estimated */
  TransientTexture: 26,
  /** a0 size, a1 alignment: a committed texture laid out with 64 KiB (or 4 MiB) tiles */
  CommittedTexture: 27,
} as const

export const FourK = { Yes: 0, Reserved: 1, Video: 2, RenderTarget: 3, Samples: 4, Tiles: 5 } as const
export const AlignSource = { FourK: 0, Msaa: 1, Default: 2, Driver: 3 } as const

/** The config keys a size gate names (Step.GateSize a3). */
export const GATE_KEYS = [
  'bufferPool.maxAllocation',
  'asPool.maxAllocation',
  'readbackPool.maxAllocation',
  'texturePool.readOnly.maxAllocation',
  'texturePool.readOnly4K.maxAllocation',
  'texturePool.rtuav.maxAllocation',
  'upload.bigBlock.maxAllocation',
] as const

const PLACEMENT_NAMES = [
  'Committed',
  'SharedBufferPool',
  'PlacedBufferPool',
  'AccelerationStructurePool',
  'TextureReadOnlyPool',
  'TextureReadOnly4KPool',
  'TextureRTPool',
  'TextureUAVPool',
  'Reserved',
  'UploadSmallBlock',
  'UploadBigBlock',
  'ReadbackPool',
  'Transient',
]
const STATES = ['default', 'single', 'multi']

const ARGS = 5

/** A decision path: codes and their numbers, reused request after request. */
export class RouteTrace {
  codes: Uint8Array
  args: Float64Array
  length = 0

  constructor(capacity = 24) {
    this.codes = new Uint8Array(capacity)
    this.args = new Float64Array(capacity * ARGS)
  }

  reset(): void {
    this.length = 0
  }

  push(code: number, a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0): void {
    if (this.length === this.codes.length) this.grow()
    const i = this.length++
    this.codes[i] = code
    const o = i * ARGS
    this.args[o] = a0
    this.args[o + 1] = a1
    this.args[o + 2] = a2
    this.args[o + 3] = a3
    this.args[o + 4] = a4
  }

  copy(): RouteTrace {
    const c = new RouteTrace(Math.max(1, this.length))
    c.codes.set(this.codes.subarray(0, this.length))
    c.args.set(this.args.subarray(0, this.length * ARGS))
    c.length = this.length
    return c
  }

  render(): string[] {
    const out = new Array<string>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = renderStep(this.codes[i], this.args, i * ARGS)
    return out
  }

  private grow(): void {
    const codes = new Uint8Array(this.codes.length * 2)
    codes.set(this.codes)
    const args = new Float64Array(codes.length * ARGS)
    args.set(this.args)
    this.codes = codes
    this.args = args
  }
}

/** Bytes exactly: "16 MiB" when a whole number of a unit, else "16777232 B". */
export function exactBytes(n: Bytes): string {
  if (n !== 0) {
    if (n % GiB === 0) return `${n / GiB} GiB`
    if (n % MiB === 0) return `${n / MiB} MiB`
    if (n % KiB === 0) return `${n / KiB} KiB`
  }
  return `${n} B`
}

/** An alignment: a plain number below 1 KiB ("48"), units above ("64 KiB"). */
function align(n: number): string {
  return n >= KiB && n % KiB === 0 ? exactBytes(n) : String(n)
}

function renderStep(code: number, a: Float64Array, o: number): string {
  const a0 = a[o]
  const a1 = a[o + 1]
  const a2 = a[o + 2]
  const a3 = a[o + 3]
  const a4 = a[o + 4]
  switch (code) {
    case Step.Upload:
      return a0 ? 'Dynamic|Volatile|Uniform? yes → UploadHeapAllocator' : 'Dynamic|Volatile|Uniform? no'
    case Step.UniformAlign:
      return `Uniform: alignment ${align(a0)}`
    case Step.UploadSmall:
      return (
        `size ${exactBytes(a0)} ≤ upload.smallBlock.maxAllocation ${exactBytes(a1)}? ` +
        (a2 ? 'yes → UploadSmallBlock' : 'no')
      )
    case Step.UploadBig:
      return (
        `size ${exactBytes(a0)} ≤ upload.bigBlock.maxAllocation ${exactBytes(a1)}? ` +
        (a2 ? 'yes → UploadBigBlock' : 'no → Committed UPLOAD, alignment 64 KiB')
      )
    case Step.Transient:
      return a0 ? 'transient? yes → Transient' : 'transient? no'
    case Step.Indirect:
      if (!a0) return 'DrawIndirect and allowPoolAllocateIndirectArgBuffers = 0? no'
      return a1
        ? 'DrawIndirect and allowPoolAllocateIndirectArgBuffers = 0? no (it is 1: pooled)'
        : 'DrawIndirect and allowPoolAllocateIndirectArgBuffers = 0? yes → Committed, alignment 64 KiB'
    case Step.BufferReserved:
      if (!a0) return 'ReservedResource? no'
      return `ReservedResource? yes → Reserved, virtual size ${exactBytes(a1)} (64 KiB tiles)`
    case Step.Readback:
      return a0 ? 'heap readback? yes → READBACK buffer pool' : 'heap readback? no'
    case Step.ReadbackSize:
      return (
        `size ${exactBytes(a0)} > readbackPool.maxAllocation ${exactBytes(a1)}? ` +
        (a2 ? 'yes → Committed READBACK, alignment 64 KiB' : 'no → ReadbackPool')
      )
    case Step.AccelerationStructure:
      return `AccelerationStructure: alignment ${align(a0)}, state single`
    case Step.StrategyAlignment:
      return `alignment ${align(a0)} > ${align(a1)}? ${a2 ? 'yes → PlacedBufferPool' : 'no'}`
    case Step.StrategyState: {
      const what = `state ${STATES[a0]}${a1 ? ' with UnorderedAccess' : ''}`
      const answer = a2 ? 'yes → PlacedBufferPool' : `no → ${PLACEMENT_NAMES[a3]}`
      return `${what}: multi, or default with UnorderedAccess? ${answer}`
    }
    case Step.GateSize:
      return `size ${exactBytes(a0)} > ${GATE_KEYS[a3]} ${exactBytes(a1)}? ${a2 ? 'yes → Committed' : 'no'}`
    case Step.GateShared:
      return a0 ? 'Shared? yes → Committed' : 'Shared? no'
    case Step.GateAlignment:
      return `alignment ${align(a0)} > pool alignment ${align(a1)}? ${a2 ? 'yes → Committed' : 'no'}`
    case Step.ZeroSize:
      return 'size 0: nothing allocated'
    case Step.CpuReadback:
      if (!a0) return 'CPUReadback? no'
      return `CPUReadback? yes → Committed READBACK buffer, copyable footprint ${exactBytes(a1)}`
    case Step.TextureReserved:
      if (!a0) return 'ReservedResource? no'
      if (!a1) return 'ReservedResource? yes, but not 2d/3d: pooled as usual'
      return (
        `ReservedResource (2d/3d)? yes → Reserved, virtual size ${exactBytes(a2)}` +
        (a3 ? ', ImmediateCommit commits all of it' : '')
      )
    case Step.FourK:
      return `4 KiB alignable? ${fourK(a0, a1, a2, a3, a4)}`
    case Step.TextureAlignment:
      switch (a1) {
        case AlignSource.FourK:
          return `alignment ${align(a0)}`
        case AlignSource.Msaa:
          return `MSAA → alignment ${align(a0)}`
        case AlignSource.Driver:
          return `driver alignment ${align(a0)}`
        default:
          return `alignment ${align(a0)}`
      }
    case Step.TextureSize:
      return a1
        ? `size ${exactBytes(a0)} (estimated: standard swizzle, ${exactBytes(a2)} tiles)`
        : `size ${exactBytes(a0)} (driver)`
    case Step.RenderTarget:
      if (!a0) return 'RenderTargetable|DepthStencilTargetable? no'
      return a1 > 0
        ? `RenderTargetable|DepthStencilTargetable? yes → ${PLACEMENT_NAMES[a2]}`
        : 'RenderTargetable|DepthStencilTargetable? yes, texturePool.rtuav.size 0 → Committed'
    case Step.Uav:
      if (!a0) return 'UAV? no'
      return a1 > 0 ? `UAV? yes → ${PLACEMENT_NAMES[a2]}` : 'UAV? yes, texturePool.rtuav.size 0 → Committed'
    case Step.ReadOnlyPool:
      return a0 ? '4 KiB aligned? yes → TextureReadOnly4KPool' : '4 KiB aligned? no → TextureReadOnlyPool'
    case Step.TransientBuffer:
      return `buffer: alignment 64 KiB, size rounded up to 64 KiB = ${exactBytes(a0)}`
    case Step.TransientTexture:
      return (
        `texture: alignment max(64 KiB, ${align(a1)}) = ${align(a0)}, ` +
        `size ${exactBytes(a2)}${a3 ? ' (estimated)' : ' (driver)'}`
      )
    case Step.CommittedTexture:
      return `Committed: size ${exactBytes(a0)}, alignment ${align(a1)}`
    default:
      return `step ${code}`
  }
}

function fourK(verdict: number, n: number, tw: number, th: number, td: number): string {
  const shape = td > 1 ? `${tw}×${th}×${td}` : `${tw}×${th}`
  switch (verdict) {
    case FourK.Yes:
      return `yes: ${n} tiles of ${shape} ≤ 16`
    case FourK.Reserved:
      return 'no: ReservedResource'
    case FourK.Video:
      return 'no: video format'
    case FourK.RenderTarget:
      return 'no: RenderTargetable|DepthStencilTargetable'
    case FourK.Samples:
      return `no: ${n} samples`
    default:
      return `no: ${n} tiles of ${shape} > 16`
  }
}
