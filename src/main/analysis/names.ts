/**
 * The `name` records of a capture (format 1.3, docs/capture-format-vulkan.md): a resource or application heap can
 * be named after its create, and renamed any number of times. The capture keeps every name; what a frame shows is
 * the latest one given by the end of that frame, after the create of the id it names (ids may be reused).
 */
import { RECORD_KIND, type CaptureStore } from '../ingest/store'

interface NameHistory {
  /** Record indices, ascending. */
  records: number[]
  names: string[]
}

export class CaptureNames {
  private readonly resources = new Map<number, NameHistory>()
  private readonly memories = new Map<number, NameHistory>()
  /** How many `name` records the capture has. */
  readonly count: number

  constructor(store: CaptureStore) {
    let count = 0
    const { kind, ref, length } = store.records
    for (let i = 0; i < length; i++) {
      if (kind[i] !== RECORD_KIND.name) continue
      const r = JSON.parse(store.raw[ref[i]]) as { id?: unknown; memory?: unknown; name?: unknown }
      if (typeof r.name !== 'string') continue
      const map = typeof r.id === 'number' ? this.resources : typeof r.memory === 'number' ? this.memories : undefined
      if (!map) continue
      const key = (typeof r.id === 'number' ? r.id : r.memory) as number
      let history = map.get(key)
      if (!history) map.set(key, (history = { records: [], names: [] }))
      history.records.push(i)
      history.names.push(r.name)
      count++
    }
    this.count = count
  }

  get empty(): boolean {
    return this.count === 0
  }

  /** The latest name of resource `id` given after record `created` and before record `end`. */
  resource(id: number, created: number, end: number): string | undefined {
    return latest(this.resources.get(id), created, end)
  }

  /** The latest name of application heap `id` given after record `created` and before record `end`. */
  memory(id: number, created: number, end: number): string | undefined {
    return latest(this.memories.get(id), created, end)
  }

  /** The ids of resources the capture names with `name` records. */
  resourceIds(): IterableIterator<number> {
    return this.resources.keys()
  }
}

function latest(history: NameHistory | undefined, created: number, end: number): string | undefined {
  if (!history) return undefined
  const { records } = history
  // the last name record before `end`
  let lo = 0
  let hi = records.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (records[mid] < end) lo = mid + 1
    else hi = mid
  }
  const at = lo - 1
  return at >= 0 && records[at] > created ? history.names[at] : undefined
}
