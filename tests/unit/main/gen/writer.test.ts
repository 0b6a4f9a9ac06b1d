import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUFFER_STATES, BUFFER_USAGES, TEXTURE_FLAGS, type CaptureRecord } from '../../../../src/shared/capture'
import { NdjsonSink, recordLine } from '../../../../src/main/ingest/ndjsonWriter'
import { GraphBuilder, TransientCatalog, emitGraph } from '../../../../src/main/gen/rendergraph'
import { textureAllocation } from '../../../../src/main/gen/textures'
import { BufferClass, CaptureWriter, TextureClass, TransientClass } from '../../../../src/main/gen/writer'
import { runs } from '../../../properties'

/** A writer whose lines land in an array, and a way to read them. */
function capture(): { out: CaptureWriter; lines: () => Promise<string[]> } {
  let text = ''
  const out = new CaptureWriter(new NdjsonSink((c) => {
    text += c
  }, 64))
  return {
    out,
    lines: async () => {
      await out.flush()
      return text.split('\n').slice(0, -1)
    },
  }
}

const name = fc.string(
  {
    unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.constantFrom('"', '\\', '\t', '.')),
    minLength: 1,
    maxLength: 30,
  },
)

describe('CaptureWriter', () => {
  it('writes buffers and textures exactly as recordLine writes the same records', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          usage: fc.subarray([...BUFFER_USAGES], { minLength: 1 }),
          stride: fc.constantFrom(0, 2, 4, 12, 16, 48, 64),
          state: fc.constantFrom(...BUFFER_STATES),
          heap: fc.constantFrom('default' as const, 'readback' as const),
          init: fc.boolean(),
          tag: fc.option(name, { nil: undefined }),
        }),
        fc.maxSafeNat(),
        name,
        fc.record({
          format: fc.constantFrom('BC1_UNORM_SRGB', 'BC5_UNORM', 'R16G16B16A16_FLOAT', 'R8G8B8A8_UNORM'),
          flags: fc.subarray([...TEXTURE_FLAGS], { minLength: 1 }),
          width: fc.integer({ min: 1, max: 8192 }),
          height: fc.integer({ min: 1, max: 8192 }),
          depth: fc.integer({ min: 1, max: 8 }),
          mips: fc.integer({ min: 1, max: 8 }),
          driver: fc.boolean(),
        }),
        async (kind, size, label, tex) => {
          const { out, lines } = capture()
          const id = out.buffer(new BufferClass(kind), size, label)
          const cls = new TextureClass({ dim: '2darray', format: tex.format, flags: tex.flags, tag: kind.tag })
          const texId = out.texture(cls, tex.width, tex.height, tex.depth, tex.mips, label, tex.driver)
          const [bufferLine, textureLine] = await lines()
          const buffer: CaptureRecord = { e: 'buffer', id, size, ...kind, name: label }
          expect(bufferLine).toBe(recordLine(buffer))
          const info = tex.driver ? textureAllocation(cls.shape(tex.width, tex.height, tex.depth, tex.mips)) : undefined
          const texture: CaptureRecord = {
            e: 'texture',
            id: texId,
            dim: '2darray',
            format: tex.format,
            width: tex.width,
            height: tex.height,
            depth: tex.depth,
            mips: tex.mips,
            flags: tex.flags,
            name: label,
            tag: kind.tag,
            size: info?.size,
            align: info?.align,
          }
          expect(textureLine).toBe(recordLine(texture))
        },
      ),
      { numRuns: runs(300) },
    )
  })

  it('writes the other records as recordLine does', async () => {
    const { out, lines } = capture()
    out.frame(3, 33.333)
    out.gpu(1)
    out.upload('fastConstant', 1048576, 4096)
    out.budget(3 * 2 ** 30)
    const id = out.buffer(
      new BufferClass({ usage: ['ReservedResource'] }),
      2 ** 30,
      'Nanite.StreamingManager.ClusterPageData',
    )
    out.commit(id, 65536)
    out.lock(id, 4096)
    out.use([id, 12, 2 ** 40], 3)
    out.release(id)
    expect(await lines()).toEqual(
      [
        { e: 'frame', n: 3, t: 33.333 },
        { e: 'gpu', n: 1 },
        { e: 'upload', via: 'fastConstant', bytes: 1048576, count: 4096 },
        { e: 'budget', bytes: 3221225472 },
        {
          e: 'buffer',
          id: 1,
          size: 1073741824,
          usage: ['ReservedResource'],
          name: 'Nanite.StreamingManager.ClusterPageData',
        },
        { e: 'commit', id: 1, bytes: 65536 },
        { e: 'lock', id: 1, bytes: 4096 },
        { e: 'use', ids: [1, 12, 1099511627776] },
        { e: 'release', id: 1 },
      ].map((r) => recordLine(r as CaptureRecord)),
    )
    expect(out.records).toBe(9)
  })

  it('counts the initial data of the buffers it created since the last look', () => {
    const { out } = capture()
    const withData = new BufferClass({ usage: ['Static', 'VertexBuffer'], init: true })
    out.buffer(withData, 1200, 'SM_Rock_01.VB')
    out.buffer(new BufferClass({ usage: ['Static'] }), 999, 'NoData')
    out.buffer(withData, 34, 'SM_Rock_01.IB')
    expect(out.takeInitialData()).toEqual([1234, 2])
    expect(out.takeInitialData()).toEqual([0, 0])
  })
})

describe('render graphs', () => {
  const tex = new TextureClass({ format: 'R16G16B16A16_FLOAT', flags: ['RenderTargetable', 'ShaderResource'] })
  const buf = new BufferClass(
    { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'StructuredBuffer'], stride: 16 },
  )

  it('gives each resource the passes from its creation to its last read, and frees the ids at endgraph', async () => {
    const catalog = new TransientCatalog((n) => n === 'SceneColor')
    const b = new GraphBuilder()
    b.pass()
    const color = b.create(catalog.texture('SceneColor', tex, 1920, 1080))
    b.passes(3)
    const grid = b.create(catalog.buffer('LightGrid', buf, 262144))
    b.read(color)
    b.pass()
    b.read(grid)
    b.read(color)
    b.pass()
    const graph = b.compile()
    expect(graph.passes).toBe(6)
    expect([...graph.firsts]).toEqual([0, 3])
    expect([...graph.lasts]).toEqual([4, 4])
    const { out, lines } = capture()
    out.frame(1, 0)
    emitGraph(out, 'SceneRenderer', graph)
    out.frame(5, 66.7)
    emitGraph(out, 'SceneRenderer', graph)
    const records = (await lines()).map((l) => JSON.parse(l))
    // 1920×1080 RGBA16F: 15×17 tiles of 64 KiB (128×64 texels each).
    expect(records[2]).toEqual({
      e: 'transient', id: 1, kind: 'texture', format: 'R16G16B16A16_FLOAT', width: 1920, height: 1080,
      flags: ['RenderTargetable', 'ShaderResource'], first: 0, last: 4, name: 'SceneColor',
      size: 255 * 65536, align: 65536,
    })
    expect(records[3]).toEqual({
      e: 'transient', id: 2, kind: 'buffer', size: 262144, usage: [
        'Static',
        'UnorderedAccess',
        'ShaderResource',
        'StructuredBuffer',
      ],
      stride: 16, first: 3, last: 4, name: 'LightGrid',
    })
    expect(records[4]).toEqual({ e: 'endgraph', passes: 6 })
    // Ids 1 and 2 were given back at frame 1; three frames later they are handed out again.
    expect(records.filter((r) => r.e === 'transient').map((r) => r.id)).toEqual([1, 2, 1, 2])
  })

  it('refuses a resource before the first pass', () => {
    const b = new GraphBuilder()
    expect(() => b.create(new TransientClass('X', { kind: 'buffer', cls: buf, size: 16 }))).toThrow(/pass/)
  })

  it('makes one class per name and desc and reuses it', () => {
    const catalog = new TransientCatalog(() => false)
    const a = catalog.texture('GBufferA', tex, 1920, 1080)
    expect(catalog.texture('GBufferA', tex, 1920, 1080)).toBe(a)
    expect(catalog.texture('GBufferA', tex, 1280, 720)).not.toBe(a)
    expect(catalog.size).toBe(2)
  })
})
