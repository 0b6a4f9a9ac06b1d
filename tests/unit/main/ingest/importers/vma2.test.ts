import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CaptureRecord, HeapRecord, PlacedRecord } from '../../../../../src/shared/capture'
import { ImportError, type ImportedCapture } from '../../../../../src/main/ingest/importers/source'
import { attemptToImportVma, sniffVma } from '../../../../../src/main/ingest/importers/vma'
import { dumpCapture, fixture, utf8 } from './dump'

const heapsOf = (records: CaptureRecord[]) => records.filter((r): r is HeapRecord => r.e === 'heap')
const placedOf = (records: CaptureRecord[]) => records.filter((r): r is PlacedRecord => r.e === 'placed')
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
const VERSION2_NOTE = 'a VMA 2.x dump (the format before VMA 3.0): it names no GPU and no device limits'
const NO_MAP_NOTE =
  'the dump lists no DefaultPools, Pools or DedicatedAllocations: no blocks (an empty allocator, or a dump made without the detailed map)'

function importVma(text: string | Uint8Array, name = 'dump.json'): ImportedCapture {
  const imported = attemptToImportVma({ name, bytes: typeof text === 'string' ? utf8(text) : text })
  if (!imported) throw new Error('not recognised as a VMA dump')
  return imported
}

describe('VMA 2.x JSON dump (real: VMA 2.3 tools/VmaDumpVis/Sample.json)', () => {
  const source = fixture('real/vma2-dump-sample.json')
  const imported = importVma(source.bytes, source.name)
  const heaps = heapsOf(imported.records)
  const placed = placedOf(imported.records)

  it('is recognised from its head, which starts with Total then "Heap 0"', () => {
    expect(sniffVma(new TextDecoder().decode(source.bytes.subarray(0, 4096)))).toBe(true)
  })

  it('imports the two blocks and four allocations the file lists, with its Total agreeing', () => {
    // DefaultPools "Type 0" block 0: 33554432 bytes, IMAGE_OPTIMAL 65536 at 0, BUFFER 768 at 65536, BUFFER 60 at
    // 66304, IMAGE_OPTIMAL 7995760 at 131072; "Type 1" block 0: 33554432 bytes, all FREE. Total: 2 blocks,
    // 4 allocations, UsedBytes 8062124 = 65536 + 768 + 60 + 7995760, 3 unused ranges, UnusedBytes 59046740.
    expect(heaps.map((h) => [h.name, h.size, h.type])).toEqual([
      ['Type 0 block 0', 33554432, 'default'],
      ['Type 1 block 0', 33554432, 'upload'],
    ])
    expect(placed.map((p) => [p.heap, p.offset, p.size, p.kind])).toEqual([
      [heaps[0].id, 0, 65536, 'texture'],
      [heaps[0].id, 65536, 768, 'buffer'],
      [heaps[0].id, 66304, 60, 'buffer'],
      [heaps[0].id, 131072, 7995760, 'texture'],
    ])
    expect(sum(placed.map((p) => p.size!))).toBe(8062124)
    // Usage 130 = TRANSFER_DST | VERTEX_BUFFER, 66 = TRANSFER_DST | INDEX_BUFFER, 32 = DEPTH_STENCIL_ATTACHMENT
    expect((placed[1] as { usage?: string[] }).usage).toEqual(['VertexBuffer'])
    expect((placed[2] as { usage?: string[] }).usage).toEqual(['IndexBuffer'])
    expect((placed[3] as { flags?: string[] }).flags).toEqual(['DepthStencilTargetable'])
    expect(imported.notes).toEqual([VERSION2_NOTE])
  })

  it('reads the memory heaps and types from the top-level "Heap N" objects', () => {
    const vulkan = imported.header.vulkan as { memoryHeaps: object[]; memoryTypes: object[] }
    expect(imported.header).toMatchObject({ api: 'vulkan', source: 'vma-json', adapter: { vram: 8304721920 + 268435456 } })
    expect(vulkan.memoryHeaps).toEqual([
      { index: 0, name: 'Heap 0', flags: ['DEVICE_LOCAL'], size: 8304721920 },
      { index: 1, name: 'Heap 1', flags: [], size: 8285323264 },
      { index: 2, name: 'Heap 2', flags: ['DEVICE_LOCAL'], size: 268435456 },
    ])
    // Type 3 is listed in Heap 1 after Type 1: types come out by index
    expect(vulkan.memoryTypes).toEqual([
      { index: 0, heap: 0, flags: ['DEVICE_LOCAL'] },
      { index: 1, heap: 1, flags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
      { index: 2, heap: 2, flags: ['DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT'] },
      { index: 3, heap: 1, flags: ['HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'] },
    ])
  })

  it('matches the golden dump', async () => {
    await expect(dumpCapture(imported)).toMatchFileSnapshot('./__snapshots__/vma2-dump-sample.txt')
  })

  it('notes a Total that disagrees with the blocks', () => {
    const text = new TextDecoder().decode(source.bytes).replace('"UsedBytes": 8062124', '"UsedBytes": 8062125')
    expect(importVma(text).notes).toEqual([VERSION2_NOTE, 'Total.UsedBytes says 8062125, the imported blocks give 8062124'])
  })
})

/** One memory type's worth of a generated allocator: default-pool blocks, dedicated allocations, custom pools. */
interface GenType {
  blocks: GenRange[][]
  dedicated: { size: number; name?: string }[]
  pools: { name?: string; blocks: GenRange[][] }[]
}
interface GenRange {
  size: number
  free: boolean
  texture: boolean
  name?: string
}

const TYPE_FLAGS = [['DEVICE_LOCAL'], ['HOST_VISIBLE', 'HOST_COHERENT'], ['HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED']]

function suballocations(ranges: GenRange[], version: 2 | 3) {
  let offset = 0
  return ranges.map((r) => {
    const s: Record<string, unknown> = r.free
      ? { Offset: offset, Type: 'FREE', Size: r.size }
      : { Offset: offset, Type: r.texture ? 'IMAGE_OPTIMAL' : 'BUFFER', Size: r.size, Usage: r.texture ? 4 : 0x80 }
    if (!r.free && r.name !== undefined) s[version === 2 ? 'UserData' : 'Name'] = r.name
    offset += r.size
    return s
  })
}

function block(ranges: GenRange[], version: 2 | 3) {
  const free = ranges.filter((r) => r.free)
  return {
    TotalBytes: sum(ranges.map((r) => r.size)),
    UnusedBytes: sum(free.map((r) => r.size)),
    Allocations: ranges.length - free.length,
    UnusedRanges: free.length,
    Suballocations: suballocations(ranges, version),
  }
}

/** The same allocator state as VMA 3.x writes it. */
function dump3(types: GenType[]): object {
  const memoryPools: Record<string, object> = {}
  const defaultPools: Record<string, object> = {}
  const customPools: Record<string, object[]> = {}
  types.forEach((t, i) => {
    memoryPools[`Type ${i}`] = { Flags: TYPE_FLAGS[i] }
    defaultPools[`Type ${i}`] = {
      Blocks: Object.fromEntries(t.blocks.map((b, j) => [String(j), block(b, 3)])),
      DedicatedAllocations: t.dedicated.map((d) => ({ Type: 'BUFFER', Size: d.size, Usage: 0x80, ...(d.name ? { Name: d.name } : {}) })),
    }
    if (t.pools.length) {
      customPools[`Type ${i}`] = t.pools.map((p, j) => ({
        Name: p.name ?? `${i * 10 + j}`,
        Blocks: Object.fromEntries(p.blocks.map((b, k) => [String(k), block(b, 3)])),
      }))
    }
  })
  return {
    General: { API: 'Vulkan', GPU: 'Generated' },
    MemoryInfo: { 'Heap 0': { Flags: ['DEVICE_LOCAL'], Size: 1 << 30, MemoryPools: memoryPools } },
    DefaultPools: defaultPools,
    CustomPools: customPools,
  }
}

/**
 * The same state as VMA 2.x writes it: 2.0 with Blocks and Pools as arrays, 2.1 to 2.3 as objects by id; the
 * dedicated allocations apart, by memory type; a default pool only for a type with blocks; Total a VmaStatInfo.
 */
function dump2(types: GenType[], minor: 0 | 1 | 3): object {
  const heap: Record<string, unknown> = { Size: 1 << 30, Flags: ['DEVICE_LOCAL'] }
  if (minor === 3) heap.Budget = { BlockBytes: 0, AllocationBytes: 0, Usage: 1000, Budget: 900 << 20 }
  const dedicated: Record<string, object[]> = {}
  const defaultPools: Record<string, object> = {}
  const pools: [string, object][] = []
  const byId = <T>(list: T[]) => (minor === 0 ? list : Object.fromEntries(list.map((item, j) => [String(j), item])))
  let used = 0
  let unused = 0
  let blocks = 0
  let allocations = 0
  let ranges = 0
  const count = (list: GenRange[][]) => {
    for (const b of list) {
      blocks++
      for (const r of b) {
        if (r.free) {
          unused += r.size
          ranges++
        } else {
          used += r.size
          allocations++
        }
      }
    }
  }
  types.forEach((t, i) => {
    heap[`Type ${i}`] = { Flags: TYPE_FLAGS[i] }
    if (t.blocks.length) defaultPools[`Type ${i}`] = { PreferredBlockSize: 1 << 28, Blocks: byId(t.blocks.map((b) => block(b, 2))) }
    if (t.dedicated.length) {
      dedicated[`Type ${i}`] = t.dedicated.map((d) => ({
        Type: 'BUFFER',
        Size: d.size,
        ...(d.name ? { UserData: d.name } : {}),
        CreationFrameIndex: 0,
        LastUseFrameIndex: 0,
        Usage: 0x80,
      }))
    }
    count(t.blocks)
    for (const d of t.dedicated) {
      blocks++
      allocations++
      used += d.size
    }
    t.pools.forEach((p, j) => {
      count(p.blocks)
      const id = `${i * 10 + j}`
      pools.push([id, { ...(p.name ? { Name: p.name } : {}), MemoryTypeIndex: i, BlockSize: 1 << 28, BlockCount: { Cur: p.blocks.length }, Blocks: byId(p.blocks.map((b) => block(b, 2))) }])
    })
  })
  const out: Record<string, unknown> = {
    Total: { Blocks: blocks, Allocations: allocations, UnusedRanges: ranges, UsedBytes: used, UnusedBytes: unused },
    'Heap 0': heap,
  }
  if (Object.keys(dedicated).length) out.DedicatedAllocations = dedicated
  if (Object.keys(defaultPools).length) out.DefaultPools = defaultPools
  // 2.x names pools by id; a custom pool's id stands where 3.x would write its index, so the labels agree
  if (pools.length) out.Pools = minor === 0 ? pools.map(([, p]) => p) : Object.fromEntries(pools)
  return out
}

/** What a person sees of an import: each heap with its allocations, in an order that does not depend on the file's. */
function layout(imported: ImportedCapture) {
  const placed = placedOf(imported.records)
  return heapsOf(imported.records)
    .map((h) => ({
      size: h.size,
      type: h.type,
      memoryType: (h as { memoryType?: number }).memoryType,
      placed: placed.filter((p) => p.heap === h.id).map((p) => [p.offset, p.size, p.kind, p.name ?? null, p.tag]),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
}

describe('generated VMA 2.x dumps (2.0, 2.1 and 2.3 layouts)', () => {
  const name = fc.option(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,12}$/), { nil: undefined })
  const range = fc.record({ size: fc.integer({ min: 1, max: 1 << 20 }), free: fc.boolean(), texture: fc.boolean(), name })
  const blocks = fc.array(fc.array(range, { minLength: 1, maxLength: 8 }), { maxLength: 3 })
  const type = fc.record({
    blocks,
    dedicated: fc.array(fc.record({ size: fc.integer({ min: 1, max: 1 << 24 }), name }), { maxLength: 3 }),
    pools: fc.array(fc.record({ name: fc.option(fc.constantFrom('Streaming', 'Particles'), { nil: undefined }), blocks }), { maxLength: 2 }),
  })

  it('import as the same heaps and allocations as the 3.x dump of the same state, with their own Total agreeing', () => {
    fc.assert(
      fc.property(fc.array(type, { minLength: 1, maxLength: 3 }), fc.constantFrom<0 | 1 | 3>(0, 1, 3), (types, minor) => {
        const v3 = importVma(JSON.stringify(dump3(types), null, 2))
        const v2 = importVma(JSON.stringify(dump2(types, minor), null, minor === 0 ? 1 : 2))
        const fix = layout
        expect(fix(v2).length).toBe(fix(v3).length)
        expect(fix(v2).map((h) => [h.size, h.type, h.memoryType, h.placed.map((p) => p.slice(0, 4))])).toEqual(
          fix(v3).map((h) => [h.size, h.type, h.memoryType, h.placed.map((p) => p.slice(0, 4))]),
        )
        const empty = types.every((t) => !t.blocks.length && !t.dedicated.length && !t.pools.length)
        expect(v2.notes).toEqual(empty ? [VERSION2_NOTE, NO_MAP_NOTE] : [VERSION2_NOTE])
        expect(v2.header.vulkan).toMatchObject({ memoryTypes: types.map((_, i) => ({ index: i, heap: 0, flags: TYPE_FLAGS[i] })) })
      }),
      { seed: 20190405, numRuns: 80 },
    )
  })

  it('name a field of the wrong type by its 2.x path', () => {
    const types: GenType[] = [{ blocks: [], dedicated: [{ size: 64 }], pools: [{ blocks: [[{ size: 8, free: false, texture: false }]] }] }]
    const dedicated = JSON.stringify(dump2(types, 1)).replace('"Size":64', '"Size":-1')
    expect(() => importVma(dedicated)).toThrow('DedicatedAllocations."Type 0"[0].Size: expected a non-negative integer, found number -1')
    const pool = JSON.stringify(dump2(types, 1)).replace('"MemoryTypeIndex":0', '"MemoryTypeIndex":"zero"')
    expect(() => importVma(pool)).toThrow('Pools."0".MemoryTypeIndex: expected a non-negative integer, found string "zero"')
    const array = JSON.stringify(dump2(types, 0)).replace('"TotalBytes":8', '"TotalBytes":"8"')
    expect(() => importVma(array)).toThrow(ImportError)
    expect(() => importVma(array)).toThrow('Pools[0].Blocks[0].TotalBytes: expected a non-negative integer, found string "8"')
  })

  it('takes a UserData string as the name, and a pointer written as hex digits as none', () => {
    const types: GenType[] = [
      {
        blocks: [[{ size: 16, free: false, texture: false, name: 'Terrain.VB' }, { size: 16, free: false, texture: false, name: '000001D85B8B1A80' }]],
        dedicated: [],
        pools: [],
      },
    ]
    const imported = importVma(JSON.stringify(dump2(types, 3)))
    expect(placedOf(imported.records).map((p) => p.name)).toEqual(['Terrain.VB', undefined])
    expect(imported.notes).toContain('UserData "000001D85B8B1A80" is a pointer, not a name: the allocation is left unnamed')
    // VMA 2.3's per-heap Budget: Budget and Usage
    expect(imported.header.budget).toBe(900 << 20)
  })
})
