import { describe, expect, it } from 'vitest'
import { KiB, MiB } from '../../../../../src/shared/units'
import { bufferAlignment, Usage } from '../../../../../src/main/model/d3d12/ladder'
import { NOT_FILLED, type D3D12Model, type ModelPlacement } from '../../../../../src/main/model/d3d12/model'
import { buffer, checkInvariants, newModel, pool, recordingSink } from './helpers'

describe('buffer alignment (§3.1)', () => {
  it('is 64 KiB for reserved, LCM(stride, 16) for structured and plain strided buffers, else 16', () => {
    expect(bufferAlignment(Usage.ReservedResource, 12)).toBe(64 * KiB)
    expect(bufferAlignment(Usage.StructuredBuffer, 12)).toBe(48) // lcm(12, 16) = 48
    expect(bufferAlignment(0, 12)).toBe(48) // neither ByteAddress nor DrawIndirect
    expect(bufferAlignment(Usage.StructuredBuffer | Usage.ByteAddressBuffer, 20)).toBe(80) // structured wins: lcm(20, 16)
    expect(bufferAlignment(Usage.ByteAddressBuffer, 12)).toBe(16)
    expect(bufferAlignment(Usage.DrawIndirect, 20)).toBe(16)
    expect(bufferAlignment(0, 0)).toBe(16)
    expect(bufferAlignment(0, 100)).toBe(400) // lcm(100, 16) = 400
  })
})

describe('buffer ladders and pools', () => {
  it('puts a 1 KiB static buffer in the shared pool: size 1024, alignment 16, offset 0', () => {
    const m = newModel()
    const p = buffer(m, 1, 1024, ['Static', 'VertexBuffer'])
    expect(p.placement).toBe('SharedBufferPool')
    expect(p.heap).toBe('DEFAULT')
    expect(p.alignment).toBe(16)
    expect(p.size).toBe(1024) // 256 % 16 = 0: roundUp(1024, 256) = 1024
    expect(p.offset).toBe(0)
    expect(p.poolName).toBe('DEFAULT/SingleState/0')
    expect(p.route[0]).toBe('Dynamic|Volatile|Uniform? no')
  })

  it('puts a 1 KiB UAV buffer in the placed pool, where it takes 64 KiB', () => {
    const m = newModel()
    const p = buffer(m, 1, 1024, ['UnorderedAccess'])
    expect(p.placement).toBe('PlacedBufferPool')
    expect(p.size).toBe(64 * KiB) // the placed pool aligns to 64 KiB: roundUp(1024, 65536)
    expect(p.alignment).toBe(16)
    expect(p.poolName).toBe('DEFAULT/MultiState/0')
    // A second one follows at the next 64 KiB.
    expect(buffer(m, 2, 1024, ['UnorderedAccess']).offset).toBe(64 * KiB)
  })

  it('aligns stride-12 structured buffers to 48: aligned size roundUp(size + 48, 256), offsets multiples of 48', () => {
    const m = newModel()
    // 1200 B = 100 elements. 256 % 48 = 16 ≠ 0, so the block is roundUp(1200 + 48, 256) = 1280.
    const a = buffer(m, 1, 1200, ['StructuredBuffer'], { stride: 12 })
    expect(a.alignment).toBe(48)
    expect(a.size).toBe(1280)
    expect(a.offset).toBe(0)
    // Next block starts at 1280; 1280 / 48 = 26.67, so the buffer starts at 27 × 48 = 1296.
    const b = buffer(m, 2, 1200, ['StructuredBuffer'], { stride: 12 })
    expect(b.size).toBe(1280)
    expect(b.offset).toBe(1296)
    // Third block at 2560: 2560 / 48 = 53.33 → 54 × 48 = 2592.
    const c = buffer(m, 3, 1200, ['StructuredBuffer'], { stride: 12 })
    expect(c.offset).toBe(2592)
    for (const p of [a, b, c]) expect(p.offset % 48).toBe(0)
    checkInvariants(m)
  })

  it('pools 16 MiB but sends 16 MiB + 16 to a committed resource with 64 KiB alignment', () => {
    const m = newModel()
    const pooled = buffer(m, 1, 16 * MiB)
    expect(pooled.placement).toBe('SharedBufferPool')
    expect(pooled.size).toBe(16 * MiB)
    const big = buffer(m, 2, 16 * MiB + 16)
    expect(big.placement).toBe('Committed')
    expect(big.alignment).toBe(64 * KiB)
    expect(big.size).toBe(16 * MiB + 64 * KiB) // width 16 MiB + 16 rounded up to 64 KiB
    expect(big.poolName).toBeNull()
    expect(big.route.at(-1)).toBe('size 16777232 B > bufferPool.maxAllocation 16 MiB? yes → Committed')
  })

  it('sends DrawIndirect buffers to Committed only when allowPoolAllocateIndirectArgBuffers is 0', () => {
    const pooled = buffer(newModel(), 1, 4096, ['DrawIndirect', 'UnorderedAccess'], { stride: 20 })
    expect(pooled.placement).toBe('PlacedBufferPool') // default state with UAV
    expect(pooled.alignment).toBe(16) // DrawIndirect: the stride does not count
    const off = newModel({ allowPoolAllocateIndirectArgBuffers: 0 })
    const committed = buffer(off, 1, 4096, ['DrawIndirect', 'UnorderedAccess'])
    expect(committed.placement).toBe('Committed')
    expect(committed.size).toBe(64 * KiB)
    expect(committed.route[2]).toBe(
      'DrawIndirect and allowPoolAllocateIndirectArgBuffers = 0? yes → Committed, alignment 64 KiB',
    )
  })

  it('places buffers with alignment above 256 in the placed pool at 64 KiB granularity', () => {
    const p = buffer(newModel(), 1, 1000, ['StructuredBuffer'], { stride: 100 })
    expect(p.alignment).toBe(400)
    expect(p.placement).toBe('PlacedBufferPool')
    expect(p.size).toBe(64 * KiB) // placed allocations align to the pool: roundUp(1008, 65536)
    expect(p.route).toContain('alignment 400 > 256? yes → PlacedBufferPool')
  })

  it('keeps single-state UAV buffers in a shared pool of their own key, multi-state buffers placed', () => {
    const m = newModel()
    const single = buffer(m, 1, 4096, ['UnorderedAccess'], { state: 'single' })
    expect(single.placement).toBe('SharedBufferPool')
    expect(single.poolName).toBe('DEFAULT/SingleState+UAV/0')
    const multi = buffer(m, 2, 4096, ['Static'], { state: 'multi' })
    expect(multi.placement).toBe('PlacedBufferPool')
    const plain = buffer(m, 3, 4096, ['Static'])
    expect(plain.poolName).toBe('DEFAULT/SingleState/0')
    expect(plain.pool).not.toBe(single.pool)
  })

  it('sends Shared buffers to Committed', () => {
    const p = buffer(newModel(), 1, 1024, ['Static', 'Shared'])
    expect(p.placement).toBe('Committed')
    expect(p.size).toBe(64 * KiB)
    expect(p.route.at(-1)).toBe('Shared? yes → Committed')
  })

  it('gives acceleration structures their own pool at 256 B, with high residency priority; larger ones Committed', () => {
    const rec = recordingSink()
    const m = newModel({}, {}, rec.sink)
    const as = buffer(m, 1, 1000, ['AccelerationStructure'])
    expect(as.placement).toBe('AccelerationStructurePool')
    expect(as.alignment).toBe(256)
    expect(as.size).toBe(1024) // width 1008 rounded up to 256
    expect(rec.objects.find((o) => o.label === 'DEFAULT/AccelerationStructure/0')?.priority).toBe('high')
    const big = buffer(m, 2, 16 * MiB + 1, ['AccelerationStructure'], { name: 'TLAS' })
    expect(big.placement).toBe('Committed')
    expect(big.route).toContain('size 16777232 B > asPool.maxAllocation 16 MiB? yes → Committed')
    expect(rec.objects.find((o) => o.label === 'Committed TLAS')?.priority).toBe('high')
    // A committed scratch buffer is high too; an ordinary one normal.
    buffer(m, 3, 20 * MiB, ['UnorderedAccess'], { tag: 'RayTracing', name: 'BLAS scratch' })
    buffer(m, 4, 20 * MiB, ['UnorderedAccess'], { name: 'Big UAV' })
    expect(rec.objects.find((o) => o.label === 'Committed BLAS scratch')?.priority).toBe('high')
    expect(rec.objects.find((o) => o.label === 'Committed Big UAV')?.priority).toBe('normal')
  })

  it('places readback buffers in the READBACK pool up to 64 KiB, Committed READBACK above', () => {
    const m = newModel()
    const small = buffer(m, 1, 64 * KiB, ['Static'], { heap: 'readback' })
    expect(small.placement).toBe('ReadbackPool')
    expect(small.heap).toBe('READBACK')
    expect(small.size).toBe(64 * KiB)
    expect(small.poolName).toBe('READBACK/SingleState/0')
    expect(pool(m, 'READBACK/SingleState/0').bytes).toBe(4 * MiB)
    const big = buffer(m, 2, 64 * KiB + 1, ['Static'], { heap: 'readback' })
    expect(big.placement).toBe('Committed')
    expect(big.heap).toBe('READBACK')
    expect(big.size).toBe(128 * KiB) // width 65552 rounded up to 64 KiB
  })

  it('routes Dynamic, Volatile and Uniform buffers to the upload allocator by size', () => {
    const m = newModel()
    const atSmall = buffer(m, 1, 64 * KiB, ['Dynamic'])
    expect(atSmall.placement).toBe('UploadSmallBlock')
    expect(atSmall.heap).toBe('UPLOAD')
    expect(atSmall.size).toBe(64 * KiB) // a buddy block of 512 × 2^7
    const overSmall = buffer(m, 2, 64 * KiB + 1, ['Volatile'])
    expect(overSmall.placement).toBe('UploadBigBlock')
    expect(overSmall.size).toBe(66048) // width 65552 rounded up to the 512 B pool alignment
    const atBig = buffer(m, 3, 64 * MiB, ['Dynamic'])
    expect(atBig.placement).toBe('UploadBigBlock')
    expect(atBig.size).toBe(64 * MiB)
    expect(pool(m, atBig.poolName!).bytes).toBe(64 * MiB) // larger than a 32 MiB pool: roundUpPow2, capped at 64 MiB
    const overBig = buffer(m, 4, 64 * MiB + 1, ['Dynamic'])
    expect(overBig.placement).toBe('Committed')
    expect(overBig.heap).toBe('UPLOAD')
    expect(overBig.size).toBe(64 * MiB + 64 * KiB)
    expect(overBig.alignment).toBe(64 * KiB)
    const uniform = buffer(m, 5, 100, ['Uniform'])
    expect(uniform.placement).toBe('UploadSmallBlock')
    expect(uniform.alignment).toBe(256)
    expect(uniform.size).toBe(512) // the 512 B minimum block
    checkInvariants(m)
  })

  it('pads a buddy allocation by its alignment when 512 is not a multiple of it', () => {
    const m = newModel()
    // Dynamic stride-12 buffer: alignment 48, 512 % 48 ≠ 0: 1000 + 48 = 1048 B needs a 2 KiB block.
    const p = buffer(m, 1, 1000, ['Dynamic', 'StructuredBuffer'], { stride: 12 })
    expect(p.size).toBe(2048)
    expect(p.offset % 48).toBe(0)
  })

  it('creates reserved buffers with a virtual size in 64 KiB tiles and nothing committed', () => {
    const m = newModel()
    const p = buffer(m, 1, 100000, ['ReservedResource'])
    expect(p.placement).toBe('Reserved')
    expect(p.size).toBe(128 * KiB) // 100000 rounded up to 64 KiB tiles
    expect(p.alignment).toBe(64 * KiB)
    expect(m.allocation(1)!.committed).toBe(0)
  })

  it('takes the best-fitting free block and keeps the remainder free', () => {
    const m = newModel({}, { explicitGpuFences: true })
    buffer(m, 1, 4096) // [0, 4096)
    buffer(m, 2, 256) // [4096, 4352)
    buffer(m, 3, 1024) // [4352, 5376)
    buffer(m, 4, 256) // [5376, 5632)
    m.release(1)
    m.release(3)
    m.gpuDone(0)
    // Free blocks: 1024 at 4352, 4096 at 0, and the tail. 768 B fits 1024 best.
    const p = buffer(m, 5, 768)
    expect(p.offset).toBe(4352)
    const rest = pool(m, 'DEFAULT/SingleState/0').blocks.find((b) => b.offset === 4352 + 768)
    expect(rest).toEqual({ offset: 5120, size: 256, state: 'free', id: null })
    checkInvariants(m)
  })

  it('coalesces a freed block with its free neighbours', () => {
    const m = newModel({}, { explicitGpuFences: true })
    buffer(m, 1, 1024)
    buffer(m, 2, 1024)
    buffer(m, 3, 1024)
    m.release(1)
    m.release(3)
    m.gpuDone(0)
    m.release(2)
    m.gpuDone(1)
    const blocks = pool(m, 'DEFAULT/SingleState/0').blocks
    expect(blocks).toEqual([{ offset: 0, size: 32 * MiB, state: 'free', id: null }])
  })

  it('opens a second pool when the first is full, taking the spare created ahead', () => {
    const rec = recordingSink()
    const m = newModel({}, {}, rec.sink)
    buffer(m, 1, 16 * MiB)
    buffer(m, 2, 16 * MiB) // pool 0 is full now
    const third = buffer(m, 3, 1024)
    expect(third.poolName).toBe('DEFAULT/SingleState/1')
    expect(third.offset).toBe(0)
    expect(rec.poolsCreated.map((p) => p.name)).toEqual(['DEFAULT/SingleState/0', 'DEFAULT/SingleState/1'])
    // Heap bytes: two pools in service and one spare, 3 × 32 MiB.
    const names = m.pools().map((p) => `${p.name}${p.spare ? ' (spare)' : ''}`)
    expect(names).toEqual(['DEFAULT/SingleState/0', 'DEFAULT/SingleState/1', 'DEFAULT/SingleState/spare (spare)'])
    expect(m.totals.heap(0, 0)).toBe(96 * MiB)
    checkInvariants(m)
  })

  it('takes zero-size buffers without memory', () => {
    const m = newModel()
    const p = buffer(m, 1, 0)
    expect(p.size).toBe(0)
    expect(p.poolName).toBeNull()
    expect(p.route.at(-1)).toBe('size 0: nothing allocated')
    m.release(1)
    checkInvariants(m)
  })

  it('warns about releases of unknown ids and a second create of a live id', () => {
    const rec = recordingSink()
    const m = newModel({}, {}, rec.sink)
    m.release(5)
    buffer(m, 1, 1024)
    buffer(m, 1, 2048)
    expect(rec.warnings).toEqual(['releaseOfUnknownId', 'duplicateId'])
    expect(m.liveAllocations().map((a) => a.requested)).toEqual([2048])
  })

  it('without placements, returns NOT_FILLED and still tells the sink where each create went', () => {
    const line = (p: { id: number; placement: string; offset: number; size: number }) =>
      `${p.id} ${p.placement} @${p.offset} ${p.size}`
    const placed: string[] = []
    const quiet = newModel({}, { placements: false }, { placed: (p) => placed.push(line(p)) })
    const full = newModel()
    const returned: string[] = []
    const creates: [number, (m: D3D12Model, id: number) => ModelPlacement][] = [
      [1, (m, id) => m.createBuffer(id, { size: 1024, usage: ['Static', 'VertexBuffer'] })],
      [2, (m, id) => m.createBuffer(id, { size: 1024, usage: ['UnorderedAccess'] })],
      [3, (m, id) => m.createTexture(id, { format: 'R8G8B8A8_UNORM', width: 256, height: 256 })],
    ]
    for (const [id, create] of creates) {
      expect(create(quiet, id)).toBe(NOT_FILLED)
      returned.push(line(create(full, id)))
    }
    // The shared pool's 1 KiB at 0 and the placed pool's 64 KiB at 0 (above), then the texture where a model
    // that fills its placements puts it.
    expect(placed.slice(0, 2)).toEqual(['1 SharedBufferPool @0 1024', `2 PlacedBufferPool @0 ${64 * KiB}`])
    expect(placed).toEqual(returned)
    expect(Number.isNaN(NOT_FILLED.id)).toBe(true)
    expect(() => Object.assign(NOT_FILLED, { id: 1 })).toThrow()
    // Without a sink either: the same allocations, nothing read.
    const none = newModel({}, { placements: false })
    for (const [id, create] of creates) expect(create(none, id)).toBe(NOT_FILLED)
    expect(none.liveAllocations().map(line)).toEqual(returned)
  })
})
