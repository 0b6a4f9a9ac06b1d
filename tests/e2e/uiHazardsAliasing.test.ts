/**
 * Hazards shown where they happen, through the browser host: a hazard opened from the inspector's hazards list
 * switches to the aliasing view at its frame, which draws the application heap with its placed resources as the
 * engine lays them out and outlines the hazard's resources and bytes with the rule named. On the generated
 * `vulkan-hazards` capture, and on a small hand-made D3D12 capture with one access-inactive hazard (also in the
 * light theme and in Simplified Chinese).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCapture, cli, engineScript, openApp, RESULTS, ROOT, type App } from './browser'

const VULKAN = join(RESULTS, 'ui-hazards-aliasing-vulkan.hscap.gz')
const D3D12 = join(RESULTS, 'ui-hazards-aliasing-d3d12.hscap')
const MiB = 1024 * 1024

/** `heapscope check --json`: each hazard with its frame number. */
interface Check {
  hazards: { frame: number; rule: string; resources: number[]; heap: number; range: [number, number] }[]
}

/** The engine's own placement layout of a frame, straight from the engine (not through the page). */
async function enginePlacements(path: string, frame: number): Promise<{ heaps: { name: string; resources: string[] }[]; hazards: string[] }> {
  const code = `
    import { LocalEngine } from ${JSON.stringify(join(ROOT, 'src/main/engine/engine.ts'))}
    const engine = new LocalEngine()
    const outcome = await engine.load('e2e', { kind: 'file', path: process.argv[1] })
    const a = await engine.placements({ runId: outcome.summary.runId, frame: Number(process.argv[2]) })
    console.log(JSON.stringify({ heaps: a.heaps.map((h) => ({ name: h.name, resources: h.resources.name })), hazards: a.hazards.map((h) => h.rule) }))
  `
  return JSON.parse(await engineScript(code, path, String(frame))) as { heaps: { name: string; resources: string[] }[]; hazards: string[] }
}

/**
 * A D3D12 capture with one manual heap (32 MiB): GBuffer.Normal (render target, [0, 8 MiB)) and Bloom.Scratch
 * ([4, 12 MiB)) share [4, 8 MiB); Histogram ([16, 18 MiB)) shares nothing. Frame 2 activates GBuffer.Normal, clears
 * and writes it, then activates Bloom.Scratch over it and reads GBuffer.Normal: access-inactive, on [4, 8 MiB).
 */
function d3d12Capture(): string {
  const records: object[] = [
    { format: 'heapscope-capture', version: 1, api: 'd3d12' },
    { e: 'frame', n: 1 },
    { e: 'heap', id: 50, size: 32 * MiB, type: 'default', name: 'SceneAliasHeap' },
    { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 8 * MiB, width: 2048, height: 1024, format: 'R8G8B8A8_UNORM', flags: ['RenderTargetable'], name: 'GBuffer.Normal' },
    { e: 'placed', id: 52, heap: 50, offset: 4 * MiB, kind: 'buffer', size: 8 * MiB, name: 'Bloom.Scratch' },
    { e: 'placed', id: 53, heap: 50, offset: 16 * MiB, kind: 'buffer', size: 2 * MiB, name: 'Histogram' },
    { e: 'barrier', after: 53 },
    { e: 'submit' },
    { e: 'frame', n: 2 },
    { e: 'barrier', after: 51 },
    { e: 'access', id: 51, op: 'clear' },
    { e: 'access', id: 51, op: 'write' },
    { e: 'access', id: 53, op: 'write' },
    { e: 'submit' },
    { e: 'barrier', after: 52, before: 51 },
    { e: 'access', id: 52, op: 'write' },
    { e: 'access', id: 52, op: 'read' },
    { e: 'access', id: 51, op: 'read' },
    { e: 'access', id: 53, op: 'read' },
    { e: 'submit' },
    { e: 'frame', n: 3 },
    { e: 'barrier', after: 51, before: 52 },
    { e: 'access', id: 51, op: 'clear' },
    { e: 'access', id: 51, op: 'write' },
    { e: 'submit' },
  ]
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

/** Pixels of the canvases under `selector` close to a colour. */
async function near(page: Page, selector: string, rgb: [number, number, number]): Promise<number> {
  return page.evaluate(
    ([sel, c]) => {
      let n = 0
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`${sel} canvas`)) {
        const g = canvas.getContext('2d')
        if (!g || canvas.width === 0) continue
        const { data } = g.getImageData(0, 0, canvas.width, canvas.height)
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] > 0 && Math.abs(data[i] - c[0]) < 30 && Math.abs(data[i + 1] - c[1]) < 30 && Math.abs(data[i + 2] - c[2]) < 30) n++
        }
      }
      return n
    },
    [selector, rgb] as const,
  )
}

/** Open the hazards tab and the hazard with this rule; the page lands in the aliasing view, on the placed heaps. */
async function openHazard(page: Page, rule: string, frame: number): Promise<void> {
  await page.getByTestId('view-timeline').click()
  await page.getByTestId('tab-hazards').click()
  const row = page.getByTestId('hazard-table').getByTestId('table-row').filter({ hasText: rule }).first()
  await row.click()
  const view = page.getByTestId('aliasing-view')
  await view.waitFor()
  await expect.poll(() => view.getAttribute('data-section')).toBe('placed')
  await expect.poll(() => page.getByTestId('aliasing-frame').textContent()).toMatch(new RegExp(`${frame}$`))
}

/** Move the mouse over the canvas until the tooltip names one of `names`; returns the tooltip's text. */
async function hoverResource(page: Page, names: string[]): Promise<string> {
  const canvas = page.getByTestId('placement-canvas')
  const box = (await canvas.boundingBox())!
  for (let y = 0.03; y < 0.95; y += 0.02) {
    for (const x of [0.15, 0.5, 0.85]) {
      await page.mouse.move(box.x + box.width * x, box.y + box.height * y)
      const title = await page.locator('[data-testid=placement-tip] .title').textContent({ timeout: 100 }).catch(() => null)
      if (title && names.includes(title)) return (await page.getByTestId('placement-tip').textContent()) ?? ''
    }
  }
  return ''
}

function hostSuite(name: string, capture: () => Promise<string>, body: (ctx: { page: () => Page; path: () => string; found: () => Check }) => void): void {
  describe(name, () => {
    let app: App
    let path: string
    let found: Check

    beforeAll(async () => {
      mkdirSync(RESULTS, { recursive: true })
      path = await capture()
      found = await checkCapture<Check>(path)
      app = await openApp([path])
    })

    afterAll(async () => {
      const errors = app?.errors ?? []
      await app?.close()
      expect(errors, errors.join('\n')).toEqual([])
    })

    body({ page: () => app.page, path: () => path, found: () => found })
  })
}

hostSuite(
  'a Vulkan run’s hazard in the aliasing view',
  async () => {
    if (!existsSync(VULKAN)) {
      await cli('gen', 'vulkan-hazards', '-o', `${VULKAN}.part.gz`)
      renameSync(`${VULKAN}.part.gz`, VULKAN)
    }
    return VULKAN
  },
  (ctx) => {
    it('opens the hazard on its frame, draws the heap’s placed resources and outlines the hazard', async () => {
      const page = ctx.page()
      const hazard = ctx.found().hazards[0]
      expect(hazard.rule).toBe('access-inactive')
      await openHazard(page, hazard.rule, hazard.frame)
      // the frame index is the frame number less the capture's first (vulkan-hazards numbers frames from 1)
      const engine = await enginePlacements(ctx.path(), hazard.frame - 1)
      const canvas = page.getByTestId('placement-canvas')
      await expect.poll(() => canvas.getAttribute('data-heaps')).toBe(String(engine.heaps.length))
      const resources = engine.heaps.flatMap((h) => h.resources)
      expect(resources.length).toBeGreaterThan(1)
      expect(Number(await canvas.getAttribute('data-rects'))).toBe(resources.length)
      expect(Number(await canvas.getAttribute('data-hazards'))).toBe(engine.hazards.length)
      // the hazard the list opened is the one in focus, named by its rule beside the heaps
      const focused = Number(await canvas.getAttribute('data-focused'))
      expect(engine.hazards[focused]).toBe(hazard.rule)
      const card = page.locator('[data-testid=placed-hazard][data-focused=true]')
      expect(await card.getAttribute('data-rule')).toBe(hazard.rule)
      expect(await card.textContent()).toContain(`texture ${hazard.resources[0]} read while inactive`)
      // the box, the step line and the label in the dark theme's red (#ff5d5d)
      await page.waitForTimeout(300)
      expect(await near(page, '[data-testid=placement-canvas]', [255, 93, 93])).toBeGreaterThan(400)
      await page.screenshot({ path: join(RESULTS, 'ui-hazard-aliasing.png') })
      // hovering one of the hazard's resources names it, with the rule's message
      const tip = await hoverResource(page, resources)
      expect(tip).not.toBe('')
      await page.screenshot({ path: join(RESULTS, 'ui-hazard-aliasing-hover.png') })
    })

    it('keeps the inspector on the hazard’s frame, its first resource explained, for the way back', async () => {
      const page = ctx.page()
      const hazard = ctx.found().hazards[0]
      await page.mouse.move(0, 0)
      await page.getByTestId('view-timeline').click()
      await expect.poll(() => page.getByTestId('inspector-frame').textContent()).toBe(`frame ${hazard.frame}`)
      await page.getByTestId('resource-details').waitFor()
      expect(await page.getByTestId('resource-details').textContent()).toContain(`#${hazard.resources[0]}`)
    })
  },
)

hostSuite(
  'a D3D12 capture’s access-inactive hazard in the aliasing view',
  async () => {
    writeFileSync(D3D12, d3d12Capture())
    return D3D12
  },
  (ctx) => {
    it('outlines the two resources sharing the hazard’s bytes and names the rule', async () => {
      const page = ctx.page()
      const found = ctx.found().hazards
      // frame 2: GBuffer.Normal read while Bloom.Scratch, activated on [4, 8 MiB), holds those bytes
      expect(found.map((h) => [h.frame, h.rule, h.resources, h.heap, h.range])).toEqual([[2, 'access-inactive', [51, 52], 50, [4 * MiB, 8 * MiB]]])
      await openHazard(page, 'access-inactive', 2)
      const canvas = page.getByTestId('placement-canvas')
      await expect.poll(() => canvas.getAttribute('data-rects')).toBe('3')
      // steps: barrier, clear, write, write, submit, barrier, write, read, read, read, submit: 7 accesses;
      // GBuffer.Normal active [0, 5), Bloom.Scratch [5, 11), Histogram the whole frame: 3 active spans
      expect(await canvas.getAttribute('data-accesses')).toBe('7')
      expect(await canvas.getAttribute('data-active')).toBe('3')
      expect(await canvas.getAttribute('data-shared')).toBe('1')
      expect(await canvas.getAttribute('data-focused')).toBe('0')
      expect(await page.getByTestId('placed-hazard-count').textContent()).toBe('1')
      const card = page.locator('[data-testid=placed-hazard][data-focused=true]')
      expect(await card.textContent()).toContain('GBuffer.Normal ↔ Bloom.Scratch')
      expect(await card.textContent()).toContain('0x00400000–0x00800000')
      await page.waitForTimeout(300)
      expect(await near(page, '[data-testid=placement-canvas]', [255, 93, 93])).toBeGreaterThan(400)
      const tip = await hoverResource(page, ['GBuffer.Normal'])
      expect(tip).toContain('access-inactive')
      expect(tip).toContain('texture 51 read while inactive')
      await page.screenshot({ path: join(RESULTS, 'ui-hazard-aliasing-d3d12.png') })
      await page.mouse.move(0, 0)
    })

    it('draws the same in the light theme, and speaks Simplified Chinese', async () => {
      const page = ctx.page()
      await page.getByTestId('theme-toggle').click()
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      await page.waitForTimeout(400)
      // the light theme's red (#d1242f)
      expect(await near(page, '[data-testid=placement-canvas]', [209, 36, 47])).toBeGreaterThan(400)
      await page.screenshot({ path: join(RESULTS, 'ui-hazard-aliasing-light.png') })
      await page.getByTestId('language').selectOption('zh-CN')
      await expect.poll(() => page.getByTestId('aliasing-placed-tab').textContent()).toContain('应用程序堆')
      await page.waitForTimeout(400)
      await page.screenshot({ path: join(RESULTS, 'ui-hazard-aliasing-zh.png') })
      await page.getByTestId('language').selectOption('en')
      await page.getByTestId('theme-toggle').click()
    })
  },
)
