/**
 * Runs: the captures the app has loaded, the one on screen (run A) and the one it is compared with (run B: a
 * second capture, or the same capture replayed under other config values), loads in progress and their errors.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type {
  CaptureImportOptions,
  AppInfo,
  CaptureEntry,
  EngineStopped,
  ExportOutcome,
  LoadErrorInfo,
  LoadOutcome,
  LoadProgress,
  RecordInfo,
  RecordRequest,
  RecordStatus,
  RunSummary,
  Unsubscribe,
} from '../../../shared/ipc'
import { IMPORT_MODELS } from '../../../shared/ipc'
import { useApi } from '../api'

export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024

/** Which slot a load fills: the run on screen, or the run it is compared with. */
export type RunSlot = 'A' | 'B'

export interface PendingLoad {
  loadId: string
  name: string
  slot: RunSlot
  /** A replay of run A under other config values. */
  rerun: boolean
  progress: LoadProgress | null
}

/**
 * A capture followed as it is written, shown as run A: the load that follows it, and the program the app started
 * to write it (Capture…), as the host last said.
 */
export interface LiveCapture {
  loadId: string
  name: string
  /** The run, once its first frame is in. */
  runId?: string
  /** Following has ended: the run is a loaded run. */
  ended: boolean
  program?: RecordStatus
  /** The newest summary pushed (it may come before the answer that opened the run). */
  latest?: RunSummary
}

let loadCounter = 0
const newLoadId = () => `load-${Date.now().toString(36)}-${(loadCounter++).toString(36)}`

export const useRunsStore = defineStore('runs', () => {
  const info = shallowRef<AppInfo | null>(null)
  const current = shallowRef<RunSummary | null>(null)
  /** Run B of a comparison. */
  const other = shallowRef<RunSummary | null>(null)
  /** The config overrides run B was replayed with, when it is a what-if of run A. */
  const otherOverrides = shallowRef<Record<string, string> | null>(null)
  const loading = ref<PendingLoad | null>(null)
  const error = shallowRef<LoadErrorInfo | null>(null)
  /** A partial run kept in the engine after a fatal fault, offered to the user. */
  const partial = shallowRef<RunSummary | null>(null)
  const recent = shallowRef<CaptureEntry[]>([])
  /** The engine died: its runs are gone (the host started a new one); the window says so and offers to reopen. */
  const engineStopped = shallowRef<EngineStopped | null>(null)
  /** Where run A came from, so a trace can be read again with other import options. */
  const source = shallowRef<{ fileId: string } | { file: File } | null>(null)
  /** How run A's trace was cut into frames (imported traces: RMV, GPGMM). */
  const importOptions = shallowRef<CaptureImportOptions>({})
  /** The capture being followed (or last followed) as run A. */
  const live = shallowRef<LiveCapture | null>(null)
  /** Whether and where the host can record programs, asked when the Capture dialog opens. */
  const recordInfo = shallowRef<RecordInfo | null>(null)
  let unsubscribe: Unsubscribe | undefined
  let unsubscribeStopped: Unsubscribe | undefined
  let unsubscribeRecording: Unsubscribe | undefined

  /** A followed run grew, or following ended: the run on screen shows what arrived. */
  function followed(progress: LoadProgress): void {
    const summary = progress.summary
    const capture = live.value
    if (!summary || !capture || capture.loadId !== progress.loadId) return
    if (current.value?.runId === summary.runId) current.value = summary
    live.value = { ...capture, runId: summary.runId, latest: summary, ended: !summary.live }
    if (!summary.live && progress.error) error.value = progress.error
  }

  async function init(): Promise<void> {
    const api = useApi()
    unsubscribe?.()
    unsubscribe = api.onProgress((progress) => {
      if (progress.phase === 'following') followed(progress)
      else if (loading.value && progress.loadId === loading.value.loadId) loading.value.progress = progress
    })
    unsubscribeRecording?.()
    unsubscribeRecording = api.onRecording((status) => {
      if (live.value?.loadId === status.loadId) live.value = { ...live.value, program: status }
    })
    unsubscribeStopped?.()
    unsubscribeStopped = api.onEngineStopped((stopped) => {
      engineStopped.value = stopped
      current.value = null
      other.value = null
      otherOverrides.value = null
      partial.value = null
    })
    info.value = await api.appInfo()
    recent.value = info.value.captures.filter((c) => c.origin === 'recent')
    void refreshRecent()
    if (info.value.followAtStart) await follow(info.value.followAtStart)
    else if (info.value.openAtStart) await open(info.value.openAtStart)
  }

  async function refreshRecent(): Promise<void> {
    try {
      recent.value = await useApi().recentFiles()
    } catch {
      // a host without a recent-files list: keep what the app info offered
    }
  }

  async function reopenAfterStop(): Promise<void> {
    const fileId = engineStopped.value?.reopen
    engineStopped.value = null
    if (fileId) await open(fileId)
  }

  /** Run A's capture (or frames [from, to) of it) as a capture file: saved by the host, or bytes to download. */
  async function exportCapture(range: { from?: number; to?: number }): Promise<ExportOutcome | null> {
    const run = current.value
    if (!run) return null
    try {
      return await useApi().exportCapture({ runId: run.runId, ...range, gzip: true })
    } catch (err) {
      error.value = { file: run.file, message: err instanceof Error ? err.message : String(err), line: 0, byteOffset: 0, expected: '' }
      return null
    }
  }

  async function closeQuietly(run: RunSummary | null): Promise<void> {
    if (!run) return
    const capture = live.value
    if (capture?.runId === run.runId) {
      // a run closed while its program runs: the program is ended with it
      if (capture.program?.state === 'running') await useApi().stopRecording(capture.loadId).catch(() => undefined)
      live.value = null
    }
    try {
      await useApi().closeRun(run.runId)
    } catch {
      // the engine may have restarted: the run is gone either way
    }
  }

  async function show(run: RunSummary, slot: RunSlot, overrides: Record<string, string> | null = null): Promise<void> {
    if (slot === 'B') {
      const previous = other.value
      other.value = run
      otherOverrides.value = overrides
      if (previous && previous.runId !== run.runId) await closeQuietly(previous)
      return
    }
    const previous = current.value
    const previousB = other.value
    current.value = run
    // run B was compared with the run that is going away
    other.value = null
    otherOverrides.value = null
    if (previous && previous.runId !== run.runId) await closeQuietly(previous)
    if (previousB && previousB.runId !== run.runId) await closeQuietly(previousB)
  }

  async function settle(outcome: LoadOutcome, load: PendingLoad, overrides: Record<string, string> | null): Promise<void> {
    if (!outcome.ok) {
      if (!outcome.cancelled) error.value = outcome.error
      return
    }
    if (outcome.error && load.slot === 'A') {
      // a fault part way: keep the run on screen, offer what came before the fault
      error.value = outcome.error
      if (partial.value) await closeQuietly(partial.value)
      partial.value = outcome.summary
      return
    }
    error.value = outcome.error ?? null
    let summary = outcome.summary
    const capture = live.value
    if (capture?.loadId === load.loadId) {
      // a followed run may have grown (or ended) before this answer came
      if (capture.latest?.runId === summary.runId) summary = capture.latest
      live.value = { ...capture, runId: summary.runId, ended: capture.ended || !summary.live }
    }
    await show(summary, load.slot, overrides)
    if (!load.rerun) void refreshRecent()
  }

  async function track(
    name: string,
    slot: RunSlot,
    start: (loadId: string) => Promise<LoadOutcome | null>,
    overrides: Record<string, string> | null = null,
  ): Promise<boolean> {
    if (loading.value) return false
    const load: PendingLoad = { loadId: newLoadId(), name, slot, rerun: overrides !== null, progress: null }
    loading.value = load
    try {
      const outcome = await start(load.loadId)
      if (!outcome) return false
      await settle(outcome, load, overrides)
      return outcome.ok && (!outcome.error || slot === 'B')
    } catch (err) {
      error.value = { file: name, message: err instanceof Error ? err.message : String(err), line: 0, byteOffset: 0, expected: '' }
      return false
    } finally {
      loading.value = null
    }
  }

  function entryName(fileId: string): string {
    return info.value?.captures.find((c) => c.fileId === fileId)?.name ?? recent.value.find((c) => c.fileId === fileId)?.name ?? fileId
  }

  function open(fileId: string, slot: RunSlot = 'A', options: CaptureImportOptions = {}): Promise<boolean> {
    const request = (loadId: string) =>
      useApi().openCapture({ fileId, loadId, ...(Object.keys(options).length ? { import: options } : {}) })
    return track(entryName(fileId), slot, request).then((ok) => {
      if (ok && slot === 'A') {
        source.value = { fileId }
        importOptions.value = options
      }
      return ok
    })
  }

  function openDialog(slot: RunSlot = 'A'): Promise<boolean> {
    return track('…', slot, (loadId) => useApi().openCaptureDialog(loadId))
  }

  /** Stream a file the user dropped or picked to the engine, chunk by chunk, each awaited. */
  function upload(file: File, slot: RunSlot = 'A', options: CaptureImportOptions = {}): Promise<boolean> {
    return track(file.name, slot, async (loadId) => {
      const api = useApi()
      await api.beginUpload({
        loadId,
        name: file.name,
        bytes: file.size,
        ...(Object.keys(options).length ? { import: options } : {}),
      })
      for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
        const chunk = new Uint8Array(await file.slice(offset, offset + UPLOAD_CHUNK_BYTES).arrayBuffer())
        if (!(await api.uploadChunk({ loadId, data: chunk }))) break
      }
      return api.endUpload(loadId)
    }).then((ok) => {
      if (ok && slot === 'A') {
        source.value = { file }
        importOptions.value = options
      }
      return ok
    })
  }

  /** Read run A's trace again, its time cut into frames of `bucketMs` (frame markers still win where it has them). */
  function reimport(options: CaptureImportOptions): Promise<boolean> {
    const from = source.value
    if (!from) return Promise.resolve(false)
    return 'fileId' in from ? open(from.fileId, 'A', options) : upload(from.file, 'A', options)
  }

  /**
   * Run A, an allocator's observed trace that holds requests, read again with its requests through the UE 5.8
   * D3D12 model and opened as run B: observed (A) vs modelled (B).
   */
  function replayThroughModel(): Promise<boolean> {
    const from = source.value
    if (!from || current.value?.trace?.kind !== 'observed') return Promise.resolve(false)
    const options: CaptureImportOptions = { ...importOptions.value, model: IMPORT_MODELS[0] }
    return 'fileId' in from ? open(from.fileId, 'B', options) : upload(from.file, 'B', options)
  }

  /** Run A's capture replayed with `overrides` (config key → value as the CLI takes it), opened as run B. */
  function rerun(overrides: Record<string, string>): Promise<boolean> {
    const run = current.value
    if (!run) return Promise.resolve(false)
    return track(run.file, 'B', (loadId) => useApi().rerun({ runId: run.runId, loadId, config: overrides }), overrides)
  }

  async function cancel(): Promise<void> {
    if (!loading.value) return
    const loadId = loading.value.loadId
    // a program started for a capture is ended, not left running without a window on it
    if (live.value?.loadId === loadId && live.value.program?.state === 'running') await useApi().stopRecording(loadId)
    await useApi().cancelLoad(loadId)
  }

  /** Follow a capture another process is writing (a file the host offered, `--follow FILE`). */
  function follow(fileId: string): Promise<boolean> {
    const name = entryName(fileId)
    return track(name, 'A', (loadId) => {
      live.value = { loadId, name, ended: false }
      return useApi().followCapture({ fileId, loadId })
    }).then((ok) => {
      if (!ok && !current.value?.live) live.value = null
      return ok
    })
  }

  async function loadRecordInfo(): Promise<RecordInfo | null> {
    try {
      recordInfo.value = await useApi().recordInfo()
    } catch (err) {
      error.value = { file: '', message: err instanceof Error ? err.message : String(err), line: 0, byteOffset: 0, expected: '' }
      recordInfo.value = null
    }
    return recordInfo.value
  }

  /** Start a program under the capture layer on the host's machine, and follow its capture as run A. */
  function record(request: Omit<RecordRequest, 'loadId'>): Promise<boolean> {
    const name = request.program.split(/[\\/]/).pop() || request.program
    return track(name, 'A', (loadId) => {
      live.value = { loadId, name, ended: false }
      return useApi().startRecording({ ...request, loadId })
    }).then((ok) => {
      if (!ok && !current.value?.live) live.value = null
      return ok
    })
  }

  /** Stop: the recorded program is ended (then following ends); a followed file is no longer followed. */
  async function stopLive(): Promise<void> {
    const capture = live.value
    if (!capture || capture.ended) return
    const api = useApi()
    if (capture.program?.state === 'running') await api.stopRecording(capture.loadId)
    else await api.stopFollowing(capture.loadId)
  }

  async function openPartial(): Promise<void> {
    const run = partial.value
    if (!run) return
    partial.value = null
    error.value = null
    await show(run, 'A')
  }

  async function dismissError(): Promise<void> {
    error.value = null
    if (partial.value) {
      const run = partial.value
      partial.value = null
      await closeQuietly(run)
    }
  }

  /** Stop comparing: run B goes away. */
  async function closeOther(): Promise<void> {
    const run = other.value
    other.value = null
    otherOverrides.value = null
    await closeQuietly(run)
  }

  /** Close what is on screen: back to the start view. */
  async function closeAll(): Promise<void> {
    const a = current.value
    const b = other.value
    current.value = null
    other.value = null
    otherOverrides.value = null
    await closeQuietly(a)
    await closeQuietly(b)
  }

  /** Swap runs A and B of a comparison. */
  function swap(): void {
    if (!current.value || !other.value) return
    const a = current.value
    current.value = other.value
    other.value = a
    otherOverrides.value = null
  }

  return {
    info,
    current,
    other,
    otherOverrides,
    loading,
    error,
    partial,
    recent,
    engineStopped,
    live,
    recordInfo,
    follow,
    loadRecordInfo,
    record,
    stopLive,
    source,
    importOptions,
    reimport,
    replayThroughModel,
    init,
    refreshRecent,
    reopenAfterStop,
    exportCapture,
    open,
    openDialog,
    upload,
    rerun,
    cancel,
    openPartial,
    dismissError,
    closeOther,
    closeAll,
    swap,
  }
})
