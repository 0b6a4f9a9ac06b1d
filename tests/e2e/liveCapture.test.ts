/**
 * Live capture in Chromium through the browser host: a real Vulkan program started from the Capture dialog under
 * the capture layer, its timeline growing while it runs, then Stop; the dialog when the layer is not built; and
 * `--follow FILE` on a capture another process is writing (a stand-in program that writes a capture a frame at a
 * time, each write ending inside a line).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, launchChromium, RESULTS, ROOT, startHost, type Host } from './browser'

const LAYER_DIR = join(ROOT, 'out/vulkan-layer')
/** The layer's offscreen test program: FRAMES frames, MS a frame, submits and no present. */
const OFFSCREEN = join(LAYER_DIR, 'tests/heapscope-offscreen')
const APPENDER = join(ROOT, 'tests/e2e/appendCapture.mjs')
const SOURCE = join(RESULTS, 'live-source.hscap')
const SOURCE_FRAMES = 120

async function frameCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('frame-count').textContent())
}

/** The frame counts the summary shows, read every `ms` while `until` is false. */
async function watchFrames(page: Page, until: () => Promise<boolean>, ms = 150): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < 200 && !(await until()); i++) {
    if (await page.getByTestId('frame-count').count()) seen.push(await frameCount(page))
    await page.waitForTimeout(ms)
  }
  return seen
}

async function openPage(host: Host, theme?: 'light' | 'dark') {
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto(host.url)
  if (theme) {
    await page.getByTestId('theme-toggle').waitFor()
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByTestId('theme-toggle').click()
  }
  return { browser, page, errors }
}

describe('live capture', () => {
  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true })
    if (!existsSync(SOURCE)) {
      await cli('gen', 'vulkan', '--frames', String(SOURCE_FRAMES), '-o', `${SOURCE}.part`)
      const { renameSync } = await import('node:fs')
      renameSync(`${SOURCE}.part`, SOURCE)
    }
  })

  describe('a Vulkan program under the capture layer, from the Capture dialog', () => {
    let host: Host
    let userData: string
    beforeAll(async () => {
      if (!existsSync(OFFSCREEN)) throw new Error(`${OFFSCREEN} is missing: build the capture layer with npm run build:layer`)
      userData = mkdtempSync(join(tmpdir(), 'heapscope-e2e-live-'))
      host = await startHost([], { HEAPSCOPE_USER_DATA: userData, HEAPSCOPE_LAYER_DIR: LAYER_DIR })
    })
    afterAll(async () => {
      await host?.stop()
      rmSync(userData, { recursive: true, force: true })
    })

    it.each(['dark', 'light'] as const)('the timeline grows frame by frame while the program runs, then Stop ends it (%s theme)', async (theme) => {
      const { browser, page, errors } = await openPage(host, theme)
      try {
        await page.getByTestId('frame-count').waitFor({ timeout: 60_000 })
        await page.getByTestId('capture-open').click()
        const dialog = page.getByTestId('capture-dialog')
        await dialog.waitFor()
        await page.getByTestId('capture-program').fill(OFFSCREEN)
        // 300 frames, 25 ms each: 7.5 s if it is not stopped; it changes its memory at frames 100, 150 and 200
        await page.getByTestId('capture-args').fill('300 25')
        await page.getByTestId('capture-frames-from').selectOption('submit')
        await expect.poll(() => page.getByTestId('capture-start').isEnabled()).toBe(true)
        expect(await page.getByTestId('capture-no-layer').count()).toBe(0)
        await page.screenshot({ path: join(RESULTS, `live-capture-dialog-${theme}.png`) })
        await page.getByTestId('capture-start').click()

        const bar = page.getByTestId('live-bar')
        await bar.waitFor({ timeout: 30_000 })
        expect(await bar.textContent()).toContain('Recording')
        expect(await bar.textContent()).toContain('heapscope-offscreen')
        await expect.poll(() => page.getByTestId('run-file').textContent()).toMatch(/^heapscope-offscreen-\d{8}-\d{6}\.hscap$/)
        // the frame count rises while the program runs
        const seen = await watchFrames(page, async () => (await frameCount(page)) >= 170)
        const rises = seen.filter((n, i) => i > 0 && n > seen[i - 1]).length
        expect(rises).toBeGreaterThanOrEqual(3)
        await page.locator('[data-testid=timeline-chart] canvas').first().waitFor()
        await page.waitForTimeout(300)
        await page.screenshot({ path: join(RESULTS, `live-capture-growing-${theme}.png`) })

        await page.getByTestId('live-stop').click()
        await page.getByTestId('live-complete').waitFor({ timeout: 15_000 })
        const exit = await page.getByTestId('live-exit').textContent()
        expect(exit).toMatch(/heapscope-offscreen was ended \(SIGTERM\)/)
        // stopped, not failed: what the program printed is not shown as why
        expect(await page.locator('[data-testid=live-bar] .message').count()).toBe(0)
        const final = await frameCount(page)
        // stopped before its 300 frames, and the run is a loaded run that no longer grows
        expect(final).toBeGreaterThanOrEqual(170)
        expect(final).toBeLessThan(300)
        await page.waitForTimeout(500)
        expect(await frameCount(page)).toBe(final)
        expect(await page.getByTestId('live-complete').textContent()).toContain(`${final} frames`)
        await page.screenshot({ path: join(RESULTS, `live-capture-stopped-${theme}.png`) })
        expect(errors).toEqual([])
      } finally {
        await browser.close()
      }
    })

    it('vkcube under a virtual X server: the timeline grows while it presents, and the run is complete when it exits', async () => {
      const { browser, page, errors } = await openPage(host)
      try {
        await page.getByTestId('frame-count').waitFor({ timeout: 60_000 })
        await page.getByTestId('capture-open').click()
        await page.getByTestId('capture-program').fill('xvfb-run')
        await page.getByTestId('capture-args').fill('-a vkcube --c 6000')
        await page.getByTestId('capture-frames-from').selectOption('present')
        await expect.poll(() => page.getByTestId('capture-start').isEnabled()).toBe(true)
        await page.getByTestId('capture-start').click()
        await page.getByTestId('live-bar').waitFor({ timeout: 30_000 })
        expect(await page.getByTestId('run-file').textContent()).toMatch(/^xvfb-run-\d{8}-\d{6}\.hscap$/)
        const seen = await watchFrames(page, async () => (await page.getByTestId('live-complete').count()) > 0, 100)
        expect(seen.filter((n, i) => i > 0 && n > seen[i - 1]).length).toBeGreaterThanOrEqual(3)
        expect(await page.getByTestId('live-exit').textContent()).toBe('xvfb-run exited with code 0.')
        // every present is a frame: 6000 of them, and the frame the capture began with
        expect(await frameCount(page)).toBeGreaterThanOrEqual(6000)
        expect(await frameCount(page)).toBeLessThanOrEqual(6002)
        expect(await page.getByTestId('warning-count').textContent()).toBe('0')
        expect(errors).toEqual([])
      } finally {
        await browser.close()
      }
    })
  })

  it('the Capture dialog says when the capture layer is not built, and cannot start', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'heapscope-e2e-live-'))
    const empty = mkdtempSync(join(tmpdir(), 'heapscope-no-layer-'))
    const host = await startHost([], { HEAPSCOPE_USER_DATA: userData, HEAPSCOPE_LAYER_DIR: empty })
    const { browser, page } = await openPage(host)
    try {
      await page.getByTestId('start-capture').click()
      const warning = page.getByTestId('capture-no-layer')
      await warning.waitFor()
      expect(await warning.textContent()).toContain('The capture layer is not built')
      expect(await warning.textContent()).toContain('npm run build:layer')
      await page.getByTestId('capture-program').fill('/usr/bin/vkcube')
      expect(await page.getByTestId('capture-start').isDisabled()).toBe(true)
      await page.screenshot({ path: join(RESULTS, 'live-capture-no-layer.png') })
      await page.getByTestId('language').selectOption('zh-CN')
      await expect.poll(() => warning.textContent()).toContain('捕获层尚未构建')
      expect(await page.getByTestId('capture-dialog').textContent()).toContain('开始捕获')
      await page.screenshot({ path: join(RESULTS, 'live-capture-no-layer-zh-CN.png') })
    } finally {
      await browser.close()
      await host.stop()
      rmSync(userData, { recursive: true, force: true })
      rmSync(empty, { recursive: true, force: true })
    }
  })

  describe('--follow FILE', () => {
    let host: Host
    let writer: ChildProcess
    let userData: string
    let path: string
    beforeAll(async () => {
      userData = mkdtempSync(join(tmpdir(), 'heapscope-e2e-follow-'))
      path = join(userData, 'growing.hscap')
      writeFileSync(path, '')
      host = await startHost(['--follow', path], { HEAPSCOPE_USER_DATA: userData })
    })
    afterAll(async () => {
      writer?.kill()
      await host?.stop()
      rmSync(userData, { recursive: true, force: true })
    })

    it('follows a capture another process is writing, and Stop following leaves a loaded run', async () => {
      const { browser, page, errors } = await openPage(host, 'dark')
      try {
        // the page waits for the first frame of a file that is still empty
        await page.getByTestId('load-bar').waitFor()
        expect(await page.getByTestId('load-bar').textContent()).toContain('Waiting for the first frame of growing.hscap')
        writer = spawn(process.execPath, [APPENDER, SOURCE, path, '--fps', '12'], { stdio: 'ignore' })
        await page.getByTestId('frame-count').waitFor({ timeout: 30_000 })
        const bar = page.getByTestId('live-bar')
        await bar.waitFor()
        expect(await bar.textContent()).toContain('Following')
        expect(await page.getByTestId('run-file').textContent()).toBe('growing.hscap')
        const seen = await watchFrames(page, async () => (await frameCount(page)) >= 50)
        expect(seen.filter((n, i) => i > 0 && n > seen[i - 1]).length).toBeGreaterThanOrEqual(3)
        // every frame the writer has finished is in, and none past it: the torn line waits
        expect(seen.at(-1)!).toBeLessThan(SOURCE_FRAMES)
        await page.screenshot({ path: join(RESULTS, 'live-follow-growing-dark.png') })
        await new Promise<void>((resolve) => (writer.exitCode !== null ? resolve() : writer.once('exit', () => resolve())))
        await page.getByTestId('live-stop').click()
        await page.getByTestId('live-complete').waitFor({ timeout: 15_000 })
        // the whole capture once following stops: its last frame too
        expect(await frameCount(page)).toBe(SOURCE_FRAMES)
        expect(await page.getByTestId('live-complete').textContent()).toContain(`growing.hscap: ${SOURCE_FRAMES} frames`)
        expect(await page.getByTestId('warning-count').textContent()).toBe('0')
        expect(errors).toEqual([])
      } finally {
        await browser.close()
      }
    })
  })
})
