import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  BUFFER_STATES,
  BUFFER_USAGES,
  TEXTURE_DIMS,
  TEXTURE_FLAGS,
  UPLOAD_VIAS,
  type CaptureHeader,
  type CaptureRecord,
} from '../../../../src/shared/capture'
import { fragment, jsonString, LineBuilder, NdjsonSink, recordLine } from '../../../../src/main/ingest/ndjsonWriter'
import { runs } from '../../../properties'

// Names with anything in them: quotes, backslashes, control characters, any code point, lone surrogates.
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))
const anyUnit = fc.oneof(
  fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '/'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
  loneSurrogate,
)
const anyName = fc.string({ unit: anyUnit, maxLength: 40 })
const bytes = fc.oneof(fc.maxSafeNat(), fc.constantFrom(0, 2 ** 32, 2 ** 53 - 1, 2 ** 53))
const id = fc.nat({ max: 2 ** 31 - 1 })
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined })

const bufferDesc = {
  size: bytes,
  usage: optional(fc.subarray([...BUFFER_USAGES])),
  stride: optional(fc.nat({ max: 2048 })),
  state: optional(fc.constantFrom(...BUFFER_STATES)),
  heap: optional(fc.constantFrom('default' as const, 'readback' as const)),
  init: optional(fc.boolean()),
  name: optional(anyName),
  tag: optional(anyName),
}
const textureDesc = {
  dim: optional(fc.constantFrom(...TEXTURE_DIMS)),
  format: optional(fc.constantFrom('BC7_UNORM', 'R16G16B16A16_FLOAT', 'D32_FLOAT_S8X24_UINT')),
  width: optional(fc.integer({ min: 1, max: 16384 })),
  height: optional(fc.integer({ min: 1, max: 16384 })),
  depth: optional(fc.integer({ min: 1, max: 2048 })),
  mips: optional(fc.integer({ min: 1, max: 15 })),
  samples: optional(fc.constantFrom(1, 2, 4, 8)),
  flags: optional(fc.subarray([...TEXTURE_FLAGS])),
  name: optional(anyName),
  tag: optional(anyName),
  size: optional(bytes),
  align: optional(fc.constantFrom(4096, 65536, 4194304)),
}
const record = fc.oneof(
  fc.record(
    {
      e: fc.constant('frame' as const),
      n: fc.maxSafeNat(),
      t: optional(fc.double({ min: 0, max: 1e9, noNaN: true }).map((t) => t + 0)),
    },
  ),
  fc.record({ e: fc.constant('gpu' as const), n: fc.maxSafeNat() }),
  fc.record({ e: fc.constant('buffer' as const), id, ...bufferDesc }),
  fc.record({ e: fc.constant('texture' as const), id, ...textureDesc }),
  fc.record({ e: fc.constantFrom('release' as const, 'free' as const), id }),
  fc.record({ e: fc.constantFrom('commit' as const, 'lock' as const), id, bytes }),
  fc.record(
    { e: fc.constant('upload' as const), via: fc.constantFrom(...UPLOAD_VIAS), bytes, count: optional(fc.nat()) },
  ),
  fc.record({ e: fc.constant('use' as const), ids: fc.array(id, { maxLength: 50 }) }),
  fc.record({ e: fc.constant('budget' as const), bytes }),
  fc.record({ e: fc.constant('graph' as const), name: optional(anyName) }),
  fc.record(
    {
      e: fc.constant('transient' as const),
      id,
      kind: fc.constant('buffer' as const),
      first: fc.nat(200),
      last: fc.nat(200),
      ...bufferDesc,
    },
  ),
  fc.record(
    {
      e: fc.constant('transient' as const),
      id,
      kind: fc.constant('texture' as const),
      first: fc.nat(200),
      last: fc.nat(200),
      ...textureDesc,
    },
  ),
  fc.record({ e: fc.constant('endgraph' as const), passes: fc.nat(500) }),
  fc.record(
    {
      e: fc.constant('heap' as const),
      id,
      size: bytes,
      type: optional(fc.constantFrom('default' as const, 'upload' as const, 'readback' as const)),
      name: optional(anyName),
    },
  ),
  fc.record({ e: fc.constant('barrier' as const), after: id, before: optional(id) }),
  fc.record(
    { e: fc.constant('access' as const), id, op: fc.constantFrom('read' as const, 'write' as const, 'clear' as const) },
  ),
  fc.record({ e: fc.constant('submit' as const) }),
) as fc.Arbitrary<CaptureRecord>

/** The record as a reader sees it: undefined fields absent, fields at the format's default absent. */
function expected(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(r)) {
    if (value === undefined) continue
    if (key === 'stride' && value === 0) continue
    if ((key === 'state' || key === 'heap') && value === 'default') continue
    if (key === 'init' && value === false) continue
    if ((key === 'depth' || key === 'mips' || key === 'samples') && value === 1) continue
    out[key] = value
  }
  return out
}

describe('recordLine', () => {
  it('writes one line that JSON.parse turns back into the record, defaults left out', () => {
    fc.assert(
      fc.property(record, (r) => {
        const line = recordLine(r)
        expect(line).not.toContain('\n')
        // No lone half of a surrogate pair (with the u flag, a whole pair is one code point and does not match).
        expect(line).not.toMatch(/[\ud800-\udfff]/u)
        expect(JSON.parse(line)).toEqual(expected(r as unknown as Record<string, unknown>))
      }),
      { numRuns: runs(2000) },
    )
  })

  it('keeps the key order of the format document and drops only default fields', () => {
    // The document's examples, with stride 0, depth 1 and samples 1 dropped as defaults.
    const buffer: CaptureRecord = {
      e: 'buffer',
      id: 7,
      size: 65536,
      usage: ['Static', 'VertexBuffer'],
      stride: 0,
      name: 'SM_Rock.VB',
      tag: 'Meshes',
    }
    expect(recordLine(buffer)).toBe(
      '{"e":"buffer","id":7,"size":65536,"usage":["Static","VertexBuffer"],"name":"SM_Rock.VB","tag":"Meshes"}',
    )
    const texture: CaptureRecord = {
      e: 'texture',
      id: 8,
      dim: '2d',
      format: 'BC7_UNORM',
      width: 2048,
      height: 2048,
      depth: 1,
      mips: 12,
      samples: 1,
      flags: ['ShaderResource', 'Streamable'],
      name: 'T_Rock_D',
      tag: 'Textures',
      size: 5592512,
      align: 65536,
    }
    expect(recordLine(texture)).toBe(
      '{"e":"texture","id":8,"dim":"2d","format":"BC7_UNORM","width":2048,"height":2048,"mips":12,' +
        '"flags":["ShaderResource","Streamable"],"name":"T_Rock_D","tag":"Textures","size":5592512,"align":65536}',
    )
    const transient: CaptureRecord = {
      e: 'transient',
      id: 1002,
      kind: 'buffer',
      size: 262144,
      usage: ['UnorderedAccess', 'StructuredBuffer'],
      stride: 16,
      first: 5,
      last: 6,
      name: 'LightGrid',
    }
    expect(recordLine(transient)).toBe(
      '{"e":"transient","id":1002,"kind":"buffer","size":262144,"usage":["UnorderedAccess","StructuredBuffer"],' +
        '"stride":16,"first":5,"last":6,"name":"LightGrid"}',
    )
    expect(recordLine({ e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 1024 })).toBe(
      '{"e":"placed","id":51,"heap":50,"offset":0,"kind":"buffer","size":1024}',
    )
    expect(recordLine({ e: 'frame', n: 12, t: 200.5 })).toBe('{"e":"frame","n":12,"t":200.5}')
    expect(recordLine({ e: 'upload', via: 'fastConstant', bytes: 1048576, count: 4096 })).toBe(
      '{"e":"upload","via":"fastConstant","bytes":1048576,"count":4096}',
    )
  })

  it('writes the header in the documented order, keeping unknown keys', () => {
    const header: CaptureHeader = {
      format: 'heapscope-capture',
      version: 1,
      api: 'vulkan',
      app: 'MyGame',
      captured: '2026-11-29T12:00:00Z',
      adapter: {
        name: 'NVIDIA GeForce RTX 4080',
        vram: 17171480576,
        resourceHeapTier: 2,
        uma: false,
        driver: '566.36',
      },
      budget: 15032385536,
      config: { 'bufferPool.size': 33554432 },
      engine: 'UE 5.8',
    }
    expect(recordLine(header)).toBe(
      '{"format":"heapscope-capture","version":1,"api":"vulkan","app":"MyGame","captured":"2026-11-29T12:00:00Z",' +
        '"adapter":{"name":"NVIDIA GeForce RTX 4080","vram":17171480576,"resourceHeapTier":2,"uma":false,' +
        '"driver":"566.36"},' +
        '"budget":15032385536,"config":{"bufferPool.size":33554432},"engine":"UE 5.8"}',
    )
    // d3d12 is the default api.
    expect(recordLine({ format: 'heapscope-capture', version: 1, api: 'd3d12' })).toBe(
      '{"format":"heapscope-capture","version":1}',
    )
  })

  it('keeps unknown keys of a record after the known ones', () => {
    const r = { e: 'release', id: 3, frameTag: 'x"y' } as unknown as CaptureRecord
    expect(recordLine(r)).toBe('{"e":"release","id":3,"frameTag":"x\\"y"}')
  })

  it('escapes names as JSON does', () => {
    expect(jsonString('SM_Rock_03.VB')).toBe('"SM_Rock_03.VB"')
    expect(jsonString('a"b\\c\n\u0001')).toBe('"a\\"b\\\\c\\n\\u0001"')
    expect(jsonString('T_标题_Épée')).toBe('"T_标题_Épée"')
    expect(jsonString('\ud800x')).toBe('"\\ud800x"')
  })
})

describe('NdjsonSink', () => {
  it('hands whole lines over in chunks of about the chunk size, in order', async () => {
    const chunks: string[] = []
    const sink = new NdjsonSink((c) => {
      chunks.push(c)
    }, 100)
    const lines = Array.from({ length: 50 }, (_, i) => `{"e":"release","id":${i}}`)
    for (const line of lines) expect(sink.line(line)).toBeUndefined()
    await sink.flush()
    expect(chunks.join('')).toBe(lines.map((l) => l + '\n').join(''))
    for (const c of chunks) expect(c.endsWith('\n')).toBe(true)
    // Each line is 23 or 24 characters with its line feed: a chunk closes at the first line reaching 100.
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThanOrEqual(100)
      expect(c.length).toBeLessThan(100 + 25)
    }
  })

  it('returns the write when it has to be awaited, and never starts a write before the last one ended', async () => {
    const order: string[] = []
    let inFlight = 0
    let maxInFlight = 0
    const write = async (chunk: string): Promise<void> => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 1))
      order.push(chunk)
      inFlight--
    }
    const sink = new NdjsonSink(write, 1)
    const waits: Promise<void>[] = []
    // The producer does not wait here: the sink still writes one chunk at a time, in order.
    for (let i = 0; i < 20; i++) {
      const wait = sink.line(`line ${i}`)
      if (wait) waits.push(wait)
    }
    expect(waits.length).toBe(20)
    await sink.flush()
    expect(maxInFlight).toBe(1)
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}\n`))
  })

  it('passes a failed write on to the producer', async () => {
    const sink = new NdjsonSink(() => Promise.reject(new Error('disk full')), 1)
    await expect(sink.line('x') as Promise<void>).rejects.toThrow('disk full')
  })
})

describe('LineBuilder', () => {
  const build = (fill: (b: LineBuilder) => void, chunkSize = 1 << 20): Promise<string> => {
    const chunks: string[] = []
    const b = new LineBuilder(new NdjsonSink((c) => {
      chunks.push(c)
    }, chunkSize))
    fill(b)
    return b.flush().then(() => chunks.join(''))
  }

  const numbers = fc.oneof(
    fc.maxSafeNat(),
    fc.constantFrom(0, 9, 10, 99, 100, 2 ** 53),
    fc.double({ noNaN: true }),
    fc.integer({ min: -1e6, max: -1 }),
  )

  it('writes numbers as JSON does, integers up to 2^53 without a string', async () => {
    await fc.assert(
      fc.asyncProperty(numbers, async (n) => {
        const text = await build((b) => {
          b.number(n)
          b.end()
        })
        expect(text).toBe(JSON.stringify(n) + '\n')
      }),
      { numRuns: runs(500) },
    )
  })

  it('writes strings that JSON.parse reads back, in UTF-8 across chunk boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyName, { minLength: 1, maxLength: 30 }), fc.nat({ max: 63 }), async (names, k) => {
        const text = await build((b) => {
          for (const name of names) {
            b.raw(fragment('{"name":'))
            b.string(name)
            b.char(125)
            b.end()
          }
        }, k + 1)
        const lines = text.split('\n')
        expect(lines.pop()).toBe('')
        // A lone surrogate is escaped, so what is written survives UTF-8; JSON.parse gives it back.
        expect(lines.map((l) => JSON.parse(l).name)).toEqual(names)
      }),
      { numRuns: runs(300) },
    )
  })

  it('grows for a line longer than its buffer', async () => {
    const long = 'x'.repeat(200_000)
    const text = await build((b) => {
      b.string(long)
      b.end()
    }, 1024)
    expect(text).toBe(`"${long}"\n`)
  })
})
