/**
 * The ipcMain binding: calls from anything but the top frame of the app's own page are refused before the
 * handler runs; the app's page reaches the same handlers (and the same payload checks) as the browser host.
 */
import type { IpcMainInvokeEvent } from 'electron'
import { describe, expect, it } from 'vitest'
import { bindIpc, senderProblem, SenderRefused, type IpcBinding } from '../../../../src/main/host/electronIpc'
import { createHandlers } from '../../../../src/main/host/handlers'
import { PayloadError } from '../../../../src/main/host/schemas'
import { isAppUrl } from '../../../../src/main/shell/protocol'
import { CHANNELS } from '../../../../src/shared/ipc'
import { testContext } from './stubs'

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown

function fakeIpcMain(): IpcBinding & { listeners: Map<string, Listener> } {
  const listeners = new Map<string, Listener>()
  return {
    listeners,
    handle: (channel, listener) => {
      if (listeners.has(channel)) throw new Error(`second handler for ${channel}`)
      listeners.set(channel, listener)
    },
    removeHandler: (channel) => listeners.delete(channel),
  }
}

const top = (url: string) => ({ senderFrame: { url, parent: null } }) as unknown as IpcMainInvokeEvent
const trusted = (url: string) => isAppUrl(url)

describe('Electron IPC binding', () => {
  it('binds one channel per Api method, and unbinds them', () => {
    const ipc = fakeIpcMain()
    const unbind = bindIpc(ipc, createHandlers(testContext().ctx), trusted)
    expect([...ipc.listeners.keys()].sort()).toEqual(Object.values(CHANNELS).sort())
    unbind()
    expect(ipc.listeners.size).toBe(0)
  })

  it('answers the app’s own page', async () => {
    const t = testContext()
    const ipc = fakeIpcMain()
    bindIpc(ipc, createHandlers(t.ctx), trusted)
    const settings = await ipc.listeners.get(CHANNELS.settings)!(top('app://heapscope/index.html'))
    expect(settings).toEqual({ version: 2, theme: 'dark', language: 'en', configOverrides: {} })
    await ipc.listeners.get(CHANNELS.openCapture)!(top('app://heapscope/index.html#/timeline'), { fileId: t.offeredId, loadId: 'l' })
    expect(t.calls.map((c) => c.method)).toEqual(['load'])
  })

  for (const [why, event] of [
    ['a page from the web', top('https://evil.example/')],
    ['a file:// page', top('file:///home/user/evil.html')],
    ['a look-alike scheme host', top('app://heapscope.evil/index.html')],
    ['a page with no address', top('')],
    ['an iframe showing the app’s page', { senderFrame: { url: 'app://heapscope/index.html', parent: {} } }],
    ['a frame that is gone', { senderFrame: null }],
  ] as const) {
    it(`refuses ${why} before the handler runs`, async () => {
      const t = testContext()
      const ipc = fakeIpcMain()
      bindIpc(ipc, createHandlers(t.ctx), trusted)
      const call = ipc.listeners.get(CHANNELS.openCapture)!(event as unknown as IpcMainInvokeEvent, { fileId: t.offeredId, loadId: 'l' })
      await expect(call).rejects.toThrow(SenderRefused)
      expect(t.calls).toEqual([])
    })
  }

  it('refuses extra arguments and bad payloads from the app’s page too', async () => {
    const t = testContext()
    const ipc = fakeIpcMain()
    bindIpc(ipc, createHandlers(t.ctx), trusted)
    const open = ipc.listeners.get(CHANNELS.openCapture)!
    await expect(open(top('app://heapscope/index.html'), { fileId: t.offeredId, loadId: 'l' }, '/etc/passwd')).rejects.toThrow(
      /2 arguments, one expected/,
    )
    await expect(open(top('app://heapscope/index.html'), { fileId: '/etc/passwd', loadId: 'l' })).rejects.toThrow(PayloadError)
    expect(t.calls).toEqual([])
  })

  it('trusts the dev server only in development, and only that one', () => {
    const dev = 'http://localhost:5173'
    expect(senderProblem({ senderFrame: { url: 'http://localhost:5173/', parent: null } }, (u) => isAppUrl(u, dev))).toBeNull()
    expect(senderProblem({ senderFrame: { url: 'http://localhost:51730/', parent: null } }, (u) => isAppUrl(u, dev))).toMatch(/not the app's/)
    expect(senderProblem({ senderFrame: { url: 'app://heapscope/index.html', parent: null } }, (u) => isAppUrl(u, dev))).toMatch(
      /not the app's/,
    )
  })
})
