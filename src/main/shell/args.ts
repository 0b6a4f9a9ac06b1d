/**
 * Captures named on a command line: the first launch's, a second launch's (forwarded by the single-instance
 * lock, with that launch's working directory), or what the file association passes. Switches (Chromium's and
 * Electron's own), the app's folder in a checkout and anything that is not an existing capture-like file are
 * left out.
 */
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'

/** Names a capture or an importable dump may have; the engine detects the format by content. */
export const CAPTURE_NAME = /\.(hscap|hscap\.gz|gz|json|rmv)$/i

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

export function captureArgs(argv: readonly string[], cwd: string, exists: (path: string) => boolean = isFile): string[] {
  const out: string[] = []
  // argv[0] is the executable
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-') || !CAPTURE_NAME.test(arg)) continue
    const path = isAbsolute(arg) ? arg : resolve(cwd, arg)
    if (exists(path) && !out.includes(path)) out.push(path)
  }
  return out
}
