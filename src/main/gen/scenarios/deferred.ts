/**
 * `deferred`: a UE5 deferred renderer at 1080p or 1440p in an open world. Each frame runs two render graphs
 * (scene and post-processing) with 200–300 transients whose lifetimes let the transient allocator alias
 * them; around them, level streaming brings meshes and textures in and out, multi-frame uniform buffers are
 * replaced, the GPU scene grows, Nanite commits pages into its reserved pool, and every frame feeds the upload
 * allocators. Dynamic resolution steps now and then, recreating the history targets.
 */
import { GiB, MiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { DeferredRenderer, evolveFeatures, initialFeatures, resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const deferred: Scenario = {
  name: 'deferred',
  description:
    'UE5 deferred renderer: scene and post render graphs with 200+ aliasing transients a frame, ' +
    'level and mip streaming, uniform buffers, uploads',
  defaultFrames: 600,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 1)
    const wide = rng.chance(0.5)
    const [ow, oh] = wide ? [2560, 1440] : [1920, 1080]
    // TSR quality, balanced, performance at 1440p; native and two steps down at 1080p.
    const steps = wide ? [67, 58, 50] : [100, 83, 67]
    let step = 0
    let res = resolution(ow, oh, steps[step])
    const adapter = ADAPTERS.rtx4080
    out.header(captureHeader('ShooterGame-Win64-Shipping', adapter, 14 * GiB, seed))

    const library = new AssetLibrary(seed, { meshesPerBase: 5, textureScale: 1 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 128,
      loadRadius: 384,
      meshesPerCell: [6, 14],
      streamingPool: 2 * GiB,
      updatesPerFrame: 10,
      cellsPerFrame: 1,
      fullResolutionDistance: 16,
      speed: 6,
    }, scenarioRng(seed, 2))
    const services = new SceneServices({
      lumen: true,
      nanite: true,
      virtualShadowMaps: true,
      uniformBuffers: 2400,
      uniformChurn: 6,
      uiTextures: 40,
      constantBytes: 2 * MiB,
      driverShare: 0.5,
    }, scenarioRng(seed, 3))
    const renderer = new DeferredRenderer(res, seed)
    const clock = new FrameClock(scenarioRng(seed, 4))
    const features = initialFeatures(rng)

    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n, n > 1 && world.updates > 6 ? rng.range(0.5, 3) : 0)
      if (n === 1) services.start(out, res, 20000, 200000)
      world.step(out, 1 / 60)
      // Each loaded cell adds primitives and many more instances (foliage, instanced meshes).
      services.resizeScene(out, 8000 + world.loadedCells * 700, 60000 + world.loadedCells * 9000)
      if (n > 1 && rng.chance(1 / 1500)) {
        // Dynamic resolution moves one step when the GPU time drifts.
        step = step === 0 ? 1 : step === steps.length - 1 ? step - 1 : step + (rng.chance(0.5) ? 1 : -1)
        res = resolution(ow, oh, steps[step])
        renderer.res = res
        services.resize(out, res)
      }
      evolveFeatures(features, rng, world.loadedCells)
      renderer.scene(out, features)
      renderer.post(out, features)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
