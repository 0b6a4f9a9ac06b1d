/**
 * `budget-drop`: the deferred renderer in an open world on an 8 GB card, with `use` records, when another
 * application takes video memory: the budget falls from 7 GiB to 3 GiB at 40 % of the capture (below what each
 * frame uses, so the residency manager evicts and frames go over budget) and comes back to 4.5 GiB at 80 %.
 */
import { GiB, MiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { ParticleSystems } from '../particles'
import { DeferredRenderer, evolveFeatures, initialFeatures, resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const budgetDrop: Scenario = {
  name: 'budget-drop',
  description:
    'A normal workload whose budget drops mid-capture (7 GiB to 3 GiB, then 4.5 GiB), with use ' +
    'records, so evictions and over-budget frames appear',
  defaultFrames: 1200,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 41)
    const res = resolution(1920, 1080, 100)
    out.header(captureHeader('OpenWorldDemo-Win64-Shipping', ADAPTERS.rtx3070, 7 * GiB, seed))
    const library = new AssetLibrary(seed, { meshesPerBase: 5, textureScale: 2 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 128,
      loadRadius: 384,
      meshesPerCell: [12, 24],
      streamingPool: 2.5 * GiB,
      updatesPerFrame: 12,
      cellsPerFrame: 1,
      fullResolutionDistance: 10,
      speed: 7,
    }, scenarioRng(seed, 42))
    const services = new SceneServices({
      lumen: true,
      nanite: true,
      virtualShadowMaps: true,
      uniformBuffers: 1600,
      uniformChurn: 4,
      uiTextures: 30,
      constantBytes: 1.5 * MiB,
      driverShare: 0.5,
    }, scenarioRng(seed, 43))
    const particles = new ParticleSystems(scenarioRng(seed, 44), 1.5)
    const renderer = new DeferredRenderer(res, seed)
    const clock = new FrameClock(scenarioRng(seed, 45))
    const features = initialFeatures(rng)
    const used = new Float64Array(1024)
    const drop = Math.max(2, Math.floor(frames * 0.4))
    const recover = Math.max(drop + 1, Math.floor(frames * 0.8))
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n, n > 1 && world.updates > 6 ? rng.range(0.5, 3) : 0)
      clock.gpu(out, n, 1, 2)
      if (n === 1) services.start(out, res, 16000, 120000)
      // DXGI reports the new budget when the other application's allocations land.
      if (n === drop) out.budget(3 * GiB)
      if (n === recover) out.budget(4.5 * GiB)
      world.step(out, 1 / 60)
      services.resizeScene(out, 6000 + world.loadedCells * 600, 50000 + world.loadedCells * 8000)
      particles.frame(out, n)
      evolveFeatures(features, rng, world.loadedCells)
      renderer.scene(out, features)
      renderer.post(out, features)
      used.set(services.usedIds.subarray(0, services.usedIdCount))
      const count = particles.usedIds(used, services.usedIdCount)
      world.use(out, used, count)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
