/**
 * A GPGMM trace in the app, end to end through the browser host: the Dawn QueueWriteBuffer sample uploaded through
 * the page opens as an observed run, what GPGMM did, with no what-if; "Replay through the UE 5.8 model" opens the
 * same trace as run B with its requests placed by the model, and the comparison shows observed (A) vs modelled (B).
 *
 * The sample's four GPGMM heaps of 4194304 bytes are all live in frame 4 and all freed in frame 5 (by an
 * independent walk of its events: tests/unit/main/cli/observed.test.ts): the observed peak is 16 MiB. The page's
 * figures are checked against `heapscope report --json`, with and without `--model d3d12`.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, openApp, RESULTS, ROOT, uploadCapture, type App } from './browser'

const SAMPLE = join(ROOT, 'tests/fixtures/real/gpgmm-dawn-queuewritebuffer.json')

interface Report {
  frames: number
  peak: { frame: number; bytes: number }
}

async function report(...args: string[]): Promise<Report> {
  return JSON.parse(await cli('report', '--json', ...args)) as Report
}

/** The A, B and B − A cells of the comparison's first row whose label is `label`. */
async function summaryRow(page: Page, label: string): Promise<[string, string, string]> {
  const row = page.getByTestId('compare-summary').locator('tbody tr').filter({ has: page.locator('td', { hasText: new RegExp(`^${label}$`) }) }).first()
  const cells = await row.locator('td').allTextContents()
  return [cells[1].trim(), cells[2].trim(), cells[3].trim()]
}

describe('a GPGMM trace in the app', () => {
  let app: App
  let page: Page
  let errors: string[] = []

  beforeAll(async () => {
    app = await openApp()
    page = app.page
    errors = app.errors
    await uploadCapture(page, SAMPLE)
  })

  afterAll(async () => {
    await app?.close()
  })

  it('opens as an observed run, with its frames and no what-if', async () => {
    const observed = await report(SAMPLE)
    expect(observed.peak).toEqual({ frame: 4, bytes: 4 * 4194304 })
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(observed.frames))
    expect(await page.getByTestId('observed-badge').textContent()).toBe('observed')
    expect(await page.getByTestId('view-timeline').count()).toBe(1)
    expect(await page.getByTestId('view-whatif').count()).toBe(0)
    expect(await page.getByTestId('replay-model').textContent()).toContain('Replay through the UE 5.8 model')
    // the fourth view's key opens no what-if either
    await page.keyboard.press('4')
    expect(await page.getByTestId('whatif-view').count()).toBe(0)
  })

  it('replays the requests through the model as run B, and compares observed with modelled', async () => {
    const [observed, modelled] = await Promise.all([report(SAMPLE), report('--model', 'd3d12', SAMPLE)])
    // the model: a 64 MiB shared buffer pool, a 64 MiB upload block and a 256 KiB committed readback buffer
    expect([observed.peak.bytes, modelled.peak.bytes]).toEqual([16 * 2 ** 20, 128 * 2 ** 20 + 262144])
    await page.getByTestId('replay-model').click()
    await page.getByTestId('compare-view').waitFor({ timeout: 60_000 })
    await expect.poll(() => page.getByTestId('compare-kind-b').count(), { timeout: 60_000 }).toBe(1)
    expect(await page.getByTestId('compare-run-a').textContent()).toContain('gpgmm-dawn-queuewritebuffer.json')
    expect(await page.getByTestId('compare-kind-a').textContent()).toBe('observed ·')
    expect(await page.getByTestId('compare-run-b').textContent()).toContain('gpgmm-dawn-queuewritebuffer.json')
    expect(await page.getByTestId('compare-kind-b').textContent()).toBe('modelled by the UE 5.8 D3D12 model ·')
    await expect.poll(() => page.getByTestId('compare-summary').locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(5)
    // as the page writes them: three significant digits
    expect((await summaryRow(page, 'Peak, all heaps')).slice(0, 2)).toEqual(['16.0 MiB', '128 MiB'])
    // each run names its own heaps: GPGMM's segment on the observed side, the model's heap types on the other; a
    // figure only the model gives is absent on the observed side, as `heapscope diff` shows it
    expect(await summaryRow(page, 'local peak')).toEqual(['16.0 MiB', '—', '—'])
    expect((await summaryRow(page, 'DEFAULT peak'))[0]).toBe('—')
    expect((await summaryRow(page, 'Alignment'))[0]).toBe('—')
    expect((await summaryRow(page, 'Transient heaps created'))[0]).toBe('—')
    await page.waitForTimeout(500)
    await page.screenshot({ path: join(RESULTS, 'gpgmm-observed-vs-modelled.png') })
  })

  it('speaks Simplified Chinese', async () => {
    await page.getByTestId('language').selectOption('zh-CN')
    await expect.poll(() => page.getByTestId('compare-kind-a').textContent()).toBe('实测 ·')
    expect(await page.getByTestId('compare-kind-b').textContent()).toBe('UE 5.8 D3D12 模型 ·')
    expect(await page.getByTestId('observed-badge').textContent()).toBe('实测')
    expect(await page.getByTestId('replay-model').textContent()).toContain('用 UE 5.8 模型重放')
    await page.waitForTimeout(300)
    await page.screenshot({ path: join(RESULTS, 'gpgmm-observed-vs-modelled-zh.png') })
    await page.getByTestId('language').selectOption('en')
    expect(errors).toEqual([])
  })
})
