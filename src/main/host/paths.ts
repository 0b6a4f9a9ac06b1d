/**
 * Where the app keeps its settings and recent files when Electron is not there to say: the same folder
 * Electron's app.getPath('userData') names for HeapScope, so the desktop app and the browser host share them.
 * HEAPSCOPE_USER_DATA overrides it (tests, portable setups).
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_FOLDER = 'HeapScope'

export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.HEAPSCOPE_USER_DATA) return env.HEAPSCOPE_USER_DATA
  const home = env.HOME ?? env.USERPROFILE ?? homedir()
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER)
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_FOLDER)
}

export const settingsFile = (dir: string) => join(dir, 'settings.json')
