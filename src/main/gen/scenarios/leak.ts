/**
 * `leak`: a steady state with a slow leak. A player walks around a small area: the same cells stay loaded,
 * uniform buffers and particle systems come and go in balance, one render graph a frame. Every few frames a
 * pooled Niagara component spawns `NS_Footstep_Dust` and its GPU simulation buffers (a few KiB each) are never
 * released: about 140 KiB a second under one name, more in the pools' 64 KiB blocks, a growth a diff between
 * the start and the end of the capture finds.
 */
import { GiB, MiB } from '../../../shared/units'
import { AssetLibrary } from '../assets'
import { ParticleSystems } from '../particles'
import { DeferredRenderer, evolveFeatures, initialFeatures, resolution } from '../renderer'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { SceneServices } from '../scene'
import { StreamingWorld } from '../world'

export const leak: Scenario = {
  name: 'leak',
  description:
    'A steady state with a slow leak: a Niagara system spawned every few frames whose GPU buffers are ' +
    'never released',
  defaultFrames: 3600,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 31)
    const res = resolution(1920, 1080, 100)
    out.header(captureHeader('ShooterGame-Win64-Development', ADAPTERS.rx7800xt, 14.5 * GiB, seed))
    const library = new AssetLibrary(seed, { meshesPerBase: 3, textureScale: 1 })
    const world = new StreamingWorld(library, seed, {
      cellSize: 128,
      loadRadius: 256,
      meshesPerCell: [6, 12],
      streamingPool: 1.5 * GiB,
      updatesPerFrame: 6,
      cellsPerFrame: 1,
      fullResolutionDistance: 8,
      speed: 0.8,
    }, scenarioRng(seed, 32))
    const services = new SceneServices({
      lumen: false,
      nanite: false,
      virtualShadowMaps: false,
      uniformBuffers: 900,
      uniformChurn: 3,
      uiTextures: 30,
      constantBytes: 1 * MiB,
      driverShare: 0.5,
    }, scenarioRng(seed, 33))
    const leak = {
      system: 'NS_Footstep_Dust',
      particles: [64, 512] as [number, number],
      every: [4, 9] as [number, number],
    }
    const particles = new ParticleSystems(scenarioRng(seed, 34), 2, leak)
    const renderer = new DeferredRenderer(res, seed)
    const clock = new FrameClock(scenarioRng(seed, 35))
    const features = initialFeatures(rng)
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n)
      if (n === 1) services.start(out, res, 8000, 60000)
      world.step(out, 1 / 60)
      particles.frame(out, n)
      evolveFeatures(features, rng, world.loadedCells)
      renderer.lite(out, features)
      services.frame(out, n, world.uploadedBytes, world.updates)
      yield
    }
  },
}
