/**
 * `node out/main/host.js [FILE…] [--follow FILE] [--port N]`: the app through the browser host, for machines
 * without Electron (`--follow`: a capture another process is writing, read as it grows). Prints the address (with its token) and serves until interrupted. Settings and recent files live
 * in the same user data folder as the desktop app's (HEAPSCOPE_USER_DATA to choose another).
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startBrowserHost, type BrowserHost } from './browserHost'
import { createHostContext } from './context'
import { createHandlers } from './handlers'
import { settingsFile, userDataDir } from './paths'
import { FOLLOW_SWITCH, followArg } from '../shell/args'

const here = dirname(fileURLToPath(import.meta.url))

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  const files: string[] = []
  let port = 0
  let follow: string | undefined
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') port = Number(argv[++i])
    else if (argv[i].startsWith('--port=')) port = Number(argv[i].slice(7))
    else if (argv[i] === FOLLOW_SWITCH || argv[i].startsWith(`${FOLLOW_SWITCH}=`)) {
      follow = followArg(['', ...argv.slice(i, i + 2)], process.cwd())
      if (argv[i] === FOLLOW_SWITCH) i++
      if (!follow) {
        console.error(`heapscope: ${FOLLOW_SWITCH} needs the capture file to follow`)
        process.exit(2)
      }
    } else files.push(resolve(argv[i]))
  }
  for (const file of files) {
    if (!existsSync(file)) {
      console.error(`heapscope: ${file}: no such file`)
      process.exit(2)
    }
  }
  const dir = resolve(here, '..', 'renderer')
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`heapscope: the app is not built (${dir} has no index.html); run npm run build`)
    process.exit(1)
  }
  // the host is started after the context it reports progress for
  const started: { host?: BrowserHost } = {}
  const context = createHostContext({
    host: 'browser',
    workerPath: join(here, 'engineWorker.js'),
    args: files,
    follow,
    capturesDir: join(userDataDir(), 'captures'),
    nativeDialogs: false,
    push: (event, payload) => started.host?.push(event, payload),
    settingsPath: settingsFile(userDataDir()),
    engineRestarted: (error) => console.error(`heapscope: the engine stopped (${error.message}); starting a new one`),
  })
  const host = await startBrowserHost({ rendererDir: dir, handlers: createHandlers(context), port })
  started.host = host
  if (context.settingsStore.problem) console.error(`heapscope: ${context.settingsStore.problem}`)
  console.log(`HeapScope is running at ${host.url}`)
  console.log('Open that address in a browser. Press Ctrl+C to stop.')
  const stop = async () => {
    await host.close()
    await context.dispose()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((err: unknown) => {
  console.error(`heapscope: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
