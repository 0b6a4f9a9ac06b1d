#!/usr/bin/env node
// `npm start [-- FILE…] [-- --follow FILE]`: build when the sources changed, then open the desktop app where
// Electron's binary is installed, or serve the same app through the browser host (printing its address) where it
// is not. `--follow FILE` follows a capture another process is writing (the file need not exist yet).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const files = []
let follow
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--follow' || argv[i].startsWith('--follow=')) {
    follow = argv[i] === '--follow' ? argv[++i] : argv[i].slice('--follow='.length)
    if (!follow) {
      console.error('heapscope: --follow needs the capture file to follow')
      process.exit(2)
    }
    follow = resolve(process.cwd(), follow)
  } else files.push(resolve(process.cwd(), argv[i]))
}
const passed = [...files, ...(follow ? ['--follow', follow] : [])]

function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

function built() {
  const stamp = join(root, 'out', 'renderer', 'index.html')
  const entries = ['main/host.js', 'main/index.js', 'main/engineWorker.js', 'preload/index.cjs'].map((f) => join(root, 'out', f))
  if (![stamp, ...entries].every(existsSync)) return false
  const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'electron.vite.config.ts')).mtimeMs)
  return Math.min(...[stamp, ...entries].map((f) => statSync(f).mtimeMs)) >= sources
}

/** The Electron binary's path, or null with the reason. */
function electronBinary() {
  try {
    const path = require('electron')
    return typeof path === 'string' && existsSync(path) ? { path } : { reason: `no binary at ${path}` }
  } catch (err) {
    return { reason: err.message.split('\n')[0] }
  }
}

for (const file of files) {
  if (!existsSync(file)) {
    console.error(`heapscope: ${file}: no such file`)
    process.exit(2)
  }
}

if (!built()) {
  console.log('Building HeapScope…')
  const result = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
  // the command line as one file with its code cache (bin/heapscope.js runs the ES module build without it)
  const cli = spawnSync(process.execPath, [join(root, 'scripts/buildCli.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (cli.status !== 0) console.error('heapscope: the command line was built without its code cache')
}

const electron = electronBinary()
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
let child
if (electron.path && hasDisplay) {
  console.log('Opening the HeapScope desktop app…')
  child = spawn(electron.path, [root, ...passed], { stdio: 'inherit' })
} else {
  const why = electron.path ? 'there is no display' : `Electron is not installed here (${electron.reason})`
  console.log(`${why}: serving HeapScope through the browser host instead.`)
  if (!electron.path) console.log('To get the desktop app: node node_modules/electron/install.js (downloads Electron).')
  child = spawn(process.execPath, [join(root, 'out/main/host.js'), ...passed], { stdio: 'inherit' })
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
