import { describe, expect, it } from 'vitest'
import { recordAt, recordsOf } from '../../../../src/main/ingest/records'
import { HEADER, bytesOf, lines, scan } from './helpers'

const SAMPLE = [
  { e: 'buffer', id: 7, size: 65536, usage: ['Static', 'VertexBuffer'], name: 'SM_Rock.VB', tag: 'Meshes' },
  { e: 'frame', n: 1, t: 16.5 },
  {
    e: 'texture',
    id: 8,
    dim: '2d',
    format: 'BC7_UNORM',
    width: 2048,
    height: 2048,
    mips: 12,
    flags: ['ShaderResource', 'Streamable'],
    name: 'T_Rock_D',
    tag: 'Textures',
    size: 5592512,
    align: 65536,
  },
  { e: 'use', ids: [7, 8] },
  { e: 'upload', via: 'fastConstant', bytes: 1048576, count: 4096 },
  { e: 'frame', n: 2 },
  { e: 'release', id: 7 },
  { e: 'gpu', n: 1 },
  { e: 'budget', bytes: 12884901888 },
  { e: 'graph', name: 'SceneRenderer' },
  {
    e: 'transient',
    id: 1001,
    kind: 'texture',
    dim: '2d',
    format: 'R16G16B16A16_FLOAT',
    width: 1920,
    height: 1080,
    flags: ['ShaderResource', 'RenderTargetable'], // flags come back in the format's canonical order
    first: 3,
    last: 9,
    name: 'SceneColor',
  },
  {
    e: 'transient',
    id: 1002,
    kind: 'buffer',
    size: 262144,
    usage: ['UnorderedAccess', 'StructuredBuffer'],
    stride: 16,
    first: 5,
    last: 6,
    name: 'LightGrid',
  },
  { e: 'endgraph', passes: 40 },
  { e: 'heap', id: 50, size: 67108864, type: 'default' },
  { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 4096 },
  { e: 'barrier', after: 51 },
  { e: 'access', id: 51, op: 'write' },
  { e: 'submit' },
  { e: 'commit', id: 8, bytes: 65536 },
  { e: 'lock', id: 8, bytes: 4096 },
  { e: 'release', id: 51 },
  { e: 'free', id: 50 },
  { e: 'release', id: 8 },
]

describe('NDJSON scanner', () => {
  it('reads every record kind back as it was written', () => {
    const { store, error } = scan(lines(...SAMPLE))
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({})
    expect(store.records.length).toBe(SAMPLE.length)
    const out = [...recordsOf(store)]
    expect(out).toEqual(
      SAMPLE.map((r) => {
        const o: Record<string, unknown> = { ...r }
        if (r.e === 'texture' || (r.e === 'transient' && r.kind === 'texture')) o.dim ??= '2d'
        return o
      }),
    )
    // records before the first frame record belong to an implicit frame 0
    expect(Array.from(store.frames.n)).toEqual([0, 1, 2])
    expect(Array.from(store.frames.firstRecord)).toEqual([0, 1, 5])
    expect(store.hasUseRecords).toBe(true)
    expect(store.hasGpuRecords).toBe(true)
  })

  it('gives the same store whatever the chunk size', () => {
    const text = lines(...SAMPLE)
    const whole = [...recordsOf(scan(text).store)]
    for (const size of [1, 2, 3, 7, 64]) expect([...recordsOf(scan(text, size).store)]).toEqual(whole)
  })

  it('keeps unknown keys, CRLF line ends, blank lines and escaped names', () => {
    const text = [
      HEADER,
      '',
      '{"e":"buffer","id":1,"size":16,"name":"a \\"quoted\\" \\u00e9 name","extra":{"x":[1,{"y":null}]},"z":true}',
      '   ',
      '{"e":"buffer","id":2,"size":32,"name":"日本語"}',
    ].join('\r\n')
    const { store, error } = scan(text + '\r\n', 5)
    expect(error).toBeUndefined()
    const out = [...recordsOf(store)]
    expect(out[0]).toEqual({ e: 'buffer', id: 1, size: 16, name: 'a "quoted" é name', extra: { x: [1, { y: null }] }, z: true })
    expect(out[1]).toEqual({ e: 'buffer', id: 2, size: 32, name: '日本語' })
    expect(store.lines).toBe(5)
  })

  it('keeps sizes beyond 32 bits exactly', () => {
    const big = 2 ** 53 - 1
    const { store } = scan(lines({ e: 'buffer', id: 1, size: big }, { e: 'buffer', id: 2, size: 6 * 2 ** 40 + 17 }))
    expect(store.buffers.size.data[0]).toBe(big)
    expect(store.buffers.size.data[1]).toBe(6 * 2 ** 40 + 17)
  })

  it('stops at a line that is not JSON, naming the line and the byte offset', () => {
    const good = lines({ e: 'frame', n: 0 }, { e: 'buffer', id: 1, size: 16 }, { e: 'frame', n: 1 })
    const text = good + '{"e":"buffer","id":2,"size":16,,}\n' + '{"e":"frame","n":2}\n'
    for (const chunk of [1, 3, 1 << 20]) {
      const { store, error } = scan(text, chunk)
      expect(error).toBeDefined()
      expect(error!.line).toBe(5)
      // the second comma: offset of line 5 plus 30 bytes into the line
      expect(error!.byteOffset).toBe(bytesOf(good).length + '{"e":"buffer","id":2,"size":16,'.length)
      expect(error!.message).toContain('line 5')
      expect(error!.message).toContain('a quoted key')
      // what came before the fault is kept
      expect(store.partial).toBe(true)
      expect(store.records.length).toBe(3)
    }
  })

  it('refuses a first line that is not a header, and a newer version', () => {
    expect(scan('{"e":"frame","n":0}\n').error?.message).toMatch(/line 1.*not a valid header/)
    const newer = scan('{"format":"heapscope-capture","version":99}\n').error
    expect(newer?.message).toContain('version 99')
    expect(newer?.message).toContain('version 1')
    expect(scan('hello\n').error?.line).toBe(1)
  })

  it('reads bare records when the header is optional', () => {
    const { store, error } = scan('{"e":"buffer","id":1,"size":1024}\n', 4, { headerOptional: true })
    expect(error).toBeUndefined()
    expect(store.buffers.size.data[0]).toBe(1024)
  })

  it('counts the warnings of the format and goes on', () => {
    const text = lines(
      { e: 'buffer', id: 1, size: 16 },
      { e: 'buffer', id: 1, size: 32 }, // second create of a live id
      { e: 'release', id: 9 }, // unknown id
      { e: 'buffer', id: 2, size: -5 }, // negative size
      { e: 'buffer', id: 3, size: 1.5 }, // non-integer size
      { e: 'mystery' }, // unknown e
      { e: 'frame', n: 4 },
      { e: 'frame', n: 4 }, // n does not increase
      { e: 'transient', id: 5, kind: 'buffer', size: 16, first: 0, last: 1 }, // outside a graph
    )
    const { store, error } = scan(text + '{"e":"buffer","id":7,"si')
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({
      duplicateId: 1,
      releaseOfUnknownId: 1,
      badSize: 2,
      unknownRecord: 1,
      frameNotIncreasing: 1,
      transientOutsideGraph: 1,
      truncatedLastLine: 1,
    })
    const truncated = store.warnings.samples.find((w) => w.kind === 'truncatedLastLine')!
    expect(truncated.line).toBe(11)
    expect(store.records.length).toBe(2)
  })

  it('keeps an upload within 64 GiB and 65 536 allocations, and skips one past either with a warning', () => {
    const { store } = scan(
      lines(
        { e: 'upload', via: 'staging', bytes: 2 ** 36, count: 65536 },
        { e: 'upload', via: 'fast', bytes: 2 ** 36 + 1, count: 1 },
        { e: 'upload', via: 'staging', bytes: 268435456, count: 65537 },
        { e: 'upload', via: 'fastConstant', bytes: 4096, count: -1 },
        { e: 'upload', via: 'fast', bytes: 65536 },
      ),
    )
    expect(store.records.length).toBe(2)
    expect(recordAt(store, 0)).toEqual({ e: 'upload', via: 'staging', bytes: 2 ** 36, count: 65536 })
    expect(recordAt(store, 1)).toEqual({ e: 'upload', via: 'fast', bytes: 65536, count: 1 })
    expect(store.warnings.counts).toEqual({ badField: 3 })
    expect(store.warnings.samples.map((w) => w.line)).toEqual([3, 4, 5])
  })
})

describe('names the format does not define', () => {
  it('keeps the record, stores the names it knows, and counts a warning for the others', () => {
    const { store } = scan(lines({ e: 'buffer', id: 1, size: 64, usage: ['Static', 'Imaginary'] }))
    expect(store.records.length).toBe(1)
    expect([...recordsOf(store)][0]).toEqual({ e: 'buffer', id: 1, size: 64, usage: ['Static'] })
    expect(store.warnings.counts).toEqual({ unknownName: 1 })
    expect(store.warnings.samples[0].message).toMatch(/"Imaginary" is not a buffer usage name/)
  })
})

describe('records of the minor versions (1.1 Vulkan, 1.2 observed residency)', () => {
  it('keeps them whole, unknown keys included, in their place among the others', () => {
    const records = [
      { e: 'heap', id: 50, size: 65536, type: 'default', memoryType: 0 },
      { e: 'buffer', id: 1, size: 1000, explicit: true, memoryRequirements: { size: 1024, alignment: 256, memoryTypeBits: 1 } },
      { e: 'bind', id: 1, memory: 50, offset: 256 },
      { e: 'map', memory: 50 },
      { e: 'write', memory: 50, offset: 0, size: 16, note: 'kept' },
      { e: 'flush', memory: 50, offset: 0, size: 256 },
      { e: 'unmap', memory: 50 },
      { e: 'resident', heap: 50 },
      { e: 'evict', heap: 50, bytes: 65536 },
    ]
    for (const chunk of [1, 7, 1 << 20]) {
      const { store, error } = scan(lines(...records), chunk)
      expect(error).toBeUndefined()
      expect(store.warnings.counts).toEqual({})
      expect([...recordsOf(store)]).toEqual(records)
    }
  })

  it('keeps a write or flush of numbers as operands, read back with the members and order of its JSON', () => {
    const text = [
      HEADER,
      '{"e":"write","offset":0,"size":16,"id":3}',
      '{"e":"write","memory":2,"offset":-0,"size":64}',
      '{"e":"flush","id":3,"offset":256}',
      '{"e":"flush","memory":2,"id":7,"size":1024,"offset":512}',
      // members besides the range's, or not numbers: kept as JSON (in the store's field order, unknown keys last)
      '{"e":"write","id":3,"offset":0,"size":16,"note":"kept"}',
      '{"e":"flush","id":"3","offset":0}',
      '{"e":"flush","id":3,"offset":0,"name":"x"}',
    ].join('\n')
    for (const chunk of [1, 7, 1 << 20]) {
      const { store, error } = scan(`${text}\n`, chunk)
      expect(error).toBeUndefined()
      expect([...recordsOf(store)].map((r) => JSON.stringify(r))).toEqual([
        '{"e":"write","id":3,"size":16,"offset":0}',
        '{"e":"write","size":64,"offset":0,"memory":2}',
        '{"e":"flush","id":3,"offset":256}',
        '{"e":"flush","id":7,"size":1024,"offset":512,"memory":2}',
        '{"e":"write","id":3,"size":16,"offset":0,"note":"kept"}',
        '{"e":"flush","id":"3","offset":0}',
        '{"e":"flush","id":3,"name":"x","offset":0}',
      ])
      // -0 reads back as 0, as from its JSON
      expect(Object.is((recordAt(store, 1) as { offset: number }).offset, 0)).toBe(true)
      // [id, memory, offset, size, raw]: the last three in `raw`
      expect(Array.from(store.ops.subarray(0, 10))).toEqual([3, NaN, 0, 16, -1, NaN, 2, 0, 64, -1])
      expect(Array.from(store.ops.subarray(20))).toEqual([NaN, NaN, NaN, NaN, 0, NaN, NaN, NaN, NaN, 1, NaN, NaN, NaN, NaN, 2])
      expect(store.raw.length).toBe(3)
    }
  })

  it('keeps a bind, map or unmap of numbers as operands too, read back as its JSON gives it', () => {
    const text = [
      HEADER,
      '{"e":"bind","id":4,"memory":2,"offset":65536}',
      '{"e":"map","memory":2}',
      '{"e":"map","memory":2,"offset":256,"size":-0}',
      '{"e":"unmap","memory":2}',
      // not only numbers in the range's fields: JSON
      '{"e":"bind","id":5,"memory":2,"offset":0,"why":"alias"}',
      '{"e":"map","memory":2,"size":"whole"}',
    ].join('\n')
    for (const chunk of [1, 7, 1 << 20]) {
      const { store, error } = scan(`${text}\n`, chunk)
      expect(error).toBeUndefined()
      expect([...recordsOf(store)].map((r) => JSON.stringify(r))).toEqual([
        '{"e":"bind","id":4,"offset":65536,"memory":2}',
        '{"e":"map","memory":2}',
        '{"e":"map","size":0,"offset":256,"memory":2}',
        '{"e":"unmap","memory":2}',
        '{"e":"bind","id":5,"offset":0,"memory":2,"why":"alias"}',
        '{"e":"map","size":"whole","memory":2}',
      ])
      // [id, memory, offset, size, raw], absent members NaN; the last two in `raw`
      expect(Array.from(store.ops.subarray(0, 20))).toEqual([4, 2, 65536, NaN, -1, NaN, 2, NaN, NaN, -1, NaN, 2, 256, 0, -1, NaN, 2, NaN, NaN, -1])
      expect(Array.from(store.ops.subarray(20, 30))).toEqual([NaN, NaN, NaN, NaN, 0, NaN, NaN, NaN, NaN, 1])
      expect(store.raw.length).toBe(2)
    }
  })

  it('refuses one without its required fields, with a warning', () => {
    const { store } = scan(lines({ e: 'bind', id: 1, offset: 0 }, { e: 'resident' }, { e: 'write', offset: -4, size: 1 }))
    expect(store.records.length).toBe(0)
    expect(store.warnings.counts).toEqual({ missingField: 2, badField: 1 })
  })
})

describe('a Vulkan budget naming its memory heap (1.1)', () => {
  it('keeps the heap', () => {
    const records = [{ e: 'budget', bytes: 1024 }, { e: 'budget', bytes: 2048, heap: 1 }]
    expect([...recordsOf(scan(lines(...records)).store)]).toEqual(records)
  })
})
