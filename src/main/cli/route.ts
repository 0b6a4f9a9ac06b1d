/**
 * `heapscope route`: capture records through the D3D12 model, one JSON line per placed request (buffer, texture,
 * transient) in input order. Transients are placed when their graph ends, so the lines after a transient wait
 * until then; everything else is written as soon as it is placed.
 */
import type { AnyCaptureRecord, CaptureHeader } from '../../shared/capture'
import type { ModelConfig } from '../../shared/model'
import { D3D12Model } from '../model/d3d12/model'
import type { ModelPlacement } from '../model/d3d12/model'

export interface RouteOptions {
  config: ModelConfig
  /** The capture's header, when read apart from the records (a header line among the records is used too). */
  header?: CaptureHeader
  /**
   * Whether the capture has `gpu` records, when the caller knows (a loaded store does). Unknown: frames complete
   * framesInFlight later until the first `gpu` record, by the records from then on.
   */
  gpuRecords?: boolean
}

/** The JSON line of one placement, fields in docs/cli.md order. */
export function routeLine(p: ModelPlacement): string {
  return JSON.stringify({
    id: p.id,
    placement: p.placement,
    heap: p.heap,
    alignment: p.alignment,
    size: p.size,
    offset: p.offset,
    pool: p.poolName,
    estimated: p.estimated,
    route: p.route,
  })
}

/** Route every request; the number of requests routed (buffers, textures and transients). */
export async function runRoute(
  records: AsyncIterable<AnyCaptureRecord> | Iterable<AnyCaptureRecord>,
  options: RouteOptions,
  write: (line: string) => void,
): Promise<number> {
  let requests = 0
  let header = options.header
  let model: D3D12Model | null = null
  const ensureModel = (): D3D12Model => {
    if (model === null) {
      model = new D3D12Model(options.config, {
        adapter: header?.adapter,
        budget: header?.budget,
        explicitGpuFences: options.gpuRecords ?? 'auto',
        hasUseRecords: true,
      })
    }
    return model
  }

  // Lines not yet written, in input order; null marks a transient still waiting for its graph's end, false one
  // its graph did not place (nothing to write).
  const queue: (string | null | false)[] = []
  let waiting: number[] = []
  let graphOpen = false
  let lastPass = -1
  const flush = () => {
    let n = 0
    for (; n < queue.length && queue[n] !== null; n++) {
      const line = queue[n]
      if (line !== false) write(line as string)
    }
    if (n > 0) {
      queue.splice(0, n)
      waiting = waiting.map((i) => i - n)
    }
  }
  const endGraph = (passes: number) => {
    const placements = ensureModel().endGraph(passes)
    for (let i = 0; i < placements.length && i < waiting.length; i++) queue[waiting[i]] = routeLine(placements[i])
    // A transient the graph did not place (none expected) must not hold the output back.
    for (let i = placements.length; i < waiting.length; i++) queue[waiting[i]] = false
    waiting = []
    graphOpen = false
    lastPass = -1
    flush()
  }

  for await (const record of records) {
    if (!('e' in record)) {
      const maybeHeader = record as unknown as CaptureHeader
      if (maybeHeader.format !== undefined && model === null) header ??= maybeHeader
      continue
    }
    const r = record
    const m = ensureModel()
    switch (r.e) {
      case 'frame':
        m.beginFrame(r.n)
        break
      case 'gpu':
        m.gpuDone(r.n)
        break
      case 'buffer':
        requests++
        queue.push(routeLine(m.createBuffer(r.id, r)))
        break
      case 'texture':
        requests++
        queue.push(routeLine(m.createTexture(r.id, r)))
        break
      case 'release':
        m.release(r.id)
        break
      case 'commit':
        m.commit(r.id, r.bytes)
        break
      case 'lock':
        m.lock(r.id, r.bytes)
        break
      case 'upload':
        m.upload(r.via, r.bytes, r.count ?? 1)
        break
      case 'use':
        m.use(r.ids)
        break
      case 'budget':
        m.setBudget(r.bytes)
        break
      case 'graph':
        if (graphOpen) endGraph(lastPass + 1)
        m.beginGraph(r.name ?? '')
        graphOpen = true
        break
      case 'transient':
        requests++
        m.transient(r)
        if (graphOpen) {
          waiting.push(queue.length)
          queue.push(null)
          lastPass = Math.max(lastPass, r.last, r.first)
        }
        break
      case 'endgraph':
        endGraph(r.passes)
        break
      default:
        // Manual heaps, placed resources, barriers and accesses belong to the aliasing checks, not to this model.
        break
    }
    if (!graphOpen) flush()
  }
  // A graph still open at the end of the input is closed after its last pass.
  if (graphOpen) endGraph(lastPass + 1)
  ensureModel().endCapture()
  flush()
  return requests
}
