import fc from 'fast-check'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { BUFFER_USAGES, TEXTURE_FLAGS } from '../../../../src/shared/capture'
import { FIELD } from '../../../../src/main/ingest/fields'
import { loadCapture, loadCaptureFile } from '../../../../src/main/ingest/read'
import { recordsOf } from '../../../../src/main/ingest/records'
import type { CaptureStore } from '../../../../src/main/ingest/store'
import { captureBytes, exportOf, writeCaptureFile } from '../../../../src/main/ingest/writer'
import { bytesOf, chunksOf, generated, HEADER } from './helpers'
import { runs, scaled } from '../../../properties'

async function load(bytes: Uint8Array) {
  return loadCapture(chunksOf(bytes, 4096), { file: 'written.hscap' })
}

/** The store written (as asked) and read back: its records, header and warnings. */
async function roundTrip(store: CaptureStore, options: { gzip?: boolean; from?: number; to?: number } = {}) {
  const bytes = await captureBytes(store, { ...options, chunkSize: 1000 })
  const { store: back, error } = await load(bytes)
  expect(error).toBeUndefined()
  return { bytes, back, records: [...recordsOf(back)] }
}

const tmp = mkdtempSync(join(tmpdir(), 'heapscope-writer-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('capture writer', () => {
  it('writes generated captures back record for record, plain and gzip', async () => {
    for (const scenario of ['demo', 'streaming', 'deferred', 'raytracing']) {
      const { store, error } = await load(bytesOf(await generated(scenario, 3, 11)))
      expect(error).toBeUndefined()
      const records = [...recordsOf(store)]
      expect(records.length).toBeGreaterThan(500)
      for (const gzip of [false, true]) {
        const { bytes, back, records: again } = await roundTrip(store, { gzip })
        expect([bytes[0], bytes[1]]).toEqual(gzip ? [0x1f, 0x8b] : [0x7b, 0x22])
        expect(again).toEqual(records)
        expect(back.header).toEqual(store.header)
        expect(back.warnings.counts).toEqual({})
        expect(Array.from(back.frames.n)).toEqual(Array.from(store.frames.n))
      }
    }
  }, scaled(60_000))

  it('writes a file that reads back the same, gzip by its magic', async () => {
    const { store } = await load(bytesOf(await generated('demo', 2, 5)))
    const path = join(tmp, 'demo.hscap.gz')
    const written = await writeCaptureFile(store, path, { gzip: true })
    const file = readFileSync(path)
    expect(written.bytes).toBe(file.length)
    expect(written.records).toBe(store.records.length)
    // one line per record and the header
    expect(gunzipSync(file).toString('utf8').split('\n').filter((l) => l !== '').length).toBe(store.records.length + 1)
    expect([...recordsOf((await load(file)).store)]).toEqual([...recordsOf(store)])
  })

  it('writes unknown keys back after the known ones, as they were read', async () => {
    const text = [
      HEADER,
      '{"e":"buffer","x":{"deep":[1,2,{"y":null}]},"id":1,"size":16,"z":"été"}',
      '{"e":"frame","n":3,"t":1.5,"marker":true}',
      '{"e":"use","ids":[1],"why":"visible"}',
    ].join('\n')
    const { store } = await load(bytesOf(text))
    const written = new TextDecoder().decode(await captureBytes(store))
    expect(written.split('\n')).toEqual([
      HEADER.replace(',"api":"d3d12"', ''),
      '{"e":"buffer","id":1,"size":16,"x":{"deep":[1,2,{"y":null}]},"z":"été"}',
      '{"e":"frame","n":3,"t":1.5,"marker":true}',
      '{"e":"use","ids":[1],"why":"visible"}',
      '',
    ])
  })

  it('keeps what any record holds, unknown keys included, through a write and a read', async () => {
    const known = new Set<string>(FIELD)
    const unknownKey = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k) && k !== '__proto__')
    const extras = fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })
    const id = fc.integer({ min: 0, max: 12 })
    const size = fc.oneof(fc.integer({ min: 0, max: 1 << 20 }), fc.constant(2 ** 53 - 1), fc.constant(-4), fc.constant(1.5))
    const text = fc.oneof(fc.constantFrom('SceneColor', 'Meshes', 'a "quoted" name', 'tab\there', 'é日本'), fc.string({ unit: 'binary', maxLength: 12 }))
    const usage = fc.subarray([...BUFFER_USAGES])
    const flags = fc.subarray([...TEXTURE_FLAGS])
    const bufferDesc = { size, usage, stride: fc.integer({ min: 0, max: 64 }), state: fc.constantFrom('default', 'single', 'multi'), init: fc.boolean(), name: text, tag: text }
    const textureDesc = {
      dim: fc.constantFrom('2d', '2darray', '3d', 'cube', 'cubearray'),
      format: fc.constantFrom('BC7_UNORM', 'R16G16B16A16_FLOAT', 'D32_FLOAT'),
      width: fc.integer({ min: 1, max: 16384 }),
      height: fc.integer({ min: 1, max: 16384 }),
      depth: fc.integer({ min: 1, max: 8 }),
      mips: fc.integer({ min: 1, max: 14 }),
      flags,
      name: text,
      size: fc.integer({ min: 0, max: 2 ** 40 }),
    }
    const record = fc.oneof(
      fc.record({ e: fc.constant('frame'), n: fc.integer({ min: 0, max: 40 }), t: fc.double({ min: 0, max: 1e6, noNaN: true }) }),
      fc.record({ e: fc.constant('buffer'), id, ...bufferDesc }, { requiredKeys: ['e', 'id', 'size'] }),
      fc.record({ e: fc.constant('texture'), id, ...textureDesc }, { requiredKeys: ['e', 'id', 'width', 'height'] }),
      fc.record({ e: fc.constant('release'), id }),
      fc.record({ e: fc.constantFrom('commit', 'lock'), id, bytes: size }),
      fc.record({ e: fc.constant('upload'), via: fc.constantFrom('fast', 'fastConstant', 'staging'), bytes: size, count: fc.nat(9) }),
      fc.record({ e: fc.constant('use'), ids: fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 6 }) }),
      fc.record({ e: fc.constant('budget'), bytes: size }),
      fc.record({ e: fc.constant('graph'), name: text }, { requiredKeys: ['e'] }),
      fc.record({ e: fc.constant('transient'), id, kind: fc.constant('buffer'), first: fc.nat(9), last: fc.nat(9), ...bufferDesc }, { requiredKeys: ['e', 'id', 'kind', 'first', 'last', 'size'] }),
      fc.record({ e: fc.constant('transient'), id, kind: fc.constant('texture'), first: fc.nat(9), last: fc.nat(9), ...textureDesc }, { requiredKeys: ['e', 'id', 'kind', 'first', 'last', 'width', 'height'] }),
      fc.record({ e: fc.constant('endgraph'), passes: fc.nat(40) }),
      fc.record({ e: fc.constant('heap'), id, size, type: fc.constantFrom('default', 'upload', 'readback'), name: text }, { requiredKeys: ['e', 'id', 'size'] }),
      fc.record({ e: fc.constant('placed'), id, heap: id, offset: size, kind: fc.constant('buffer'), ...bufferDesc }, { requiredKeys: ['e', 'id', 'heap', 'offset', 'kind', 'size'] }),
      fc.record({ e: fc.constant('barrier'), after: id, before: id }, { requiredKeys: ['e', 'after'] }),
      fc.record({ e: fc.constant('access'), id, op: fc.constantFrom('read', 'write', 'clear', 'discard', 'copy') }),
      fc.record({ e: fc.constantFrom('submit', 'mystery') }),
      fc.record({ e: fc.constant('free'), id }),
    )
    const withExtras = fc.tuple(record, extras).map(([r, x]) => ({ ...x, ...r }))
    await fc.assert(
      fc.asyncProperty(fc.array(withExtras, { maxLength: 40 }), async (records) => {
        const text = [HEADER, ...records.map((r) => JSON.stringify(r))].join('\n') + '\n'
        const { store } = await load(bytesOf(text))
        const first = [...recordsOf(store)]
        const { back, records: again } = await roundTrip(store)
        expect(again).toEqual(first)
        // what the first read kept is valid: a second read warns of nothing
        expect(back.warnings.counts).toEqual({})
        expect(back.extras.size).toBe(store.extras.size)
      }),
      { numRuns: runs(150) },
    )
  }, scaled(120_000))
})

describe('frame range export', () => {
  // record index: 0 frame 1, 1 buffer 1, 2 buffer 2, 3 commit 2, 4 heap 50, 5 placed 3, 6 budget, 7 frame 2,
  // 8 release 1, 9 buffer 4, 10 graph, 11 transient 100, 12 frame 3, 13 transient 101, 14 endgraph,
  // 15 release 2, 16 buffer 1 again, 17 frame 4, 18 release 3, 19 free 50, 20 release 4
  const RECORDS = [
    { e: 'frame', n: 1 },
    { e: 'buffer', id: 1, size: 100, name: 'A' },
    { e: 'buffer', id: 2, size: 1 << 24, usage: ['ReservedResource'], name: 'Sparse' },
    { e: 'commit', id: 2, bytes: 65536 },
    { e: 'heap', id: 50, size: 4096, type: 'default' },
    { e: 'placed', id: 3, heap: 50, offset: 0, kind: 'buffer', size: 256 },
    { e: 'budget', bytes: 900 },
    { e: 'frame', n: 2 },
    { e: 'release', id: 1 },
    { e: 'buffer', id: 4, size: 50, note: 'kept' },
    { e: 'graph', name: 'G' },
    { e: 'transient', id: 100, kind: 'buffer', size: 64, first: 0, last: 1 },
    { e: 'frame', n: 3 },
    { e: 'transient', id: 101, kind: 'buffer', size: 32, first: 2, last: 3 },
    { e: 'endgraph', passes: 4 },
    { e: 'release', id: 2 },
    { e: 'buffer', id: 1, size: 10 },
    { e: 'frame', n: 4 },
    { e: 'release', id: 3 },
    { e: 'free', id: 50 },
    { e: 'release', id: 4 },
  ]
  const capture = () =>
    load(bytesOf(['{"format":"heapscope-capture","version":1,"budget":1000}', ...RECORDS.map((r) => JSON.stringify(r))].join('\n')))

  it('starts with the first frame of the range, then creates again what is live, in the order it was created', async () => {
    const { store } = await capture()
    expect(store.warnings.counts).toEqual({})
    expect(Array.from(store.frames.n)).toEqual([1, 2, 3, 4])
    // frame index 2 is frame 3: records 12…16; live at record 12: buffer 2 (created at 2, committed at 3),
    // heap 50 (4), placed 3 (5), buffer 4 (9), and the open graph (10) with transient 100 (11)
    const { header, records } = exportOf(store, 2, 3)
    expect(header.budget).toBe(900)
    const expected = [12, 2, 3, 4, 5, 9, 10, 11, 13, 14, 15, 16].map((i) => RECORDS[i])
    expect([...records]).toEqual(expected.map((r) => (r.e === 'heap' ? { ...r, type: 'default' } : r)))
    const { back, records: again } = await roundTrip(store, { from: 2, to: 3 })
    expect(back.warnings.counts).toEqual({})
    expect(back.header.budget).toBe(900)
    expect(again).toEqual([...records])
    expect(Array.from(back.frames.n)).toEqual([3])
  })

  it('creates nothing again that was released before the range, and drops a commit of a released resource', async () => {
    const { store } = await capture()
    // frame index 3 is frame 4: records 17…20; live at 17: heap 50, placed 3, buffer 4, buffer 1 (created at 16)
    const { records } = exportOf(store, 3)
    expect([...records]).toEqual([17, 4, 5, 9, 16, 18, 19, 20].map((i) => (i === 4 ? { ...RECORDS[i], type: 'default' } : RECORDS[i])))
    const { back } = await roundTrip(store, { from: 3 })
    expect(back.warnings.counts).toEqual({})
    expect(back.records.length).toBe(8)
  })

  it('writes the whole capture for the whole range, and nothing but the header for an empty one', async () => {
    const { store } = await capture()
    expect([...exportOf(store).records].length).toBe(RECORDS.length)
    expect([...exportOf(store, 0, 4).records].length).toBe(RECORDS.length)
    expect([...exportOf(store, 2, 2).records]).toEqual([])
    const text = new TextDecoder().decode(await captureBytes(store, { from: 2, to: 2 }))
    expect(text).toBe('{"format":"heapscope-capture","version":1,"budget":1000}\n')
  })
})

describe('writing to a path that cannot be written', () => {
  it('rejects with the reason instead of hanging', async () => {
    const { store } = await loadCaptureFile('resources/demo/demo.hscap.gz')
    await expect(writeCaptureFile(store, '/nonexistent-dir/sub/x.hscap')).rejects.toThrow(/ENOENT/)
  })
})
