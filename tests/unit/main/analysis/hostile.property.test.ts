/**
 * Captures no tool would write: records of every kind, with values a file may hold and should not (sizes huge,
 * negative or fractional, ids repeated or past 2^53, releases of ids never made, frames out of order, graphs left
 * open, transients outside a graph, `use` lists of unknown ids, runs of ids across the packing's limit), read by the
 * scanner and replayed as `heapscope report` replays them, then snapshotted. The replay ends; what it throws is a
 * capture's fault (CaptureError) or nothing; the report is JSON whose numbers are finite; a snapshot answers.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { replayCapture } from '../../../../src/main/analysis/run'
import { CaptureError } from '../../../../src/main/ingest/errors'
import { runs } from '../../../properties'
import { bytesOf, scan } from '../ingest/helpers'
import { DEVICE, loaded, storeOf } from './vulkan/helpers'

const ODD_NUMBERS = [0, -1, 1.5, -0.5, 2 ** 31, 2 ** 32, 2 ** 51 - 1, 2 ** 51, 2 ** 53, 2 ** 53 + 2, 1e15, 1e300,
  -1e300]
const BYTES = [256, 4096, 65536, 1 << 20, 4 << 20, 64 << 20, 256 << 20, 2 ** 31]

/** A number a field may hold: mostly plausible, often odd. */
const num = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 64 }) },
  { weight: 3, arbitrary: fc.constantFrom(...BYTES) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
)
/** An id: mostly from a few, so they repeat and collide, else any number. */
const id = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 24 }) }, { weight: 1, arbitrary: num })
/** Anything in a field's place: a string, an array, null, an object. */
const junk = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.array(num, { maxLength: 3 }), fc.constant({}))
const sometimes = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 })

const USAGES = ['Static', 'Dynamic', 'Volatile', 'UnorderedAccess', 'ByteAddressBuffer', 'DrawIndirect',
  'ShaderResource', 'VertexBuffer', 'IndexBuffer', 'StructuredBuffer', 'ReservedResource', 'Uniform',
  'AccelerationStructure', 'Bogus']
const FLAGS = ['ShaderResource', 'RenderTargetable', 'DepthStencilTargetable', 'UAV', 'ReservedResource', 'Streamable',
  'Dynamic', 'CPUReadback', 'NoTiling', 'Bogus']
const FORMATS = ['BC7_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'D32_FLOAT_S8X24_UINT', 'R32_UINT',
  'NOT_A_FORMAT']
const DIMS = ['2d', '2darray', '3d', 'cube', 'cubearray', 'flat']

const usage = fc.subarray(USAGES, { maxLength: 4 })
const flags = fc.subarray(FLAGS, { maxLength: 3 })
const PROPERTY_FLAGS = ['DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED', 'LAZILY_ALLOCATED', 'BOGUS']
/** A Vulkan capture's fields of a resource (ignored, as unknown keys, by a D3D12 one). */
const vulkanFields = fc.record(
  {
    memoryRequirements: fc.record({ size: num, alignment: num, memoryTypeBits: num }, { requiredKeys: [] }),
    required: fc.subarray(PROPERTY_FLAGS, { maxLength: 2 }),
    preferred: fc.subarray(PROPERTY_FLAGS, { maxLength: 2 }),
    tiling: fc.constantFrom('linear', 'optimal', 'wavy'),
    dedicated: fc.constantFrom('preferred', 'required', 'never'),
    explicit: fc.boolean(),
  },
  { requiredKeys: [] },
)
const bufferFields = fc
  .tuple(
    fc.record(
      {
        size: num,
        usage,
        stride: sometimes(num),
        init: sometimes(fc.boolean()),
        name: sometimes(fc.string({ maxLength: 6 })),
      },
      { requiredKeys: ['size'] },
    ),
    vulkanFields,
  )
  .map(([f, v]) => ({ ...f, ...v }))
const textureFields = fc.record(
  {
    dim: fc.constantFrom(...DIMS),
    format: fc.constantFrom(...FORMATS),
    width: num,
    height: num,
    depth: sometimes(num),
    mips: sometimes(num),
    samples: sometimes(num),
    flags,
    size: sometimes(num),
    align: sometimes(num),
  },
  { requiredKeys: ['width', 'height'] },
)

/** One record, of any kind the format has (and an unknown one), with a field now and then of the wrong type. */
const record: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ e: fc.constant('frame'), n: num }),
  fc.record({ e: fc.constant('gpu'), n: num }),
  fc.tuple(id, bufferFields).map(([i, f]) => ({ e: 'buffer', id: i, ...f })),
  fc.tuple(id, textureFields).map(([i, f]) => ({ e: 'texture', id: i, ...f })),
  fc.record({ e: fc.constant('release'), id }),
  fc.record({ e: fc.constant('use'), ids: fc.array(id, { maxLength: 12 }) }),
  // a run of ids from just below 2^51 across it
  fc.integer({ min: 1, max: 4 }).map((k) => ({ e: 'use', ids: [2 ** 51 - k, 2 ** 51, 2 ** 51 + 1, 0, 1] })),
  fc.record({
    e: fc.constant('upload'),
    via: fc.constantFrom('fast', 'fastConstant', 'staging', 'other'),
    bytes: num,
    count: num,
  }),
  fc.record({ e: fc.constant('budget'), bytes: num }),
  fc.record({ e: fc.constant('commit'), id, bytes: num }),
  fc.record({ e: fc.constant('lock'), id, bytes: num }),
  fc.record({ e: fc.constant('graph'), name: fc.string({ maxLength: 6 }) }),
  fc.tuple(id, fc.oneof(bufferFields, textureFields), num, num).map(([i, f, first, last]) => ({
    e: 'transient',
    id: i,
    kind: 'width' in f ? 'texture' : 'buffer',
    ...f,
    first,
    last,
  })),
  fc.record({ e: fc.constant('endgraph'), passes: num }),
  fc.record({ e: fc.constant('heap'), id, size: num, type: fc.constantFrom('default', 'upload', 'readback', 'other') }),
  fc
    .tuple(id, id, num, bufferFields)
    .map(([i, heap, offset, f]) => ({ e: 'placed', id: i, heap, offset, kind: 'buffer', ...f })),
  fc.record({ e: fc.constant('barrier'), after: sometimes(id), before: sometimes(id) }),
  fc.record({ e: fc.constant('access'), id, op: fc.constantFrom('read', 'write', 'clear', 'discard', 'copy', 'poke') }),
  fc.record({ e: fc.constant('submit') }),
  fc.record({ e: fc.constant('free'), id }),
  fc.record({ e: fc.constant('resident'), heap: id, bytes: sometimes(num) }),
  fc.record({ e: fc.constant('evict'), heap: id, bytes: sometimes(num) }),
  fc.record({ e: fc.constant('mystery'), id }),
  // Vulkan application memory: binds, maps, CPU writes and flushes, names
  fc.record({ e: fc.constant('heap'), id, size: num, memoryType: num }),
  fc.record({ e: fc.constant('bind'), id, memory: id, offset: num }),
  fc.record({ e: fc.constant('map'), memory: id, offset: num, size: sometimes(num) }),
  fc.record({ e: fc.constant('unmap'), memory: id }),
  fc.record({ e: fc.constant('write'), memory: sometimes(id), id: sometimes(id), offset: num, size: num }),
  fc.record({ e: fc.constant('flush'), memory: sometimes(id), id: sometimes(id), offset: num, size: sometimes(num) }),
  fc.record({ e: fc.constant('name'), id, name: fc.string({ maxLength: 6 }) }),
  fc.record({ e: fc.constant('budget'), bytes: num, heap: num }),
  // a known kind with a field of the wrong type
  fc
    .tuple(
      fc.constantFrom('buffer', 'texture', 'release', 'use', 'frame', 'upload', 'transient'),
      fc.constantFrom('id', 'size', 'ids', 'n', 'bytes', 'width'),
      junk,
    )
    .map(([e, key, value]) => {
      const sound = { e, id: 3, size: 4096, width: 8, height: 8, ids: [3], n: 2, bytes: 64, kind: 'buffer' }
      return { ...sound, [key]: value }
    }),
)

/** Frames mostly in order, with the records of each between them. */
const frames = fc.array(fc.array(record, { maxLength: 14 }), { minLength: 1, maxLength: 10 })

const D3D12_HEADER = {
  format: 'heapscope-capture',
  version: 1,
  app: 'Hostile',
  adapter: { name: 'Test GPU', vram: 8 * 2 ** 30, resourceHeapTier: 2, uma: false },
  // small, so the residency manager evicts
  budget: 64 << 20,
}
const VULKAN_HEADER = { format: 'heapscope-capture', version: 1, minor: 1, api: 'vulkan', app: 'Hostile',
  vulkan: DEVICE }

function captureText(header: object, body: Record<string, unknown>[][]): string {
  const lines = [JSON.stringify(header)]
  body.forEach((recordsOfFrame, k) => {
    lines.push(JSON.stringify({ e: 'frame', n: k + 1 }))
    for (const r of recordsOfFrame) lines.push(JSON.stringify(r))
  })
  return lines.join('\n') + '\n'
}

/** Every number in a JSON text is finite (JSON.stringify writes NaN and the infinities as null: none may be). */
function nonFinite(value: unknown, path = '$'): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = nonFinite(value[i], `${path}[${i}]`)
      if (bad) return bad
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const bad = nonFinite(v, `${path}.${k}`)
      if (bad) return bad
    }
  }
  return undefined
}

async function replayHostile(header: object, body: Record<string, unknown>[][]): Promise<void> {
  const { store, error } = scan(bytesOf(captureText(header, body)))
  if (error) expect(error).toBeInstanceOf(CaptureError)
  if (store.records.length === 0) return
  const result = { store, format: 'heapscope-capture', notes: [], ...(error ? { error } : {}) }
  const replayed = await replayCapture(result, [])
  expect(nonFinite(replayed.report)).toBeUndefined()
  expect(() => JSON.stringify(replayed.report)).not.toThrow()
  const last = store.frames.length - 1
  for (const frame of [0, last >> 1, last]) replayed.snapshots.snapshot('run', frame)
}

describe('a hostile capture', () => {
  it('replays on the D3D12 model to a report of finite numbers, and its snapshots answer', async () => {
    await fc.assert(fc.asyncProperty(frames, (body) => replayHostile(D3D12_HEADER, body)), { numRuns: runs(60) })
  })

  it('replays on the Vulkan model to a report of finite numbers, and its snapshots answer', async () => {
    await fc.assert(fc.asyncProperty(frames, (body) => replayHostile(VULKAN_HEADER, body)), { numRuns: runs(60) })
  })
})

/** What `npm run fuzz` found with these properties, kept as fixed cases. */
describe('hostile captures found by npm run fuzz', () => {
  const replayOne = (header: object, records: object[]) =>
    replayCapture(loaded(storeOf(header, [{ e: 'frame', n: 1 }, ...records])), [])

  it('an upload of 2^51 allocations is skipped with a warning, not worked out one page at a time', async () => {
    // The Vulkan model bumped 2^51 pieces of 256 B, a new 64 KiB block each few hundred: it never ended.
    const upload = { e: 'upload', via: 'fast', bytes: 65536, count: 2 ** 51 - 1 }
    for (const header of [VULKAN_HEADER, D3D12_HEADER]) {
      const copies = { e: 'upload', via: 'staging', bytes: 2 ** 28, count: 2 ** 20 }
      const { report } = await replayOne(header, [upload, copies])
      expect(report.warnings).toEqual({ badField: 2 })
    }
  })

  it('a texture array of 2^31 slices replays: its copyable footprint is worked out from one slice', async () => {
    const desc = { dim: '2darray', format: 'R32_UINT', width: 58, height: 24, depth: 2 ** 31, mips: 6, flags: [] }
    const texture = { e: 'texture', id: 8, ...desc }
    const { report } = await replayOne(D3D12_HEADER, [texture])
    expect(report.resources.created).toBe(1)
  })

  it('an application memory whose memoryType is not a whole number takes the type its `type` asks for', async () => {
    // 5e-324 passed the range check, and the model read the device's memory type 5e-324: undefined.
    const { report } = await replayOne(VULKAN_HEADER, [{ e: 'heap', id: 0, size: 4096, memoryType: 5e-324 }])
    expect(report.byPlacement).toEqual({ 'Type 0': { peakBytes: 4096, endBytes: 4096, count: 0 } })
  })
})
