/**
 * A process's first load of capture lines starts on code the engine has not compiled yet. It compiles the
 * scanner and the builder from what they have done so far, and a path they have not taken yet (the first `use`
 * record after a level load of textures, the first id that needs a long varint, the first repeated transient)
 * is compiled as a way out: taking it throws the compiled code away mid-load, to be compiled again. So before
 * its first load a process reads a small capture of its own through a throwaway scanner and builder
 * (`primeLoad`): every kind of record the stress, streaming, leak, ray-tracing and budget workloads hold, each
 * way of writing their values, a repeated render graph, `use` ids near and far apart, `use` records repeated. A
 * few frames: what the compiler needs is that a path has run, not that it has run often, and the primer's own
 * time is spent in the interpreter. Nothing of it reaches a real load: the scanner, the builder and their tables are its own.
 */
import { NdjsonScanner } from './scanner'
import { CaptureBuilder } from './storeBuilder'

/**
 * Frames of the primer capture: a few, since a path's first run is what the compiler needs to have seen, but
 * not the first calls of a function, which the engine runs before it records anything (with three frames the
 * builder's `add` had not begun to record when the primer's budgets came).
 */
const FRAMES = 5

const TEXTURE_FORMATS = ['BC7_UNORM', 'BC5_UNORM', 'R16G16B16A16_FLOAT', 'R11G11B10_FLOAT', 'D32_FLOAT_S8X24_UINT']
const TEXTURE_FLAGS = [
  '["ShaderResource"]',
  '["ShaderResource","Streamable"]',
  '["RenderTargetable","ShaderResource","UAV"]',
  '["DepthStencilTargetable","ShaderResource"]',
]
const BUFFER_USAGES = [
  '["Static","VertexBuffer"]',
  '["Uniform","Dynamic"]',
  '["Static","UnorderedAccess","ShaderResource","StructuredBuffer"]',
  '["Static","IndexBuffer","ShaderResource"]',
]
const TAGS = ['Textures', 'Meshes', 'UniformBuffers', 'Physics', 'Particles', 'RenderTargets']
const VIAS = ['fastConstant', 'fast', 'staging']

/** The primer capture's lines, the same every time (a fixed linear congruential sequence). */
export function primerText(): string {
  let seed = 12345
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % n
  }
  const lines = [
    '{"format":"heapscope-capture","version":1,"app":"Primer","adapter":{"name":"Primer","vram":8589934592,' +
      '"resourceHeapTier":2,"uma":false},"budget":268435456}',
  ]
  let id = 0
  const live: number[] = []
  for (let frame = 1; frame <= FRAMES; frame++) {
    lines.push(`{"e":"frame","n":${frame},"t":${(frame * 16.667).toFixed(3)}}`)
    if (frame > 2) lines.push(`{"e":"gpu","n":${frame - 2}}`)
    for (let i = 0; i < 12; i++) {
      const name = `Primer_${next(16)}`
      const tag = TAGS[next(TAGS.length)]
      if (next(3) === 0) {
        const side = 64 << next(6)
        const sized = next(2) === 0 ? `,"size":${side * side},"align":65536` : ''
        const mips = next(2) === 0 ? `,"mips":${next(12) + 1}` : ''
        lines.push(
          `{"e":"texture","id":${++id},"dim":"2d","format":"${TEXTURE_FORMATS[next(TEXTURE_FORMATS.length)]}",` +
            `"width":${side},"height":${side}${mips},"flags":${TEXTURE_FLAGS[next(TEXTURE_FLAGS.length)]},` +
            `"name":"${name}_D","tag":"${tag}"${sized}}`,
        )
      } else {
        const stride = next(2) === 0 ? `,"stride":${4 << next(3)}` : ''
        const init = next(3) === 0 ? ',"init":true' : ''
        lines.push(
          `{"e":"buffer","id":${++id},"size":${16 * (next(100_000) + 1)},"usage":${BUFFER_USAGES[next(BUFFER_USAGES.length)]}` +
            `${stride}${init},"name":"${name}.VB","tag":"${tag}"}`,
        )
      }
      live.push(id)
    }
    // what the loop above leaves out: other dimensions and a depth, a state, a readback heap, no usage
    lines.push(
      `{"e":"texture","id":${++id},"dim":"${['3d', 'cube', 'cubearray'][frame % 3]}","format":"R8_UNORM",` +
        `"width":128,"height":128,"depth":${4 << frame},"flags":["ShaderResource","UAV"],"name":"Primer.Volume","tag":"Volumes"}`,
      `{"e":"buffer","id":${++id},"size":2248704,"usage":["AccelerationStructure"],"state":"single","name":"Primer.BLAS","tag":"RayTracing"}`,
      `{"e":"buffer","id":${++id},"size":16,"usage":[],"heap":"readback","name":"Primer.Readback","tag":"Misc"}`,
    )
    live.push(id - 2, id - 1, id)
    // a budget past 2^32: a number the scanner's integer loop carries past the engine's small integers
    lines.push(`{"e":"budget","bytes":${3221225472 + frame * 1610612736}}`)
    // a render graph of the same transients every frame, so their members after the id repeat
    lines.push('{"e":"graph","name":"SceneRenderer"}')
    for (let i = 0; i < 6; i++) {
      const member =
        i % 3 === 0
          ? `"kind":"buffer","size":${4096 * (i + 1)},"usage":${BUFFER_USAGES[i % BUFFER_USAGES.length]},"stride":4`
          : `"kind":"texture","format":"${TEXTURE_FORMATS[i % TEXTURE_FORMATS.length]}","width":1920,"height":1080,` +
            `"flags":${TEXTURE_FLAGS[i % TEXTURE_FLAGS.length]}`
      lines.push(`{"e":"transient","id":${++id},${member},"first":${i},"last":${i + 5},"name":"Graph.${i}"}`)
    }
    lines.push(`{"e":"endgraph","passes":${40 + next(10)}}`)
    // use records: ids near and far apart, runs short and long, and ids past 2^21 (varints of every length)
    for (let i = 0; i < 4; i++) {
      const ids: number[] = []
      for (let k = 0; k < 8; k++) ids.push(live[next(live.length)])
      if (i === 1) for (let k = 0; k < 150; k++) ids.push(1 + k)
      if (i === 2) ids.push(1 << (16 + next(10)), 2 ** 30 + next(1000))
      lines.push(`{"e":"use","ids":[${ids.join(',')}]}`)
    }
    // use records that repeat the frame before's, in its order (predicted), one out of it (found by its hash), and
    // one with a member of its own (its ids read from the copy)
    const sets = ['[1,2,3,4,5,6,7,8]', '[9,10,11,12,40,41,42,43]', '[5,9,13,17,21,25]']
    for (const set of sets) lines.push(`{"e":"use","ids":${set}}`)
    if (frame > 2) lines.push(`{"e":"use","ids":${sets[frame % sets.length]}}`)
    if (frame > 3) lines.push(`{"e":"use","ids":${sets[0]},"pass":"Primer"}`)
    for (const via of VIAS) lines.push(`{"e":"upload","via":"${via}","bytes":${next(1 << 23)},"count":${next(6000)}}`)
    if (frame === 2) lines.push(`{"e":"commit","id":${live[0]},"bytes":67108864}`)
    if (frame === 3) lines.push(`{"e":"lock","id":${live[1]},"bytes":2734256}`)
    for (let i = 0; i < 4; i++) {
      const at = 2 + next(live.length - 2)
      lines.push(`{"e":"release","id":${live[at]}}`)
      live[at] = live[live.length - 1]
      live.pop()
    }
  }
  return lines.join('\n') + '\n'
}

let primed = false

/** Whether this process has read the primer. */
export function primerRead(): boolean {
  return primed
}

/** Read the primer capture once per process (the first call; later ones return at once). */
export function primeLoad(): void {
  if (primed) return
  primed = true
  const bytes = new TextEncoder().encode(primerText())
  const builder = new CaptureBuilder()
  const scanner = new NdjsonScanner(builder, { file: 'primer' })
  // in chunks, as a file's come, so a line crosses a chunk's end too
  const chunk = 1 << 14
  for (let at = 0; at < bytes.length; at += chunk) scanner.push(bytes.subarray(at, at + chunk))
  scanner.finish()
  builder.finish('primer', bytes.length, scanner.lines, false)
}
