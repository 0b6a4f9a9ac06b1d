/**
 * The desktop app's pages come from its own scheme, app://heapscope/, rather than file://: a page loaded from
 * file:// may load any other file on the disk as a subresource, one from app:// only what lies in the built
 * renderer. Each response carries the desktop app's Content-Security-Policy (stricter than the browser host's:
 * the page talks to the host over IPC, never over a socket).
 */
import { extname, join, normalize, sep } from 'node:path'

export const APP_SCHEME = 'app'
export const APP_ORIGIN = 'app://heapscope'
export const APP_INDEX = `${APP_ORIGIN}/index.html`

export const DESKTOP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
}

/** The file an app:// address names inside the built renderer, or null when it names nothing there. */
export function resolveAppUrl(url: string, rendererDir: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return null
  let path: string
  try {
    path = decodeURIComponent(parsed.pathname)
  } catch {
    return null
  }
  if (path.includes('\0') || path.includes('\\')) return null
  if (path === '/' || path === '') path = '/index.html'
  const root = normalize(rendererDir)
  const file = normalize(join(root, path))
  return file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null
}

/** A trusted sender: a frame showing the app's own page (or the dev server's, in development). */
export function isAppUrl(url: string, devServer?: string): boolean {
  if (devServer) return url === devServer || url.startsWith(devServer.endsWith('/') ? devServer : `${devServer}/`)
  return url.startsWith(`${APP_ORIGIN}/`)
}

export function appResponseHeaders(file: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  }
  if (extname(file).toLowerCase() === '.html') headers['content-security-policy'] = DESKTOP_CSP
  return headers
}
