/**
 * The lanes as steps, in Chromium: a 64 MiB buffer made in frame 3 of a six-frame capture reads 0 up to frame 3
 * and 64 MiB from there, with no ramp from frame 2. The DEFAULT lane's bottom row of pixels is filled from the
 * cursor's x at frame 3 on, and empty before it. The heaps that hold nothing in the capture fold to thin rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openApp, RESULTS, ROOT, shootThemes } from './browser'

const CAPTURE = join(RESULTS, 'ui-sparse-steps.hscap')

describe('lanes drawn as steps', () => {
  it('shows nothing before the frame a resource is made in, and all of it from there', async () => {
    mkdirSync(RESULTS, { recursive: true })
    const lines = [
      { format: 'heapscope-capture', version: 1 },
      ...[0, 1, 2].map((n) => ({ e: 'frame', n })),
      { e: 'frame', n: 3 },
      { e: 'buffer', id: 1, size: 64 << 20, usage: ['Static'], name: 'Sparse' },
      { e: 'frame', n: 4 },
      { e: 'frame', n: 5 },
    ]
    writeFileSync(CAPTURE, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const app = await openApp([CAPTURE])
    try {
      const { page } = app
      const lane = page.getByTestId('timeline-chart')
      await expect.poll(() => lane.locator('canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0)
      await page.waitForTimeout(800)
      // the cursor's x at frames 2 and 3, in the overlay over the plot
      const cursorAt = async (frame: number) => {
        await page.getByTestId('goto-frame').fill(String(frame))
        await page.getByTestId('goto-frame').press('Enter')
        await expect.poll(() => page.getByTestId('cursor-frame').textContent()).toBe(`frame ${frame}`)
        return (await page.getByTestId('cursor-line').boundingBox())!.x
      }
      const x2 = await cursorAt(2)
      const x3 = await cursorAt(3)
      expect(x3 - x2).toBeGreaterThan(50)
      await page.screenshot({ path: join(RESULTS, 'ui-steps.png') })
      // the first column of the lane's bottom row (2 px above the grid's bottom margin) with paint in it
      const box = (await lane.boundingBox())!
      const firstFilled = await lane.evaluate((el) => {
        const canvas = el.querySelector('canvas')!
        const g = canvas.getContext('2d')!
        const ratio = canvas.width / el.getBoundingClientRect().width
        const y = Math.round(canvas.height - 9 * ratio)
        const { data } = g.getImageData(0, y, canvas.width, 1)
        const bg = [data[4 * 5], data[4 * 5 + 1], data[4 * 5 + 2]]
        // from the plot's left edge (the grid's 62 px) on
        for (let px = Math.round(70 * ratio); px < canvas.width; px++) {
          const d = Math.abs(data[4 * px] - bg[0]) + Math.abs(data[4 * px + 1] - bg[1]) + Math.abs(data[4 * px + 2] - bg[2])
          if (d > 60) return px / ratio
        }
        return -1
      })
      const filledX = box.x + firstFilled
      // a ramp from frame 2 would paint the bottom row just after x2; steps paint it from x3
      expect(filledX).toBeGreaterThan(x2 + (x3 - x2) * 0.8)
      expect(Math.abs(filledX - x3)).toBeLessThan(4)
      // the UPLOAD and READBACK heaps hold nothing in this capture: each folds to a thin row that says so
      for (const id of ['lane-UPLOAD', 'lane-READBACK']) {
        const chart = page.getByTestId(id)
        expect(await chart.getAttribute('data-folded')).toBe('1')
        expect((await chart.boundingBox())!.height).toBeLessThan(30)
      }
      // said across the folded lane's plot, where the header has no room for it beside the heap's name
      expect(await page.getByTestId('lane-UPLOAD').getByTestId('lane-empty').textContent()).toBe('empty in this capture')
      expect(await page.getByTestId('lane-header').nth(1).textContent()).toContain('UPLOAD')
      expect(await lane.getAttribute('data-folded')).toBe('0')
      expect(box.height).toBeGreaterThan(200)
      await shootThemes(page, 'ui-steps-folded')
      expect(app.errors, app.errors.join('\n')).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('shows a one-frame dump (a VMA 2.x one) as a snapshot of its heaps, not a flat timeline', async () => {
    const app = await openApp([join(ROOT, 'tests/fixtures/real/vma2-dump-sample.json')])
    try {
      const { page } = app
      const view = page.getByTestId('snapshot-view')
      await view.waitFor({ timeout: 20_000 })
      expect(await page.getByTestId('frame-count').textContent()).toBe('1')
      // the dump as it is (observed): its two 32 MiB blocks by memory type, one of type 0 (4 allocations), one of
      // type 1 (empty)
      const rows = await page.getByTestId('snapshot-heap').allTextContents()
      expect(rows[0]).toMatch(/^type 0 DEVICE_LOCAL.*32\.0 MiB/)
      expect(rows[0]).toContain('7.69 MiB requested')
      expect(rows[1]).toMatch(/^type 1 HOST_VISIBLE HOST_COHERENT.*32\.0 MiB/)
      expect(await page.getByTestId('timeline-chart').count()).toBe(0)
      await shootThemes(page, 'ui-snapshot')
      expect(app.errors, app.errors.join('\n')).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('names a graph’s passes along the aliasing view’s pass axis when the capture gives them (format 1.4)', async () => {
    const path = join(RESULTS, 'ui-pass-names.hscap')
    const passNames = ['DepthPrepass', 'BasePass', 'LightsCompute', 'Translucency', 'Tonemap', 'UI']
    const lines = [
      { format: 'heapscope-capture', version: 1, minor: 4 },
      { e: 'frame', n: 0 },
      { e: 'graph', name: 'SceneRenderer' },
      { e: 'transient', id: 1, kind: 'buffer', size: 8 << 20, usage: ['UnorderedAccess'], first: 0, last: 2, name: 'SceneDepth' },
      { e: 'transient', id: 2, kind: 'buffer', size: 8 << 20, usage: ['UnorderedAccess'], first: 3, last: 5, name: 'SceneColor' },
      { e: 'endgraph', passes: passNames.length, passNames },
      { e: 'frame', n: 1 },
    ]
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const app = await openApp([path])
    try {
      const { page } = app
      await page.getByTestId('goto-frame').fill('0')
      await page.getByTestId('goto-frame').press('Enter')
      await page.getByTestId('view-aliasing').click()
      const canvas = page.getByTestId('aliasing-canvas')
      await expect.poll(() => canvas.getAttribute('data-rects'), { timeout: 20_000 }).toBe('2')
      expect(await canvas.getAttribute('data-pass-names')).toBe(String(passNames.length))
      await shootThemes(page, 'ui-pass-names')
      expect(app.errors, app.errors.join('\n')).toEqual([])
    } finally {
      await app.close()
    }
  })
})
