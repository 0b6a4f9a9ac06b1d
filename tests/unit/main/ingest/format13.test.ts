import { describe, expect, it } from 'vitest'
import { CaptureNames } from '../../../../src/main/analysis/names'
import { countResources } from '../../../../src/main/analysis/d3d12/report'
import { vulkanFigures } from '../../../../src/main/analysis/vulkan/report'
import { recordAt } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { MINOR_UPGRADERS, upgradeMinor } from '../../../../src/main/ingest/versions'
import { scan } from './helpers'

/** What the Vulkan layer writes, by hand: a memory, two buffers bound in it, names, a stack, a driver report. */
const HEADER = {
  format: 'heapscope-capture',
  version: 1,
  minor: 3,
  api: 'vulkan',
  vulkan: {
    memoryHeaps: [{ size: 1 << 30, flags: ['DEVICE_LOCAL'], budget: 900 << 20, usage: 0 }],
    memoryTypes: [{ heapIndex: 0, propertyFlags: ['DEVICE_LOCAL', 'HOST_VISIBLE', 'HOST_COHERENT'] }],
    maxMemoryAllocationCount: 4096,
    bufferImageGranularity: 64,
    nonCoherentAtomSize: 64,
  },
  recorder: { layer: 'VK_LAYER_HEAPSCOPE_capture', version: '1.0.0', pid: 7, framesFrom: 'present', stacks: true },
}
const RECORDS = [
  { e: 'stack', id: 1, frames: [{ module: '/usr/bin/game', offset: 4242 }, { address: 140737354130000 }] },
  { e: 'heap', id: 10, size: 65536, memoryType: 0, priority: 0.5, stack: 1 },
  { e: 'buffer', id: 1, size: 1024, usage: ['VertexBuffer'], explicit: true, memoryRequirements: { size: 1024, alignment: 256, memoryTypeBits: 1 }, vkUsage: 128, stack: 1 },
  { e: 'buffer', id: 2, size: 512, usage: ['Uniform'], explicit: true, memoryRequirements: { size: 512, alignment: 256, memoryTypeBits: 1 }, vkUsage: 16 },
  { e: 'bind', id: 1, memory: 10, offset: 0 },
  { e: 'bind', id: 2, memory: 10, offset: 1024 },
  { e: 'name', id: 1, name: 'Mesh.VB' },
  { e: 'name', memory: 10, name: 'Block' },
  { e: 'report', type: 'allocate', memoryObjectId: 99, size: 65536, objectType: 8, heap: 0, id: 10 },
  { e: 'frame', n: 1, t: 16.5 },
  { e: 'budget', bytes: 800 << 20, heap: 0, heapUsage: 65536 },
  { e: 'name', id: 2, name: 'Frame.UBO' },
  { e: 'frame', n: 2, t: 33 },
  { e: 'name', id: 1, name: 'Mesh.VB.Old' },
  { e: 'release', id: 1 },
  // the id again, for another buffer: the old names are not its names
  { e: 'buffer', id: 1, size: 256, usage: ['Uniform'], explicit: true },
  { e: 'frame', n: 3, t: 50 },
]
const TEXT = [HEADER, ...RECORDS].map((r) => JSON.stringify(r)).join('\n') + '\n'

describe('capture format 1.3 (recorded programs)', () => {
  it('upgrades 1.2 headers by the minor alone, and reads 1.3 records without a warning', () => {
    expect(MINOR_UPGRADERS[2].header({ format: 'heapscope-capture', version: 1, minor: 2, api: 'vulkan' } as never)).toEqual({
      format: 'heapscope-capture',
      version: 1,
      minor: 3,
      api: 'vulkan',
    })
    expect((upgradeMinor({ format: 'heapscope-capture', version: 1, minor: 1 } as never, 3) as unknown as { minor: number }).minor).toBe(3)
    const { store, error } = scan(TEXT, 7)
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({})
    expect(store.frames.length).toBe(4)
    expect((store.header as unknown as { recorder: { framesFrom: string } }).recorder.framesFrom).toBe('present')
  })

  it('keeps name, stack and report records whole, and the new fields on heaps and buffers', () => {
    const { store } = scan(TEXT)
    const of = (kind: number) => {
      const out: unknown[] = []
      for (let i = 0; i < store.records.length; i++) if (store.records.kind[i] === kind) out.push(recordAt(store, i))
      return out
    }
    expect(of(RECORD_KIND.stack)).toEqual([RECORDS[0]])
    expect(of(RECORD_KIND.report)).toEqual([RECORDS[8]])
    // heapUsage, not usage: that name is a buffer's usages, and a budget record would lose it
    expect(of(RECORD_KIND.budget)).toEqual([RECORDS[10]])
    expect(of(RECORD_KIND.name).map((r) => (r as { name: string }).name)).toEqual(['Mesh.VB', 'Block', 'Frame.UBO', 'Mesh.VB.Old'])
    expect(of(RECORD_KIND.heap)[0]).toMatchObject({ id: 10, memoryType: 0, priority: 0.5, stack: 1 })
    expect(of(RECORD_KIND.buffer)[0]).toMatchObject({ id: 1, vkUsage: 128, stack: 1 })
  })

  it('names a resource by the latest name given by the end of a frame, after its create', () => {
    const { store } = scan(TEXT)
    const names = new CaptureNames(store)
    const end = (frame: number) => (frame + 1 < store.frames.length ? store.frames.firstRecord[frame + 1] : store.records.length)
    const create = (id: number, nth = 0) => {
      let seen = 0
      for (let i = 0; i < store.records.length; i++) {
        if (store.records.kind[i] === RECORD_KIND.buffer && store.buffers.id.data[store.records.ref[i]] === id && seen++ === nth) return i
      }
      return -1
    }
    expect(names.count).toBe(4)
    expect(names.resource(1, create(1), end(0))).toBe('Mesh.VB')
    expect(names.resource(2, create(2), end(0))).toBeUndefined()
    expect(names.resource(2, create(2), end(1))).toBe('Frame.UBO')
    expect(names.resource(1, create(1), end(2))).toBe('Mesh.VB.Old')
    // the second buffer with id 1 was never named
    expect(names.resource(1, create(1, 1), end(3))).toBeUndefined()
    expect(names.memory(10, -1, end(0))).toBe('Block')
  })

  it('counts the names, the binds inside a shared allocation and the stacks', () => {
    const { store } = scan(TEXT)
    // three buffers created, one released; buffers 1 and 2 named by name records, the second id 1 not
    expect(countResources(store)).toEqual({ created: 3, released: 1, named: 2, liveAtEnd: 2 })
    expect(vulkanFigures(store)).toMatchObject({
      allocations: 1,
      binds: 2,
      bindsAtOffset: 1,
      sharedAllocations: 1,
      names: 4,
      stacks: 1,
      driverReports: 1,
    })
  })

  it('reads a capture cut inside its last line up to the line before, with a warning', () => {
    const cut = TEXT.slice(0, TEXT.length - 12)
    const { store, error } = scan(cut)
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({ truncatedLastLine: 1 })
    // the cut `frame 3` is lost; everything before it is there
    expect(store.frames.length).toBe(3)
    expect(store.records.length).toBe(RECORDS.length - 1)
  })
})
