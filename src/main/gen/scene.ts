/**
 * What a UE5 renderer keeps alive besides the render graphs, and its per-frame traffic: history targets that
 * follow the render resolution, the GPU scene buffers that grow with the scene, Nanite's reserved streaming
 * pool committed page by page, Lumen's surface cache, the virtual shadow map page pool, multi-frame uniform
 * buffers, readback staging buffers, CPU locks of static buffers, and the per-frame upload allocators.
 */
import type { TextureDim, TextureFlag } from '../../shared/capture'
import { KiB, MiB, roundUp, roundUpPow2 } from '../../shared/units'
import {
  DYNAMIC_VERTEX,
  MESH_INDEX32,
  MESH_VERTEX,
  READBACK,
  RT_UAV,
  UAV,
  UNIFORM,
  textureClass,
} from './kinds'
import type { Prng } from './prng'
import type { Resolution } from './renderer'
import { BufferClass, type CaptureWriter } from './writer'

export interface ServicesOptions {
  lumen: boolean
  nanite: boolean
  virtualShadowMaps: boolean
  /** Multi-frame uniform buffers alive in steady state, and how many are replaced per frame on average. */
  uniformBuffers: number
  uniformChurn: number
  /** UI textures (small, 4 KiB-aligned candidates). */
  uiTextures: number
  /** Mean FastConstantAllocator bytes per frame. */
  constantBytes: number
  /** Whether textures carry the driver's size: per resource, this share of them. */
  driverShare: number
}

const NANITE_POOL = new BufferClass({
  usage: ['ReservedResource', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'],
  stride: 4,
  tag: 'Nanite',
})
const NANITE_HIERARCHY = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4, tag: 'Nanite' },
)
const GPU_SCENE = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4, tag: 'SceneRender' },
)
const LANDSCAPE_VERTEX = new BufferClass({ usage: ['Static', 'VertexBuffer'], init: true, tag: 'Landscape' })
const LUMEN_CARDS = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'StructuredBuffer'], stride: 16, tag: 'Lumen' },
)
const SHADOW_TABLE = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 4, tag: 'Shadows' },
)

const UI_ICONS = ['Sword', 'Shield', 'Potion_Red', 'Potion_Blue', 'Map_Marker', 'Quest', 'Coin', 'Arrow', 'Skull']
// Localized screens keep their title in the asset name.
const UI_SCREENS = ['MainMenu_Background', 'Inventory_Frame', 'Map_Overlay', 'Title_标题', 'Banner_Épopée']

interface Resource {
  id: number
  /** Alive only for the current resolution: recreated when it changes. */
  perResolution: boolean
}

export class SceneServices {
  private readonly resources: Resource[] = []
  private uniformIds: number[] = []
  private primitiveCapacity = 0
  private instanceCapacity = 0
  private primitiveDataId = -1
  private instanceDataId = -1
  private payloadId = -1
  private naniteId = -1
  private naniteCommitted = 0
  private readbackIds: number[] = []
  private landscape: { id: number; size: number }[] = []
  private screenshot: { id: number; frame: number } | undefined
  private dynamicIds: number[] = []
  private readonly used = new Float64Array(256)
  private usedCount = 0

  constructor(
    private readonly options: ServicesOptions,
    private readonly rng: Prng,
  ) {}

  /** Ids every frame uses (history targets, scene buffers, atlases): for `use` records. */
  get usedIds(): Float64Array {
    return this.used
  }

  get usedIdCount(): number {
    return this.usedCount
  }

  private keep(id: number, perResolution: boolean): number {
    this.resources.push({ id, perResolution })
    return id
  }

  private driver(): boolean {
    return this.rng.chance(this.options.driverShare)
  }

  private texture(
    out: CaptureWriter,
    name: string,
    format: string,
    flags: readonly TextureFlag[],
    tag: string,
    width: number,
    height: number,
    depth = 1,
    mips = 1,
    dim: TextureDim = '2d',
  ): number {
    return out.texture(
      textureClass(format, flags, tag, dim), Math.ceil(width), Math.ceil(height), depth, mips, name, this.driver(),
    )
  }

  /** The startup allocations: scene-wide atlases, pools, UI, and the resolution's history targets. */
  start(out: CaptureWriter, res: Resolution, primitives: number, instances: number): void {
    const o = this.options
    if (o.virtualShadowMaps) {
      this.keep(this.texture(out, 'Shadow.Virtual.PhysicalPagePool', 'R32_UINT', UAV, 'Shadows', 16384, 2048), false)
      this.keep(out.buffer(SHADOW_TABLE, 4 * MiB, 'Shadow.Virtual.PageTable'), false)
      this.keep(out.buffer(SHADOW_TABLE, 2048 * 16, 'Shadow.Virtual.PhysicalPageMetaData'), false)
    }
    if (o.lumen) {
      const atlas: [string, string, readonly TextureFlag[], number][] = [
        ['Lumen.SceneAlbedo', 'BC7_UNORM', UAV, 4096],
        ['Lumen.SceneOpacity', 'BC4_UNORM', UAV, 4096],
        ['Lumen.SceneNormal', 'BC5_UNORM', UAV, 4096],
        ['Lumen.SceneEmissive', 'BC6H_UF16', UAV, 4096],
        ['Lumen.SceneDepth', 'R16_UNORM', RT_UAV, 4096],
        ['Lumen.SceneDirectLighting', 'R11G11B10_FLOAT', RT_UAV, 2048],
        ['Lumen.SceneIndirectLighting', 'R11G11B10_FLOAT', RT_UAV, 2048],
        ['Lumen.SceneFinalLighting', 'R11G11B10_FLOAT', RT_UAV, 4096],
        ['Lumen.RadianceCache.RadianceProbeAtlasTexture', 'R11G11B10_FLOAT', UAV, 2048],
      ]
      for (const [name, format, flags, edge] of atlas) this.keep(
        this.texture(out, name, format, flags, 'Lumen', edge, edge),
        false,
      )
      this.keep(out.buffer(LUMEN_CARDS, 4 * MiB, 'Lumen.CardBuffer'), false)
      this.keep(out.buffer(LUMEN_CARDS, 8 * MiB, 'Lumen.PageTableBuffer'), false)
      this.keep(
        this.texture(out, 'GlobalDistanceField.PageAtlas', 'R8_UNORM', UAV, 'DistanceFields', 128, 128, 512, 1, '3d'),
        false,
      )
      this.keep(
        this.texture(
          out,
          'DistanceFields.DistanceFieldBrickVolumeTexture',
          'R8_UNORM',
          UAV,
          'DistanceFields',
          256,
          256,
          256,
          1,
          '3d',
        ),
        false,
      )
    }
    this.keep(
      this.texture(out, 'SkyAtmosphere.TransmittanceLut', 'R11G11B10_FLOAT', RT_UAV, 'RenderTargets', 256, 64),
      false,
    )
    this.keep(
      this.texture(
        out, 'SkyLight.ProcessedTexture', 'R16G16B16A16_FLOAT', RT_UAV, 'RenderTargets', 128, 128, 1, 8, 'cube',
      ),
      false,
    )
    this.keep(
      this.texture(
        out, 'ReflectionCaptures.CubemapArray', 'R16G16B16A16_FLOAT', RT_UAV, 'RenderTargets', 128, 128, 8, 8,
        'cubearray',
      ),
      false,
    )
    for (let i = 0; i < o.uiTextures; i++) {
      const screen = i < UI_SCREENS.length
      const name = screen ? `T_UI_${UI_SCREENS[i]}` : `T_UI_Icon_${UI_ICONS[i % UI_ICONS.length]}_${i}`
      const edge = screen ? this.rng.pick([256, 512, 1024]) : this.rng.pick([32, 64, 128])
      this.keep(this.texture(out, name, 'B8G8R8A8_UNORM', ['ShaderResource'], 'UI', edge, edge), false)
    }
    for (let i = 0; i < 4; i++) {
      const size = roundUp(Math.round(this.rng.range(2, 6) * MiB), 16)
      this.landscape.push(
        { id: this.keep(out.buffer(LANDSCAPE_VERTEX, size, `LandscapeComponent_${i}.VB`), false), size },
      )
    }
    this.keep(out.buffer(MESH_INDEX32, 3 * MiB, 'Landscape.SharedIB'), false)
    this.keep(out.buffer(MESH_VERTEX, 512 * KiB, 'Landscape.GrassInstances.VB'), false)
    if (o.nanite) {
      // r.Nanite.Streaming.ReservedResources: the page pool reserves its maximum and commits as pages stream in.
      this.naniteId = out.buffer(NANITE_POOL, 1024 * MiB, 'Nanite.StreamingManager.ClusterPageData')
      this.keep(this.naniteId, false)
      this.commitNanite(out, 64 * MiB)
      this.keep(out.buffer(NANITE_HIERARCHY, 8 * MiB, 'Nanite.StreamingManager.Hierarchy'), false)
    }
    const readbacks = [
      ['EyeAdaptation.Readback', 16],
      ['Nanite.StreamingRequests.Readback', 384 * KiB],
      ['GPUScene.Feedback.Readback', 32 * KiB],
      ['Lumen.SceneFeedback.Readback', 64 * KiB],
    ] as const
    for (const [name, size] of readbacks) {
      if (!o.nanite && name.startsWith('Nanite')) continue
      this.readbackIds.push(out.buffer(READBACK, size, name))
    }
    this.resizeScene(out, primitives, instances)
    for (let i = 0; i < o.uniformBuffers; i++) this.createUniform(out)
    this.resize(out, res)
  }

  /** Recreates the history targets at a new render resolution (dynamic resolution, a window resize). */
  resize(out: CaptureWriter, res: Resolution): void {
    const kept: Resource[] = []
    for (const r of this.resources) {
      if (r.perResolution) out.release(r.id)
      else kept.push(r)
    }
    this.resources.length = 0
    this.resources.push(...kept)
    const { width: w, height: h, outputWidth: ow, outputHeight: oh } = res
    const targets: [string, string, readonly TextureFlag[], string, number, number, number?][] = [
      ['TSR.History.Color', 'R16G16B16A16_FLOAT', RT_UAV, 'RenderTargets', ow, oh],
      ['TSR.History.Metadata', 'R8_UNORM', UAV, 'RenderTargets', ow, oh],
      ['TSR.History.Guide', 'R16G16B16A16_FLOAT', UAV, 'RenderTargets', w, h],
      ['Nanite.PrevHZB', 'R16_FLOAT', UAV, 'RenderTargets', roundUpPow2(w) / 2, roundUpPow2(h) / 2],
      ['VolumetricFog.LightScatteringHistory', 'R16G16B16A16_FLOAT', UAV, 'RenderTargets', w / 16, h / 16, 64],
    ]
    if (this.options.lumen) {
      targets.push(
        ['Lumen.ScreenProbeGather.DiffuseIndirectHistory', 'R11G11B10_FLOAT', UAV, 'Lumen', w, h],
        ['Lumen.ScreenProbeGather.RoughSpecularIndirectHistory', 'R11G11B10_FLOAT', UAV, 'Lumen', w, h],
        ['Lumen.ScreenProbeGather.NumHistoryFramesAccumulated', 'R8_UNORM', UAV, 'Lumen', w, h],
        ['Lumen.Reflections.SpecularIndirectHistory', 'R16G16B16A16_FLOAT', UAV, 'Lumen', w, h],
      )
    }
    for (const [name, format, flags, tag, tw, th, depth] of targets) {
      const dim = depth ? '3d' : '2d'
      this.keep(this.texture(out, name, format, flags, tag, tw, th, depth ?? 1, 1, dim), true)
    }
    this.refreshUsed()
  }

  private refreshUsed(): void {
    this.usedCount = 0
    const add = (id: number): void => {
      if (id >= 0 && this.usedCount < this.used.length) this.used[this.usedCount++] = id
    }
    for (const r of this.resources) add(r.id)
    add(this.primitiveDataId)
    add(this.instanceDataId)
    add(this.payloadId)
  }

  private commitNanite(out: CaptureWriter, bytes: number): void {
    this.naniteCommitted = bytes
    out.commit(this.naniteId, bytes)
  }

  /**
   * GPUScene's buffers hold every primitive and instance of the scene; they grow to the next power of two when
   * the scene outgrows them (a new buffer, the old one copied and released) and shrink when it is a quarter full.
   */
  resizeScene(out: CaptureWriter, primitives: number, instances: number): void {
    const needP = roundUpPow2(Math.max(4096, primitives))
    if (needP > this.primitiveCapacity || needP * 4 <= this.primitiveCapacity) {
      if (this.primitiveDataId >= 0) out.release(this.primitiveDataId)
      this.primitiveCapacity = needP
      // 41 float4 per primitive.
      this.primitiveDataId = out.buffer(GPU_SCENE, needP * 41 * 16, 'GPUScene.PrimitiveData')
      this.refreshUsed()
    }
    const needI = roundUpPow2(Math.max(16384, instances))
    if (needI > this.instanceCapacity || needI * 4 <= this.instanceCapacity) {
      if (this.instanceDataId >= 0) out.release(this.instanceDataId)
      if (this.payloadId >= 0) out.release(this.payloadId)
      this.instanceCapacity = needI
      // Three float4 per instance, and a payload of two float4 on average.
      this.instanceDataId = out.buffer(GPU_SCENE, needI * 48, 'GPUScene.InstanceSceneData')
      this.payloadId = out.buffer(GPU_SCENE, needI * 32, 'GPUScene.InstancePayloadData')
      this.refreshUsed()
    }
  }

  private createUniform(out: CaptureWriter): void {
    const rng = this.rng
    const kind = rng.weighted([60, 25, 10, 5])
    const [name, size] =
      kind === 0
        ? ['PrimitiveUniformShaderParameters', 512]
        : kind === 1
          ? ['MaterialUniformBuffer', 16 * rng.int(8, 64)]
          : kind === 2
            ? ['DeferredLightUniforms', 256]
            : ['InstanceCulling.Parameters', 16 * rng.int(4, 16)]
    this.uniformIds.push(out.buffer(UNIFORM, size, name))
  }

  /**
   * One frame of traffic: uniform buffers replaced, upload allocators, the Nanite pool's commits, readbacks,
   * locks, a screenshot now and then. `textureUploadBytes`: mips the texture streamer uploaded this frame, in
   * `textureUploads` textures.
   */
  frame(out: CaptureWriter, frame: number, textureUploadBytes: number, textureUploads: number): void {
    const rng = this.rng
    const o = this.options
    const churn = Math.max(0, Math.round(rng.around(o.uniformChurn, o.uniformChurn / 3)))
    for (let i = 0; i < churn && this.uniformIds.length > 0; i++) {
      const at = rng.int(0, this.uniformIds.length - 1)
      out.release(this.uniformIds[at])
      this.uniformIds[at] = this.uniformIds[this.uniformIds.length - 1]
      this.uniformIds.pop()
    }
    const target = o.uniformBuffers
    const create = churn + (this.uniformIds.length + churn < target ? 1 : 0)
    for (let i = 0; i < create; i++) this.createUniform(out)

    // CPU-written dynamic vertex data (particles, debug lines): renamed every few frames, sizes past 64 KiB.
    if (frame % 4 === 0) {
      if (this.dynamicIds.length >= 3) out.release(this.dynamicIds.shift() as number)
      const size = roundUp(Math.round(rng.logRange(96 * KiB, 3 * MiB)), 16)
      this.dynamicIds.push(out.buffer(DYNAMIC_VERTEX, size, 'FParticleDynamicVertexBuffer'))
    }

    if (this.naniteId >= 0 && frame % 30 === 15) {
      // Pages stream in as the view changes; the pool commits in 64 KiB tiles up to its budget of 512 MiB.
      const next = Math.max(32 * MiB, Math.min(512 * MiB, this.naniteCommitted + Math.round(rng.around(6, 10)) * MiB))
      if (next !== this.naniteCommitted) this.commitNanite(out, roundUp(next, 64 * KiB))
    }

    let stagingBytes = 0
    let stagingCount = 0
    if (frame % 45 === 7) {
      // A landscape edit layer re-uploads part of a component's vertices.
      const piece = this.landscape[rng.int(0, this.landscape.length - 1)]
      const bytes = roundUp(Math.round(rng.range(0.05, 0.5) * piece.size), 16)
      out.lock(piece.id, bytes)
      stagingBytes += bytes
      stagingCount++
    }
    const [initBytes, initCount] = out.takeInitialData()
    stagingBytes += initBytes
    stagingCount += initCount

    if (this.screenshot && frame >= this.screenshot.frame + 3) {
      out.release(this.screenshot.id)
      this.screenshot = undefined
    } else if (!this.screenshot && frame % 600 === 299) {
      // A thumbnail capture read back through a CPUReadback texture.
      const id = this.texture(
        out, 'HighResScreenshot.Readback', 'B8G8R8A8_UNORM', ['CPUReadback'], 'RHIMisc', 1280, 720,
      )
      this.screenshot = { id, frame }
    }

    // Streamed mips arrive through async texture creation, which takes its staging from the upload heap
    // allocator (§4.6); buffer initial data and locks too, and every upload made from a worker thread
    // (cloth, destruction, Niagara data), a few each frame.
    stagingBytes += roundUp(Math.round(textureUploadBytes), 512)
    stagingCount += textureUploads
    const workerUploads = rng.int(2, 10)
    for (let i = 0; i < workerUploads; i++) stagingBytes += roundUp(Math.round(rng.logRange(16 * KiB, 512 * KiB)), 512)
    stagingCount += workerUploads
    const constants = Math.max(64 * KiB, Math.round(rng.around(o.constantBytes, o.constantBytes / 6) / 256) * 256)
    out.upload('fastConstant', constants, Math.round(constants / rng.range(180, 320)))
    // Render-thread texture updates (virtual texture tiles, UI) and GPU scene uploads go through FastAllocator pages.
    const fastCount = rng.int(8, 40)
    out.upload('fast', roundUp(Math.round(fastCount * rng.range(12, 48) * KiB), 256), fastCount)
    out.upload('staging', stagingBytes, stagingCount)
  }
}
