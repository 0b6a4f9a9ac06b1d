/**
 * Textures (seed §4): the 4 KiB alignment test (FD3D12Texture::CanBe4KAligned with Get4KTileShape and
 * GetTilesNeeded), a size estimate in the spirit of the D3D12 standard swizzle layout for captures without the
 * driver's size, the copyable footprint of CPUReadback textures, and the texture ladder.
 */
import { namesOf, TEXTURE_FLAGS } from '../../../shared/capture'
import type { TextureDesc, TextureDim } from '../../../shared/capture'
import { dxgiFormat } from '../../../shared/dxgi'
import type { ModelConfig } from '../../../shared/model'
import { KiB, MiB, roundUp } from '../../../shared/units'
import type { Bytes } from '../../../shared/units'
import { grown } from '../grown'
import { DescIds } from '../../../shared/descIds'
import { Family, HEAP_INDEX, PLACEMENT_INDEX, Target, TILE } from './ladder'
import { AlignSource, FourK, Step } from './route'
import type { RouteTrace } from './route'
import { doubleFields } from '../doubles'

const bit = (name: (typeof TEXTURE_FLAGS)[number]) => 1 << TEXTURE_FLAGS.indexOf(name)

export const TexFlag = {
  RenderTargetable: bit('RenderTargetable'),
  ResolveTargetable: bit('ResolveTargetable'),
  DepthStencilTargetable: bit('DepthStencilTargetable'),
  UAV: bit('UAV'),
  CPUReadback: bit('CPUReadback'),
  ReservedResource: bit('ReservedResource'),
  ImmediateCommit: bit('ImmediateCommit'),
  Shared: bit('Shared'),
} as const

const FLAG_BITS = new Map<string, number>(TEXTURE_FLAGS.map((name, i) => [name, 1 << i]))

export function textureFlagMask(list: readonly string[] | undefined): number {
  let mask = 0
  if (!list) return mask
  for (let i = 0; i < list.length; i++) mask |= FLAG_BITS.get(list[i]) ?? 0
  return mask
}

/** D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT */
export const SMALL_ALIGNMENT = 4 * KiB
/** D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT */
export const MSAA_ALIGNMENT = 4 * MiB
/** NUM_4K_BLOCKS_PER_64K_PAGE */
const MAX_4K_TILES = 16
/** D3D12_TEXTURE_DATA_PITCH_ALIGNMENT and D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (GetCopyableFootprints). */
const PITCH_ALIGNMENT = 256
const PLACEMENT_ALIGNMENT = 512

/** A texture's shape, parsed once from the desc (plain numbers; the desc object is not kept). */
export interface TextureGeometry {
  dim: TextureDim
  width: number
  height: number
  /** Depth of a 3d texture, 1 otherwise. */
  depth: number
  /** Array slices (cube faces counted), 1 for 3d. */
  slices: number
  mips: number
  samples: number
  /** Bits per element (a texel, or a 4×4 block). */
  bits: number
  /** Texels per element edge: 4 for BC formats. */
  block: number
  /** Planar 4:2:0 video format: a second plane of half the height follows the first. */
  planar: boolean
  /** NV12 or P010: never 4 KiB aligned (CanBe4KAligned). */
  video: boolean
  /** The format is a depth format (a resolve target of it is a depth-stencil target). */
  depthFormat: boolean
  flags: number
  /** The driver's size and alignment, 0 when the capture does not give them. */
  driverSize: Bytes
  driverAlign: Bytes
  /** Unknown format: the estimate assumed 32 bits per texel. */
  unknownFormat: boolean
}

export function newGeometry(): TextureGeometry {
  const g: TextureGeometry = {
    dim: '2d',
    width: 1,
    height: 1,
    depth: 1,
    slices: 1,
    mips: 1,
    samples: 1,
    bits: 32,
    block: 1,
    planar: false,
    video: false,
    depthFormat: false,
    flags: 0,
    driverSize: 0,
    driverAlign: 0,
    unknownFormat: false,
  }
  return doubleFields(g, ['driverSize', 'driverAlign'])
}

const PLANAR_420 = new Set(['NV12', 'P010', 'P016', '420_OPAQUE'])

const positive = (v: number | undefined, fallback: number) =>
  v !== undefined && Number.isFinite(v) && v >= 1 ? Math.floor(v) : fallback

/** Reads a desc into `out` (no reference to the desc is kept). */
export function readGeometry(desc: TextureDesc, out: TextureGeometry): TextureGeometry {
  const dim = desc.dim ?? '2d'
  out.dim = dim
  out.width = positive(desc.width, 1)
  out.height = positive(desc.height, 1)
  const depthOrArray = positive(desc.depth, 1)
  if (dim === '3d') {
    out.depth = depthOrArray
    out.slices = 1
  } else {
    out.depth = 1
    out.slices = dim === 'cube' || dim === 'cubearray' ? 6 * depthOrArray : depthOrArray
  }
  const largest = Math.max(out.width, out.height, out.depth)
  const maxMips = Math.floor(Math.log2(largest)) + 1
  out.mips = Math.min(positive(desc.mips, 1), maxMips)
  out.samples = positive(desc.samples, 1)
  const fmt = dxgiFormat(desc.format)
  out.unknownFormat = !fmt || fmt.bits === 0
  out.bits = out.unknownFormat ? 32 : Math.max(8, fmt!.bits)
  out.block = fmt?.block ?? 1
  out.planar = fmt !== undefined && PLANAR_420.has(fmt.name)
  out.video = fmt !== undefined && (fmt.name === 'NV12' || fmt.name === 'P010')
  out.depthFormat = fmt?.depth === true
  out.flags = textureFlagMask(desc.flags)
  out.driverSize = desc.size !== undefined && desc.size > 0 ? desc.size : 0
  out.driverAlign = desc.align !== undefined && desc.align > 0 ? desc.align : 0
  return out
}

/** D3D12 DepthOrArraySize: the depth of a 3d texture, the array slices (cube faces included) otherwise. */
export function depthOrArraySize(g: TextureGeometry): number {
  return g.dim === '3d' ? g.depth : g.slices
}

export function isRenderTarget(g: TextureGeometry): boolean {
  if (g.flags & (TexFlag.RenderTargetable | TexFlag.DepthStencilTargetable)) return true
  // A resolve target is created ALLOW_RENDER_TARGET (or ALLOW_DEPTH_STENCIL for a depth format).
  return (g.flags & TexFlag.ResolveTargetable) !== 0
}

// Tile shapes in elements (texels, or blocks for BC formats) per bits-per-element class 8, 16, 32, 64, 128.
const SHAPE_4K_2D = [
  [64, 64, 1],
  [64, 32, 1],
  [32, 32, 1],
  [32, 16, 1],
  [16, 16, 1],
]
const SHAPE_4K_3D = [
  [16, 16, 16],
  [16, 16, 8],
  [16, 8, 8],
  [8, 8, 8],
  [8, 8, 4],
]
const SHAPE_64K_2D = [
  [256, 256, 1],
  [256, 128, 1],
  [128, 128, 1],
  [128, 64, 1],
  [64, 64, 1],
]
const SHAPE_64K_3D = [
  [64, 32, 32],
  [32, 32, 32],
  [32, 32, 16],
  [32, 16, 16],
  [16, 16, 16],
]

function bppClass(bits: number): number {
  if (bits <= 8) return 0
  if (bits <= 16) return 1
  if (bits <= 32) return 2
  if (bits <= 64) return 3
  // 96-bit formats have no standard tile; the 128-bit shape bounds them.
  return 4
}

/** Scratch tile shape in texels: [width, height, depth]. */
const shape = new Int32Array(3)

/** The tile shape in texels for a tile of `tileBytes` (4 KiB or 64 KiB), MSAA shrinking it as Get4KTileShape does. */
function tileShape(g: TextureGeometry, tileBytes: Bytes): Int32Array {
  const c = bppClass(g.bits)
  const small = tileBytes === SMALL_ALIGNMENT
  const table = g.dim === '3d' ? (small ? SHAPE_4K_3D : SHAPE_64K_3D) : small ? SHAPE_4K_2D : SHAPE_64K_2D
  let w = table[c][0]
  let h = table[c][1]
  const d = table[c][2]
  if (g.dim !== '3d' && g.samples > 1 && g.block === 1) {
    if (g.samples <= 2) w /= 2
    else if (g.samples <= 4) {
      w /= 2
      h /= 2
    } else if (g.samples <= 8) {
      w /= 4
      h /= 2
    } else {
      w /= 4
      h /= 4
    }
  }
  shape[0] = Math.max(1, w) * g.block
  shape[1] = Math.max(1, h) * g.block
  shape[2] = d
  return shape
}

export interface FourKVerdict {
  verdict: number
  /** Tiles needed (FourK.Yes / Tiles) or the sample count (Samples). */
  count: number
  tileWidth: number
  tileHeight: number
  tileDepth: number
}

export function newVerdict(): FourKVerdict {
  return { verdict: 0, count: 0, tileWidth: 0, tileHeight: 0, tileDepth: 1 }
}

/**
 * CanBe4KAligned: not reserved, not NV12/P010, no RT/DS, one sample, and the most detailed mip fits 16 tiles of
 * 4 KiB. GetTilesNeeded counts DepthOrArraySize, so every array slice (and cube face) of the top mip counts.
 */
export function canBe4KAligned(g: TextureGeometry, out: FourKVerdict): FourKVerdict {
  out.count = 0
  out.tileWidth = 0
  out.tileHeight = 0
  out.tileDepth = 1
  if (g.flags & TexFlag.ReservedResource) out.verdict = FourK.Reserved
  else if (g.video) out.verdict = FourK.Video
  else if (isRenderTarget(g)) out.verdict = FourK.RenderTarget
  else if (g.samples !== 1) {
    out.verdict = FourK.Samples
    out.count = g.samples
  } else {
    const s = tileShape(g, SMALL_ALIGNMENT)
    const td = g.dim === '3d' ? s[2] : 1
    const tiles = Math.ceil(g.width / s[0]) * Math.ceil(g.height / s[1]) * Math.ceil(depthOrArraySize(g) / td)
    out.count = tiles
    out.tileWidth = s[0]
    out.tileHeight = s[1]
    out.tileDepth = td
    out.verdict = tiles <= MAX_4K_TILES ? FourK.Yes : FourK.Tiles
  }
  return out
}

/** The tile size an alignment implies for the estimate: 4 KiB tiles for 4 KiB, 64 KiB tiles otherwise. */
export function estimateTileBytes(alignment: Bytes): Bytes {
  return alignment <= SMALL_ALIGNMENT ? SMALL_ALIGNMENT : TILE
}

function planeSize(g: TextureGeometry, height: number, tileBytes: Bytes): Bytes {
  const s = tileShape(g, tileBytes)
  const tw = s[0]
  const th = s[1]
  const td = g.dim === '3d' ? s[2] : 1
  const bytesPerElement = g.bits / 8
  let tiles = 0
  for (let m = 0; m < g.mips; m++) {
    const w = Math.max(1, Math.floor(g.width / 2 ** m))
    const h = Math.max(1, Math.floor(height / 2 ** m))
    const d = Math.max(1, Math.floor(g.depth / 2 ** m))
    if (w < tw || h < th || (g.dim === '3d' && d < td)) {
      // The packed mip tail: every remaining mip, packed together into whole tiles.
      let tail = 0
      for (let t = m; t < g.mips; t++) {
        const tw2 = Math.max(1, Math.floor(g.width / 2 ** t))
        const th2 = Math.max(1, Math.floor(height / 2 ** t))
        const td2 = Math.max(1, Math.floor(g.depth / 2 ** t))
        tail += Math.ceil(tw2 / g.block) * Math.ceil(th2 / g.block) * td2 * bytesPerElement * g.samples
      }
      tiles += Math.max(1, Math.ceil(tail / tileBytes))
      break
    }
    tiles += Math.ceil(w / tw) * Math.ceil(h / th) * Math.ceil(d / td)
  }
  return tiles * tileBytes * g.slices
}

/**
 * A size estimate like the D3D12 standard swizzle layout: each mip padded to whole tiles of the alignment's tile
 * shape, the mips smaller than a tile packed into a tail of whole tiles, every slice alike, the total rounded up
 * to the alignment.
 */
export function estimateTextureSize(g: TextureGeometry, alignment: Bytes): Bytes {
  const tileBytes = estimateTileBytes(alignment)
  let size = planeSize(g, g.height, tileBytes)
  if (g.planar) size += planeSize(g, Math.ceil(g.height / 2), tileBytes)
  return roundUp(size, alignment)
}

/**
 * GetCopyableFootprints: rows pitched to 256 B, subresources placed at 512 B, total of all subresources. Every
 * slice starts at a 512 B boundary with the same mips, so it spans what the first does: the slices are worked out
 * from one, however many a desc names.
 */
export function copyableFootprint(g: TextureGeometry): Bytes {
  const bytesPerElement = g.bits / 8
  let span = 0
  for (let m = 0; m < g.mips; m++) {
    const w = Math.max(1, Math.floor(g.width / 2 ** m))
    const h = Math.max(1, Math.floor(g.height / 2 ** m))
    const d = Math.max(1, Math.floor(g.depth / 2 ** m))
    const rowBytes = Math.ceil(w / g.block) * bytesPerElement
    const rows = Math.ceil(h / g.block)
    const offset = roundUp(span, PLACEMENT_ALIGNMENT)
    span = offset + roundUp(rowBytes, PITCH_ALIGNMENT) * (rows * d - 1) + rowBytes
  }
  return g.slices > 0 ? (g.slices - 1) * roundUp(span, PLACEMENT_ALIGNMENT) + span : 0
}

/** A texture decision, filled in place. */
export interface TextureDecision {
  target: number
  placement: number
  heap: number
  family: number
  /** The desc's alignment (after the last gate: 64 KiB, or 4 MiB for MSAA). */
  alignment: Bytes
  /** Bytes the request asked for: the driver's size or the estimate. */
  requested: Bytes
  /** Occupied bytes for committed and reserved textures (pools compute theirs). */
  size: Bytes
  estimated: boolean
  /** Reserved: bytes committed at creation (ImmediateCommit). */
  committed: Bytes
}

export function newTextureDecision(): TextureDecision {
  const d: TextureDecision = {
    target: 0,
    placement: 0,
    heap: 0,
    family: -1,
    alignment: TILE,
    requested: 0,
    size: 0,
    estimated: false,
    committed: 0,
  }
  return doubleFields(d, ['alignment', 'requested', 'size', 'committed'])
}

const verdict = newVerdict()

/** §4.2: level 1, level 2 and the last gate; its steps into `trace` unless null. */
export function decideTexture(g: TextureGeometry, config: ModelConfig, trace: RouteTrace | null, out: TextureDecision): void {
  out.family = -1
  out.committed = 0
  // A pooled texture's occupied bytes are the pool's to work out: every field is written, so a decision is whole.
  out.size = 0
  trace?.push(Step.Transient, 0)

  const cpuReadback = (g.flags & TexFlag.CPUReadback) !== 0
  if (cpuReadback) {
    const footprint = copyableFootprint(g)
    trace?.push(Step.CpuReadback, 1, footprint)
    out.target = Target.Committed
    out.placement = PLACEMENT_INDEX.Committed
    out.heap = HEAP_INDEX.READBACK
    out.alignment = TILE
    out.requested = footprint
    out.size = roundUp(footprint, TILE)
    out.estimated = false
    return
  }
  trace?.push(Step.CpuReadback, 0)

  const reserved = (g.flags & TexFlag.ReservedResource) !== 0
  if (reserved) {
    // Reserved textures use the 64KB_UNDEFINED_SWIZZLE layout: 64 KiB tiles.
    const size = g.driverSize > 0 ? g.driverSize : estimateTextureSize(g, TILE)
    const virtualSize = roundUp(size, TILE)
    const immediate = (g.flags & TexFlag.ImmediateCommit) !== 0
    trace?.push(Step.TextureReserved, 1, 1, virtualSize, immediate ? 1 : 0)
    out.target = Target.Reserved
    out.placement = PLACEMENT_INDEX.Reserved
    out.heap = HEAP_INDEX.DEFAULT
    out.alignment = TILE
    out.requested = size
    out.size = virtualSize
    out.estimated = g.driverSize === 0
    out.committed = immediate ? virtualSize : 0
    return
  }
  trace?.push(Step.TextureReserved, 0)

  canBe4KAligned(g, verdict)
  trace?.push(Step.FourK, verdict.verdict, verdict.count, verdict.tileWidth, verdict.tileHeight, verdict.tileDepth)
  const msaa = g.samples > 1
  let alignment: Bytes
  let source: number
  if (g.driverAlign > 0) {
    alignment = g.driverAlign
    source = AlignSource.Driver
  } else if (verdict.verdict === FourK.Yes) {
    alignment = SMALL_ALIGNMENT
    source = AlignSource.FourK
  } else if (msaa) {
    alignment = MSAA_ALIGNMENT
    source = AlignSource.Msaa
  } else {
    alignment = TILE
    source = AlignSource.Default
  }
  trace?.push(Step.TextureAlignment, alignment, source)
  const estimated = g.driverSize === 0
  const size = estimated ? estimateTextureSize(g, alignment) : g.driverSize
  trace?.push(Step.TextureSize, size, estimated ? 1 : 0, estimateTileBytes(alignment))
  out.alignment = alignment
  out.requested = size
  out.estimated = estimated
  out.heap = HEAP_INDEX.DEFAULT

  // Level 2: which texture pool.
  const rtuavSize = config['texturePool.rtuav.size']
  let family: number
  let max: Bytes
  let key: number
  let poolAlignment: Bytes
  const rt = isRenderTarget(g)
  const uav = (g.flags & TexFlag.UAV) !== 0
  trace?.push(Step.RenderTarget, rt ? 1 : 0, rtuavSize, PLACEMENT_INDEX.TextureRTPool)
  if (!rt) trace?.push(Step.Uav, uav ? 1 : 0, rtuavSize, PLACEMENT_INDEX.TextureUAVPool)
  if (rt || uav) {
    if (rtuavSize <= 0) {
      committedTexture(g, out, trace)
      return
    }
    family = rt ? Family.TextureRT : Family.TextureUAV
    max = config['texturePool.rtuav.maxAllocation']
    key = 5
    poolAlignment = TILE
  } else {
    const fourK = alignment === SMALL_ALIGNMENT
    trace?.push(Step.ReadOnlyPool, fourK ? 1 : 0)
    family = fourK ? Family.TextureReadOnly4K : Family.TextureReadOnly
    max = fourK ? config['texturePool.readOnly4K.maxAllocation'] : config['texturePool.readOnly.maxAllocation']
    key = fourK ? 4 : 3
    poolAlignment = fourK ? SMALL_ALIGNMENT : TILE
  }

  // The last gate.
  const over = size > max
  trace?.push(Step.GateSize, size, max, over ? 1 : 0, key)
  if (over) {
    committedTexture(g, out, trace)
    return
  }
  const shared = (g.flags & TexFlag.Shared) !== 0
  trace?.push(Step.GateShared, shared ? 1 : 0)
  if (shared) {
    committedTexture(g, out, trace)
    return
  }
  const alignOver = alignment > poolAlignment
  trace?.push(Step.GateAlignment, alignment, poolAlignment, alignOver ? 1 : 0)
  if (alignOver) {
    committedTexture(g, out, trace)
    return
  }
  out.target = Target.Pool
  out.family = family
  out.placement =
    family === Family.TextureReadOnly4K
      ? PLACEMENT_INDEX.TextureReadOnly4KPool
      : family === Family.TextureReadOnly
        ? PLACEMENT_INDEX.TextureReadOnlyPool
        : family === Family.TextureRT
          ? PLACEMENT_INDEX.TextureRTPool
          : PLACEMENT_INDEX.TextureUAVPool
}

/** A committed texture is created with Alignment 0: 64 KiB, or 4 MiB with MSAA; its size follows that layout. */
function committedTexture(g: TextureGeometry, out: TextureDecision, trace: RouteTrace | null): void {
  const alignment = g.samples > 1 ? MSAA_ALIGNMENT : TILE
  const size = g.driverSize > 0 ? g.driverSize : estimateTextureSize(g, alignment)
  out.target = Target.Committed
  out.placement = PLACEMENT_INDEX.Committed
  out.heap = HEAP_INDEX.DEFAULT
  out.alignment = alignment
  out.requested = size
  out.size = roundUp(size, alignment)
  out.estimated = g.driverSize === 0
  trace?.push(Step.CommittedTexture, out.size, alignment)
}

/** A desc field the decision cache keys on: a number, NaN when absent; null when it is neither. */
function keyNumber(v: unknown): number | null {
  if (typeof v === 'number') return v
  return v === undefined ? NaN : null
}

const TEXTURE_KEY_FIELDS = 10

/**
 * Texture decisions by desc. A decision is a pure function of the desc (its shape, format, flags, the driver's
 * size and alignment; not its name or tag) and the config, so a model works each distinct desc out once: a
 * capture creates the same few kinds of texture over and over. The key is the desc's fields, the format and the
 * dimension by number and the flags as their mask; the last desc looked up can be rebuilt from it (for its route).
 */
export class TextureDecisions {
  /** width, height, format, flags (hashed), dim, depth, mips, samples, size, align. */
  private readonly ids = new DescIds(TEXTURE_KEY_FIELDS, 4)
  private readonly names = new Map<string, number>()
  private readonly nameList: string[] = []
  private count = 0
  private target = new Uint8Array(64)
  private placement = new Uint8Array(64)
  private heap = new Uint8Array(64)
  private family = new Int8Array(64)
  private estimated = new Uint8Array(64)
  private alignment = new Float64Array(64)
  private requested = new Float64Array(64)
  private size = new Float64Array(64)
  private committed = new Float64Array(64)
  private readonly geometry = newGeometry()

  /**
   * The decision for `desc` into `out`, as decideTexture(readGeometry(desc), config) gives it (no route steps),
   * and the number of its desc (descs equal but for -0 and 0 share one); -1 when the desc has a field of another
   * type than the desc's (then nothing is written).
   */
  decide(desc: TextureDesc, config: ModelConfig, out: TextureDecision): number {
    const key = this.ids.fields
    const width = keyNumber(desc.width)
    const height = keyNumber(desc.height)
    const depth = keyNumber(desc.depth)
    const mips = keyNumber(desc.mips)
    const samples = keyNumber(desc.samples)
    const size = keyNumber(desc.size)
    const align = keyNumber(desc.align)
    const format = desc.format
    const dim = desc.dim ?? '2d'
    if (
      width === null || height === null || depth === null || mips === null || samples === null || size === null ||
      align === null || (format !== undefined && typeof format !== 'string') || typeof dim !== 'string'
    ) {
      return -1
    }
    key[0] = width
    key[1] = height
    key[2] = format === undefined ? -1 : this.name(format)
    key[3] = textureFlagMask(desc.flags)
    key[4] = this.name(dim)
    key[5] = depth
    key[6] = mips
    key[7] = samples
    key[8] = size
    key[9] = align
    const id = this.ids.id()
    if (id === this.count) {
      decideTexture(readGeometry(desc, this.geometry), config, null, out)
      this.add(id, out)
      return id
    }
    return this.decisionOf(id, out)
  }

  /** The decision of desc number `id` (one decide() returned) into `out`; returns `id`. */
  decisionOf(id: number, out: TextureDecision): number {
    out.target = this.target[id]
    out.placement = this.placement[id]
    out.heap = this.heap[id]
    out.family = this.family[id]
    out.alignment = this.alignment[id]
    out.requested = this.requested[id]
    out.size = this.size[id]
    out.estimated = this.estimated[id] === 1
    out.committed = this.committed[id]
    return id
  }

  /** The desc of a number decide() returned, rebuilt from its key (name and tag aside), into `out`. */
  descOf(id: number, out: TextureDesc): TextureDesc {
    const key = this.ids.fieldsOf(id, new Float64Array(TEXTURE_KEY_FIELDS))
    const number = (v: number) => (Number.isNaN(v) ? undefined : v)
    out.width = number(key[0])
    out.height = number(key[1])
    out.format = key[2] < 0 ? undefined : this.nameList[key[2]]
    out.flags = namesOf(TEXTURE_FLAGS, key[3])
    out.dim = this.nameList[key[4]] as TextureDim
    out.depth = number(key[5])
    out.mips = number(key[6])
    out.samples = number(key[7])
    out.size = number(key[8])
    out.align = number(key[9])
    return out
  }

  private name(name: string): number {
    let id = this.names.get(name)
    if (id === undefined) {
      id = this.nameList.length
      this.names.set(name, id)
      this.nameList.push(name)
    }
    return id
  }

  private add(id: number, d: TextureDecision): void {
    if (id === this.target.length) {
      const n = id * 2
      this.target = grown(this.target, n)
      this.placement = grown(this.placement, n)
      this.heap = grown(this.heap, n)
      this.family = grown(this.family, n)
      this.estimated = grown(this.estimated, n)
      this.alignment = grown(this.alignment, n)
      this.requested = grown(this.requested, n)
      this.size = grown(this.size, n)
      this.committed = grown(this.committed, n)
    }
    this.target[id] = d.target
    this.placement[id] = d.placement
    this.heap[id] = d.heap
    this.family[id] = d.family
    this.estimated[id] = d.estimated ? 1 : 0
    this.alignment[id] = d.alignment
    this.requested[id] = d.requested
    this.size[id] = d.size
    this.committed[id] = d.committed
    this.count = id + 1
  }
}

/** A transient texture's placement size and alignment (seed §6.2): max(64 KiB, the resource's alignment). */
export interface TransientTextureLayout {
  size: Bytes
  alignment: Bytes
  resourceAlignment: Bytes
}

/** A transient texture's size and placement alignment, written into `out` when given (a replay reuses one). */
export function transientTextureLayout(
  g: TextureGeometry,
  out: TransientTextureLayout = { size: 0, alignment: 0, resourceAlignment: 0 },
): TransientTextureLayout {
  const natural = g.samples > 1 ? MSAA_ALIGNMENT : TILE
  const resourceAlignment = g.driverAlign > 0 ? g.driverAlign : natural
  out.size = g.driverSize > 0 ? g.driverSize : estimateTextureSize(g, natural)
  out.alignment = Math.max(TILE, resourceAlignment)
  out.resourceAlignment = resourceAlignment
  return out
}
