/**
 * `vulkan` and `vulkan-hazards`: a Vulkan renderer's memory as seeds/vulkan-memory-management.zh.txt lays it
 * out (format 1.1, docs/capture-format-vulkan.md). The device has video memory, system memory and a small
 * DEVICE_LOCAL|HOST_VISIBLE window; its HOST_CACHED type is not HOST_COHERENT (§2.1). Every resource carries its
 * VkMemoryRequirements, so the model chooses memory types from memoryTypeBits and property flags (§2.3, §3):
 * - long-lived meshes and material textures of a world streamed cell by cell, sub-allocated from large blocks
 *   (§4.1), released as cells unload and freed only once the GPU finished their frame (§7.2);
 * - render targets the driver prefers dedicated, and a virtual-texture pool too big for a block;
 * - per-frame dynamic uniform data and volatile vertex data through the linear allocator, reset each frame
 *   (§4.2, §7.3), initial data and streamed texels through the staging ring (§5, §7.3);
 * - two pieces of application memory: an attachment heap where two render targets alias, activated in turn by
 *   aliasing barriers and initialized by a clear or a discard, and a persistently mapped upload heap in the
 *   non-coherent type, written and flushed by ranges aligned to nonCoherentAtomSize every frame (§5.3).
 * `vulkan-hazards` is the same frames with three mistakes, one each at a quarter, a half and three quarters of
 * the capture: a buffer bound at an offset that is not a multiple of its alignment (bind-misaligned), a flush
 * whose size is not a multiple of nonCoherentAtomSize (flush-misaligned), and a read of the ambient-occlusion
 * target after the bloom target was activated on its bytes (access-inactive).
 */
import { GiB, KiB, MiB, roundUp } from '../../../shared/units'
import type { AccessOp, BufferUsage, TextureFlag } from '../../../shared/capture'
import type {
  MemoryRequirements,
  VulkanBufferRecord,
  VulkanCaptureHeader,
  VulkanDeviceInfo,
  VulkanHeapRecord,
  VulkanPlacedRecord,
  VulkanTextureRecord,
} from '../../model/vulkan/captureTypes'
import type { Prng } from '../prng'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { mipCount, textureAllocation } from '../textures'
import type { CaptureWriter } from '../writer'

const ADAPTER = ADAPTERS.rtx4070
/** VK_EXT_memory_budget's budget of the video memory heap: what the OS leaves the application. */
const BUDGET = Math.round(ADAPTER.vram * 0.9)

/** The device: heap 0 video memory, heap 1 system memory, heap 2 the host-visible window into video memory. */
export const VULKAN_SCENARIO_DEVICE: VulkanDeviceInfo = {
  memoryHeaps: [
    { size: ADAPTER.vram, flags: ['DEVICE_LOCAL'], budget: BUDGET },
    { size: 32 * GiB, flags: [] },
    { size: 256 * MiB, flags: ['DEVICE_LOCAL'] },
  ],
  memoryTypes: [
    { heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] },
    { heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
    { heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_CACHED'] },
    { heapIndex: 2, propertyFlags: ['DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT'] },
  ],
  maxMemoryAllocationCount: 4096,
  bufferImageGranularity: 1024,
  nonCoherentAtomSize: 64,
  deviceName: ADAPTER.name,
  apiVersion: '1.3.280',
}

/** memoryTypeBits as a driver reports them: buffers may live anywhere, images only in DEVICE_LOCAL types. */
const ALL_TYPES = 0b1111
const IMAGE_TYPES = 0b1001
const ATTACHMENT_TYPES = 0b0001
const HOST_TYPES = 0b0110
/** The non-coherent HOST_VISIBLE|HOST_CACHED type of the persistently mapped upload heap. */
const UPLOAD_HEAP_TYPE = 2
const ATOM = VULKAN_SCENARIO_DEVICE.nonCoherentAtomSize

const ATTACHMENT_HEAP_SIZE = 64 * MiB
const UPLOAD_HEAP_SIZE = 8 * MiB
/** The mapped heap: instance data from 0, a per-frame ring of constants from 1 MiB, a stats buffer at 5 MiB. */
const INSTANCE_BYTES = 1 * MiB
const RING_START = 1 * MiB
const RING_SLICE = 512 * KiB
const STATS_OFFSET = 5 * MiB
/** The culled light grid sits on its own page, away from the aliased targets (bufferImageGranularity). */
const LIGHT_GRID_OFFSET = 32 * MiB

const STAGING_RING = 128 * MiB
/** Per-frame blocks for a few MiB of dynamic uniform and vertex data a frame. */
const LINEAR_BLOCK = 16 * MiB

const CELLS = 24
const MESHES_PER_CELL: [number, number] = [5, 9]
const TEXTURES_PER_CELL: [number, number] = [3, 6]

function bufferRequirements(size: number, alignment: number, memoryTypeBits = ALL_TYPES): MemoryRequirements {
  return { size: roundUp(size, alignment), alignment, memoryTypeBits }
}

interface Cell {
  buffers: number[]
  textures: number[]
}

interface Target {
  name: string
  format: string
  flags: TextureFlag[]
  id: number
}

/** The renderer's resources and what it does every frame. */
class VulkanRenderer {
  private readonly cells: Cell[] = []
  private cellSerial = 0
  private volatile: number[] = []
  private readonly targets: Target[] = [
    { name: 'SceneColor', format: 'R16G16B16A16_FLOAT', flags: ['RenderTargetable', 'ShaderResource'], id: 0 },
    { name: 'SceneDepth', format: 'D32_FLOAT', flags: ['DepthStencilTargetable', 'ShaderResource'], id: 0 },
    { name: 'GBufferA', format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable', 'ShaderResource'], id: 0 },
    { name: 'GBufferB', format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable', 'ShaderResource'], id: 0 },
    { name: 'GBufferC', format: 'R10G10B10A2_UNORM', flags: ['RenderTargetable', 'ShaderResource'], id: 0 },
    { name: 'Velocity', format: 'R16G16_FLOAT', flags: ['RenderTargetable', 'ShaderResource'], id: 0 },
  ]
  private attachmentHeap = 0
  private uploadHeap = 0
  private ssao = 0
  private bloom = 0
  private lightGrid = 0
  private instances = 0
  private landscape = 0
  private stats = -1
  private stagedBytes = 0
  /** The frame the stats buffer is bound in, and the frames of the mistakes of `vulkan-hazards` (-1: none). */
  private readonly statsFrame: number
  private readonly misbind: boolean
  private readonly misflush: number
  private readonly inactiveRead: number
  private readonly resize: number

  constructor(
    private readonly out: CaptureWriter,
    private readonly rng: Prng,
    frames: number,
    mistakes: boolean,
  ) {
    const at = (fraction: number) => Math.max(2, Math.round(frames * fraction))
    this.statsFrame = at(0.25)
    this.misbind = mistakes
    this.misflush = mistakes ? at(0.5) : -1
    this.inactiveRead = mistakes ? at(0.75) : -1
    this.resize = at(0.6)
  }

  private id(): number {
    return this.out.ids.take(this.out.frameNumber)
  }

  private buffer(name: string, tag: string, size: number, usage: BufferUsage[], mr: MemoryRequirements, extra: Partial<VulkanBufferRecord> = {}): number {
    const id = this.id()
    const record: VulkanBufferRecord = { e: 'buffer', id, size, usage, name, tag, memoryRequirements: mr, ...extra }
    this.out.record(record)
    return id
  }

  private texture(
    name: string,
    tag: string,
    format: string,
    width: number,
    height: number,
    mips: number,
    flags: TextureFlag[],
    memoryTypeBits: number,
    extra: Partial<VulkanTextureRecord> = {},
  ): { id: number; size: number } {
    const id = this.id()
    const target = flags.includes('RenderTargetable') || flags.includes('DepthStencilTargetable')
    const driver = textureAllocation({ dim: '2d', format, width, height, depth: 1, mips, samples: 1, target })
    const record: VulkanTextureRecord = {
      e: 'texture',
      id,
      dim: '2d',
      format,
      width,
      height,
      ...(mips > 1 ? { mips } : {}),
      flags,
      name,
      tag,
      memoryRequirements: { size: driver.size, alignment: driver.align, memoryTypeBits },
      ...extra,
    }
    this.out.record(record)
    return { id, size: driver.size }
  }

  private release(id: number): void {
    this.out.release(id)
  }

  private access(id: number, op: AccessOp): void {
    this.out.record({ e: 'access', id, op })
  }

  frame(n: number): void {
    if (n === 1) this.start()
    if (n === this.resize) this.createTargets(3840, 2160)
    this.stream(n)
    this.perFrameData(n)
    this.attachments(n)
    this.mappedWrites(n)
    this.out.record({ e: 'submit' })
    if (this.stagedBytes > 0) this.out.upload('staging', this.stagedBytes, 1)
    this.stagedBytes = 0
  }

  /** What a renderer sets up before its first frame. */
  private start(): void {
    const out = this.out
    this.attachmentHeap = this.id()
    const attachments: VulkanHeapRecord = {
      e: 'heap',
      id: this.attachmentHeap,
      size: ATTACHMENT_HEAP_SIZE,
      type: 'default',
      memoryType: 0,
      name: 'AttachmentHeap',
    }
    out.record(attachments)
    this.uploadHeap = this.id()
    const upload: VulkanHeapRecord = {
      e: 'heap',
      id: this.uploadHeap,
      size: UPLOAD_HEAP_SIZE,
      type: 'upload',
      memoryType: UPLOAD_HEAP_TYPE,
      name: 'PersistentUpload',
    }
    out.record(upload)
    out.record({ e: 'map', memory: this.uploadHeap, offset: 0 })

    // The aliased attachments: ambient occlusion and the bloom setup share the heap's first bytes.
    this.ssao = this.placed('SSAO.Target', 'R8_UNORM', 2560, 1440, 0)
    this.bloom = this.placed('Bloom.Setup', 'R11G11B10_FLOAT', 1280, 720, 0)
    this.lightGrid = this.id()
    const grid: VulkanPlacedRecord = {
      e: 'placed',
      id: this.lightGrid,
      heap: this.attachmentHeap,
      offset: LIGHT_GRID_OFFSET,
      kind: 'buffer',
      size: 2 * MiB,
      usage: ['UnorderedAccess', 'StructuredBuffer'],
      name: 'LightGrid.Culled',
      tag: 'Lighting',
      memoryRequirements: bufferRequirements(2 * MiB, 64, ALL_TYPES),
    }
    out.record(grid)

    // Instance data the CPU writes every frame, bound by the application into the mapped heap.
    this.instances = this.buffer('InstanceData.Upload', 'Upload', INSTANCE_BYTES, ['StructuredBuffer', 'Dynamic'], bufferRequirements(INSTANCE_BYTES, 256, HOST_TYPES), {
      explicit: true,
      required: ['HOST_VISIBLE'],
    })
    out.record({ e: 'bind', id: this.instances, memory: this.uploadHeap, offset: 0 })

    this.createTargets(2560, 1440)
    // A virtual texture's physical pool: 256 MiB of BC7, past vulkan.dedicatedMinSize.
    const pool = this.texture('VT.PhysicalPool', 'VirtualTexture', 'BC7_UNORM', 16384, 16384, 1, ['ShaderResource'], IMAGE_TYPES)
    this.stagedBytes += Math.min(pool.size, 16 * MiB)
    this.buffer('GPUScene.Instances', 'GPUScene', 16 * MiB, ['UnorderedAccess', 'StructuredBuffer'], bufferRequirements(16 * MiB, 64))
    this.buffer('View.UniformBuffer', 'UniformBuffers', 4 * KiB, ['Uniform', 'Dynamic'], bufferRequirements(4 * KiB, 256))
    this.buffer('GPUTimestamps.Readback', 'Readback', 64 * KiB, [], bufferRequirements(64 * KiB, 256, HOST_TYPES), {
      heap: 'readback',
    })
    this.landscape = this.buffer('Landscape.Heightfield', 'Landscape', 4 * MiB, ['Static', 'ShaderResource'], bufferRequirements(4 * MiB, 16), {
      init: true,
    })
    this.stagedBytes += 4 * MiB
  }

  private placed(name: string, format: string, width: number, height: number, offset: number): number {
    const id = this.id()
    const flags: TextureFlag[] = ['RenderTargetable', 'ShaderResource']
    const driver = textureAllocation({ dim: '2d', format, width, height, depth: 1, mips: 1, samples: 1, target: true })
    const record: VulkanPlacedRecord = {
      e: 'placed',
      id,
      heap: this.attachmentHeap,
      offset,
      kind: 'texture',
      dim: '2d',
      format,
      width,
      height,
      flags,
      name,
      tag: 'RenderTargets',
      memoryRequirements: { size: driver.size, alignment: driver.align, memoryTypeBits: ATTACHMENT_TYPES },
    }
    this.out.record(record)
    return id
  }

  /** Render targets at a resolution; the driver prefers them dedicated. The old ones go (deferred by the model). */
  private createTargets(width: number, height: number): void {
    for (const t of this.targets) {
      if (t.id) this.release(t.id)
      t.id = this.texture(t.name, 'RenderTargets', t.format, width, height, 1, t.flags, ATTACHMENT_TYPES, { dedicated: 'preferred' }).id
    }
  }

  /** The world: cells load one a frame up to CELLS, then one now and then replaces the oldest. */
  private stream(n: number): void {
    const rng = this.rng
    if (this.cells.length < CELLS) this.loadCell()
    else if (rng.chance(0.12)) {
      const old = this.cells.shift() as Cell
      for (const id of old.buffers) this.release(id)
      for (const id of old.textures) this.release(id)
      this.loadCell()
    }
    if (n % 60 === 0) this.out.lock(this.landscape, 256 * KiB)
  }

  private loadCell(): void {
    const rng = this.rng
    const serial = this.cellSerial++
    const cell: Cell = { buffers: [], textures: [] }
    const meshes = rng.int(...MESHES_PER_CELL)
    for (let m = 0; m < meshes; m++) {
      const name = `SM_Cell${serial}_${m}`
      const vertices = Math.round(rng.logRange(500, 60000))
      const vb = vertices * 12
      const ib = Math.round(vertices * 1.6) * 3 * (vertices > 65535 ? 4 : 2)
      cell.buffers.push(this.buffer(`${name}.VB`, 'Meshes', vb, ['Static', 'VertexBuffer'], bufferRequirements(vb, 16), { init: true }))
      cell.buffers.push(this.buffer(`${name}.IB`, 'Meshes', ib, ['Static', 'IndexBuffer'], bufferRequirements(ib, 16), { init: true }))
      this.stagedBytes += vb + ib
    }
    const textures = rng.int(...TEXTURES_PER_CELL)
    for (let t = 0; t < textures; t++) {
      const size = 2 ** rng.int(9, 11)
      const format = rng.pick(['BC7_UNORM', 'BC5_UNORM', 'BC1_UNORM'])
      const mips = mipCount(size, size)
      const made = this.texture(`T_Cell${serial}_${t}`, 'Textures', format, size, size, mips, ['ShaderResource', 'Streamable'], IMAGE_TYPES)
      cell.textures.push(made.id)
      this.stagedBytes += made.size
    }
    this.cells.push(cell)
  }

  /** Dynamic uniform data and volatile vertex data: the per-frame linear allocator. */
  private perFrameData(n: number): void {
    const rng = this.rng
    for (const id of this.volatile) this.release(id)
    this.volatile = []
    const draws = rng.int(1200, 1800)
    this.out.upload('fastConstant', draws * 256, draws)
    this.out.upload('fast', rng.int(64, 256) * KiB, rng.int(20, 60))
    for (let i = 0; i < 2; i++) {
      const size = rng.int(64, 256) * KiB
      this.volatile.push(this.buffer(`DynamicVB.Particles${i}`, 'Particles', size, ['Volatile', 'VertexBuffer'], bufferRequirements(size, 16)))
    }
    if (n === this.statsFrame) {
      // A stats buffer the application binds itself: at a multiple of its 256-byte alignment, or (the mistake) not.
      this.stats = this.buffer('Readback.Stats', 'Readback', 4 * KiB, ['StructuredBuffer'], bufferRequirements(4 * KiB, 256, HOST_TYPES), {
        explicit: true,
      })
      const offset = this.misbind ? STATS_OFFSET + 128 : STATS_OFFSET
      this.out.record({ e: 'bind', id: this.stats, memory: this.uploadHeap, offset })
    } else if (this.stats >= 0) {
      this.release(this.stats)
      this.stats = -1
    }
  }

  /** The attachment heap's frame: each aliased target activated, initialized, written and read in turn. */
  private attachments(n: number): void {
    const out = this.out
    if (n === 1) out.record({ e: 'barrier', after: this.lightGrid })
    out.record(n === 1 ? { e: 'barrier', after: this.ssao } : { e: 'barrier', after: this.ssao, before: this.bloom })
    this.access(this.ssao, 'clear')
    this.access(this.ssao, 'write')
    this.access(this.lightGrid, 'write')
    this.access(this.ssao, 'read')
    this.access(this.lightGrid, 'read')
    out.record({ e: 'barrier', after: this.bloom, before: this.ssao })
    this.access(this.bloom, 'discard')
    this.access(this.bloom, 'write')
    this.access(this.bloom, 'read')
    // The mistake: the composite pass reads ambient occlusion after bloom took its bytes.
    if (n === this.inactiveRead) this.access(this.ssao, 'read')
  }

  /** The mapped heap: instance data and a slice of the constant ring written, then flushed, before the submit. */
  private mappedWrites(n: number): void {
    const rng = this.rng
    const instanceBytes = rng.int(100, 1000) * 1000
    this.out.record({ e: 'write', id: this.instances, offset: 0, size: instanceBytes })
    this.out.record({ e: 'flush', id: this.instances, offset: 0, size: roundUp(instanceBytes, ATOM) })
    const slice = RING_START + (n % 4) * RING_SLICE
    const bytes = n === this.misflush ? rng.int(8, 1000) * ATOM + 36 : rng.int(8, 1000) * ATOM
    this.out.record({ e: 'write', memory: this.uploadHeap, offset: slice, size: bytes })
    // The mistake: the flush covers exactly the bytes written, which is not a whole number of atoms.
    const flushed = n === this.misflush ? bytes : roundUp(bytes, ATOM)
    this.out.record({ e: 'flush', memory: this.uploadHeap, offset: slice, size: flushed })
  }
}

function vulkanScenario(name: string, description: string, mistakes: boolean): Scenario {
  return {
    name,
    description,
    defaultFrames: 600,
    *run(out, { frames, seed }) {
      const base = captureHeader('VkRenderer-Shipping', ADAPTER, BUDGET, seed)
      const header: VulkanCaptureHeader = {
        ...base,
        api: 'vulkan',
        minor: 1,
        adapter: { name: ADAPTER.name, vram: ADAPTER.vram, uma: false },
        // The renderer sizes its staging ring for the loading screen's frames in flight, its per-frame blocks for a frame.
        config: { 'vulkan.staging.ringSize': STAGING_RING, 'vulkan.linear.blockSize': LINEAR_BLOCK },
        vulkan: VULKAN_SCENARIO_DEVICE,
        aliasing: 'simple',
      }
      out.header(header)
      const clock = new FrameClock(scenarioRng(seed, 71))
      const renderer = new VulkanRenderer(out, scenarioRng(seed, 72), frames, mistakes)
      for (let n = 1; n <= frames; n++) {
        clock.frame(out, n)
        clock.gpu(out, n)
        renderer.frame(n)
        yield
      }
    },
  }
}

export const vulkan = vulkanScenario(
  'vulkan',
  'A Vulkan renderer as the Vulkan seed lays it out: memory types from requirements, blocks sub-allocated, ' +
    'dedicated render targets, a per-frame linear allocator, a staging ring, deferred release, aliased attachments',
  false,
)

export const vulkanHazards = vulkanScenario(
  'vulkan-hazards',
  'The vulkan scenario with three mistakes for heapscope check: a misaligned bind, a flush not aligned to ' +
    'nonCoherentAtomSize, a read of an aliased target after another was activated on its bytes',
  true,
)
