/**
 * A Vulkan run in the profiler UI, through the browser host: its memory heaps as lanes stacked by memory type,
 * no residency lane, and the checks' findings as `heapscope check` lists them, each one opening its frame with its
 * resources and heap bytes marked on the block maps (an aliasing hazard in the aliasing view first).
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCapture, cli, openApp, RESULTS, shootThemes, type App } from './browser'

const CAPTURE = join(RESULTS, 'ui-vulkan-hazards.hscap.gz')

/** `heapscope check --json`: each hazard with its frame number, and the warnings counted by rule. */
interface Check {
  hazards: { frame: number; rule: string; resources: number[]; names: string[] }[]
  warnings: Record<string, number>
}

describe('a Vulkan run in Chromium', () => {
  let app: App
  let page: Page
  let found: Check
  let errors: string[] = []

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true })
    if (!existsSync(CAPTURE)) {
      await cli('gen', 'vulkan-hazards', '-o', `${CAPTURE}.part.gz`)
      renameSync(`${CAPTURE}.part.gz`, CAPTURE)
    }
    found = await checkCapture<Check>(CAPTURE)
    app = await openApp([CAPTURE])
    page = app.page
    errors = app.errors
  })

  afterAll(async () => {
    await app?.close()
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
    // the row names its resources as check's JSON does, id and name
    const named = hazard.resources.map((id, i) => (hazard.names[i] ? `#${id} ${hazard.names[i]}` : `#${id}`)).join(', ')
    expect(hazard.names.some((n) => n !== '')).toBe(true)
    expect(await row.first().textContent()).toContain(named)
    await shootThemes(page, 'ui-vulkan-hazard-names')
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
