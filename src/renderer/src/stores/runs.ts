/**
 * Runs: the captures the app has loaded, the one on screen, loads in progress and their errors. The only
 * store that talks to the host (through useApi); views read its state and call its actions.
 */
import { defineStore } from 'pinia'
import { markRaw, ref, shallowRef } from 'vue'
import {
  SERIES,
  type AppInfo,
  type LoadErrorInfo,
  type LoadOutcome,
  type LoadProgress,
  type RunSummary,
  type SeriesAnswer,
  type Unsubscribe,
} from '../../../shared/ipc'
import { useApi } from '../api'

export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024
/** Buckets asked for the whole-capture overview; zoomed windows ask again at this resolution. */
export const OVERVIEW_RESOLUTION = 2000

export interface TimelineData {
  /** The capture's frame number of each point. */
  frame: Float64Array
  requested: Float64Array
  count: Float64Array
  /** Frames per point; 1 when every frame is shown. */
  width: number
}

export interface PendingLoad {
  loadId: string
  name: string
  progress: LoadProgress | null
}

let loadCounter = 0
const newLoadId = () => `load-${Date.now().toString(36)}-${(loadCounter++).toString(36)}`

function toTimeline(answer: SeriesAnswer): TimelineData {
  const requested = answer.series[SERIES.liveRequested]
  const count = answer.series[SERIES.liveCount]
  return markRaw({
    frame: answer.frame,
    requested: requested ? requested.max : new Float64Array(answer.frame.length),
    count: count ? count.max : new Float64Array(answer.frame.length),
    width: answer.width,
  })
}

export const useRunsStore = defineStore('runs', () => {
  const info = shallowRef<AppInfo | null>(null)
  const current = shallowRef<RunSummary | null>(null)
  const timeline = shallowRef<TimelineData | null>(null)
  const loading = ref<PendingLoad | null>(null)
  const error = shallowRef<LoadErrorInfo | null>(null)
  /** A partial run kept in the engine after a fatal fault, offered to the user. */
  const partial = shallowRef<RunSummary | null>(null)
  /** Cursor frame (the capture's frame number). */
  const cursor = ref<number | null>(null)
  let unsubscribe: Unsubscribe | undefined

  async function init(): Promise<void> {
    const api = useApi()
    unsubscribe?.()
    unsubscribe = api.onProgress((progress) => {
      if (loading.value && progress.loadId === loading.value.loadId) loading.value.progress = progress
    })
    info.value = await api.appInfo()
    if (info.value.openAtStart) await open(info.value.openAtStart)
  }

  async function fetchTimeline(run: RunSummary): Promise<void> {
    const answer = await useApi().series({
      runId: run.runId,
      series: [SERIES.liveRequested, SERIES.liveCount],
      from: 0,
      to: run.frames,
      resolution: OVERVIEW_RESOLUTION,
    })
    if (current.value?.runId === run.runId) timeline.value = toTimeline(answer)
  }

  async function show(run: RunSummary): Promise<void> {
    const previous = current.value
    current.value = run
    cursor.value = null
    timeline.value = null
    await fetchTimeline(run)
    if (previous && previous.runId !== run.runId) await useApi().closeRun(previous.runId)
  }

  async function settle(outcome: LoadOutcome): Promise<void> {
    if (!outcome.ok) {
      if (!outcome.cancelled) error.value = outcome.error
      return
    }
    if (outcome.error) {
      // a fault part way: keep the run on screen, offer what came before the fault
      error.value = outcome.error
      if (partial.value) await useApi().closeRun(partial.value.runId)
      partial.value = outcome.summary
      return
    }
    error.value = null
    await show(outcome.summary)
  }

  async function track(name: string, start: (loadId: string) => Promise<LoadOutcome | null>): Promise<void> {
    if (loading.value) return
    const loadId = newLoadId()
    loading.value = { loadId, name, progress: null }
    try {
      const outcome = await start(loadId)
      if (outcome) await settle(outcome)
    } catch (err) {
      error.value = { file: name, message: err instanceof Error ? err.message : String(err), line: 0, byteOffset: 0, expected: '' }
    } finally {
      loading.value = null
    }
  }

  function open(fileId: string): Promise<void> {
    const entry = info.value?.captures.find((c) => c.fileId === fileId)
    return track(entry?.name ?? fileId, (loadId) => useApi().openCapture({ fileId, loadId }))
  }

  function openDialog(): Promise<void> {
    return track('…', (loadId) => useApi().openCaptureDialog(loadId))
  }

  /** Stream a file the user dropped or picked to the engine, chunk by chunk, each awaited. */
  function upload(file: File): Promise<void> {
    return track(file.name, async (loadId) => {
      const api = useApi()
      await api.beginUpload({ loadId, name: file.name, bytes: file.size })
      for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
        const chunk = new Uint8Array(await file.slice(offset, offset + UPLOAD_CHUNK_BYTES).arrayBuffer())
        if (!(await api.uploadChunk({ loadId, data: chunk }))) break
      }
      return api.endUpload(loadId)
    })
  }

  async function cancel(): Promise<void> {
    if (loading.value) await useApi().cancelLoad(loading.value.loadId)
  }

  async function openPartial(): Promise<void> {
    const run = partial.value
    if (!run) return
    partial.value = null
    error.value = null
    await show(run)
  }

  async function dismissError(): Promise<void> {
    error.value = null
    if (partial.value) {
      const run = partial.value
      partial.value = null
      await useApi().closeRun(run.runId)
    }
  }

  function setCursor(frame: number | null): void {
    cursor.value = frame
  }

  return {
    info,
    current,
    timeline,
    loading,
    error,
    partial,
    cursor,
    init,
    open,
    openDialog,
    upload,
    cancel,
    openPartial,
    dismissError,
    setCursor,
  }
})
