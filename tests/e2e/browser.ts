/** Starting the built browser host and Debian's Chromium for end-to-end tests, and the built command line. */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from 'playwright-core'

export const ROOT = resolve(__dirname, '../..')
export const RESULTS = join(ROOT, 'test-results')
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export interface Host {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/** Run out/main/host.js (built by `npm run build`) on the given files; resolves with its printed address. */
export function startHost(files: string[] = [], env: Record<string, string> = {}): Promise<Host> {
  const hostJs = join(ROOT, 'out/main/host.js')
  if (!existsSync(hostJs)) throw new Error(`${hostJs} is missing: run npm run build first`)
  const child = spawn(process.execPath, [hostJs, ...files], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
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

export interface App {
  host: Host
  browser: Browser
  page: Page
  /** Uncaught page errors and console errors, for the suite to assert none. */
  errors: string[]
  close(): Promise<void>
}

/**
 * The app in Chromium through the browser host on `files`, once the page shows a run. The host gets settings and
 * recent files of its own (a fresh user-data folder): a language or theme left by another run neither leaks in nor out.
 */
export async function openApp(files: string[] = [], viewport = { width: 1600, height: 1000 }): Promise<App> {
  mkdirSync(RESULTS, { recursive: true })
  const host = await startHost(files, { HEAPSCOPE_USER_DATA: mkdtempSync(join(tmpdir(), 'heapscope-e2e-')) })
  let browser: Browser | undefined
  try {
    browser = await launchChromium()
    const page = await browser.newPage({ viewport })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    await page.goto(host.url)
    await page.getByTestId('frame-count').waitFor({ timeout: 60_000 })
    const opened = browser
    return {
      host,
      browser: opened,
      page,
      errors,
      close: async () => {
        await opened.close()
        await host.stop()
      },
    }
  } catch (err) {
    await browser?.close()
    await host.stop()
    throw err
  }
}

const run = promisify(execFile)
/** The installed command: the command line's bundle with its code cache, as `npm run build` leaves it. */
export const CLI = join(ROOT, 'bin/heapscope.js')

/** Opens a file through the page's file picker and waits until it is the run on screen. */
export async function uploadCapture(page: Page, path: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(path)
  const name = path.split(/[\\/]/).at(-1)
  await page.waitForFunction((n) => document.querySelector('[data-testid=run-file]')?.textContent === n, name, { timeout: 60_000 })
}

/** The built command line's stdout. */
export async function cli(...args: string[]): Promise<string> {
  return (await run(process.execPath, [CLI, ...args], { cwd: ROOT, maxBuffer: 64 << 20 })).stdout
}

/** `heapscope check --json`: exit 4 when it finds a hazard, with its findings on stdout all the same. */
export async function checkCapture<T>(path: string): Promise<T> {
  try {
    return JSON.parse(await cli('check', '--json', path)) as T
  } catch (err) {
    const e = err as { code?: number; stdout?: string }
    if (e.code === 4 && e.stdout) return JSON.parse(e.stdout) as T
    throw err
  }
}

/** Run `code` (an ES module, TypeScript allowed) against the sources with tsx, `args` as process.argv[1…]; its stdout. */
export async function engineScript(code: string, ...args: string[]): Promise<string> {
  return (await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, ...args], { cwd: ROOT, maxBuffer: 64 << 20 })).stdout
}

/**
 * Add a script the page did not ship, inline and from a data: URL, and say what happened: under the app's CSP
 * neither runs (`inline` and `ran` stay null, the data: script is `refused`).
 */
export async function injectScripts(page: Page): Promise<{ inline: number | null; data: string; ran: number | null }> {
  return page.evaluate(async () => {
    const w = window as unknown as { __inline?: number; __data?: number }
    const inline = document.createElement('script')
    inline.textContent = 'window.__inline = 1'
    document.head.append(inline)
    const data = document.createElement('script')
    const refused = new Promise<string>((resolve) => {
      data.onerror = () => resolve('refused')
      data.onload = () => resolve('loaded')
    })
    data.src = 'data:text/javascript,window.__data=1'
    document.head.append(data)
    return { inline: w.__inline ?? null, data: await refused, ran: w.__data ?? null }
  })
}

/** Screenshots of what is on screen in English and Chinese, dark and light: `<name>-<lang>-<theme>.png`. */
export async function shootThemes(page: Page, name: string): Promise<void> {
  for (const lang of ['en', 'zh-CN']) {
    await page.getByTestId('language').selectOption(lang)
    for (const theme of ['dark', 'light']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByTestId('theme-toggle').click()
      await page.waitForTimeout(300)
      await page.screenshot({ path: join(RESULTS, `${name}-${lang}-${theme}.png`) })
    }
  }
  await page.getByTestId('language').selectOption('en')
  if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark') await page.getByTestId('theme-toggle').click()
}
