/**
 * Reads a generated capture back and checks it against the capture format: every line is JSON, every record
 * has its required fields with the right types (strict schemas: a misspelt key fails), frames increase, ids
 * are created once while live, releases name live ids, transients stay inside their graph. Collects what the
 * scenario tests look at. Texture bytes are counted independently of the generator: the driver's size when
 * given, else the texels alone (a floor under any layout).
 */
import { z } from 'zod'
import { BUFFER_STATES, BUFFER_USAGES, TEXTURE_DIMS, TEXTURE_FLAGS, UPLOAD_VIAS } from '../../../../src/shared/capture'
import { dxgiFormat } from '../../../../src/shared/dxgi'
import { runGen } from '../../../../src/main/cli/gen'

const uint = z.number().int().nonnegative()
const size = z.number().int().nonnegative().max(2 ** 53)
const name = z.string().min(1)

const bufferFields = {
  size,
  usage: z.array(z.enum(BUFFER_USAGES)).optional(),
  stride: uint.optional(),
  state: z.enum(BUFFER_STATES).optional(),
  heap: z.enum(['default', 'readback']).optional(),
  init: z.literal(true).optional(),
  name: name.optional(),
  tag: name.optional(),
}
const format = z.string().refine((f) => dxgiFormat(f) !== undefined, 'a DXGI format name')
const textureFields = {
  dim: z.enum(TEXTURE_DIMS).optional(),
  format,
  width: uint.min(1),
  height: uint.min(1),
  depth: uint.min(2).optional(),
  mips: uint.min(2).optional(),
  samples: uint.min(2).optional(),
  flags: z.array(z.enum(TEXTURE_FLAGS)),
  name: name.optional(),
  tag: name.optional(),
  size: size.optional(),
  align: z.union([z.literal(4096), z.literal(65536), z.literal(4194304)]).optional(),
}

export const RECORD = z.discriminatedUnion('e', [
  z.strictObject({ e: z.literal('frame'), n: uint, t: z.number().nonnegative() }),
  z.strictObject({ e: z.literal('gpu'), n: uint }),
  z.strictObject({ e: z.literal('buffer'), id: uint, ...bufferFields }),
  z.strictObject({ e: z.literal('texture'), id: uint, ...textureFields }),
  z.strictObject({ e: z.literal('release'), id: uint }),
  z.strictObject({ e: z.literal('commit'), id: uint, bytes: size }),
  z.strictObject({ e: z.literal('lock'), id: uint, bytes: size.min(1) }),
  z.strictObject({ e: z.literal('upload'), via: z.enum(UPLOAD_VIAS), bytes: size.min(1), count: uint.min(1) }),
  z.strictObject({ e: z.literal('use'), ids: z.array(uint).min(1) }),
  z.strictObject({ e: z.literal('budget'), bytes: size.min(1) }),
  z.strictObject({ e: z.literal('graph'), name }),
  z.discriminatedUnion('kind', [
    z.strictObject(
      { e: z.literal('transient'), id: uint, kind: z.literal('buffer'), first: uint, last: uint, ...bufferFields },
    ),
    z.strictObject(
      { e: z.literal('transient'), id: uint, kind: z.literal('texture'), first: uint, last: uint, ...textureFields },
    ),
  ]),
  z.strictObject({ e: z.literal('endgraph'), passes: uint.min(1) }),
])
export type Rec = z.infer<typeof RECORD>

export const HEADER = z.object({
  format: z.literal('heapscope-capture'),
  version: z.literal(1),
  app: name,
  captured: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
  adapter: z.strictObject({ name, vram: size.min(1), resourceHeapTier: z.literal(2), uma: z.literal(false) }),
  budget: size.min(1),
})

/** Bytes of a texture's texels, mip by mip, from the format's bits per element. */
export interface TextureSize {
  dim?: string
  format: string
  width: number
  height: number
  depth?: number
  mips?: number
  samples?: number
}

export function texelFloor(t: TextureSize): number {
  const info = dxgiFormat(t.format)
  if (!info) throw new Error(`unknown format ${t.format}`)
  const faces = t.dim === 'cube' || t.dim === 'cubearray' ? 6 : 1
  let total = 0
  for (let mip = 0; mip < (t.mips ?? 1); mip++) {
    const w = Math.ceil(Math.max(1, Math.floor(t.width / 2 ** mip)) / info.block)
    const h = Math.ceil(Math.max(1, Math.floor(t.height / 2 ** mip)) / info.block)
    const d = t.dim === '3d' ? Math.max(1, Math.floor((t.depth ?? 1) / 2 ** mip)) : (t.depth ?? 1) * faces
    total += (w * h * d * info.bits * (t.samples ?? 1)) / 8
  }
  return total
}

export interface CaptureStats {
  header: z.infer<typeof HEADER>
  records: Rec[]
  lines: number
  bytes: number
  frames: number[]
  /** Transients per frame, graphs per frame, and each graph's passes. */
  transientsPerFrame: number[]
  graphPasses: number[]
  /** Peak over the capture of the bytes alive (buffers, reserved buffers at their committed bytes, textures). */
  peakBytes: number
  budgets: number[]
  liveAtEnd: Map<number, Rec>
  /** Ids created again after a release. */
  reusedIds: number
  /** Per frame, the gap between the frame and the GPU fence it reported. */
  gpuLags: number[]
}

/** Generates a capture into memory with a small chunk size, so chunk boundaries are crossed often. */
export async function generate(scenario: string, frames: number, seed = 1): Promise<string> {
  const chunks: string[] = []
  await runGen(scenario, { frames, seed, chunkSize: 4096 }, (chunk) => {
    chunks.push(chunk)
  })
  return chunks.join('')
}

/** Parses and checks a capture; any violation fails through `fail`. */
export function check(text: string, fail: (message: string) => never): CaptureStats {
  if (!text.endsWith('\n')) fail('the capture does not end with a line feed')
  const lines = text.slice(0, -1).split('\n')
  const header = HEADER.parse(JSON.parse(lines[0]))
  const stats: CaptureStats = {
    header,
    records: [],
    lines: lines.length,
    bytes: Buffer.byteLength(text),
    frames: [],
    transientsPerFrame: [],
    graphPasses: [],
    peakBytes: 0,
    budgets: [header.budget],
    liveAtEnd: new Map(),
    reusedIds: 0,
    gpuLags: [],
  }
  const live = stats.liveAtEnd
  const bytes = new Map<number, number>()
  const released = new Set<number>()
  let total = 0
  let frame = 0
  let lastT = -1
  let lastGpu = -1
  let graph: { ids: number[]; lasts: number[] } | undefined
  let transients = 0
  const endFrame = (): void => {
    if (frame > 0) stats.transientsPerFrame.push(transients)
    transients = 0
  }
  const create = (id: number, record: Rec, size: number, where: string): void => {
    if (live.has(id)) fail(`${where}: id ${id} created while live`)
    if (released.delete(id)) stats.reusedIds++
    live.set(id, record)
    bytes.set(id, size)
    total += size
    if (total > stats.peakBytes) stats.peakBytes = total
  }
  const remove = (id: number, where: string): void => {
    if (!live.has(id)) fail(`${where}: release of id ${id}, not live`)
    live.delete(id)
    total -= bytes.get(id) ?? 0
    bytes.delete(id)
    released.add(id)
  }
  for (let i = 1; i < lines.length; i++) {
    const where = `line ${i + 1}`
    const parsed = RECORD.safeParse(JSON.parse(lines[i]))
    if (!parsed.success) fail(`${where}: ${parsed.error.message}\n${lines[i]}`)
    const r = parsed.data
    stats.records.push(r)
    switch (r.e) {
      case 'frame':
        if (r.n <= frame) fail(`${where}: frame ${r.n} after ${frame}`)
        if (r.t < lastT) fail(`${where}: time goes back`)
        if (graph) fail(`${where}: a frame inside a graph`)
        endFrame()
        frame = r.n
        lastT = r.t
        stats.frames.push(r.n)
        break
      case 'gpu':
        if (r.n >= frame || r.n <= lastGpu) fail(`${where}: gpu ${r.n} in frame ${frame} after gpu ${lastGpu}`)
        stats.gpuLags.push(frame - r.n)
        lastGpu = r.n
        break
      case 'buffer':
        create(r.id, r, r.usage?.includes('ReservedResource') ? 0 : r.size, where)
        break
      case 'texture':
        create(r.id, r, r.size ?? texelFloor(r), where)
        break
      case 'release':
        remove(r.id, where)
        break
      case 'commit': {
        const target = live.get(r.id)
        if (target?.e !== 'buffer' || !target.usage?.includes('ReservedResource')) fail(
          `${where}: commit to ${r.id}, not a live reserved buffer`,
        )
        if (r.bytes > target.size) fail(`${where}: commit of ${r.bytes} beyond the reserved ${target.size}`)
        total += r.bytes - (bytes.get(r.id) ?? 0)
        bytes.set(r.id, r.bytes)
        if (total > stats.peakBytes) stats.peakBytes = total
        break
      }
      case 'lock': {
        const target = live.get(r.id)
        if (target?.e !== 'buffer' || target.usage?.includes('Dynamic')) fail(
          `${where}: lock of ${r.id}, not a live static buffer`,
        )
        if (r.bytes > target.size) fail(`${where}: lock of ${r.bytes} bytes of a ${target.size}-byte buffer`)
        break
      }
      case 'use':
        for (const id of r.ids) if (!live.has(id)) fail(`${where}: use of ${id}, not live`)
        if (new Set(r.ids).size !== r.ids.length) fail(`${where}: an id twice in one use record`)
        break
      case 'budget':
        stats.budgets.push(r.bytes)
        break
      case 'graph':
        if (graph) fail(`${where}: a graph inside a graph`)
        graph = { ids: [], lasts: [] }
        break
      case 'transient':
        if (!graph) fail(`${where}: a transient outside a graph`)
        if (r.first > r.last) fail(`${where}: first ${r.first} > last ${r.last}`)
        create(r.id, r, 0, where)
        graph.ids.push(r.id)
        graph.lasts.push(r.last)
        transients++
        break
      case 'endgraph':
        if (!graph) fail(`${where}: endgraph without graph`)
        for (const last of graph.lasts) if (last >= r.passes) fail(
          `${where}: a transient lives to pass ${last} of ${r.passes}`,
        )
        for (const id of graph.ids) remove(id, where)
        stats.graphPasses.push(r.passes)
        graph = undefined
        break
    }
    if (r.e === 'buffer' || r.e === 'texture' || r.e === 'release' || r.e === 'use' || r.e === 'upload') {
      if (frame === 0) fail(`${where}: a ${r.e} before the first frame`)
    }
  }
  if (graph) fail('the capture ends inside a graph')
  endFrame()
  return stats
}
