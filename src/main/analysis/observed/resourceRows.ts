/**
 * An observed run's resources as the history's Parquet export keeps them (docs/history.md): what the trace placed,
 * with no model's route.
 */
import { frameEnd, RECORD_KIND } from '../../ingest/store'
import { emptyRows, type ResourceRows } from '../resourceRows'
import { OBSERVED_PLACEMENT, type ObservedReplay } from './replay'

/**
 * Every resource the trace placed, one row each in record order, as the history keeps them: its heap's memory
 * and name, its offset and size, the frames it was placed and released in.
 */
export function observedResourceRows(replay: ObservedReplay): ResourceRows {
  const store = replay.store
  const rows = emptyRows()
  const { kind: kinds, ref: refs } = store.records
  const text = (id: number) => (id === 0 ? null : (store.strings.get(id) ?? null))
  const heaps = new Map<number, { memory: string; name: string; placed: Set<number> }>()
  const live = new Map<number, number>()
  const end = (id: number, frameNumber: number) => {
    const row = live.get(id)
    if (row === undefined) return
    rows.releasedFrame[row] = frameNumber
    live.delete(id)
  }
  for (let f = 0; f < store.frames.length; f++) {
    const frameNumber = store.frames.n[f]
    const last = frameEnd(store, f)
    for (let i = store.frames.firstRecord[f]; i < last; i++) {
      const k = kinds[i]
      const r = refs[i]
      if (k === RECORD_KIND.heap) {
        const id = store.ops[r]
        heaps.set(id, { memory: replay.memories[replay.memoryOf(r)], name: text(store.ops[r + 3]) ?? `${replay.memories[replay.memoryOf(r)]}/${id}`, placed: new Set() })
      } else if (k === RECORD_KIND.placed) {
        const p = store.placed
        const desc = p.desc.data[r]
        const texture = p.kind.data[r] === 1
        const table = texture ? store.textures : store.buffers
        const id = p.id.data[r]
        const size = table.size.data[desc]
        const heap = heaps.get(p.a.data[r])
        end(id, frameNumber)
        live.set(id, rows.length++)
        heap?.placed.add(id)
        rows.id.push(id)
        rows.kind.push('placed')
        rows.name.push(text(table.name.data[desc]))
        rows.tag.push(text(table.tag.data[desc]))
        rows.placement.push(OBSERVED_PLACEMENT)
        rows.heap.push(heap?.memory ?? null)
        rows.pool.push(heap?.name ?? null)
        rows.offset.push(p.b.data[r])
        rows.requested.push(Number.isNaN(size) ? null : size)
        rows.occupied.push(Number.isNaN(size) ? null : size)
        rows.alignment.push(null)
        rows.createdFrame.push(frameNumber)
        rows.releasedFrame.push(null)
        rows.route.push(null)
      } else if (k === RECORD_KIND.release) {
        end(store.ops[r], frameNumber)
      } else if (k === RECORD_KIND.free) {
        const id = store.ops[r]
        const heap = heaps.get(id)
        if (heap) {
          for (const p of heap.placed) end(p, frameNumber)
          heaps.delete(id)
        } else end(id, frameNumber)
      }
    }
  }
  return rows
}
