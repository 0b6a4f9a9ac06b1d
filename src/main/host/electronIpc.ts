/**
 * The handlers bound to Electron's ipcMain: one channel per Api method. A call is answered only when it comes
 * from the top frame of a page the app trusts (its own app:// page); the handler then checks the payload.
 */
import type { IpcMainInvokeEvent } from 'electron'
import { CHANNELS, type InvokeMethod } from '../../shared/ipc'
import type { Handlers } from './handlers'

/** What bindIpc needs of ipcMain (tests pass their own). */
export interface IpcBinding {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void
  removeHandler(channel: string): void
}

/** The part of an invoke event the sender check reads. */
export interface SenderInfo {
  senderFrame: { url: string; parent: unknown } | null
}

export class SenderRefused extends Error {
  constructor(channel: string, why: string) {
    super(`refused ${channel}: ${why}`)
    this.name = 'SenderRefused'
  }
}

/** Why a sender is refused, or null when it may call. */
export function senderProblem(event: SenderInfo, trustedUrl: (url: string) => boolean): string | null {
  const frame = event.senderFrame
  if (!frame) return 'the sending frame is gone'
  // an iframe, even one showing an app page, never speaks for the app
  if (frame.parent) return 'the sender is not a top frame'
  if (!trustedUrl(frame.url)) return `the sender's page ${frame.url.slice(0, 200) || '(none)'} is not the app's`
  return null
}

export function bindIpc(ipcMain: IpcBinding, handlers: Handlers, trustedUrl: (url: string) => boolean): () => void {
  const methods = Object.keys(CHANNELS) as InvokeMethod[]
  for (const method of methods) {
    const channel = CHANNELS[method]
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const problem = senderProblem(event as unknown as SenderInfo, trustedUrl)
      if (problem) throw new SenderRefused(channel, problem)
      // every Api method takes one payload; more arguments are not the preload's
      if (args.length > 1) throw new SenderRefused(channel, `${args.length} arguments, one expected`)
      return handlers[method](args[0])
    })
  }
  return () => {
    for (const method of methods) ipcMain.removeHandler(CHANNELS[method])
  }
}
