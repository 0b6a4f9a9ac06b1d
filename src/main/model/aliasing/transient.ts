/**
 * The aliasing checks run on a render-graph transient allocator's output. A layout is rectangles (heap, offset,
 * size, first pass, last pass) per graph execution; from it comes the record sequence the RHI issues: per pass,
 * first every acquisition (the placed resource, then an aliasing barrier activating it, naming the last
 * resource that held its bytes), then every access of the pass (an initializing discard and a write at a
 * resource's first pass, a read in the later ones). One execution is one submit, the strictest case for the
 * advanced model. A correct layout yields no hazard in either model; two rectangles sharing bytes and passes do.
 */
import type { CaptureRecord } from '../../../shared/capture'
import type { Bytes } from '../../../shared/units'
import type { TransientPlacementInfo } from '../events'
import { AliasingChecker } from './checker'
import type { Hazard } from './hazards'

/** A layout rectangle; the resource's kind and whether it is a render target when the caller knows. */
export interface TransientRectangle extends TransientPlacementInfo {
  kind?: 'buffer' | 'texture'
  renderTarget?: boolean
}

export interface TransientCheckOptions {
  /** Heap sizes; a heap not listed is as large as its highest rectangle end. */
  heapSizes?: ReadonlyMap<number, Bytes>
}

/** The records the RHI issues for the layout, execution by execution (each execution is a frame). */
export function synthesizeTransientRecords(
  rectangles: readonly TransientRectangle[],
  options: TransientCheckOptions = {},
): CaptureRecord[] {
  const heapEnd = new Map<number, Bytes>()
  for (const r of rectangles) heapEnd.set(r.heap, Math.max(heapEnd.get(r.heap) ?? 0, r.offset + r.size))
  const byExecution = new Map<number, TransientRectangle[]>()
  for (const r of rectangles) {
    const list = byExecution.get(r.execution) ?? []
    list.push(r)
    byExecution.set(r.execution, list)
  }
  const out: CaptureRecord[] = []
  const heapsMade = new Set<number>()
  for (const execution of [...byExecution.keys()].sort((a, b) => a - b)) {
    out.push({ e: 'frame', n: execution })
    const list = (byExecution.get(execution) as TransientRectangle[])
      .slice()
      .sort((a, b) => a.first - b.first || a.heap - b.heap || a.offset - b.offset || a.id - b.id)
    for (const r of list) {
      if (heapsMade.has(r.heap)) continue
      heapsMade.add(r.heap)
      const size = options.heapSizes?.get(r.heap) ?? (heapEnd.get(r.heap) as Bytes)
      out.push({ e: 'heap', id: r.heap, size, type: 'default' })
    }
    const firstPass = Math.min(...list.map((r) => r.first))
    const lastPass = Math.max(...list.map((r) => r.last))
    const acquired: TransientRectangle[] = []
    let next = 0
    for (let pass = firstPass; pass <= lastPass; pass++) {
      while (next < list.length && list[next].first === pass) {
        const r = list[next++]
        out.push(placedRecord(r))
        // The RHI names the resource that last held these bytes as the barrier's `before`.
        let before: TransientRectangle | undefined
        for (const a of acquired) {
          if (a.heap === r.heap && a.offset < r.offset + r.size && r.offset < a.offset + a.size) {
            if (!before || a.last > before.last) before = a
          }
        }
        out.push(before ? { e: 'barrier', after: r.id, before: before.id } : { e: 'barrier', after: r.id })
        acquired.push(r)
      }
      for (const r of acquired) {
        if (pass < r.first || pass > r.last) continue
        if (pass === r.first) {
          if (r.renderTarget) out.push({ e: 'access', id: r.id, op: 'discard' })
          out.push({ e: 'access', id: r.id, op: 'write' })
        } else out.push({ e: 'access', id: r.id, op: 'read' })
      }
    }
    for (const r of list) out.push({ e: 'release', id: r.id })
    out.push({ e: 'submit' })
  }
  return out
}

function placedRecord(r: TransientRectangle): CaptureRecord {
  if (r.kind === 'buffer' && !r.renderTarget) {
    return { e: 'placed', id: r.id, heap: r.heap, offset: r.offset, kind: 'buffer', size: r.size }
  }
  return {
    e: 'placed',
    id: r.id,
    heap: r.heap,
    offset: r.offset,
    kind: 'texture',
    size: r.size,
    flags: r.renderTarget ? ['RenderTargetable', 'ShaderResource'] : ['ShaderResource'],
  }
}

/** Both models' hazards for a layout: none for a correct transient allocator. */
export function checkTransientLayout(
  rectangles: readonly TransientRectangle[],
  options: TransientCheckOptions = {},
): Hazard[] {
  const records = synthesizeTransientRecords(rectangles, options)
  const simple = new AliasingChecker({ model: 'simple' })
  const advanced = new AliasingChecker({ model: 'advanced' })
  for (const record of records) {
    simple.apply(record)
    advanced.apply(record)
  }
  return [...simple.hazards, ...advanced.hazards]
}
