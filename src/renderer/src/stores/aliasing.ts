/**
 * Aliasing at the cursor frame: each render-graph execution of the frame with its heaps and its resources as
 * offset × pass rectangles, the pairs that share bytes, the saving and the placed-resource cache; and the
 * application heaps with the resources placed in them over the frame's steps, with the frame's aliasing hazards.
 * A hazard opened from the hazards list brings this view to its frame with its resources and bytes outlined.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type { HazardEntry, PlacementsAnswer, TransientAnswer, TransientExecution } from '../../../shared/ipc'
import { useApi } from '../api'
import { Latest } from '../lib/latest'
import { busiestHeaps, MAX_STACKED_HEAPS, type PlacedRef } from '../lib/placementLayout'
import { useRunsStore } from './runs'
import { useTimelineStore } from './timeline'
import { useUiStore } from './ui'

/** What the view shows: a render graph's transient heaps, or the application heaps with their placed resources. */
export type AliasingSection = 'graph' | 'placed'

/** The hazard outlined: what the hazards list says of it. */
export type HazardFocus = Pick<HazardEntry, 'frame' | 'rule' | 'resources' | 'heap' | 'range' | 'message'>

export const useAliasingStore = defineStore('aliasing', () => {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const answer = shallowRef<TransientAnswer | null>(null)
  const placements = shallowRef<PlacementsAnswer | null>(null)
  const selected = ref(0)
  /** The section asked for; `shown` falls back to the other one when the frame has none of it. */
  const section = ref<AliasingSection>('graph')
  const loading = ref(false)
  const error = ref<string | null>(null)
  const active = ref(false)
  /** Resource index under the mouse in the selected execution (its aliases are highlighted). */
  const hovered = ref<number | null>(null)
  /** Placed resource under the mouse, or picked in the list. */
  const placedHovered = shallowRef<PlacedRef | null>(null)
  const focus = shallowRef<HazardFocus | null>(null)
  /** The application heap chosen (its capture id), or null: every heap, or the busiest when there are many. */
  const placedHeap = ref<number | null>(null)

  const query = new Latest<{ runId: string; frame: number }, TransientAnswer>(
    // a run without render-graph transients has no executions to ask for
    (r) => (runs.current?.capabilities.transients ? useApi().transients(r) : Promise.resolve({ runId: r.runId, frame: r.frame, executions: [] })),
    (a) => {
      answer.value = markRaw(a)
      if (selected.value >= a.executions.length) selected.value = 0
      hovered.value = null
      loading.value = false
      error.value = null
    },
    (err) => {
      loading.value = false
      error.value = err instanceof Error ? err.message : String(err)
    },
  )
  const placementsQuery = new Latest<{ runId: string; frame: number }, PlacementsAnswer>(
    (r) => useApi().placements(r),
    (a) => {
      placements.value = markRaw(a)
      placedHovered.value = null
    },
    (err) => {
      error.value = err instanceof Error ? err.message : String(err)
    },
  )

  const execution = computed<TransientExecution | null>(() => answer.value?.executions[selected.value] ?? null)
  const hasGraph = computed(() => (answer.value?.executions.length ?? 0) > 0)
  const hasPlaced = computed(() => (placements.value?.heaps.length ?? 0) > 0)
  const shown = computed<AliasingSection>(() => {
    if (section.value === 'placed' && hasPlaced.value) return 'placed'
    if (section.value === 'graph' && hasGraph.value) return 'graph'
    return hasPlaced.value ? 'placed' : 'graph'
  })
  /** Placed resources in the frame, over all its application heaps. */
  const placedCount = computed(() => (placements.value?.heaps ?? []).reduce((s, h) => s + h.resources.id.length, 0))
  /** Index in the placements answer of the hazard in focus, when the answer is of its frame; else -1. */
  const focusedHazard = computed(() => {
    const f = focus.value
    const p = placements.value
    if (!f || !p || p.frame !== f.frame) return -1
    const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i])
    const exact = p.hazards.findIndex(
      (h) => h.rule === f.rule && h.heap === f.heap && same(h.resources, f.resources) && (!f.range || same(h.range, f.range)),
    )
    if (exact >= 0) return exact
    return p.hazards.findIndex((h) => h.rule === f.rule && h.resources[0] === f.resources[0])
  })

  /** Indices of the application heaps drawn: the one chosen if the frame has it, else all or the busiest. */
  const shownHeaps = computed<number[]>(() => {
    const p = placements.value
    if (!p) return []
    if (placedHeap.value !== null) {
      const i = p.heaps.findIndex((h) => h.id === placedHeap.value)
      if (i >= 0) return [i]
    }
    return p.heaps.length <= MAX_STACKED_HEAPS ? p.heaps.map((_, i) => i) : busiestHeaps(p, focusedHazard.value)
  })

  function load(frame: number | null): Promise<void> {
    const run = runs.current
    if (!run || frame === null) return Promise.resolve()
    loading.value = true
    const request = { runId: run.runId, frame }
    return Promise.all([query.request(request), placementsQuery.request(request)]).then(() => undefined)
  }

  function select(index: number): void {
    selected.value = index
    section.value = 'graph'
    hovered.value = null
  }

  function showSection(next: AliasingSection): void {
    section.value = next
    hovered.value = null
    placedHovered.value = null
  }

  function setActive(on: boolean): void {
    active.value = on
    if (on && timeline.cursor !== null && (answer.value?.frame !== timeline.cursor || placements.value?.frame !== timeline.cursor)) {
      void load(timeline.cursor)
    }
  }

  /** Go to a hazard: this view, at its frame, the application heaps shown with its resources and bytes outlined. */
  function openHazard(entry: HazardFocus): void {
    focus.value = markRaw({ ...entry })
    section.value = 'placed'
    placedHeap.value = null
    placedHovered.value = null
    timeline.setCursor(entry.frame)
    useUiStore().show('aliasing')
  }

  /** Outline hazard `index` of the frame shown. */
  function focusHazard(index: number): void {
    const h = placements.value?.hazards[index]
    if (!h || !placements.value) return
    focus.value = markRaw({ frame: placements.value.frame, rule: h.rule, resources: h.resources, heap: h.heap, range: h.range, message: h.message })
  }

  function showHeap(id: number | null): void {
    placedHeap.value = id
    placedHovered.value = null
  }

  function clearFocus(): void {
    focus.value = null
  }

  /** Indices of the resources sharing bytes with resource `index`. */
  function aliasesOf(index: number): number[] {
    const ex = execution.value
    if (!ex) return []
    const out: number[] = []
    for (let k = 0; k + 1 < ex.overlaps.length; k += 2) {
      if (ex.overlaps[k] === index) out.push(ex.overlaps[k + 1])
      else if (ex.overlaps[k + 1] === index) out.push(ex.overlaps[k])
    }
    return out
  }

  watch(
    () => timeline.cursor,
    (c) => {
      if (active.value) void load(c)
    },
  )
  watch(
    () => runs.current?.runId,
    () => {
      query.reset()
      placementsQuery.reset()
      answer.value = null
      placements.value = null
      selected.value = 0
      section.value = 'graph'
      hovered.value = null
      placedHovered.value = null
      focus.value = null
      placedHeap.value = null
    },
  )

  return {
    answer,
    placements,
    selected,
    section,
    shown,
    hasGraph,
    hasPlaced,
    placedCount,
    loading,
    error,
    active,
    hovered,
    placedHovered,
    focus,
    focusedHazard,
    placedHeap,
    shownHeaps,
    execution,
    load,
    select,
    showSection,
    setActive,
    openHazard,
    focusHazard,
    showHeap,
    clearFocus,
    aliasesOf,
  }
})
