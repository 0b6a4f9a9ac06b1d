/**
 * The memory pools' block maps as poolBlocks() gives them (the block table filled in its index order, at places a
 * walk of the lists' links gave) against the plain walk along each pool's list, reading every block and its owner
 * as it goes; and the live table's pool names against the pools looked up one resource at a time. Random streams
 * that leak and release (blocks coalesce and their rows are released in the table), defragment, stage uploads
 * (one slot owning many blocks), lock, and go on in plain and packed copies, as snapshots restore them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BufferUsage, TextureFlag } from '../../../../../src/shared/capture'
import { KiB, MiB } from '../../../../../src/shared/units'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import { Kind, SlotState } from '../../../../../src/main/model/d3d12/allocations'
import type { Allocations } from '../../../../../src/main/model/d3d12/allocations'
import type { PoolFamily } from '../../../../../src/main/model/d3d12/families'
import { BlockState, NONE } from '../../../../../src/main/model/d3d12/memoryPool'
import type { BlockTable } from '../../../../../src/main/model/d3d12/memoryPool'
import { livePoolName } from '../../../../../src/main/model/d3d12/views'
import { newModel } from './helpers'
import { runs } from '../../../../properties'

/** Small pools: a few hundred requests make dozens of pools and thousands of blocks. */
const CONFIG = {
  'bufferPool.size': 1 * MiB,
  'bufferPool.maxAllocation': 512 * KiB,
  'texturePool.readOnly.size': 2 * MiB,
  'texturePool.readOnly.maxAllocation': 2 * MiB,
  'texturePool.readOnly4K.size': 256 * KiB,
  'texturePool.readOnly4K.maxAllocation': 256 * KiB,
  'upload.bigBlock.poolSize': 256 * KiB,
  'upload.bigBlock.maxAllocation': 1 * MiB,
  'pool.emptyFramesBeforeRelease': 2,
  'defrag.enabled': 1,
  'defrag.maxCopyPerFrame': 512 * KiB,
  'defrag.maxPoolsPerFrame': 2,
}

type Op =
  | { k: 'buffer'; size: number; usage: BufferUsage[] }
  | { k: 'texture'; width: number; height: number; mips: number; flags: TextureFlag[] }
  | { k: 'release'; pick: number }
  | { k: 'frame' }
  | { k: 'upload'; bytes: number; count: number }
  | { k: 'lock'; pick: number; bytes: number }

const usages: BufferUsage[][] = [['Static'], ['Static', 'VertexBuffer'], ['UnorderedAccess', 'StructuredBuffer'], ['Dynamic']]

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant('buffer' as const),
      size: fc.oneof(fc.integer({ min: 0, max: 16 * KiB }), fc.integer({ min: 16 * KiB, max: 700 * KiB })),
      usage: fc.constantFrom(...usages),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('texture' as const),
      width: fc.integer({ min: 1, max: 1024 }),
      height: fc.integer({ min: 1, max: 1024 }),
      mips: fc.integer({ min: 1, max: 11 }),
      flags: fc.constantFrom<TextureFlag[]>(['ShaderResource'], ['ShaderResource'], ['RenderTargetable']),
    }),
  },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('frame' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('upload' as const), bytes: fc.integer({ min: 1, max: 300 * KiB }), count: fc.integer({ min: 1, max: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('lock' as const), pick: fc.nat(), bytes: fc.integer({ min: 1, max: 64 * KiB }) }) },
)

/** The model's tables the plain walk reads. */
interface Inner {
  blocks: BlockTable
  allocs: Allocations
  families: PoolFamily[]
}

/** One memory pool's map as the plain walk makes it. */
interface PlainPool {
  pool: number
  name: string
  offset: number[]
  size: number[]
  state: number[]
  id: number[]
}

/** Every memory pool (each family's pools, then its spare) with its blocks, walked along its list. */
function plainWalk(m: D3D12Model): PlainPool[] {
  const { blocks: b, allocs: a, families } = m as unknown as Inner
  const out: PlainPool[] = []
  for (const fam of families) {
    const pools = fam.pools()
    if (fam.spare) pools.push(fam.spare)
    for (const pool of pools) {
      const p: PlainPool = { pool: pool.id, name: pool.name || `${fam.spec.name}/spare`, offset: [], size: [], state: [], id: [] }
      for (let k = pool.head; k !== NONE; k = b.next[k]) {
        p.offset.push(b.offset[k])
        p.size.push(b.size[k])
        if (b.state[k] === BlockState.Allocated) {
          const owner = b.owner[k]
          const kind = a.kind[owner]
          p.state.push(a.state[owner] === SlotState.Pending ? 2 : 1)
          p.id.push(kind === Kind.Buffer || kind === Kind.Texture ? a.id[owner] : NaN)
        } else {
          p.state.push(0)
          p.id.push(NaN)
        }
      }
      out.push(p)
    }
  }
  return out
}

/** poolBlocks()'s memory pools (the first ones it lists), as plain arrays. */
function memoryPools(m: D3D12Model, count: number): PlainPool[] {
  return m
    .poolBlocks()
    .slice(0, count)
    .map((p) => ({ pool: p.pool, name: p.name, offset: Array.from(p.offset), size: Array.from(p.size), state: Array.from(p.state), id: Array.from(p.id) }))
}

/** Block rows the table holds that no pool's list holds (released by coalescing or a destroyed pool). */
function releasedRows(m: D3D12Model, plain: PlainPool[]): number {
  return (m as unknown as Inner).blocks.count - plain.reduce((n, p) => n + p.offset.length, 0)
}

function check(m: D3D12Model): number {
  const plain = plainWalk(m)
  expect(memoryPools(m, plain.length)).toEqual(plain)
  // The live table names each resource's pool as the resource's own view does (a look-up of its pool by id).
  const table = m.liveTable()
  expect(Array.from({ length: table.length }, (_, i) => livePoolName(table, i))).toEqual(m.liveAllocations().map((r) => r.poolName))
  return releasedRows(m, plain)
}

function apply(m: D3D12Model, o: Op, live: number[], state: { id: number; frame: number }): void {
  const pick = (n: number) => live[n % live.length]
  switch (o.k) {
    case 'buffer':
      m.createBuffer(state.id, { size: o.size, usage: o.usage })
      live.push(state.id++)
      return
    case 'texture':
      m.createTexture(state.id, { dim: '2d', format: 'R8G8B8A8_UNORM', width: o.width, height: o.height, mips: o.mips, flags: o.flags })
      live.push(state.id++)
      return
    case 'release':
      if (live.length === 0) return
      m.release(pick(o.pick))
      live.splice(o.pick % live.length, 1)
      return
    case 'frame':
      m.beginFrame(++state.frame)
      return
    case 'upload':
      m.upload('staging', o.bytes, o.count)
      return
    case 'lock':
      if (live.length > 0) m.lock(pick(o.pick), o.bytes)
      return
  }
}

describe('the memory pools’ block maps', () => {
  it('are the plain walk along each pool’s list, in the model and in its plain and packed copies', () => {
    let released = 0
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 100, maxLength: 400, size: 'max' }),
        fc.nat(),
        fc.constantFrom('none', 'copy', 'packed'),
        (stream, cut, copy) => {
          let m = newModel(CONFIG)
          const live: number[] = []
          const state = { id: 1, frame: 0 }
          const at = cut % stream.length
          let earlier: D3D12Model | null = null
          stream.forEach((o, i) => {
            if (i === at && copy !== 'none') {
              // A snapshot's model: a copy of a checkpoint's, restored, then replayed on.
              earlier = m
              m = (copy === 'packed' ? m.clone({}, { packed: true }) : m).clone({})
            }
            apply(m, o, live, state)
            if (o.k === 'frame' && i % 3 === 0) released += check(m)
          })
          released += check(m)
          // A smaller, older model after a larger one: the places kept between calls cover only the larger table.
          if (earlier !== null) check(earlier)
        },
      ),
      { numRuns: runs(40) },
    )
    // The streams released block rows (coalesced blocks, destroyed pools): the walk skipped rows in no list.
    expect(released).toBeGreaterThan(0)
  })

  it('list a big-block staging slot’s many blocks, each pending and nameless', () => {
    // 256 KiB pools: six copies of 100 KiB are two blocks of 102 400 bytes in each of three pools (one slot owns
    // all six), 57 344 bytes left free in each; the spare stays whole.
    const m = newModel(CONFIG)
    m.beginFrame(1)
    for (let i = 0; i < 6; i++) m.upload('staging', 100 * KiB, 1)
    const pools = memoryPools(m, plainWalk(m).length).filter((p) => p.name.startsWith('UPLOAD/BigBlock'))
    expect(pools.map((p) => p.name)).toEqual(['UPLOAD/BigBlock/0', 'UPLOAD/BigBlock/1', 'UPLOAD/BigBlock/2', 'UPLOAD/BigBlock/spare'])
    for (const p of pools.slice(0, 3)) {
      expect(p.offset).toEqual([0, 102400, 204800])
      expect(p.size).toEqual([102400, 102400, 57344])
      expect(p.state).toEqual([2, 2, 0])
      expect(p.id).toEqual([NaN, NaN, NaN])
    }
    expect(pools[3].state).toEqual([0])
    check(m)
  })
})
