/**
 * `stress`: the workload a replay finds hardest. An impostor baker captures every actor the camera passes into
 * textures and card buffers and never frees them: about 6.9 resources a frame that stay alive, so a capture of
 * two million records ends with about 90 000 live resources and a DEFAULT heap near 77 GiB against a 6 GiB
 * budget; the residency manager evicts every frame. Around the leak: a steady churn of buffers and textures with
 * lifetimes of one to five seconds, one render graph of 30 transients a frame, `use` records of 8 ids each
 * (recent and old leaked resources, the churn), uploads through all three allocators and a GPU 1 to 2 frames
 * behind.
 */
import { GiB, KiB, MiB, roundUp } from '../../../shared/units'
import { BYTE_ADDRESS, DS, INDIRECT_ARGS, MESH_INDEX32, MESH_VERTEX, RT, RT_UAV, structured, textureClass, UAV, UNIFORM } from '../kinds'
import { hashString } from '../prng'
import { GraphBuilder, emitGraph, TransientCatalog, type CompiledGraph } from '../rendergraph'
import { ADAPTERS, captureHeader, FrameClock, scenarioRng, type Scenario } from '../scenario'
import { mipCount } from '../textures'
import { BufferClass, type CaptureWriter, type TextureClass } from '../writer'

const IMPOSTOR_COLOR = textureClass('BC7_UNORM', ['ShaderResource'], 'Impostors')
const IMPOSTOR_NORMAL = textureClass('BC5_UNORM', ['ShaderResource'], 'Impostors')
const IMPOSTOR_CARDS = structured(16, 'Impostors')
const CHURN_TEXTURES = [
  textureClass('BC1_UNORM', ['ShaderResource', 'Streamable'], 'Textures'),
  textureClass('BC7_UNORM', ['ShaderResource', 'Streamable'], 'Textures'),
  textureClass('R8G8B8A8_UNORM', ['ShaderResource'], 'RHIMisc'),
]
const CHURN_BUFFERS: { cls: BufferClass; lo: number; hi: number; name: string }[] = [
  { cls: MESH_VERTEX, lo: 4 * KiB, hi: 2 * MiB, name: 'SM_Debris.VB' },
  { cls: MESH_INDEX32, lo: 2 * KiB, hi: 512 * KiB, name: 'SM_Debris.IB' },
  { cls: structured(16, 'Particles'), lo: 1 * KiB, hi: 1 * MiB, name: 'Niagara.GPUBuffer.Float' },
  {
    cls: new BufferClass({ usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4, tag: 'Physics' }),
    lo: 256,
    hi: 256 * KiB,
    name: 'ClothSimulation.Positions',
  },
  { cls: UNIFORM, lo: 64, hi: 1 * KiB, name: 'FUniformBuffer' },
]
/** Longest churn lifetime in frames; the expiry ring has one slot more. */
const MAX_LIFE = 300
const USE_BATCH = 8
const USE_RECORDS = 24

export const stress: Scenario = {
  name: 'stress',
  description:
    'A steady leak of impostor textures and buffers (about 90 000 alive after two million records) far ' +
    'past a 6 GiB budget, with churn, one render graph a frame, use records of 8 ids and uploads',
  defaultFrames: 2000,
  *run(out, { frames, seed }) {
    const rng = scenarioRng(seed, 71)
    const useRng = scenarioRng(seed, 72)
    out.header(captureHeader('ImpostorBake-Win64-Development', ADAPTERS.rtx3070, 6 * GiB, seed))
    const clock = new FrameClock(scenarioRng(seed, 73))
    const graph = stressGraph(seed)
    const leaked: number[] = []
    const churn: number[] = []
    const churnAt = new Map<number, number>()
    const expiring: number[][] = Array.from({ length: MAX_LIFE + 1 }, () => [])
    const used = new Float64Array(USE_BATCH * USE_RECORDS)
    let actor = 0
    for (let n = 1; n <= frames; n++) {
      clock.frame(out, n)
      clock.gpu(out, n, 1, 2)
      // The churn that ends this frame.
      const ending = expiring[n % expiring.length]
      for (const id of ending) {
        const at = churnAt.get(id)!
        const last = churn.pop()!
        if (last !== id) {
          churn[at] = last
          churnAt.set(last, at)
        }
        churnAt.delete(id)
        out.release(id)
      }
      ending.length = 0
      // The impostor baker: every actor passed gets a color and a normal atlas and a buffer of cards, kept forever.
      const actors = rng.int(2, 4)
      for (let i = 0; i < actors; i++) {
        const name = `HLOD_Impostor_${actor++}`
        const side = 2 ** rng.weighted([0, 0, 0, 0, 0, 0, 0, 2, 3, 3, 3, 2])
        const mips = mipCount(side, side)
        const driver = (hashString(name) & 1) === 1
        leaked.push(out.texture(IMPOSTOR_COLOR, side, side, 1, mips, name + '_D', driver))
        if (rng.chance(0.5)) leaked.push(out.texture(IMPOSTOR_NORMAL, side, side, 1, mips, name + '_N', !driver))
        if (rng.chance(0.8)) {
          const cards = roundUp(Math.round(rng.logRange(4 * KiB, 2 * MiB)), 16)
          leaked.push(out.buffer(IMPOSTOR_CARDS, cards, name + '.Cards'))
        }
      }
      // Churn: about 55 resources a frame live one to five seconds.
      const creates = rng.int(45, 65)
      for (let i = 0; i < creates; i++) {
        let id: number
        if (rng.chance(0.2)) {
          const cls = rng.pick(CHURN_TEXTURES)
          const side = 2 ** rng.int(5, 10)
          const height = rng.chance(0.7) ? side : side / 2
          const mips = rng.chance(0.8) ? mipCount(side, height) : 1
          id = out.texture(cls, side, height, 1, mips, `T_Debris_${rng.int(0, 999)}`, rng.chance(0.5))
        } else {
          const kind = rng.pick(CHURN_BUFFERS)
          id = out.buffer(kind.cls, roundUp(Math.round(rng.logRange(kind.lo, kind.hi)), 16), kind.name)
        }
        churnAt.set(id, churn.length)
        churn.push(id)
        expiring[(n + rng.int(60, MAX_LIFE)) % expiring.length].push(id)
      }
      emitGraph(out, 'SceneRenderer', graph)
      // What the frame draws, 8 different ids a record: recent impostors, a few old ones the camera turns back
      // to, the churn (every frame creates more than 8, so there are always enough).
      for (let i = 0; i < used.length; i++) {
        const first = i - (i % USE_BATCH)
        let id: number
        do {
          const pick = useRng.float()
          if (pick < 0.35 && leaked.length > 0) id = leaked[leaked.length - 1 - useRng.int(0, Math.min(leaked.length, 400) - 1)]
          else if (pick < 0.5 && leaked.length > 0) id = leaked[useRng.int(0, leaked.length - 1)]
          else id = churn[useRng.int(0, churn.length - 1)]
        } while (used.subarray(first, i).includes(id))
        used[i] = id
      }
      for (let at = 0; at < used.length; at += USE_BATCH) out.use(used, USE_BATCH, at)
      uploads(out, rng)
      yield
    }
  },
}

/** Constants, render-thread updates, and the initial data of what this frame created plus worker uploads. */
function uploads(out: CaptureWriter, rng: ReturnType<typeof scenarioRng>): void {
  const [initBytes, initCount] = out.takeInitialData()
  const workers = rng.int(2, 8)
  let staging = roundUp(initBytes, 512)
  for (let i = 0; i < workers; i++) staging += roundUp(Math.round(rng.logRange(16 * KiB, 1 * MiB)), 512)
  const constants = Math.round(rng.around(1 * MiB, 128 * KiB) / 256) * 256
  out.upload('fastConstant', constants, Math.round(constants / rng.range(180, 320)))
  const fast = rng.int(8, 40)
  out.upload('fast', roundUp(Math.round(fast * rng.range(12, 48) * KiB), 256), fast)
  out.upload('staging', staging, initCount + workers)
}

/** The frame's one render graph: 30 transients over 35 passes at 1920×1080, depth to tonemap. */
function stressGraph(seed: number): CompiledGraph {
  const catalog = new TransientCatalog((name) => ((hashString(name) ^ seed) & 1) === 1)
  const b = new GraphBuilder()
  const w = 1920
  const h = 1080
  const tex = (name: string, format: string, flags: TextureClass['kind']['flags'], tw: number, th: number) =>
    b.create(catalog.texture(name, textureClass(format, flags), tw, th))
  const buf = (name: string, cls: BufferClass, size: number) => b.create(catalog.buffer(name, cls, roundUp(size, 16)))
  b.pass()
  const culled = buf('InstanceCulling.InstanceIdsBuffer', BYTE_ADDRESS, 262144 * 4)
  const args = buf('InstanceCulling.DrawIndirectArgs', INDIRECT_ARGS, 4096 * 20)
  b.pass()
  const depth = tex('SceneDepthZ', 'D32_FLOAT_S8X24_UINT', DS, w, h)
  b.read(culled, args)
  b.passes(2)
  const hzb = tex('HZBFurthest', 'R16_FLOAT', UAV, w / 2, h / 2)
  b.read(depth)
  b.pass()
  const gbuffers = ['GBufferA', 'GBufferB', 'GBufferC', 'GBufferD'].map((name) => tex(name, 'R8G8B8A8_UNORM', RT, w, h))
  const velocity = tex('Velocity', 'R16G16_FLOAT', RT, w, h)
  b.read(depth, culled, args)
  b.pass()
  const shadowDepths = [0, 1, 2, 3].map((i) => tex(`ShadowDepth.Cascade${i}`, 'D32_FLOAT', DS, 2048, 2048))
  b.passes(3)
  const shadowMask = tex('ShadowMaskTexture', 'R8G8B8A8_UNORM', RT, w, h)
  b.read(...shadowDepths, depth)
  b.pass()
  const ao = tex('AmbientOcclusion', 'R8_UNORM', RT_UAV, w / 2, h / 2)
  b.read(hzb, depth)
  b.pass()
  const tiles = buf('Lights.TileList', BYTE_ADDRESS, Math.ceil(w / 16) * Math.ceil(h / 16) * 64)
  const grid = buf('ForwardLightData.CulledLightDataGrid', BYTE_ADDRESS, 64 * 32 * 32 * 4)
  b.passes(2)
  const sceneColor = tex('SceneColor', 'R16G16B16A16_FLOAT', RT_UAV, w, h)
  b.read(...gbuffers, shadowMask, ao, tiles, grid, depth)
  b.passes(4)
  const fog = b.create(
    catalog.texture('VolumetricFog.Integrated', textureClass('R16G16B16A16_FLOAT', UAV, undefined, '3d'), 160, 90, 64),
  )
  b.read(sceneColor, depth)
  b.passes(3)
  const translucency = tex('TranslucencyLighting', 'R16G16B16A16_FLOAT', RT, w / 2, h / 2)
  b.read(sceneColor, fog, depth)
  b.passes(2)
  const taa = tex('TSR.Output', 'R16G16B16A16_FLOAT', UAV, w, h)
  b.read(sceneColor, velocity, translucency, depth)
  b.pass()
  const histogram = buf('Histogram', structured(4), 64 * 32 * 4)
  const exposure = buf('EyeAdaptation', structured(16), 64)
  b.read(taa)
  const bloom: number[] = []
  let bw = w / 2
  let bh = h / 2
  for (let i = 0; i < 5; i++) {
    b.pass()
    bloom.push(tex(`Bloom.Downsample${i}`, 'R11G11B10_FLOAT', RT, bw, bh))
    b.read(i === 0 ? taa : bloom[i - 1])
    bw /= 2
    bh /= 2
  }
  b.passes(4)
  b.read(...bloom)
  const lut = b.create(
    catalog.texture('CombineLUTs', textureClass('R10G10B10A2_UNORM', UAV, undefined, '3d'), 32, 32, 32),
  )
  b.pass()
  const ldr = tex('Tonemap.Output', 'R10G10B10A2_UNORM', RT, w, h)
  b.read(taa, lut, exposure, histogram, ...bloom)
  b.passes(2)
  b.read(ldr)
  const graph = b.compile()
  if (graph.classes.length !== 30) throw new Error(`the stress graph has ${graph.classes.length} transients, not 30`)
  return graph
}
