/**
 * The analyst's workflow on a generated leak, in Chromium through the browser host: the A/B range's leak
 * candidates in groups by name pattern and by tag, the leaking emitter's buffers first and marked as created
 * steadily and never freed; the CSV of the candidates holds every row, not the largest shown; a search of every
 * frame finds each resource the capture ever made by name, glob or id, with its life on the frame axis, and a click
 * or the go-to-frame box moves the cursor. Each view is saved in both languages and both themes under test-results/.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, openApp, RESULTS, shootThemes, uploadCapture, type App } from './browser'

const FRAMES = 1500
const CAPTURE = join(RESULTS, `ui-leak-${FRAMES}.hscap.gz`)

/** The canvas columns (first and last) of a lane chart that hold pixels near `color`, and how many such pixels. */
async function columns(page: Page, testid: string, color: string): Promise<{ first: number; last: number; count: number }> {
  return page.evaluate(
    ([id, hex]) => {
      const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid=${id}] canvas`)!
      const g = canvas.getContext('2d')!
      const { data, width, height } = g.getImageData(0, 0, canvas.width, canvas.height)
      const target = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
      let first = -1
      let last = -1
      let count = 0
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const k = (y * width + x) * 4
          const d = Math.abs(data[k] - target[0]) + Math.abs(data[k + 1] - target[1]) + Math.abs(data[k + 2] - target[2])
          if (data[k + 3] < 200 || d > 60) continue
          count++
          if (first < 0 || x < first) first = x
          if (x > last) last = x
        }
      }
      const scale = canvas.width / canvas.getBoundingClientRect().width
      return { first: first / scale, last: last / scale, count }
    },
    [testid, color],
  )
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
    await shootThemes(page, 'ui-leak-groups')

    await page.getByTestId('leak-view-tag').click()
    // by tag the emitter is one of the particle systems, of which the others are freed: no steady group
    await expect.poll(async () => (await groups.getByTestId('table-row').allTextContents()).join('\n')).toContain('Particles')
    expect((await groups.getByTestId('table-row').allTextContents()).join('\n')).not.toContain('created steadily, never freed')
    await shootThemes(page, 'ui-leak-groups-by-tag')
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

  it('searches every frame: each resource ever made, its life on the frame axis, a click to its creation', async () => {
    const lines = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n')
    const dust = lines.filter((l) => l.includes('"e":"buffer"') && l.includes('"name":"NS_Footstep_Dust.GPUBuffer.Float"'))
    // the first Float buffer of the emitter, made in the frame of the last frame line before it
    const firstAt = lines.indexOf(dust[0])
    const frameLine = lines.slice(0, firstAt).reverse().find((l) => l.startsWith('{"e":"frame"'))!
    const firstFrame = (JSON.parse(frameLine) as { n: number }).n

    await page.getByTestId('view-timeline').click()
    await page.keyboard.press('/')
    const input = page.getByTestId('search-input')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input')
    await input.fill('ns_footstep_dust.gpubuffer.float')
    await expect.poll(() => page.getByTestId('search-total').textContent(), { timeout: 20_000 }).toBe(`${dust.length.toLocaleString('en')} resources ever matched`)
    const first = page.getByTestId('search-row').first()
    expect(await first.getByTestId('search-life').textContent()).toBe(`frame ${firstFrame} → end`)
    await first.click()
    await expect.poll(() => page.getByTestId('cursor-frame').textContent()).toBe(`frame ${firstFrame}`)
    await expect.poll(() => page.getByTestId('search-history').textContent()).toMatch(/PlacedBufferPool|SharedBufferPool|Committed/)
    await shootThemes(page, 'ui-search')

    // a glob of the whole name, and an id
    await input.fill('NS_Footstep_Dust.GPUBuffer.*')
    const all = lines.filter((l) => l.includes('"e":"buffer"') && l.includes('"name":"NS_Footstep_Dust.GPUBuffer.')).length
    await expect.poll(() => page.getByTestId('search-total').textContent()).toBe(`${all.toLocaleString('en')} resources ever matched`)
    const id = (JSON.parse(dust[0]) as { id: number }).id
    await input.fill(`#${id}`)
    await expect.poll(() => page.getByTestId('search-row').first().textContent()).toContain(`#${id} · buffer`)
    await input.fill('/[/')
    await expect.poll(() => page.getByTestId('search-error').textContent()).toContain('Invalid regular expression')
  })

  it('goes to a frame typed in the go-to box, after G', async () => {
    await page.getByTestId('timeline-view').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('g')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('goto-frame')
    await page.keyboard.type('700')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('cursor-frame').textContent()).toBe('frame 700')
    await page.getByTestId('goto-frame').fill('999999')
    await page.keyboard.press('Enter')
    expect(await page.getByTestId('goto-frame').getAttribute('title')).toBe('No frame 999999 in this capture')
    expect(await page.getByTestId('cursor-frame').textContent()).toBe('frame 700')
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })

  it('gives a lane header that does not fit its whole text as a tooltip', async () => {
    await page.getByTestId('view-timeline').click()
    const header = page.getByTestId('lane-header').first()
    // the DEFAULT lane's "budget 14.5 GiB, above the lane" is cut at the header's width
    await header.hover()
    await expect.poll(() => header.getAttribute('title')).toMatch(/^DEFAULT\n[\s\S]*budget [\d.]+ GiB, above the lane$/)
    // a header that fits has none
    const upload = page.getByTestId('lane-header').nth(1)
    await upload.hover()
    expect(await upload.getAttribute('title')).toBeNull()
  })

  it('writes each render-graph resource’s name on its rectangle where it fits', async () => {
    await page.getByTestId('goto-frame').fill('700')
    await page.getByTestId('goto-frame').press('Enter')
    await page.getByTestId('view-aliasing').click()
    const canvas = page.getByTestId('aliasing-canvas')
    await expect.poll(() => canvas.getAttribute('data-rects'), { timeout: 20_000 }).not.toBe('0')
    await expect.poll(async () => Number(await canvas.getAttribute('data-labels'))).toBeGreaterThan(0)
    expect(Number(await canvas.getAttribute('data-labels'))).toBeLessThanOrEqual(Number(await canvas.getAttribute('data-rects')))
    await shootThemes(page, 'ui-aliasing-names')
    await page.getByTestId('view-timeline').click()
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })
  it('keeps what-if edits with the run they were typed on, and says which keys differ from the defaults', async () => {
    await page.getByTestId('view-whatif').click()
    await page.getByTestId('edit-bufferPool.size').fill('8MiB')
    await page.getByTestId('rerun').click()
    await page.getByTestId('compare-view').waitFor({ timeout: 60_000 })
    // A, B and their delta on one frame axis: the three plots start and end at the same x
    const boxes = await Promise.all(['compare-chart-a', 'compare-chart-b', 'compare-delta'].map(async (id) => (await page.getByTestId(id).boundingBox())!))
    expect(new Set(boxes.map((b) => Math.round(b.x))).size).toBe(1)
    expect(new Set(boxes.map((b) => Math.round(b.width))).size).toBe(1)
    expect(boxes[1].y).toBeGreaterThan(boxes[0].y)
    expect(boxes[2].y).toBeGreaterThan(boxes[1].y)
    // one capture under two configs starts at the same frame: aligned by frame number, no offset; an offset typed
    // shifts B, and "align" brings it back
    expect(await page.getByTestId('compare-offset').inputValue()).toBe('0')
    await page.getByTestId('compare-offset').fill('5')
    await page.getByTestId('compare-offset').press('Enter')
    await page.waitForTimeout(500)
    await shootThemes(page, 'ui-compare-shared')
    // overlaid: A and B in one lane above the delta, on the frame axis the delta shares
    await page.getByTestId('compare-layout-overlaid').click()
    const overlaid = page.getByTestId('compare-chart-overlaid')
    await overlaid.waitFor()
    expect(await page.getByTestId('compare-chart-a').count()).toBe(0)
    const [laneBox, deltaBox] = [(await overlaid.boundingBox())!, (await page.getByTestId('compare-delta').boundingBox())!]
    expect(Math.round(laneBox.x)).toBe(Math.round(deltaBox.x))
    expect(Math.round(laneBox.width)).toBe(Math.round(deltaBox.width))
    expect(deltaBox.y).toBeGreaterThan(laneBox.y)
    // B shifted by 150 frames ends 150 frames before A: B's line and the delta stop at the same x, A's goes on
    await page.getByTestId('compare-offset').fill('150')
    await page.getByTestId('compare-offset').press('Enter')
    await page.waitForTimeout(800)
    const colors = { a: (await overlaid.getAttribute('data-color-a'))!, b: (await overlaid.getAttribute('data-color-b'))! }
    const a = await columns(page, 'compare-chart-overlaid', colors.a)
    const b = await columns(page, 'compare-chart-overlaid', colors.b)
    const deltaColors = await page.evaluate(() => ['--delta-up', '--delta-down'].map((v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim()))
    const up = await columns(page, 'compare-delta', deltaColors[0])
    const down = await columns(page, 'compare-delta', deltaColors[1])
    // both runs drawn, each in its own colour
    expect(a.count).toBeGreaterThan(500)
    expect(b.count).toBeGreaterThan(500)
    const perFrame = (a.last - a.first) / (FRAMES - 1)
    expect(perFrame).toBeGreaterThan(0.5)
    expect(Math.abs(a.last - b.last - 150 * perFrame)).toBeLessThan(6)
    expect(Math.abs(Math.max(up.last, down.last) - b.last)).toBeLessThan(6)
    await shootThemes(page, 'ui-compare-overlaid')
    await page.getByTestId('compare-layout-stacked').click()
    await page.getByTestId('compare-chart-a').waitFor()
    await page.getByTestId('compare-align').click()
    await expect.poll(() => page.getByTestId('compare-offset').inputValue()).toBe('0')
    // run B was replayed with the edit: B's value differs from the defaults
    await page.getByTestId('view-whatif').click()
    expect(await page.getByTestId('whatif-defaults').textContent()).toContain('Run A uses the model’s default for every key.')
    // another capture as run A: no edit of the first one comes with it, the last re-run's is only offered
    const demo = await page.getByTestId('capture-list').locator('option').filter({ hasText: /^\s*demo\./ }).first().getAttribute('value')
    await page.getByTestId('capture-list').selectOption(demo!)
    await expect.poll(() => page.getByTestId('run-file').textContent(), { timeout: 60_000 }).toContain('demo')
    await page.getByTestId('view-whatif').click()
    await expect.poll(() => page.getByTestId('edit-bufferPool.size').inputValue()).toBe('')
    expect(await page.getByTestId('whatif-changes').count()).toBe(0)
    expect(await page.getByTestId('whatif-remembered').textContent()).toBe('Apply the last re-run’s overrides (1)')
    await page.getByTestId('edit-defrag.enabled').selectOption('false')
    await shootThemes(page, 'ui-whatif-run')
    await page.getByTestId('whatif-remembered').click()
    expect(await page.getByTestId('edit-bufferPool.size').inputValue()).toBe('8MiB')
    expect(await page.getByTestId('whatif-changes').textContent()).toBe('2 keys changed')
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })
  // Frames 1..7 under the default config: frame 1 fills DEFAULT/SingleState/0 with A and B (16 MiB each) and /1
  // with C and D, puts E (1 MiB) alone in /2 and makes R, a 64 MiB reserved buffer; frame 2 releases B and commits
  // 1 MiB of R; frame 4 commits 3,000,000 bytes (46 tiles of 64 KiB: 2.88 MiB). B's block is free once frame 2
  // completes (two frames in flight: at the start of frame 5), so frame 4's defrag moves E to /0 at 16 MiB.
  it('lists every change of a search match over its life: a defrag move, a reserved resource’s commits', async () => {
    const MiB = 1 << 20
    const path = join(RESULTS, 'ui-search-moves.hscap')
    const records: object[] = [
      { format: 'heapscope-capture', version: 1 },
      { e: 'frame', n: 1 },
      ...['A', 'B', 'C', 'D'].map((name, i) => ({ e: 'buffer', id: i + 1, size: 16 * MiB, usage: ['Static'], name })),
      { e: 'buffer', id: 5, size: MiB, usage: ['Static'], name: 'E' },
      { e: 'buffer', id: 6, size: 64 * MiB, usage: ['ReservedResource'], name: 'R' },
      { e: 'frame', n: 2 },
      { e: 'release', id: 2 },
      { e: 'commit', id: 6, bytes: MiB },
      { e: 'frame', n: 3 },
      { e: 'frame', n: 4 },
      { e: 'commit', id: 6, bytes: 3_000_000 },
      ...[5, 6, 7].map((n) => ({ e: 'frame', n })),
    ]
    writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    await uploadCapture(page, path)
    await page.getByTestId('view-timeline').click()
    await page.keyboard.press('/')
    const input = page.getByTestId('search-input')
    const entries = page.getByTestId('search-history-entry')
    await input.fill('#5')
    await expect.poll(() => page.getByTestId('search-row').first().textContent()).toContain('#5 · buffer')
    await page.getByTestId('search-row').first().click()
    await expect.poll(() => entries.count()).toBe(2)
    expect(await entries.evaluateAll((es) => es.map((e) => [e.getAttribute('data-frame'), e.getAttribute('data-changed')]))).toEqual([
      ['0', ''],
      ['3', 'pool offset'],
    ])
    expect(await entries.nth(0).textContent()).toContain('DEFAULT/SingleState/2 @ 0x0')
    expect(await entries.nth(1).textContent()).toContain('DEFAULT/SingleState/0 @ 0x01000000')
    expect(await entries.nth(1).textContent()).toContain('frame 4')
    expect(await entries.nth(1).locator('.changed').allTextContents()).toEqual(['DEFAULT/SingleState/0', '0x01000000'])
    // a line moves the cursor to its frame
    await entries.nth(1).click()
    await expect.poll(() => page.getByTestId('cursor-frame').textContent()).toBe('frame 4')
    await input.fill('#6')
    await expect.poll(() => page.getByTestId('search-row').first().textContent()).toContain('#6 · buffer')
    await page.getByTestId('search-row').first().click()
    await expect.poll(() => entries.count()).toBe(3)
    const texts = await entries.allTextContents()
    expect(texts.map((t) => /([\d.]+ (?:B|KiB|MiB)) occupied/.exec(t)?.[1])).toEqual(['0 B', '1.00 MiB', '2.88 MiB'])
    for (const t of texts) expect(t).toContain('64.0 MiB virtual')
    expect(await page.getByTestId('search-history-more').count()).toBe(0)
    await shootThemes(page, 'ui-search-history')
    expect(app.errors, app.errors.join('\n')).toEqual([])
  })
})
