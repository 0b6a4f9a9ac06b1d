import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import { BUCKET_PX, INTERIM_MS } from '../../../../src/renderer/src/stores/timeline'
import { summary } from '../fakeHost'
import { host, opened, resetAppHost, settle, useAppHost } from './appHost'

useAppHost()

describe('timeline store', () => {
  it('loads a run: lanes at the plot width, frame numbers, and the cursor on the peak frame', async () => {
    const { timeline } = await opened()
    const lanesQuery = host.seriesQueries.find((q) => q.series.includes('heap.DEFAULT.heapBytes'))!
    // the whole capture, a bucket per BUCKET_PX pixels of the lanes (1000 px until the view says otherwise)
    expect([lanesQuery.from, lanesQuery.to, lanesQuery.resolution]).toEqual([0, 100, 1000 / BUCKET_PX])
    expect(timeline.lanes?.x.length).toBe(100)
    // frame number = index + 1 in the fake run
    expect(timeline.frameNumber(9)).toBe(10)
    // total.heapBytes peaks at index 70 (1 GiB)
    expect(timeline.cursor).toBe(70)
    expect(timeline.cursorFrameNumber).toBe(71)
    // the Committed layer the DEFAULT lane derives at index 10: 100 MiB + 10 KiB − 96 MiB
    const committed = timeline.lanes!.heaps[0].layers.find((l) => l.key === 'Committed')!
    expect(committed.values[10]).toBe(4 * MiB + 10 * 1024)
  })

  it('starts the cursor on the peak frame itself where the overview holds several frames a bucket', async () => {
    // 5 000 frames over the overview's 1 600 buckets: 4 frames a bucket, the peak (index 70) in the one from 68
    host.outcomes.push({ ok: true, summary: summary('run-1', 5000) })
    const { timeline } = await opened()
    const overview = host.seriesQueries.find((q) => q.series.includes('total.heapBytes') && q.from === 0 && q.to === 5000)!
    expect(overview.resolution).toBe(1600)
    // the bucket asked again at a frame a bucket
    expect(host.seriesQueries.some((q) => q.from === 68 && q.to === 72 && q.resolution === 4)).toBe(true)
    expect(timeline.cursor).toBe(70)
  })

  it('draws residency and transients only where the run offers them, whatever series it has', async () => {
    // the same series, from a run that offers only a what-if
    host.outcomes.push({ ok: true, summary: summary('run-1', 100, { backend: 'vulkan', capabilities: { whatIf: true } }) })
    const { timeline } = await opened()
    expect(timeline.lanes!.heaps.map((h) => h.id)).toEqual(['DEFAULT', 'UPLOAD', 'READBACK'])
    expect([timeline.lanes!.residency, timeline.lanes!.transient]).toEqual([null, null])
    // no residency events asked for, none tallied; no residency nor transient series in the lanes' query
    expect(host.calls).not.toContain('residencyEvents')
    expect(timeline.totalTally.evictions).toBe(0)
    const lanesQuery = host.seriesQueries.find((q) => q.series.includes('heap.DEFAULT.heapBytes'))!
    expect(lanesQuery.series.filter((n) => n.startsWith('residency.') || n.startsWith('transient.'))).toEqual([])
  })

  it('folds the lanes that held nothing over the whole capture: an unused heap, a residency never resident', async () => {
    const { timeline } = await opened()
    // the fake run's READBACK heap stays empty; DEFAULT, UPLOAD, residency and transients hold bytes
    expect([...timeline.emptyLanes]).toEqual(['READBACK'])
    // a trace whose driver never made anything resident
    const silent = resetAppHost()
    const asked = silent.series
    silent.series = async (query) => {
      const answer = await asked(query)
      const resident = answer.series['residency.residentBytes']
      if (resident) for (const column of [resident.min, resident.max, resident.mean]) column.fill(0)
      return answer
    }
    const again = await opened()
    expect([...again.timeline.emptyLanes].sort()).toEqual(['READBACK', 'residency'])
  })

  it('zooms around a frame and asks again for that window at the plot width', async () => {
    const { timeline } = await opened()
    await timeline.setPlotWidth(50)
    await timeline.zoom(0.5, 70)
    // [0, 99] halved around 70: 70 − 35 = 35 to 70 + 14.5 = 84.5; whole frames 35 to 86 (exclusive)
    expect(timeline.view).toEqual({ from: 35, to: 84.5 })
    const last = host.seriesQueries[host.seriesQueries.length - 1]
    expect([last.from, last.to, last.resolution]).toEqual([35, 86, 50 / BUCKET_PX])
    expect(timeline.lanesWindow).toEqual({ from: 35, to: 84.5 })
  })

  it('asks once for a burst of zooms while a query is in flight, and shows the last', async () => {
    const { timeline } = await opened()
    let release!: () => void
    host.gate = new Promise((resolve) => (release = resolve))
    const before = host.seriesQueries.length
    const done = [1, 2, 3, 4, 5].map(() => timeline.zoom(0.8, 50))
    await settle(2)
    release()
    host.gate = null
    await Promise.all(done)
    // the first zoom's query and the last one's: the three between were replaced while waiting
    expect(host.seriesQueries.length - before).toBe(2)
    expect(timeline.lanesWindow).toEqual(timeline.view)
  })

  it('draws a zoom at once when its data comes quickly, and with the data on hand when it does not', async () => {
    const { timeline } = await opened()
    const before = timeline.shown
    let release!: () => void
    host.gate = new Promise((resolve) => (release = resolve))
    const zoomed = timeline.zoom(0.5, 50)
    // the window asked for moved; the lanes still show the old one, with its data
    expect(timeline.view).not.toEqual(before)
    expect(timeline.shown).toEqual(before)
    await new Promise((resolve) => setTimeout(resolve, INTERIM_MS + 20))
    expect(timeline.shown).toEqual(timeline.view)
    expect(timeline.lanesWindow).toEqual(before)
    release()
    host.gate = null
    await zoomed
    expect(timeline.lanesWindow).toEqual(timeline.view)
    // a quick answer: drawn once, at the new window
    const quick = timeline.zoom(0.5, 50)
    await quick
    expect(timeline.shown).toEqual(timeline.view)
  })

  it('tallies residency events in the window', async () => {
    const { timeline } = await opened()
    // evictions at 10, 41 and 42 of 10, 8 and 12 MiB; make-resident at 5 and 60
    expect(timeline.viewTally).toEqual({ evictions: 3, evictedBytes: 30 * MiB, makeResident: 2, madeResidentBytes: 10 * MiB })
    await timeline.setWindow({ from: 0, to: 30 })
    expect(timeline.viewTally.evictions).toBe(1)
    expect(timeline.totalTally.evictions).toBe(3)
  })

  it('sets an A/B range in order and asks for its leak candidates', async () => {
    const { timeline } = await opened()
    await timeline.setRange(60.4, 19.6)
    expect(timeline.range).toEqual({ a: 20, b: 60 })
    expect(host.calls).toContain('leaks 20 60')
    expect(timeline.leaks?.growthBytes).toBe(5 * MiB)
    timeline.clearRange()
    expect(timeline.leaks).toBeNull()
  })

  it('keeps the cursor in view when stepping past the window', async () => {
    const { timeline } = await opened()
    await timeline.setWindow({ from: 0, to: 20 })
    timeline.setCursor(20)
    timeline.stepCursor(5)
    await settle()
    expect(timeline.cursor).toBe(25)
    // recentred on 25 with the same 20-frame span
    expect(timeline.view).toEqual({ from: 15, to: 35 })
  })
})
