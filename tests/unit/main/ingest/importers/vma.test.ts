import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CaptureRecord, HeapRecord, PlacedRecord } from '../../../../../src/shared/capture'
import { attemptToImportGpgmm } from '../../../../../src/main/ingest/importers/gpgmm'
import { ImportError, type ImportedCapture } from '../../../../../src/main/ingest/importers/source'
import { attemptToImportVma } from '../../../../../src/main/ingest/importers/vma'
import { dumpCapture, fixture, utf16, utf8 } from './dump'
import { runs } from '../../../../properties'

const heapsOf = (records: CaptureRecord[]) => records.filter((r): r is HeapRecord => r.e === 'heap')
const placedOf = (records: CaptureRecord[]) => records.filter((r): r is PlacedRecord => r.e === 'placed')
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

function importVma(bytes: Uint8Array, name = 'dump.json'): ImportedCapture {
  const imported = attemptToImportVma({ name, bytes })
  if (!imported) throw new Error('not recognised as a VMA dump')
  return imported
}

/** No two placements of a heap share a byte, and each lies inside its heap. */
function expectPlacementsTile(records: CaptureRecord[]): void {
  const heaps = new Map(heapsOf(records).map((h) => [h.id, h]))
  const byHeap = new Map<number, PlacedRecord[]>()
  for (const p of placedOf(records)) byHeap.set(p.heap, [...(byHeap.get(p.heap) ?? []), p])
  for (const [heapId, placed] of byHeap) {
    const heap = heaps.get(heapId)!
    placed.sort((a, b) => a.offset - b.offset)
    let end = 0
    for (const p of placed) {
      expect(p.offset).toBeGreaterThanOrEqual(end)
      end = p.offset + p.size!
      expect(end).toBeLessThanOrEqual(heap.size)
    }
  }
}

describe('VMA JSON dump (real, AMD Radeon RX 6600 XT)', () => {
  const source = fixture('real/vma-dump-rx6600xt.json')
  const imported = importVma(source.bytes, source.name)
  const heaps = heapsOf(imported.records)
  const placed = placedOf(imported.records)

  it('has the block and allocation totals worked out by hand from the file', () => {
    // node -e 'const d=JSON.parse(fs.readFileSync(F)); for each pool of DefaultPools and of CustomPools[*][*]:
    //   each block of p.Blocks → a block of b.TotalBytes, each non-FREE suballocation → an allocation of s.Size;
    //   each of p.DedicatedAllocations → a block and an allocation of a.Size'
    // gives 69 blocks, 201392128 bytes, 132 allocations, 73401500 bytes (3 + 2 blocks, 16 + 4 + 12 + 16 + 16 dedicated)
    expect(heaps.length).toBe(69)
    expect(sum(heaps.map((h) => h.size))).toBe(201392128)
    expect(placed.length).toBe(132)
    expect(sum(placed.map((p) => p.size!))).toBe(73401500)
    expect(imported.notes).toEqual([])
  })

  it('types each heap by its memory type flags', () => {
    // Type 0 DEVICE_LOCAL: its default pool (1 block + 16 dedicated) and one custom pool (1 + 16) → 34 default
    // heaps of 2 × 33554432 + 32 dedicated (8 × 1024 + 8 × 1024 + 8 × 2048 + 8 × 2097152) = 83918848 bytes, as
    // MemoryInfo "Heap 1" Stats say. Type 1 HOST_VISIBLE|HOST_COHERENT: 1 block + 4 × 1024 → 5 upload heaps,
    // 33558528 bytes. Type 3 HOST_CACHED: 2 blocks + 12 + 16 dedicated → 30 readback heaps, 83914752 bytes.
    const byKind = (kind: string) => heaps.filter((h) => h.type === kind)
    expect(byKind('default').length).toBe(34)
    expect(sum(byKind('default').map((h) => h.size))).toBe(83918848)
    expect(byKind('upload').length).toBe(5)
    expect(sum(byKind('upload').map((h) => h.size))).toBe(33558528)
    expect(byKind('readback').length).toBe(30)
    expect(sum(byKind('readback').map((h) => h.size))).toBe(83914752)
  })

  it('places allocations by kind, name, usage and tag', () => {
    // 34 IMAGE_OPTIMAL + 32 IMAGE_LINEAR are textures; 34 BUFFER + 32 UNKNOWN are buffers; 64 carry a Name
    expect(placed.filter((p) => p.kind === 'texture').length).toBe(66)
    expect(placed.filter((p) => p.kind === 'buffer').length).toBe(66)
    expect(placed.filter((p) => p.name !== undefined).length).toBe(64)
    expect(placed.filter((p) => p.kind === 'texture' && p.flags?.includes('NoTiling')).length).toBe(32)
    // "Type 0" block 0: 20 allocations; the second is a BUFFER of 768 bytes at 65536 with Usage 130
    // (TRANSFER_DST | VERTEX_BUFFER), the 17th an IMAGE_OPTIMAL of 6095200 bytes at 131072 with Usage 32
    // (DEPTH_STENCIL_ATTACHMENT)
    const first = placed.filter((p) => p.heap === heaps[0].id)
    // each block names its memory type for the Vulkan model
    expect(heaps[0]).toEqual({ e: 'heap', id: 1, size: 33554432, type: 'default', name: 'Type 0 block 0', memoryType: 0, memory: 'type 0 DEVICE_LOCAL' })
    expect(first.length).toBe(20)
    expect(first[1]).toMatchObject({ offset: 65536, kind: 'buffer', size: 768, usage: ['VertexBuffer'], tag: 'Type 0' })
    expect(first[15]).toMatchObject({ offset: 131072, kind: 'texture', size: 6095200, flags: ['DepthStencilTargetable'] })
    // the block's FREE ranges (196 at 74556, 48128 at 82944, 65184 at 6226272, 18874368 at 14680064) are its
    // UnusedBytes 18987876; the 20 allocations hold the other 33554432 − 18987876 = 14566556 bytes
    expect(sum(first.map((p) => p.size!))).toBe(14566556)
    expectPlacementsTile(imported.records)
  })

  it('puts everything in frame 0 and fills the header from General and MemoryInfo', () => {
    expect(imported.records[0]).toEqual({ e: 'frame', n: 0 })
    expect(imported.records.filter((r) => r.e === 'frame').length).toBe(1)
    expect(imported.format).toBe('vma-json')
    const h = imported.header
    expect(h).toMatchObject({ format: 'heapscope-capture', version: 1, api: 'vulkan', source: 'vma-json' })
    // "Heap 1" is the only DEVICE_LOCAL heap: Size 8573157376, BudgetBytes 7737008128
    expect(h.adapter).toEqual({ name: 'AMD Radeon RX 6600 XT', vram: 8573157376 })
    expect(h.budget).toBe(7737008128)
    const vulkan = h.vulkan as Record<string, unknown>
    expect(vulkan).toMatchObject({ maxMemoryAllocationCount: 4096, bufferImageGranularity: 1, nonCoherentAtomSize: 128 })
    expect(vulkan.memoryTypes).toHaveLength(8)
    expect((vulkan.memoryTypes as { flags: string[] }[])[3]).toEqual({
      index: 3,
      heap: 0,
      flags: ['HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'],
    })
  })

  it('matches the golden dump', async () => {
    await expect(dumpCapture(imported)).toMatchFileSnapshot('./__snapshots__/vma-dump-rx6600xt.txt')
  })

  it('notes a Total that disagrees with the blocks', () => {
    const text = new TextDecoder().decode(source.bytes).replace('"BlockCount": 69', '"BlockCount": 70')
    expect(importVma(utf8(text)).notes).toEqual(['Total.BlockCount says 70, the imported blocks give 69'])
  })

  it('gives an ImportError at the byte where a truncated dump stops', () => {
    // cut at byte 5000: the text ends inside MemoryInfo; 168 newlines come before byte 5000 → line 169
    const error = catchImport(() => importVma(source.bytes.subarray(0, 5000), 'cut.json'))
    expect(error).toMatchObject({ file: 'cut.json', offset: 5000, line: 169 })
    // byte 4999 is inside the string "IMAGE_OPTIMAL" of the first suballocation of DefaultPools "Type 0"
    expect(error.message).toBe(`cut.json: line 169, byte 5000: the dump is not valid JSON: expected a closing '"' (the text looks truncated), found the end of the text`)
  })

  it('gives an ImportError at the byte of a corrupted character', () => {
    // the ':' after "BlockBytes" of Total is byte 344, on line 15
    const bytes = source.bytes.slice()
    expect(String.fromCharCode(bytes[344])).toBe(':')
    bytes[344] = 0x3b
    expect(catchImport(() => importVma(bytes))).toMatchObject({ offset: 344, line: 15 })
  })

  it('gives an ImportError naming the field when a value has the wrong type', () => {
    const text = new TextDecoder().decode(source.bytes).replace('"TotalBytes": 33554432', '"TotalBytes": "big"')
    expect(catchImport(() => importVma(utf8(text))).message).toContain(
      'DefaultPools."Type 0".Blocks."0".TotalBytes: expected a non-negative integer, found string "big"',
    )
  })

  it('is not a GPGMM trace', () => {
    expect(attemptToImportGpgmm(source)).toBeNull()
  })
})

describe('D3D12MA JSON dump (hand-written, UTF-16 LE with BOM)', () => {
  const source = fixture('d3d12ma-dump-utf16.json')
  const imported = importVma(source.bytes, source.name)
  const heaps = heapsOf(imported.records)
  const placed = placedOf(imported.records)

  it('imports with heap types DEFAULT, UPLOAD and READBACK', () => {
    // DEFAULT: its block, 2 dedicated, the "Streaming" custom pool's block; UPLOAD: its block and the CUSTOM pool
    // (MEMORY_POOL_L0 + WRITE_COMBINE); READBACK: its block
    expect(heaps.map((h) => [h.name, h.type])).toEqual([
      ['DEFAULT block 0', 'default'],
      ['DEFAULT dedicated 0', 'default'],
      ['DEFAULT dedicated 1', 'default'],
      ['UPLOAD block 0', 'upload'],
      ['READBACK block 0', 'readback'],
      ['DEFAULT pool 0 - Streaming block 0', 'default'],
      ['CUSTOM pool 0 - Staging block 0', 'upload'],
    ])
    // totals as the file's README works them out: 7 blocks, 155189248 bytes, 12 allocations, 73662464 bytes
    expect(sum(heaps.map((h) => h.size))).toBe(155189248)
    expect(placed.length).toBe(12)
    expect(sum(placed.map((p) => p.size!))).toBe(73662464)
    expect(imported.notes).toEqual([])
    expectPlacementsTile(imported.records)
  })

  it('reads the names as D3D12MA escapes them, and D3D12 resource flags as usage', () => {
    const byName = new Map(placed.map((p) => [p.name, p]))
    expect(byName.get('Capture décor')).toMatchObject({ kind: 'buffer', usage: [], tag: 'READBACK' })
    expect(byName.get('T_Rock_N 岩石')).toMatchObject({ kind: 'texture', dim: '2d', tag: 'DEFAULT pool 0 - Streaming' })
    expect(byName.get('Meshes/Rock.VB')).toMatchObject({ kind: 'buffer', offset: 0, size: 16777216 })
    // Usage 10 = ALLOW_DEPTH_STENCIL | DENY_SHADER_RESOURCE; 5 = ALLOW_RENDER_TARGET | ALLOW_UNORDERED_ACCESS
    const texture = (name: string) => byName.get(name) as Extract<PlacedRecord, { kind: 'texture' }>
    const buffer = (name: string) => byName.get(name) as Extract<PlacedRecord, { kind: 'buffer' }>
    expect(texture('SceneDepth').flags).toEqual(['DepthStencilTargetable'])
    expect(texture('GBufferA').flags).toEqual(['ShaderResource', 'RenderTargetable', 'UAV'])
    expect(texture('VolumetricFog').dim).toBe('3d')
    expect(buffer('LightGrid').usage).toEqual(['ShaderResource', 'UnorderedAccess'])
  })

  it('fills the header from General and the local segment group', () => {
    expect(imported.header).toMatchObject({
      api: 'd3d12',
      source: 'd3d12ma-json',
      adapter: { name: 'NVIDIA GeForce RTX 3070', vram: 8384413696, resourceHeapTier: 2, uma: false },
      // not UMA: L1 is video memory
      budget: 7473381376,
    })
    expect(imported.header.d3d12).toMatchObject({ GPUUploadHeapSupported: true, SharedSystemMemory: 17112760320 })
  })

  it('matches the golden dump', async () => {
    await expect(dumpCapture(imported)).toMatchFileSnapshot('./__snapshots__/d3d12ma-dump-utf16.txt')
  })

  it('reads the same dump in UTF-16 BE and in UTF-8', () => {
    const text = new TextDecoder('utf-16le').decode(source.bytes.subarray(2))
    expect(importVma(utf16(text, 'be')).records).toEqual(imported.records)
    expect(importVma(utf8(text)).records).toEqual(imported.records)
  })

  it('names the byte offset of a truncation in UTF-16', () => {
    // cut after 1000 units: byte 2 + 2 × 1000 = 2002
    expect(catchImport(() => importVma(source.bytes.subarray(0, 2002))).offset).toBe(2002)
  })

  it('reads a tier-1 adapter’s committed allocations once, though the writer lists them under each sub-pool', () => {
    // D3D12MA on resource heap tier 1 writes "DEFAULT - Buffers", "- Textures", "- Textures RT/DS", each with the
    // heap type's one list of committed allocations: 1 block of 4194304 + 1 dedicated of 1048576 = 2 blocks
    const dedicated = [{ Type: 'BUFFER', Size: 1048576, Usage: 0 }]
    const pool = (blocks: object) => ({ Flags: [], PreferredBlockSize: 67108864, Blocks: blocks, DedicatedAllocations: dedicated })
    const dump = {
      General: { API: 'Direct3D 12', GPU: 'Tier 1 GPU', ResourceHeapTier: 1, UMA: false },
      Total: { BlockCount: 2, BlockBytes: 5242880, AllocationCount: 2, AllocationBytes: 2097152, UnusedRangeCount: 1 },
      MemoryInfo: { L0: { Budget: { BudgetBytes: 1, UsageBytes: 0 } }, L1: { Budget: { BudgetBytes: 2, UsageBytes: 0 } } },
      DefaultPools: {
        'DEFAULT - Buffers': pool({
          '0': {
            TotalBytes: 4194304,
            UnusedBytes: 3145728,
            Allocations: 1,
            UnusedRanges: 1,
            Suballocations: [
              { Offset: 0, Type: 'BUFFER', Size: 1048576, Usage: 0 },
              { Offset: 1048576, Type: 'FREE', Size: 3145728 },
            ],
          },
        }),
        'DEFAULT - Textures': pool({}),
        'DEFAULT - Textures RT/DS': pool({}),
      },
    }
    const result = importVma(utf8(JSON.stringify(dump)))
    expect(heapsOf(result.records).map((h) => h.name)).toEqual(['DEFAULT - Buffers block 0', 'DEFAULT - Buffers dedicated 0'])
    expect(result.notes).toEqual([])
  })

  it('notes overlapping and unlisted ranges', () => {
    const dump = {
      General: { API: 'Vulkan', GPU: 'G' },
      Total: { BlockCount: 1, BlockBytes: 4096, AllocationCount: 2, AllocationBytes: 3072, UnusedRangeCount: 0 },
      MemoryInfo: { 'Heap 0': { Flags: ['DEVICE_LOCAL'], Size: 1 << 30, MemoryPools: { 'Type 0': { Flags: ['DEVICE_LOCAL'] } } } },
      DefaultPools: {
        'Type 0': {
          Blocks: {
            '0': {
              TotalBytes: 4096,
              UnusedBytes: 0,
              Allocations: 2,
              UnusedRanges: 0,
              Suballocations: [
                { Offset: 0, Type: 'BUFFER', Size: 2048 },
                { Offset: 1024, Type: 'BUFFER', Size: 1024 },
              ],
            },
          },
        },
      },
    }
    expect(importVma(utf8(JSON.stringify(dump))).notes).toEqual([
      'DefaultPools."Type 0".Blocks."0".Suballocations[1]: offset 1024 overlaps the range before it, which ends at 2048',
      'DefaultPools."Type 0".Blocks."0": bytes 2048–4096 at the end of the block are neither allocated nor listed as FREE',
    ])
  })
})

describe('generated dumps', () => {
  it('import every block and allocation, tiled, with totals equal to the generator’s', () => {
    // a block is a list of ranges, each an allocation or FREE, tiling it from 0
    const range = fc.record({ size: fc.integer({ min: 1, max: 1 << 20 }), free: fc.boolean(), texture: fc.boolean() })
    const block = fc.array(range, { minLength: 1, maxLength: 12 })
    const pool = fc.record({ blocks: fc.array(block, { maxLength: 4 }), dedicated: fc.array(fc.integer({ min: 1, max: 1 << 24 }), { maxLength: 3 }) })
    fc.assert(
      fc.property(fc.array(pool, { minLength: 1, maxLength: 4 }), fc.constantFrom<'le' | 'be' | 'utf8'>('le', 'be', 'utf8'), (pools, encoding) => {
        let blocks = 0
        let blockBytes = 0
        let allocations = 0
        let allocationBytes = 0
        let unused = 0
        const defaultPools: Record<string, object> = {}
        const memoryPools: Record<string, object> = {}
        pools.forEach((p, t) => {
          memoryPools[`Type ${t}`] = { Flags: t % 2 ? ['HOST_VISIBLE', 'HOST_COHERENT'] : ['DEVICE_LOCAL'] }
          const jsonBlocks: Record<string, object> = {}
          p.blocks.forEach((ranges, b) => {
            let offset = 0
            const suballocations = ranges.map((r) => {
              const s = r.free
                ? { Offset: offset, Type: 'FREE', Size: r.size }
                : { Offset: offset, Type: r.texture ? 'IMAGE_OPTIMAL' : 'BUFFER', Size: r.size, Usage: 4 }
              offset += r.size
              if (r.free) unused++
              else {
                allocations++
                allocationBytes += r.size
              }
              return s
            })
            blocks++
            blockBytes += offset
            jsonBlocks[String(b)] = {
              TotalBytes: offset,
              UnusedBytes: sum(ranges.filter((r) => r.free).map((r) => r.size)),
              Allocations: ranges.filter((r) => !r.free).length,
              UnusedRanges: ranges.filter((r) => r.free).length,
              Suballocations: suballocations,
            }
          })
          for (const size of p.dedicated) {
            blocks++
            blockBytes += size
            allocations++
            allocationBytes += size
          }
          defaultPools[`Type ${t}`] = {
            PreferredBlockSize: 1 << 28,
            Blocks: jsonBlocks,
            DedicatedAllocations: p.dedicated.map((Size) => ({ Type: 'BUFFER', Size, Usage: 0 })),
          }
        })
        const dump = {
          General: { API: 'Vulkan', GPU: 'Generated' },
          Total: { BlockCount: blocks, BlockBytes: blockBytes, AllocationCount: allocations, AllocationBytes: allocationBytes, UnusedRangeCount: unused },
          MemoryInfo: { 'Heap 0': { Flags: ['DEVICE_LOCAL'], Size: 1 << 30, MemoryPools: memoryPools } },
          DefaultPools: defaultPools,
        }
        const text = JSON.stringify(dump, null, 2)
        const bytes = encoding === 'utf8' ? utf8(text) : utf16(text, encoding)
        const result = importVma(bytes)
        const heaps = heapsOf(result.records)
        const placed = placedOf(result.records)
        expect(heaps.length).toBe(blocks)
        expect(sum(heaps.map((h) => h.size))).toBe(blockBytes)
        expect(placed.length).toBe(allocations)
        expect(sum(placed.map((p) => p.size!))).toBe(allocationBytes)
        expect(result.notes).toEqual([])
        expectPlacementsTile(result.records)
        // ids are unique across heaps and placed resources
        const ids = result.records.flatMap((r) => ('id' in r ? [r.id] : []))
        expect(new Set(ids).size).toBe(ids.length)
      }),
      { numRuns: runs(60) },
    )
  })
})

describe('not a dump', () => {
  it('returns null for JSON of another shape and for non-JSON', () => {
    expect(attemptToImportVma({ name: 'x.json', bytes: utf8('{"hello": {"API": "Vulkan"}}') })).toBeNull()
    expect(attemptToImportVma({ name: 'x.json', bytes: utf8('[1, 2, 3]') })).toBeNull()
    expect(attemptToImportVma({ name: 'x.bin', bytes: new Uint8Array([0x1f, 0x8b, 8, 0]) })).toBeNull()
    expect(attemptToImportVma({ name: 'x.json', bytes: new Uint8Array() })).toBeNull()
  })
})

function catchImport(run: () => unknown): ImportError {
  try {
    run()
  } catch (error) {
    if (error instanceof ImportError) return error
    throw error
  }
  throw new Error('expected an ImportError')
}
