/**
 * Every resource a run created, one row each in create order, as the Parquet export's `resources` file holds them
 * (docs/history.md): its id, name, tag, where the model placed it (placement, heap, pool, offset, sizes and the
 * route, exactly as `heapscope route` prints them), and the frames it was created and released in. A D3D12 run
 * replays its records once more through a fresh model that keeps transient placements; placed resources sit where
 * the application put them. A Vulkan run replays through a fresh Vulkan model: a resource's placement is its
 * memory type ("Type 3", as `report` and the inspector name it), its heap the memory heap, its pool the
 * allocator's strategy and VkDeviceMemory ("Buddy/4"), read when it is created or, for a resource bound to memory
 * later, at its bind; its route stays null (the inspector explains one resource
 * at a time).
 */
import { HEAP_TYPES, type ModelConfig } from '../../shared/model'
import { applyRecord, DescScratch, modelFor } from '../analysis/d3d12/replay'
import { heapName, typeName, VulkanFeed, type VulkanReplay } from '../analysis/vulkan/replay'
import { emptyRows, type ResourceKind, type ResourceRows } from '../analysis/resourceRows'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../ingest/store'
import type { ModelPlacement } from '../model/d3d12/model'
import { VulkanModel } from '../model/vulkan/model'

export type { ResourceKind, ResourceRows } from '../analysis/resourceRows'

/** Which model places the run's resources again: the D3D12 model under the run's config, or the Vulkan replay's. */
export type Placer = { api: 'd3d12'; config: ModelConfig } | { api: 'vulkan'; replay: VulkanReplay }

export function resourceRows(store: CaptureStore, placer: Placer): ResourceRows {
  if (placer.api === 'vulkan') return vulkanRows(store, placer.replay)
  const rows = emptyRows()
  const model = modelFor(store, placer.config, {}, true)
  const descs = new DescScratch(store)
  const text = (id: number) => (id === 0 ? null : (store.strings.get(id) ?? null))
  // live rows by resource id (ids are unique among live resources, reused after release)
  const live = new Map<number, number>()
  const manualHeaps = new Map<number, number>()
  // transient rows of the open graph, filled in when it ends
  let waiting: number[] = []

  const add = (kind: ResourceKind, desc: number, texture: boolean, frameNumber: number): number => {
    const table = texture ? store.textures : store.buffers
    const row = rows.length++
    const id = table.id.data[desc]
    rows.id.push(id)
    rows.kind.push(kind)
    rows.name.push(text(table.name.data[desc]))
    rows.tag.push(text(table.tag.data[desc]))
    const size = table.size.data[desc]
    rows.requested.push(Number.isNaN(size) ? null : size)
    rows.placement.push(null)
    rows.heap.push(null)
    rows.pool.push(null)
    rows.offset.push(null)
    rows.occupied.push(null)
    rows.alignment.push(null)
    rows.createdFrame.push(frameNumber)
    rows.releasedFrame.push(kind === 'transient' ? frameNumber : null)
    rows.route.push(null)
    if (kind !== 'transient') live.set(id, row)
    return row
  }
  const place = (row: number, p: ModelPlacement) => {
    rows.placement[row] = p.placement
    rows.heap[row] = p.heap
    rows.pool[row] = p.poolName
    rows.offset[row] = p.offset
    rows.requested[row] = p.requested
    rows.occupied[row] = p.size
    rows.alignment[row] = p.alignment
    rows.route[row] = p.route
  }

  const { kind: kinds, ref: refs } = store.records
  for (let frame = 0; frame < store.frames.length; frame++) {
    const frameNumber = store.frames.n[frame]
    const end = frameEnd(store, frame)
    for (let i = store.frames.firstRecord[frame]; i < end; i++) {
      const k = kinds[i]
      const r = refs[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture) {
        const texture = k === RECORD_KIND.texture
        const row = add(texture ? 'texture' : 'buffer', r, texture, frameNumber)
        const id = rows.id[row]
        place(row, texture ? model.createTexture(id, descs.textureAt(r)) : model.createBuffer(id, descs.bufferAt(r)))
      } else if (k === RECORD_KIND.transient) {
        const row = add('transient', store.transients.desc.data[r], store.transients.kind.data[r] !== 0, frameNumber)
        rows.placement[row] = 'Transient'
        waiting.push(row)
        descs.applyTransient(model, r)
      } else if (k === RECORD_KIND.endgraph) {
        const placements = model.endGraph(store.ops[r])
        for (let t = 0; t < placements.length && t < waiting.length; t++) place(waiting[t], placements[t])
        waiting = []
      } else if (k === RECORD_KIND.graph) {
        // a graph begun while another is open ends that one inside the model; its transients keep no placement
        applyRecord(store, model, i, descs)
        waiting = []
      } else if (k === RECORD_KIND.heap) {
        manualHeaps.set(store.ops[r], store.ops[r + 2])
      } else if (k === RECORD_KIND.placed) {
        const row = add('placed', store.placed.desc.data[r], store.placed.kind.data[r] !== 0, frameNumber)
        rows.placement[row] = 'Placed'
        rows.heap[row] = HEAP_TYPES[manualHeaps.get(store.placed.a.data[r]) ?? 0] ?? null
        rows.offset[row] = store.placed.b.data[r]
        rows.occupied[row] = rows.requested[row]
      } else if (k === RECORD_KIND.release) {
        const id = store.ops[r]
        const row = live.get(id)
        if (row !== undefined) {
          rows.releasedFrame[row] = frameNumber
          live.delete(id)
        }
        applyRecord(store, model, i, descs)
      } else applyRecord(store, model, i, descs)
    }
  }
  model.endCapture()
  return rows
}

function vulkanRows(store: CaptureStore, replay: VulkanReplay): ResourceRows {
  const rows = emptyRows()
  const model = new VulkanModel(replay.device, replay.config)
  const feed = new VulkanFeed(store)
  const live = new Map<number, number>()
  // rows created without memory yet: placed when a bind gives them some
  const unplaced = new Set<number>()
  const place = (row: number) => {
    const p = model.placementOf(rows.id[row])
    if (!p) return false
    rows.placement[row] = typeName(p.type)
    rows.heap[row] = heapName(p.heap)
    rows.pool[row] = `${p.placement}/${p.memory}`
    rows.offset[row] = p.offset
    rows.requested[row] = p.requested
    rows.occupied[row] = p.size
    rows.alignment[row] = p.alignment
    return true
  }
  const { kind: kinds, ref: refs } = store.records
  for (let frame = 0; frame < store.frames.length; frame++) {
    const frameNumber = store.frames.n[frame]
    const end = frameEnd(store, frame)
    for (let i = store.frames.firstRecord[frame]; i < end; i++) {
      const k = kinds[i]
      if (VulkanFeed.reads(k)) feed.apply(model, i)
      if (k === RECORD_KIND.bind) for (const row of unplaced) if (place(row)) unplaced.delete(row)
      const created = feed.createdId(i)
      if (!Number.isNaN(created)) {
        const r = refs[i]
        const placed = k === RECORD_KIND.placed
        const texture = placed ? store.placed.kind.data[r] !== 0 : k === RECORD_KIND.texture
        const desc = placed ? store.placed.desc.data[r] : r
        const table = texture ? store.textures : store.buffers
        const row = rows.length++
        const size = table.size.data[desc]
        rows.id.push(created)
        rows.kind.push(placed ? 'placed' : texture ? 'texture' : 'buffer')
        rows.name.push(store.strings.get(table.name.data[desc]) || null)
        rows.tag.push(store.strings.get(table.tag.data[desc]) || null)
        rows.placement.push(null)
        rows.heap.push(null)
        rows.pool.push(null)
        rows.offset.push(null)
        rows.requested.push(Number.isNaN(size) ? null : size)
        rows.occupied.push(null)
        rows.alignment.push(null)
        rows.createdFrame.push(frameNumber)
        rows.releasedFrame.push(null)
        rows.route.push(null)
        live.set(created, row)
        if (!place(row)) unplaced.add(row)
      }
      const ended = feed.endedId(i)
      const row = Number.isNaN(ended) ? undefined : live.get(ended)
      if (row !== undefined) {
        rows.releasedFrame[row] = frameNumber
        live.delete(ended)
        unplaced.delete(row)
      }
    }
  }
  return rows
}
