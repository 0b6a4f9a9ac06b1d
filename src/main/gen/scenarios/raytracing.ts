/**
 * `raytracing`: the deferred renderer with hardware ray tracing (Lumen HWRT) at 1440p. Every loaded mesh gets a
 * BLAS (64 KiB to 32 MiB, so the biggest leave the 16 MiB acceleration-structure pool limit for committed
 * buffers), built with a scratch buffer and compacted two frames later; skinned characters' BLAS are rebuilt
 * as they animate; the TLAS, its build scratch and its instance descriptors are rebuilt every frame; shader
 * binding tables (64-byte records, multi-state) are recreated when the scene's hit groups outgrow them.
 */
import { GiB, MiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { RayTracingScene } from '../raytracing'
import { DeferredRenderer, evolveFeatures, initialFeatures, resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const raytracing: Scenario = {
  name: 'raytracing',
  description:
    'Hardware ray tracing: BLAS per mesh with build scratch and compaction, TLAS rebuilt every ' +
    'frame, shader binding tables, on top of the deferred renderer',
  defaultFrames: 600,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 21)
    const res = resolution(2560, 1440, 67)
    out.header(captureHeader('ArchVizExplorer-Win64-Shipping', ADAPTERS.rtx4070, 10.5 * GiB, seed))
    const library = new AssetLibrary(seed, { meshesPerBase: 4, textureScale: 1 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 128,
      loadRadius: 384,
      meshesPerCell: [8, 16],
      streamingPool: 2 * GiB,
      updatesPerFrame: 10,
      cellsPerFrame: 1,
      fullResolutionDistance: 8,
      speed: 4,
    }, scenarioRng(seed, 22))
    const rt = new RayTracingScene(library, scenarioRng(seed, 23), 4)
    world.meshListener = rt
    const services = new SceneServices({
      lumen: true,
      nanite: true,
      virtualShadowMaps: true,
      uniformBuffers: 1800,
      uniformChurn: 5,
      uiTextures: 24,
      constantBytes: 1.5 * MiB,
      driverShare: 0.5,
    }, scenarioRng(seed, 24))
    const renderer = new DeferredRenderer(res, seed)
    const clock = new FrameClock(scenarioRng(seed, 25))
    const features = initialFeatures(rng)
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n, n > 1 && world.updates > 6 ? rng.range(0.5, 3) : 0)
      if (n === 1) services.start(out, res, 20000, 150000)
      rt.beginFrame(n)
      world.step(out, 1 / 60)
      const meshes = world.loadedMeshes
      services.resizeScene(out, 6000 + meshes * 40, 50000 + meshes * 600)
      // Instances in the TLAS: each loaded mesh placed a dozen times on average; a few segments per mesh.
      rt.frame(out, n, meshes * 12, meshes * 3)
      evolveFeatures(features, rng, world.loadedCells)
      renderer.scene(out, features)
      renderer.post(out, features)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
