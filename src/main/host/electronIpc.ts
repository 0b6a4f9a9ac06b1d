/** The handlers bound to Electron's ipcMain: one channel per Api method, senders checked. */
import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { CHANNELS, type InvokeMethod } from '../../shared/ipc'
import type { Handlers } from './handlers'

export function bindIpc(ipcMain: IpcMain, handlers: Handlers, trustedUrl: (url: string) => boolean): () => void {
  const methods = Object.keys(CHANNELS) as InvokeMethod[]
  for (const method of methods) {
    ipcMain.handle(CHANNELS[method], async (event: IpcMainInvokeEvent, payload: unknown) => {
      const url = event.senderFrame?.url ?? ''
      if (!trustedUrl(url)) throw new Error(`refused ${CHANNELS[method]} from ${url.slice(0, 200) || 'an unknown frame'}`)
      return handlers[method](payload)
    })
  }
  return () => {
    for (const method of methods) ipcMain.removeHandler(CHANNELS[method])
  }
}
