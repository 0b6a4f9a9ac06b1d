/**
 * The profiler UI end to end, through the browser host, on a generated capture with evictions and transients:
 * the eviction markers are as many as `heapscope report` counts, the aliasing view draws the graph's resources
 * as the engine lays them out, the compare view shows both runs, the Chinese locale shows Chinese. Every view
 * is saved as a screenshot under test-results/.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, engineScript, openApp, RESULTS, ROOT, type App } from './browser'

/** budget-drop: the budget falls mid-capture, so residency evicts; two render graphs a frame alias transients. */
const FRAMES = 500
const CAPTURE = join(RESULTS, `ui-budget-drop-${FRAMES}.hscap.gz`)

interface Report {
  frames: number
  residency: { evictions: number; makeResident: number; overBudgetFrames: number }
  transient: { graphs: number }
}

/** The engine's own layout of a frame's graph executions, straight from the engine (not through the page). */
async function engineTransients(path: string, frame: number): Promise<{ name: string; resources: string[]; overlaps: number }[]> {
  const code = `
    import { LocalEngine } from ${JSON.stringify(join(ROOT, 'src/main/engine/engine.ts'))}
    const engine = new LocalEngine()
    const outcome = await engine.load('e2e', { kind: 'file', path: process.argv[1] })
    const answer = await engine.transients({ runId: outcome.summary.runId, frame: Number(process.argv[2]) })
    console.log(JSON.stringify(answer.executions.map((x) => ({ name: x.name, resources: x.resources.name, overlaps: x.overlaps.length / 2 }))))
  `
  return JSON.parse(await engineScript(code, path, String(frame))) as { name: string; resources: string[]; overlaps: number }[]
}

/** Pixels of the canvases under `selector` that are drawn, and those close to a colour. */
async function pixels(page: Page, selector: string, color?: [number, number, number]): Promise<{ total: number; drawn: number; near: number }> {
  return page.evaluate(
    ([sel, rgb]) => {
      let total = 0
      let drawn = 0
      let near = 0
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`${sel} canvas`)) {
        const g = canvas.getContext('2d')
        if (!g || canvas.width === 0) continue
        const { data } = g.getImageData(0, 0, canvas.width, canvas.height)
        for (let i = 0; i < data.length; i += 4) {
          total++
          if (data[i + 3] === 0) continue
          drawn++
          if (rgb && Math.abs(data[i] - rgb[0]) < 40 && Math.abs(data[i + 1] - rgb[1]) < 40 && Math.abs(data[i + 2] - rgb[2]) < 40) near++
        }
      }
      return { total, drawn, near }
    },
    [selector, color ?? null] as const,
  )
}

const hasChinese = (text: string | null) => /[\u4e00-\u9fff]/.test(text ?? '')

describe('the profiler UI in Chromium', () => {
  let app: App
  let page: Page
  let report: Report
  let errors: string[] = []

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true })
    if (!existsSync(CAPTURE)) {
      await cli('gen', 'budget-drop', '--frames', String(FRAMES), '--seed', '2', '-o', `${CAPTURE}.part.gz`)
      renameSync(`${CAPTURE}.part.gz`, CAPTURE)
    }
    report = JSON.parse(await cli('report', '--json', CAPTURE)) as Report
    app = await openApp([CAPTURE])
    page = app.page
    errors = app.errors
  })

  afterAll(async () => {
    await app?.close()
  })

  it('draws as many eviction markers as heapscope report counts evictions', async () => {
    expect(report.residency.evictions).toBeGreaterThan(5)
    expect(report.transient.graphs).toBeGreaterThan(0)
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(report.frames))
    const lane = page.getByTestId('residency-lane')
    await expect.poll(() => lane.getAttribute('data-evictions'), { timeout: 20_000 }).toBe(String(report.residency.evictions))
    expect(await lane.getAttribute('data-make-resident')).toBe(String(report.residency.makeResident))
    expect(await page.getByTestId('eviction-count').textContent()).toContain(`${report.residency.evictions} evictions`)
    await page.waitForTimeout(600)
    // the markers are there to see: red pixels (the dark theme's eviction colour, #ff5d5d) in the lane
    expect((await pixels(page, '[data-testid=residency-lane]', [255, 93, 93])).near).toBeGreaterThan(50)
    // the stacked DEFAULT lane covers a good part of its canvas
    const dflt = await pixels(page, '[data-testid=timeline-chart]')
    expect(dflt.drawn / dflt.total).toBeGreaterThan(0.2)
    await page.screenshot({ path: join(RESULTS, 'ui-timeline.png') })
  })

  it('zooms with the wheel and shows fewer frames, then all again', async () => {
    const lanes = page.getByTestId('timeline-view')
    const seq = Number(await lanes.getAttribute('data-lanes-seq'))
    const box = (await page.getByTestId('timeline-chart').boundingBox())!
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2)
    await page.mouse.wheel(0, -600)
    await expect.poll(async () => Number(await lanes.getAttribute('data-lanes-seq')), { timeout: 10_000 }).toBeGreaterThan(seq)
    // the ruler's ticks step closer once zoomed: fewer frames between its first two labels
    const ticks = await page.locator('[data-testid=frame-ruler] .tick span').allTextContents()
    expect(Number(ticks[1]) - Number(ticks[0])).toBeLessThan(50)
    await page.keyboard.press('0')
    await expect.poll(async () => Number((await page.locator('[data-testid=frame-ruler] .tick span').allTextContents())[1])).toBeGreaterThanOrEqual(50)
  })

  it('inspects the cursor frame: the live resources, one explained step by step, and the pools', async () => {
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.getAttribute('data-rows')).not.toBe('0')
    const rows = Number(await inspector.getAttribute('data-rows'))
    expect(rows).toBeGreaterThan(100)
    // a click on the DEFAULT lane moves the cursor, and the inspector follows it
    const before = await inspector.getAttribute('data-seq')
    const box = (await page.getByTestId('timeline-chart').boundingBox())!
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2)
    await expect.poll(() => inspector.getAttribute('data-seq')).not.toBe(before)
    // more room for the inspector: the splitter up to 45% of the height
    const splitter = (await page.locator('.splitter').boundingBox())!
    const area = (await page.getByTestId('timeline-view').boundingBox())!
    await page.mouse.move(splitter.x + splitter.width / 2, splitter.y + 2)
    await page.mouse.down()
    await page.mouse.move(splitter.x + splitter.width / 2, area.y + area.height * 0.45, { steps: 5 })
    await page.mouse.up()
    await page.getByTestId('table-row').nth(2).click()
    const details = page.getByTestId('resource-details')
    await details.waitFor()
    const steps = await page.getByTestId('route-steps').locator('li').allTextContents()
    expect(steps.length).toBeGreaterThan(2)
    // the residency object holding its memory at the frame: object, size, resident or evicted, last use, priority
    const residency = page.getByTestId('details-residency')
    await residency.waitFor()
    expect(await residency.locator('dt').allTextContents()).toEqual(['Object', 'Size', 'State', 'Last used', 'Priority'])
    expect(await residency.locator('dd').nth(4).textContent()).toMatch(/^(normal|high)$/)
    await page.screenshot({ path: join(RESULTS, 'ui-inspector.png') })
    await residency.scrollIntoViewIfNeeded()
    await page.getByTestId('resource-details').screenshot({ path: join(RESULTS, 'ui-inspector-residency.png') })
    await page.getByTestId('tab-pools').click()
    const pools = page.getByTestId('pool-maps')
    await expect.poll(() => pools.getAttribute('data-pools')).not.toBe('0')
    await page.getByTestId('color-by-tag').click()
    await page.waitForTimeout(800)
    const mapBox = (await pools.boundingBox())!
    await page.mouse.move(mapBox.x + mapBox.width * 0.45, mapBox.y + 20)
    await page.waitForTimeout(300)
    expect((await pixels(page, '[data-testid=pool-maps]')).drawn).toBeGreaterThan(10_000)
    await page.screenshot({ path: join(RESULTS, 'ui-pools.png') })
    await page.getByTestId('tab-resources').click()
    // the splitter back where it was
    const moved = (await page.locator('.splitter').boundingBox())!
    await page.mouse.dblclick(moved.x + moved.width / 2, moved.y + moved.height / 2)
  })

  it('sets an A/B range by dragging on the axis, with its growth and leak candidates', async () => {
    const ruler = (await page.getByTestId('frame-ruler').boundingBox())!
    await page.mouse.move(ruler.x + ruler.width * 0.2, ruler.y + ruler.height / 2)
    await page.mouse.down()
    await page.mouse.move(ruler.x + ruler.width * 0.85, ruler.y + ruler.height / 2, { steps: 10 })
    await page.mouse.up()
    await page.getByTestId('range-panel').waitFor()
    await expect.poll(() => page.getByTestId('leak-count').textContent(), { timeout: 20_000 }).toMatch(/^[\d,]+$/)
    expect(await page.getByTestId('range-growth').textContent()).toMatch(/(B|iB)\s*$/)
    await page.screenshot({ path: join(RESULTS, 'ui-range.png') })
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('range-panel').count()).toBe(0)
  })

  it('draws each resource of the frame’s render graph, as the engine lays them out', async () => {
    // a frame in the middle of the capture: both graphs run every frame
    await page.keyboard.press('Home')
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight')
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.getAttribute('data-frame')).toBe('30')
    await page.getByTestId('view-aliasing').click()
    const view = page.getByTestId('aliasing-view')
    await expect.poll(() => view.getAttribute('data-executions'), { timeout: 20_000 }).not.toBe('0')
    const engine = await engineTransients(CAPTURE, 30)
    expect(Number(await view.getAttribute('data-executions'))).toBe(engine.length)
    const canvas = page.getByTestId('aliasing-canvas')
    await expect.poll(() => canvas.getAttribute('data-rects')).toBe(String(engine[0].resources.length))
    expect(Number(await canvas.getAttribute('data-shared'))).toBe(engine[0].overlaps)
    expect(engine[0].resources.length).toBeGreaterThan(5)
    expect((await pixels(page, '[data-testid=aliasing-canvas]')).drawn).toBeGreaterThan(20_000)
    // hovering a rectangle names one of the graph's resources
    const box = (await canvas.boundingBox())!
    let named: string | null = null
    for (let y = 0.05; y < 0.9 && !named; y += 0.05) {
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * y)
      named = await page.locator('[data-testid=aliasing-canvas] .tip .title').textContent({ timeout: 200 }).catch(() => null)
    }
    expect(engine[0].resources).toContain(named)
    await page.screenshot({ path: join(RESULTS, 'ui-aliasing.png') })
  })

  it('plays the capture: the cursor and the inspector follow the frames streamed', async () => {
    await page.getByTestId('view-timeline').click()
    const start = await page.getByTestId('cursor-frame').textContent()
    await page.getByTestId('play').click()
    await page.getByTestId('live-badge').waitFor()
    await expect.poll(() => page.getByTestId('cursor-frame').textContent(), { timeout: 10_000 }).not.toBe(start)
    await page.screenshot({ path: join(RESULTS, 'ui-playback.png') })
    await page.getByTestId('play').click()
    await expect.poll(() => page.getByTestId('live-badge').count()).toBe(0)
  })

  it('re-runs under other config values and compares both runs side by side', async () => {
    await page.getByTestId('view-whatif').click()
    await page.getByTestId('edit-bufferPool.size').fill('8MiB')
    // textures over 4 MiB leave the read-only pools for committed memory: the diff shows them changed
    await page.getByTestId('edit-texturePool.readOnly.maxAllocation').fill('4MiB')
    expect(await page.getByTestId('whatif-changes').textContent()).toBe('2 keys changed')
    await page.screenshot({ path: join(RESULTS, 'ui-whatif.png') })
    await page.getByTestId('rerun').click()
    await page.getByTestId('compare-view').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('compare-run-a').textContent()).toContain('ui-budget-drop')
    expect(await page.getByTestId('compare-run-b').textContent()).toContain('bufferPool.size=8MiB')
    await expect.poll(async () => (await pixels(page, '[data-testid=compare-chart-a]')).drawn, { timeout: 20_000 }).toBeGreaterThan(20_000)
    await expect.poll(async () => (await pixels(page, '[data-testid=compare-chart-b]')).drawn).toBeGreaterThan(20_000)
    const summary = page.getByTestId('compare-summary')
    await expect.poll(() => summary.locator('tbody tr').count()).toBeGreaterThan(20)
    expect(await summary.textContent()).toContain('Peak, all heaps')
    await page.waitForTimeout(500)
    await page.screenshot({ path: join(RESULTS, 'ui-compare.png') })
    await page.getByTestId('compare-tab-diff').click()
    await expect.poll(() => page.getByTestId('diff-table').getAttribute('data-rows'), { timeout: 20_000 }).not.toBe('0')
    expect(await page.getByTestId('diff-table').textContent()).toContain('Committed')
    await page.screenshot({ path: join(RESULTS, 'ui-compare-diff.png') })
  })

  it('speaks Simplified Chinese', async () => {
    await page.getByTestId('language').selectOption('zh-CN')
    await page.getByTestId('view-timeline').click()
    await expect.poll(() => page.getByTestId('view-timeline').textContent()).toBe('时间线')
    for (const id of ['view-aliasing', 'view-compare', 'view-whatif', 'open-capture', 'tab-resources', 'tab-pools']) {
      expect(hasChinese(await page.getByTestId(id).textContent()), id).toBe(true)
    }
    expect(await page.getByTestId('eviction-count').textContent()).toContain(`${report.residency.evictions} 次逐出`)
    expect(await page.getByTestId('cursor-frame').textContent()).toMatch(/^帧 \d+$/)
    await page.waitForTimeout(500)
    await page.screenshot({ path: join(RESULTS, 'ui-zh.png') })
    await page.getByTestId('language').selectOption('en')
  })

  it('switches to the light theme, charts included', async () => {
    await page.getByTestId('theme-toggle').click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)')
    await page.waitForTimeout(600)
    // the eviction markers redrawn in the light theme's red (#d1242f)
    expect((await pixels(page, '[data-testid=residency-lane]', [209, 36, 47])).near).toBeGreaterThan(50)
    await page.screenshot({ path: join(RESULTS, 'ui-light.png') })
    await page.getByTestId('theme-toggle').click()
  })

  it('keeps every control of the toolbar in reach on a laptop’s 1280 by 800 window, in one row', async () => {
    const size = page.viewportSize()!
    await page.setViewportSize({ width: 1280, height: 800 })
    try {
      await page.getByTestId('view-timeline').click()
      const ids = ['open-capture', 'compare-with', 'capture-open', 'capture-list', 'view-history', 'view-timeline', 'view-aliasing', 'view-compare', 'view-whatif', 'language', 'theme-toggle']
      for (const id of ids) {
        // whole within the window, and what a click at its middle reaches: no neighbour over it, no parent clipping it
        const reach = await page.getByTestId(id).evaluate((el) => {
          const r = el.getBoundingClientRect()
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
          return { inside: r.left >= 0 && r.right <= window.innerWidth && r.width > 0, hit: hit !== null && el.contains(hit) }
        })
        expect(reach, id).toEqual({ inside: true, hit: true })
      }
      // the tabs show their whole labels: none is cut by the toolbar's width
      for (const tab of await page.locator('nav.views button').all()) {
        expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
      }
      // one row: the toolbar is as tall as its tallest control and its padding
      const bar = (await page.locator('header.toolbar').boundingBox())!
      const tab = (await page.getByTestId('view-timeline').boundingBox())!
      expect(bar.height).toBeLessThan(tab.height * 2)
      await page.screenshot({ path: join(RESULTS, 'ui-1280.png') })
    } finally {
      await page.setViewportSize(size)
    }
  })

  it('goes back to the start view, which offers the demo and the formats', async () => {
    await page.getByTestId('close-run').click()
    await page.getByTestId('start-view').waitFor()
    expect(await page.getByTestId('demo-entry').count()).toBeGreaterThan(0)
    await page.screenshot({ path: join(RESULTS, 'ui-start.png') })
    expect(errors, errors.join('\n')).toEqual([])
  })
})
