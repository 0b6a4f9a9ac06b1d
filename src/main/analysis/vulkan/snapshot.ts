/**
 * Snapshots of a Vulkan run: the model at any frame, rebuilt from the checkpoint before it, and what the
 * inspector asks of it, in the shapes a D3D12 run answers with: the live resources as a table served a page at a
 * time (placement = the memory type, heap = the memory heap, pool = the VkDeviceMemory), each VkDeviceMemory as a
 * pool map of its ranges, one resource's details with the way its memory was chosen, and each heap and type's
 * totals. A few recent snapshots are kept.
 */
import type { StackRecord } from '../../../shared/capture'
import type {
  PoolMap,
  ResourceDetails,
  SymbolizedFrame,
  Snapshot,
} from '../../../shared/ipc'
import type { Bytes } from '../../../shared/units'
import { recordAt } from '../../ingest/records'
import { frameEnd, RECORD_KIND } from '../../ingest/store'
import type { VulkanResourceFields } from '../../model/vulkan/captureTypes'
import { MEMORY_PROPERTY_FLAGS } from '../../model/vulkan/captureTypes'
import type { VulkanMemoryKind, VulkanPlacementInfo } from '../../model/vulkan/events'
import { MemoryTypeSelector } from '../../model/vulkan/memoryType'
import type { VulkanModel } from '../../model/vulkan/model'
import type { IdTable } from '../../model/idTable'
import type { MemoryLayout } from '../../model/vulkan/view'
import { bufferNeeds, emptyNeeds, textureNeeds, type BufferLike } from '../../model/vulkan/requirements'
import { CaptureNames } from '../names'
import { Symbolizer } from '../symbolize'
import { CachedSnapshots } from '../snapshotCache'
import { frameOfRecord } from '../records'
import { ResourceTable } from '../resourceTable'
import { heapName, typeName, type VulkanReplay } from './replay'

/** How pool maps and resource rows name what a VkDeviceMemory is for. */
export const MEMORY_KIND_LABEL: Record<VulkanMemoryKind, string> = {
  block: 'FreeList',
  buddy: 'Buddy',
  dedicated: 'Dedicated',
  linear: 'Linear',
  staging: 'Staging',
  app: 'Application',
}

export interface VulkanSnapshotState {
  frame: number
  model: VulkanModel
  /** Live id → index of its create record. */
  created: IdTable
  table: ResourceTable
  /** Model memory number → its name as pools and rows show it. */
  poolNames: Map<number, string>
}

/**
 * Memory k of a layout as a pool map's blocks, in offset order: its allocations (state 1, or 2 for a released one
 * waiting for the GPU, whose bytes are `pending`) and the gaps between them and after the last (state 0).
 */
function blocksOf(
  layout: MemoryLayout,
  k: number,
): { offsets: Float64Array; sizes: Float64Array; states: Uint8Array; ids: Float64Array; pending: Bytes } {
  const end = layout.first[k + 1]
  const bytes = layout.memories[k].size
  const { offset, size, id, pending } = layout
  // the blocks: one per allocation, one per gap before it, one for the gap at the end
  let n = 0
  let cursor = 0
  for (let r = layout.first[k]; r < end; r++) {
    if (offset[r] > cursor) n++
    n++
    cursor = Math.max(cursor, offset[r] + size[r])
  }
  if (cursor < bytes) n++
  const offsets = new Float64Array(n)
  const sizes = new Float64Array(n)
  const states = new Uint8Array(n)
  const ids = new Float64Array(n).fill(Number.NaN)
  let b = 0
  let waiting = 0
  cursor = 0
  for (let r = layout.first[k]; r < end; r++) {
    if (offset[r] > cursor) {
      offsets[b] = cursor
      sizes[b++] = offset[r] - cursor
    }
    offsets[b] = offset[r]
    sizes[b] = size[r]
    states[b] = pending[r] === 1 ? 2 : 1
    ids[b++] = id[r]
    if (pending[r] === 1) waiting += size[r]
    cursor = Math.max(cursor, offset[r] + size[r])
  }
  if (cursor < bytes) {
    offsets[b] = cursor
    sizes[b] = bytes - cursor
  }
  return { offsets, sizes, states, ids, pending: waiting }
}

/** One for all runs: its cache is by module and offset. */
const symbolizer = new Symbolizer()

export class VulkanSnapshots extends CachedSnapshots<VulkanSnapshotState> {
  private heapNames: Map<number, string> | undefined
  private names: CaptureNames | undefined
  /** Stack id → its record, found on first use. */
  private stacks: Map<number, number> | undefined

  constructor(private readonly replay: VulkanReplay) {
    super(replay.store)
  }

  /**
   * The state at the end of frame index `target`, from the checkpoint before it; the last frame's from the model the
   * replay ended with (VulkanReplay.finalState), only read, where the replay kept it. Its table is made when first
   * read (a page, a sort, a resource's details): a snapshot itself counts the live resources from the model.
   */
  protected build(target: number): VulkanSnapshotState {
    const store = this.replay.store
    const final = target === store.frames.length - 1 ? this.replay.finalState() : undefined
    const { model, created } = final ?? this.replay.modelAt(target)
    const end = frameEnd(store, target)
    const poolNames = this.poolNamesOf(model, end)
    let table: ResourceTable | undefined
    const tableOf = () => this.tableOf(model, created, poolNames, store.frames.n[target], end)
    return {
      frame: target,
      model,
      created,
      get table() {
        return (table ??= tableOf())
      },
      poolNames,
    }
  }

  /** The `name` of each application heap record, by the capture's heap id (the last one of an id wins). */
  private namesOfHeaps(): Map<number, string> {
    if (this.heapNames) return this.heapNames
    const store = this.replay.store
    const names = new Map<number, string>()
    for (let i = 0; i < store.records.length; i++) {
      if (store.records.kind[i] !== RECORD_KIND.heap) continue
      const ref = store.records.ref[i]
      const name = store.strings.get(store.ops[ref + 3])
      if (name !== undefined) names.set(store.ops[ref], name)
    }
    this.heapNames = names
    return names
  }

  /** The capture's `name` records (1.3), read once. */
  captureNames(): CaptureNames {
    this.names ??= new CaptureNames(this.replay.store)
    return this.names
  }

  /**
   * The name of each VkDeviceMemory of a model, by its number: an application heap's own name where it has one,
   * the latest `name` record before record `end` first.
   */
  poolNamesOf(model: VulkanModel, end = this.replay.store.records.length): Map<number, string> {
    const heapNames = this.namesOfHeaps()
    const names = this.captureNames()
    const out = new Map<number, string>()
    for (const m of model.memoryObjects()) {
      const base = `${typeName(m.type)}/${MEMORY_KIND_LABEL[m.kind]}`
      const named = m.kind === 'app' && !names.empty ? names.memory(m.captureId, -1, end) : undefined
      if (m.kind === 'app') out.set(m.memory, named ?? heapNames.get(m.captureId) ?? `${base}/${m.captureId}`)
      else out.set(m.memory, `${base}/${m.memory}`)
    }
    return out
  }

  /** The live resources (released ones waiting for the GPU are in the pool maps only) as columns. */
  private tableOf(
    model: VulkanModel,
    created: IdTable,
    poolNames: Map<number, string>,
    frameNumber: number,
    end: number,
  ): ResourceTable {
    const store = this.replay.store
    const names = this.captureNames()
    const live = model.liveColumns()
    const n = live.count
    const id = live.id
    const createdFrame = new Float64Array(n)
    const createRecord = new Float64Array(n)
    const text: ResourceTable['text'] = {
      name: new Array<string>(n),
      tag: new Array<string>(n),
      placement: new Array<string>(n),
      heap: new Array<string>(n),
      pool: new Array<string | null>(n),
      kind: new Array<'buffer' | 'texture'>(n),
    }
    const typeNames: string[] = []
    const heapNames: string[] = []
    // rows come by memory: its name is looked up once
    let memory = -1
    let pool: string | null = null
    for (let i = 0; i < n; i++) {
      // the model's own where the feed told it, else the replay's map by id
      const record = live.record[i] >= 0 ? live.record[i] : (created.get(id[i]) ?? -1)
      createRecord[i] = record
      let name = ''
      let tag = ''
      let kind: 'buffer' | 'texture' = live.linear[i] === 1 ? 'buffer' : 'texture'
      if (record >= 0) {
        const ref = store.records.ref[record]
        const k = store.records.kind[record]
        let row = ref
        let texture = k === RECORD_KIND.texture
        if (k === RECORD_KIND.placed) {
          row = store.placed.desc.data[ref]
          texture = store.placed.kind.data[ref] === 1
        }
        const table = texture ? store.textures : store.buffers
        name = (names.empty ? undefined : names.resource(id[i], record, end)) ?? store.strings.get(table.name.data[row]) ?? ''
        tag = store.strings.get(table.tag.data[row]) ?? ''
        kind = texture ? 'texture' : 'buffer'
        createdFrame[i] = store.frames.n[frameOfRecord(store.frames.firstRecord, record)]
      } else createdFrame[i] = frameNumber
      text.name[i] = name
      text.tag[i] = tag
      text.kind[i] = kind
      // one string per memory type, heap and memory, not one per row
      text.placement[i] = typeNames[live.type[i]] ??= typeName(live.type[i])
      text.heap[i] = heapNames[live.heap[i]] ??= heapName(live.heap[i])
      if (live.memory[i] !== memory) {
        memory = live.memory[i]
        pool = poolNames.get(memory) ?? null
      }
      text.pool[i] = pool
    }
    return new ResourceTable(frameNumber, {
      id,
      occupied: live.size,
      requested: live.requested,
      offset: live.offset,
      created: createdFrame,
      createRecord,
      estimated: live.estimated,
      text,
    })
  }

  snapshot(runId: string, frame: number): Snapshot {
    const s = this.state(frame)
    const model = s.model
    const captureIds = new Map(model.memoryObjects().map((m) => [m.memory, m.captureId]))
    const layout = model.memoryLayout()
    const pools = layout.memories.map((m, k): PoolMap => {
      const { offsets, sizes, states, ids, pending } = blocksOf(layout, k)
      const map: PoolMap = {
        pool: m.memory,
        name: s.poolNames.get(m.memory) ?? `${typeName(m.type)}/${m.memory}`,
        placement: MEMORY_KIND_LABEL[m.kind],
        heap: heapName(m.heap),
        bytes: m.size,
        used: m.usedBytes - pending,
        pending,
        free: Math.max(0, m.size - m.usedBytes),
        spare: false,
        offset: offsets,
        size: sizes,
        state: states,
        id: ids,
      }
      const captureId = captureIds.get(m.memory) ?? -1
      if (m.kind === 'app' && captureId >= 0) map.heapId = captureId
      return map
    })
    const heaps = model.heapTotals()
    const local = heaps.find((h) => h.flags.includes('DEVICE_LOCAL') && h.budget !== undefined)
    return {
      runId,
      frame: s.frame,
      frameNumber: this.replay.store.frames.n[s.frame],
      liveCount: model.liveFigures().count,
      pools,
      residency: { residentBytes: 0, budgetBytes: local?.budget ?? 0, objects: 0, residentObjects: 0 },
      graphs: 0,
      vulkan: {
        heaps: heaps.map((h) => ({
          index: h.index,
          allocatedBytes: h.allocatedBytes,
          usedBytes: h.usedBytes,
          memoryCount: h.memoryCount,
          ...(h.budget !== undefined ? { budget: h.budget } : {}),
        })),
        types: model.typeTotals().map((t) => ({
          index: t.index,
          allocatedBytes: t.allocatedBytes,
          usedBytes: t.usedBytes,
          memoryCount: t.memoryCount,
          allocationCount: t.allocationCount,
        })),
      },
    }
  }

  details(runId: string, frame: number, id: number): ResourceDetails | null {
    const live = this.liveResource(frame, id)
    if (!live) return null
    const { state: s, index, desc, releasedFrame } = live
    const placement = s.model.placementOf(id)
    const stack = typeof desc.stack === 'number' ? this.stackOf(desc.stack) : undefined
    return {
      runId,
      frame: s.frame,
      row: s.table.row(index),
      desc,
      releasedFrame,
      route: placement ? this.route(desc, placement, s) : [],
      residency: null,
      ...(stack ? { stack } : {}),
    }
  }

  /** A recorded call stack by its id, symbolized. */
  private stackOf(id: number): SymbolizedFrame[] | undefined {
    const store = this.replay.store
    if (!this.stacks) {
      this.stacks = new Map()
      for (let i = 0; i < store.records.length; i++) {
        if (store.records.kind[i] !== RECORD_KIND.stack) continue
        const record = recordAt(store, i) as StackRecord
        this.stacks.set(record.id, i)
      }
    }
    const at = this.stacks.get(id)
    if (at === undefined) return undefined
    const frames = (recordAt(store, at) as StackRecord).frames
    return Array.isArray(frames) ? symbolizer.symbolize(frames) : undefined
  }

  /** How the resource's memory was chosen and where it went: the seed's steps with the numbers that decided. */
  private route(desc: Record<string, unknown>, p: VulkanPlacementInfo, s: VulkanSnapshotState): string[] {
    const device = this.replay.device
    const config = this.replay.config
    const selector = new MemoryTypeSelector(device)
    const texture = desc.e === 'texture' || (desc.e === 'placed' && desc.kind === 'texture')
    const needs = texture
      ? textureNeeds(desc as unknown as Parameters<typeof textureNeeds>[0], selector.allTypeBits, emptyNeeds())
      : bufferNeeds(desc as unknown as BufferLike, selector.allTypeBits, emptyNeeds())
    const out: string[] = []
    const where = (desc as VulkanResourceFields).memoryRequirements ? "the capture's (the driver's)" : 'estimated: the capture has none'
    out.push(
      `memoryRequirements: size ${needs.size}, alignment ${needs.alignment}, memoryTypeBits 0x${needs.typeBits.toString(16)} (${where})`,
    )
    out.push(`wanted flags: required ${flagText(needs.required)}, preferred ${flagText(needs.preferred)}`)
    if (p.placement === 'Bound') {
      const captureId = s.model.memoryObjects().find((m) => m.memory === p.memory)?.captureId
      out.push(`bound by the application to memory ${captureId ?? p.memory} (type ${p.type}) at offset ${p.offset}`)
      return out
    }
    if (p.placement === 'Linear') {
      out.push(`Volatile → this frame's linear block (${typeName(p.type)}, HOST_VISIBLE|HOST_COHERENT) at offset ${p.offset}`)
      return out
    }
    const type = selector.select(needs.typeBits, needs.required, needs.preferred)
    const how =
      selector.route === 'exact'
        ? 'the first allowed type with every wanted flag'
        : selector.route === 'required'
          ? 'no type has them all: every required flag and the most preferred ones'
          : selector.route === 'fallback'
            ? 'no type has the wanted flags: the first allowed DEVICE_LOCAL type'
            : 'no allowed type'
    out.push(`memory type ${type} (${device.memoryTypes[type]?.propertyFlags.join('|') ?? '—'}): ${how}`)
    const blockSize = Math.min(config['vulkan.blockSize'], device.memoryHeaps[device.memoryTypes[p.type].heapIndex].size)
    const dedicatedMin = config['vulkan.dedicatedMinSize']
    if (p.placement === 'Dedicated') {
      if (needs.dedicated > 0) out.push(`dedicated ${needs.dedicated === 2 ? 'required' : 'preferred'} by the driver → Dedicated`)
      else if (needs.size >= dedicatedMin) out.push(`size ${needs.size} ≥ vulkan.dedicatedMinSize ${dedicatedMin} → Dedicated`)
      else if (needs.size > blockSize) out.push(`size ${needs.size} > block size ${blockSize} → Dedicated`)
      else out.push('no block had room and a new block could not take it → Dedicated')
      return out
    }
    out.push(`size ${needs.size} < vulkan.dedicatedMinSize ${dedicatedMin} and fits a ${blockSize}-byte block → sub-allocated`)
    const pool = s.poolNames.get(p.memory) ?? `#${p.memory}`
    if (p.placement === 'Buddy') out.push(`texture, vulkan.textureAllocator 1 → buddy block ${pool}, a ${p.size}-byte block at offset ${p.offset}`)
    else out.push(`free list: the first block with room, best fit inside → ${pool} at offset ${p.offset}`)
    return out
  }
}

function flagText(mask: number): string {
  const names = MEMORY_PROPERTY_FLAGS.filter((_, i) => mask & (1 << i))
  return names.length ? names.join('|') : 'none'
}
