/** Exposes the Api, and nothing else, to the sandboxed renderer as `window.api`. */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  CHANNELS,
  EVENTS,
  type Api,
  type EngineStopped,
  type LoadProgress,
  type MenuCommand,
  type PlaybackFrame,
  type RecordStatus,
} from '../shared/ipc'

function subscribe<T extends unknown[]>(channel: string, listener: (...args: T) => void): () => void {
  const handler = (_event: IpcRendererEvent, ...args: unknown[]) => listener(...(args as T))
  ipcRenderer.on(channel, handler)
  return () => {
    ipcRenderer.removeListener(channel, handler)
  }
}

const api = {
  appInfo: () => ipcRenderer.invoke(CHANNELS.appInfo),
  openCapture: (request) => ipcRenderer.invoke(CHANNELS.openCapture, request),
  openCaptureDialog: (loadId) => ipcRenderer.invoke(CHANNELS.openCaptureDialog, loadId),
  beginUpload: (begin) => ipcRenderer.invoke(CHANNELS.beginUpload, begin),
  uploadChunk: (chunk) => ipcRenderer.invoke(CHANNELS.uploadChunk, chunk),
  endUpload: (loadId) => ipcRenderer.invoke(CHANNELS.endUpload, loadId),
  cancelLoad: (loadId) => ipcRenderer.invoke(CHANNELS.cancelLoad, loadId),
  closeRun: (runId) => ipcRenderer.invoke(CHANNELS.closeRun, runId),
  rerun: (request) => ipcRenderer.invoke(CHANNELS.rerun, request),
  runConfig: (runId) => ipcRenderer.invoke(CHANNELS.runConfig, runId),
  report: (runId) => ipcRenderer.invoke(CHANNELS.report, runId),
  series: (query) => ipcRenderer.invoke(CHANNELS.series, query),
  snapshot: (query) => ipcRenderer.invoke(CHANNELS.snapshot, query),
  resources: (query) => ipcRenderer.invoke(CHANNELS.resources, query),
  resource: (query) => ipcRenderer.invoke(CHANNELS.resource, query),
  transients: (query) => ipcRenderer.invoke(CHANNELS.transients, query),
  residencyEvents: (query) => ipcRenderer.invoke(CHANNELS.residencyEvents, query),
  compareSeries: (query) => ipcRenderer.invoke(CHANNELS.compareSeries, query),
  resourceDiff: (query) => ipcRenderer.invoke(CHANNELS.resourceDiff, query),
  leaks: (query) => ipcRenderer.invoke(CHANNELS.leaks, query),
  startPlayback: (request) => ipcRenderer.invoke(CHANNELS.startPlayback, request),
  ackPlayback: (playbackId, frame) => ipcRenderer.invoke(CHANNELS.ackPlayback, { playbackId, frame }),
  stopPlayback: (playbackId) => ipcRenderer.invoke(CHANNELS.stopPlayback, playbackId),
  settings: () => ipcRenderer.invoke(CHANNELS.settings),
  updateSettings: (patch) => ipcRenderer.invoke(CHANNELS.updateSettings, patch),
  onProgress: (listener) => subscribe<[LoadProgress]>(EVENTS.progress, listener),
  onPlayback: (listener) => subscribe<[PlaybackFrame]>(EVENTS.playback, listener),
  onMenu: (listener) => subscribe<[MenuCommand, string | undefined]>(EVENTS.menu, listener),
  recentFiles: () => ipcRenderer.invoke(CHANNELS.recentFiles),
  clearRecentFiles: () => ipcRenderer.invoke(CHANNELS.clearRecentFiles),
  exportCapture: (request) => ipcRenderer.invoke(CHANNELS.exportCapture, request),
  onEngineStopped: (listener) => subscribe<[EngineStopped]>(EVENTS.engineStopped, listener),
  hazards: (query) => ipcRenderer.invoke(CHANNELS.hazards, query),
  placements: (query) => ipcRenderer.invoke(CHANNELS.placements, query),
  search: (query) => ipcRenderer.invoke(CHANNELS.search, query),
  followCapture: (request) => ipcRenderer.invoke(CHANNELS.followCapture, request),
  stopFollowing: (loadId) => ipcRenderer.invoke(CHANNELS.stopFollowing, loadId),
  recordInfo: () => ipcRenderer.invoke(CHANNELS.recordInfo),
  startRecording: (request) => ipcRenderer.invoke(CHANNELS.startRecording, request),
  stopRecording: (loadId) => ipcRenderer.invoke(CHANNELS.stopRecording, loadId),
  onRecording: (listener) => subscribe<[RecordStatus]>(EVENTS.recording, listener),
  openHistory: (path) => ipcRenderer.invoke(CHANNELS.openHistory, path),
  openHistoryDialog: () => ipcRenderer.invoke(CHANNELS.openHistoryDialog),
  historyTrend: (query) => ipcRenderer.invoke(CHANNELS.historyTrend, query),
  historyRun: (query) => ipcRenderer.invoke(CHANNELS.historyRun, query),
  closeHistory: (historyId) => ipcRenderer.invoke(CHANNELS.closeHistory, historyId),
} satisfies Api

export type PreloadApi = typeof api

contextBridge.exposeInMainWorld('api', api)
