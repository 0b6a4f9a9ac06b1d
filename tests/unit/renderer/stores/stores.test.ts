import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { GiB, MiB } from '../../../../src/shared/units'
import { setApi } from '../../../../src/renderer/src/api'
import { useAliasingStore } from '../../../../src/renderer/src/stores/aliasing'
import { useCompareStore } from '../../../../src/renderer/src/stores/compare'
import { PAGE_ROWS, useInspectorStore } from '../../../../src/renderer/src/stores/inspector'
import { usePlaybackStore } from '../../../../src/renderer/src/stores/playback'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useSettingsStore } from '../../../../src/renderer/src/stores/settings'
import { BUCKET_PX, INTERIM_MS, useTimelineStore } from '../../../../src/renderer/src/stores/timeline'
import { useUiStore } from '../../../../src/renderer/src/stores/ui'
import { parseEntryValue, useWhatIfStore } from '../../../../src/renderer/src/stores/whatif'
import { FakeHost, row, summary } from '../fakeHost'

/** Let watchers run and queued answers arrive. */
async function settle(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

let host: FakeHost

async function opened() {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const inspector = useInspectorStore()
  await runs.init()
  await settle()
  return { runs, timeline, inspector }
}

beforeEach(() => {
  setActivePinia(createPinia())
  host = new FakeHost()
  setApi(host)
})

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

describe('inspector store', () => {
  it('shows the cursor frame: the first page sorted by size, more pages as the table scrolls', async () => {
    const { inspector } = await opened()
    const first = host.resourceQueries[0]
    expect(first).toMatchObject({ frame: 70, sort: 'occupied', descending: true, offset: 0, limit: PAGE_ROWS })
    expect(inspector.frame).toBe(70)
    expect(inspector.total).toBe(450)
    // the largest rows are 7 MiB (i mod 7 = 6)
    expect(inspector.rowAt(0)?.occupied).toBe(7 * MiB)
    expect(inspector.rowAt(250)).toBeUndefined()
    inspector.ensureRows(240, 260)
    await settle()
    expect(host.resourceQueries.map((q) => q.offset)).toContain(PAGE_ROWS)
    expect(inspector.rowAt(250)).toBeDefined()
    expect(inspector.snapshot?.pools).toHaveLength(1)
  })

  it('sorts text columns ascending first, numbers descending, and a second click flips', async () => {
    const { inspector } = await opened()
    await inspector.setSort('name')
    expect(inspector.sort).toEqual({ key: 'name', descending: false })
    await inspector.setSort('name')
    expect(inspector.sort).toEqual({ key: 'name', descending: true })
    await inspector.setSort('waste')
    expect(inspector.sort).toEqual({ key: 'waste', descending: true })
    expect(host.resourceQueries[host.resourceQueries.length - 1]).toMatchObject({ sort: 'waste', descending: true, offset: 0 })
  })

  it('filters by tag through the engine and explains a selected resource', async () => {
    const { inspector } = await opened()
    await inspector.setFilter({ tag: ['Textures'] })
    // odd rows are Textures: 225 of 450
    expect(inspector.total).toBe(225)
    await inspector.setFilter({ tag: [] })
    expect(inspector.filter).toEqual({})
    await inspector.select(1005)
    expect(inspector.details?.route).toEqual(['transient? no', 'size 1 MiB → TextureReadOnlyPool'])
  })

  it('fetches every tag when the block maps are coloured by tag', async () => {
    const { inspector } = await opened()
    inspector.setColorBy('tag')
    await settle()
    // 450 rows in one page of up to 5000, sorted by id
    expect(host.resourceQueries[host.resourceQueries.length - 1]).toMatchObject({ sort: 'id', offset: 0, limit: 5000 })
    expect(inspector.tags?.get(1001)).toBe('Textures')
    expect(inspector.tags?.size).toBe(450)
  })

  it('keeps the table live from playback frames', async () => {
    const { inspector } = await opened()
    inspector.beginPlayback()
    expect(inspector.rowCount).toBe(PAGE_ROWS)
    const gone = inspector.rowAt(0)!.id
    inspector.applyPlayback({
      playbackId: 'p',
      frame: 71,
      frameNumber: 72,
      skipped: 2,
      created: [row(900)],
      createdTruncated: false,
      released: [gone],
      liveCount: 450,
      heapBytes: { DEFAULT: 100 * MiB },
      residentBytes: 90 * MiB,
    })
    expect(inspector.rowAt(0)?.id).toBe(1900)
    expect(inspector.liveRows.some((r) => r.id === gone)).toBe(false)
    expect(inspector.rowCount).toBe(PAGE_ROWS)
    expect(inspector.live).toMatchObject({ frameNumber: 72, liveCount: 450, skipped: 2, released: 1 })
    expect(inspector.live?.fresh.has(1900)).toBe(true)
  })
})

describe('playback store', () => {
  it('plays from the cursor, moves it with each frame, acknowledges it once drawn, and stops', async () => {
    const { timeline, inspector } = await opened()
    const playback = usePlaybackStore()
    playback.init()
    await playback.play()
    expect(host.playbacks[0]).toMatchObject({ from: 70, to: 100, fps: 30 })
    const id = host.playbacks[0].playbackId
    const frame = { playbackId: id, frame: 75, frameNumber: 76, skipped: 4, created: [], createdTruncated: false, released: [], liveCount: 450, heapBytes: {}, residentBytes: 0 }
    host.sendPlayback(frame)
    await settle()
    expect(timeline.cursor).toBe(75)
    expect(host.acked).toEqual([[id, 75]])
    // the inspector did not page the engine for the frames played
    const pages = host.resourceQueries.length
    await playback.pause()
    expect(host.stopped).toEqual([id])
    expect(inspector.live).toBeNull()
    await settle()
    expect(host.resourceQueries.length).toBe(pages + 1)
    expect(host.resourceQueries[pages].frame).toBe(75)
  })

  it('stops by itself at the last frame and ignores frames of another playback', async () => {
    const { timeline } = await opened()
    const playback = usePlaybackStore()
    playback.init()
    await playback.play()
    const id = host.playbacks[0].playbackId
    const frame = { playbackId: 'other', frame: 80, frameNumber: 81, skipped: 0, created: [], createdTruncated: false, released: [], liveCount: 0, heapBytes: {}, residentBytes: 0 }
    host.sendPlayback(frame)
    await settle()
    expect(timeline.cursor).toBe(70)
    host.sendPlayback({ ...frame, playbackId: id, frame: 99 })
    await settle()
    expect(playback.playing).toBe(false)
    expect(host.stopped).toEqual([id])
  })
})

describe('what-if, then compare', () => {
  it('checks the keys of a Vulkan run by what each entry says of itself', () => {
    const blockSize = { key: 'vulkan.blockSize', kind: 'bytes' as const }
    // 128 MiB = 128 × 1024 × 1024
    expect(parseEntryValue(blockSize, '128MiB')).toBe(134217728)
    expect(() => parseEntryValue(blockSize, 'big')).toThrow('is not a number')
    const allocator = { key: 'vulkan.textureAllocator', kind: 'enum' as const, values: [0, 1] }
    expect(parseEntryValue(allocator, '1')).toBe(1)
    expect(() => parseEntryValue(allocator, '2')).toThrow('must be one of 0, 1')
    // the D3D12 model's keys keep the shared parser's rules (its minimum of 1 byte)
    expect(() => parseEntryValue({ key: 'bufferPool.size', kind: 'bytes' }, '0')).toThrow('below 1')
  })

  it('checks edits as the CLI would, and refuses to re-run with a bad one', async () => {
    await opened()
    const whatif = useWhatIfStore()
    await whatif.load()
    expect(whatif.entries.map((e) => e.key)).toEqual(['bufferPool.size', 'defrag.enabled', 'resourceHeapTier'])
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(whatif.changed).toEqual(['bufferPool.size'])
    expect(whatif.overrides).toEqual({ 'bufferPool.size': '8MiB' })
    whatif.setEdit('defrag.enabled', 'maybe')
    expect(whatif.errors['defrag.enabled']).toContain('not a number')
    expect(await whatif.rerun()).toBe(false)
    // an edit equal to the run's value changes nothing
    whatif.setEdit('defrag.enabled', 'true')
    expect(whatif.changed).toEqual(['bufferPool.size'])
  })

  it("stacks each side by the parts of its run's total: placements of a D3D12 run, memory types of a Vulkan run by name", () => {
    const runs = useRunsStore()
    const compare = useCompareStore()
    const names = (...list: string[]) => list.map((name) => ({ name, label: name, unit: 'bytes' as const, group: 'heap' }))
    const vulkan = {
      heaps: [{ index: 0, name: 'Heap 0', size: GiB, flags: ['DEVICE_LOCAL'] }],
      types: [
        { index: 0, name: 'Type 0', heapIndex: 0, propertyFlags: [] },
        { index: 1, name: 'Type 1', heapIndex: 0, propertyFlags: [] },
      ],
      maxMemoryAllocationCount: 4096,
      bufferImageGranularity: 1024,
      nonCoherentAtomSize: 64,
      defaulted: false,
      problems: [],
      diagnostics: {},
    }
    // B's memory type 1 and A's type 0, in type order; their used bytes are no part of the total
    runs.current = summary('a', 10, { backend: 'vulkan', capabilities: { whatIf: true }, vulkan, series: names('vktype.0.allocatedBytes', 'vktype.0.usedBytes') })
    runs.other = summary('b', 10, { backend: 'vulkan', capabilities: { whatIf: true }, vulkan, series: names('vktype.1.allocatedBytes', 'vktype.0.allocatedBytes') })
    expect(compare.placements).toEqual([
      { key: 'Type 0', series: 'vktype.0.allocatedBytes' },
      { key: 'Type 1', series: 'vktype.1.allocatedBytes' },
    ])
    // a D3D12 run: its placements' heap bytes, Committed first, the page allocators last
    runs.current = summary('c', 10, { series: names('placement.FastConstantPage.heapBytes', 'placement.Committed.heapBytes', 'placement.ReadbackPool.occupiedBytes') })
    runs.other = null
    expect(compare.placements.map((p) => p.key)).toEqual(['Committed', 'FastConstantPage'])
  })

  it('re-runs as run B, remembers the overrides, and compares', async () => {
    const { runs } = await opened()
    const whatif = useWhatIfStore()
    const ui = useUiStore()
    const compare = useCompareStore()
    await whatif.load()
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(await whatif.rerun()).toBe(true)
    await settle()
    expect(host.calls).toContain('rerun {"bufferPool.size":"8MiB"}')
    expect(host.saved).toContainEqual({ configOverrides: { 'bufferPool.size': '8MiB' } })
    expect(runs.other?.runId).toBe('run-B')
    expect(runs.otherOverrides).toEqual({ 'bufferPool.size': '8MiB' })
    expect(ui.view).toBe('compare')
    expect(whatif.otherValues?.['bufferPool.size']).toBe(8 * MiB)
    compare.setActive(true)
    await settle()
    expect(compare.lanes?.delta[0]).toBe(-8 * MiB)
    expect(compare.lanes?.a.layers.map((l) => l.key)).toEqual(['Committed', 'SharedBufferPool', 'TextureReadOnlyPool', 'UploadBigBlock'])
    expect(compare.deltas.find((r) => r.id === 'peak')?.delta).toBe(0)
    expect(compare.diff?.counts).toEqual({ onlyA: 1, onlyB: 0, changed: 1, same: 38 })
    await compare.setDiffStatus('onlyA')
    expect(compare.diff?.entries.map((e) => e.status)).toEqual(['onlyA'])
    await compare.setCursor(40)
    expect(host.calls[host.calls.length - 1]).toBe('diff 40 onlyA')
    // closing B goes back to the timeline
    await runs.closeOther()
    await settle()
    expect(ui.view).toBe('timeline')
    expect(host.closed).toContain('run-B')
  })
})

describe('what-if edits belong to one run', () => {
  it('starts another capture with no edits, and offers the last re-run’s overrides without applying them', async () => {
    const { runs } = await opened()
    const whatif = useWhatIfStore()
    await whatif.load()
    // resourceHeapTier: the capture says 1, the default is 2
    expect(whatif.fromDefaults).toEqual(['resourceHeapTier'])
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(await whatif.rerun()).toBe(true)
    await settle()
    // a second capture, as run A: none of the first one's edits
    host.outcomes.push({ ok: true, summary: { ...summary('run-2'), file: 'second.hscap' } })
    await runs.open('demo')
    await settle()
    await whatif.load()
    expect(runs.current?.runId).toBe('run-2')
    expect(whatif.edits).toEqual({})
    expect(whatif.overrides).toEqual({})
    expect(whatif.remembered).toEqual({ 'bufferPool.size': '8MiB' })
    whatif.setEdit('defrag.enabled', 'false')
    expect(whatif.overrides).toEqual({ 'defrag.enabled': 'false' })
    expect(await whatif.rerun()).toBe(true)
    // run B of the second capture used its own edit alone
    expect(host.calls.filter((c) => c.startsWith('rerun'))).toEqual(['rerun {"bufferPool.size":"8MiB"}', 'rerun {"defrag.enabled":"false"}'])
    // asked for, the remembered overrides come in
    whatif.applyRemembered()
    expect(whatif.overrides).toEqual({ 'defrag.enabled': 'false' })
  })
})

describe('runs store', () => {
  it('swaps A and B, and closes both when leaving', async () => {
    const { runs } = await opened()
    await runs.rerun({ 'bufferPool.size': '8MiB' })
    runs.swap()
    expect([runs.current?.runId, runs.other?.runId]).toEqual(['run-B', 'run-1'])
    await runs.closeAll()
    expect(host.closed).toEqual(['run-B', 'run-1'])
    await settle()
    expect(useUiStore().view).toBe('start')
  })

  it('forgets its runs when the engine stops, and offers to open the file again', async () => {
    const runs = useRunsStore()
    let stopped!: (info: { message: string; reopen?: string }) => void
    host.onEngineStopped = (listener) => {
      stopped = listener
      return () => undefined
    }
    await runs.init()
    stopped({ message: 'worker exited', reopen: 'demo' })
    expect(runs.current).toBeNull()
    expect(runs.engineStopped?.reopen).toBe('demo')
    await runs.reopenAfterStop()
    expect(host.calls).toEqual(['open demo', 'open demo'])
    expect(runs.current?.runId).toBe('run-1')
  })
})

describe('a second capture, and export', () => {
  it('uploads a file picked for comparison as run B and shows the compare view', async () => {
    const { runs } = await opened()
    const got: number[] = []
    host.beginUpload = async () => undefined
    host.uploadChunk = async (chunk) => {
      got.push(chunk.data.byteLength)
      return true
    }
    host.endUpload = async () => ({ ok: true, summary: (await import('../fakeHost')).summary('run-9') })
    expect(await runs.upload(new File([new Uint8Array(10)], 'other.hscap'), 'B')).toBe(true)
    await settle()
    expect(got).toEqual([10])
    expect([runs.current?.runId, runs.other?.runId]).toEqual(['run-1', 'run-9'])
    expect(useUiStore().view).toBe('compare')
  })

  it('exports run A, the A/B range of it when one is set', async () => {
    const { runs, timeline } = await opened()
    const asked: unknown[] = []
    host.exportCapture = async (request) => {
      asked.push(request)
      return { kind: 'cancelled' }
    }
    await timeline.setRange(10, 20)
    // the range's last frame included: frames [10, 21)
    await runs.exportCapture({ from: timeline.range!.a, to: timeline.range!.b + 1 })
    expect(asked).toEqual([{ runId: 'run-1', from: 10, to: 21, gzip: true }])
  })
})

describe('hazards', () => {
  it('lists the findings of the run and opens one: its frame, its first resource, its bytes marked on the block maps', async () => {
    const { summary } = await import('../fakeHost')
    host.outcomes.push({ ok: true, summary: summary('run-1', 100, { checks: { aliasing: 'simple', hazards: 1, hazardRules: { 'access-inactive': 1 }, warnings: {} } }) })
    const entry = { frame: 45, frameNumber: 46, rule: 'access-inactive', severity: 'hazard' as const, resources: [1003, 1004], heap: 7, range: [0, 4 * MiB] as [number, number], message: 'texture 1003 read while inactive' }
    host.hazards = async (query) => ({ runId: query.runId, total: 1, offset: 0, entries: [entry], aliasing: 'simple', hazardRules: { 'access-inactive': 1 }, warnings: {} })
    const { inspector, timeline } = await opened()
    expect(inspector.hazards?.entries).toHaveLength(1)
    inspector.openHazard(entry)
    await settle()
    expect(timeline.cursor).toBe(45)
    expect(inspector.frame).toBe(45)
    expect(inspector.tab).toBe('pools')
    expect(inspector.selectedId).toBe(1003)
    expect(inspector.details?.row.id).toBe(1003)
    expect([...inspector.focus!.ids]).toEqual([1003, 1004])
    expect(inspector.focus!.range).toEqual([0, 4 * MiB])
  })

  it('asks nothing of a run whose checks found nothing to list', async () => {
    let asked = 0
    host.hazards = async () => {
      asked++
      throw new Error('not asked')
    }
    const { inspector } = await opened()
    expect(asked).toBe(0)
    expect(inspector.hazards).toBeNull()
  })
})

describe('settings store', () => {
  it('reads the host settings and saves each change', async () => {
    const settings = useSettingsStore()
    host.settingsValue = { version: 1, theme: 'light', language: 'zh-CN', configOverrides: { 'bufferPool.size': '8MiB' } }
    await settings.init()
    expect([settings.theme, settings.language, settings.effectiveTheme]).toEqual(['light', 'zh-CN', 'light'])
    expect(settings.chartTheme.name).toBe('light')
    await settings.toggleTheme()
    expect(settings.effectiveTheme).toBe('dark')
    await settings.setLanguage('en')
    expect(host.saved).toEqual([{ theme: 'dark' }, { language: 'en' }])
  })
})

describe('aliasing store', () => {
  it('loads the cursor frame once shown, and knows which resources share bytes', async () => {
    const { timeline } = await opened()
    const aliasing = useAliasingStore()
    expect(aliasing.answer).toBeNull()
    aliasing.setActive(true)
    await settle()
    expect(aliasing.answer?.frame).toBe(70)
    expect(aliasing.aliasesOf(0)).toEqual([1])
    expect(aliasing.aliasesOf(1)).toEqual([0])
    expect(aliasing.aliasesOf(2)).toEqual([])
    timeline.setCursor(12)
    await settle()
    expect(aliasing.answer?.frame).toBe(12)
  })
})
