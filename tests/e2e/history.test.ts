/**
 * The History view end to end, through the browser host: a history database made by the built CLI from generated
 * runs of four builds, opened by its path; the charts draw every build; a click on a chart point and one in the list
 * pick a build, whose figures are those of `heapscope report`; its run opens on the timeline, and "compare with
 * previous" opens the previous build's run beside it. Screenshots in both themes under test-results/.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, openApp, RESULTS, type App } from './browser'

const DIR = join(RESULTS, 'history')
const DB = join(DIR, 'runs.duckdb')
const BUILDS = ['1.0.1', '1.0.2', '1.0.3', '1.0.4']

interface Report {
  frames: number
  peak: { bytes: number }
  heaps: Record<string, { peakBytes: number }>
}

/** Drawn pixels of the canvases under `selector`. */
async function drawn(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    let n = 0
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`${sel} canvas`)) {
      const g = canvas.getContext('2d')
      if (!g || canvas.width === 0) continue
      const { data } = g.getImageData(0, 0, canvas.width, canvas.height)
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++
    }
    return n
  }, selector)
}

describe('the History view in Chromium', () => {
  let app: App
  let page: Page
  const files: string[] = []
  const reports: Report[] = []
  /** A second map of the last build, added after its forest run: the build's latest run. */
  let city: Report

  beforeAll(async () => {
    rmSync(DIR, { recursive: true, force: true })
    mkdirSync(DIR, { recursive: true })
    for (const [i, build] of BUILDS.entries()) {
      const file = join(DIR, `nightly-${build}.hscap`)
      // the streaming scenario grows with its seed's frames: a longer run each build
      await cli('gen', 'demo', '--frames', String(30 + 15 * i), '--seed', String(i + 1), '-o', file)
      await cli('history', 'add', DB, file, '--build', build, '--label', 'map=forest')
      files.push(file)
      reports.push(JSON.parse(await cli('report', '--json', file)) as Report)
    }
    const cityFile = join(DIR, `nightly-${BUILDS[3]}-city.hscap`)
    await cli('gen', 'demo', '--frames', '120', '--seed', '9', '-o', cityFile)
    await cli('history', 'add', DB, cityFile, '--build', BUILDS[3], '--label', 'map=city')
    city = JSON.parse(await cli('report', '--json', cityFile)) as Report
    app = await openApp([files[0]])
    page = app.page
  })

  afterAll(async () => {
    await app?.close()
  })

  it('opens a history by its path and draws each build, in total, per heap and per placement', async () => {
    await page.getByTestId('view-history').click()
    await page.getByTestId('history-path').fill(DB)
    await page.getByTestId('history-open').click()
    await expect.poll(() => page.getByTestId('history-name').textContent()).toContain('5 runs, 4 builds')
    for (const chart of ['total', 'heap', 'placement']) {
      await expect.poll(() => drawn(page, `[data-testid=history-chart-${chart}]`), { timeout: 10_000 }).toBeGreaterThan(500)
    }
    // newest first in the list, each with its peak as report gives it
    const list = await page
      .getByTestId('history-builds')
      .locator('button')
      .evaluateAll((buttons) => buttons.map((b) => [b.children[0].textContent, Number(b.getAttribute('data-value'))]))
    // a build is as large as its largest run: the last one has a forest and a city run
    const peaks = reports.map((r) => r.peak.bytes)
    peaks[3] = Math.max(peaks[3], city.peak.bytes)
    expect(city.peak.bytes).not.toBe(reports[3].peak.bytes)
    expect(list).toEqual([...BUILDS.keys()].reverse().map((i) => [BUILDS[i], peaks[i]]))
    expect(await page.getByTestId('history-builds').locator('button').first().textContent()).toMatch(/^1\.0\.4\s*[\d.]+ GiB$/)
  })

  it('picks a build by a click on the chart, with the figures report gives', async () => {
    const box = (await page.getByTestId('history-chart-total').locator('canvas').first().boundingBox())!
    // the category axis spans the grid (72 px from the left, 18 from the right), builds at even steps
    const x = box.x + 72 + ((box.width - 72 - 18) * 1) / (BUILDS.length - 1)
    await page.mouse.click(x, box.y + box.height / 2)
    const picked = page.getByTestId('history-picked')
    await expect.poll(() => picked.locator('h3').textContent()).toBe(`Build ${BUILDS[1]}`)
    const value = async (line: string) => Number(await picked.locator(`tr[data-line="${line}"]`).getAttribute('data-value'))
    expect(await value('all')).toBe(reports[1].peak.bytes)
    expect(await value('DEFAULT')).toBe(reports[1].heaps.DEFAULT.peakBytes)
    expect(await value('UPLOAD')).toBe(reports[1].heaps.UPLOAD.peakBytes)
    expect(await picked.locator('tr[data-line="all"] th').textContent()).toBe('All heaps')
    await page.screenshot({ path: join(RESULTS, 'ui-history-dark.png') })
    await page.getByTestId('theme-toggle').click()
    await page.waitForTimeout(300)
    await page.screenshot({ path: join(RESULTS, 'ui-history-light.png') })
    await page.getByTestId('theme-toggle').click()
  })

  it('narrows the builds to a map', async () => {
    const buttons = page.getByTestId('history-builds').locator('button')
    await page.getByTestId('history-filter-map').selectOption('city')
    await expect.poll(() => buttons.count()).toBe(1)
    expect(await buttons.first().getAttribute('data-value')).toBe(String(city.peak.bytes))
    await page.getByTestId('history-filter-map').selectOption('forest')
    await expect.poll(() => buttons.count()).toBe(4)
    expect(await buttons.first().getAttribute('data-value')).toBe(String(reports[3].peak.bytes))
    await page.getByTestId('history-filter-map').selectOption('')
    await expect.poll(() => buttons.first().getAttribute('data-value')).toBe(String(Math.max(city.peak.bytes, reports[3].peak.bytes)))
  })

  it('opens the build’s run on the timeline', async () => {
    await page.getByTestId(`history-build-${BUILDS[2]}`).click()
    await page.getByTestId('history-open-run').click()
    await expect.poll(() => page.getByTestId('run-file').textContent(), { timeout: 30_000 }).toBe(`nightly-${BUILDS[2]}.hscap`)
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(reports[2].frames))
    await page.getByTestId('timeline-view').waitFor()
  })

  it('compares a build’s latest run with the previous build’s', async () => {
    await page.getByTestId('view-history').click()
    await page.getByTestId(`history-build-${BUILDS[3]}`).click()
    await page.getByTestId('history-compare').click()
    await expect.poll(() => page.getByTestId('view-compare').getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true')
    expect(await page.getByTestId('run-file').textContent()).toBe(`nightly-${BUILDS[2]}.hscap`)
    expect(await page.getByTestId('run-summary').textContent()).toContain(`nightly-${BUILDS[3]}-city.hscap`)
    // the first build has nothing before it
    await page.getByTestId('view-history').click()
    await page.getByTestId(`history-build-${BUILDS[0]}`).click()
    expect(await page.getByTestId('history-compare').isDisabled()).toBe(true)
    await page.getByTestId('language').selectOption('zh-CN')
    await expect.poll(() => page.getByTestId('history-open-run').textContent()).toBe('打开运行')
    await page.screenshot({ path: join(RESULTS, 'ui-history-zh.png') })
    await page.getByTestId('language').selectOption('en')
    expect(app.errors).toEqual([])
  })

  it('says what is wrong with a path that is not a history', async () => {
    await page.getByTestId('history-path').fill(files[0])
    await page.getByTestId('history-open').click()
    await expect.poll(() => page.getByTestId('history-error').textContent()).toContain('cannot open as a DuckDB database')
  })
})
