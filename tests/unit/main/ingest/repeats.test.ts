/**
 * What the scanner takes from records before instead of reading it again, against the plain path: a transient's
 * members after its id and a buffer's after its size, repeated from a kept tail (the rows copied from the last
 * record with that tail that passed every check), and arrays of usage or flag names taken whole. The store must
 * be the one JSON.parse and the object path (RecordScratch.fromObject) give, column for column, with the same
 * strings, warnings, lines and byte offsets.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { RecordScratch } from '../../../../src/main/ingest/fields'
import type { AttachedTable, CaptureStore } from '../../../../src/main/ingest/store'
import { CaptureBuilder } from '../../../../src/main/ingest/storeBuilder'
import { NdjsonScanner } from '../../../../src/main/ingest/scanner'
import { checkHeader } from '../../../../src/main/ingest/versions'
import { BUFFER_USAGES } from '../../../../src/shared/capture'
import { HEADER, bytesOf, dumpStore, scan } from './helpers'
import { runs } from '../../../properties'

/**
 * A header and records, each line ended by a line feed, stored through JSON.parse and fromObject, each at its own
 * line and byte offset.
 */
function viaObjects(text: string): CaptureStore {
  const builder = new CaptureBuilder()
  const scratch = new RecordScratch()
  const lines = text.split('\n').slice(0, -1)
  const header = checkHeader(JSON.parse(lines[0]))
  if (header.ok) builder.header = header.header
  let offset = 0
  lines.forEach((line, i) => {
    if (i > 0) {
      builder.line = i + 1
      builder.offset = offset
      scratch.fromObject(JSON.parse(line) as object, builder.strings)
      builder.add(scratch)
    }
    offset += bytesOf(line).length + 1
  })
  return builder.finish('objects', 0, lines.length, false)
}

/** Members after a transient's id: repeated often, some differing only late, some raising a warning. */
const TRANSIENT_TAILS: object[] = [
  { kind: 'buffer', size: 32768, usage: ['Static', 'UnorderedAccess'], stride: 4, first: 1, last: 3, name: 'Shadow.Pages' },
  { kind: 'buffer', size: 32768, usage: ['Static', 'UnorderedAccess'], stride: 4, first: 1, last: 4, name: 'Shadow.Pages' },
  { kind: 'texture', format: 'R8G8B8A8_UNORM', width: 1024, height: 512, flags: ['RenderTargetable'], first: 2, last: 5, name: 'Albedo' },
  { kind: 'texture', format: 'R8G8B8A8_UNORM', width: 1024, height: 512, flags: ['RenderTargetable'], first: 2, last: 5, name: 'Albedx' },
  { kind: 'texture', dim: '3d', format: 'R16_FLOAT', width: 64, height: 64, depth: 32, mips: 3, samples: 1, flags: ['ShaderResource', 'UAV'], first: 0, last: 9, name: 'Fog', tag: 'T', size: 2097152, align: 65536 },
  { kind: 'buffer', size: 16, init: true, state: 'dynamic', heap: 'readback', first: 1, last: 2, name: 'Args', tag: 'T' },
  // an unknown flag: kept, with a warning each time
  { kind: 'texture', width: 8, height: 8, flags: ['RenderTargetable', 'Bogus'], first: 0, last: 1, name: 'Odd' },
  // a heap neither default nor readback: kept, with a warning each time
  { kind: 'buffer', size: 64, heap: 'upload', first: 0, last: 1, name: 'Up' },
  // skipped with a warning: no last pass, a kind of neither, a negative size
  { kind: 'buffer', size: 64, first: 0, name: 'NoLast' },
  { kind: 'heap', size: 64, first: 0, last: 1 },
  { kind: 'buffer', size: -64, first: 0, last: 1 },
]

/** Members after a buffer's size. */
const BUFFER_TAILS: object[] = [
  { usage: ['Uniform', 'Dynamic'], name: 'FUniformBuffer', tag: 'UniformBuffers' },
  { usage: ['Static', 'VertexBuffer'], init: true, name: 'SM_Debris.VB', tag: 'Meshes' },
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'StructuredBuffer'], stride: 16, name: 'Niagara.GPUBuffer.Float', tag: 'Particles' },
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4, name: 'ClothSimulation.Positions', tag: 'Physics' },
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4, name: 'ClothSimulation.Positions', tag: 'Physicx' },
  { usage: ['Static', 'IndexBuffer', 'ShaderResource'], stride: 4, init: true, name: 'SM_Debris.IB', tag: 'Meshes' },
  { usage: ['Static', 'IndexBuffer'], stride: 4, init: true, name: 'SM_Debris.IB', tag: 'Meshes' },
  { usage: [], state: 'static', heap: 'readback', name: 'Readback' },
  // arrays of the same length and the same last bytes
  { usage: ['Dynamic', 'Static'], name: 'DS' },
  { usage: ['Uniform', 'Static'], name: 'US' },
  { name: 'Bare' },
  // kept with a warning: an unknown usage, a heap neither default nor readback
  { usage: ['Static', 'Sparkly'], name: 'Odd' },
  { usage: ['Static'], heap: 'upload', name: 'Up' },
  // skipped with a warning: a stride that is not an integer, a state no mode has
  { usage: ['Static'], stride: 1.5, name: 'Half' },
  { usage: ['Static'], state: 'sometimes', name: 'When' },
]

/**
 * How a line is written: as JSON.stringify writes it, with blanks after it, or with a key again at its end (the
 * same value every time, so that a tail holding it could repeat).
 */
type Way = 'plain' | 'blank' | 'crlf' | 'idAgain' | 'sizeAgain'

const record = fc.oneof(
  { weight: 6, arbitrary: fc.record({ e: fc.constant('transient'), id: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(7)), tail: fc.nat(TRANSIENT_TAILS.length - 1) }) },
  { weight: 6, arbitrary: fc.record({ e: fc.constant('buffer'), id: fc.integer({ min: 0, max: 40 }), size: fc.oneof(fc.nat(1 << 20), fc.constantFrom(7, -1, 0.5, 1e300)), tail: fc.nat(BUFFER_TAILS.length - 1) }) },
  { weight: 3, arbitrary: fc.record({ e: fc.constant('release'), id: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ e: fc.constant('texture'), id: fc.integer({ min: 0, max: 40 }), width: fc.constantFrom(1, 64), height: fc.constant(1), flags: fc.constantFrom(['FastVRAM', 'UAV'], ['NoTiling', 'UAV'], ['RenderTargetable'], ['ResolveTargetable'], []) }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constantFrom('graph', 'endgraph') }) },
  // ids the scanner does not read inline: the full path
  { weight: 1, arbitrary: fc.record({ e: fc.constantFrom('transient', 'buffer'), id: fc.constantFrom(-1, 2.5, 1e16), size: fc.constant(16), tail: fc.nat(3) }) },
)
const way = fc.constantFrom<Way>('plain', 'plain', 'plain', 'plain', 'plain', 'plain', 'blank', 'crlf', 'idAgain', 'sizeAgain')

/** One record's line, its members in the order a capture writes them. */
function lineOf(r: { e: string; id?: number; size?: number; tail?: number }, how: Way): string {
  let members: object
  if (r.e === 'transient') members = { e: r.e, id: r.id, ...TRANSIENT_TAILS[r.tail!] }
  else if (r.e === 'buffer') members = { e: r.e, id: r.id, size: r.size, ...BUFFER_TAILS[r.tail!] }
  else if (r.e === 'endgraph') members = { e: r.e, passes: 1 }
  else members = r
  const line = JSON.stringify(members)
  switch (how) {
    case 'blank':
      return `${line}  `
    case 'crlf':
      return `${line}\r`
    case 'idAgain':
      return `${line.slice(0, -1)},"id":7}`
    case 'sizeAgain':
      return `${line.slice(0, -1)},"size":7}`
    default:
      return line
  }
}

/**
 * AttachedTable.shape counted the plain way: each row's kind and the columns of its desc row but id, name and tag,
 * as a string, numbered as first seen (-0 writes as 0 and NaN as NaN, so each equals itself, as in the builder).
 */
function plainShapes(store: CaptureStore, table: AttachedTable): number[] {
  const seen = new Map<string, number>()
  const shapes: number[] = []
  for (let row = 0; row < table.length; row++) {
    const kind = table.kind.data[row]
    const desc = table.desc.data[row]
    const rows = kind === 0 ? store.buffers : store.textures
    const columns = rows.columns().filter((c) => c !== rows.id && c !== rows.name && c !== rows.tag)
    const key = `${kind}:${columns.map((c) => String((c.data as ArrayLike<number>)[desc])).join(',')}`
    let shape = seen.get(key)
    if (shape === undefined) seen.set(key, (shape = seen.size))
    shapes.push(shape)
  }
  return shapes
}

describe('repeated members', () => {
  it('give the store the plain path gives: rows, strings, warnings and where they are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(record, way), { minLength: 1, maxLength: 120 }),
        fc.constantFrom(1, 7, 61, 1 << 16),
        (records, chunk) => {
          // a graph at the start, so that most transients are in one
          const text = [HEADER, '{"e":"graph"}', ...records.map(([r, how]) => lineOf(r, how))].join('\n') + '\n'
          const { store, error } = scan(text, chunk)
          expect(error).toBeUndefined()
          expect(dumpStore(store)).toEqual(dumpStore(viaObjects(text)))
        },
      ),
      { numRuns: runs(200) },
    )
  })

  it("number each transient's desc shape as a plain count of its desc's columns does, copied or read", () => {
    // Descs that differ from one of two in one column each (or only in their name, tag or passes), in graphs, each
    // with a new id but now and then one already live in its graph: most repeat a kept tail and are copied.
    const texture = { kind: 'texture', format: 'R8G8B8A8_UNORM', width: 64, height: 32, flags: ['RenderTargetable'] }
    const buffer = { kind: 'buffer', size: 4096, usage: ['Static'] }
    const textureChanges: object[] = [{}, { dim: '3d', depth: 4 }, { depth: 2 }, { format: 'BC7_UNORM' }, { width: 32 }]
    textureChanges.push({ height: 64 }, { mips: 2 }, { samples: 4 }, { flags: ['ShaderResource'] }, { size: 8192 })
    textureChanges.push({ align: 65536 }, { name: 'Other' })
    const bufferChanges: object[] = [{}, { size: 8192 }, { usage: ['Uniform'] }, { stride: 4 }, { state: 'static' }]
    bufferChanges.push({ heap: 'readback' }, { init: true }, { tag: 'T' }, { size: 0 })
    const tails = [
      ...textureChanges.map((change) => ({ ...texture, ...change })),
      ...bufferChanges.map((change) => ({ ...buffer, ...change })),
    ]
    const step = fc.oneof(
      { weight: 12, arbitrary: fc.record({ e: fc.constant('transient'), tail: fc.nat(5), last: fc.nat(1), again: fc.nat(9) }) },
      { weight: 1, arbitrary: fc.constant({ e: 'graph', tail: 0, last: 0, again: 0 }) },
    )
    // a few of the tails each run, so that they repeat
    const used = fc.array(fc.nat(tails.length - 1), { minLength: 6, maxLength: 6 })
    fc.assert(
      fc.property(used, fc.array(step, { minLength: 20, maxLength: 150 }), (used, steps) => {
        const lines = [HEADER, '{"e":"graph"}']
        let id = 0
        for (const s of steps) {
          if (s.e === 'graph') lines.push('{"e":"endgraph","passes":10}', '{"e":"graph"}')
          else {
            const members = { e: 'transient', id: s.again === 0 ? id : ++id, ...tails[used[s.tail]], first: 0, last: s.last }
            lines.push(JSON.stringify(members))
          }
        }
        const { store } = scan(lines.join('\n') + '\n')
        expect(Array.from(store.transients.shape.view())).toEqual(plainShapes(store, store.transients))
      }),
      { numRuns: runs(100) },
    )
  })

  it('number placed resources\' desc shapes apart from the transients\'', () => {
    const placed = (id: number, rest: object) => JSON.stringify({ e: 'placed', id, heap: 50, offset: 0, ...rest })
    const text = [
      HEADER,
      '{"e":"heap","id":50,"size":67108864,"type":"default"}',
      placed(51, { kind: 'texture', format: 'BC7_UNORM', width: 64, height: 64, name: 'A' }),
      placed(52, { kind: 'buffer', size: 256 }),
      placed(53, { kind: 'texture', format: 'BC7_UNORM', width: 64, height: 64, name: 'B' }),
      placed(54, { kind: 'buffer', size: 256, stride: 4 }),
      placed(55, { kind: 'buffer', size: 256, tag: 'T' }),
      '{"e":"graph"}',
      '{"e":"transient","id":60,"kind":"buffer","size":256,"first":0,"last":0}',
    ].join('\n')
    const { store } = scan(text)
    expect(store.warnings.counts).toEqual({})
    expect(Array.from(store.placed.shape.view())).toEqual([0, 1, 0, 2, 1])
    expect(Array.from(store.transients.shape.view())).toEqual([0])
  })

  it('copies a repeated record\'s rows under its own id and size, and checks again what depends on the ids', () => {
    const buffer = (id: number, size: number) => `{"e":"buffer","id":${id},"size":${size},"usage":["Static","VertexBuffer"],"name":"VB","tag":"Meshes"}`
    const transient = (id: number) => `{"e":"transient","id":${id},"kind":"texture","format":"BC7_UNORM","width":64,"height":32,"flags":["ShaderResource"],"first":1,"last":2,"name":"T"}`
    const text = [
      HEADER,
      buffer(1, 100),
      buffer(2, 200),
      // a live id: skipped with a warning, though its members repeat a kept tail
      buffer(2, 300),
      '{"e":"graph"}',
      transient(10),
      '{"e":"endgraph","passes":3}',
      '{"e":"graph"}',
      transient(11),
      transient(11),
      '{"e":"endgraph","passes":3}',
      // outside a graph
      transient(12),
    ].join('\n')
    const { store } = scan(text, 5)
    expect(Array.from(store.buffers.id.view())).toEqual([1, 2])
    expect(Array.from(store.buffers.size.view())).toEqual([100, 200])
    // the two transients share one texture row, the first one's; each has its own id
    expect(Array.from(store.textures.id.view())).toEqual([10])
    expect(Array.from(store.textures.width.view())).toEqual([64])
    expect(store.transients.length).toBe(2)
    expect(Array.from(store.transients.id.view())).toEqual([10, 11])
    expect(Array.from(store.transients.desc.view())).toEqual([0, 0])
    expect(store.warnings.counts).toEqual({ duplicateId: 2, transientOutsideGraph: 1 })
    // lines 4, 10 and 12, at the byte where each starts
    const starts = [0]
    for (const line of text.split('\n')) starts.push(starts[starts.length - 1] + line.length + 1)
    expect(store.warnings.samples.map((s) => [s.line, s.offset])).toEqual([
      [4, starts[3]],
      [10, starts[9]],
      [12, starts[11]],
    ])
  })
})

describe('transients of graphs that never repeat', () => {
  const transient = (id: number, size: number) =>
    `{"e":"transient","id":${id},"kind":"buffer","size":${size},"usage":["UnorderedAccess"],"first":0,"last":2,"name":"Scratch"}`
  /** A graph of `sizes.length` transient buffers, ids from 1. */
  const graph = (sizes: number[]) => ['{"e":"graph","name":"Frame"}', ...sizes.map((size, k) => transient(k + 1, size)), '{"e":"endgraph","passes":3}']

  it('stop being kept after thousands in a row, and are kept again within frames of a graph that repeats', () => {
    const repeat = vi.spyOn(CaptureBuilder.prototype, 'repeatTransient')
    try {
      // 80 graphs of 100 transients whose sizes never repeat (8 000 tails, none found again), then one graph of 300
      // ten times over; the scanner given one graph at a time, the copies counted after each
      const graphs: string[][] = []
      for (let g = 0; g < 80; g++) graphs.push(graph(Array.from({ length: 100 }, (_, k) => 16 * (1 + g * 100 + k))))
      const same = Array.from({ length: 300 }, (_, k) => 64 * (k + 1))
      for (let f = 0; f < 10; f++) graphs.push(graph(same))
      const builder = new CaptureBuilder()
      const scanner = new NdjsonScanner(builder, { file: 'test.hscap' })
      scanner.push(bytesOf(`${HEADER}\n`))
      const copies = graphs.map((lines) => {
        const before = repeat.mock.calls.length
        scanner.push(bytesOf(`${lines.join('\n')}\n`))
        return repeat.mock.calls.length - before
      })
      scanner.finish()
      // the graphs that never repeat copy nothing
      expect(copies.slice(0, 80).every((n) => n === 0)).toBe(true)
      // Cold by then: of the repeated graph's first sight only a sixteenth of its tails (those of hashes whose top
      // bits are zero) is kept, and nothing is copied; the next sights find those again, each lowering the score by
      // 128, a few copied where one sampled tail predicts the next; the scanner warms during the fourth (from a score
      // of 8 192 to under 4 096) and keeps every tail from there: all 300 are copies from the fifth sight on. Kept from
      // the first sight, as before the cold stretch, they would all be copies from the second.
      expect(copies[80]).toBe(0)
      expect(copies[81]).toBeLessThan(50)
      expect(copies[83]).toBeGreaterThan(0)
      expect(copies.slice(84)).toEqual([300, 300, 300, 300, 300, 300])
      const text = [HEADER, ...graphs.flat()].join('\n') + '\n'
      expect(dumpStore(builder.finish('test.hscap', 0, scanner.lines, false))).toEqual(dumpStore(viaObjects(text)))
    } finally {
      repeat.mockRestore()
    }
  })
})

describe('arrays of words taken whole', () => {
  it('only when every byte is the same, for arrays that differ anywhere', () => {
    // every ordered pair and triple of usage names, in turn, each twice: many share their length and their end
    const arrays: string[][] = []
    for (const a of BUFFER_USAGES) {
      for (const b of BUFFER_USAGES) {
        if (b === a) continue
        arrays.push([a, b])
        for (const c of BUFFER_USAGES) if (c !== a && c !== b) arrays.push([a, b, c])
      }
    }
    const lines: string[] = []
    arrays.forEach((usage, i) => {
      // the name changes, so that the buffer's members never repeat a kept tail and its usage is read
      for (const k of [0, 1]) lines.push(JSON.stringify({ e: 'buffer', id: 2 * i + k, size: 16, usage, name: `b${i % 7}${k}` }))
    })
    const text = [HEADER, ...lines].join('\n') + '\n'
    const { store, error } = scan(text, 1 << 16)
    expect(error).toBeUndefined()
    expect(dumpStore(store)).toEqual(dumpStore(viaObjects(text)))
  })
})

describe('a kept tail\'s rows when its place in the ring is taken', () => {
  // the first record whose tail takes the place of an old one is skipped (its id is live): no row of it may be
  // copied later, and nothing of the old one's either
  /**
   * Textures named by each name first, so that no record below brings a string new to the capture (whose tail the
   * scanner does not keep): textures keep no tails, and their ids are apart from the ones below.
   */
  const named = (names: string[]) =>
    names.map((name, k) => `{"e":"texture","id":${100_000 + k},"width":8,"height":8,"flags":["ShaderResource"],"name":"${name}"}`)

  it('for transients', () => {
    const transient = (id: number, k: number) =>
      `{"e":"transient","id":${id},"kind":"buffer","size":${16 * (k + 1)},"first":0,"last":1,"name":"N${k}"}`
    // 2047 transients take every place; the 2048th takes the first one's, with the id of the one before it
    const first = Array.from({ length: 2047 }, (_, k) => transient(k, k))
    const naming = named(Array.from({ length: 2048 }, (_, k) => `N${k}`))
    const text = [HEADER, ...naming, '{"e":"graph"}', ...first, transient(2046, 2047), '{"e":"graph"}', transient(5000, 2046), transient(5001, 2047)]
    const { store } = scan(text.join('\n') + '\n')
    expect(store.warnings.counts).toEqual({ duplicateId: 1 })
    const names = Array.from(store.buffers.name.view()).slice(-2).map((id) => store.strings.get(id))
    expect(names).toEqual(['N2046', 'N2047'])
    expect(Array.from(store.buffers.size.view()).slice(-2)).toEqual([16 * 2047, 16 * 2048])
  })

  it('for buffers', () => {
    const buffer = (id: number, k: number) => `{"e":"buffer","id":${id},"size":64,"usage":["Static"],"name":"B${k}"}`
    // 512 buffers, each twice (a buffer's tail is kept the second time), take every place; the 513th takes the
    // first one's, the second time with a live id; then it comes again
    const first = Array.from({ length: 512 }, (_, k) => [buffer(2 * k, k), buffer(2 * k + 1, k)]).flat()
    const names = named(Array.from({ length: 513 }, (_, k) => `B${k}`))
    const text = [HEADER, ...names, ...first, buffer(2000, 512), buffer(3, 512), buffer(2001, 512)]
    const { store } = scan(text.join('\n') + '\n')
    expect(store.warnings.counts).toEqual({ duplicateId: 1 })
    expect(store.strings.get(store.buffers.name.data[store.buffers.length - 1])).toBe('B512')
    expect(store.buffers.id.data[store.buffers.length - 1]).toBe(2001)
  })
})

describe('repeated use arrays', () => {
  /** Id arrays to draw from: runs, gaps, one id, none, and ids the byte coding cannot hold. */
  const ARRAYS: number[][] = [
    [1, 2, 3, 4, 5, 9, 10, 11, 40, 39, 38],
    [843, 844, 845, 677, 678, 1511, 1512],
    [7],
    [],
    [1, 2, 3, 4, 5, 9, 10, 11, 40, 39, 37],
    [1, 2, 3, 4, 5, 9, 10, 11, 40, 39],
    [(1 << 28) + 5, 3, (1 << 28) + 6],
    [2 ** 40, 2 ** 40 + 1],
  ]
  /** Ids the byte coding cannot hold: from the first such record on, the store keeps plain floats. */
  const WIDE: number[][] = [[-1, 2], [2.5], [2 ** 53]]
  type UseWay = 'plain' | 'spaced' | 'blank' | 'extra' | 'idsAgain' | 'idsFirst'
  const useWay = fc.constantFrom<UseWay>('plain', 'plain', 'plain', 'plain', 'plain', 'spaced', 'blank', 'extra', 'idsAgain', 'idsFirst')

  function useLine(ids: number[], how: UseWay): string {
    const list = JSON.stringify(ids)
    switch (how) {
      case 'spaced':
        return `{"e":"use","ids":${list.replaceAll(',', ', ')}}`
      case 'blank':
        return `{"e":"use","ids":${list}} `
      case 'extra':
        return `{"e":"use","ids":${list},"pass":"Lumen"}`
      case 'idsAgain':
        return `{"e":"use","ids":${list},"ids":[3,4]}`
      case 'idsFirst':
        return `{"ids":${list},"e":"use"}`
      default:
        return `{"e":"use","ids":${list}}`
    }
  }

  it('give the store the plain path gives, ids packed byte for byte, in any order and any chunks', () => {
    const draw = fc.oneof(
      { weight: 30, arbitrary: fc.tuple(fc.nat(ARRAYS.length - 1).map((i) => ARRAYS[i]), useWay) },
      { weight: 1, arbitrary: fc.tuple(fc.nat(WIDE.length - 1).map((i) => WIDE[i]), useWay) },
      { weight: 3, arbitrary: fc.tuple(fc.constant(null), useWay) },
    )
    fc.assert(
      fc.property(fc.array(draw, { minLength: 1, maxLength: 150 }), fc.constantFrom(1, 7, 61, 1 << 16), (draws, chunk) => {
        let frame = 0
        const lines = draws.map(([ids, how]) => (ids === null ? `{"e":"frame","n":${++frame}}` : useLine(ids, how)))
        const text = [HEADER, ...lines].join('\n') + '\n'
        const { store, error } = scan(text, chunk)
        expect(error).toBeUndefined()
        expect(dumpStore(store)).toEqual(dumpStore(viaObjects(text)))
      }),
      { numRuns: runs(300) },
    )
  })

  it('stay exact past the kept arrays\' room and after long stretches that never repeat', () => {
    const distinct = (i: number) => [i, i + 1, i + 2, 3 * i + 7]
    const lines: string[] = []
    // more arrays than are kept, each read again at once (found by its hash), some again later (found, or kept anew
    // once dropped)
    for (let i = 0; i < 10000; i++) {
      lines.push(useLine(distinct(i), 'plain'), useLine(distinct(i), 'plain'))
      if (i % 4 === 0 && i >= 100) lines.push(useLine(distinct(i - 100), 'plain'))
    }
    // a long stretch of arrays that never repeat (the kept ones dropped more than once), then repeats
    for (let i = 10000; i < 60000; i++) lines.push(useLine(distinct(i), 'plain'))
    for (const k of [0, 1]) for (let i = 59000; i < 60000; i++) lines.push(useLine(distinct(i), k === 0 ? 'plain' : 'spaced'))
    const text = [HEADER, ...lines].join('\n') + '\n'
    const { store, error } = scan(text, 1 << 16)
    expect(error).toBeUndefined()
    expect(dumpStore(store)).toEqual(dumpStore(viaObjects(text)))
  })
})
