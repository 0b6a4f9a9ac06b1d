/**
 * A D3D12 capture's aliasing hazard on the timeline, through the browser host: the run opens with a checks lane
 * whose header counts the hazard `heapscope check` finds, and the lane's tooltip gives one hazard at the hazard's
 * frame and none at the frames around it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCapture, openApp, RESULTS, type App } from './browser'

const CAPTURE = join(RESULTS, 'ui-hazards-lane-d3d12.hscap')
const MiB = 1024 * 1024
const FRAMES = 40
/** The frame number of the one hazard. */
const HAZARD_FRAME = 30

/**
 * Forty frames on one 16 MiB application heap: Shadow.Map (a render target) and Blur.Temp share [0, 8 MiB). Every
 * frame activates Shadow.Map, clears and reads it; frame 30 then activates Blur.Temp over it and reads Shadow.Map:
 * access-inactive (docs/aliasing.md, simple model), once.
 */
function capture(): string {
  const records: object[] = [
    { format: 'heapscope-capture', version: 1, api: 'd3d12' },
    { e: 'frame', n: 1 },
    { e: 'heap', id: 50, size: 16 * MiB, type: 'default', name: 'ShadowHeap' },
    { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 8 * MiB, width: 2048, height: 1024, format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable'], name: 'Shadow.Map' },
    { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'buffer', size: 8 * MiB, name: 'Blur.Temp' },
  ]
  for (let n = 1; n <= FRAMES; n++) {
    if (n > 1) records.push({ e: 'frame', n })
    records.push({ e: 'barrier', after: 51 }, { e: 'access', id: 51, op: 'clear' }, { e: 'access', id: 51, op: 'read' })
    if (n === HAZARD_FRAME) records.push({ e: 'barrier', after: 52, before: 51 }, { e: 'access', id: 52, op: 'write' }, { e: 'access', id: 51, op: 'read' })
    records.push({ e: 'submit' })
  }
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

/** The checks lane's tooltip (title, hazards) at each point across the lane, left to right. */
async function sweepTips(page: Page): Promise<{ title: string; hazards: string }[]> {
  const box = (await page.getByTestId('checks-lane').boundingBox())!
  const out: { title: string; hazards: string }[] = []
  for (let x = box.x + 4; x < box.x + box.width - 4; x += 6) {
    await page.mouse.move(x, box.y + box.height / 2)
    const tip = await page.evaluate(() => {
      const root = document.querySelector('[data-testid=checks-lane] .hs-tip')
      if (!root || (root.parentElement as HTMLElement | null)?.style.display === 'none') return null
      const title = root.querySelector('.hs-tip-title')?.textContent ?? ''
      const row = root.querySelector('.hs-tip-row .hs-tip-value')
      return { title, hazards: row?.textContent ?? '' }
    })
    if (tip && out.at(-1)?.title !== tip.title) out.push(tip)
  }
  return out
}

describe('a D3D12 capture with an aliasing hazard on the timeline', () => {
  let app: App
  let found: { hazards: { frame: number; rule: string; resources: number[] }[] }

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(CAPTURE, capture())
    found = await checkCapture(CAPTURE)
    app = await openApp([CAPTURE])
  })

  afterAll(async () => {
    const errors = app?.errors ?? []
    await app?.close()
    expect(errors, errors.join('\n')).toEqual([])
  })

  it('opens with a checks lane that shows the hazard at its frame', async () => {
    expect(found.hazards.map((h) => [h.frame, h.rule, h.resources])).toEqual([[HAZARD_FRAME, 'access-inactive', [51, 52]]])
    const page = app.page
    const lane = page.getByTestId('checks-lane')
    await lane.waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('checks-count').textContent()).toContain('1 hazards, 0 warnings')
    await page.waitForTimeout(400)
    await lane.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(RESULTS, 'ui-hazards-lane-d3d12.png') })
    const tips = await sweepTips(page)
    // one frame per point: the hazard's frame has one, every other frame none
    expect(tips.length).toBeGreaterThan(FRAMES / 2)
    const withHazards = tips.filter((t) => t.hazards !== '0')
    expect(withHazards).toEqual([{ title: `Frame ${HAZARD_FRAME}`, hazards: '1' }])
    expect(tips.some((t) => t.title === `Frame ${HAZARD_FRAME - 1}`)).toBe(true)
    expect(tips.some((t) => t.title === `Frame ${HAZARD_FRAME + 1}`)).toBe(true)
    await page.mouse.move(0, 0)
  })
})
