/** The channels and the Api both hosts implement: what the renderer can ask, what the host pushes, settings and menu commands. */
import type { HazardsAnswer, HazardsQuery, PlacementsAnswer, PlacementsQuery } from './checks'
import type { CompareSeriesAnswer, CompareSeriesQuery, LeakAnswer, LeakQuery, ResourceDiffAnswer, ResourceDiffQuery } from './compare'
import type { HistoryInfo, HistoryTrend, HistoryTrendQuery } from './history'
import type { CaptureEntry, ExportOutcome, ExportRequest, LoadOutcome, LoadProgress, OpenRequest, UploadBegin, UploadChunk } from './load'
import type { PlaybackFrame, PlaybackRequest } from './playback'
import type { RecordInfo, RecordRequest, RecordStatus } from './record'
import type { ConfigEntry, RerunRequest, RunReport } from './run'
import type { SearchAnswer, SearchQuery } from './search'
import type { SeriesAnswer, SeriesQuery } from './series'
import type { ResidencyEventsAnswer, ResidencyEventsQuery, ResourceDetails, ResourcePage, ResourceQuery, Snapshot, SnapshotQuery, TransientAnswer, TransientQuery } from './snapshot'

/** The channel of each Api method: the renderer invokes it, the host handles it. */
export const CHANNELS = {
  appInfo: 'app:info',
  openCapture: 'capture:open',
  openCaptureDialog: 'capture:openDialog',
  beginUpload: 'upload:begin',
  uploadChunk: 'upload:chunk',
  endUpload: 'upload:end',
  cancelLoad: 'capture:cancel',
  closeRun: 'run:close',
  rerun: 'run:rerun',
  runConfig: 'run:config',
  report: 'run:report',
  series: 'series:get',
  snapshot: 'snapshot:get',
  resources: 'resources:page',
  resource: 'resources:details',
  transients: 'transients:get',
  residencyEvents: 'residency:events',
  compareSeries: 'compare:series',
  resourceDiff: 'compare:resources',
  leaks: 'leaks:get',
  startPlayback: 'playback:start',
  ackPlayback: 'playback:ack',
  stopPlayback: 'playback:stop',
  settings: 'settings:get',
  updateSettings: 'settings:update',
  recentFiles: 'recent:list',
  clearRecentFiles: 'recent:clear',
  exportCapture: 'capture:export',
  hazards: 'hazards:list',
  placements: 'placements:get',
  search: 'resources:search',
  followCapture: 'follow:start',
  stopFollowing: 'follow:stop',
  recordInfo: 'record:info',
  startRecording: 'record:start',
  stopRecording: 'record:stop',
  openHistory: 'history:open',
  openHistoryDialog: 'history:openDialog',
  historyTrend: 'history:trend',
  historyRun: 'history:run',
  closeHistory: 'history:close',
} as const satisfies Record<Exclude<keyof Api, 'onProgress' | 'onPlayback' | 'onMenu' | 'onEngineStopped' | 'onRecording'>, string>

export type InvokeMethod = keyof typeof CHANNELS

/** Channels the host pushes on. */
export const EVENTS = {
  progress: 'capture:progress',
  playback: 'playback:frame',
  menu: 'menu:command',
  engineStopped: 'engine:stopped',
  recording: 'record:status',
} as const

export interface AppInfo {
  host: 'electron' | 'browser'
  version: string
  /** The host can show native open dialogs; otherwise the renderer uploads files the user picks. */
  nativeDialogs: boolean
  /** Files offered at start: the demo captures, recent files, and what the command line asked to open. */
  captures: CaptureEntry[]
  /** The file the app should open at start, if any. */
  openAtStart?: string
  /** A capture another process is writing, to follow at start (`--follow FILE`): its fileId. */
  followAtStart?: string
  /** Formats the engine reads, for the start view. */
  formats: { name: string; description: string }[]
}

export type MenuCommand =
  | 'open'
  | 'capture'
  | 'openRecent'
  | 'compareWith'
  | 'export'
  | 'closeRun'
  | 'theme:light'
  | 'theme:dark'
  | 'theme:system'
  | 'language:en'
  | 'language:zh-CN'
  | 'zoom:in'
  | 'zoom:out'
  | 'zoom:reset'
  | 'about'
  | 'help:format'
  /** A file the host was asked to open (a second launch, the file association): arg is its fileId. */
  | 'openFile'
  /** A capture a second launch asked to follow (`--follow FILE`): arg is its fileId. */
  | 'followFile'

/** The engine died: its runs are gone, the window, settings and recent files are not. */
export interface EngineStopped {
  message: string
  /** The file last opened by id, to offer opening it again. */
  reopen?: string
}

export interface Settings {
  version: number
  theme: 'light' | 'dark' | 'system'
  language: 'en' | 'zh-CN'
  /** Config overrides last used for what-if runs. */
  configOverrides: Record<string, string>
}

export type Unsubscribe = () => void

/** What the renderer can ask of a host. Both hosts implement exactly this. */
export interface Api {
  appInfo(): Promise<AppInfo>
  openCapture(request: OpenRequest): Promise<LoadOutcome>
  /** Show the host's open dialog and load the choice; null when cancelled or when there is no native dialog. */
  openCaptureDialog(loadId: string): Promise<LoadOutcome | null>
  /**
   * Stream a file the user picked in the page (drag and drop, file input) to the engine: begin, chunks in
   * order (each resolves when the engine has taken it; `false` means the load already ended), then end,
   * which resolves with the outcome.
   */
  beginUpload(begin: UploadBegin): Promise<void>
  uploadChunk(chunk: UploadChunk): Promise<boolean>
  endUpload(loadId: string): Promise<LoadOutcome>
  cancelLoad(loadId: string): Promise<void>
  closeRun(runId: string): Promise<void>
  /** The same capture replayed under other config values: a new run (the "what if"). */
  rerun(request: RerunRequest): Promise<LoadOutcome>
  runConfig(runId: string): Promise<ConfigEntry[]>
  report(runId: string): Promise<RunReport>
  series(query: SeriesQuery): Promise<SeriesAnswer>
  snapshot(query: SnapshotQuery): Promise<Snapshot>
  resources(query: ResourceQuery): Promise<ResourcePage>
  resource(query: { runId: string; frame: number; id: number }): Promise<ResourceDetails | null>
  transients(query: TransientQuery): Promise<TransientAnswer>
  residencyEvents(query: ResidencyEventsQuery): Promise<ResidencyEventsAnswer>
  compareSeries(query: CompareSeriesQuery): Promise<CompareSeriesAnswer>
  resourceDiff(query: ResourceDiffQuery): Promise<ResourceDiffAnswer>
  leaks(query: LeakQuery): Promise<LeakAnswer>
  startPlayback(request: PlaybackRequest): Promise<void>
  /** The renderer has drawn this frame: the next one may come. */
  ackPlayback(playbackId: string, frame: number): Promise<void>
  stopPlayback(playbackId: string): Promise<void>
  settings(): Promise<Settings>
  updateSettings(patch: Partial<Omit<Settings, 'version'>>): Promise<Settings>
  onProgress(listener: (progress: LoadProgress) => void): Unsubscribe
  onPlayback(listener: (frame: PlaybackFrame) => void): Unsubscribe
  onMenu(listener: (command: MenuCommand, arg?: string) => void): Unsubscribe
  /** Recent files, newest first, each openable by its fileId. */
  recentFiles(): Promise<CaptureEntry[]>
  clearRecentFiles(): Promise<void>
  exportCapture(request: ExportRequest): Promise<ExportOutcome>
  onEngineStopped(listener: (info: EngineStopped) => void): Unsubscribe
  /** The aliasing hazards and Vulkan warnings of a run, a page at a time, with their counts. */
  hazards(query: HazardsQuery): Promise<HazardsAnswer>
  /** A frame's application heaps with their placed resources over the frame's steps, and its aliasing hazards. */
  placements(query: PlacementsQuery): Promise<PlacementsAnswer>
  search(query: SearchQuery): Promise<SearchAnswer>
  /**
   * Follow a capture another process is writing (a file the host offered): resolves once its first frame is in,
   * with a run that grows; `onProgress` gets `following` events with its summary until it is a loaded run.
   */
  followCapture(request: OpenRequest): Promise<LoadOutcome>
  /** Stop following: the run becomes a loaded run of what the file holds now. */
  stopFollowing(loadId: string): Promise<void>
  recordInfo(): Promise<RecordInfo>
  /** Start a program under the capture layer on the host's machine and follow its capture (as followCapture). */
  startRecording(request: RecordRequest): Promise<LoadOutcome>
  /** End the recorded program; following ends once it has exited. */
  stopRecording(loadId: string): Promise<void>
  onRecording(listener: (status: RecordStatus) => void): Unsubscribe
  /**
   * Open a history database read-only by its path: the browser host only (its page has no native dialog); the
   * desktop app refuses a path from the page and opens histories from its dialog.
   */
  openHistory(path: string): Promise<HistoryInfo>
  /** The host's open dialog for a history database; null when cancelled or when there is no native dialog. */
  openHistoryDialog(): Promise<HistoryInfo | null>
  historyTrend(query: HistoryTrendQuery): Promise<HistoryTrend>
  /** A run of a history, as a file to open (its capture path as the history keeps it). */
  historyRun(query: { historyId: string; runId: number }): Promise<CaptureEntry>
  closeHistory(historyId: string): Promise<void>
}
