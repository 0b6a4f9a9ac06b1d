/**
 * The Electron entry: one locked-down window on the app's own scheme, the engine in a worker thread, the same
 * handlers as the browser host bound to ipcMain, native menus and dialogs, settings and recent files kept in the
 * user data folder. Captures named on a command line (or opened through the file association) go to the
 * running window.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, protocol, screen, session, type WebContents } from 'electron'
import { readFile } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EVENTS, type MenuCommand } from '../shared/ipc'
import { createHostContext, type HostContextHandle } from './host/context'
import { bindIpc } from './host/electronIpc'
import { createHandlers } from './host/handlers'
import { captureArgs, followArg } from './shell/args'
import { menuTemplate, settingsPatchFor } from './shell/menu'
import { APP_INDEX, APP_SCHEME, appResponseHeaders, isAppUrl, resolveAppUrl } from './shell/protocol'
import { restoreWindow } from './shell/windowState'

const here = dirname(fileURLToPath(import.meta.url))
const rendererDir = join(here, '../renderer')
const devServer = (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) || undefined
const trustedUrl = (url: string) => isAppUrl(url, devServer)
// tests and portable setups keep settings and recent files elsewhere
if (process.env.HEAPSCOPE_USER_DATA) app.setPath('userData', process.env.HEAPSCOPE_USER_DATA)

// every renderer sandboxed, whatever a window asks for
app.enableSandbox()
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
])

let window: BrowserWindow | undefined
/** Menu commands given while no window was ready (macOS keeps the app running without one). */
let queued: { command: MenuCommand; arg?: string }[] = []

/** Set up by the first instance only: a second launch hands its files over and quits, touching nothing. */
let context!: HostContextHandle

function applyTheme(): void {
  nativeTheme.themeSource = context.settingsStore.get().theme
}

function rebuildMenu(): void {
  const settings = context.settingsStore.get()
  const template = menuTemplate(
    {
      platform: process.platform,
      appName: app.name,
      recent: context.recent.list(),
      theme: settings.theme,
      language: settings.language,
      devTools: !app.isPackaged,
    },
    {
      command: menuCommand,
      clearRecent: () => context.recent.clear(),
      reload: () => window?.webContents.reload(),
    },
  )
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

function menuCommand(command: MenuCommand, arg?: string): void {
  const patch = settingsPatchFor(command)
  if (patch) {
    context.settingsStore.update(patch)
    applyTheme()
    rebuildMenu()
  }
  if (!window) {
    queued.push({ command, arg })
    createWindow()
    return
  }
  if (window.webContents.isLoading()) queued.push({ command, arg })
  else window.webContents.send(EVENTS.menu, command, arg)
  if (window.isMinimized()) window.restore()
  window.focus()
}

function saveWindowState(win: BrowserWindow): void {
  const bounds = win.getNormalBounds()
  context.settingsStore.setWindowState({ ...bounds, maximized: win.isMaximized() })
}

function createWindow(): void {
  const bounds = restoreWindow(
    context.settingsStore.windowState(),
    [screen.getPrimaryDisplay(), ...screen.getAllDisplays().filter((d) => d.id !== screen.getPrimaryDisplay().id)].map(
      (d) => d.workArea,
    ),
  )
  const win = new BrowserWindow({
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'HeapScope',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15171c' : '#ffffff',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  })
  window = win
  win.once('ready-to-show', () => {
    if (bounds.maximized) win.maximize()
    win.show()
  })
  let saveTimer: NodeJS.Timeout | undefined
  const saveSoon = () => {
    clearTimeout(saveTimer)
    saveTimer = setTimeout(() => saveWindowState(win), 1000)
  }
  win.on('resize', saveSoon)
  win.on('move', saveSoon)
  win.on('close', () => {
    clearTimeout(saveTimer)
    saveWindowState(win)
  })
  win.on('closed', () => {
    if (window === win) window = undefined
  })
  win.webContents.on('did-finish-load', () => {
    const pending = queued
    queued = []
    for (const { command, arg } of pending) win.webContents.send(EVENTS.menu, command, arg)
  })
  if (devServer) void win.loadURL(devServer)
  else void win.loadURL(APP_INDEX)
}

function createContext(): HostContextHandle {
  const created = createHostContext({
    host: 'electron',
    // packaged, the main bundle is unpacked beside the archive (electron-builder.yml asarUnpack)
    workerPath: join(here, 'engineWorker.js').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`),
    args: captureArgs(process.argv, process.cwd()),
    follow: followArg(process.argv, process.cwd()),
    capturesDir: join(app.getPath('userData'), 'captures'),
    nativeDialogs: true,
    push: (event, payload) => {
      if (window && !window.webContents.isDestroyed()) window.webContents.send(event, payload)
    },
    settingsPath: join(app.getPath('userData'), 'settings.json'),
    engineRestarted: (_error, info) => {
      if (!window) return
      void dialog
        .showMessageBox(window, {
          type: 'warning',
          title: 'HeapScope',
          message: 'The engine stopped',
          detail: `${info.message}\n\nReload the window to open the last capture again. Settings and recent files are kept.`,
          buttons: ['Reload', 'Keep the window'],
          defaultId: 0,
          cancelId: 1,
        })
        .then(({ response }) => {
          if (response === 0) window?.webContents.reload()
        })
    },
  })

  created.showOpenDialog = async () => {
    const options: Electron.OpenDialogOptions = {
      title: 'Open a capture',
      properties: ['openFile'],
      filters: [
        { name: 'Captures and dumps', extensions: ['hscap', 'gz', 'json', 'rmv', 'utrace'] },
        { name: 'All files', extensions: ['*'] },
      ],
    }
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
    return result.canceled ? null : (result.filePaths[0] ?? null)
  }

  created.showHistoryDialog = async () => {
    const options: Electron.OpenDialogOptions = {
      title: 'Open a history database',
      properties: ['openFile'],
      filters: [
        { name: 'HeapScope history (DuckDB)', extensions: ['duckdb', 'db'] },
        { name: 'All files', extensions: ['*'] },
      ],
    }
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
    return result.canceled ? null : (result.filePaths[0] ?? null)
  }

  created.showSaveDialog = async (suggestedName) => {
    const gzip = suggestedName.endsWith('.gz')
    const options: Electron.SaveDialogOptions = {
      title: 'Export the capture',
      defaultPath: join(app.getPath('documents'), suggestedName),
      filters: [gzip ? { name: 'HeapScope capture, gzip', extensions: ['gz'] } : { name: 'HeapScope capture', extensions: ['hscap'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    }
    const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
    return result.canceled || !result.filePath ? null : result.filePath
  }
  // a settings file replaced or left alone is not fatal, but worth a line where the app was started from
  if (created.settingsStore.problem) console.warn(`HeapScope: ${created.settingsStore.problem}`)
  return created
}

/** A file given by a second launch or by the system (file association, a drop on the dock icon). */
function openFromSystem(paths: string[]): void {
  if (paths.length === 0) return
  const entries = paths.map((path) => context.files.add(path, 'argument'))
  if (!window && !app.isReady()) {
    // the first launch's own: the window opens it at start
    context.startWith(entries[0].fileId)
    return
  }
  menuCommand('openFile', entries[0].fileId)
}

/** The one place the window may go: the app's own page again (a reload from the page itself). */
const appPage = (url: string) => url === (devServer ?? APP_INDEX) || url.split('#')[0] === (devServer ?? APP_INDEX)

function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!appPage(event.url)) event.preventDefault()
  })
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame || !appPage(event.url)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  context = createContext()
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const paths = captureArgs(argv, workingDirectory)
    const follow = followArg(argv, workingDirectory)
    if (follow) menuCommand('followFile', context.files.add(follow, 'argument').fileId)
    else if (paths.length) openFromSystem(paths)
    else if (window) {
      if (window.isMinimized()) window.restore()
      window.focus()
    } else if (app.isReady()) createWindow()
  })

  // macOS: a capture opened in the Finder or dropped on the dock icon
  app.on('open-file', (event, path) => {
    event.preventDefault()
    openFromSystem(captureArgs(['', path], process.cwd()))
  })

  app.on('web-contents-created', (_event, contents) => lockDown(contents))

  void app.whenReady().then(() => {
    const defaultSession = session.defaultSession
    defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
    defaultSession.setPermissionCheckHandler(() => false)
    defaultSession.setDevicePermissionHandler(() => false)
    defaultSession.setSpellCheckerEnabled(false)
    defaultSession.protocol.handle(APP_SCHEME, async (request) => {
      const file = request.method === 'GET' ? resolveAppUrl(request.url, rendererDir) : null
      if (!file) return new Response('not found', { status: 404 })
      try {
        return new Response(await readFile(file), { headers: appResponseHeaders(file) })
      } catch {
        return new Response('not found', { status: 404 })
      }
    })
    bindIpc(ipcMain, createHandlers(context), trustedUrl)
    context.recent.onChange = rebuildMenu
    applyTheme()
    rebuildMenu()
    createWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app.on('will-quit', () => {
    void context.dispose()
  })
}
