/**
 * A D3D12 run's resources for the history's Parquet export (docs/history.md): its records replayed once more
 * through a fresh model that keeps transient placements, each resource with where the model placed it (placement,
 * heap, pool, offset, sizes and the route, exactly as `heapscope route` prints them); placed resources sit where
 * the application put them.
 */
import { HEAP_TYPES, type ModelConfig } from '../../../shared/model'
import { frameEnd, RECORD_KIND, type CaptureStore } from '../../ingest/store'
import type { ModelPlacement } from '../../model/d3d12/model'
import { LifeEnds } from '../records'
import { emptyRows, type ResourceKind, type ResourceRows } from '../resourceRows'
import { DescScratch } from '../descScratch'
import { applyRecord, modelFor } from './replay'

export function d3d12ResourceRows(store: CaptureStore, config: ModelConfig): ResourceRows {
  const rows = emptyRows()
  const model = modelFor(store, config, {}, true)
  const descs = new DescScratch(store)
  const text = (id: number) => (id === 0 ? null : (store.strings.get(id) ?? null))
  // live rows by resource id (ids are unique among live resources, reused after release)
  const live = new Map<number, number>()
  const manualHeaps = new Map<number, number>()
  // what each record ends: a release, a free of a placed resource or of its heap
  const ends = new LifeEnds()
  // transient rows of the open graph, filled in when it ends
  let waiting: number[] = []

  const add = (kind: ResourceKind, id: number, desc: number, texture: boolean, frameNumber: number): number => {
    const table = texture ? store.textures : store.buffers
    const row = rows.length++
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
        const row = add(texture ? 'texture' : 'buffer', (texture ? store.textures : store.buffers).id.data[r], r, texture, frameNumber)
        place(row, texture ? descs.createTexture(model, r) : descs.createBuffer(model, r))
      } else if (k === RECORD_KIND.transient) {
        const t = store.transients
        const row = add('transient', t.id.data[r], t.desc.data[r], t.kind.data[r] !== 0, frameNumber)
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
        const p = store.placed
        const row = add('placed', p.id.data[r], p.desc.data[r], p.kind.data[r] !== 0, frameNumber)
        rows.placement[row] = 'Placed'
        rows.heap[row] = HEAP_TYPES[manualHeaps.get(store.placed.a.data[r]) ?? 0] ?? null
        rows.offset[row] = store.placed.b.data[r]
        rows.occupied[row] = rows.requested[row]
      } else applyRecord(store, model, i, descs)
      for (const id of ends.read(store, i)) {
        const row = live.get(id)
        if (row === undefined) continue
        rows.releasedFrame[row] = frameNumber
        live.delete(id)
      }
    }
  }
  model.endCapture()
  return rows
}
