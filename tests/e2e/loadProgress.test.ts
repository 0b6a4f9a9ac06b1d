/**
 * A big capture opened through the page's file input: the load bar's progress grows while the capture is read,
 * and Cancel takes the bar away without an error banner.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, RESULTS, ROOT, startHost, type Host } from './browser'

/** About 1.3 million records, some 250 MB: seconds to upload and read, whatever the machine. */
const FRAMES = 5000
const CAPTURE = join(RESULTS, `load-progress-deferred-${FRAMES}.hscap`)

/** The capture from the built CLI's generator (`heapscope gen`), as a user would make one. */
async function generate(path: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true })
  const partial = `${path}.part`
  const cli = join(ROOT, 'out/main/cli.js')
  await promisify(execFile)(process.execPath, [cli, 'gen', 'deferred', '--frames', String(FRAMES), '--seed', '1', '-o', partial])
  renameSync(partial, path)
}

interface Sample {
  value: number
  label: string
}

/** The load bar's progress value and label, or null once the bar is gone. */
function sample(page: Page): Promise<Sample | null> {
  return page.evaluate(() => {
    const bar = document.querySelector('[data-testid=load-bar]')
    const progress = bar?.querySelector('progress')
    if (!bar || !progress) return null
    return { value: progress.value, label: bar.textContent ?? '' }
  })
}

describe('loading a big capture', () => {
  let host: Host
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    if (!existsSync(CAPTURE)) await generate(CAPTURE)
    expect(statSync(CAPTURE).size).toBeGreaterThan(150e6)
    host = await startHost()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
  })

  it('shows growing progress while reading, and cancel takes the bar away without an error', async () => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(host.url)
    // the host opens its demo capture first: the upload waits until that load is over
    await page.getByTestId('frame-count').waitFor({ timeout: 30_000 })
    await expect.poll(() => page.getByTestId('load-bar').count(), { timeout: 30_000 }).toBe(0)
    await page.getByTestId('file-input').setInputFiles(CAPTURE)
    await page.getByText(`Loading ${CAPTURE.split('/').at(-1)}`).waitFor({ timeout: 15_000 })

    // progress while the bytes are read (the replay that follows starts its own count from zero)
    const seen: number[] = []
    const deadline = Date.now() + 60_000
    while (seen.length < 3 && Date.now() < deadline) {
      const s = await sample(page)
      if (s === null) break
      if (!s.label.includes('replaying') && s.value > 0 && s.value < 1 && s.value > (seen.at(-1) ?? 0)) seen.push(s.value)
      await page.waitForTimeout(100)
    }
    expect(seen.length, `progress values seen: ${seen.join(', ')}`).toBe(3)
    expect(seen[2]).toBeGreaterThan(seen[0])
    await page.screenshot({ path: join(RESULTS, 'load-progress.png') })

    await page.getByTestId('cancel-load').click()
    await expect.poll(() => page.getByTestId('load-bar').count(), { timeout: 20_000 }).toBe(0)
    // an error banner would come with the load's end: give it time to show, then look
    await page.waitForTimeout(1_000)
    expect(await page.getByTestId('load-error').count()).toBe(0)
    await page.screenshot({ path: join(RESULTS, 'load-cancelled.png') })
    expect(errors, errors.join('\n')).toEqual([])
  }, 180_000)
})
