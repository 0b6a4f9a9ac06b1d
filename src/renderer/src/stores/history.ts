/**
 * History: a database of runs over many builds, opened read-only by the host's engine. The store keeps the one
 * open, the metric shown, and its trends per build: in total, per heap and per placement. A build's run opens as
 * run A; "compare with previous" opens the previous build's run as A and this build's as B.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { HistoryGroup, HistoryInfo, HistoryMetric, HistoryTrend } from '../../../shared/ipc'
import { useApi } from '../api'
import { useRunsStore } from './runs'
import { useUiStore } from './ui'

/** The charts of a metric: bytes split by heap and by placement; counts in total only. */
export function groupsOf(metric: HistoryMetric): (HistoryGroup | null)[] {
  return metric === 'peak' || metric === 'end' ? [null, 'heap', 'placement'] : [null]
}

export const useHistoryStore = defineStore('history', () => {
  const info = shallowRef<HistoryInfo | null>(null)
  const metric = ref<HistoryMetric>('peak')
  /** The trends shown: total first, then by heap and by placement for bytes. */
  const trends = shallowRef<HistoryTrend[]>([])
  /** The build picked in a chart, by index. */
  const selected = ref<number | null>(null)
  const error = ref<string | null>(null)
  const busy = ref(false)
  /** The path last typed in the browser host's page. */
  const path = ref('')
  /** Labels the runs must carry (a map, a platform): one value per key, none for all runs. */
  const filters = ref<Record<string, string>>({})

  async function guarded<T>(step: () => Promise<T>): Promise<T | null> {
    busy.value = true
    error.value = null
    try {
      return await step()
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
      return null
    } finally {
      busy.value = false
    }
  }

  async function load(): Promise<void> {
    const open = info.value
    if (!open) return
    const wanted = metric.value
    const labels = filters.value
    const narrowed = Object.keys(labels).length ? { labels } : {}
    const answers = await guarded(() =>
      Promise.all(
        groupsOf(wanted).map((by) => useApi().historyTrend({ historyId: open.historyId, metric: wanted, ...(by ? { by } : {}), ...narrowed })),
      ),
    )
    // a later metric, filter or history won meanwhile
    if (answers && info.value === open && metric.value === wanted && filters.value === labels) trends.value = answers
  }

  async function opened(next: HistoryInfo | null): Promise<void> {
    if (!next) return
    const previous = info.value
    info.value = next
    selected.value = null
    filters.value = {}
    trends.value = []
    if (previous) await useApi().closeHistory(previous.historyId).catch(() => undefined)
    await load()
  }

  /** The host's dialog (desktop app). */
  async function openDialog(): Promise<void> {
    await opened(await guarded(() => useApi().openHistoryDialog()))
  }

  /** A path typed in the page (browser host). */
  async function openPath(next: string): Promise<void> {
    path.value = next
    await opened(await guarded(() => useApi().openHistory(next)))
  }

  async function setMetric(next: HistoryMetric): Promise<void> {
    metric.value = next
    await load()
  }

  /** Narrow the runs to a label's value, or all runs again with an empty value; the builds change, the pick goes. */
  async function setFilter(key: string, value: string): Promise<void> {
    const next = { ...filters.value }
    if (value) next[key] = value
    else delete next[key]
    filters.value = next
    selected.value = null
    await load()
  }

  function select(build: number | null): void {
    selected.value = build
  }

  /** The run the history keeps for a build, opened as `slot`. */
  async function openBuild(index: number, slot: 'A' | 'B'): Promise<boolean> {
    const open = info.value
    const build = trends.value[0]?.builds[index]
    if (!open || !build) return false
    const entry = await guarded(() => useApi().historyRun({ historyId: open.historyId, runId: build.runId }))
    if (!entry) return false
    return useRunsStore().open(entry.fileId, slot)
  }

  async function openRun(index: number): Promise<void> {
    if (await openBuild(index, 'A')) useUiStore().show('timeline')
  }

  async function compareWithPrevious(index: number): Promise<void> {
    if (index < 1) return
    if (!(await openBuild(index - 1, 'A'))) return
    if (await openBuild(index, 'B')) useUiStore().show('compare')
  }

  return {
    info,
    metric,
    trends,
    selected,
    error,
    busy,
    path,
    filters,
    openDialog,
    openPath,
    setMetric,
    setFilter,
    select,
    openRun,
    compareWithPrevious,
  }
})
