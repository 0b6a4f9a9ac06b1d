/**
 * The analyst's workflow on a generated leak, in Chromium through the browser host: the A/B range's leak
 * candidates in groups by name pattern and by tag, the leaking emitter's buffers first and marked as created
 * steadily and never freed; the CSV of the candidates holds every row, not the largest shown. Each view is saved
 * in both languages and both themes under test-results/.
 */
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, openApp, RESULTS, type App } from './browser'

const FRAMES = 1500
const CAPTURE = join(RESULTS, `ui-leak-${FRAMES}.hscap.gz`)

/** Screenshots of what is on screen in English and Chinese, dark and light: `<name>-<lang>-<theme>.png`. */
async function shootAll(page: Page, name: string): Promise<void> {
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

describe('the analyst’s workflow in Chromium', () => {
  let app: App
  let page: Page

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true })
    if (!existsSync(CAPTURE)) {
      await cli('gen', 'leak', '--frames', String(FRAMES), '--seed', '3', '-o', `${CAPTURE}.part.gz`)
      renameSync(`${CAPTURE}.part.gz`, CAPTURE)
    }
    app = await openApp([CAPTURE])
    page = app.page
  })

  afterAll(async () => {
    await app?.close()
  })

  it('groups the range’s leak candidates: the leaking emitter first, created steadily and never freed', async () => {
    const ruler = (await page.getByTestId('frame-ruler').boundingBox())!
    await page.mouse.move(ruler.x + ruler.width * 0.05, ruler.y + ruler.height / 2)
    await page.mouse.down()
    await page.mouse.move(ruler.x + ruler.width * 0.98, ruler.y + ruler.height / 2, { steps: 10 })
    await page.mouse.up()
    const groups = page.getByTestId('leak-group-table')
    await expect.poll(() => groups.getAttribute('data-rows'), { timeout: 30_000 }).not.toBe('0')
    const first = groups.getByTestId('table-row').first()
    expect(await first.textContent()).toContain('NS_Footstep_Dust.GPUBuffer.')
    expect(await first.textContent()).toContain('created steadily, never freed')
    // no group of another name is steady: streamed meshes and textures are freed or come in bursts
    const rows = await groups.getByTestId('table-row').allTextContents()
    const steady = rows.filter((r) => r.includes('created steadily, never freed'))
    expect(steady.length).toBeGreaterThan(0)
    for (const row of steady) expect(row).toContain('NS_Footstep_Dust')
    await shootAll(page, 'ui-leak-groups')

    await page.getByTestId('leak-view-tag').click()
    // by tag the emitter is one of the particle systems, of which the others are freed: no steady group
    await expect.poll(async () => (await groups.getByTestId('table-row').allTextContents()).join('\n')).toContain('Particles')
    expect((await groups.getByTestId('table-row').allTextContents()).join('\n')).not.toContain('created steadily, never freed')
    await shootAll(page, 'ui-leak-groups-by-tag')
  })

  it('exports every leak candidate to CSV, past the largest rows the table holds', async () => {
    await page.getByTestId('leak-view-resources').click()
    const total = Number((await page.getByTestId('leak-count').textContent())!.replace(/,/g, ''))
    expect(total).toBeGreaterThan(500)
    const download = page.waitForEvent('download')
    await page.getByTestId('export-csv').click()
    const path = await (await download).path()
    const lines = readFileSync(path, 'utf8').trim().split('\n')
    // a header line, then one line per candidate
    expect(lines.length).toBe(total + 1)
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })
})
