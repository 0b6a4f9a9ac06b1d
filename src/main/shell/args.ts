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

/** The switch that names a capture another process is writing: `--follow FILE` or `--follow=FILE`. */
export const FOLLOW_SWITCH = '--follow'

export function captureArgs(argv: readonly string[], cwd: string, exists: (path: string) => boolean = isFile): string[] {
  const out: string[] = []
  // argv[0] is the executable
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]
    // the file after --follow is followed, not opened
    if (arg === FOLLOW_SWITCH) i++
    if (arg.startsWith('-') || !CAPTURE_NAME.test(arg)) continue
    const path = isAbsolute(arg) ? arg : resolve(cwd, arg)
    if (exists(path) && !out.includes(path)) out.push(path)
  }
  return out
}

/** The capture to follow (`--follow FILE`), as an absolute path; it need not exist yet. */
export function followArg(argv: readonly string[], cwd: string): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]
    const value = arg === FOLLOW_SWITCH ? argv[i + 1] : arg.startsWith(`${FOLLOW_SWITCH}=`) ? arg.slice(FOLLOW_SWITCH.length + 1) : undefined
    if (value) return isAbsolute(value) ? value : resolve(cwd, value)
  }
  return undefined
}
