import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { attemptToImportVma } from '../../../../../src/main/ingest/importers/vma'
import { runCheck } from '../../../../../src/main/cli/check'
import { vulkanSetup } from '../../../../../src/main/model/vulkan/device'
import { vmaDumpView, vmaDumpDevice, VmaDumpError } from '../../../../../src/main/model/vulkan/vmaDump'
import { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanCaptureRecord } from '../../../../../src/main/model/vulkan/captureTypes'
import { readVmaDump, recorder, VMA_DUMP_PATH } from './helpers'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const dump = readVmaDump() as Json
const view = vmaDumpView(dump)

describe('a VMA dump as the Vulkan memory view', () => {
  it('counts type 1 by hand: one 32 MiB block with four 1 KiB suballocations, four 1 KiB dedicated', () => {
    const t = view.types[1]
    expect(t.memoryCount).toBe(5) // 1 block + 4 dedicated
    expect(t.allocatedBytes).toBe(33558528) // 33554432 + 4 × 1024
    expect(t.usedBytes).toBe(8192) // 8 × 1024
    expect(t.allocationCount).toBe(8)
  })

  it('agrees with the dump\'s own Stats for every type, every heap and the total', () => {
    const info = dump.MemoryInfo as Json
    for (const [heapKey, heap] of Object.entries(info) as [string, Json][]) {
      const h = view.heaps[Number(heapKey.slice(5))]
      expect([h.memoryCount, h.allocatedBytes, h.usedBytes]).toEqual([
        heap.Stats.BlockCount,
        heap.Stats.BlockBytes,
        heap.Stats.AllocationBytes,
      ])
      for (const [typeKey, type] of Object.entries(heap.MemoryPools) as [string, Json][]) {
        const t = view.types[Number(typeKey.slice(5))]
        expect([t.memoryCount, t.allocatedBytes, t.usedBytes, t.allocationCount], typeKey).toEqual([
          type.Stats.BlockCount,
          type.Stats.BlockBytes,
          type.Stats.AllocationBytes,
          type.Stats.AllocationCount,
        ])
      }
    }
    const total = dump.Total as Json
    expect(view.memories.length).toBe(total.BlockCount) // 69
    expect(view.memories.reduce((s, m) => s + m.size, 0)).toBe(total.BlockBytes)
    expect(view.memories.reduce((s, m) => s + m.allocations.length, 0)).toBe(total.AllocationCount)
  })

  it('keeps each suballocation at its offset with its kind and name', () => {
    const block = view.memories[0]
    expect(block).toMatchObject({ memory: 0, kind: 'block', type: 0, heap: 1, size: 33554432, usedBytes: 33554432 - 18987876 })
    expect(block.allocations.slice(0, 3)).toEqual([
      { offset: 0, size: 65536, kind: 'image-optimal' },
      { offset: 65536, size: 768, kind: 'buffer' },
      { offset: 66304, size: 60, kind: 'buffer' },
    ])
    expect(block.allocations.find((a) => a.name === 'SHEPURD')).toEqual({ offset: 68412, size: 1024, kind: 'unknown', name: 'SHEPURD' })
    const custom = view.memories.filter((m) => m.pool === '0')
    expect(custom.length).toBe(34) // custom pools of types 0 and 3: 1 block + 16 dedicated each
  })

  it('names what is missing in a broken dump', () => {
    expect(() => vmaDumpDevice({ ...dump, General: { ...dump.General, API: 'Direct3D 12' } })).toThrow(
      'General.API is "Direct3D 12", not "Vulkan"',
    )
    const noType3 = structuredClone(dump)
    delete noType3.MemoryInfo['Heap 0'].MemoryPools['Type 3']
    expect(() => vmaDumpDevice(noType3)).toThrow(VmaDumpError)
    expect(() => vmaDumpDevice(noType3)).toThrow('MemoryInfo has no "Type 3" under any heap')
  })
})

/** The dump as a capture writes it: each VkDeviceMemory a `heap` of its type, each suballocation bound in it. */
function dumpAsRecords(): VulkanCaptureRecord[] {
  const out: VulkanCaptureRecord[] = [{ e: 'frame', n: 0 }]
  let id = 1
  for (const m of view.memories) {
    const heap = id++
    out.push({ e: 'heap', id: heap, size: m.size, memoryType: m.type })
    for (const a of m.allocations) {
      const memoryRequirements = { size: a.size, alignment: 1, memoryTypeBits: 1 << m.type }
      if (a.kind === 'buffer' || a.kind === 'unknown') {
        out.push({ e: 'placed', id: id++, heap, offset: a.offset, kind: 'buffer', size: a.size, memoryRequirements })
      } else {
        const tiling = a.kind === 'image-linear' ? 'linear' : 'optimal'
        out.push({ e: 'placed', id: id++, heap, offset: a.offset, kind: 'texture', size: a.size, memoryRequirements, tiling })
      }
    }
  }
  return out
}

describe('a replayed capture of the dump looks like the dump', () => {
  it('has the same heap and type totals, memory by memory, and no warning', () => {
    const rec = recorder()
    const model = new VulkanModel(view.device, undefined, rec.sink)
    for (const r of dumpAsRecords()) model.apply(r)
    expect(rec.warnings).toEqual([])
    const replayed = model.view()
    expect(replayed.heaps).toEqual(view.heaps)
    expect(replayed.types).toEqual(view.types)
    expect(replayed.memories.map((m) => [m.kind, m.type, m.size, m.usedBytes, m.allocations.length])).toEqual(
      view.memories.map((m) => ['app', m.type, m.size, m.usedBytes, m.allocations.length]),
    )
    expect(replayed.memories[0].allocations.slice(0, 2).map(({ offset, size, kind }) => ({ offset, size, kind }))).toEqual([
      { offset: 0, size: 65536, kind: 'image-optimal' },
      { offset: 65536, size: 768, kind: 'buffer' },
    ])
  })
})

describe('the real dump through the importer, replayed', () => {
  it('gives the device, totals and check result of the dump itself', async () => {
    const imported = attemptToImportVma({ name: 'vma-dump-rx6600xt.json', bytes: readFileSync(VMA_DUMP_PATH) })
    expect(imported).not.toBeNull()
    const { header, records } = imported as NonNullable<typeof imported>
    const setup = vulkanSetup(header)
    expect(setup.problems).toEqual([])
    expect(setup.defaulted).toBe(false)
    expect(setup.device.memoryTypes).toEqual(view.device.memoryTypes)
    const rec = recorder()
    const model = new VulkanModel(setup.device, undefined, rec.sink)
    for (const r of records) model.apply(r)
    expect(rec.warnings).toEqual([])
    // Type 0: 34 memories, 83918848 bytes, 39781532 in use, as MemoryInfo."Heap 1".MemoryPools."Type 0".Stats says.
    expect(model.view().types).toEqual(view.types)
    expect(await runCheck(records, header)).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })
})
