/**
 * The replay's cost per record as what is alive grows, on workloads other than `npm run bench`'s two: for each
 * family below, a capture of F frames and one of 8F frames, the same records per frame, whose live set (resources,
 * heaps, tags) grows with the frames. A replay whose cost grows with what is alive costs more per record on the
 * longer capture; one that does not costs the same or less (its warm-up spreads over more records). Each capture is
 * loaded and replayed as the app replays it (every series, `bench/tools/replay.ts`: one checkpoint), four times in
 * one process; the best of the last three counts. Beside them, `report --json` of the longer capture against the
 * JSON.parse baseline in one process, as `npm run bench` measures it (bench/index.ts `--ratio`, the best of three
 * runs; done when at most 1 on every leaking, over-budget workload, bench/README.md).
 *
 * Run with `npm run bench:scaling` (`-- --frames F` for the shorter capture, 1 500 by default; `--only a,b` for some
 * families). The captures are written to bench/data/scaling/ once and reused.
 */
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { once } from 'node:events'

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const FRAMES = Number(option('--frames') ?? 1500)
const LONGER = 8
const DIR = 'bench/data/scaling'
const GiB = 1024 ** 3
const MiB = 1024 ** 2

/** What a family's frame writes, with the generator's state. */
interface Writer {
  emit(record: object): void
  /** A random integer in [0, n). */
  int(n: number): number
  /** A new resource id, live from now on. */
  create(): number
  /** A live id taken out (released), or -1 when none is. */
  take(): number
  /** One of the `n` live ids created last, taken out (released), or -1. */
  takeRecent(n: number): number
  /** The live ids, oldest first but for those `take` moved. */
  ids: number[]
  /** A live id, or -1. */
  pick(): number
  /** A use record of up to n live ids. */
  use(n: number): void
  live: number
  /** The family's own lists (heaps, offsets). */
  heaps: number[]
  bump: number[]
}

interface Family {
  name: string
  /** What it stresses, for the printout. */
  what: string
  header?: object
  /** false: one `frame` record before the first step only, so that every step's records fall in one frame. */
  frameRecords?: boolean
  /** One step: a frame's records (or, without frame records, a stretch of the one frame). */
  frame(w: Writer, f: number): void
}

const BUFFER_USAGES = [
  ['Static', 'VertexBuffer'],
  ['Static', 'IndexBuffer'],
  ['Static', 'ShaderResource', 'StructuredBuffer'],
  ['Static', 'ShaderResource', 'ByteAddressBuffer'],
  ['UnorderedAccess', 'StructuredBuffer'],
  ['UnorderedAccess', 'ByteAddressBuffer'],
  ['UnorderedAccess', 'ShaderResource', 'FastVRAM'],
  ['DrawIndirect', 'UnorderedAccess'],
  ['Static', 'VertexBuffer', 'UnorderedAccess'],
  ['SourceCopy'],
  ['Static', 'Shared'],
  ['Static', 'KeepCPUAccessible'],
]
const TEXTURE_FORMATS = ['BC7_UNORM', 'BC1_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'R32_FLOAT', 'BC5_UNORM', 'R8_UNORM', 'R32G32B32A32_FLOAT']
const TAGS = ['Meshes', 'Nanite', 'Lumen', 'Other']
const TRANSIENT_FORMATS = ['R16G16B16A16_FLOAT', 'R8G8B8A8_UNORM', 'R32_FLOAT', 'R11G11B10_FLOAT', 'D32_FLOAT_S8X24_UINT']

const FAMILIES: Family[] = [
  {
    name: 'tags',
    what: 'a new tag every fourth frame (an asset streamed in), creates tagged with one of the last hundred',
    frame: (w, f) => {
      const newest = Math.floor(f / 4)
      for (let i = 0; i < 10; i++) {
        const tag = `Asset.${Math.max(0, newest - w.int(100))}`
        w.emit({ e: 'buffer', id: w.create(), size: 65536, usage: ['Static'], name: 'B', tag })
      }
      for (let i = 0; i < 7; i++) w.emit({ e: 'release', id: w.take() })
    },
  },
  {
    name: 'sub-heaps',
    what: 'placed resources side by side in four large heaps (a sub-allocator)',
    frame: (w, f) => {
      if (f === 1) {
        for (let h = 0; h < 4; h++) {
          const id = 1e9 + h
          w.heaps.push(id)
          w.bump.push(0)
          w.emit({ e: 'heap', id, size: 2 ** 40, type: 'default' })
        }
      }
      for (let i = 0; i < 8; i++) {
        const h = w.int(4)
        const size = 65536 * (1 + w.int(16))
        w.emit({ e: 'placed', id: w.create(), heap: w.heaps[h], offset: w.bump[h], kind: 'buffer', size, usage: ['UnorderedAccess'] })
        w.bump[h] += size
      }
      for (let i = 0; i < 6; i++) w.emit({ e: 'release', id: w.take() })
    },
  },
  {
    name: 'aliasing',
    what: 'placed resources sharing bytes in the last eight of a growing set of heaps, barriers and accesses',
    frame: (w, f) => {
      // a new 64 MiB heap every fourth frame (none is freed): resources share bytes with about as many others
      // throughout, as a renderer's aliased targets do, while the heaps and resources alive grow
      if (f % 4 === 1) {
        const id = 1e9 + w.heaps.length
        w.heaps.push(id)
        w.emit({ e: 'heap', id, size: 64 * MiB, type: 'default' })
      }
      const recent = w.heaps.slice(-8)
      for (let i = 0; i < 6; i++) {
        const id = w.create()
        const heap = recent[w.int(recent.length)]
        const offset = 65536 * w.int(1000)
        if (w.int(2) === 1) {
          const flags = [['RenderTargetable'], ['DepthStencilTargetable'], ['ShaderResource']][w.int(3)]
          w.emit({ e: 'placed', id, heap, offset, kind: 'texture', format: 'R8G8B8A8_UNORM', width: 256 * (1 + w.int(4)), height: 256, flags, size: 262144 * (1 + w.int(4)) })
        } else w.emit({ e: 'placed', id, heap, offset, kind: 'buffer', size: 65536 * (1 + w.int(16)), usage: ['UnorderedAccess'] })
      }
      // barriers and accesses name the frame's and recent resources
      const recentId = () => w.live - 1 - w.int(Math.min(w.live, 48))
      const ids = w.ids
      for (let i = 0; i < 10; i++) {
        const k = w.int(4)
        if (k === 0) w.emit({ e: 'barrier', after: ids[recentId()], before: ids[recentId()] })
        else if (k === 1) w.emit({ e: 'submit' })
        else w.emit({ e: 'access', id: ids[recentId()], op: ['read', 'write', 'clear', 'discard', 'copy'][w.int(5)] })
      }
      for (let i = 0; i < 5; i++) w.emit({ e: 'release', id: w.takeRecent(48) })
    },
  },
  {
    name: 'reserved',
    what: 'reserved buffers and their commits',
    frame: (w) => {
      for (let i = 0; i < 6; i++) w.emit({ e: 'buffer', id: w.create(), size: 64 * MiB, usage: ['ReservedResource', 'UnorderedAccess'], name: 'Sparse' })
      for (let i = 0; i < 12; i++) w.emit({ e: 'commit', id: w.pick(), bytes: w.int(64) * MiB })
      for (let i = 0; i < 4; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'committed',
    what: 'render targets of their own heaps, far over a 2 GiB budget, with use records',
    frame: (w) => {
      for (let i = 0; i < 6; i++) {
        w.emit({ e: 'texture', id: w.create(), dim: '2d', format: 'R16G16B16A16_FLOAT', width: 2048, height: 1024 + 16 * w.int(64), flags: ['RenderTargetable', 'ShaderResource'], name: 'RT' })
      }
      for (let i = 0; i < 4; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'locks',
    what: 'static and dynamic buffers, locks and staging uploads',
    frame: (w) => {
      for (let i = 0; i < 8; i++) w.emit({ e: 'buffer', id: w.create(), size: 256 + 64 * w.int(1000), usage: [i % 2 ? 'Dynamic' : 'Static', 'VertexBuffer'], name: 'VB' })
      for (let i = 0; i < 8; i++) w.emit({ e: 'lock', id: w.pick(), bytes: 4096 })
      for (let i = 0; i < 6; i++) w.emit({ e: 'release', id: w.take() })
      w.emit({ e: 'upload', via: 'staging', bytes: 65536 * (1 + w.int(8)), count: 4 })
      w.use(8)
    },
  },
  {
    name: 'wide-use',
    what: 'use records of 256 ids',
    frame: (w) => {
      for (let i = 0; i < 20; i++) w.emit({ e: 'buffer', id: w.create(), size: 65536 * (1 + w.int(4)), usage: ['Static', 'ShaderResource'], name: 'B' })
      for (let i = 0; i < 16; i++) w.emit({ e: 'release', id: w.take() })
      w.use(256)
    },
  },
  {
    name: 'vulkan',
    what: 'Vulkan buffers and images with their memory requirements',
    header: { minor: 1, api: 'vulkan' },
    frame: (w) => {
      for (let i = 0; i < 8; i++) {
        const size = 4096 * (1 + w.int(512))
        w.emit({ e: 'buffer', id: w.create(), size, usage: ['Static', 'VertexBuffer'], memoryRequirements: { size, alignment: 256, memoryTypeBits: 15 }, preferred: ['DEVICE_LOCAL'] })
      }
      for (let i = 0; i < 2; i++) {
        w.emit({ e: 'texture', id: w.create(), format: 'BC7_UNORM', width: 1024, height: 1024, mips: 11, memoryRequirements: { size: 1398272, alignment: 65536, memoryTypeBits: 1 } })
      }
      for (let i = 0; i < 7; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'vk-binds',
    what: 'Vulkan resources the application binds side by side in four large memories, buffers beside images',
    header: { minor: 1, api: 'vulkan' },
    frame: (w, f) => {
      if (f === 1) {
        for (let m = 0; m < 4; m++) {
          const id = 1e9 + m
          w.heaps.push(id)
          w.bump.push(0)
          w.emit({ e: 'heap', id, size: 2 ** 40, memoryType: 0 })
        }
      }
      for (let i = 0; i < 8; i++) {
        const id = w.create()
        const m = w.int(4)
        const image = i % 4 === 3
        const size = image ? 1398272 : 4096 * (1 + w.int(64))
        const alignment = image ? 65536 : 256
        const offset = Math.ceil(w.bump[m] / 65536) * 65536
        if (image) w.emit({ e: 'texture', id, format: 'BC7_UNORM', width: 1024, height: 1024, mips: 11, explicit: true, memoryRequirements: { size, alignment, memoryTypeBits: 1 } })
        else w.emit({ e: 'buffer', id, size, usage: ['Static', 'VertexBuffer'], explicit: true, memoryRequirements: { size, alignment, memoryTypeBits: 1 } })
        w.emit({ e: 'bind', id, memory: w.heaps[m], offset })
        w.bump[m] = offset + size
      }
      for (let i = 0; i < 6; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'long-run',
    what: 'a level of 5 000 resources, then frames of two creates, one release and a use of four: what a frame costs',
    frame: (w, f) => {
      const buffer = () => w.emit({ e: 'buffer', id: w.create(), size: 4096 << w.int(10), usage: ['Static', 'ShaderResource'], name: 'B' })
      const texture = () => w.emit({ e: 'texture', id: w.create(), dim: '2d', format: 'BC7_UNORM', width: 256 << w.int(4), height: 256 << w.int(4), mips: 1, flags: ['ShaderResource'], name: 'T' })
      if (f === 1) for (let i = 0; i < 5000; i++) (i % 4 === 3 ? texture : buffer)()
      buffer()
      texture()
      w.emit({ e: 'release', id: w.take() })
      w.use(4)
    },
  },
  {
    name: 'budget-swing',
    what: 'the budget 1 GiB and 12 GiB on alternate frames over a growing live set: evictions and makes resident every frame',
    frame: (w, f) => {
      w.emit({ e: 'budget', bytes: f % 2 === 0 ? 12 * GiB : GiB })
      for (let i = 0; i < 3; i++) w.emit({ e: 'buffer', id: w.create(), size: MiB << w.int(5), usage: ['Static', 'ShaderResource'], name: 'B' })
      w.emit({ e: 'texture', id: w.create(), dim: '2d', format: 'R8G8B8A8_UNORM', width: 2048, height: 1024, mips: 1, flags: ['ShaderResource'], name: 'T' })
      for (let i = 0; i < 2; i++) w.emit({ e: 'release', id: w.take() })
      w.use(32)
    },
  },
  {
    name: 'new-graphs',
    what: 'a render graph of 60 transients in every frame, never the same twice, beside a slow leak',
    frame: (w) => {
      w.emit({ e: 'graph', name: 'SceneRenderer' })
      const passes = 200
      for (let t = 0; t < 60; t++) {
        const first = w.int(passes)
        const last = Math.min(passes - 1, first + w.int(40))
        const id = 1e9 + t
        if (t % 2 === 0) {
          w.emit({ e: 'transient', id, kind: 'texture', format: TRANSIENT_FORMATS[w.int(TRANSIENT_FORMATS.length)], width: 64 * (1 + w.int(32)), height: 64 * (1 + w.int(17)), flags: ['RenderTargetable', 'ShaderResource'], first, last, name: 'RT' })
        } else w.emit({ e: 'transient', id, kind: 'buffer', size: 4096 * (1 + w.int(256)), usage: ['UnorderedAccess', 'StructuredBuffer'], stride: 16, first, last, name: 'Buf' })
      }
      w.emit({ e: 'endgraph', passes })
      for (let i = 0; i < 2; i++) w.emit({ e: 'buffer', id: w.create(), size: 65536 * (1 + w.int(4)), usage: ['Static'], name: 'B' })
      w.emit({ e: 'release', id: w.take() })
    },
  },
  {
    name: 'unique-names',
    what: 'every buffer and texture named by its own asset path, a quarter of them a path named before: a growing string table',
    frame: (w, f) => {
      const AREAS = ['Environment/Rocks', 'Environment/Foliage', 'Characters/Hero', 'Props/Industrial', 'FX/Smoke']
      const path = (n: number) => `/Game/${AREAS[n % AREAS.length]}/Asset_${n}/`
      for (let i = 0; i < 12; i++) {
        const id = w.create()
        // a streamed asset comes back under the name it had
        const n = w.int(4) === 0 && id > 16 ? 1 + w.int(id - 1) : id
        if (i % 3 === 0) {
          w.emit({ e: 'texture', id, dim: '2d', format: 'BC7_UNORM', width: 256 << w.int(3), height: 256 << w.int(3), mips: 1, flags: ['ShaderResource'], name: `${path(n)}T_Albedo_${n}` })
        } else w.emit({ e: 'buffer', id, size: 4096 << w.int(7), usage: ['Static', 'VertexBuffer'], name: `${path(n)}SM_Mesh_${n}.VertexBuffer` })
      }
      for (let i = 0; i < 10; i++) w.emit({ e: 'release', id: w.take() })
      if (f % 4 === 0) w.use(8)
    },
  },
  {
    name: 'callstacks',
    what: 'every buffer and texture with members the format does not define, one of them a callstack id of its own: texts that never repeat',
    frame: (w) => {
      const MODULES = ['Engine', 'Renderer', 'Niagara', 'Game']
      for (let i = 0; i < 12; i++) {
        const id = w.create()
        const extra = { callstack: 0x7ff600000000 + id * 977, module: MODULES[w.int(MODULES.length)] }
        if (i % 3 === 0) {
          w.emit({ e: 'texture', id, dim: '2d', format: 'BC7_UNORM', width: 256 << w.int(3), height: 256 << w.int(3), mips: 1, flags: ['ShaderResource'], name: 'T', ...extra })
        } else w.emit({ e: 'buffer', id, size: 4096 << w.int(7), usage: ['Static', 'VertexBuffer'], name: 'VB', ...extra })
      }
      for (let i = 0; i < 10; i++) w.emit({ e: 'release', id: w.take() })
    },
  },
  {
    name: 'usages',
    what: 'buffers of twelve usages, three state modes and six strides, 1 KiB to 20 MiB, over a budget of 1 to 3 GiB: many pool families, committed buffers, defrag moves',
    frame: (w, f) => {
      if (f % 50 === 0) w.emit({ e: 'budget', bytes: (1 + w.int(3)) * GiB })
      for (let i = 0; i < 12; i++) {
        const usage = BUFFER_USAGES[w.int(BUFFER_USAGES.length)]
        const state = ['default', 'single', 'multi'][w.int(3)]
        const stride = [0, 0, 4, 12, 16, 48][w.int(6)]
        w.emit({ e: 'buffer', id: w.create(), size: 1024 * (1 + w.int(20_000)), usage, stride, state, name: `B${w.int(997)}`, tag: TAGS[w.int(TAGS.length)] })
      }
      for (let i = 0; i < 11; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'no-use',
    what: 'render targets (some multisampled) and buffers over a 1 GiB budget, with no use record: every live resource counts as used every frame',
    header: { budget: GiB },
    frame: (w) => {
      for (let i = 0; i < 4; i++) {
        const width = [640, 1280, 1920, 2560][w.int(4)]
        const height = [360, 720, 1080, 1440][w.int(4)]
        const format = TEXTURE_FORMATS[w.int(TEXTURE_FORMATS.length)]
        w.emit({ e: 'texture', id: w.create(), dim: '2d', format, width, height, samples: w.int(3) === 0 ? 4 : 1, flags: ['RenderTargetable', 'ShaderResource'], name: `RT${w.int(100)}` })
      }
      for (let i = 0; i < 4; i++) w.emit({ e: 'buffer', id: w.create(), size: 4096 * (1 + w.int(2000)), usage: ['Static', 'ShaderResource'], name: `B${w.int(500)}` })
      for (let i = 0; i < 7; i++) w.emit({ e: 'release', id: w.take() })
    },
  },
  {
    name: 'readback',
    what: 'readback buffers of 1 to 128 KiB beside default ones: the readback pool and committed READBACK buffers',
    header: { budget: GiB },
    frame: (w) => {
      for (let i = 0; i < 8; i++) w.emit({ e: 'buffer', id: w.create(), size: 1024 * (1 + w.int(128)), usage: ['Static'], heap: 'readback', name: `RB${w.int(50)}` })
      for (let i = 0; i < 2; i++) w.emit({ e: 'buffer', id: w.create(), size: 4096 * (1 + w.int(4000)), usage: ['Static', 'UnorderedAccess'], name: `B${w.int(500)}` })
      for (let i = 0; i < 9; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'textures',
    what: 'textures of many formats, shapes and mip counts, their sizes estimated (no driver size): 2D, cube and 3D, both read-only pools',
    frame: (w) => {
      for (let i = 0; i < 10; i++) {
        const small = w.int(3) !== 0
        const side = small ? 16 << w.int(5) : 512 << w.int(4)
        const dim = small ? '2d' : ['2d', 'cube', '3d'][w.int(3)]
        const depth = dim === 'cube' ? 6 : dim === '3d' ? 1 + w.int(8) : 1
        const format = TEXTURE_FORMATS[w.int(TEXTURE_FORMATS.length)]
        w.emit({ e: 'texture', id: w.create(), dim, format, width: side, height: side, depth, mips: 1 + w.int(small ? 5 : 12), flags: ['ShaderResource', 'Streamable'], name: `T${w.int(3000)}`, tag: 'Textures' })
      }
      for (let i = 0; i < 9; i++) w.emit({ e: 'release', id: w.take() })
      w.use(8)
    },
  },
  {
    name: 'one-frame',
    what: 'every record in one frame: creates, releases that wait for its end, and use records',
    frameRecords: false,
    frame: (w) => {
      for (let i = 0; i < 8; i++) w.emit({ e: 'buffer', id: w.create(), size: 4096 << w.int(9), usage: ['Static', 'ShaderResource'], name: 'B' })
      for (let i = 0; i < 7; i++) w.emit({ e: 'release', id: w.take() })
      w.use(16)
    },
  },
]

/** Write a family's capture of `frames` frames (deterministic); the live ids at its end. */
async function write(family: Family, frames: number, file: string): Promise<number> {
  const part = `${file}.part`
  const out = createWriteStream(part)
  let lines: string[] = []
  let seed = 0x2545f491
  const ids: number[] = []
  let next = 1
  const w: Writer = {
    emit: (record) => {
      lines.push(JSON.stringify(record))
    },
    int: (n) => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return Math.floor(((seed >>> 0) / 0x1_0000_0000) * n)
    },
    create: () => {
      ids.push(next)
      return next++
    },
    take: () => {
      if (ids.length === 0) return -1
      const k = w.int(ids.length)
      const id = ids[k]
      ids[k] = ids[ids.length - 1]
      ids.pop()
      return id
    },
    takeRecent: (n) => {
      if (ids.length === 0) return -1
      const k = ids.length - 1 - w.int(Math.min(n, ids.length))
      const id = ids[k]
      ids.splice(k, 1)
      return id
    },
    ids,
    pick: () => (ids.length === 0 ? -1 : ids[w.int(ids.length)]),
    use: (n) => {
      if (ids.length === 0) return
      const used = new Set<number>()
      for (let i = 0; i < n; i++) used.add(ids[w.int(ids.length)])
      w.emit({ e: 'use', ids: [...used] })
    },
    get live() {
      return ids.length
    },
    heaps: [],
    bump: [],
  }
  const adapter = { name: 'Bench GPU', vram: 8 * GiB, resourceHeapTier: 2, uma: false }
  w.emit({ format: 'heapscope-capture', version: 1, app: `scaling-${family.name}`, budget: 2 * GiB, adapter, ...family.header })
  for (let f = 1; f <= frames; f++) {
    if (family.frameRecords !== false || f === 1) w.emit({ e: 'frame', n: f })
    family.frame(w, f)
    if (lines.length >= 4096) {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain')
      lines = []
    }
  }
  out.end(`${lines.join('\n')}\n`)
  await once(out, 'finish')
  renameSync(part, file)
  return ids.length
}

const only = option('--only')?.split(',')
const families = only ? FAMILIES.filter((f) => only.includes(f.name)) : FAMILIES
mkdirSync(DIR, { recursive: true })
mkdirSync('bench/data/tools', { recursive: true })
const esbuild = (entry: string, outfile: string): void => {
  execFileSync('npx', ['esbuild', entry, '--bundle', '--platform=node', '--format=esm', '--packages=external', `--outfile=${outfile}`, '--log-level=warning'], { stdio: 'inherit' })
}
esbuild('bench/tools/replay.ts', 'bench/data/tools/replay.mjs')
// `npm run bench`'s own measure of report against the JSON.parse baseline (bench/index.ts --ratio), with the worker a
// pipelined load looks for beside it
esbuild('bench/index.ts', 'bench/data/bench.mjs')
esbuild('src/main/ingest/pipeWorker.ts', 'bench/data/ingestWorker.js')
const RATIO_RUNS = 3
/** `report --json` in one process over the JSON.parse baseline of `file`: the best run's wall ratio (bench/index.ts). */
const ratioOf = (file: string): number => {
  execFileSync('node', ['--expose-gc', 'bench/data/bench.mjs', '--ratio', file, '--runs', String(RATIO_RUNS)], { encoding: 'utf8' })
  return (JSON.parse(readFileSync('bench/data/ratio.json', 'utf8')) as { ratio: { wall: number } }).ratio.wall
}

console.log(`load and replay per record, best of three warm runs each in one process (bench/tools/replay.ts), ${FRAMES} against ${FRAMES * LONGER} steps (frames):`)
const head = `${'records'.padStart(9)} ${'alive'.padStart(7)} ${'load'.padStart(6)} ${'replay'.padStart(6)}`
console.log(`  ${'family'.padEnd(12)} ${head}   ${head}   growth: load  replay (µs a record)   report / baseline`)
const percent = (a: number, b: number): string => {
  const growth = Math.round((b / a - 1) * 100)
  return `${growth > 0 ? '+' : ''}${growth} %`
}
for (const family of families) {
  const row: string[] = []
  const load: number[] = []
  const replay: number[] = []
  for (const frames of [FRAMES, FRAMES * LONGER]) {
    const file = `${DIR}/${family.name}-${frames}.hscap`
    const aliveFile = `${file}.alive`
    let alive: number
    if (existsSync(file) && existsSync(aliveFile)) alive = Number(execFileSync('cat', [aliveFile], { encoding: 'utf8' }))
    else {
      alive = await write(family, frames, file)
      createWriteStream(aliveFile).end(String(alive))
    }
    const lines = execFileSync('node', ['--expose-gc', 'bench/data/tools/replay.mjs', file, '4'], { encoding: 'utf8' }).trim().split('\n')
    const records = Number(execFileSync('wc', ['-l', file], { encoding: 'utf8' }).trim().split(/\s+/)[0]) - 1
    const best = (what: RegExp) => Math.min(...lines.slice(1).map((line) => Number(what.exec(line)![1])))
    load.push((best(/load (\d+) ms/) * 1000) / records)
    replay.push((best(/replay (\d+) ms/) * 1000) / records)
    row.push(`${String(records).padStart(9)} ${String(alive).padStart(7)} ${load.at(-1)!.toFixed(2).padStart(6)} ${replay.at(-1)!.toFixed(2).padStart(6)}`)
  }
  const ratio = ratioOf(`${DIR}/${family.name}-${FRAMES * LONGER}.hscap`).toFixed(2)
  console.log(`  ${family.name.padEnd(12)} ${row.join('   ')}   ${percent(load[0], load[1]).padStart(12)} ${percent(replay[0], replay[1]).padStart(7)}   ${ratio.padStart(17)}   ${family.what}`)
}
console.log(`done ${new Date().toISOString()}`)
