/**
 * An Unreal Insights trace in the app, end to end through the browser host: the scene of
 * tests/unit/main/ingest/importers/utrace/scene.ts, written as a .utrace and uploaded through the page's file input, opens as an
 * observed run. What a person sees is checked against the scene, worked out by hand: 61 frames (60 game frame
 * starts), the heap lanes drawn, at the last frame 97 live resources (60 textures, 35 buffers, 2 render targets)
 * placed at their offsets with their LLM tags, and a texture's details with its heap, offset and call stack. The
 * same scene without frame events is cut into buckets of the length the user types.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, engineScript, openApp, RESULTS, uploadCapture, type App } from './browser'

const DIR = mkdtempSync(join(tmpdir(), 'heapscope-utrace-'))
const SCENE = join(DIR, 'scene.utrace')
const BUCKETS = join(DIR, 'scene-no-frames.utrace')

describe('a .utrace in the app', () => {
  let app: App
  let page: Page

  beforeAll(async () => {
    await engineScript(
      "import { writeScene } from './tests/unit/main/ingest/importers/utrace/scene.ts'; writeScene(process.argv[1]); writeScene(process.argv[2], false)",
      SCENE,
      BUCKETS,
    )
    app = await openApp()
    page = app.page
    await uploadCapture(page, SCENE)
  })

  afterAll(async () => {
    await app?.close()
  })

  it('opens as a run of 61 frames, as the command line counts too', async () => {
    expect(await page.getByTestId('load-error').count()).toBe(0)
    expect(await page.getByTestId('frame-count').textContent()).toBe('61')
    expect(await page.getByTestId('run-summary').textContent()).toContain('utrace')
    expect((JSON.parse(await cli('report', '--json', SCENE)) as { frames: number }).frames).toBe(61)
    // cut into 100 ms buckets instead of at its frame events: floor(999.96 / 100) + 1 = 10
    expect((JSON.parse(await cli('report', '--json', '--no-frame-markers', '--bucket-ms', '100', SCENE)) as { frames: number }).frames).toBe(10)
  })

  it('lists the live resources of the last frame, placed at their offsets with their tags', async () => {
    await page.keyboard.press('End')
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.getAttribute('data-frame'), { timeout: 20_000 }).toBe('60')
    await expect.poll(() => inspector.getAttribute('data-rows'), { timeout: 20_000 }).toBe('97')
    await page.getByTestId('filter-name').fill('0x200000000')
    // the first texture, at offset 0 of the texture heap (the heap's own address: 0x200000000)
    await expect.poll(() => inspector.getAttribute('data-rows'), { timeout: 20_000 }).toBe('1')
    expect(await page.getByTestId('table-row').first().textContent()).toMatch(/0x200000000.*Textures.*0x00000000/)
    await page.getByTestId('filter-name').fill('0x200ec0000')
    // the last texture, frame 60: offset 59 × 256 KiB = 0xec0000
    await expect.poll(() => page.getByTestId('table-row').first().textContent(), { timeout: 20_000 }).toContain('0x200ec0000')
    expect(await inspector.getAttribute('data-rows')).toBe('1')
    expect(await page.getByTestId('table-row').first().textContent()).toMatch(/Textures.*0x00ec0000/)
    await page.getByTestId('table-row').first().click()
    const details = page.getByTestId('resource-details')
    await details.waitFor()
    const steps = await page.getByTestId('route-steps').locator('li').allTextContents()
    // an observed run: the trace placed it in UE's texture pool heap (Video memory, 16 MiB), no model
    expect(steps.join('\n')).toContain(`placed by the trace in heap Texture Pool D3D12Heap (video, ${16 << 20} bytes) at offset ${59 * 256 * 1024}`)
    const detailText = await details.textContent()
    expect(detailText).toContain('Game-D3D12RHI.dll+0x1234, Game-D3D12RHI.dll+0x8000, 0x123456')
    await page.screenshot({ path: join(RESULTS, 'utrace-inspector.png') })
    await page.getByTestId('filter-name').fill('')
    await expect.poll(() => inspector.getAttribute('data-rows'), { timeout: 20_000 }).toBe('97')
    await page.screenshot({ path: join(RESULTS, 'utrace-timeline.png') })
  })

  it('cuts a trace without frame events into buckets of the length the user types', async () => {
    await uploadCapture(page, BUCKETS)
    // 999.96 ms of 16.6 ms buckets: floor(60.24) + 1 = 61
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('61')
    await page.getByTestId('bucket-ms').fill('100')
    await page.getByTestId('bucket-apply').click()
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('10')
    await page.screenshot({ path: join(RESULTS, 'utrace-buckets-100ms.png') })
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })
})
