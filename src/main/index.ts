/**
 * The Electron entry: one locked-down window, the engine in a worker thread, the same handlers as the
 * browser host bound to ipcMain. Captures named on the command line (or opened through the file
 * association) go to the running window.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell } from 'electron'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createHostContext } from './host/context'
import { bindIpc } from './host/electronIpc'
import { createHandlers } from './host/handlers'

const here = dirname(fileURLToPath(import.meta.url))
const rendererIndex = join(here, '../renderer/index.html')
const devServer = process.env.ELECTRON_RENDERER_URL

function captureArgs(argv: string[]): string[] {
  return argv.slice(app.isPackaged ? 1 : 2).filter((a) => /\.(hscap|hscap\.gz|json|rmv)$/i.test(a)).map((a) => resolve(a))
}

function trustedUrl(url: string): boolean {
  if (devServer) return url.startsWith(devServer)
  return url === pathToFileURL(rendererIndex).href || url.startsWith(`${pathToFileURL(rendererIndex).href}#`)
}

let window: BrowserWindow | undefined

const context = createHostContext({
  host: 'electron',
  // packaged, the main bundle is unpacked beside the archive (electron-builder.yml asarUnpack)
  workerPath: join(here, 'engineWorker.js').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`),
  args: captureArgs(process.argv),
  nativeDialogs: true,
  push: (event, payload) => window?.webContents.send(event, payload),
  settingsPath: join(app.getPath('userData'), 'settings.json'),
  engineRestarted: (error) => {
    if (window) dialog.showErrorBox('HeapScope', `The engine stopped (${error.message}). Open the capture again.`)
  },
})

context.showOpenDialog = async () => {
  const result = await dialog.showOpenDialog(window!, {
    title: 'Open a capture',
    properties: ['openFile'],
    filters: [
      { name: 'Captures and dumps', extensions: ['hscap', 'gz', 'json', 'rmv'] },
      { name: 'All files', extensions: ['*'] },
    ],
  })
  return result.canceled ? null : (result.filePaths[0] ?? null)
}

function createWindow(): void {
  window = new BrowserWindow({
    width: 1440,
    height: 900,
    show: false,
    title: 'HeapScope',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  window.once('ready-to-show', () => window?.show())
  window.on('closed', () => (window = undefined))
  if (devServer) void window.loadURL(devServer)
  else void window.loadFile(rendererIndex)
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', (_event, argv) => {
    for (const path of captureArgs(argv)) context.files.add(path, 'argument')
    if (window) {
      if (window.isMinimized()) window.restore()
      window.focus()
    }
  })

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      if (url.startsWith('https://')) void shell.openExternal(url)
      return { action: 'deny' }
    })
  })

  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
    session.defaultSession.setPermissionCheckHandler(() => false)
    bindIpc(ipcMain, createHandlers(context), trustedUrl)
    Menu.setApplicationMenu(
      Menu.buildFromTemplate([
        { role: 'fileMenu' },
        { role: 'editMenu' },
        { role: 'viewMenu' },
        { role: 'windowMenu' },
      ]),
    )
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
