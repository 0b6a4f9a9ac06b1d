/**
 * A Vulkan run's resources for the history's Parquet export (docs/history.md), replayed through a fresh Vulkan
 * model: a resource's placement is its memory type ("Type 3", as `report` and the inspector name it), its heap the
 * memory heap, its pool the allocator's strategy and VkDeviceMemory ("Buddy/4"), read when it is created or, for a
 * resource bound to memory later, at its bind; its route stays null (the inspector explains one resource at a
 * time).
 */
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import { VulkanModel } from '../../model/vulkan/model'
import { emptyRows, type ResourceRows } from '../resourceRows'
import { heapName, typeName, VulkanFeed, type VulkanReplay } from './replay'

export function vulkanResourceRows(store: CaptureStore, replay: VulkanReplay): ResourceRows {
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
