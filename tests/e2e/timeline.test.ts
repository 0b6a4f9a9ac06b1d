/**
 * The walking skeleton end to end: the browser host serves the built app on the shipped demo capture;
 * Chromium opens it, the timeline draws, the figures match the capture, and a corrupt capture is refused
 * with its line while the demo stays on screen.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, RESULTS, ROOT, startHost, type Host } from './browser'

const DEMO = join(ROOT, 'resources/demo/demo.hscap.gz')

/** Frames of a capture counted the simplest way: JSON.parse each line, count `frame` records (+ implicit 0). */
function countFrames(path: string): number {
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter((l) => l.trim())
  let frames = 0
  let recordsBeforeFirstFrame = 0
  let firstFrameN: number | undefined
  for (const line of lines.slice(1)) {
    const record = JSON.parse(line) as { e: string; n?: number }
    if (record.e === 'frame') {
      frames++
      firstFrameN ??= record.n
    } else if (firstFrameN === undefined) recordsBeforeFirstFrame++
  }
  return frames + (recordsBeforeFirstFrame > 0 && (firstFrameN ?? 1) > 0 ? 1 : 0)
}

/** Pixels of the chart's canvas that are drawn (not transparent), and those in the bytes series' blue. */
async function chartPixels(page: Page): Promise<{ total: number; drawn: number; blue: number }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=timeline-chart] canvas')
    if (!canvas) return { total: 0, drawn: 0, blue: 0 }
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height)
    let drawn = 0
    let blue = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) continue
      drawn++
      if (data[i + 2] > 180 && data[i + 2] > data[i] + 80) blue++
    }
    return { total: data.length / 4, drawn, blue }
  })
}

describe('browser host, end to end', () => {
  let host: Host
  let browser: Browser
  let page: Page
  const demoFrames = countFrames(DEMO)

  beforeAll(async () => {
    host = await startHost()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } })
  })

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
  })

  it('opens the demo capture and draws its timeline', async () => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    await page.goto(host.url)
    await page.getByTestId('frame-count').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(demoFrames))
    expect(demoFrames).toBeGreaterThan(100)
    await page.locator('[data-testid=timeline-chart] canvas').waitFor()
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('[data-testid=timeline-chart] canvas')
      return c !== null && c.width > 0
    })
    await page.waitForTimeout(500)
    const pixels = await chartPixels(page)
    // axes, labels and two series: well over 5% of the canvas is drawn, and the bytes area is blue
    expect(pixels.drawn / pixels.total).toBeGreaterThan(0.05)
    expect(pixels.blue).toBeGreaterThan(1000)
    await page.screenshot({ path: join(RESULTS, 'timeline.png') })
    expect(errors, errors.join("\n")).toEqual([])
  })

  it('moves the cursor to a clicked frame and shows a tooltip', async () => {
    const canvas = page.locator('[data-testid=timeline-chart] canvas').first()
    const box = (await canvas.boundingBox())!
    await page.mouse.move(box.x + box.width / 2 - 20, box.y + box.height / 2)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 })
    // ECharts' tooltip: a floating div whose first line is the frame under the mouse
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLDivElement>('[data-testid=timeline-chart] div')].some(
          (d) => d.style.zIndex === '9999999' && d.style.display !== 'none' && /^Frame \d+/.test(d.textContent ?? ''),
        ),
      undefined,
      { timeout: 5_000 },
    )
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    await page.getByTestId('cursor-frame').waitFor({ timeout: 5_000 })
    expect(await page.getByTestId('cursor-frame').textContent()).toMatch(/^frame \d+$/)
  })

  it('refuses a capture that is not JSON on line 5, naming the line, and keeps the demo usable', async () => {
    const bad = join(RESULTS, 'corrupt-line5.hscap')
    writeFileSync(
      bad,
      [
        '{"format":"heapscope-capture","version":1}',
        '{"e":"frame","n":0}',
        '{"e":"buffer","id":1,"size":1024}',
        '{"e":"frame","n":1}',
        '{"e":"buffer","id":2,"size":1024,,}',
        '{"e":"frame","n":2}',
      ].join('\n') + '\n',
    )
    await page.getByTestId('file-input').setInputFiles(bad)
    const banner = page.getByTestId('load-error')
    await banner.waitFor({ timeout: 15_000 })
    expect(await banner.textContent()).toContain('line 5')
    // the demo is still the run on screen, its chart still drawn
    expect(await page.getByTestId('run-file').textContent()).toBe('demo.hscap.gz')
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(demoFrames))
    expect((await chartPixels(page)).blue).toBeGreaterThan(1000)
    await page.screenshot({ path: join(RESULTS, 'corrupt-capture-error.png') })
    await page.getByTestId('dismiss-error').click()
    await expect.poll(() => page.getByTestId('load-error').count()).toBe(0)
  })
})
