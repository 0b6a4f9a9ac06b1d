/**
 * Transient aliasing at the cursor frame: each render-graph execution of the frame with its heaps and its
 * resources as offset × pass rectangles, the pairs that share bytes, the saving and the placed-resource cache.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type { TransientAnswer, TransientExecution } from '../../../shared/ipc'
import { useApi } from '../api'
import { Latest } from '../lib/latest'
import { useRunsStore } from './runs'
import { useTimelineStore } from './timeline'

export const useAliasingStore = defineStore('aliasing', () => {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const answer = shallowRef<TransientAnswer | null>(null)
  const selected = ref(0)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const active = ref(false)
  /** Resource index under the mouse in the selected execution (its aliases are highlighted). */
  const hovered = ref<number | null>(null)

  const query = new Latest<{ runId: string; frame: number }, TransientAnswer>(
    (r) => useApi().transients(r),
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

  const execution = computed<TransientExecution | null>(() => answer.value?.executions[selected.value] ?? null)

  function load(frame: number | null): Promise<void> {
    const run = runs.current
    if (!run || frame === null) return Promise.resolve()
    loading.value = true
    return query.request({ runId: run.runId, frame })
  }

  function select(index: number): void {
    selected.value = index
    hovered.value = null
  }

  function setActive(on: boolean): void {
    active.value = on
    if (on && timeline.cursor !== null && answer.value?.frame !== timeline.cursor) void load(timeline.cursor)
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
      answer.value = null
      selected.value = 0
      hovered.value = null
    },
  )

  return { answer, selected, loading, error, active, hovered, execution, load, select, setActive, aliasesOf }
})
