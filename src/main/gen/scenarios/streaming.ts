/**
 * `streaming`: an open world crossed on foot and by vehicle on a 6 GB laptop GPU. World Partition cells load
 * and unload around the camera; every texture is block-compressed (BC1/BC5/BC7, 256–8192) and recreated with
 * more or fewer mips as the camera approaches or leaves; each cell's stationary lights keep cached shadow maps;
 * `use` records name what each frame draws, a set that drifts with the view; `gpu` fences lag the CPU by 1 to 3
 * frames. The streaming pool (2.75 GiB) was sized for a bigger card: with what the desktop and other
 * applications hold, the budget (3.75 GiB) sits below the peak and the residency manager has to evict what the
 * camera left behind, and cannot always.
 */
import { GiB, MiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const streaming: Scenario = {
  name: 'streaming',
  description:
    'Open-world texture streaming: mip chains created and released as the camera moves, drifting ' +
    'use sets, lagging GPU fences, a budget below the peak',
  defaultFrames: 1800,
  *run(out, { frames, seed }) {
    const adapter = ADAPTERS.rtx3060Laptop
    out.header(captureHeader('OpenWorldDemo-Win64-Test', adapter, 3.75 * GiB, seed))
    const library = new AssetLibrary(seed, { meshesPerBase: 6, textureScale: 2 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 128,
      loadRadius: 512,
      meshesPerCell: [16, 32],
      streamingPool: 2.75 * GiB,
      updatesPerFrame: 16,
      cellsPerFrame: 1,
      fullResolutionDistance: 12,
      speed: 9,
    }, scenarioRng(seed, 12))
    const services = new SceneServices({
      lumen: true,
      nanite: true,
      virtualShadowMaps: true,
      uniformBuffers: 600,
      uniformChurn: 2,
      uiTextures: 24,
      constantBytes: 1 * MiB,
      driverShare: 0.5,
    }, scenarioRng(seed, 13))
    const rng = scenarioRng(seed, 11)
    const clock = new FrameClock(scenarioRng(seed, 14))
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n, n > 1 && world.updates > 8 ? rng.range(0.3, 2) : 0)
      clock.gpu(out, n)
      if (n === 1) services.start(out, resolution(1920, 1080, 100), 10000, 60000)
      world.step(out, 1 / 60)
      services.resizeScene(out, 4000 + world.loadedCells * 500, 30000 + world.loadedCells * 6000)
      world.use(out, services.usedIds, services.usedIdCount)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
