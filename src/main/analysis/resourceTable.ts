/**
 * The live resources of a frame as columns: what every backend's snapshot gives the inspector's table, sorted and
 * filtered a page at a time, and what searches, leak groups and comparisons read.
 */
import type { ResourceFilter, ResourcePage, ResourceQuery, ResourceRow, ResourceSortKey } from '../../shared/ipc'

/** The columns of a ResourceTable. */
export interface ResourceColumns {
  id: Float64Array
  occupied: Float64Array
  requested: Float64Array
  offset: Float64Array
  created: Float64Array
  /** Index of the create record, -1 when unknown. */
  createRecord: Float64Array
  estimated: Uint8Array
  /** A reserved resource's virtual size, 0 for every other; absent when the run has none. */
  virtual?: Float64Array
  /** The text columns, or what builds them when first read (a snapshot that shows no table never needs them). */
  text: ResourceTable['text'] | (() => ResourceTable['text'])
  /**
   * One row's text and the facets, as the text columns would give them: what a first page reads before any text
   * sort or filter needs every row's (a page of 100 rows out of 90 000 builds 100 rows' names, not 90 000).
   */
  rowText?: (i: number) => RowText
  facets?: () => ResourcePage['facets']
}

/** One row's text (ResourceColumns.rowText). */
export interface RowText {
  name: string
  tag: string
  placement: string
  heap: string
  pool: string | null
  kind: 'buffer' | 'texture'
}

/** The most rows a page's first rows are found for without sorting the table (ResourceTable.first). */
const FIRST_ROWS = 1000

type TextColumns = { name: string[]; tag: string[]; placement: string[]; heap: string[]; pool: (string | null)[]; kind: ('buffer' | 'texture')[] }

/** The live resources of a frame as columns, plus the row objects built lazily for the pages people see. */
export class ResourceTable {
  readonly length: number
  readonly id: Float64Array
  readonly occupied: Float64Array
  readonly requested: Float64Array
  readonly offset: Float64Array
  readonly created: Float64Array
  readonly createRecord: Float64Array
  readonly estimated: Uint8Array
  readonly virtual: Float64Array | undefined
  private readonly sorted = new Map<string, Uint32Array>()
  private textColumns: TextColumns | (() => TextColumns)
  private readonly rowText: ((i: number) => RowText) | undefined
  private readonly facetsOf: (() => ResourcePage['facets']) | undefined
  private facetsFound: ResourcePage['facets'] | undefined

  constructor(readonly frameNumber: number, columns: ResourceColumns) {
    this.length = columns.id.length
    this.id = columns.id
    this.occupied = columns.occupied
    this.requested = columns.requested
    this.offset = columns.offset
    this.created = columns.created
    this.createRecord = columns.createRecord
    this.estimated = columns.estimated
    this.virtual = columns.virtual
    this.textColumns = columns.text
    this.rowText = columns.rowText
    this.facetsOf = columns.facets
  }

  /** Names, tags, placements, heaps, pools and kinds by row. */
  get text(): TextColumns {
    if (typeof this.textColumns === 'function') this.textColumns = this.textColumns()
    return this.textColumns
  }

  row(i: number): ResourceRow {
    const t: RowText =
      typeof this.textColumns === 'function' && this.rowText !== undefined
        ? this.rowText(i)
        : {
            name: this.text.name[i],
            tag: this.text.tag[i],
            kind: this.text.kind[i],
            placement: this.text.placement[i],
            heap: this.text.heap[i],
            pool: this.text.pool[i],
          }
    return {
      id: this.id[i],
      name: t.name,
      tag: t.tag,
      kind: t.kind,
      placement: t.placement,
      heap: t.heap,
      pool: t.pool,
      offset: this.offset[i],
      occupied: this.occupied[i],
      requested: this.requested[i],
      waste: this.occupied[i] - this.requested[i],
      created: this.created[i],
      age: this.frameNumber - this.created[i],
      estimated: this.estimated[i] === 1,
      virtual: this.virtual && this.virtual[i] > 0 ? this.virtual[i] : null,
    }
  }

  /** Row indices in the order of a sort key, computed once per key and direction. */
  order(key: ResourceSortKey, descending: boolean): Uint32Array {
    const cacheKey = `${key}:${descending ? 1 : 0}`
    let order = this.sorted.get(cacheKey)
    if (order) return order
    order = new Uint32Array(this.length)
    for (let i = 0; i < order.length; i++) order[i] = i
    const numeric: Record<string, Float64Array | undefined> = {
      id: this.id,
      offset: this.offset,
      occupied: this.occupied,
      requested: this.requested,
      created: this.created,
    }
    let compare: (a: number, b: number) => number
    if (key === 'waste') compare = (a, b) => this.occupied[a] - this.requested[a] - (this.occupied[b] - this.requested[b])
    else if (key === 'age') compare = (a, b) => this.created[b] - this.created[a]
    else if (numeric[key]) {
      const column = numeric[key]
      compare = (a, b) => column[a] - column[b]
    } else {
      const column = this.text[key as 'name' | 'tag' | 'placement' | 'heap' | 'pool' | 'kind']
      compare = (a, b) => {
        const x = column[a] ?? ''
        const y = column[b] ?? ''
        return x < y ? -1 : x > y ? 1 : 0
      }
    }
    const sign = descending ? -1 : 1
    // ties broken by id so pages are stable
    order.sort((a, b) => sign * compare(a, b) || this.id[a] - this.id[b])
    this.sorted.set(cacheKey, order)
    return order
  }

  /** A page of the rows a query's filter keeps, in its order, with the facets present at this frame. */
  page(query: ResourceQuery, frame: number): ResourcePage {
    const key = query.sort ?? 'id'
    const descending = query.descending ?? false
    const needle = (query.filter?.name ?? '').toLowerCase()
    const offset = Math.max(0, Math.floor(query.offset))
    const limit = Math.max(0, Math.min(5000, Math.floor(query.limit)))
    const rows: ResourceRow[] = []
    let total = 0
    const first = this.sorted.has(`${key}:${descending ? 1 : 0}`) ? null : this.first(key, descending, offset + limit, query.filter, needle)
    if (first !== null) {
      for (let k = offset; k < first.rows.length; k++) rows.push(this.row(first.rows[k]))
      total = first.total
    } else {
      const order = this.order(key, descending)
      for (let k = 0; k < order.length; k++) {
        const i = order[k]
        if (!this.matches(i, query.filter, needle)) continue
        if (total >= offset && rows.length < limit) rows.push(this.row(i))
        total++
      }
    }
    return { runId: query.runId, frame, total, offset, rows, facets: this.facets() }
  }

  /** The distinct placements, heaps and tags of the rows, sorted, empty ones left out; found once. */
  facets(): ResourcePage['facets'] {
    if (this.facetsFound !== undefined) return this.facetsFound
    if (typeof this.textColumns === 'function' && this.facetsOf !== undefined) return (this.facetsFound = this.facetsOf())
    const text = this.text
    return (this.facetsFound = { placement: distinct(text.placement), heap: distinct(text.heap), tag: distinct(text.tag) })
  }

  /**
   * The first `count` rows the filter keeps in the order of a numeric key (order()'s: the key, then the id, then
   * the row), and how many it keeps, without sorting every row: what the first pages of a table ask, before any
   * order is cached. A heap of the `count` first rows seen so far. null where order() is needed: a text key, more
   * than FIRST_ROWS rows, or a key or id that is NaN (a sort's order of those is its own).
   */
  private first(key: ResourceSortKey, descending: boolean, count: number, filter: ResourceFilter | undefined, needle: string): { rows: number[]; total: number } | null {
    if (count > FIRST_ROWS) return null
    const n = this.length
    let value: Float64Array
    const id = this.id
    if (key === 'waste') {
      value = new Float64Array(n)
      for (let i = 0; i < n; i++) value[i] = this.occupied[i] - this.requested[i]
    } else if (key === 'age') {
      value = new Float64Array(n)
      for (let i = 0; i < n; i++) value[i] = -this.created[i]
    } else if (key === 'id' || key === 'offset' || key === 'occupied' || key === 'requested' || key === 'created') value = this[key]
    else return null
    for (let i = 0; i < n; i++) if (Number.isNaN(value[i]) || Number.isNaN(id[i])) return null
    const sign = descending ? -1 : 1
    // order()'s comparison; its sort is stable, so rows it finds equal keep their row order.
    const before = (a: number, b: number): boolean => {
      const c = sign * (value[a] - value[b]) || id[a] - id[b]
      return c < 0 || (c === 0 && a < b)
    }
    // heap[0] is the last of the first rows kept.
    const heap: number[] = []
    let total = 0
    for (let i = 0; i < n; i++) {
      if (!this.matches(i, filter, needle)) continue
      total++
      if (heap.length < count) {
        let k = heap.length
        heap.push(i)
        while (k > 0) {
          const up = (k - 1) >> 1
          if (!before(heap[up], heap[k])) break
          ;[heap[up], heap[k]] = [heap[k], heap[up]]
          k = up
        }
      } else if (count > 0 && before(i, heap[0])) {
        heap[0] = i
        for (let k = 0; ; ) {
          const l = 2 * k + 1
          if (l >= count) break
          const r = l + 1
          const down = r < count && before(heap[l], heap[r]) ? r : l
          if (!before(heap[k], heap[down])) break
          ;[heap[down], heap[k]] = [heap[k], heap[down]]
          k = down
        }
      }
    }
    return { rows: heap.sort((a, b) => (before(a, b) ? -1 : 1)), total }
  }

  matches(i: number, filter: ResourceFilter | undefined, needle: string): boolean {
    if (!filter) return true
    if (filter.placement?.length && !filter.placement.includes(this.text.placement[i])) return false
    if (filter.heap?.length && !filter.heap.includes(this.text.heap[i])) return false
    if (filter.tag?.length && !filter.tag.includes(this.text.tag[i])) return false
    if (needle && !this.text.name[i].toLowerCase().includes(needle)) return false
    return true
  }
}

/** The distinct non-empty values, sorted. */
export function distinct(values: readonly (string | null)[]): string[] {
  const seen = new Set<string>()
  for (const v of values) if (v) seen.add(v)
  return [...seen].sort()
}
