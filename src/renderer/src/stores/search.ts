/**
 * Capture-wide search: every resource run A ever made whose name, glob, regex or id matches the text, a page at a
 * time from the engine, with the placement and size history of the one opened. Opening a match moves the cursor to
 * its creation frame and explains it in the inspector.
 */
import { defineStore } from 'pinia'
import { markRaw, ref, shallowRef, watch } from 'vue'
import type { SearchAnswer, SearchHistoryEntry, SearchRow } from '../../../shared/ipc'
import { useApi } from '../api'
import { Latest } from '../lib/latest'
import { useInspectorStore } from './inspector'
import { useRunsStore } from './runs'
import { useTimelineStore } from './timeline'

/** Matches fetched a page at a time; "more" asks for the next. */
export const SEARCH_PAGE = 200

export const useSearchStore = defineStore('search', () => {
  const runs = useRunsStore()
  const text = ref('')
  const answer = shallowRef<SearchAnswer | null>(null)
  const rows = shallowRef<SearchRow[]>([])
  const loading = ref(false)
  const error = ref<string | null>(null)
  /** The match opened, and where it was over its life. */
  const opened = ref<number | null>(null)
  const history = shallowRef<SearchHistoryEntry[] | null>(null)

  const query = new Latest<{ runId: string; text: string; offset: number }, SearchAnswer>(
    (r) => useApi().search({ runId: r.runId, text: r.text, offset: r.offset, limit: SEARCH_PAGE }),
    (a, r) => {
      answer.value = markRaw(a)
      rows.value = markRaw(r.offset === 0 ? a.rows : [...rows.value, ...a.rows])
      loading.value = false
      error.value = a.error ?? null
    },
    (err) => {
      loading.value = false
      error.value = err instanceof Error ? err.message : String(err)
    },
  )

  function run(next: string): Promise<void> {
    text.value = next
    opened.value = null
    history.value = null
    const r = runs.current
    if (!r || next.trim() === '') {
      query.reset()
      answer.value = null
      rows.value = []
      loading.value = false
      error.value = null
      return Promise.resolve()
    }
    loading.value = true
    return query.request({ runId: r.runId, text: next, offset: 0 })
  }

  function more(): Promise<void> {
    const r = runs.current
    if (!r || !answer.value || rows.value.length >= answer.value.total) return Promise.resolve()
    loading.value = true
    return query.request({ runId: r.runId, text: text.value, offset: rows.value.length })
  }

  /** Open a match: the cursor at its creation, the inspector explaining it, its history fetched. */
  async function open(row: SearchRow): Promise<void> {
    const r = runs.current
    if (!r) return
    opened.value = row.index
    history.value = null
    useTimelineStore().setCursor(row.created)
    void useInspectorStore().select(row.id)
    try {
      const a = await useApi().search({ runId: r.runId, text: text.value, offset: row.index, limit: 0, historyOf: row.index })
      if (opened.value === row.index && a.history?.index === row.index) history.value = markRaw(a.history.entries)
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  watch(
    () => runs.current?.runId,
    () => void run(''),
  )

  return { text, answer, rows, loading, error, opened, history, run, more, open }
})
