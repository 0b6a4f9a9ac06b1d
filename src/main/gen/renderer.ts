/**
 * A UE5 deferred renderer's render graphs: the scene graph (Nanite, GBuffer, virtual shadow maps, Lumen,
 * lights, fog, translucency) and the post-processing graph (TSR, motion blur, depth of field, bloom, exposure,
 * tonemapping), with RDG's resource names, formats and lifetimes at the render resolution. A graph depends only
 * on the resolution and a few per-frame features, so each variant is built once and replayed from then on.
 */
import type { TextureFlag } from '../../shared/capture'
import { KiB, MiB, roundUp, roundUpPow2 } from '../../shared/units'
import { emitGraph, GraphBuilder, TransientCatalog, type CompiledGraph, type Handle } from './rendergraph'
import { hash32, hashString, type Prng } from './prng'
import {
  BYTE_ADDRESS,
  DS,
  INDIRECT_ARGS,
  RT,
  RT_UAV,
  TYPED_UINT,
  UAV,
  structured,
  textureClass,
  uploadedStructured,
} from './kinds'
import type { CaptureWriter, TransientClass } from './writer'

export interface Resolution {
  /** Output (display) size. */
  outputWidth: number
  outputHeight: number
  /** Render size after the screen percentage: what the scene graph works at before TSR upscales. */
  width: number
  height: number
}

export function resolution(outputWidth: number, outputHeight: number, screenPercentage: number): Resolution {
  // The scene texture extent is quantized to a multiple of 4, as the scene textures config does.
  const width = roundUp(Math.ceil((outputWidth * screenPercentage) / 100), 4)
  const height = roundUp(Math.ceil((outputHeight * screenPercentage) / 100), 4)
  return { outputWidth, outputHeight, width, height }
}

/** What changes a frame's graphs: the rest is fixed by the resolution. */
export interface FrameFeatures {
  /** Shadow-casting local lights with a virtual shadow map (0–8). */
  shadowedLights: number
  decals: boolean
  customDepth: boolean
  subsurface: boolean
  water: boolean
  depthOfField: boolean
  /** Scene load bucket 0–3: sizes of instance culling and Nanite buffers follow the visible instances. */
  load: number
}

/**
 * The next frame's features: lights come and go one at a time, decals and water follow the area, depth of
 * field and subsurface (a character close to the camera) come in phases of a few seconds.
 */
export function evolveFeatures(f: FrameFeatures, rng: Prng, loadedCells: number): void {
  if (rng.chance(0.01)) f.shadowedLights = Math.max(2, Math.min(8, f.shadowedLights + (rng.chance(0.5) ? 1 : -1)))
  if (rng.chance(0.002)) f.decals = !f.decals
  if (rng.chance(0.0015)) f.water = !f.water
  if (rng.chance(f.depthOfField ? 0.006 : 0.0015)) f.depthOfField = !f.depthOfField
  if (rng.chance(f.subsurface ? 0.004 : 0.002)) f.subsurface = !f.subsurface
  if (rng.chance(0.002)) f.customDepth = !f.customDepth
  // RDG sizes its culling buffers by the scene's instances, resizing with some slack rather than every frame.
  const load = Math.max(0, Math.min(3, Math.floor(loadedCells / 10)))
  if (load !== f.load && rng.chance(0.02)) f.load = load
}

export function initialFeatures(rng: Prng): FrameFeatures {
  return {
    shadowedLights: rng.int(3, 6),
    decals: rng.chance(0.8),
    customDepth: rng.chance(0.3),
    subsurface: false,
    water: rng.chance(0.3),
    depthOfField: false,
    load: 1,
  }
}


export class DeferredRenderer {
  private readonly builder = new GraphBuilder()
  private readonly catalog: TransientCatalog
  private readonly compiled = new Map<string, CompiledGraph>()

  constructor(
    public res: Resolution,
    driverSeed: number,
  ) {
    // Half the transient textures carry the driver's size, stable per name, so both paths are exercised.
    this.catalog = new TransientCatalog((name) => (hash32(driverSeed, hashString(name)) & 1) === 0)
  }

  /** Distinct transient descs made so far (bounded: a few resolutions times a few feature variants). */
  get classCount(): number {
    return this.catalog.size
  }

  scene(out: CaptureWriter, f: FrameFeatures): number {
    const flags = +f.decals | (+f.customDepth << 1) | (+f.subsurface << 2) | (+f.water << 3)
    const variant = f.shadowedLights | (flags << 4) | (f.load << 8)
    return this.emit(out, 's' + variant, 'SceneRenderer', () => this.buildScene(this.builder, f))
  }

  post(out: CaptureWriter, f: FrameFeatures): number {
    return this.emit(out, f.depthOfField ? 'pf' : 'p', 'PostProcessing', () => this.buildPost(this.builder, f))
  }

  /** One small graph for light scenes (the demo): depth, GBuffer, shadows, lighting, bloom, tonemap. */
  lite(out: CaptureWriter, f: FrameFeatures): number {
    return this.emit(
      out,
      'l' + (f.shadowedLights | (f.load << 4)),
      'SceneRenderer',
      () => this.buildLite(this.builder, f),
    )
  }

  /** Writes one graph execution; returns its transient count. */
  /** `variant`: the graph kind and the features it depends on; the resolution completes the key. */
  private emit(out: CaptureWriter, variant: string, name: string, build: () => void): number {
    const r = this.res
    const key = variant + '@' + r.width + 'x' + r.height + '/' + r.outputWidth
    let graph = this.compiled.get(key)
    if (!graph) {
      build()
      graph = this.builder.compile()
      this.compiled.set(key, graph)
    }
    emitGraph(out, name, graph)
    return graph.classes.length
  }

  private tex(
    name: string,
    format: string,
    flags: readonly TextureFlag[],
    width: number,
    height: number,
    mips = 1,
  ): TransientClass {
    return this.catalog.texture(name, textureClass(format, flags), width, height, 1, mips)
  }

  private tex3d(
    name: string,
    format: string,
    flags: readonly TextureFlag[],
    width: number,
    height: number,
    depth: number,
  ): TransientClass {
    return this.catalog.texture(name, textureClass(format, flags, undefined, '3d'), width, height, depth, 1)
  }

  private buf(name: string, cls: Parameters<TransientCatalog['buffer']>[1], size: number): TransientClass {
    return this.catalog.buffer(name, cls, roundUp(Math.max(16, Math.ceil(size)), 16))
  }

  private buildScene(b: GraphBuilder, f: FrameFeatures): void {
    const { width: w, height: h } = this.res
    const pixels = w * h
    const instances = 65536 * (1 + f.load)
    const tilesX = Math.ceil(w / 8)
    const tilesY = Math.ceil(h / 8)

    // GPU scene upload and instance culling for the main view.
    b.pass()
    const primitiveUpload = b.create(
      this.buf('GPUScene.PrimitiveUploadBuffer', uploadedStructured(16), 4096 * 16 * (1 + f.load)),
    )
    const instanceUpload = b.create(
      this.buf('GPUScene.InstanceSceneUploadBuffer', uploadedStructured(16), 8192 * 16 * (1 + f.load)),
    )
    b.pass()
    b.read(primitiveUpload)
    b.read(instanceUpload)
    const instanceIds = b.create(this.buf('InstanceCulling.InstanceIdsBuffer', BYTE_ADDRESS, instances * 4))
    const drawArgs = b.create(
      this.buf('InstanceCulling.DrawIndirectArgsBuffer', INDIRECT_ARGS, 4096 * (1 + f.load) * 20),
    )
    const idOffsets = b.create(this.buf('InstanceCulling.InstanceIdOffsetBuffer', TYPED_UINT, 4096 * (1 + f.load) * 4))
    const occlusion = b.create(this.buf('InstanceCulling.OcclusionResults', BYTE_ADDRESS, instances / 8))

    // Nanite: visibility buffer rasterized in a main and a post pass around the HZB rebuild.
    b.pass()
    const queue = b.create(this.buf('Nanite.QueueState', structured(4), 1184))
    const candidates = b.create(this.buf('Nanite.MainAndPostNodesAndClusterBatches', BYTE_ADDRESS, 8 * MiB))
    const candidateClusters = b.create(this.buf('Nanite.MainAndPostCandidateClusters', BYTE_ADDRESS, 16 * MiB))
    const visible = b.create(this.buf('Nanite.VisibleClustersSWHW', BYTE_ADDRESS, 4 * MiB * 12))
    const rasterArgs = b.create(this.buf('Nanite.RasterizerArgsSWHW', INDIRECT_ARGS, 4096 * 16))
    const binMeta = b.create(this.buf('Nanite.RasterBinMeta', structured(16), 2048 * 16))
    const visBuffer = b.create(this.tex('Nanite.VisBuffer64', 'R32G32_UINT', UAV, w, h))
    b.passes(3)
    b.read(queue, candidates, candidateClusters, visible, rasterArgs, binMeta, visBuffer)
    const hzbSize = [roundUpPow2(w) / 2, roundUpPow2(h) / 2]
    const hzbMips = Math.ceil(Math.log2(Math.max(hzbSize[0], hzbSize[1])))
    b.pass()
    const hzbPost = b.create(this.tex('HZBFurthest', 'R16_FLOAT', UAV, hzbSize[0], hzbSize[1], hzbMips))
    b.passes(2)
    b.read(queue, candidates, candidateClusters, visible, rasterArgs, binMeta, visBuffer, hzbPost, occlusion)
    b.pass()
    const depth = b.create(this.tex('SceneDepthZ', 'D32_FLOAT_S8X24_UINT', DS, w, h))
    const velocity = b.create(this.tex('SceneVelocity', 'R16G16_FLOAT', RT, w, h))
    const shadingMask = b.create(this.tex('Nanite.ShadingMask', 'R32_UINT', RT_UAV, w, h))
    b.read(visBuffer)
    b.read(visible)

    // Depth prepass for what Nanite does not draw, then the HZB later passes test against.
    b.pass()
    b.read(depth)
    b.read(drawArgs)
    b.read(instanceIds)
    b.pass()
    const hzbClosest = b.create(this.tex('HZBClosest', 'R16_FLOAT', UAV, hzbSize[0], hzbSize[1], hzbMips))
    const hzbFurthest = b.create(this.tex('HZBFurthest', 'R16_FLOAT', UAV, hzbSize[0], hzbSize[1], hzbMips))
    b.read(depth)
    // HZB occlusion queries of non-Nanite primitives: bounds uploaded as textures, results read back.
    b.pass()
    const boundsCenter = b.create(this.tex('HZBOcclusion.BoundsCenter', 'R32G32B32A32_FLOAT', RT, 256, 256))
    const boundsExtent = b.create(this.tex('HZBOcclusion.BoundsExtent', 'R32G32B32A32_FLOAT', RT, 256, 256))
    const occlusionResults = b.create(this.tex('HZBOcclusion.Results', 'B8G8R8A8_UNORM', RT, 256, 256))
    b.read(boundsCenter, boundsExtent, hzbFurthest)
    b.pass()
    b.read(occlusionResults)

    // Light grid: clustered lights for forward and deferred shading.
    const gridCells = Math.ceil(w / 64) * Math.ceil(h / 64) * 32
    b.pass()
    const lightData = b.create(this.buf('ForwardLocalLightData', uploadedStructured(16), 512 * 96))
    const numCulled = b.create(this.buf('LightGrid.NumCulledLightsGrid', TYPED_UINT, gridCells * 2 * 4))
    const culledData = b.create(this.buf('LightGrid.CulledLightDataGrid16Bit', TYPED_UINT, gridCells * 32 * 2))
    const nextLink = b.create(this.buf('LightGrid.NextCulledLightLink', TYPED_UINT, 4))
    const startOffset = b.create(this.buf('LightGrid.StartOffsetGrid', TYPED_UINT, gridCells * 4))
    const links = b.create(this.buf('LightGrid.CulledLightLinks', TYPED_UINT, gridCells * 32 * 2 * 4))
    const nextData = b.create(this.buf('LightGrid.NextCulledLightData', TYPED_UINT, 4))
    b.pass()
    b.read(lightData, numCulled, nextLink, startOffset, links, nextData)
    b.pass()
    b.read(culledData)
    b.read(links)
    b.read(startOffset)

    // Decals into the DBuffer before the base pass reads them.
    let dbuffer: Handle[] = []
    if (f.decals) {
      b.pass()
      dbuffer = [
        b.create(this.tex('DBufferA', 'R8G8B8A8_UNORM', RT, w, h)),
        b.create(this.tex('DBufferB', 'R8G8B8A8_UNORM', RT, w, h)),
        b.create(this.tex('DBufferC', 'R8G8B8A8_UNORM', RT, w, h)),
        b.create(this.tex('DBufferMask', 'R8_UINT', RT, w, h)),
      ]
      b.read(depth)
    }

    // Base pass: Nanite shading bins, then the raster base pass, into the GBuffer and SceneColor.
    b.pass()
    const binData = b.create(this.buf('Nanite.ShadingBinData', BYTE_ADDRESS, pixels * 4 + 256 * KiB))
    const binArgs = b.create(this.buf('Nanite.ShadingBinArgs', INDIRECT_ARGS, 4096 * 16))
    const binStats = b.create(this.buf('Nanite.ShadingBinStats', structured(4), 64))
    b.read(shadingMask)
    b.pass()
    const gbufferA = b.create(this.tex('GBufferA', 'R10G10B10A2_UNORM', RT, w, h))
    const gbufferB = b.create(this.tex('GBufferB', 'R8G8B8A8_UNORM', RT, w, h))
    const gbufferC = b.create(this.tex('GBufferC', 'R8G8B8A8_UNORM', RT, w, h))
    const gbufferD = b.create(this.tex('GBufferD', 'R8G8B8A8_UNORM', RT, w, h))
    const gbufferE = b.create(this.tex('GBufferE', 'R8G8B8A8_UNORM', RT, w, h))
    const sceneColor = b.create(this.tex('SceneColor', 'R16G16B16A16_FLOAT', RT_UAV, w, h))
    b.read(binData, binArgs, binStats, shadingMask, visBuffer, ...dbuffer)
    const vtFeedback = b.create(
      this.buf('VirtualTexture.FeedbackBuffer', TYPED_UINT, Math.ceil(w / 16) * Math.ceil(h / 16) * 4 + 4),
    )
    const streamingRequests = b.create(this.buf('Nanite.StreamingRequests', TYPED_UINT, 32768 * 12))
    b.passes(2)
    b.read(
      gbufferA, gbufferB, gbufferC, gbufferD, gbufferE, sceneColor, depth, drawArgs, instanceIds, idOffsets, ...dbuffer,
    )
    b.pass()
    const vtPageRequests = b.create(this.buf('VirtualTexture.PageRequests', TYPED_UINT, 16384 * 4))
    b.read(vtFeedback)
    b.read(streamingRequests)
    b.pass()
    b.read(vtPageRequests)
    b.pass()
    b.read(velocity)
    b.read(depth)
    let customDepth: Handle[] = []
    if (f.customDepth) {
      b.pass()
      customDepth = [b.create(this.tex('CustomDepth', 'D32_FLOAT_S8X24_UINT', DS, w, h))]
    }

    // Virtual shadow maps: page marking and allocation, one Nanite raster for every shadow view, projection.
    b.pass()
    const pageRequests = b.create(
      this.buf('Shadow.Virtual.PageRequestFlags', TYPED_UINT, (8 + f.shadowedLights * 6) * 16384 * 4),
    )
    const pageRects = b.create(
      this.buf('Shadow.Virtual.AllocatedPageRectBounds', TYPED_UINT, (8 + f.shadowedLights * 6) * 8 * 16),
    )
    const physicalLists = b.create(this.buf('Shadow.Virtual.PhysicalPageLists', TYPED_UINT, 4 * 8192 * 4))
    const vsmStats = b.create(this.buf('Shadow.Virtual.StatsBuffer', TYPED_UINT, 64))
    b.read(depth)
    b.read(hzbFurthest)
    b.passes(2)
    b.read(pageRequests, pageRects, physicalLists, vsmStats)
    const vsmCulling: Handle[] = []
    for (let light = 0; light <= f.shadowedLights; light++) {
      // Instance culling runs one pass per pair of shadow views.
      if (light % 2 === 0) b.pass()
      vsmCulling.push(
        b.create(this.buf('Shadow.Virtual.InstanceCulling.InstanceIdsBuffer', BYTE_ADDRESS, instances)),
        b.create(this.buf('Shadow.Virtual.InstanceCulling.DrawIndirectArgsBuffer', INDIRECT_ARGS, 2048 * 20)),
        b.create(this.buf('Shadow.Virtual.InstanceCulling.VisibleInstances', structured(8), instances / 4 * 8)),
      )
      b.read(pageRects)
    }
    b.pass()
    const vsmQueue = b.create(this.buf('Nanite.QueueState', structured(4), 1184))
    const vsmCandidates = b.create(this.buf('Nanite.MainAndPostNodesAndClusterBatches', BYTE_ADDRESS, 8 * MiB))
    const vsmVisible = b.create(this.buf('Nanite.VisibleClustersSWHW', BYTE_ADDRESS, 4 * MiB * 12))
    const vsmArgs = b.create(this.buf('Nanite.RasterizerArgsSWHW', INDIRECT_ARGS, 4096 * 16))
    b.passes(3)
    b.read(vsmQueue, vsmCandidates, vsmVisible, vsmArgs, physicalLists, pageRects, ...vsmCulling)
    b.pass()
    const vsmHzb = b.create(this.tex('Shadow.Virtual.HZBPhysical', 'R32_FLOAT', UAV, 4096, 512, 7))
    const freePages = b.create(this.buf('Shadow.Virtual.FreePhysicalPages', TYPED_UINT, 8192 * 4))
    const pageArgs = b.create(this.buf('Shadow.Virtual.BuildHZBIndirectArgs', INDIRECT_ARGS, 12 * 8))
    b.read(physicalLists)
    b.pass()
    b.read(vsmHzb, freePages, pageArgs)
    b.pass()
    const maskBits = b.create(
      this.tex('Shadow.Virtual.MaskBits', 'R32G32B32A32_UINT', UAV, Math.ceil(w / 2), Math.ceil(h / 2)),
    )
    const tileList = b.create(this.buf('Shadow.Virtual.ProjectionTileList', TYPED_UINT, tilesX * tilesY * 4))
    b.read(depth)
    b.read(gbufferA)
    b.pass()
    const shadowMask = b.create(this.tex('ShadowMaskTexture', 'B8G8R8A8_UNORM', RT, w, h))
    b.read(maskBits)
    b.read(tileList)

    // Lumen scene update: surface cache card capture and direct lighting of the cards.
    b.pass()
    const cardAllocator = b.create(this.buf('Lumen.CardUpdateContext.CardPageIndexAllocator', TYPED_UINT, 16))
    const cardIndices = b.create(this.buf('Lumen.CardUpdateContext.CardPageIndexData', TYPED_UINT, 65536 * 4))
    const cardDrawArgs = b.create(
      this.buf('Lumen.CardUpdateContext.DrawCardPageIndicesIndirectArgs', INDIRECT_ARGS, 16),
    )
    const cardDispatchArgs = b.create(
      this.buf('Lumen.CardUpdateContext.DispatchCardPageIndicesIndirectArgs', INDIRECT_ARGS, 12),
    )
    const histogram = b.create(this.buf('Lumen.PriorityHistogram', TYPED_UINT, 128 * 4))
    const maxBucket = b.create(this.buf('Lumen.MaxUpdateBucket', TYPED_UINT, 8))
    b.pass()
    b.read(cardAllocator, cardIndices, histogram, maxBucket)
    const captureAlbedo = b.create(this.tex('Lumen.CardCaptureAlbedoAtlas', 'R8G8B8A8_UNORM', RT, 1024, 512))
    const captureNormal = b.create(this.tex('Lumen.CardCaptureNormalAtlas', 'R8G8B8A8_UNORM', RT, 1024, 512))
    const captureEmissive = b.create(this.tex('Lumen.CardCaptureEmissiveAtlas', 'R11G11B10_FLOAT', RT, 1024, 512))
    const captureDepth = b.create(this.tex('Lumen.CardCaptureDepthAtlas', 'D32_FLOAT', DS, 1024, 512))
    b.pass()
    b.read(captureAlbedo, captureNormal, captureEmissive, captureDepth, cardDrawArgs)
    b.pass()
    const tileAllocator = b.create(this.buf('Lumen.DirectLighting.CardTileAllocator', TYPED_UINT, 16))
    const cardTiles = b.create(this.buf('Lumen.DirectLighting.CardTiles', TYPED_UINT, 65536 * 4))
    const lightTileAllocator = b.create(this.buf('Lumen.DirectLighting.LightTileAllocator', TYPED_UINT, 16))
    const lightTiles = b.create(this.buf('Lumen.DirectLighting.LightTiles', TYPED_UINT, 262144 * 8))
    const lightTileOffsets = b.create(this.buf('Lumen.DirectLighting.LightTileOffsetsPerLight', TYPED_UINT, 4096 * 4))
    const lightTileArgs = b.create(this.buf('Lumen.DirectLighting.LightTileIndirectArgs', INDIRECT_ARGS, 64 * 12))
    const shadowTiles = b.create(this.buf('Lumen.DirectLighting.ShadowMaskTiles', TYPED_UINT, 262144 * 4))
    b.read(cardDispatchArgs)
    b.passes(2)
    b.read(
      tileAllocator, cardTiles, lightTileAllocator, lightTiles, lightTileOffsets, lightTileArgs, shadowTiles,
      cardIndices,
    )

    // Lumen mesh SDF culling for screen traces.
    b.pass()
    const sdfCulled = [
      b.create(this.buf('Lumen.MeshSDF.CulledObjectIndices', TYPED_UINT, 16384 * 4)),
      b.create(this.buf('Lumen.MeshSDF.NumCulledObjects', TYPED_UINT, 16)),
      b.create(this.buf('Lumen.MeshSDF.CullArgs', INDIRECT_ARGS, 16)),
      b.create(this.buf('Lumen.MeshSDF.NumGridCulledMeshSDFObjects', TYPED_UINT, gridCells * 4)),
      b.create(this.buf('Lumen.MeshSDF.GridCulledMeshSDFObjectStartOffsetArray', TYPED_UINT, gridCells * 4)),
      b.create(this.buf('Lumen.MeshSDF.GridCulledMeshSDFObjectIndicesArray', TYPED_UINT, gridCells * 16 * 4)),
      b.create(this.buf('Lumen.MeshSDF.NumCulledHeightfieldObjects', TYPED_UINT, 16)),
    ]
    b.pass()
    b.read(...sdfCulled)

    // Lumen screen probe gather: probes every 16 pixels, 8×8 traces each, then integration.
    const probesX = Math.ceil(w / 16)
    const probesY = Math.ceil(h / 16)
    const atlasY = probesY + Math.ceil(probesY / 2)
    b.pass()
    const probeDepth = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeSceneDepth', 'R32_UINT', UAV, probesX, atlasY),
    )
    const probeNormal = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeWorldNormal', 'R8G8_UNORM', UAV, probesX, atlasY),
    )
    const probeSpeed = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeWorldSpeed', 'R16_FLOAT', UAV, probesX, atlasY),
    )
    const probePosition = b.create(
      this.tex(
        'Lumen.ScreenProbeGather.ScreenProbeTranslatedWorldPosition',
        'R32G32B32A32_FLOAT',
        UAV,
        probesX,
        atlasY,
      ),
    )
    const numAdaptive = b.create(this.buf('Lumen.ScreenProbeGather.NumAdaptiveScreenProbes', TYPED_UINT, 8))
    const adaptiveData = b.create(
      this.buf('Lumen.ScreenProbeGather.AdaptiveScreenProbeData', TYPED_UINT, probesX * probesY * 4),
    )
    const tileHeader = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenTileAdaptiveProbeHeader', 'R32_UINT', UAV, probesX, probesY),
    )
    const tileIndices = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenTileAdaptiveProbeIndices', 'R16_UINT', UAV, probesX * 4, probesY * 4),
    )
    b.read(depth)
    b.read(gbufferA)
    b.passes(2)
    b.read(probeDepth, probeNormal, numAdaptive, adaptiveData, tileHeader, tileIndices)
    const probeArgs = b.create(this.buf('Lumen.ScreenProbeGather.ScreenProbeIndirectArgs', INDIRECT_ARGS, 5 * 12))
    const brdfPdf = b.create(
      this.tex('Lumen.ScreenProbeGather.BRDFProbabilityDensityFunction', 'R16_FLOAT', UAV, probesX * 8, atlasY * 8),
    )
    const brdfSh = b.create(
      this.buf('Lumen.ScreenProbeGather.BRDFProbabilityDensityFunctionSH', structured(4), probesX * atlasY * 9 * 2),
    )
    b.pass()
    const rayInfos = b.create(
      this.tex('Lumen.ScreenProbeGather.StructuredImportanceSampledRayInfos', 'R16_UINT', UAV, probesX * 8, atlasY * 8),
    )
    b.read(brdfPdf)
    b.read(brdfSh)
    b.pass()
    const traceRadiance = b.create(
      this.tex('Lumen.ScreenProbeGather.TraceRadiance', 'R11G11B10_FLOAT', UAV, probesX * 8, atlasY * 8),
    )
    const traceHit = b.create(this.tex('Lumen.ScreenProbeGather.TraceHit', 'R32_UINT', UAV, probesX * 8, atlasY * 8))
    b.read(rayInfos, probeArgs, hzbFurthest, sceneColor, probePosition)
    b.pass()
    const compactAllocator = b.create(this.buf('Lumen.ScreenProbeGather.CompactedTraceTexelAllocator', TYPED_UINT, 4))
    const compactData = b.create(
      this.buf('Lumen.ScreenProbeGather.CompactedTraceTexelData', TYPED_UINT, probesX * atlasY * 64 * 4),
    )
    const compactArgs = b.create(this.buf('Lumen.ScreenProbeGather.CompactTracingIndirectArgs', INDIRECT_ARGS, 12))
    b.read(traceHit)
    b.passes(2)
    b.read(compactAllocator, compactData, compactArgs, traceRadiance, traceHit, ...sdfCulled)
    b.pass()
    const probeRadiance = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeRadiance', 'R11G11B10_FLOAT', UAV, probesX * 8, atlasY * 8),
    )
    b.read(traceRadiance)
    b.read(traceHit)
    b.pass()
    const filtered = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeFilteredRadiance', 'R11G11B10_FLOAT', UAV, probesX * 8, atlasY * 8),
    )
    b.read(probeRadiance)
    b.read(probeSpeed)
    b.pass()
    const shAmbient = b.create(
      this.tex('Lumen.ScreenProbeGather.ScreenProbeRadianceSHAmbient', 'R11G11B10_FLOAT', UAV, probesX, atlasY),
    )
    const shDirectional = b.create(
      this.tex(
        'Lumen.ScreenProbeGather.ScreenProbeRadianceSHDirectional',
        'R16G16B16A16_FLOAT',
        UAV,
        probesX * 3,
        atlasY * 3,
      ),
    )
    const irradiance = b.create(
      this.tex(
        'Lumen.ScreenProbeGather.ScreenProbeIrradianceWithBorder',
        'R11G11B10_FLOAT',
        UAV,
        probesX * 6,
        atlasY * 6,
      ),
    )
    b.read(filtered)
    b.pass()
    const diffuseIndirect = b.create(
      this.tex('Lumen.ScreenProbeGather.DiffuseIndirect', 'R11G11B10_FLOAT', RT_UAV, w, h),
    )
    const roughSpecular = b.create(
      this.tex('Lumen.ScreenProbeGather.RoughSpecularIndirect', 'R11G11B10_FLOAT', RT_UAV, w, h),
    )
    const shortRangeAO = b.create(this.tex('Lumen.ScreenProbeGather.ShortRangeAO', 'R8_UNORM', UAV, w, h))
    b.read(
      shAmbient, shDirectional, irradiance, filtered, probeDepth, probeNormal, tileHeader, tileIndices, gbufferA,
      gbufferB,
    )
    b.pass()
    b.read(diffuseIndirect)
    b.read(roughSpecular)
    b.read(velocity)

    // Lumen radiance cache (for translucency and distant probes).
    b.pass()
    const radianceCache = [
      b.create(this.buf('Lumen.RadianceCache.ProbeAllocator', TYPED_UINT, 4)),
      b.create(this.buf('Lumen.RadianceCache.ProbeFreeListAllocator', TYPED_UINT, 4)),
      b.create(this.buf('Lumen.RadianceCache.ProbeTraceData', TYPED_UINT, 65536 * 16)),
      b.create(this.buf('Lumen.RadianceCache.ProbeTraceTileAllocator', TYPED_UINT, 4)),
      b.create(this.buf('Lumen.RadianceCache.ProbeTraceTileData', TYPED_UINT, 262144 * 8)),
      b.create(this.buf('Lumen.RadianceCache.ProbeIndirectArgs', INDIRECT_ARGS, 4 * 12)),
      b.create(this.buf('Lumen.RadianceCache.PriorityHistogram', TYPED_UINT, 128 * 4)),
    ]
    b.passes(2)
    b.read(...radianceCache)
    const radianceTrace = b.create(this.tex('Lumen.RadianceCache.TraceRadiance', 'R11G11B10_FLOAT', UAV, 1024, 1024))
    b.pass()
    b.read(radianceTrace)

    // Lumen reflections: tile classification, tracing at full resolution, denoise and resolve.
    b.pass()
    const reflectionTiles = [
      b.create(this.buf('Lumen.Reflections.ReflectionClearTileIndirectArgs', INDIRECT_ARGS, 12)),
      b.create(this.buf('Lumen.Reflections.ReflectionResolveTileIndirectArgs', INDIRECT_ARGS, 12)),
      b.create(this.buf('Lumen.Reflections.ReflectionTracingTileIndirectArgs', INDIRECT_ARGS, 12)),
      b.create(this.buf('Lumen.Reflections.ReflectionClearTileData', TYPED_UINT, tilesX * tilesY * 4)),
      b.create(this.buf('Lumen.Reflections.ReflectionResolveTileData', TYPED_UINT, tilesX * tilesY * 4)),
      b.create(this.buf('Lumen.Reflections.ReflectionTracingTileData', TYPED_UINT, tilesX * tilesY * 4)),
    ]
    b.read(gbufferB)
    b.pass()
    const downsampledDepth = b.create(this.tex('Lumen.Reflections.DownsampledDepth', 'R32_FLOAT', UAV, w, h))
    const rayBuffer = b.create(this.tex('Lumen.Reflections.RayBuffer', 'R16G16B16A16_FLOAT', UAV, w, h))
    b.read(...reflectionTiles)
    b.pass()
    const reflRadiance = b.create(this.tex('Lumen.Reflections.TraceRadiance', 'R11G11B10_FLOAT', UAV, w, h))
    const reflHit = b.create(this.tex('Lumen.Reflections.TraceHit', 'R16_FLOAT', UAV, w, h))
    const reflCompactAllocator = b.create(this.buf('Lumen.Reflections.CompactedTraceTexelAllocator', TYPED_UINT, 4))
    const reflCompactData = b.create(this.buf('Lumen.Reflections.CompactedTraceTexelData', TYPED_UINT, pixels * 4))
    b.read(downsampledDepth, rayBuffer, hzbFurthest, sceneColor)
    b.passes(2)
    b.read(reflRadiance, reflHit, reflCompactAllocator, reflCompactData, rayBuffer, ...sdfCulled)
    b.pass()
    const resolved = b.create(this.tex('Lumen.Reflections.ResolvedSpecularIndirect', 'R16G16B16A16_FLOAT', UAV, w, h))
    const variance = b.create(this.tex('Lumen.Reflections.ResolveVariance', 'R16_FLOAT', UAV, w, h))
    b.read(reflRadiance, reflHit, downsampledDepth, ...reflectionTiles)
    b.pass()
    const specularIndirect = b.create(this.tex('Lumen.Reflections.SpecularIndirect', 'R16G16B16A16_FLOAT', UAV, w, h))
    b.read(resolved)
    b.read(variance)
    b.read(velocity)

    // Indirect lighting composited into SceneColor.
    b.pass()
    b.read(
      diffuseIndirect, roughSpecular, specularIndirect, shortRangeAO, sceneColor, gbufferA, gbufferB, gbufferC,
      gbufferE,
    )

    // Direct lights: the directional light with its shadow mask, each shadowed local light, then the rest clustered.
    b.pass()
    b.read(shadowMask, sceneColor, gbufferA, gbufferB, gbufferC, gbufferD, depth)
    for (let light = 0; light < f.shadowedLights; light++) {
      b.pass()
      const lightMask = b.create(this.tex('ShadowMaskTexture', 'B8G8R8A8_UNORM', RT, w, h))
      b.read(maskBits)
      b.pass()
      b.read(lightMask, sceneColor, gbufferA, gbufferB, gbufferC, depth)
    }
    b.pass()
    b.read(culledData, numCulled, startOffset, lightData, maskBits, sceneColor, gbufferA, gbufferB, gbufferC, gbufferD)
    if (f.subsurface) {
      b.pass()
      const sssSetup = b.create(
        this.tex('SubsurfaceInput0', 'R16G16B16A16_FLOAT', RT, Math.ceil(w / 2), Math.ceil(h / 2)),
      )
      const sssTiles = b.create(this.buf('Subsurface.TileListData', TYPED_UINT, tilesX * tilesY * 4))
      const sssArgs = b.create(this.buf('Subsurface.IndirectDispatchArgs', INDIRECT_ARGS, 2 * 12))
      b.read(sceneColor)
      b.pass()
      const sssOutput = b.create(
        this.tex('SubsurfaceSubpassOne', 'R16G16B16A16_FLOAT', UAV, Math.ceil(w / 2), Math.ceil(h / 2)),
      )
      b.read(sssSetup, sssTiles, sssArgs)
      b.pass()
      b.read(sssOutput, sceneColor, gbufferB)
    }

    // Volumetric fog: a froxel grid of 16-pixel cells, 64 slices deep.
    const fogX = Math.ceil(w / 16)
    const fogY = Math.ceil(h / 16)
    b.pass()
    const conservativeDepth = b.create(this.tex('VolumetricFog.ConservativeDepthTexture', 'R16_FLOAT', UAV, fogX, fogY))
    b.read(hzbFurthest)
    b.pass()
    const vbufferA = b.create(this.tex3d('VolumetricFog.VBufferA', 'R16G16B16A16_FLOAT', UAV, fogX, fogY, 64))
    const vbufferB = b.create(this.tex3d('VolumetricFog.VBufferB', 'R16G16B16A16_FLOAT', UAV, fogX, fogY, 64))
    b.read(conservativeDepth)
    b.pass()
    const localScattering = b.create(
      this.tex3d('VolumetricFog.LocalShadowedLightScattering', 'R16G16B16A16_FLOAT', RT_UAV, fogX, fogY, 64),
    )
    b.pass()
    const lightScattering = b.create(
      this.tex3d('VolumetricFog.LightScattering', 'R16G16B16A16_FLOAT', UAV, fogX, fogY, 64),
    )
    b.read(vbufferA, vbufferB, localScattering, culledData, maskBits)
    b.pass()
    const integrated = b.create(
      this.tex3d('VolumetricFog.IntegratedLightScattering', 'R16G16B16A16_FLOAT', UAV, fogX, fogY, 64),
    )
    b.read(lightScattering)

    // Real-time sky light capture: the sky rendered into a cube, filtered, projected to SH.
    b.pass()
    const capture = b.create(
      this.catalog.texture(
        'SkyLight.RealTimeCaptureCube',
        textureClass('R16G16B16A16_FLOAT', RT_UAV, undefined, 'cube'),
        128,
        128,
        1,
        8,
      ),
    )
    b.pass()
    const filteredCube = b.create(
      this.catalog.texture(
        'SkyLight.RealTimeCaptureCubeFiltered',
        textureClass('R16G16B16A16_FLOAT', RT_UAV, undefined, 'cube'),
        128,
        128,
        1,
        8,
      ),
    )
    const irradianceSh = b.create(this.buf('SkyLight.IrradianceEnvironmentMap', structured(16), 8 * 16))
    b.read(capture)
    b.pass()
    b.read(filteredCube)
    b.read(irradianceSh)

    // Sky atmosphere lookup tables.
    b.pass()
    const multiScattering = b.create(
      this.tex('SkyAtmosphere.MultiScatteredLuminanceLut', 'R11G11B10_FLOAT', UAV, 32, 32),
    )
    b.pass()
    const skyView = b.create(this.tex('SkyAtmosphere.SkyViewLut', 'R11G11B10_FLOAT', RT_UAV, 192, 104))
    const aerial = b.create(
      this.tex3d('SkyAtmosphere.CameraAerialPerspectiveVolume', 'R16G16B16A16_FLOAT', UAV, 32, 32, 16),
    )
    const distantSky = b.create(this.buf('SkyAtmosphere.DistantSkyLightLutBuffer', structured(16), 16))
    b.read(multiScattering)
    b.pass()
    b.read(skyView, aerial, distantSky, sceneColor, depth)
    b.pass()
    b.read(integrated, aerial, sceneColor, depth)

    // Translucency lighting volume, then translucency into separate targets composited onto SceneColor.
    b.pass()
    const volumes: Handle[] = []
    for (const light of ['Ambient', 'Directional']) {
      for (const cascade of [0, 1]) {
        const name = `TranslucentVolume${light}${cascade}`
        volumes.push(b.create(this.tex3d(name, 'R16G16B16A16_FLOAT', RT_UAV, 64, 64, 64)))
      }
    }
    const voxelAllocator = b.create(this.buf('TranslucencyLightingVolume.VoxelAllocator', TYPED_UINT, 4))
    const voxelData = b.create(this.buf('TranslucencyLightingVolume.VoxelData', TYPED_UINT, 64 * 64 * 64 * 4))
    b.read(culledData)
    b.pass()
    const filteredVolumes: Handle[] = []
    for (const light of ['Ambient', 'Directional']) {
      for (const cascade of [0, 1]) {
        const name = `TranslucentVolume${light}${cascade}Filtered`
        filteredVolumes.push(b.create(this.tex3d(name, 'R16G16B16A16_FLOAT', UAV, 64, 64, 64)))
      }
    }
    b.read(...volumes, voxelAllocator, voxelData)
    b.pass()
    const translucency = b.create(this.tex('SeparateTranslucency', 'R16G16B16A16_FLOAT', RT, w, h))
    const modulate = b.create(this.tex('SeparateTranslucencyModulate', 'R8G8B8A8_UNORM', RT, w, h))
    b.read(...filteredVolumes, integrated, depth, lightData, culledData)
    b.pass()
    const distortion = b.create(this.tex('Distortion', 'R16G16B16A16_FLOAT', RT, w, h))
    const distortionDepth = b.create(this.tex('DistortionDepth', 'D32_FLOAT_S8X24_UINT', DS, w, h))
    b.pass()
    b.read(translucency, modulate, distortion, distortionDepth, sceneColor)
    if (f.water) {
      b.pass()
      const withoutWater = b.create(this.tex('SingleLayerWater.SceneColorWithoutWater', 'R11G11B10_FLOAT', RT, w, h))
      const depthWithoutWater = b.create(this.tex('SingleLayerWater.SceneDepthWithoutWater', 'R32_FLOAT', RT, w, h))
      const waterTiles = b.create(this.buf('SingleLayerWater.TiledIndirectArgs', INDIRECT_ARGS, 12))
      b.read(sceneColor)
      b.passes(2)
      b.read(withoutWater, depthWithoutWater, waterTiles, sceneColor, depth)
    }

    // Niagara GPU particle sorting, and the custom depth readers (outlines).
    b.pass()
    const sortKeys = b.create(this.buf('Niagara.GPUSortKeys', TYPED_UINT, 262144 * 4))
    const sortIndices = b.create(this.buf('Niagara.GPUSortIndices', TYPED_UINT, 262144 * 4))
    const sortCounts = b.create(this.buf('Niagara.GPUSortCounts', TYPED_UINT, 4096))
    b.pass()
    b.read(sortKeys, sortIndices, sortCounts, ...customDepth)
    // SceneColor, depth and velocity leave the graph (extracted for post-processing): read by its last pass.
    b.pass()
    b.read(sceneColor, depth, velocity, hzbClosest, hzbFurthest)
  }

  private buildPost(b: GraphBuilder, f: FrameFeatures): void {
    const { width: w, height: h, outputWidth: ow, outputHeight: oh } = this.res

    // Temporal super resolution: render resolution in, output resolution out.
    b.passes(2)
    const prevAtomics = b.create(this.tex('TSR.PrevAtomics', 'R32_UINT', UAV, w, h))
    b.pass()
    const dilatedVelocity = b.create(this.tex('TSR.DilatedVelocity', 'R16G16_FLOAT', UAV, w, h))
    const closestDepth = b.create(this.tex('TSR.ClosestDepth', 'R16_FLOAT', UAV, w, h))
    const reprojection = b.create(this.tex('TSR.ReprojectionField', 'R32_UINT', UAV, w, h))
    b.read(prevAtomics)
    b.pass()
    const decimateMask = b.create(this.tex('TSR.DecimateMask', 'R8_UINT', UAV, w, h))
    const guide = b.create(this.tex('TSR.ReprojectedHistoryGuide', 'R16G16B16A16_FLOAT', UAV, w, h))
    b.read(dilatedVelocity, closestDepth, reprojection)
    b.pass()
    const rejection = b.create(this.tex('TSR.HistoryRejection', 'R8_UNORM', UAV, Math.ceil(w / 2), Math.ceil(h / 2)))
    const flickering = b.create(this.tex('TSR.Flickering.Luminance', 'R16_FLOAT', UAV, w, h))
    b.read(decimateMask, guide)
    // MeasureFlickeringLuma, then SpatialAntiAliasing.
    b.passes(2)
    const noise = b.create(this.tex('TSR.AntiAliasing.Noise', 'R8_UNORM', UAV, w, h))
    b.read(decimateMask)
    b.pass()
    const filteredNoise = b.create(this.tex('TSR.AntiAliasing.Filtered', 'R8_UNORM', UAV, w, h))
    b.read(noise)
    b.pass()
    const filteredRejection = b.create(
      this.tex('TSR.HistoryRejection.Filtered', 'R8_UNORM', UAV, Math.ceil(w / 2), Math.ceil(h / 2)),
    )
    b.read(rejection)
    b.pass()
    const tsrOutput = b.create(this.tex('TSR.Output', 'R16G16B16A16_FLOAT', RT_UAV, ow, oh))
    b.read(filteredRejection, flickering, filteredNoise, dilatedVelocity, reprojection)
    // UpdateHistory, ResolveHistory.
    b.passes(2)
    b.read(tsrOutput)

    // Motion blur on 16-pixel velocity tiles.
    b.pass()
    const velocityFlat = b.create(this.tex('MotionBlur.VelocityFlat', 'R11G11B10_FLOAT', UAV, ow, oh))
    const tileMax = b.create(
      this.tex('MotionBlur.VelocityTileMax', 'R16G16B16A16_FLOAT', UAV, Math.ceil(ow / 16), Math.ceil(oh / 16)),
    )
    b.read(dilatedVelocity)
    b.pass()
    const tileDilated = b.create(
      this.tex('MotionBlur.VelocityTileMaxDilated', 'R16G16B16A16_FLOAT', UAV, Math.ceil(ow / 16), Math.ceil(oh / 16)),
    )
    const tileLists = b.create(
      this.buf('MotionBlur.TileListBuffer', TYPED_UINT, Math.ceil(ow / 16) * Math.ceil(oh / 16) * 4 * 2),
    )
    const tileArgs = b.create(this.buf('MotionBlur.TileIndirectArgs', INDIRECT_ARGS, 2 * 16))
    b.read(tileMax)
    b.pass()
    let color = b.create(this.tex('MotionBlur.SceneColor', 'R11G11B10_FLOAT', RT_UAV, ow, oh))
    b.read(velocityFlat, tileDilated, tileLists, tileArgs, tsrOutput)

    // Depth of field when the camera focuses (cinematics, aiming).
    if (f.depthOfField) {
      const hw = Math.ceil(ow / 2)
      const hh = Math.ceil(oh / 2)
      b.pass()
      const setup = b.create(this.tex('DOF.Setup.FullRes', 'R16G16B16A16_FLOAT', UAV, hw, hh))
      const cocTiles = b.create(
        this.tex('DOF.TileClassification', 'R16G16B16A16_FLOAT', UAV, Math.ceil(ow / 8), Math.ceil(oh / 8)),
      )
      b.read(color)
      b.pass()
      const reduce = b.create(this.tex('DOF.Reduce', 'R11G11B10_FLOAT', UAV, hw, hh, 4))
      const gatherArgs = b.create(this.buf('DOF.GatherDrawIndirectArgs', INDIRECT_ARGS, 3 * 16))
      b.read(setup)
      b.read(cocTiles)
      b.pass()
      const foreground = b.create(this.tex('DOF.Gather.Foreground', 'R16G16B16A16_FLOAT', UAV, hw, hh))
      const background = b.create(this.tex('DOF.Gather.Background', 'R16G16B16A16_FLOAT', UAV, hw, hh))
      b.read(reduce, gatherArgs)
      b.pass()
      const bokeh = b.create(this.tex('DOF.BokehLUT', 'R16G16B16A16_FLOAT', UAV, 32, 32))
      b.pass()
      const recombine = b.create(this.tex('DOF.Recombine', 'R11G11B10_FLOAT', UAV, ow, oh))
      b.read(foreground, background, bokeh, color)
      color = recombine
    }

    // Eye adaptation: histogram, local exposure grid.
    b.pass()
    const histogramAtomic = b.create(this.tex('HistogramAtomic', 'R32_UINT', UAV, 64, 2))
    const bilateral = b.create(
      this.tex3d('LocalExposure.BilateralGrid', 'R16G16_FLOAT', UAV, Math.ceil(ow / 64), Math.ceil(oh / 64), 32),
    )
    const logLuminance = b.create(
      this.tex('LocalExposure.BlurredLogLuminance', 'R16_FLOAT', UAV, Math.ceil(ow / 64), Math.ceil(oh / 64)),
    )
    b.read(color)
    b.pass()
    const histogram = b.create(this.tex('Histogram', 'R16G16B16A16_FLOAT', RT, 64, 2))
    b.read(histogramAtomic)
    b.pass()
    const exposure = b.create(this.buf('EyeAdaptation.Buffer', structured(16), 4 * 16))
    b.read(histogram)
    b.read(bilateral)
    b.pass()
    b.read(logLuminance)

    // Lens flares from the bright parts of a half-resolution copy.
    b.pass()
    const bloomSetup = b.create(this.tex('Bloom.Setup', 'R11G11B10_FLOAT', RT, Math.ceil(ow / 2), Math.ceil(oh / 2)))
    b.read(color)
    b.read(exposure)
    b.pass()
    const flares = b.create(this.tex('LensFlares', 'R11G11B10_FLOAT', RT, Math.ceil(ow / 4), Math.ceil(oh / 4)))
    b.read(bloomSetup)
    b.passes(2)
    b.read(flares)

    // Bloom: a mip chain down to 1/64 and back up.
    const down: Handle[] = []
    let source = bloomSetup
    for (let level = 2; level <= 6; level++) {
      b.pass()
      down.push(
        b.create(
          this.tex('Bloom.Downsample', 'R11G11B10_FLOAT', RT, Math.ceil(ow / 2 ** level), Math.ceil(oh / 2 ** level)),
        ),
      )
      b.read(source)
      source = down[down.length - 1]
    }
    for (let level = 5; level >= 2; level--) {
      b.pass()
      const up = b.create(
        this.tex('Bloom.Upsample', 'R11G11B10_FLOAT', RT, Math.ceil(ow / 2 ** level), Math.ceil(oh / 2 ** level)),
      )
      b.read(source)
      b.read(down[level - 2])
      source = up
    }
    b.pass()
    b.read(source)
    b.read(flares)

    // Tonemapping with its color-grading volume LUT.
    b.pass()
    const lut = b.create(this.tex3d('CombineLUTs', 'R10G10B10A2_UNORM', UAV, 32, 32, 32))
    b.pass()
    const tonemap = b.create(this.tex('Tonemap', 'R10G10B10A2_UNORM', RT, ow, oh))
    b.read(lut, source, color, histogram, exposure, logLuminance, bilateral)
    // Film grain, the HUD drawn by Slate, then the copy to the back buffer.
    b.pass()
    b.read(tonemap)
    b.pass()
    const ui = b.create(this.tex('SlateUI.Composite', 'B8G8R8A8_UNORM', RT, ow, oh))
    b.read(tonemap)
    b.passes(3)
    b.read(ui)
  }

  private buildLite(b: GraphBuilder, f: FrameFeatures): void {
    const { width: w, height: h } = this.res
    // GPU scene update, instance culling, occlusion tests: passes without transients of their own here.
    b.passes(4)
    const depth = b.create(this.tex('SceneDepthZ', 'D32_FLOAT_S8X24_UINT', DS, w, h))
    const args = b.create(this.buf('InstanceCulling.DrawIndirectArgsBuffer', INDIRECT_ARGS, 1024 * 20 * (1 + f.load)))
    b.pass()
    const gbufferA = b.create(this.tex('GBufferA', 'R10G10B10A2_UNORM', RT, w, h))
    const gbufferB = b.create(this.tex('GBufferB', 'R8G8B8A8_UNORM', RT, w, h))
    const gbufferC = b.create(this.tex('GBufferC', 'R8G8B8A8_UNORM', RT, w, h))
    const sceneColor = b.create(this.tex('SceneColor', 'R11G11B10_FLOAT', RT_UAV, w, h))
    b.read(depth)
    b.read(args)
    // Velocity, then four cascades of the directional light into one atlas.
    b.passes(2)
    const shadowDepth = b.create(this.tex('ShadowDepthAtlas', 'D16_UNORM', DS, 2048, 2048))
    b.passes(3)
    b.pass()
    const shadowMask = b.create(this.tex('ShadowMaskTexture', 'B8G8R8A8_UNORM', RT, w, h))
    b.read(shadowDepth)
    b.read(depth)
    b.pass()
    const lightGrid = b.create(
      this.buf('LightGrid.CulledLightDataGrid16Bit', TYPED_UINT, Math.ceil(w / 64) * Math.ceil(h / 64) * 32 * 64),
    )
    for (let light = 0; light < f.shadowedLights; light++) {
      b.pass()
      const mask = b.create(this.tex('ShadowMaskTexture', 'B8G8R8A8_UNORM', RT, w, h))
      b.pass()
      b.read(mask, sceneColor, gbufferA, gbufferB, gbufferC)
    }
    b.pass()
    b.read(shadowMask, lightGrid, sceneColor, gbufferA, gbufferB, gbufferC, depth)
    // Reflection environment, sky, height fog, translucency, distortion.
    b.passes(8)
    b.read(sceneColor)
    b.pass()
    const ao = b.create(this.tex('ScreenSpaceAO', 'R8_UNORM', RT, Math.ceil(w / 2), Math.ceil(h / 2)))
    b.read(depth)
    b.pass()
    b.read(ao)
    b.read(sceneColor)
    const bloom: Handle[] = []
    for (let level = 1; level <= 4; level++) {
      b.pass()
      bloom.push(
        b.create(
          this.tex('Bloom.Downsample', 'R11G11B10_FLOAT', RT, Math.ceil(w / 2 ** level), Math.ceil(h / 2 ** level)),
        ),
      )
      b.read(level === 1 ? sceneColor : bloom[level - 2])
    }
    // Eye adaptation histogram and exposure, bloom upsampling, then tonemapping.
    b.passes(6)
    const tonemap = b.create(this.tex('Tonemap', 'R10G10B10A2_UNORM', RT, w, h))
    b.read(sceneColor, ...bloom)
    // FXAA, the HUD, the copy to the back buffer.
    b.passes(3)
    b.read(tonemap)
  }
}
