/**
 * The frame inspector at the timeline's cursor: the live resources as a sorted, filtered table the engine serves
 * a page at a time (the view asks for the pages it scrolls to), the pool block maps, the selected resource's
 * details (desc, lifetime, route), and, while playback runs, the table kept live from the frames it streams.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type {
  HazardEntry,
  HazardsAnswer,
  PlaybackFrame,
  ResourceDetails,
  ResourceFilter,
  ResourcePage,
  ResourceRow,
  ResourceSortKey,
  Snapshot,
} from '../../../shared/ipc'
import { useApi } from '../api'
import { Latest } from '../lib/latest'
import { useRunsStore } from './runs'
import { useTimelineStore } from './timeline'

/** Rows per page asked of the engine as the table scrolls. */
export const PAGE_ROWS = 200
/** Rows per request when exporting the whole table (the engine's page limit). */
export const EXPORT_PAGE_ROWS = 5000
/** Rows kept in the live table during playback. */
export const LIVE_ROWS = 2000

export type InspectorTab = 'resources' | 'pools' | 'range' | 'hazards' | 'search'

/** Hazards and warnings listed at once (the engine pages them; the list is short in practice). */
export const HAZARD_ROWS = 2000

/** What a finding points at: its resources, and the heap bytes they share, shown on the block maps. */
export interface Focus {
  ids: Set<number>
  heapId: number | null
  range: [number, number] | null
}
export type ColorBy = 'placement' | 'tag'

export interface SortState {
  key: ResourceSortKey
  descending: boolean
}

interface FrameRequest {
  runId: string
  frame: number
  sort: SortState
  filter: ResourceFilter
  /** The pools' blocks too: only while the pool maps are shown (a large run's blocks are megabytes a frame). */
  blocks: boolean
}

export interface LiveState {
  frame: number
  frameNumber: number
  liveCount: number
  heapBytes: Record<string, number>
  residentBytes: number
  skipped: number
  /** Ids created in the latest frame (highlighted). */
  fresh: Set<number>
  released: number
}

const key = (r: FrameRequest) => `${r.runId}|${r.frame}|${r.sort.key}|${r.sort.descending}|${JSON.stringify(r.filter)}`

export const useInspectorStore = defineStore('inspector', () => {
  const runs = useRunsStore()
  const timeline = useTimelineStore()

  const tab = ref<InspectorTab>('resources')
  const colorBy = ref<ColorBy>('placement')
  const sort = shallowRef<SortState>({ key: 'occupied', descending: true })
  const filter = shallowRef<ResourceFilter>({})
  /** Frame index the table and pools show, and a count of frames shown (views and benchmarks watch it). */
  const frame = ref<number | null>(null)
  const seq = ref(0)
  const total = ref(0)
  const facets = shallowRef<ResourcePage['facets']>({ placement: [], heap: [], tag: [] })
  const pages = shallowRef(new Map<number, ResourceRow[]>())
  const snapshot = shallowRef<Snapshot | null>(null)
  const selectedId = ref<number | null>(null)
  const details = shallowRef<ResourceDetails | null>(null)
  const detailsMissing = ref(false)
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** Playback: the live table and the figures of the latest frame streamed. */
  const live = shallowRef<LiveState | null>(null)
  const liveRows = shallowRef<ResourceRow[]>([])
  /** Inspector views shown: queries run only while someone looks. */
  const active = ref(true)
  /** The run's hazards and API-usage warnings, and the one the user opened. */
  const hazards = shallowRef<HazardsAnswer | null>(null)
  const focus = shallowRef<Focus | null>(null)
  /** Every live resource's tag at the frame shown, fetched when the block maps are coloured by tag. */
  const tags = shallowRef<Map<number, string> | null>(null)
  let tagsFor: string | null = null

  let current: FrameRequest | null = null
  const pending = new Set<number>()

  const frameQuery = new Latest<FrameRequest, [ResourcePage, Snapshot]>(
    (r) => {
      performance.mark('hs:inspector:asked')
      const api = useApi()
      return Promise.all([
        api.resources({ runId: r.runId, frame: r.frame, sort: r.sort.key, descending: r.sort.descending, filter: r.filter, offset: 0, limit: PAGE_ROWS }),
        api.snapshot({ runId: r.runId, frame: r.frame, blocks: r.blocks }),
      ])
    },
    ([page, snap], r) => {
      performance.mark('hs:inspector:answered')
      current = r
      pending.clear()
      pages.value = markRaw(new Map([[0, page.rows]]))
      total.value = page.total
      facets.value = page.facets
      snapshot.value = markRaw(snap)
      frame.value = r.frame
      loading.value = false
      error.value = null
      seq.value++
      if (selectedId.value !== null) void loadDetails(selectedId.value)
      if (colorBy.value === 'tag') void loadTags()
      // asked before the pool maps were shown: ask again, with the blocks
      if (snap.blocksLeftOut && tab.value === 'pools') void showFrame(r.frame)
    },
    (err) => {
      loading.value = false
      error.value = err instanceof Error ? err.message : String(err)
    },
  )

  function request(frameIndex: number): FrameRequest | null {
    const run = runs.current
    if (!run) return null
    return { runId: run.runId, frame: frameIndex, sort: sort.value, filter: filter.value, blocks: tab.value === 'pools' }
  }

  /** The frame last asked for (its answer may be on its way). */
  let asked: number | null = null

  /** Show frame `frameIndex`: the first page and the pool maps; later pages come as the table scrolls. */
  function showFrame(frameIndex: number | null): Promise<void> {
    if (frameIndex === null) return Promise.resolve()
    const r = request(frameIndex)
    if (!r) return Promise.resolve()
    asked = frameIndex
    loading.value = true
    return frameQuery.request(r)
  }

  function reload(): Promise<void> {
    const f = frame.value ?? timeline.cursor
    return showFrame(f)
  }

  /** Make sure rows [start, end) are loaded (or on their way). */
  function ensureRows(start: number, end: number): void {
    const r = current
    if (!r || live.value) return
    const first = Math.max(0, Math.floor(start / PAGE_ROWS))
    const last = Math.min(Math.ceil(total.value / PAGE_ROWS) - 1, Math.floor(Math.max(start, end - 1) / PAGE_ROWS))
    for (let p = first; p <= last; p++) {
      if (pages.value.has(p) || pending.has(p)) continue
      pending.add(p)
      const k = key(r)
      useApi()
        .resources({ runId: r.runId, frame: r.frame, sort: r.sort.key, descending: r.sort.descending, filter: r.filter, offset: p * PAGE_ROWS, limit: PAGE_ROWS })
        .then((page) => {
          if (!current || key(current) !== k) return
          const next = new Map(pages.value)
          next.set(p, page.rows)
          pages.value = markRaw(next)
        })
        .catch((err: unknown) => {
          error.value = err instanceof Error ? err.message : String(err)
        })
        .finally(() => pending.delete(p))
    }
  }

  const rowCount = computed(() => (live.value ? liveRows.value.length : total.value))

  function rowAt(i: number): ResourceRow | undefined {
    if (live.value) return liveRows.value[i]
    return pages.value.get(Math.floor(i / PAGE_ROWS))?.[i % PAGE_ROWS]
  }

  function setSort(next: ResourceSortKey): Promise<void> {
    const s = sort.value
    // a second click on a column flips it; a new column starts with its most telling end
    const numeric = next !== 'name' && next !== 'tag' && next !== 'kind' && next !== 'placement' && next !== 'heap' && next !== 'pool'
    sort.value = s.key === next ? { key: next, descending: !s.descending } : { key: next, descending: numeric }
    return reload()
  }

  function setFilter(patch: Partial<ResourceFilter>): Promise<void> {
    const next: ResourceFilter = { ...filter.value, ...patch }
    for (const k of Object.keys(next) as (keyof ResourceFilter)[]) {
      const v = next[k]
      if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k]
    }
    filter.value = next
    return reload()
  }

  function clearFilter(): Promise<void> {
    filter.value = {}
    return reload()
  }

  async function loadDetails(id: number): Promise<void> {
    const run = runs.current
    const f = frame.value
    if (!run || f === null) return
    try {
      const answer = await useApi().resource({ runId: run.runId, frame: f, id })
      if (selectedId.value !== id) return
      details.value = answer ? markRaw(answer) : null
      detailsMissing.value = answer === null
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  function select(id: number | null): Promise<void> {
    selectedId.value = id
    details.value = null
    detailsMissing.value = false
    if (id === null) return Promise.resolve()
    return loadDetails(id)
  }

  /** Every row matching the filter, in the table's order (for CSV export). */
  async function allRows(): Promise<ResourceRow[]> {
    const r = current
    if (!r) return []
    if (live.value) return [...liveRows.value]
    const out: ResourceRow[] = []
    for (let offset = 0; offset < total.value; offset += EXPORT_PAGE_ROWS) {
      const page = await useApi().resources({
        runId: r.runId,
        frame: r.frame,
        sort: r.sort.key,
        descending: r.sort.descending,
        filter: r.filter,
        offset,
        limit: EXPORT_PAGE_ROWS,
      })
      out.push(...page.rows)
      if (page.rows.length === 0) break
    }
    return out
  }

  /** Tags of every live resource at the frame shown (pages of the engine's table, sorted by id, unfiltered). */
  async function loadTags(): Promise<void> {
    const run = runs.current
    const f = frame.value
    if (!run || f === null) return
    const want = `${run.runId}|${f}`
    if (tagsFor === want) return
    tagsFor = want
    const map = new Map<number, string>()
    try {
      for (let offset = 0; ; offset += EXPORT_PAGE_ROWS) {
        const page = await useApi().resources({ runId: run.runId, frame: f, sort: 'id', offset, limit: EXPORT_PAGE_ROWS })
        if (tagsFor !== want) return
        for (const row of page.rows) map.set(row.id, row.tag)
        if (page.rows.length < EXPORT_PAGE_ROWS || map.size >= page.total) break
      }
      tags.value = markRaw(map)
    } catch (err) {
      tagsFor = null
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  async function loadHazards(): Promise<void> {
    const run = runs.current
    if (!run?.checks) return
    try {
      const answer = await useApi().hazards({ runId: run.runId, offset: 0, limit: HAZARD_ROWS })
      if (runs.current?.runId === run.runId) hazards.value = markRaw(answer)
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  /** Go to a finding: its frame, its first resource explained, its resources and bytes marked on the block maps. */
  function openHazard(entry: HazardEntry): void {
    focus.value = markRaw({ ids: new Set(entry.resources), heapId: entry.heap, range: entry.range })
    timeline.setCursor(entry.frame)
    tab.value = 'pools'
    void select(entry.resources[0] ?? null)
  }

  function setColorBy(next: ColorBy): void {
    colorBy.value = next
    if (next === 'tag') void loadTags()
  }

  /** Playback starts: the table becomes the rows on screen, kept live from the frames streamed. */
  function beginPlayback(): void {
    const rows: ResourceRow[] = []
    for (const page of [...pages.value.keys()].sort((a, b) => a - b)) rows.push(...(pages.value.get(page) ?? []))
    liveRows.value = markRaw(rows.slice(0, LIVE_ROWS))
    const f = frame.value ?? 0
    live.value = markRaw({
      frame: f,
      frameNumber: timeline.frameNumber(f),
      liveCount: total.value,
      heapBytes: {},
      residentBytes: snapshot.value?.residency.residentBytes ?? 0,
      skipped: 0,
      fresh: new Set<number>(),
      released: 0,
    })
  }

  function applyPlayback(f: PlaybackFrame): void {
    const released = new Set(f.released)
    const kept = released.size ? liveRows.value.filter((row) => !released.has(row.id)) : liveRows.value
    const created = [...f.created].reverse()
    liveRows.value = markRaw([...created, ...kept].slice(0, LIVE_ROWS))
    live.value = markRaw({
      frame: f.frame,
      frameNumber: f.frameNumber,
      liveCount: f.liveCount,
      heapBytes: f.heapBytes,
      residentBytes: f.residentBytes,
      skipped: (live.value?.skipped ?? 0) + f.skipped,
      fresh: new Set(f.created.map((row) => row.id)),
      released: f.released.length,
    })
  }

  /** Playback stopped: back to the engine's table at the cursor. */
  function endPlayback(): Promise<void> {
    live.value = null
    liveRows.value = []
    return showFrame(timeline.cursor)
  }

  function reset(): void {
    frameQuery.reset()
    current = null
    asked = null
    pending.clear()
    pages.value = markRaw(new Map())
    total.value = 0
    snapshot.value = null
    frame.value = null
    selectedId.value = null
    details.value = null
    live.value = null
    liveRows.value = []
    error.value = null
    tags.value = null
    tagsFor = null
    hazards.value = null
    focus.value = null
  }

  watch(
    () => runs.current?.runId,
    () => {
      reset()
      filter.value = {}
      void loadHazards()
    },
    { immediate: true },
  )
  // a run that grows (a capture followed as it is written) finds more: the list shows them
  watch(
    () => {
      const checks = runs.current?.checks
      return checks ? checks.hazards + Object.values(checks.warnings).reduce((sum, n) => sum + n, 0) : 0
    },
    (found, before) => {
      if (found !== before && hazards.value) void loadHazards()
    },
  )
  watch(
    () => timeline.cursor,
    (c) => {
      if (!live.value && active.value) void showFrame(c)
    },
  )
  // the pool maps shown: the frame's blocks, which were left out while they were not
  watch(tab, (t) => {
    if (t === 'pools' && snapshot.value?.blocksLeftOut && !live.value && active.value) void showFrame(asked ?? frame.value)
  })

  function setActive(on: boolean): void {
    active.value = on
    if (on && !live.value && timeline.cursor !== null && timeline.cursor !== frame.value) void showFrame(timeline.cursor)
  }

  return {
    tab,
    colorBy,
    sort,
    filter,
    frame,
    seq,
    total,
    facets,
    pages,
    snapshot,
    selectedId,
    details,
    detailsMissing,
    loading,
    error,
    live,
    liveRows,
    active,
    tags,
    hazards,
    focus,
    rowCount,
    showFrame,
    reload,
    ensureRows,
    rowAt,
    setSort,
    setFilter,
    clearFilter,
    select,
    allRows,
    loadTags,
    loadHazards,
    openHazard,
    setColorBy,
    beginPlayback,
    applyPlayback,
    endPlayback,
    reset,
    setActive,
  }
})
