/**
 * `demo`: the capture shipped with the app, a few hundred frames that touch every part of the model at a
 * small scale: an open world streaming meshes and mip chains under a budget that forces evictions, then drops
 * and recovers; one render graph a frame whose transients alias; a reserved buffer committed page by page;
 * BLAS in the acceleration-structure pool (and one too big for it) with a TLAS rebuilt every frame; uniform
 * and dynamic buffers in the upload allocator, readback staging, a CPU lock, a resolution change that
 * recreates the history targets, lagging GPU fences, and a particle system that leaks.
 */
import { GiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { ParticleSystems } from '../particles'
import { RayTracingScene } from '../raytracing'
import { DeferredRenderer, evolveFeatures, initialFeatures, resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const demo: Scenario = {
  name: 'demo',
  description:
    'The capture shipped with the app: a little of everything (streaming under a budget, aliasing ' +
    'transients, ray tracing, a leak, a budget drop), under 2 MB',
  defaultFrames: 300,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 51)
    let res = resolution(1280, 720, 100)
    const budget = 1.6 * GiB
    out.header(captureHeader('HeapScopeDemo-Win64-Shipping', ADAPTERS.rtx3050Laptop, budget, seed))
    const library = new AssetLibrary(seed, { meshesPerBase: 2, textureScale: 2 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 96,
      loadRadius: 192,
      meshesPerCell: [3, 6],
      streamingPool: 1.75 * GiB,
      updatesPerFrame: 4,
      cellsPerFrame: 1,
      fullResolutionDistance: 16,
      speed: 12,
    }, scenarioRng(seed, 52))
    const rt = new RayTracingScene(library, scenarioRng(seed, 53), 1)
    world.meshListener = rt
    const services = new SceneServices({
      lumen: false,
      nanite: true,
      virtualShadowMaps: false,
      uniformBuffers: 150,
      uniformChurn: 1,
      uiTextures: 12,
      constantBytes: 512 * 1024,
      driverShare: 0.5,
    }, scenarioRng(seed, 54))
    const leak = {
      system: 'NS_Footstep_Dust',
      particles: [64, 512] as [number, number],
      every: [8, 14] as [number, number],
    }
    const particles = new ParticleSystems(scenarioRng(seed, 55), 1, leak)
    const renderer = new DeferredRenderer(res, seed)
    const clock = new FrameClock(scenarioRng(seed, 56))
    const features = initialFeatures(rng)
    features.shadowedLights = 2
    const used = new Float64Array(1024)
    const drop = Math.max(2, Math.floor(frames * 0.55))
    const recover = Math.max(drop + 1, Math.floor(frames * 0.85))
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n, n > 1 && world.updates > 3 ? rng.range(0.5, 2) : 0)
      clock.gpu(out, n)
      if (n === 1) services.start(out, res, 4000, 20000)
      if (n === drop) out.budget(1 * GiB)
      if (n === recover) out.budget(2 * GiB)
      if (n === Math.floor(frames / 2)) {
        // Dynamic resolution steps down once: the history targets are recreated at the new size.
        res = resolution(1280, 720, 83)
        renderer.res = res
        services.resize(out, res)
      }
      rt.beginFrame(n)
      world.step(out, 1 / 60)
      const meshes = world.loadedMeshes
      services.resizeScene(out, 2000 + meshes * 30, 10000 + meshes * 300)
      rt.frame(out, n, meshes * 6, meshes * 2)
      particles.frame(out, n)
      evolveFeatures(features, rng, world.loadedCells)
      features.shadowedLights = Math.min(features.shadowedLights, 3)
      renderer.lite(out, features)
      used.set(services.usedIds.subarray(0, services.usedIdCount))
      let count = particles.usedIds(used, services.usedIdCount)
      count = rt.usedIds(used, count)
      world.use(out, used, count, 128)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
