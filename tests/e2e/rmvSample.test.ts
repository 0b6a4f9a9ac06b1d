/**
 * A Radeon Memory Visualizer trace in the app, end to end through the browser host: the RX 6600 sample uploaded
 * through the page's file input opens as an observed run. What a person sees is checked against the trace: its
 * adapter, as many frames as its 16.6 ms buckets, an observed run (no What-if) with one heap lane per memory (local,
 * invisible, system), the driver's residency requests as the residency lane's markers, and the resources it named.
 *
 * The trace lasts 33658.8576 ms (336588576 ticks at 10 MHz, by an independent walk of its tokens; see
 * tests/unit/main/ingest/importers/rmv/residency.test.ts) and has no present marker: floor(33658.8576 / 16.6) + 1 = 2028 frames.
 * Its RESOURCE_REFERENCE tokens are 476 adds (make resident) and 468 removes (evict).
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, engineScript, openApp, RESULTS, ROOT, shootThemes, uploadCapture, type App } from './browser'

const SAMPLE = join(ROOT, 'tests/fixtures/real/rmv-sample-trace-rx6600.rmv')
/** The same trace, its chunks zstd-compressed (tests/fixtures/rmv-sample-trace-rx6600.zstd.README.md). */
const ZSTD = join(ROOT, 'tests/fixtures/rmv-sample-trace-rx6600.zstd.rmv')
const FRAMES = 2028
const EVICTIONS = 468
const MAKE_RESIDENT = 476

const MiB = 1024 * 1024

/** Each application heap of a frame with its size and the bytes its resources hold, straight from the engine. */
async function enginePlacedHeaps(path: string, frame: number): Promise<{ id: number; size: number; resources: number; held: number }[]> {
  const code = `
    import { LocalEngine } from ${JSON.stringify(join(ROOT, 'src/main/engine/engine.ts'))}
    const engine = new LocalEngine()
    const outcome = await engine.load('e2e', { kind: 'file', path: process.argv[1] })
    const a = await engine.placements({ runId: outcome.summary.runId, frame: Number(process.argv[2]) })
    console.log(JSON.stringify(a.heaps.map((h) => ({
      id: h.id, size: h.size, resources: h.resources.id.length, held: Array.from(h.resources.size).reduce((s, x) => s + x, 0),
    }))))
  `
  return JSON.parse(await engineScript(code, path, String(frame))) as { id: number; size: number; resources: number; held: number }[]
}

interface Report {
  frames: number
  residency: { evictions: number; makeResident: number }
}

/** `heapscope report --json` of the built CLI, as a user runs it. */
async function report(...args: string[]): Promise<Report> {
  return JSON.parse(await cli('report', '--json', ...args)) as Report
}

/** Drawn pixels of the canvases under a selector, of all their pixels. */
async function drawn(page: Page, selector: string): Promise<{ total: number; drawn: number }> {
  return page.evaluate((sel) => {
    let total = 0
    let count = 0
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`${sel} canvas`)) {
      const g = canvas.getContext('2d')
      if (!g || canvas.width === 0) continue
      const { data } = g.getImageData(0, 0, canvas.width, canvas.height)
      for (let i = 3; i < data.length; i += 4) {
        total++
        if (data[i] !== 0) count++
      }
    }
    return { total, drawn: count }
  }, selector)
}

describe('an RMV trace in the app', () => {
  let app: App
  let page: Page
  let errors: string[] = []

  beforeAll(async () => {
    // the demo first, then the trace uploaded through the page
    app = await openApp()
    page = app.page
    errors = app.errors
    await uploadCapture(page, SAMPLE)
  })

  afterAll(async () => {
    await app?.close()
  })

  it('shows the adapter and as many frames as the trace has buckets', async () => {
    // the command line counts the same frames and residency requests as the page shows
    expect(await report(SAMPLE)).toMatchObject({ frames: FRAMES, residency: { evictions: EVICTIONS, makeResident: MAKE_RESIDENT } })
    // and other buckets make other frames: floor(33658.8576 / 100) + 1 = 337
    expect((await report(SAMPLE, '--bucket-ms', '100')).frames).toBe(337)
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(FRAMES))
    expect(await page.getByTestId('run-summary').textContent()).toContain('AMD Radeon RX 6600')
    expect(await page.getByTestId('run-summary').textContent()).toContain('rmv')
    expect(await page.getByTestId('load-error').count()).toBe(0)
  })

  it('is shown as the trace has it: observed, with no What-if, one lane per memory the driver names', async () => {
    // no model ran: nothing to ask "what if" of
    expect(await page.getByTestId('observed-badge').textContent()).toBe('observed')
    expect(await page.getByTestId('view-whatif').count()).toBe(0)
    // local, invisible and system memory apart, each lane named by the memory it holds (and no D3D12 heap type)
    const headers = await page.getByTestId('lane-header').allTextContents()
    for (const memory of ['local', 'invisible', 'system']) expect(headers.filter((h) => h.startsWith(memory))).toHaveLength(1)
    expect(headers.join(' ')).not.toMatch(/DEFAULT|UPLOAD|READBACK/)
  })

  it('draws the timeline: the heap lanes, and the driver’s residency as the residency lane’s markers', async () => {
    const lane = page.getByTestId('residency-lane')
    await expect.poll(() => lane.getAttribute('data-evictions'), { timeout: 20_000 }).toBe(String(EVICTIONS))
    expect(await lane.getAttribute('data-make-resident')).toBe(String(MAKE_RESIDENT))
    expect(await page.getByTestId('eviction-count').textContent()).toContain(`${EVICTIONS} evictions`)
    await page.waitForTimeout(600)
    // the invisible lane holds the trace's allocations, up to 3.75 GiB: a good part of its canvas is drawn
    const heap = await drawn(page, '[data-testid=timeline-chart]')
    expect(heap.drawn / heap.total).toBeGreaterThan(0.1)
    const residency = await drawn(page, '[data-testid=residency-lane]')
    expect(residency.drawn / residency.total).toBeGreaterThan(0.05)
    await page.screenshot({ path: join(RESULTS, 'rmv-timeline.png') })
    await shootThemes(page, 'rmv-timeline-heaps')
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('reads the trace again with the frame length the user chooses: 100 ms frames give 337', async () => {
    // floor(33658.8576 / 100) + 1 = 337, what heapscope report --bucket-ms 100 says too
    expect((await report('--bucket-ms', '100', SAMPLE)).frames).toBe(337)
    await page.getByTestId('bucket-ms').fill('100')
    await page.getByTestId('bucket-apply').click()
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('337')
    await page.screenshot({ path: join(RESULTS, 'rmv-buckets-100ms.png') })
    // back to the default frame length for what follows
    await page.getByTestId('bucket-ms').fill('16.6')
    await page.getByTestId('bucket-apply').click()
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe(String(FRAMES))
  })

  // The resources an observed run places in its application heaps (the `placed` records) are in the snapshot
  // beside the model's own allocations.
  it('lists the resources the trace named at a late frame', async () => {
    // By the last frame the app has destroyed every named resource (at 16.6 ms buckets: 122 of 372 live resources
    // are named at frame 2000, none of 250 at frame 2027), so step back from the end: End, then three Shift+←.
    await page.keyboard.press('End')
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft')
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.getAttribute('data-frame'), { timeout: 20_000 }).toBe(String(FRAMES - 31))
    await expect.poll(() => inspector.getAttribute('data-rows'), { timeout: 20_000 }).not.toBe('0')
    const names = await page.getByTestId('table-row').allTextContents()
    // names the trace gives by its name tokens: indexBuffer[…], vertexBuffer[…], ui_texture[…], ColorRT_4k[…], …
    expect(names.some((n) => /(indexBuffer|vertexBuffer|ui_texture|gameplay_texture_[12]k|ColorRT_4k|DepthStencil_4k|Buffer)\[\d+\]/.test(n))).toBe(true)
    await page.screenshot({ path: join(RESULTS, 'rmv-inspector.png') })
  })

  // At frame 1000 the trace has 481 application heaps: the many small ones (heap 122, 256 KiB, holds 124
  // resources of 150 KiB) beside the 64 MiB heaps that hold most of the 3.7 GiB, one resource each.
  it('draws in the aliasing view the application heaps that hold the most bytes, not the most resources', async () => {
    const heaps = await enginePlacedHeaps(SAMPLE, 1000)
    expect(heaps.length).toBe(481)
    const crowded = heaps.reduce((a, b) => (b.resources > a.resources ? b : a))
    expect(crowded).toMatchObject({ id: 122, size: 256 * 1024, resources: 124 })
    await page.getByTestId('goto-frame').fill('1000')
    await page.keyboard.press('Enter')
    await page.getByTestId('view-aliasing').click()
    await page.getByTestId('aliasing-placed-tab').click()
    const view = page.getByTestId('aliasing-view')
    await expect.poll(() => page.getByTestId('aliasing-frame').textContent(), { timeout: 20_000 }).toBe('frame 1000')
    await expect.poll(() => view.getAttribute('data-placed-heaps'), { timeout: 20_000 }).toBe('481')
    const canvas = page.getByTestId('placement-canvas')
    await expect.poll(() => canvas.getAttribute('data-heaps'), { timeout: 20_000 }).toBe('4')
    const drawn = (await canvas.getAttribute('data-heap-ids'))!.split(' ').map(Number)
    expect(drawn).toHaveLength(4)
    const byId = new Map(heaps.map((h) => [h.id, h]))
    // each heap drawn is a full 64 MiB heap, and no heap left out holds more bytes than one drawn
    for (const id of drawn) expect(byId.get(id)).toMatchObject({ size: 64 * MiB, held: 64 * MiB })
    const leastDrawn = Math.min(...drawn.map((id) => byId.get(id)!.held))
    const mostLeftOut = Math.max(...heaps.filter((h) => !drawn.includes(h.id)).map((h) => h.held))
    expect(mostLeftOut).toBeLessThanOrEqual(leastDrawn)
    expect(drawn).not.toContain(crowded.id)
    // the heap list offers the heaps in the same order, each with the bytes it holds
    const options = page.getByTestId('placed-heap').locator('option')
    const held = (await options.evaluateAll((os) => os.map((o) => o.getAttribute('data-bytes')))).slice(1).map(Number)
    expect(held).toEqual([...held].sort((a, b) => b - a))
    expect(held[0]).toBe(64 * MiB)
    expect(await options.nth(1).textContent()).toContain('64.0 MiB')
    await shootThemes(page, 'rmv-aliasing-largest-heaps')
    await page.getByTestId('view-timeline').click()
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('opens the same trace with its chunks zstd-compressed as the same run', async () => {
    await page.getByTestId('file-input').setInputFiles(ZSTD)
    await page.waitForFunction(
      () => document.querySelector('[data-testid=run-file]')?.textContent === 'rmv-sample-trace-rx6600.zstd.rmv',
      undefined,
      { timeout: 60_000 },
    )
    expect(await page.getByTestId('load-error').count()).toBe(0)
    expect(await page.getByTestId('frame-count').textContent()).toBe(String(FRAMES))
    expect(await page.getByTestId('run-summary').textContent()).toContain('AMD Radeon RX 6600')
    const lane = page.getByTestId('residency-lane')
    await expect.poll(() => lane.getAttribute('data-evictions'), { timeout: 20_000 }).toBe(String(EVICTIONS))
    expect(await lane.getAttribute('data-make-resident')).toBe(String(MAKE_RESIDENT))
    expect(errors, errors.join('\n')).toEqual([])
  })
})
