import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { DescScratch } from '../../../../src/main/analysis/descScratch'
import { applyRecord } from '../../../../src/main/analysis/d3d12/replay'
import { bufferDesc, recordAt, textureDesc } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { D3D12Model, type ModelPlacement } from '../../../../src/main/model/d3d12/model'
import type { TransientRecord } from '../../../../src/shared/capture'
import { resolveConfig, type ModelConfig } from '../../../../src/shared/model'
import { runs } from '../../../properties'
import { lines, scan } from '../ingest/helpers'

const { store } = scan(
  lines(
    { e: 'frame', n: 0 },
    { e: 'buffer', id: 1, size: 1024, usage: ['Static', 'VertexBuffer'], name: 'SM_Rock.VB', tag: 'Meshes' },
    { e: 'buffer', id: 2, size: 64, usage: ['Uniform'] },
    { e: 'buffer', id: 3, size: 4096, usage: ['UnorderedAccess'], name: 'BLAS scratch', tag: 'RayTracing', heap: 'readback' },
    { e: 'texture', id: 4, format: 'BC7_UNORM', width: 512, height: 512, mips: 10, name: 'T_Rock_D', tag: 'Textures' },
    { e: 'texture', id: 5, dim: '3d', format: 'R16G16B16A16_FLOAT', width: 32, height: 32, depth: 32, flags: ['UAV'] },
  ),
)

describe('descs from the store', () => {
  it("the reused desc reads each row's name and tag when asked, as a desc filled whole does", () => {
    const descs = new DescScratch(store)
    expect([store.buffers.length, store.textures.length]).toEqual([3, 2])
    for (let row = 0; row < store.buffers.length; row++) {
      const lazy = descs.bufferAt(row)
      const whole = descs.bufferAt(row, {} as never)
      const plain = bufferDesc(store, row)
      expect(lazy.name).toBe(plain.name)
      expect(lazy.tag).toBe(plain.tag)
      expect(whole.name).toBe(plain.name)
      expect(whole.tag).toBe(plain.tag)
      expect(lazy.size).toBe(plain.size)
      expect(lazy.usage).toEqual(plain.usage)
      expect(lazy.heap).toBe(plain.heap ?? 'default')
    }
    for (let row = 0; row < store.textures.length; row++) {
      const lazy = descs.textureAt(row)
      const plain = textureDesc(store, row)
      expect([lazy.name, lazy.tag, lazy.format, lazy.dim, lazy.width, lazy.depth, lazy.mips]).toEqual([
        plain.name,
        plain.tag,
        plain.format,
        plain.dim,
        plain.width,
        plain.depth ?? 1,
        plain.mips ?? 1,
      ])
    }
  })

  it('the reused desc answers for the last row asked, its name included', () => {
    const descs = new DescScratch(store)
    const desc = descs.bufferAt(0)
    expect(desc.name).toBe('SM_Rock.VB')
    descs.bufferAt(2)
    expect([desc.name, desc.tag]).toEqual(['BLAS scratch', 'RayTracing'])
    descs.bufferAt(1)
    expect([desc.name, desc.tag]).toEqual([undefined, undefined])
  })

  it('usage lists are shared per mask and frozen', () => {
    const descs = new DescScratch(store)
    const first = descs.bufferAt(0, {} as never).usage
    expect(Object.isFrozen(first)).toBe(true)
    expect(descs.bufferAt(0, {} as never).usage).toBe(first)
  })
})

/** One create's placement as a person reads it, its route included. */
const placementOf = (p: ModelPlacement) => {
  const c = p.copy()
  return [c.id, c.placement, c.heap, c.poolName, c.offset, c.size, c.requested, c.alignment, c.estimated, c.route.join('|')]
}

// Few distinct descs, so that creates by form number come often, with sizes on both sides of the config's bounds.
const bufferArb = fc.record(
  {
    size: fc.constantFrom(0, 16, 100, 4096, 65536, 65537, 1 << 20, (1 << 20) + 1, 16 << 20, (16 << 20) + 1, 40 << 20, 3.5, -1),
    usage: fc.constantFrom(['Static'], ['Uniform', 'Dynamic'], ['Volatile'], ['UnorderedAccess', 'StructuredBuffer'], ['AccelerationStructure'], ['UnorderedAccess'], ['ReservedResource'], ['DrawIndirect']),
    stride: fc.constantFrom(0, 4, 16),
    state: fc.constantFrom('default', 'single', 'multi'),
    heap: fc.constantFrom('default', 'readback'),
    init: fc.boolean(),
    name: fc.constantFrom('SM_Rock.VB', 'BLAS scratch', 'FUniformBuffer'),
    tag: fc.constantFrom('Meshes', 'RayTracing'),
  },
  { requiredKeys: ['size'] },
)
const textureArb = fc.record({
  desc: fc.constantFrom(
    { format: 'BC7_UNORM', width: 256, height: 256, mips: 9, flags: ['ShaderResource'], size: 90112, align: 4096 },
    { format: 'BC7_UNORM', width: 1024, height: 1024, mips: 11, flags: ['ShaderResource'], size: 1441792, align: 65536 },
    { format: 'BC5_UNORM', width: 256, height: 256, mips: 9, flags: ['ShaderResource'] },
    { format: 'R8G8B8A8_UNORM', width: 1920, height: 1080, flags: ['RenderTarget', 'ShaderResource'] },
    { format: 'D32_FLOAT', width: 4096, height: 4096, flags: ['DepthStencil'] },
    { dim: '3d', format: 'R16G16B16A16_FLOAT', width: 32, height: 32, depth: 32, flags: ['UAV'] },
    { format: 'R32_FLOAT', width: 16384, height: 16384, flags: ['ShaderResource'] },
  ),
  name: fc.constantFrom('T_Rock_D', 'GBufferA', undefined),
})
const stepArb = fc.oneof(
  { weight: 4, arbitrary: bufferArb.map((b) => ({ e: 'buffer', ...b })) },
  { weight: 3, arbitrary: textureArb.map((t) => ({ e: 'texture', ...t.desc, name: t.name })) },
  { weight: 2, arbitrary: fc.nat({ max: 40 }).map((back) => ({ e: 'release', back })) },
  { weight: 1, arbitrary: fc.constant({ e: 'frame' }) },
)

describe('creates sent by form number', () => {
  it('place every create as the desc built whole does, in the model, in its copies and in a model of another config', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 120 }), fc.nat({ max: 119 }), (steps, cloneAt) => {
        // Ids: each create a new one, or now and then one still live (a second create of a live id).
        const records: object[] = [{ e: 'frame', n: 0 }]
        let id = 0
        let frame = 0
        for (const s of steps) {
          if (s.e === 'frame') records.push({ e: 'frame', n: ++frame })
          else if (s.e === 'release') records.push({ e: 'release', id: Math.max(1, id - (s as { back: number }).back) })
          else records.push({ ...s, id: ++id })
        }
        const { store } = scan(lines(...records))
        const descs = new DescScratch(store)
        const { kind, ref } = store.records
        /** The records through a model by form number and one by whole descs, side by side; `cloneAt`: both copied there. */
        const replay = (config: ModelConfig, cloneAt: number) => {
          let byForm = new D3D12Model(config)
          let plain = new D3D12Model(config)
          for (let i = 0; i < store.records.length; i++) {
            if (i === cloneAt) {
              // A copy goes on with the form numbers its original learnt.
              byForm = byForm.clone({})
              plain = plain.clone({})
            }
            const r = ref[i]
            if (kind[i] === RECORD_KIND.buffer) {
              const got = placementOf(descs.createBuffer(byForm, r))
              expect(got).toEqual(placementOf(plain.createBuffer(store.buffers.id.data[r], bufferDesc(store, r))))
            } else if (kind[i] === RECORD_KIND.texture) {
              const got = placementOf(descs.createTexture(byForm, r))
              expect(got).toEqual(placementOf(plain.createTexture(store.textures.id.data[r], textureDesc(store, r))))
            } else {
              applyRecord(store, byForm, i, descs)
              applyRecord(store, plain, i, descs)
            }
          }
          byForm.finishFrame()
          plain.finishFrame()
          expect(byForm.pools()).toEqual(plain.pools())
          expect(byForm.liveTable()).toEqual(plain.liveTable())
          expect([...byForm.totals.byRow]).toEqual([...plain.totals.byRow])
        }
        replay(resolveConfig({}), cloneAt)
        // Then a model of another config through the same descs: the form numbers it learnt are the other model's.
        replay(resolveConfig({ 'bufferPool.maxAllocation': 65536, 'upload.smallBlock.maxAllocation': 4096 }), -1)
      }),
      { numRuns: runs(100) },
    )
  })
})

// Few distinct descs, some of them equal but for their name or passes, one whose size warns each time.
const transientArb = fc.record({
  desc: fc.constantFrom<object>(
    { kind: 'buffer', size: 40960, usage: ['Static', 'DrawIndirect', 'UnorderedAccess'], stride: 4 },
    { kind: 'buffer', size: 40960, usage: ['Static', 'DrawIndirect', 'UnorderedAccess'], stride: 4, init: true },
    { kind: 'buffer', size: 65537, usage: ['UnorderedAccess'] },
    { kind: 'buffer', size: -1, usage: ['UnorderedAccess'] },
    { kind: 'texture', format: 'R10G10B10A2_UNORM', width: 1920, height: 1080, flags: ['RenderTargetable', 'ShaderResource'] },
    { kind: 'texture', format: 'R10G10B10A2_UNORM', width: 1920, height: 1080, mips: 2, flags: ['RenderTargetable', 'ShaderResource'] },
    { kind: 'texture', format: 'D32_FLOAT_S8X24_UINT', width: 1920, height: 1080, flags: ['DepthStencilTargetable'], size: 16777216, align: 65536 },
    { kind: 'texture', format: 'R16G16B16A16_FLOAT', width: 960, height: 540, samples: 4, flags: ['RenderTargetable'] },
    { kind: 'texture', dim: '3d', format: 'R16_FLOAT', width: 64, height: 64, depth: 32, flags: ['UAV'] },
  ),
  name: fc.constantFrom('GBufferA', 'SceneDepthZ', undefined),
  first: fc.nat(3),
  span: fc.nat(3),
})
const graphStepArb = fc.oneof(
  { weight: 8, arbitrary: transientArb.map((t) => ({ e: 'transient', ...t })) },
  { weight: 1, arbitrary: fc.constant({ e: 'endgraph' }) },
  { weight: 1, arbitrary: fc.constant({ e: 'frame' }) },
)

describe('transients sent by form number', () => {
  it('place every transient as the record built whole does, in the model, in its copies and in a model of another config', () => {
    fc.assert(
      fc.property(fc.array(graphStepArb, { minLength: 1, maxLength: 150 }), fc.nat({ max: 149 }), (steps, cloneAt) => {
        // Graphs of transients, new ids each; now and then a transient outside a graph (it warns).
        const records: object[] = [{ e: 'frame', n: 0 }, { e: 'graph', name: 'Scene' }]
        let id = 0
        let frame = 0
        let open = true
        for (const s of steps) {
          if (s.e === 'frame') {
            if (open) records.push({ e: 'endgraph', passes: 6 })
            records.push({ e: 'frame', n: ++frame }, { e: 'graph', name: 'Scene' })
            open = true
          } else if (s.e === 'endgraph') {
            records.push({ e: 'endgraph', passes: 6 })
            open = false
          } else {
            const t = s as unknown as { desc: object; name?: string; first: number; span: number }
            if (!open) records.push({ e: 'graph', name: 'Post' })
            open = true
            records.push({ e: 'transient', id: ++id, ...t.desc, first: t.first, last: t.first + t.span, name: t.name })
          }
        }
        records.push({ e: 'endgraph', passes: 6 })
        const { store } = scan(lines(...records))
        const descs = new DescScratch(store)
        const { kind, ref } = store.records
        /** The records through a model by form number and one by whole records, side by side; `cloneAt`: both copied there. */
        const replay = (config: ModelConfig, cloneAt: number) => {
          const heard: [unknown[], unknown[]] = [[], []]
          const sinks = heard.map((list) => ({ warning: (...w: unknown[]) => list.push(w) }))
          let byForm = new D3D12Model(config, {}, sinks[0])
          let plain = new D3D12Model(config, {}, sinks[1])
          for (let i = 0; i < store.records.length; i++) {
            if (i === cloneAt) {
              byForm = byForm.clone(sinks[0])
              plain = plain.clone(sinks[1])
            }
            if (kind[i] === RECORD_KIND.transient) {
              descs.applyTransient(byForm, ref[i])
              plain.transient(recordAt(store, i) as TransientRecord)
            } else if (kind[i] === RECORD_KIND.endgraph) {
              const passes = store.ops[ref[i]]
              expect(byForm.endGraph(passes).map(placementOf)).toEqual(plain.endGraph(passes).map(placementOf))
            } else {
              applyRecord(store, byForm, i, descs)
              applyRecord(store, plain, i, descs)
            }
          }
          expect(heard[0]).toEqual(heard[1])
          expect(byForm.transientAllocator().stats()).toEqual(plain.transientAllocator().stats())
          expect(byForm.transientAllocator().lastSummary()).toEqual(plain.transientAllocator().lastSummary())
        }
        replay(resolveConfig({}), cloneAt)
        // Then a model of another config through the same descs: the form numbers it learnt are the other model's.
        replay(resolveConfig({ 'transient.minimumHeapSize': 1 << 20 }), -1)
      }),
      { numRuns: runs(100) },
    )
  })
})
