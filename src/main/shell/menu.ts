/**
 * The desktop app's menus, as a template built from plain state: File (open, open recent, compare with, capture
 * a program, export, quit), Edit, View (theme, language, zoom, reload), Window, Help. Commands the UI carries out go to the renderer
 * as `menu:command` events; the host keeps what is its own (settings, recent files, reload). Labels follow the
 * app's language. Electron is only a type here, so the template is tested in node.
 */
import type { MenuItemConstructorOptions } from 'electron'
import type { CaptureEntry, MenuCommand, Settings } from '../../shared/ipc'
import { distinguishingFolders } from '../../shared/fileLabels'

export interface MenuState {
  platform: NodeJS.Platform
  appName: string
  recent: CaptureEntry[]
  theme: Settings['theme']
  language: Settings['language']
  /** Developer tools are offered in a checkout only, not in the installed app. */
  devTools: boolean
}

export interface MenuActions {
  /** A command for the renderer (and, for theme and language, the settings). */
  command(command: MenuCommand, arg?: string): void
  clearRecent(): void
  reload(): void
}

const LABELS = {
  en: {
    file: '&File',
    open: 'Open…',
    openRecent: 'Open Recent',
    noRecent: 'No Recent Files',
    clearRecent: 'Clear Recent',
    compareWith: 'Compare With…',
    capture: 'Capture…',
    export: 'Export…',
    closeRun: 'Close Capture',
    quit: 'Quit',
    edit: '&Edit',
    view: '&View',
    theme: 'Theme',
    light: 'Light',
    dark: 'Dark',
    system: 'Same as System',
    language: 'Language',
    zoomIn: 'Zoom In',
    zoomOut: 'Zoom Out',
    zoomReset: 'Actual Size',
    reload: 'Reload',
    fullScreen: 'Toggle Full Screen',
    devTools: 'Toggle Developer Tools',
    window: '&Window',
    help: '&Help',
    format: 'Capture Format',
    about: 'About',
  },
  'zh-CN': {
    file: '文件(&F)',
    open: '打开…',
    openRecent: '最近打开',
    noRecent: '没有最近的文件',
    clearRecent: '清除最近记录',
    compareWith: '与…比较',
    capture: '捕获…',
    export: '导出…',
    closeRun: '关闭捕获',
    quit: '退出',
    edit: '编辑(&E)',
    view: '视图(&V)',
    theme: '主题',
    light: '浅色',
    dark: '深色',
    system: '跟随系统',
    language: '语言',
    zoomIn: '放大',
    zoomOut: '缩小',
    zoomReset: '实际大小',
    reload: '重新加载',
    fullScreen: '切换全屏',
    devTools: '切换开发者工具',
    window: '窗口(&W)',
    help: '帮助(&H)',
    format: '捕获格式',
    about: '关于',
  },
} as const

/** Language names are written in their own language, whatever the app's. */
const LANGUAGES: { code: Settings['language']; label: string }[] = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
]

/** A file name as a menu label: `&` would be read as a mnemonic marker on Windows and Linux. */
export function menuLabel(text: string): string {
  return text.replace(/&/g, '&&')
}

/** What a menu command changes in the settings, if anything. */
export function settingsPatchFor(command: MenuCommand): Partial<Pick<Settings, 'theme' | 'language'>> | null {
  switch (command) {
    case 'theme:light':
      return { theme: 'light' }
    case 'theme:dark':
      return { theme: 'dark' }
    case 'theme:system':
      return { theme: 'system' }
    case 'language:en':
      return { language: 'en' }
    case 'language:zh-CN':
      return { language: 'zh-CN' }
    default:
      return null
  }
}

function recentItems(state: MenuState, actions: MenuActions, text: (typeof LABELS)[keyof typeof LABELS]) {
  // recent files of the same name are told apart by the end of their folder
  const folders = distinguishingFolders(state.recent)
  const items: MenuItemConstructorOptions[] = state.recent.map((entry, index) => ({
    id: `file.openRecent.${index}`,
    label: menuLabel(folders[index] ? `${entry.name} — ${folders[index]}` : entry.name),
    toolTip: entry.description,
    click: () => actions.command('openRecent', entry.fileId),
  }))
  if (items.length === 0) items.push({ id: 'file.noRecent', label: text.noRecent, enabled: false })
  items.push(
    { type: 'separator' },
    { id: 'file.clearRecent', label: text.clearRecent, enabled: state.recent.length > 0, click: () => actions.clearRecent() },
  )
  return items
}

export function menuTemplate(state: MenuState, actions: MenuActions): MenuItemConstructorOptions[] {
  const text = LABELS[state.language]
  const mac = state.platform === 'darwin'
  const send = (command: MenuCommand) => () => actions.command(command)
  const about: MenuItemConstructorOptions = {
    id: 'help.about',
    label: `${text.about} ${state.appName}`,
    click: send('about'),
  }

  const file: MenuItemConstructorOptions = {
    id: 'file',
    label: text.file,
    submenu: [
      { id: 'file.open', label: text.open, accelerator: 'CmdOrCtrl+O', click: send('open') },
      { id: 'file.openRecent', label: text.openRecent, submenu: recentItems(state, actions, text) },
      { id: 'file.compareWith', label: text.compareWith, accelerator: 'CmdOrCtrl+Shift+O', click: send('compareWith') },
      { type: 'separator' },
      { id: 'file.capture', label: text.capture, accelerator: 'CmdOrCtrl+Shift+R', click: send('capture') },
      { type: 'separator' },
      { id: 'file.export', label: text.export, accelerator: 'CmdOrCtrl+E', click: send('export') },
      { type: 'separator' },
      { id: 'file.closeRun', label: text.closeRun, accelerator: 'CmdOrCtrl+Shift+W', click: send('closeRun') },
      ...(mac
        ? ([{ role: 'close' }] as MenuItemConstructorOptions[])
        : ([{ type: 'separator' }, { id: 'file.quit', label: text.quit, role: 'quit', accelerator: 'Ctrl+Q' }] as MenuItemConstructorOptions[])),
    ],
  }

  const radio = (id: string, label: string, checked: boolean, command: MenuCommand): MenuItemConstructorOptions => ({
    id,
    label,
    type: 'radio',
    checked,
    click: send(command),
  })

  const view: MenuItemConstructorOptions = {
    id: 'view',
    label: text.view,
    submenu: [
      {
        id: 'view.theme',
        label: text.theme,
        submenu: [
          radio('view.theme.light', text.light, state.theme === 'light', 'theme:light'),
          radio('view.theme.dark', text.dark, state.theme === 'dark', 'theme:dark'),
          radio('view.theme.system', text.system, state.theme === 'system', 'theme:system'),
        ],
      },
      {
        id: 'view.language',
        label: text.language,
        submenu: LANGUAGES.map((l) => radio(`view.language.${l.code}`, l.label, state.language === l.code, `language:${l.code}`)),
      },
      { type: 'separator' },
      { id: 'view.zoomIn', label: text.zoomIn, accelerator: 'CmdOrCtrl+=', click: send('zoom:in') },
      { id: 'view.zoomOut', label: text.zoomOut, accelerator: 'CmdOrCtrl+-', click: send('zoom:out') },
      { id: 'view.zoomReset', label: text.zoomReset, accelerator: 'CmdOrCtrl+0', click: send('zoom:reset') },
      { type: 'separator' },
      { id: 'view.reload', label: text.reload, accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
      { id: 'view.fullScreen', label: text.fullScreen, role: 'togglefullscreen' },
      ...(state.devTools ? ([{ id: 'view.devTools', label: text.devTools, role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
    ],
  }

  const help: MenuItemConstructorOptions = {
    id: 'help',
    label: text.help,
    role: 'help',
    submenu: [
      { id: 'help.format', label: text.format, click: send('help:format') },
      ...(mac ? [] : ([{ type: 'separator' }, about] as MenuItemConstructorOptions[])),
    ],
  }

  const appMenu: MenuItemConstructorOptions = {
    id: 'app',
    label: state.appName,
    submenu: [
      about,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { id: 'file.quit', label: `${text.quit} ${state.appName}`, role: 'quit', accelerator: 'Cmd+Q' },
    ],
  }

  return [
    ...(mac ? [appMenu] : []),
    file,
    { id: 'edit', label: text.edit, role: 'editMenu' },
    view,
    { id: 'window', label: text.window, role: 'windowMenu' },
    help,
  ]
}
