import { beforeAll, describe, expect, it } from 'vitest'
import { runGen, SCENARIOS } from '../../../../src/main/cli/gen'
import { GiB, KiB, MiB } from '../../../../src/shared/units'
import { check, generate, type CaptureStats, type Rec } from './check'

const fail = (message: string): never => {
  throw new Error(message)
}

type Buffer_ = Extract<Rec, { e: 'buffer' }>
type Texture = Extract<Rec, { e: 'texture' }>
const buffers = (s: CaptureStats): Buffer_[] => s.records.filter((r): r is Buffer_ => r.e === 'buffer')
const textures = (s: CaptureStats): Texture[] => s.records.filter((r): r is Texture => r.e === 'texture')

/**
 * The D3D12 scenarios, format 1.0, which check() reads; the Vulkan ones (1.1) are tested in
 * tests/unit/main/gen/scenarios/vulkan.test.ts.
 */
const D3D12_SCENARIOS = SCENARIOS.filter((s) => !s.name.startsWith('vulkan'))

describe('gen: every scenario', () => {
  it('lists nine scenarios with descriptions and default frame counts', () => {
    expect(SCENARIOS.map((s) => s.name)).toEqual([
      'deferred',
      'streaming',
      'raytracing',
      'leak',
      'budget-drop',
      'stress',
      'demo',
      'vulkan',
      'vulkan-hazards',
    ])
    for (const s of SCENARIOS) {
      expect(s.description.length).toBeGreaterThan(20)
      expect(s.defaultFrames).toBeGreaterThanOrEqual(300)
    }
  })

  it('refuses an unknown scenario, naming the valid ones', async () => {
    await expect(runGen('forward', {}, () => {})).rejects.toThrow(/unknown scenario "forward".*\n.*deferred[\s\S]*demo/)
    await expect(runGen('deferred', { frames: 0 }, () => {})).rejects.toThrow(/frames/)
    await expect(runGen('deferred', { frames: 2, seed: 1.5 }, () => {})).rejects.toThrow(/seed/)
  })

  for (const { name } of D3D12_SCENARIOS) {
    describe(name, () => {
      const frames = name === 'leak' || name === 'demo' || name === 'streaming' ? 300 : 120
      let text = ''
      let stats: CaptureStats
      beforeAll(async () => {
        text = await generate(name, frames, 7)
        stats = check(text, fail)
      })

      it('parses line by line into valid records, frames 1..N in order, ids alive once, releases of live ids', () => {
        expect(stats.frames).toEqual(Array.from({ length: frames }, (_, i) => i + 1))
        expect(stats.lines).toBeGreaterThan(frames * 10)
      })

      it('writes the same bytes for the same seed and different ones for another seed', async () => {
        expect(await generate(name, frames, 7)).toBe(text)
        expect(await generate(name, frames, 8)).not.toBe(text)
      })

      it('puts frame times in milliseconds at about 60 frames a second', () => {
        const times = stats.records.filter((r) => r.e === 'frame').map((r) => (r as { t: number }).t)
        const mean = (times[times.length - 1] - times[0]) / (times.length - 1)
        // 1000 / 60 = 16.67 ms, plus the occasional hitch of a few ms.
        expect(mean).toBeGreaterThan(15)
        expect(mean).toBeLessThan(19)
      })

      it('reuses ids after their release, and carries names and tags on what it creates', () => {
        expect(stats.reusedIds).toBeGreaterThan(0)
        for (const r of [...buffers(stats), ...textures(stats)]) {
          expect(r.name, JSON.stringify(r)).toBeTruthy()
          expect(r.tag, JSON.stringify(r)).toBeTruthy()
        }
      })

      it('gives the driver size and alignment for some textures and leaves them out for others', () => {
        const all = textures(stats)
        const given = all.filter((t) => t.size !== undefined)
        expect(given.length).toBeGreaterThan(all.length * 0.2)
        expect(given.length).toBeLessThan(all.length * 0.8)
        for (const t of given) {
          expect(t.align, JSON.stringify(t)).toBeDefined()
          expect(t.size! % t.align!).toBe(0)
        }
      })
    })
  }

  it('scales its record count linearly with the frames', async () => {
    for (const { name } of SCENARIOS) {
      const count = async (frames: number): Promise<number> => {
        return (await runGen(name, { frames, seed: 3 }, () => {})).records
      }
      const [a, b, c] = [await count(200), await count(400), await count(600)]
      // Past the first frame's loading, every 200 frames add about as many records as the 200 before.
      expect((c - b) / (b - a), name).toBeGreaterThan(0.8)
      expect((c - b) / (b - a), name).toBeLessThan(1.25)
    }
  })
})

describe('gen deferred', () => {
  let stats: CaptureStats
  beforeAll(async () => {
    stats = check(await generate('deferred', 200, 11), fail)
  })

  it('runs two render graphs a frame with at least 200 transients and 40 to 120 passes each', () => {
    expect(stats.transientsPerFrame).toHaveLength(200)
    expect(Math.min(...stats.transientsPerFrame)).toBeGreaterThanOrEqual(200)
    expect(stats.graphPasses).toHaveLength(400)
    expect(Math.min(...stats.graphPasses)).toBeGreaterThanOrEqual(40)
    expect(Math.max(...stats.graphPasses)).toBeLessThanOrEqual(120)
  })

  it('gives transients lifetimes that let them alias: many end before others begin', () => {
    const graph: Extract<Rec, { e: 'transient' }>[] = []
    for (const r of stats.records) {
      if (r.e === 'transient') graph.push(r)
      if (r.e === 'endgraph') break
    }
    let disjoint = 0
    for (const a of graph) for (const b of graph) if (a.last < b.first) disjoint++
    expect(disjoint).toBeGreaterThan(graph.length * 10)
    const names = new Set(graph.map((t) => t.name))
    const gbuffer = ['GBufferA', 'GBufferB', 'GBufferC', 'GBufferD', 'GBufferE']
    for (const n of [...gbuffer, 'SceneDepthZ', 'SceneColor', 'HZBFurthest', 'ShadowMaskTexture']) {
      expect(names, n).toContain(n)
    }
  })

  it('creates mesh buffers as UE does: static vertex buffers, 16- or 32-bit index buffers, with initial data', () => {
    const meshes = buffers(stats).filter((b) => b.tag === 'Meshes')
    const vb = meshes.filter((b) => b.name!.startsWith('SM_') && b.name!.endsWith('.VB'))
    const ib = meshes.filter((b) => b.name!.startsWith('SM_') && b.name!.endsWith('.IB'))
    expect(vb.length).toBeGreaterThan(100)
    for (const b of vb) expect(b.usage).toEqual(['Static', 'VertexBuffer'])
    for (const b of [...vb, ...ib]) expect(b.init).toBe(true)
    for (const b of ib) expect([2, 4]).toContain(b.stride)
    // Positions are three floats per vertex.
    for (const b of vb) expect(b.size % 12).toBe(0)
  })

  it('keeps multi-frame uniform buffers in the upload allocator, writes three upload streams every frame', () => {
    const uniforms = buffers(stats).filter((b) => b.usage?.includes('Uniform'))
    expect(uniforms.length).toBeGreaterThan(1000)
    for (const b of uniforms) expect(b.usage).toEqual(['Uniform', 'Dynamic'])
    const uploads = stats.records.filter((r) => r.e === 'upload') as Extract<Rec, { e: 'upload' }>[]
    expect(uploads.filter((u) => u.via === 'fastConstant')).toHaveLength(200)
    expect(uploads.filter((u) => u.via === 'fast')).toHaveLength(200)
    expect(uploads.filter((u) => u.via === 'staging')).toHaveLength(200)
  })

  it('stages the initial data of every buffer created with it, and every lock, in the frame it happens', () => {
    let needed = 0
    let staged = 0
    let frames = 0
    const close = (): void => {
      expect(staged).toBeGreaterThanOrEqual(needed)
      if (needed > 0) frames++
      needed = 0
      staged = 0
    }
    for (const r of stats.records) {
      if (r.e === 'frame') close()
      if (r.e === 'buffer' && r.init) needed += r.size
      if (r.e === 'lock') needed += r.bytes
      if (r.e === 'upload' && r.via === 'staging') staged += r.bytes
    }
    close()
    expect(frames).toBeGreaterThan(0)
  })
})

describe('gen streaming', () => {
  let stats: CaptureStats
  beforeAll(async () => {
    stats = check(await generate('streaming', 300, 5), fail)
  })

  it('streams block-compressed mip chains 256 to 8192 texels wide, recreated as the camera moves', () => {
    const streamed = textures(stats).filter((t) => t.flags.includes('Streamable'))
    expect(streamed.length).toBeGreaterThan(500)
    for (const t of streamed) {
      expect(t.tag).toBe('Textures')
      expect(t.format).toMatch(/^BC[1457]_/)
    }
    // Each is a full mip chain of a power-of-two size, square or twice as wide as high: dropping the top mips
    // of a 2048² texture leaves a whole 256² chain (9 mips), not a 2048² one with fewer mips.
    for (const t of streamed) {
      expect([64, 128, 256, 512, 1024, 2048, 4096, 8192]).toContain(t.width)
      expect([t.width, t.width / 2]).toContain(t.height)
      expect(t.mips).toBe(Math.log2(t.width) + 1)
    }
    // The asset sizes themselves: the widest chain of each texture.
    const widest = new Map<string, number>()
    for (const t of streamed) widest.set(t.name!, Math.max(widest.get(t.name!) ?? 0, t.width))
    expect(Math.max(...widest.values())).toBeGreaterThanOrEqual(4096)
    expect(Math.min(...widest.values())).toBeLessThanOrEqual(512)
    // The same texture comes back with other mip counts.
    const byName = new Map<string, Set<number>>()
    for (const t of streamed) byName.set(t.name!, (byName.get(t.name!) ?? new Set()).add(t.mips ?? 1))
    expect([...byName.values()].filter((m) => m.size > 1).length).toBeGreaterThan(50)
  })

  it('names what each frame draws, a set that drifts, and fences the GPU 1 to 3 frames behind', () => {
    const perFrame: Set<number>[] = []
    for (const r of stats.records) {
      if (r.e === 'frame') perFrame.push(new Set())
      if (r.e === 'use') for (const id of r.ids) perFrame[perFrame.length - 1].add(id)
    }
    expect(perFrame.every((s) => s.size > 0)).toBe(true)
    const first = perFrame[10]
    const last = perFrame[perFrame.length - 1]
    const kept = [...first].filter((id) => last.has(id)).length
    expect(kept).toBeLessThan(first.size)
    expect(stats.gpuLags.length).toBeGreaterThan(150)
    expect(Math.min(...stats.gpuLags)).toBeGreaterThanOrEqual(1)
    expect(Math.max(...stats.gpuLags)).toBeLessThanOrEqual(3)
  })

  it('sets a budget below the peak of the bytes alive, so the residency manager must evict', () => {
    // The peak counts buffers and textures alive at once (driver sizes, or texels alone): a floor.
    expect(stats.header.budget).toBe(3.75 * GiB)
    expect(stats.peakBytes).toBeGreaterThan(stats.header.budget * 1.02)
    expect(stats.header.budget).toBeLessThan(stats.header.adapter.vram)
  })
})

describe('gen raytracing', () => {
  let stats: CaptureStats
  beforeAll(async () => {
    stats = check(await generate('raytracing', 120, 1), fail)
  })

  it('builds acceleration structures of 64 KiB to 32 MiB, some past the 16 MiB pool limit', () => {
    const as = buffers(stats).filter((b) => b.usage?.includes('AccelerationStructure'))
    const blas = as.filter((b) => b.name!.includes('.BLAS'))
    expect(blas.length).toBeGreaterThan(100)
    for (const b of blas) {
      expect(b.size).toBeGreaterThanOrEqual(64 * KiB)
      expect(b.size).toBeLessThanOrEqual(32 * MiB)
      expect(b.state).toBe('single')
    }
    expect(blas.filter((b) => b.size > 16 * MiB).length).toBeGreaterThan(0)
    // Compaction: each compacted BLAS replaces a bigger uncompacted one of the same mesh.
    expect(blas.filter((b) => b.name!.endsWith('.Compacted')).length).toBeGreaterThan(50)
  })

  it('rebuilds the TLAS every frame, with scratch in the default state and 64-byte shader tables', () => {
    const tlas = buffers(stats).filter((b) => b.name === 'RayTracingScene.TLAS')
    expect(tlas).toHaveLength(120)
    const scratch = buffers(stats).filter((b) => b.name!.endsWith('BuildScratch'))
    for (const b of scratch) {
      expect(b.usage).toEqual(['UnorderedAccess'])
      expect(b.state).toBeUndefined()
    }
    const tables = buffers(stats).filter((b) => b.name!.endsWith('ShaderBindingTable'))
    expect(tables.length).toBeGreaterThanOrEqual(2)
    for (const b of tables) {
      expect(b.state).toBe('multi')
      expect(b.stride).toBe(64)
      expect(b.size % 64).toBe(0)
    }
  })
})

describe('gen leak', () => {
  it('spawns a system every few frames whose buffers are never released, while the others are', async () => {
    const stats = check(await generate('leak', 600, 2), fail)
    const leaked = buffers(stats).filter((b) => b.name!.startsWith('NS_Footstep_Dust.'))
    // One spawn every 4 to 9 frames: between 600/9 and 600/4 spawns of 2 or 3 buffers each.
    expect(leaked.length).toBeGreaterThanOrEqual(Math.floor(600 / 9) * 2)
    expect(leaked.length).toBeLessThanOrEqual((600 / 4 + 1) * 3)
    for (const b of leaked) {
      expect(stats.liveAtEnd.get(b.id)).toBe(b)
      expect(b.tag).toBe('Particles')
    }
    const others = buffers(stats).filter(
      (b) => b.tag === 'Particles' && b.name!.startsWith('NS_') && !b.name!.startsWith('NS_Footstep'),
    )
    const released = others.filter((b) => stats.liveAtEnd.get(b.id) !== b)
    expect(released.length).toBeGreaterThan(others.length / 4)
  })
})

describe('gen stress', () => {
  let stats: CaptureStats
  beforeAll(async () => {
    stats = check(await generate('stress', 300, 3), fail)
  })

  it('leaks 2 to 4 impostors a frame (a color atlas, maybe a normal atlas and a card buffer), never released', () => {
    const leaked = stats.records.filter(
      (r): r is Buffer_ | Texture => (r.e === 'buffer' || r.e === 'texture') && r.tag === 'Impostors',
    )
    const colors = leaked.filter((r) => r.name!.endsWith('_D'))
    // 2 to 4 actors a frame for 300 frames.
    expect(colors.length).toBeGreaterThanOrEqual(600)
    expect(colors.length).toBeLessThanOrEqual(1200)
    // The normal atlas half the time, the cards four times in five: about 2.3 resources an actor.
    expect(leaked.length / colors.length).toBeGreaterThan(2)
    expect(leaked.length / colors.length).toBeLessThan(2.6)
    for (const r of leaked) expect(stats.liveAtEnd.get(r.id)).toBe(r)
    // Atlases of 128² to 2048², full mip chains.
    for (const t of colors as Texture[]) {
      expect([128, 256, 512, 1024, 2048]).toContain(t.width)
      expect(t.mips).toBe(Math.log2(t.width) + 1)
    }
  })

  it('climbs past the 6 GiB budget at a steady pace while the churn around it stays level', () => {
    expect(stats.budgets).toEqual([6 * GiB])
    // 2.3 resources an actor of about 2 MiB, 3 actors a frame: 300 frames leave about 2 GiB and churn.
    expect(stats.peakBytes).toBeGreaterThan(1 * GiB)
    const alive = stats.liveAtEnd.size
    const churn = [...stats.liveAtEnd.values()].filter((r) => (r as { tag?: string }).tag !== 'Impostors').length
    // 45 to 65 a frame for 60 to 300 frames, and none older than 300 frames.
    expect(churn).toBeGreaterThan(5000)
    expect(alive - churn).toBeGreaterThan(1300)
  })

  it('runs one render graph of 30 transients a frame, names 8 ids a use record, and uploads three ways', () => {
    expect(stats.transientsPerFrame).toEqual(Array(300).fill(30))
    expect(stats.graphPasses).toHaveLength(300)
    const uses = stats.records.filter((r): r is Extract<Rec, { e: 'use' }> => r.e === 'use')
    expect(uses).toHaveLength(300 * 24)
    for (const u of uses) expect(u.ids).toHaveLength(8)
    const uploads = stats.records.filter((r): r is Extract<Rec, { e: 'upload' }> => r.e === 'upload')
    for (const via of ['fastConstant', 'fast', 'staging']) expect(uploads.filter((u) => u.via === via)).toHaveLength(300)
  })
})

describe('gen budget-drop', () => {
  it('drops the budget from 7 GiB to 3 GiB at 40 % of the frames, below the peak, then gives some back', async () => {
    const stats = check(await generate('budget-drop', 200, 4), fail)
    expect(stats.budgets).toEqual([7 * GiB, 3 * GiB, 4.5 * GiB])
    const frameOf = (bytes: number): number => {
      let frame = 0
      for (const r of stats.records) {
        if (r.e === 'frame') frame = r.n
        if (r.e === 'budget' && r.bytes === bytes) return frame
      }
      return -1
    }
    // 200 * 0.4 = 80, 200 * 0.8 = 160.
    expect(frameOf(3 * GiB)).toBe(80)
    expect(frameOf(4.5 * GiB)).toBe(160)
    expect(stats.peakBytes).toBeGreaterThan(3 * GiB * 1.05)
    expect(stats.records.filter((r) => r.e === 'use').length).toBeGreaterThan(200)
  })
})

describe('gen demo', () => {
  let text = ''
  let stats: CaptureStats
  beforeAll(async () => {
    text = await generate('demo', 300, 1)
    stats = check(text, fail)
  })

  it('stays under 2 MB at its 300 default frames', async () => {
    expect(stats.bytes).toBeLessThan(2_000_000)
    const { records } = await runGen('demo', {}, () => {})
    expect(records).toBe(stats.lines)
  })

  it('touches every part of the model', () => {
    const b = buffers(stats)
    const has = (what: string, test: (r: Buffer_) => boolean): void => expect(b.some(test), what).toBe(true)
    has('a reserved buffer', (r) => !!r.usage?.includes('ReservedResource'))
    has(
      'an acceleration structure past 16 MiB',
      (r) => !!r.usage?.includes('AccelerationStructure') && r.size > 16 * MiB,
    )
    has(
      'an acceleration structure within the pool',
      (r) => !!r.usage?.includes('AccelerationStructure') && r.size <= 16 * MiB,
    )
    has('a small readback buffer', (r) => r.heap === 'readback' && r.size <= 64 * KiB)
    has('a large readback buffer', (r) => r.heap === 'readback' && r.size > 64 * KiB)
    has('a uniform buffer', (r) => !!r.usage?.includes('Uniform'))
    has(
      'a dynamic buffer past 64 KiB',
      (r) => !!r.usage?.includes('Dynamic') && !r.usage.includes('Uniform') && r.size > 64 * KiB,
    )
    has('a UAV buffer', (r) => !!r.usage?.includes('UnorderedAccess') && !r.usage.includes('AccelerationStructure'))
    has('a structured buffer', (r) => !!r.usage?.includes('StructuredBuffer'))
    has('a static mesh buffer', (r) => r.tag === 'Meshes')
    const t = textures(stats)
    expect(t.some((r) => r.flags.includes('CPUReadback')), 'a CPUReadback texture').toBe(true)
    expect(t.some((r) => r.flags.includes('RenderTargetable')), 'a render target').toBe(true)
    const small = t.some((r) => r.width * r.height <= 128 * 128 && !r.flags.includes('RenderTargetable'))
    expect(small, 'a small texture').toBe(true)
    const kinds = new Set(stats.records.map((r) => r.e))
    for (const kind of ['commit', 'lock', 'use', 'budget', 'gpu', 'upload', 'graph', 'transient', 'endgraph']) {
      expect(kinds, kind).toContain(kind)
    }
    // A budget near the peak (the pools' granularity puts the model over it), a drop well below, a recovery.
    expect(stats.budgets).toEqual([Math.round(1.6 * GiB), 1 * GiB, 2 * GiB])
    expect(stats.peakBytes).toBeGreaterThan(1.25 * GiB)
    expect(stats.peakBytes).toBeLessThan(2 * GiB)
  })
})

describe('the capture checker the scenario tests rely on', () => {
  const header =
    '{"format":"heapscope-capture","version":1,"app":"A","captured":"2026-01-01T00:00:00Z",' +
    '"adapter":{"name":"G","vram":1024,"resourceHeapTier":2,"uma":false},"budget":512}\n'
  const frame = '{"e":"frame","n":1,"t":0}'
  const run = (...lines: string[]) => () => check(header + lines.join('\n') + '\n', fail)

  it('accepts a valid capture and counts its peak', () => {
    // 1000 bytes of buffer, then a 4×4 BC1 texture (one 8-byte block) while the buffer lives: 1008.
    const texture = '{"e":"texture","id":2,"format":"BC1_UNORM","width":4,"height":4,"flags":[]}'
    const stats = run(frame, '{"e":"buffer","id":1,"size":1000}', texture, '{"e":"release","id":1}')()
    expect(stats.peakBytes).toBe(1008)
  })

  it('catches what the scenarios must never write', () => {
    expect(run(frame, '{"e":"release","id":4}')).toThrow(/release of id 4, not live/)
    expect(run(frame, '{"e":"buffer","id":1,"size":16}', '{"e":"buffer","id":1,"size":16}')).toThrow(
      /created while live/,
    )
    expect(run('{"e":"frame","n":2,"t":0}', frame)).toThrow(/frame 1 after 2/)
    const graph = '{"e":"graph","name":"G"}'
    const transient = (first: number, last: number): string =>
      `{"e":"transient","id":3,"kind":"buffer","size":16,"first":${first},"last":${last}}`
    expect(run(frame, graph, transient(2, 5), '{"e":"endgraph","passes":5}')).toThrow(/pass 5 of 5/)
    expect(run(frame, graph, transient(4, 2))).toThrow(/first 4 > last 2/)
    expect(run(frame, '{"e":"transient","id":3,"kind":"buffer","size":16,"first":0,"last":0}')).toThrow(
      /outside a graph/,
    )
    expect(run(frame, '{"e":"buffer","id":1,"size":16,"strid":4}')).toThrow(/strid/)
    expect(run(frame, '{"e":"texture","id":1,"format":"BC9_UNORM","width":4,"height":4,"flags":[]}')).toThrow(/DXGI/)
    expect(run(frame, '{"e":"buffer","id":1,"size":-16}')).toThrow()
    expect(run(frame, '{"e":"use","ids":[9]}')).toThrow(/use of 9, not live/)
    expect(run('{"e":"buffer","id":1,"size":16}')).toThrow(/before the first frame/)
  })
})
