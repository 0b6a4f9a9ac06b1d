/**
 * A stand-in for the `electron` module, enough for the desktop entry (out/main/index.js) to run in node: it
 * records what the entry asks of Electron (windows, menus, IPC handlers, protocol handlers, permission handlers,
 * dialogs) so a test can drive it where Electron's binary is not installed.
 */
import { EventEmitter } from 'node:events'

type Handler = (...args: never[]) => unknown

export class FakeWebContents extends EventEmitter {
  url = ''
  sent: unknown[][] = []
  reloads = 0
  loading = false
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  loadURL(url: string): Promise<void> {
    this.url = url
    return Promise.resolve()
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args])
  }
  isLoading(): boolean {
    return this.loading
  }
  isDestroyed(): boolean {
    return false
  }
  reload(): void {
    this.reloads++
  }
  getURL(): string {
    return this.url
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
}

export const state = {
  lock: true,
  sandboxEnabled: false,
  schemes: [] as unknown[],
  paths: { userData: '', documents: '/home/user/Documents' } as Record<string, string>,
  windows: [] as BrowserWindow[],
  menu: undefined as { template: Record<string, unknown>[] } | undefined,
  ipc: new Map<string, Handler>(),
  protocols: new Map<string, (request: Request) => Promise<Response>>(),
  permissionRequest: undefined as Handler | undefined,
  permissionCheck: undefined as Handler | undefined,
  devicePermission: undefined as Handler | undefined,
  openDialog: [] as (string | null)[],
  saveDialog: [] as (string | null)[],
  saveDialogOptions: [] as Record<string, unknown>[],
  messageBoxes: [] as Record<string, unknown>[],
  quits: 0,
}

let markReady: () => void = () => undefined
const readyPromise = new Promise<void>((resolve) => (markReady = resolve))

class FakeApp extends EventEmitter {
  isPackaged = false
  name = 'HeapScope'
  private readyNow = false
  requestSingleInstanceLock(): boolean {
    return state.lock
  }
  whenReady(): Promise<void> {
    return readyPromise
  }
  isReady(): boolean {
    return this.readyNow
  }
  getPath(name: string): string {
    return state.paths[name] ?? `/fake/${name}`
  }
  setPath(name: string, value: string): void {
    state.paths[name] = value
  }
  enableSandbox(): void {
    state.sandboxEnabled = true
  }
  quit(): void {
    state.quits++
  }
  /** The test's: Electron is ready. */
  becomeReady(): void {
    this.readyNow = true
    markReady()
  }
}

export const app = new FakeApp()

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return state.windows
  }
  webContents = new FakeWebContents()
  shown = false
  maximized = false
  constructor(readonly options: Record<string, unknown> & { webPreferences: Record<string, unknown> }) {
    super()
    state.windows.push(this)
    app.emit('web-contents-created', {}, this.webContents)
  }
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url)
  }
  show(): void {
    this.shown = true
  }
  maximize(): void {
    this.maximized = true
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isMinimized(): boolean {
    return false
  }
  restore(): void {}
  focus(): void {}
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    const o = this.options as unknown as { x?: number; y?: number; width: number; height: number }
    return { x: o.x ?? 100, y: o.y ?? 80, width: o.width, height: o.height }
  }
}

export const Menu = {
  buildFromTemplate: (template: Record<string, unknown>[]) => ({ template }),
  setApplicationMenu: (menu: { template: Record<string, unknown>[] }) => {
    state.menu = menu
  },
}

export const dialog = {
  showOpenDialog: async () => {
    const path = state.openDialog.shift() ?? null
    return { canceled: path === null, filePaths: path ? [path] : [] }
  },
  showSaveDialog: async (...args: unknown[]) => {
    state.saveDialogOptions.push(args.at(-1) as Record<string, unknown>)
    const path = state.saveDialog.shift() ?? null
    return { canceled: path === null, filePath: path ?? undefined }
  },
  showMessageBox: async (...args: unknown[]) => {
    state.messageBoxes.push(args.at(-1) as Record<string, unknown>)
    return { response: 1 }
  },
}

export const ipcMain = {
  handle: (channel: string, handler: Handler) => state.ipc.set(channel, handler),
  removeHandler: (channel: string) => state.ipc.delete(channel),
}

export const nativeTheme = { themeSource: 'system', shouldUseDarkColors: true }

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown[]) => {
    state.schemes = schemes
  },
}

const primary = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }
export const screen = { getPrimaryDisplay: () => primary, getAllDisplays: () => [primary] }

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (h: Handler) => (state.permissionRequest = h),
    setPermissionCheckHandler: (h: Handler) => (state.permissionCheck = h),
    setDevicePermissionHandler: (h: Handler) => (state.devicePermission = h),
    setSpellCheckerEnabled: () => undefined,
    protocol: {
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => state.protocols.set(scheme, handler),
    },
  },
}

export const shell = { openExternal: async () => undefined }

export default { app, BrowserWindow, Menu, dialog, ipcMain, nativeTheme, protocol, screen, session, shell }
