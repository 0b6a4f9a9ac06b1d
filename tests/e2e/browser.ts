/** Starting the built browser host and Debian's Chromium for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

export const ROOT = resolve(__dirname, '../..')
export const RESULTS = join(ROOT, 'test-results')
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export interface Host {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/** Run out/main/host.js (built by `npm run build`) on the given files; resolves with its printed address. */
export function startHost(files: string[] = []): Promise<Host> {
  const hostJs = join(ROOT, 'out/main/host.js')
  if (!existsSync(hostJs)) throw new Error(`${hostJs} is missing: run npm run build first`)
  const child = spawn(process.execPath, [hostJs, ...files], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host printed no address:\n${output}`)), 20_000)
    const onData = (data: Buffer) => {
      output += data.toString()
      const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePromise({
          url: match[1],
          process: child,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`the host exited with ${code}:\n${output}`)))
  })
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`)
  }
  mkdirSync(RESULTS, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
