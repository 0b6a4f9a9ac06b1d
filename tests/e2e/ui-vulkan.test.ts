/**
 * A Vulkan run in the profiler UI, through the browser host: its memory heaps as lanes stacked by memory type,
 * no residency lane, and the checks' findings as `heapscope check` lists them, each one opening its frame with its
 * resources and heap bytes marked on the block maps (an aliasing hazard in the aliasing view first).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, RESULTS, ROOT, startHost, type Host } from './browser'

const run = promisify(execFile)
const CLI = join(ROOT, 'out/main/cli.js')
const CAPTURE = join(RESULTS, 'ui-vulkan-hazards.hscap.gz')

/** `heapscope check --json`: each hazard with its frame number, and the warnings counted by rule. */
interface Check {
  hazards: { frame: number; rule: string; resources: number[] }[]
  warnings: Record<string, number>
}

/** `heapscope check --json`: exit 4 when it finds a hazard, with its findings on stdout all the same. */
async function check(path: string): Promise<Check> {
  try {
    return JSON.parse((await run(process.execPath, [CLI, 'check', '--json', path], { cwd: ROOT, maxBuffer: 16 << 20 })).stdout) as Check
  } catch (err) {
    const e = err as { code?: number; stdout?: string }
    if (e.code === 4 && e.stdout) return JSON.parse(e.stdout) as Check
    throw err
  }
}

describe('a Vulkan run in Chromium', () => {
  let host: Host
  let browser: Browser
  let page: Page
  let found: Check
  const errors: string[] = []
  const userData = process.env.HEAPSCOPE_USER_DATA

  beforeAll(async () => {
    process.env.HEAPSCOPE_USER_DATA = mkdtempSync(join(tmpdir(), 'heapscope-ui-e2e-'))
    mkdirSync(RESULTS, { recursive: true })
    if (!existsSync(CAPTURE)) {
      await run(process.execPath, [CLI, 'gen', 'vulkan-hazards', '-o', `${CAPTURE}.part.gz`], { cwd: ROOT })
      renameSync(`${CAPTURE}.part.gz`, CAPTURE)
    }
    found = await check(CAPTURE)
    host = await startHost([CAPTURE])
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    await page.goto(host.url)
    await page.getByTestId('frame-count').waitFor({ timeout: 60_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
    if (userData === undefined) delete process.env.HEAPSCOPE_USER_DATA
    else process.env.HEAPSCOPE_USER_DATA = userData
  })

  it('draws a lane per memory heap, stacked by memory type, and no residency lane', async () => {
    await page.locator('[data-testid=timeline-chart] canvas').waitFor()
    const titles = await page.locator('.lane-header .lane-title').allTextContents()
    expect(titles.slice(0, 2)).toEqual(['Heap 0 · DEVICE_LOCAL', 'Heap 1'])
    expect(await page.getByTestId('residency-lane').count()).toBe(0)
    const legend = await page.getByTestId('placement-legend').textContent()
    expect(legend).toContain('Type 0')
    expect(legend).not.toContain('placement.')
    await page.waitForTimeout(500)
    await page.screenshot({ path: join(RESULTS, 'ui-vulkan.png') })
  })

  it('lists the findings heapscope check reports, and opens one on its frame with its bytes marked', async () => {
    const total = found.hazards.length + Object.values(found.warnings).reduce((a, b) => a + b, 0)
    expect(found.hazards.length).toBeGreaterThan(0)
    await page.getByTestId('tab-hazards').click()
    const table = page.getByTestId('hazard-table')
    await expect.poll(() => table.getAttribute('data-rows')).toBe(String(total))
    const hazard = found.hazards[0]
    const row = page.getByTestId('table-row').filter({ hasText: hazard.rule })
    await row.click()
    // an aliasing hazard opens in the aliasing view, on its frame's application heaps; the inspector behind it
    // is on the finding's frame, its first resource explained, the block maps shown
    await expect.poll(() => page.getByTestId('aliasing-view').getAttribute('data-section')).toBe('placed')
    await page.getByTestId('view-timeline').click()
    await expect.poll(() => page.getByTestId('inspector-frame').textContent()).toBe(`frame ${hazard.frame}`)
    await page.getByTestId('resource-details').waitFor()
    expect(await page.getByTestId('resource-details').textContent()).toContain(`#${hazard.resources[0]}`)
    await expect.poll(() => page.getByTestId('pool-maps').getAttribute('data-pools')).not.toBe('0')
    await page.waitForTimeout(500)
    await page.screenshot({ path: join(RESULTS, 'ui-vulkan-hazard.png') })
    expect(errors, errors.join('\n')).toEqual([])
  })
})
