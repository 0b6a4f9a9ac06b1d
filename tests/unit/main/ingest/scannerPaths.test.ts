/**
 * The scanner's fast paths against the slow ones: records read from bytes must be what the same lines give when
 * JSON.parse reads them and an importer's path (RecordScratch.fromObject) stores them. Then the cases each fast
 * path has to hand over: escaped keys, words that only start like the format's, predicted names that differ
 * late, numbers it does not read itself, lines longer than many chunks.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUFFER_USAGES, TEXTURE_FLAGS } from '../../../../src/shared/capture'
import { RecordScratch } from '../../../../src/main/ingest/fields'
import { recordsOf, useIdsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND, type CaptureStore } from '../../../../src/main/ingest/store'
import { CaptureBuilder } from '../../../../src/main/ingest/storeBuilder'
import { HEADER, bytesOf, scan } from './helpers'
import { runs } from '../../../properties'

/** The lines stored through JSON.parse and fromObject, as an importer would. */
function viaObjects(lines: string[]): CaptureStore {
  const builder = new CaptureBuilder()
  const scratch = new RecordScratch()
  lines.forEach((line, i) => {
    builder.line = i + 2
    scratch.fromObject(JSON.parse(line) as object, builder.strings)
    builder.add(scratch)
  })
  return builder.finish('objects', 0, lines.length + 1, false)
}

const warningCounts = (store: CaptureStore) => store.warnings.counts

describe('scanner fast paths', () => {
  it('read what JSON.parse and the object path read, for any records', () => {
    const key = fc.constantFrom('e', 'n', 't', 'id', 'size', 'usage', 'stride', 'state', 'heap', 'init', 'name', 'tag', 'dim', 'format', 'width', 'height', 'depth', 'mips', 'samples', 'flags', 'align', 'bytes', 'via', 'count', 'ids', 'first', 'last', 'kind', 'passes', 'type', 'offset', 'after', 'before', 'op', 'extra', 'nam', 'names', 'idx', 'Id')
    const word = fc.constantFrom('frame', 'buffer', 'texture', 'transient', 'release', 'use', 'graph', 'endgraph', 'frames', 'buf', 'Static', 'Staticx', 'Sta', 'ShaderResource', 'Shared', 'cube', 'cubearray', 'fast', 'fastConstant', '2d', 'default', 'readback', 'write', '')
    const name = fc.oneof(fc.constantFrom('SceneColor', 'SceneColorX', 'Scene', 'Meshes', 'BC7_UNORM'), fc.string({ unit: 'binary', maxLength: 10 }))
    const number = fc.oneof(
      fc.integer({ min: 0, max: 5000 }),
      fc.integer({ min: -5000, max: 5000 }),
      fc.constantFrom(0, 2 ** 53 - 1, 2 ** 53 + 2, 1e15, 123456789012345, 1234567890123456, 0.1, 1.5e-7, 6.02e23, 1e300),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    )
    const value = fc.oneof(
      word,
      name,
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(number, { maxLength: 6 }),
      fc.subarray([...BUFFER_USAGES, ...TEXTURE_FLAGS, 'Unknown']),
      fc.array(fc.oneof(number, word), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    const record = fc
      .tuple(word, fc.array(fc.tuple(key, value), { maxLength: 8 }))
      .map(([e, members]) => Object.fromEntries([['e', e], ...members]))
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 97 }), (records, chunk) => {
        // JSON.stringify writes -0 as 0 and keys in insertion order, as a capture writer would
        const lines = records.map((r) => JSON.stringify(r))
        const { store, error } = scan([HEADER, ...lines].join('\n') + '\n', chunk)
        expect(error).toBeUndefined()
        const reference = viaObjects(lines)
        expect([...recordsOf(store)]).toEqual([...recordsOf(reference)])
        expect(warningCounts(store)).toEqual(warningCounts(reference))
      }),
      {
        numRuns: runs(300),
        // Found by the fuzz run: the object path stored `count`'s numbers as the use record's ids.
        examples: [[[{ e: 'use', ids: [], count: [0], depth: [false] }], 1]],
      },
    )
  })

  it('keeps each number array with its own field, by both paths', () => {
    const lines = [
      '{"e":"use","ids":[],"count":[0],"depth":[false]}',
      '{"e":"use","count":[7,8],"ids":[3],"first":[9]}',
      '{"e":"map","memory":1,"count":[1,2],"depth":[3],"ids":[4,5],"first":[]}',
    ]
    const { store, error } = scan([HEADER, ...lines].join('\n') + '\n', 5)
    expect(error).toBeUndefined()
    const expected = [
      // `ids` alone is the use record's; the other arrays are no field of a use record
      { e: 'use', ids: [] },
      { e: 'use', ids: [3] },
      // an extension record, kept whole, keeps every field's own numbers
      { e: 'map', memory: 1, depth: [3], count: [1, 2], ids: [4, 5], first: [] },
    ]
    expect([...recordsOf(store)]).toEqual(expected)
    expect([...recordsOf(viaObjects(lines))]).toEqual(expected)
  })

  it('hands escaped keys and strings to the slow path', () => {
    const { store, error } = scan(
      [HEADER, '{"\\u0065":"buffer","i\\u0064":1,"size":16,"n\\u0061me":"a\\tb","tag":"\\u004deshes","usage":["St\\u0061tic"]}'].join('\n'),
    )
    expect(error).toBeUndefined()
    expect([...recordsOf(store)]).toEqual([{ e: 'buffer', id: 1, size: 16, usage: ['Static'], name: 'a\tb', tag: 'Meshes' }])
  })

  it('matches the format\'s words whole: a longer or shorter word is not one', () => {
    const { store } = scan(
      [
        HEADER,
        '{"e":"buffers","id":1,"size":1}',
        '{"e":"buffer","id":2,"size":2,"usage":["Static","Staticx","Stati","Dynamic"]}',
        '{"e":"texture","id":3,"dim":"cubearray","width":1,"height":1}',
        '{"e":"texture","id":4,"dim":"cube","width":1,"height":1}',
        '{"e":"upload","via":"fastConstant","bytes":1}',
        '{"e":"upload","via":"fast","bytes":1}',
      ].join('\n'),
      3,
    )
    // "buffers" is no record kind; "Staticx" and "Stati" are no usage names: each said, the record kept
    expect(store.warnings.counts).toEqual({ unknownRecord: 1, unknownName: 2 })
    expect([...recordsOf(store)]).toEqual([
      // the unknown names are not kept; Static is bit 0, Dynamic bit 1
      { e: 'buffer', id: 2, size: 2, usage: ['Static', 'Dynamic'] },
      { e: 'texture', id: 3, dim: 'cubearray', width: 1, height: 1 },
      { e: 'texture', id: 4, dim: 'cube', width: 1, height: 1 },
      { e: 'upload', via: 'fastConstant', bytes: 1, count: 1 },
      { e: 'upload', via: 'fast', bytes: 1, count: 1 },
    ])
  })

  it('checks a predicted name to its closing quote', () => {
    // frame 1 teaches: after "A" comes "Bee"; frame 2 has "A" then "Be" and "Beex", which start like "Bee"
    const transient = (id: number, name: string) =>
      JSON.stringify({ e: 'transient', id, kind: 'buffer', size: 16, first: 0, last: 0, name })
    const text = [
      HEADER,
      '{"e":"graph"}',
      transient(1, 'A'),
      transient(2, 'Bee'),
      '{"e":"endgraph","passes":1}',
      '{"e":"graph"}',
      transient(1, 'A'),
      transient(2, 'Be'),
      transient(3, 'A'),
      transient(4, 'Beex'),
      transient(5, 'A'),
      transient(6, 'Bee'),
      '{"e":"endgraph","passes":1}',
    ].join('\n')
    for (const chunk of [1, 5, 1 << 16]) {
      const { store } = scan(text, chunk)
      const names = [...recordsOf(store)].filter((r) => r.e === 'transient').map((r) => (r as { name: string }).name)
      expect(names).toEqual(['A', 'Bee', 'A', 'Be', 'A', 'Beex', 'A', 'Bee'])
      // "A", "Bee", "Be", "Beex": four names, interned once each
      expect(new Set(store.buffers.name.view()).size).toBe(4)
    }
  })

  it('checks a string found by its first sixteen bytes to its closing quote', () => {
    // tags and formats that share their first sixteen bytes, or are shorter, in alternation, so the string
    // before is never the one read and every string is looked up by its start
    const tags = ['UniformBuffers', 'UniformBuffersX', 'Uniform', 'UniformB', 'Uniform', 'UniformBuffers', 'A', 'AB', 'A', 'UniformBuffersAAA1', 'UniformBuffersAAA2', 'UniformBuffersAAA1']
    const formats = ['R8G8B8A8_UNORM', 'R8G8B8A8_UNORM_SRGB', 'R8G8B8A8', 'R8G8B8A8_UNORM', 'R8', 'R8G8_UNORM', 'R8']
    const lines: string[] = []
    for (let i = 0; i < 40; i++) {
      lines.push(JSON.stringify({ e: 'buffer', id: 2 * i, size: 16, name: tags[(i * 5) % tags.length], tag: tags[i % tags.length] }))
      lines.push(
        JSON.stringify({ e: 'texture', id: 2 * i + 1, dim: '2d', width: 1, height: 1, format: formats[i % formats.length], tag: tags[(i + 3) % tags.length] }),
      )
    }
    for (const chunk of [1, 7, 1 << 16]) {
      const { store, error } = scan([HEADER, ...lines].join('\n') + '\n', chunk)
      expect(error).toBeUndefined()
      expect([...recordsOf(store)]).toEqual(lines.map((line) => JSON.parse(line) as object))
      // each distinct string interned once (`Uniform` is a usage name, interned before any record)
      const once = new CaptureBuilder().strings
      for (const text of [...tags, ...formats]) once.intern(text)
      expect(store.strings.size).toBe(once.size)
    }
  })

  it('takes an array of words for one it read before only when the whole array is the same', () => {
    const usages = [
      '["Static","VertexBuffer"]',
      '["Static","VertexBuffer","ShaderResource"]',
      '["Static"]',
      '["Static","VertexBuff"]',
      '["Static" ,"VertexBuffer"]',
      '["Static","IndexBuffer"]',
      '["Static","Unknown"]',
      '["Uniform","Dynamic"]',
      '[]',
      `[${BUFFER_USAGES.map((u) => JSON.stringify(u)).join(',')}]`,
      `[${BUFFER_USAGES.map((u) => JSON.stringify(u)).join(', ')}]`,
      '["Static","VertexBuffer"] ',
    ]
    const flags = ['["RenderTargetable","ShaderResource"]', '["RenderTargetable"]', '["ShaderResource","RenderTargetable"]', '["UAV"]']
    const lines: string[] = []
    // twelve arrays in turn, more than are kept
    for (let i = 0; i < 60; i++) {
      lines.push(`{"e":"buffer","id":${2 * i},"size":16,"usage":${usages[(i * 7) % usages.length]},"name":"b"}`)
      lines.push(`{"e":"texture","id":${2 * i + 1},"width":1,"height":1,"flags":${flags[(i * 3) % flags.length]}}`)
    }
    for (const chunk of [1, 11, 1 << 16]) {
      const { store, error } = scan([HEADER, ...lines].join('\n') + '\n', chunk)
      expect(error).toBeUndefined()
      const reference = viaObjects(lines)
      expect([...recordsOf(store)]).toEqual([...recordsOf(reference)])
      expect(warningCounts(store)).toEqual(warningCounts(reference))
    }
  })

  it('takes a transient\'s members after its id for the ones of a frame before only when they are the same to the brace', () => {
    const frame = [
      '"kind":"buffer","size":32768,"usage":["Static","UnorderedAccess"],"stride":4,"first":35,"last":36,"name":"Shadow.Pages"}',
      '"kind":"texture","format":"R8G8B8A8_UNORM","width":1024,"height":512,"flags":["RenderTargetable"],"first":40,"last":41,"name":"Lumen.Albedo"}',
      '"kind":"texture","format":"R8G8B8A8_UNORM","width":1024,"height":512,"flags":["RenderTargetable"],"first":40,"last":41,"name":"Lumen.Normal","size":2097152,"align":65536}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T"}',
    ]
    // what a later frame may write instead of each: a member changed early or late, one more, a key again
    const variants = [
      '"kind":"buffer","size":32768,"usage":["Static","UnorderedAccess"],"stride":4,"first":35,"last":37,"name":"Shadow.Pages"}',
      '"kind":"texture","format":"R8G8B8A8_UNORM","width":1024,"height":512,"flags":["RenderTargetable"],"first":40,"last":41,"name":"Lumen.Albedx"}',
      '"kind":"texture","format":"R8G8B8A8_UNORM","width":1024,"height":512,"flags":["RenderTargetable"],"first":40,"last":41,"name":"Lumen.Normal","size":2097152}',
      '"kind":"buffer","size":16,"init":false,"first":1,"last":2,"name":"Args","tag":"T"}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T","extra":[1,{"a":null}]}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T","id":7}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T","e":"buffer"}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T","ids":[1,2]}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T" }',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"A\\u0072gs","tag":"T"}',
      '"kind":"buffer","size":16,"init":true,"first":1,"last":2,"name":"Args","tag":"T"}',
    ]
    // the frame, then each variant in place of each member list two frames running: the second is predicted
    const frames = [frame, frame]
    for (const variant of variants) {
      for (let i = 0; i < frame.length; i++) {
        const changed = frame.map((tail, j) => (j === i ? variant : tail))
        frames.push(changed, changed, frame)
      }
    }
    const lines: string[] = []
    let id = 0
    for (const tails of frames) {
      lines.push('{"e":"graph"}', ...tails.map((tail) => `{"e":"transient","id":${id++},${tail}`), '{"e":"endgraph","passes":1}')
    }
    for (const chunk of [1, 13, 1 << 16]) {
      const { store, error } = scan([HEADER, ...lines].join('\n') + '\n', chunk)
      expect(error).toBeUndefined()
      const reference = viaObjects(lines)
      expect([...recordsOf(store)]).toEqual([...recordsOf(reference)])
      expect(warningCounts(store)).toEqual(warningCounts(reference))
    }
  })

  it('reads numbers its fast path leaves to number(): fractions, exponents, signs, long digits', () => {
    const { store, error } = scan(
      [
        HEADER,
        '{"e":"frame","n":1,"t":16.75}',
        '{"e":"frame","n":2,"t":1e3}',
        '{"e":"frame","n":3,"t":-0.5}',
        '{"e":"buffer","id":1234567890123456,"size":9007199254740991}',
        '{"e":"use","ids":[1, 2 ,3,-4,5.0,6e0,9007199254740991]}',
        '{"e":"use","ids":[ ]}',
      ].join('\n'),
    )
    expect(error).toBeUndefined()
    expect([...recordsOf(store)]).toEqual([
      { e: 'frame', n: 1, t: 16.75 },
      { e: 'frame', n: 2, t: 1000 },
      { e: 'frame', n: 3, t: -0.5 },
      { e: 'buffer', id: 1234567890123456, size: 9007199254740991 },
      { e: 'use', ids: [1, 2, 3, -4, 5, 6, 9007199254740991] },
      { e: 'use', ids: [] },
    ])
  })

  it('reads a line longer than many chunks', () => {
    // 200,000 ids, about 1.3 MB on one line, in 4 KiB chunks
    const ids = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1_000_003)
    const text = `${HEADER}\n{"e":"frame","n":1}\n{"e":"use","ids":${JSON.stringify(ids)}}\n{"e":"frame","n":2}\n`
    const { store, error } = scan(text, 4096)
    expect(error).toBeUndefined()
    expect(store.records.length).toBe(3)
    expect(store.records.kind[1]).toBe(RECORD_KIND.use)
    expect(useIdsOf(store, store.records.ref[1])).toEqual(ids)
  })

  it('names the byte where a broken line ends, and the line of it', () => {
    const good = `${HEADER}\n{"e":"frame","n":1}\n`
    const cases: [string, number, string][] = [
      // the string runs into the line end: the fault is at the line feed (or the CR before it)
      // {"e":"buffer", is bytes 0…13, "name": 14…20, the quote 21, abc 22…24
      ['{"e":"buffer","name":"abc\n', 25, 'the closing quote of a string'],
      ['{"e":"buffer","name":"abc\r\n', 25, 'the closing quote of a string'],
      ['{"e":"buffer","id":1,\n', 21, 'a quoted key'],
      ['{"e":"buffer","id"\n', 18, '":" after the key'],
      ['{"e":"buffer","id":}\n', 19, 'a JSON value'],
      ['{"e":"buffer","id":1} x\n', 22, 'the end of the line after the record'],
      ['{"e":"use","ids":[1,2\n', 21, '"," or "]" in an array'],
      ['{"e":"buffer","name":"a\u0001b"}\n', 23, 'no control characters inside a string'],
      // the key's quote at 14, n 15, the backslash 16, q 17
      ['{"e":"buffer","n\\q":1}\n', 17, 'an escape'],
    ]
    for (const [line, at, expected] of cases) {
      for (const chunk of [1, 7, 1 << 16]) {
        const { error } = scan(good + line + '{"e":"frame","n":2}\n', chunk)
        expect(error?.line, line).toBe(3)
        expect(error?.byteOffset, line).toBe(bytesOf(good).length + at)
        expect(error?.expected, line).toContain(expected)
      }
    }
  })
})
