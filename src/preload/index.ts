/** Exposes the Api, and nothing else, to the sandboxed renderer as `window.api`. */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { CHANNELS, EVENTS, type Api, type LoadProgress } from '../shared/ipc'

const api = {
  appInfo: () => ipcRenderer.invoke(CHANNELS.appInfo),
  openCapture: (request) => ipcRenderer.invoke(CHANNELS.openCapture, request),
  openCaptureDialog: (loadId) => ipcRenderer.invoke(CHANNELS.openCaptureDialog, loadId),
  beginUpload: (begin) => ipcRenderer.invoke(CHANNELS.beginUpload, begin),
  uploadChunk: (chunk) => ipcRenderer.invoke(CHANNELS.uploadChunk, chunk),
  endUpload: (loadId) => ipcRenderer.invoke(CHANNELS.endUpload, loadId),
  cancelLoad: (loadId) => ipcRenderer.invoke(CHANNELS.cancelLoad, loadId),
  closeRun: (runId) => ipcRenderer.invoke(CHANNELS.closeRun, runId),
  series: (query) => ipcRenderer.invoke(CHANNELS.series, query),
  onProgress(listener) {
    const handler = (_event: IpcRendererEvent, progress: LoadProgress) => listener(progress)
    ipcRenderer.on(EVENTS.progress, handler)
    return () => {
      ipcRenderer.removeListener(EVENTS.progress, handler)
    }
  },
} satisfies Api

export type PreloadApi = typeof api

contextBridge.exposeInMainWorld('api', api)
