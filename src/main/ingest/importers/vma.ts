/**
 * Vulkan Memory Allocator and D3D12 Memory Allocator JSON statistics dumps (vmaBuildStatsString /
 * D3D12MA::Allocator::BuildStatsString, the GpuMemDump schema), and VMA 2.x dumps, the format before VMA 3.0
 * (top-level `Total`, `Heap N` with its `Type N`, `DedicatedAllocations`, `DefaultPools`, `Pools`). A dump is one
 * moment: every memory block becomes a `heap`, every allocation in it a `placed` resource at its offset, all in
 * frame 0. FREE ranges are the gaps.
 */
import { CAPTURE_FORMAT, CAPTURE_VERSION, MAX_MEMORY_LENGTH, OBSERVED_MINOR } from '../../../shared/capture'
import type {
  BufferUsage,
  CaptureHeader,
  CaptureRecord,
  HeapKind,
  HeapRecord,
  PlacedRecord,
  TextureFlag,
} from '../../../shared/capture'
import type { Bytes } from '../../../shared/units'
import {
  decodeHead,
  ImportError,
  ImportNotes,
  parseJsonSlice,
  textUnits,
  type ImportedCapture,
  type ImportSource,
} from './source'

export const VMA_FORMAT = 'vma-json'

type Json = Record<string, unknown>

/** General.API of the two writers. */
const API_VULKAN = 'Vulkan'
const API_D3D12 = 'Direct3D 12'

const HEAD_OBJECT = /^\s*\{/
const HEAD_GENERAL = /"General"\s*:\s*\{/
const HEAD_API = /"API"\s*:\s*"(?:Vulkan|Direct3D 12)"/
const HEAD_V2_TOTAL = /"Total"\s*:\s*\{/
const HEAD_V2_HEAP = /"Heap \d+"\s*:\s*\{/

/**
 * Both writers of the current format put General, with API first, at the top of the dump. VMA 2.x starts with its
 * small Total object, then "Heap 0": both within the head.
 */
export function sniffVma(head: string): boolean {
  if (!HEAD_OBJECT.test(head)) return false
  if (HEAD_GENERAL.test(head)) return HEAD_API.test(head)
  return HEAD_V2_TOTAL.test(head) && HEAD_V2_HEAP.test(head)
}

/** Why a head is not a dump this importer reads, for the message that lists every format tried. */
export function refuseVma(head: string): string {
  if (!HEAD_OBJECT.test(head)) return 'it does not start with {'
  if (HEAD_GENERAL.test(head)) return 'its "General" object has no "API": "Vulkan" or "Direct3D 12"'
  if (HEAD_V2_HEAP.test(head)) return 'it has "Heap N" objects but no "Total" object before them (VMA 2.x)'
  return 'it has neither a "General" object with "API" (VMA 3.x, D3D12MA) nor a top-level "Total" and "Heap N" objects (VMA 2.x)'
}

export interface VmaImportOptions {
  /**
   * A VMA (Vulkan) dump's blocks and allocations for the Vulkan model to replay on the dump's device, instead of the
   * observed run (what the allocator did). A D3D12MA dump is observed either way.
   */
  model?: boolean
}

export function attemptToImportVma(source: ImportSource, options: VmaImportOptions = {}): ImportedCapture | null {
  if (!sniffVma(decodeHead(source.bytes))) return null
  const text = textUnits(source.bytes)
  const root = parseJsonSlice(source.name, text, 0, text.length, 'the dump')
  const imported = new DumpReader(source.name, root).read()
  if (!options.model || imported.header.api !== 'vulkan') return imported
  // the explicit second run: the same records, not marked observed, so the Vulkan backend replays them
  const { observed: _observed, minor: _minor, ...header } = imported.header
  return { ...imported, header, trace: { kind: 'modelled', model: 'vulkan' } }
}

// D3D12_RESOURCE_FLAGS, as D3D12MA writes them in Usage.
const D3D12_ALLOW_RENDER_TARGET = 0x1
const D3D12_ALLOW_DEPTH_STENCIL = 0x2
const D3D12_ALLOW_UNORDERED_ACCESS = 0x4
const D3D12_DENY_SHADER_RESOURCE = 0x8
const D3D12_ALLOW_SIMULTANEOUS_ACCESS = 0x20
const D3D12_RAYTRACING_ACCELERATION_STRUCTURE = 0x100
/** D3D12_TEXTURE_LAYOUT_ROW_MAJOR. */
const D3D12_LAYOUT_ROW_MAJOR = 1

// VkBufferUsageFlagBits and VkImageUsageFlagBits, as VMA writes them in Usage.
const VK_BUFFER_TRANSFER_SRC = 0x1
const VK_BUFFER_UNIFORM_TEXEL = 0x4
const VK_BUFFER_STORAGE_TEXEL = 0x8
const VK_BUFFER_UNIFORM = 0x10
const VK_BUFFER_STORAGE = 0x20
const VK_BUFFER_INDEX = 0x40
const VK_BUFFER_VERTEX = 0x80
const VK_BUFFER_INDIRECT = 0x100
const VK_BUFFER_ACCELERATION_STRUCTURE_STORAGE = 0x100000
const VK_IMAGE_SAMPLED = 0x4
const VK_IMAGE_STORAGE = 0x8
const VK_IMAGE_COLOR_ATTACHMENT = 0x10
const VK_IMAGE_DEPTH_STENCIL_ATTACHMENT = 0x20
const VK_IMAGE_INPUT_ATTACHMENT = 0x80

interface Pool {
  /** Label of the pool in names and tags: "Type 0", "Type 3 pool 0 - Name", "DEFAULT", "UPLOAD pool 0". */
  label: string
  kind: HeapKind
  path: string
  /** An object of blocks by id; VMA 2.0 wrote an array. */
  blocks: unknown
  dedicated: unknown
  /** Where the dedicated allocations are, when not under the pool (VMA 2.x: `DedicatedAllocations."Type N"`). */
  dedicatedPath?: string
  /** False for D3D12MA tier-1 sub-pools after the first of a heap type: they repeat its committed list. */
  ownsDedicated: boolean
  /** Vulkan: the memory type index of the pool's blocks ("Type 3" → 3). */
  memoryType?: number
}

/** A Vulkan dump's block names its memory type, so the Vulkan model need not guess it from the heap kind. */
type DumpHeapRecord = HeapRecord & { memoryType?: number }
/** A Vulkan linear image says so: bufferImageGranularity treats it as a buffer. */
type DumpPlacedRecord = PlacedRecord & { tiling?: 'linear' }

interface Tally {
  blocks: number
  blockBytes: Bytes
  allocations: number
  allocationBytes: Bytes
  unusedRanges: number
  unusedBytes: number
  allocationMin: number
  allocationMax: number
  unusedMin: number
  unusedMax: number
}

class DumpReader {
  private readonly notes = new ImportNotes()
  private readonly records: CaptureRecord[] = [{ e: 'frame', n: 0 }]
  private nextId = 1
  private readonly tally: Tally = {
    blocks: 0,
    blockBytes: 0,
    allocations: 0,
    allocationBytes: 0,
    unusedRanges: 0,
    unusedBytes: 0,
    allocationMin: Infinity,
    allocationMax: 0,
    unusedMin: Infinity,
    unusedMax: 0,
  }
  private readonly d3d12: boolean
  /** A VMA 2.x dump: no General, memory heaps at the top level, pools by memory type index. */
  private readonly version2: boolean
  private readonly general: Json
  /** Vulkan memory type index → its property flags, from MemoryInfo. */
  private readonly typeFlags = new Map<number, string[]>()

  constructor(
    private readonly file: string,
    private readonly root: unknown,
  ) {
    const top = this.object(root, '(top level)')
    this.version2 = top.General === undefined && Object.keys(top).some((key) => indexOf(key, 'Heap ') !== undefined)
    if (this.version2) {
      this.general = {}
      this.d3d12 = false
      return
    }
    this.general = this.object(top.General, 'General')
    const api = this.general.API
    if (api !== API_VULKAN && api !== API_D3D12) this.fail('General.API', `"${API_VULKAN}" or "${API_D3D12}"`, api)
    this.d3d12 = api === API_D3D12
  }

  read(): ImportedCapture {
    const top = this.root as Json
    const header = this.header(top)
    const pools = this.version2 ? this.pools2(top) : this.pools(top)
    for (const pool of pools) this.readPool(pool)
    if (this.version2) {
      this.notes.add('version2', 'a VMA 2.x dump (the format before VMA 3.0): it names no GPU and no device limits')
      if (top.DefaultPools === undefined && top.Pools === undefined && top.DedicatedAllocations === undefined) {
        this.notes.add(
          'noDetailedMap',
          'the dump lists no DefaultPools, Pools or DedicatedAllocations: no blocks (an empty allocator, or a dump made without the detailed map)',
        )
      }
      this.checkTotals2(top.Total)
    } else {
      if (top.DefaultPools === undefined && top.CustomPools === undefined) {
        this.notes.add('noDetailedMap', 'the dump has no DefaultPools or CustomPools (made without the detailed map): no blocks')
      }
      this.checkTotals(top.Total)
    }
    // one moment of what the allocator did: its blocks, no requests a model could place
    return { header, records: this.records, format: VMA_FORMAT, notes: this.notes.list(), trace: { kind: 'observed', requests: 0 } }
  }

  // -- header -----------------------------------------------------------------------------------------------------

  private header(top: Json): CaptureHeader {
    const general: Json = {}
    for (const [key, value] of Object.entries(this.general)) if (key !== 'API' && key !== 'GPU') general[key] = value
    const gpu = typeof this.general.GPU === 'string' ? this.general.GPU : undefined
    if (!this.d3d12) {
      // 3.x: MemoryInfo."Heap i" with Budget.BudgetBytes/UsageBytes and MemoryPools."Type j"; 2.x: "Heap i" at the
      // top level with Budget.Budget/Usage (VMA 2.3) and its "Type j" objects inside it.
      const memoryInfo = this.version2 ? top : this.object(top.MemoryInfo, 'MemoryInfo')
      const prefix = this.version2 ? '' : 'MemoryInfo.'
      const budgetKey = this.version2 ? 'Budget' : 'BudgetBytes'
      const usageKey = this.version2 ? 'Usage' : 'UsageBytes'
      const memoryHeaps: Json[] = []
      const memoryTypes: Json[] = []
      let vram = 0
      let budget = 0
      let localHeaps = 0
      for (const [key, value] of Object.entries(memoryInfo)) {
        const index = indexOf(key, 'Heap ')
        if (this.version2 && index === undefined) continue
        const path = `${prefix}${JSON.stringify(key)}`
        const heap = this.object(value, path)
        const flags = this.flags(heap.Flags, `${path}.Flags`)
        const size = heap.Size === undefined ? undefined : this.integer(heap.Size, `${path}.Size`)
        const budgetInfo = heap.Budget === undefined ? {} : this.object(heap.Budget, `${path}.Budget`)
        const budgetBytes = budgetInfo[budgetKey] === undefined ? undefined : this.integer(budgetInfo[budgetKey], `${path}.Budget.${budgetKey}`)
        const usageBytes = budgetInfo[usageKey] === undefined ? undefined : this.integer(budgetInfo[usageKey], `${path}.Budget.${usageKey}`)
        memoryHeaps.push({ index, name: key, flags, size, budget: budgetBytes, usage: usageBytes })
        if (flags.includes('DEVICE_LOCAL')) {
          localHeaps++
          vram += size ?? 0
          budget += budgetBytes ?? 0
        }
        const typesPath = this.version2 ? path : `${path}.MemoryPools`
        const types = this.version2 ? heap : heap.MemoryPools === undefined ? {} : this.object(heap.MemoryPools, typesPath)
        for (const [typeKey, typeValue] of Object.entries(types)) {
          if (this.version2 && indexOf(typeKey, 'Type ') === undefined) continue
          const typePath = `${typesPath}.${JSON.stringify(typeKey)}`
          const typeFlags = this.flags(this.object(typeValue, typePath).Flags, `${typePath}.Flags`)
          const typeIndex = indexOf(typeKey, 'Type ')
          if (typeIndex !== undefined) this.typeFlags.set(typeIndex, typeFlags)
          memoryTypes.push({ index: typeIndex, heap: index, flags: typeFlags })
        }
      }
      memoryTypes.sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
      if (localHeaps === 0) this.notes.add('noLocalHeap', 'no memory heap has the DEVICE_LOCAL flag: vram and budget are unknown')
      return {
        format: CAPTURE_FORMAT,
        version: CAPTURE_VERSION,
        minor: OBSERVED_MINOR,
        api: 'vulkan',
        observed: 'vma',
        adapter: { name: gpu, vram: localHeaps ? vram : undefined },
        budget: localHeaps && budget > 0 ? budget : undefined,
        source: 'vma-json',
        vulkan: { ...general, memoryHeaps, memoryTypes },
      }
    }
    // D3D12MA: L0 is system memory and L1 video memory on a discrete GPU; a UMA adapter has only L0, and it is local.
    const memoryInfo = this.object(top.MemoryInfo, 'MemoryInfo')
    const segments: Json[] = []
    const uma = this.general.UMA === true || memoryInfo.L1 === undefined
    let budget: number | undefined
    for (const [key, value] of Object.entries(memoryInfo)) {
      const path = `MemoryInfo.${JSON.stringify(key)}`
      const segment = this.object(value, path)
      const budgetInfo = segment.Budget === undefined ? {} : this.object(segment.Budget, `${path}.Budget`)
      const budgetBytes = budgetInfo.BudgetBytes === undefined ? undefined : this.integer(budgetInfo.BudgetBytes, `${path}.Budget.BudgetBytes`)
      const usageBytes = budgetInfo.UsageBytes === undefined ? undefined : this.integer(budgetInfo.UsageBytes, `${path}.Budget.UsageBytes`)
      const local = uma ? key === 'L0' : key === 'L1'
      segments.push({ name: key, local, budget: budgetBytes, usage: usageBytes })
      if (local) budget = budgetBytes
    }
    const dedicated = this.general.DedicatedVideoMemory
    const shared = this.general.SharedSystemMemory
    const vram = typeof dedicated === 'number' && dedicated > 0 ? dedicated : uma && typeof shared === 'number' ? shared : undefined
    const tier = this.general.ResourceHeapTier
    return {
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      minor: OBSERVED_MINOR,
      api: 'd3d12',
      observed: 'vma',
      adapter: {
        name: gpu,
        vram,
        resourceHeapTier: typeof tier === 'number' ? tier : undefined,
        uma: typeof this.general.UMA === 'boolean' ? this.general.UMA : undefined,
      },
      budget: budget !== undefined && budget > 0 ? budget : undefined,
      source: 'd3d12ma-json',
      d3d12: { ...general, memorySegments: segments },
    }
  }

  // -- pools ------------------------------------------------------------------------------------------------------

  private pools(top: Json): Pool[] {
    const pools: Pool[] = []
    if (top.DefaultPools !== undefined) {
      const defaults = this.object(top.DefaultPools, 'DefaultPools')
      const committedSeen = new Set<string>()
      for (const [key, value] of Object.entries(defaults)) {
        const path = `DefaultPools.${JSON.stringify(key)}`
        const pool = this.object(value, path)
        // Tier 1: "DEFAULT - Buffers", "DEFAULT - Textures", "DEFAULT - Textures RT/DS" each repeat the heap type's one
        // list of committed allocations; read it once.
        const heapType = this.d3d12 ? key.split(' - ')[0] : key
        const ownsDedicated = !committedSeen.has(heapType)
        committedSeen.add(heapType)
        pools.push({
          label: key,
          kind: this.kindOf(key, pool.Flags, path),
          path,
          blocks: pool.Blocks,
          dedicated: pool.DedicatedAllocations,
          ownsDedicated,
          memoryType: this.memoryTypeOf(key),
        })
      }
    }
    if (top.CustomPools !== undefined) {
      const customs = this.object(top.CustomPools, 'CustomPools')
      for (const [key, value] of Object.entries(customs)) {
        const listPath = `CustomPools.${JSON.stringify(key)}`
        if (!Array.isArray(value)) this.fail(listPath, 'an array of pools', value)
        value.forEach((item, i) => {
          const path = `${listPath}[${i}]`
          const pool = this.object(item, path)
          const name = pool.Name === undefined ? String(i) : String(pool.Name)
          pools.push({
            label: `${key} pool ${name}`,
            kind: this.kindOf(key, pool.Flags, path),
            path,
            blocks: pool.Blocks,
            dedicated: pool.DedicatedAllocations,
            ownsDedicated: true,
            memoryType: this.memoryTypeOf(key),
          })
        })
      }
    }
    return pools
  }

  /**
   * VMA 2.x: DefaultPools."Type N" hold blocks; the dedicated allocations of every memory type are apart, in
   * DedicatedAllocations."Type N" (a type may have those and no default pool); custom pools are Pools, an object by
   * pool id (an array in VMA 2.0), each naming its MemoryTypeIndex.
   */
  private pools2(top: Json): Pool[] {
    const pools: Pool[] = []
    const defaults = top.DefaultPools === undefined ? {} : this.object(top.DefaultPools, 'DefaultPools')
    const dedicated = top.DedicatedAllocations === undefined ? {} : this.object(top.DedicatedAllocations, 'DedicatedAllocations')
    const keys = [...Object.keys(defaults), ...Object.keys(dedicated).filter((key) => !Object.hasOwn(defaults, key))]
    for (const key of keys) {
      const path = `DefaultPools.${JSON.stringify(key)}`
      const pool = Object.hasOwn(defaults, key) ? this.object(defaults[key], path) : {}
      pools.push({
        label: key,
        kind: this.kindOf(key, undefined, path),
        path,
        blocks: pool.Blocks,
        dedicated: dedicated[key],
        dedicatedPath: `DedicatedAllocations.${JSON.stringify(key)}`,
        ownsDedicated: true,
        memoryType: this.memoryTypeOf(key),
      })
    }
    if (top.Pools !== undefined) {
      const list = top.Pools
      const entries: [string, unknown, string][] = Array.isArray(list)
        ? list.map((item, i) => [String(i), item, `Pools[${i}]`])
        : Object.entries(this.object(list, 'Pools')).map(([id, item]) => [id, item, `Pools.${JSON.stringify(id)}`])
      for (const [id, item, path] of entries) {
        const pool = this.object(item, path)
        const type = `Type ${this.integer(pool.MemoryTypeIndex, `${path}.MemoryTypeIndex`)}`
        const name = typeof pool.Name === 'string' && pool.Name !== '' ? pool.Name : id
        pools.push({
          label: `${type} pool ${name}`,
          kind: this.kindOf(type, undefined, path),
          path,
          blocks: pool.Blocks,
          dedicated: undefined,
          ownsDedicated: true,
          memoryType: this.memoryTypeOf(type),
        })
      }
    }
    return pools
  }

  /** The memory type index of a Vulkan pool key that MemoryInfo lists; undefined for D3D12 and unknown types. */
  private memoryTypeOf(key: string): number | undefined {
    if (this.d3d12) return undefined
    const index = indexOf(key, 'Type ')
    return index !== undefined && this.typeFlags.has(index) ? index : undefined
  }

  /** Heap kind of a pool key: a Vulkan memory type by its flags, a D3D12 heap type by name (CUSTOM by its flags). */
  private kindOf(key: string, poolFlags: unknown, path: string): HeapKind {
    if (!this.d3d12) {
      const index = indexOf(key, 'Type ')
      const flags = index === undefined ? undefined : this.typeFlags.get(index)
      if (!flags) {
        this.notes.add('unknownMemoryType', `${path}: memory type "${key}" is not in MemoryInfo; its blocks are taken as default`)
        return 'default'
      }
      if (flags.includes('DEVICE_LOCAL')) return 'default'
      if (flags.includes('HOST_CACHED')) return 'readback'
      if (flags.includes('HOST_VISIBLE')) return 'upload'
      return 'default'
    }
    const heapType = key.split(' - ')[0]
    switch (heapType) {
      case 'DEFAULT':
      case 'GPU_UPLOAD':
        return 'default'
      case 'UPLOAD':
        return 'upload'
      case 'READBACK':
        return 'readback'
      case 'CUSTOM': {
        const flags = poolFlags === undefined ? [] : this.flags(poolFlags, `${path}.Flags`)
        if (flags.includes('MEMORY_POOL_L1')) return 'default'
        if (flags.includes('CPU_PAGE_PROPERTY_WRITE_BACK')) return 'readback'
        if (flags.includes('CPU_PAGE_PROPERTY_WRITE_COMBINE')) return 'upload'
        return 'default'
      }
      default:
        this.notes.add('unknownHeapType', `${path}: heap type "${key}" is not one D3D12MA writes; its blocks are taken as default`)
        return 'default'
    }
  }

  private readPool(pool: Pool): void {
    if (Array.isArray(pool.blocks) && this.version2) {
      pool.blocks.forEach((value, i) => this.readBlock(pool, String(i), value, `${pool.path}.Blocks[${i}]`))
    } else if (pool.blocks !== undefined) {
      const blocks = this.object(pool.blocks, `${pool.path}.Blocks`)
      for (const [key, value] of Object.entries(blocks)) this.readBlock(pool, key, value, `${pool.path}.Blocks.${JSON.stringify(key)}`)
    }
    if (pool.dedicated === undefined) return
    const path = pool.dedicatedPath ?? `${pool.path}.DedicatedAllocations`
    if (!Array.isArray(pool.dedicated)) this.fail(path, 'an array of allocations', pool.dedicated)
    if (!pool.ownsDedicated) return
    pool.dedicated.forEach((item, i) => {
      const itemPath = `${path}[${i}]`
      const allocation = this.object(item, itemPath)
      const size = this.integer(allocation.Size, `${itemPath}.Size`)
      const heap = this.heap(pool, size, `${pool.label} dedicated ${i}`)
      this.countBlock(size)
      this.place(pool, heap, 0, size, allocation, itemPath)
    })
  }

  private readBlock(pool: Pool, key: string, value: unknown, path: string): void {
    const block = this.object(value, path)
    const size = this.integer(block.TotalBytes, `${path}.TotalBytes`)
    const heap = this.heap(pool, size, `${pool.label} block ${key}`)
    this.countBlock(size)
    if (block.Suballocations === undefined) return
    if (!Array.isArray(block.Suballocations)) this.fail(`${path}.Suballocations`, 'an array', block.Suballocations)
    let cursor = 0
    let allocations = 0
    let free = 0
    let freeRanges = 0
    block.Suballocations.forEach((item, i) => {
      const itemPath = `${path}.Suballocations[${i}]`
      const range = this.object(item, itemPath)
      const offset = this.integer(range.Offset, `${itemPath}.Offset`)
      const rangeSize = this.integer(range.Size, `${itemPath}.Size`)
      if (offset < cursor) {
        this.notes.add('overlap', `${itemPath}: offset ${offset} overlaps the range before it, which ends at ${cursor}`)
      } else if (offset > cursor) {
        this.notes.add('gap', `${itemPath}: bytes ${cursor}–${offset} of the block are neither allocated nor listed as FREE`)
      }
      if (offset + rangeSize > size) {
        this.notes.add('outside', `${itemPath}: ends at ${offset + rangeSize}, past the block's ${size} bytes`)
      }
      cursor = Math.max(cursor, offset + rangeSize)
      if (range.Type === 'FREE') {
        free += rangeSize
        freeRanges++
        this.tally.unusedRanges++
        this.tally.unusedBytes += rangeSize
        this.tally.unusedMin = Math.min(this.tally.unusedMin, rangeSize)
        this.tally.unusedMax = Math.max(this.tally.unusedMax, rangeSize)
        return
      }
      allocations++
      this.place(pool, heap, offset, rangeSize, range, itemPath)
    })
    if (cursor < size && block.Suballocations.length > 0) {
      this.notes.add('gap', `${path}: bytes ${cursor}–${size} at the end of the block are neither allocated nor listed as FREE`)
    }
    this.checkBlock(block, path, { Allocations: allocations, UnusedRanges: freeRanges, UnusedBytes: free })
  }

  private checkBlock(block: Json, path: string, counted: Record<'Allocations' | 'UnusedRanges' | 'UnusedBytes', number>): void {
    for (const key of ['Allocations', 'UnusedRanges', 'UnusedBytes'] as const) {
      const said = block[key]
      if (typeof said === 'number' && said !== counted[key]) {
        this.notes.add('blockStats', `${path}.${key} says ${said}, its Suballocations give ${counted[key]}`)
      }
    }
  }

  private heap(pool: Pool, size: Bytes, name: string): number {
    const id = this.nextId++
    const record: DumpHeapRecord = { e: 'heap', id, size, type: pool.kind, name }
    if (pool.memoryType !== undefined) record.memoryType = pool.memoryType
    const memory = this.memoryName(pool)
    if (memory) record.memory = memory
    this.records.push(record)
    return id
  }

  /**
   * The memory a pool's blocks are in, as the dump names it: a Vulkan memory type with its property flags
   * (`type 3 DEVICE_LOCAL HOST_VISIBLE`), a D3D12MA heap type (`DEFAULT`, `UPLOAD`, `READBACK`, `CUSTOM`).
   */
  private memoryName(pool: Pool): string {
    if (this.d3d12) return pool.label.split(/ - | pool /)[0]
    if (pool.memoryType === undefined) return pool.label.split(/ pool /)[0]
    const flags = this.typeFlags.get(pool.memoryType) ?? []
    return [`type ${pool.memoryType}`, ...flags].join(' ').slice(0, MAX_MEMORY_LENGTH)
  }

  private countBlock(size: Bytes): void {
    this.tally.blocks++
    this.tally.blockBytes += size
  }

  private place(pool: Pool, heap: number, offset: Bytes, size: Bytes, allocation: Json, path: string): void {
    const type = allocation.Type
    if (typeof type !== 'string') this.fail(`${path}.Type`, 'a string', type)
    const usage = allocation.Usage === undefined ? 0 : this.integer(allocation.Usage, `${path}.Usage`)
    const name = typeof allocation.Name === 'string' ? allocation.Name : this.version2 ? this.userDataName(allocation.UserData) : undefined
    const id = this.nextId++
    this.tally.allocations++
    this.tally.allocationBytes += size
    this.tally.allocationMin = Math.min(this.tally.allocationMin, size)
    this.tally.allocationMax = Math.max(this.tally.allocationMax, size)
    // fields assigned one by one, in a fixed order, with no undefined ones: one object per allocation, no copies
    let record: DumpPlacedRecord
    if (isTextureType(type)) {
      const flags = this.d3d12 ? d3d12TextureFlags(usage) : vulkanImageFlags(usage)
      if (type === 'IMAGE_LINEAR' || allocation.Layout === D3D12_LAYOUT_ROW_MAJOR) flags.push('NoTiling')
      record = { e: 'placed', id, heap, offset, kind: 'texture', size }
      if (type === 'TEXTURE3D') record.dim = '3d'
      else if (type === 'TEXTURE2D') record.dim = '2d'
      record.flags = flags
      if (type === 'IMAGE_LINEAR') record.tiling = 'linear'
    } else {
      if (type !== 'BUFFER' && type !== 'UNKNOWN') {
        this.notes.add('unknownType', `${path}.Type "${type}" is not a type the writers use; placed as a buffer`)
      }
      const usageNames = type === 'UNKNOWN' ? [] : this.d3d12 ? d3d12BufferUsage(usage) : vulkanBufferUsage(usage)
      record = { e: 'placed', id, heap, offset, kind: 'buffer', size, usage: usageNames }
    }
    if (name !== undefined) record.name = name
    record.tag = pool.label
    this.records.push(record)
  }

  // -- totals -----------------------------------------------------------------------------------------------------

  private checkTotals(totalValue: unknown): void {
    if (totalValue === undefined) {
      this.notes.add('noTotal', 'the dump has no Total object to check the blocks against')
      return
    }
    const total = this.object(totalValue, 'Total')
    const t = this.tally
    const counted: [string, number | undefined][] = [
      ['BlockCount', t.blocks],
      ['BlockBytes', t.blockBytes],
      ['AllocationCount', t.allocations],
      ['AllocationBytes', t.allocationBytes],
      ['UnusedRangeCount', t.unusedRanges],
      ['AllocationSizeMin', t.allocations ? t.allocationMin : undefined],
      ['AllocationSizeMax', t.allocations ? t.allocationMax : undefined],
      ['UnusedRangeSizeMin', t.unusedRanges ? t.unusedMin : undefined],
      ['UnusedRangeSizeMax', t.unusedRanges ? t.unusedMax : undefined],
    ]
    for (const [key, mine] of counted) {
      const said = total[key]
      if (typeof said !== 'number' || mine === undefined || said === mine) continue
      this.notes.add('total', `Total.${key} says ${said}, the imported blocks give ${mine}`)
    }
  }

  /**
   * VMA 2.x's Total is a VmaStatInfo: Blocks, Allocations, UnusedRanges, UsedBytes, UnusedBytes, and the min and
   * max sizes when more than one was counted. Dedicated allocations count as one block and one allocation each.
   */
  private checkTotals2(totalValue: unknown): void {
    if (totalValue === undefined) {
      this.notes.add('noTotal', 'the dump has no Total object to check the blocks against')
      return
    }
    const total = this.object(totalValue, 'Total')
    const t = this.tally
    const sizes = (key: string) => (total[key] === undefined ? {} : this.object(total[key], `Total.${key}`))
    const allocationSize = sizes('AllocationSize')
    const unusedSize = sizes('UnusedRangeSize')
    const counted: [string, unknown, number | undefined][] = [
      ['Blocks', total.Blocks, t.blocks],
      ['Allocations', total.Allocations, t.allocations],
      ['UnusedRanges', total.UnusedRanges, t.unusedRanges],
      ['UsedBytes', total.UsedBytes, t.allocationBytes],
      ['UnusedBytes', total.UnusedBytes, t.unusedBytes],
      ['AllocationSize.Min', allocationSize.Min, t.allocations ? t.allocationMin : undefined],
      ['AllocationSize.Max', allocationSize.Max, t.allocations ? t.allocationMax : undefined],
      ['UnusedRangeSize.Min', unusedSize.Min, t.unusedRanges ? t.unusedMin : undefined],
      ['UnusedRangeSize.Max', unusedSize.Max, t.unusedRanges ? t.unusedMax : undefined],
    ]
    for (const [key, said, mine] of counted) {
      if (typeof said !== 'number' || mine === undefined || said === mine) continue
      this.notes.add('total', `Total.${key} says ${said}, the imported blocks give ${mine}`)
    }
  }

  /** VMA 2.x writes an allocation's user data as its name when it is a string, else the pointer as hex digits. */
  private userDataName(value: unknown): string | undefined {
    if (typeof value !== 'string' || value === '') return undefined
    if (POINTER.test(value)) {
      this.notes.add('userDataPointer', `UserData "${value}" is a pointer, not a name: the allocation is left unnamed`)
      return undefined
    }
    return value
  }

  // -- checked access ---------------------------------------------------------------------------------------------

  private object(value: unknown, path: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'an object', value)
    return value as Json
  }

  private integer(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      this.fail(path, 'a non-negative integer', value)
    }
    return value as number
  }

  private flags(value: unknown, path: string): string[] {
    if (value === undefined) return []
    if (!Array.isArray(value)) this.fail(path, 'an array of flag names', value)
    // writers append the bits they have no name for as one number
    return (value as unknown[]).map((flag) => String(flag))
  }

  private fail(path: string, expected: string, found: unknown): never {
    throw new ImportError(this.file, `${path}: expected ${expected}, found ${describe(found)}`, { expected: `${path}: ${expected}` })
  }
}

/** How %p prints a pointer: 8 or 16 hex digits, with 0x on some C libraries. */
const POINTER = /^(?:0x)?[0-9A-Fa-f]{8}(?:[0-9A-Fa-f]{8})?$/

/** The record without its undefined fields, so dumps and exports do not carry empty keys. */
export function compact<T extends object>(record: T): T {
  const out = {} as Record<string, unknown>
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value
  return out as T
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  const text = JSON.stringify(value)
  return `${typeof value} ${text.length > 40 ? text.slice(0, 40) + '…' : text}`
}

function indexOf(key: string, prefix: string): number | undefined {
  if (!key.startsWith(prefix)) return undefined
  const n = Number(key.slice(prefix.length))
  return Number.isInteger(n) && n >= 0 ? n : undefined
}

function isTextureType(type: string): boolean {
  return type.startsWith('IMAGE_') || type.startsWith('TEXTURE')
}

function vulkanBufferUsage(usage: number): BufferUsage[] {
  const out: BufferUsage[] = []
  if (usage & VK_BUFFER_TRANSFER_SRC) out.push('SourceCopy')
  if (usage & (VK_BUFFER_UNIFORM_TEXEL | VK_BUFFER_STORAGE_TEXEL | VK_BUFFER_STORAGE)) out.push('ShaderResource')
  if (usage & (VK_BUFFER_STORAGE_TEXEL | VK_BUFFER_STORAGE)) out.push('UnorderedAccess')
  if (usage & VK_BUFFER_STORAGE) out.push('StructuredBuffer')
  if (usage & VK_BUFFER_UNIFORM) out.push('Uniform')
  if (usage & VK_BUFFER_INDEX) out.push('IndexBuffer')
  if (usage & VK_BUFFER_VERTEX) out.push('VertexBuffer')
  if (usage & VK_BUFFER_INDIRECT) out.push('DrawIndirect')
  if (usage & VK_BUFFER_ACCELERATION_STRUCTURE_STORAGE) out.push('AccelerationStructure')
  return out
}

function vulkanImageFlags(usage: number): TextureFlag[] {
  const out: TextureFlag[] = []
  if (usage & (VK_IMAGE_SAMPLED | VK_IMAGE_INPUT_ATTACHMENT)) out.push('ShaderResource')
  if (usage & VK_IMAGE_COLOR_ATTACHMENT) out.push('RenderTargetable')
  if (usage & VK_IMAGE_DEPTH_STENCIL_ATTACHMENT) out.push('DepthStencilTargetable')
  if (usage & VK_IMAGE_STORAGE) out.push('UAV')
  return out
}

/** D3D12 resource flags as UE buffer usage names; shared with the GPGMM importer. */
export function d3d12BufferUsage(flags: number): BufferUsage[] {
  const out: BufferUsage[] = []
  if (!(flags & D3D12_DENY_SHADER_RESOURCE)) out.push('ShaderResource')
  if (flags & D3D12_ALLOW_UNORDERED_ACCESS) out.push('UnorderedAccess')
  if (flags & D3D12_ALLOW_SIMULTANEOUS_ACCESS) out.push('Shared')
  if (flags & D3D12_RAYTRACING_ACCELERATION_STRUCTURE) out.push('AccelerationStructure')
  return out
}

/** D3D12 resource flags as UE texture flags; shared with the GPGMM importer. */
export function d3d12TextureFlags(flags: number): TextureFlag[] {
  const out: TextureFlag[] = []
  if (!(flags & D3D12_DENY_SHADER_RESOURCE)) out.push('ShaderResource')
  if (flags & D3D12_ALLOW_RENDER_TARGET) out.push('RenderTargetable')
  if (flags & D3D12_ALLOW_DEPTH_STENCIL) out.push('DepthStencilTargetable')
  if (flags & D3D12_ALLOW_UNORDERED_ACCESS) out.push('UAV')
  if (flags & D3D12_ALLOW_SIMULTANEOUS_ACCESS) out.push('Shared')
  return out
}
