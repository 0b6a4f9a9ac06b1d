import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import { PAGE_ROWS } from '../../../../src/renderer/src/stores/inspector'
import { row } from '../fakeHost'
import { host, opened, settle, useAppHost } from './appHost'

useAppHost()

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

  it('asks for the pools’ blocks only while the pool maps are shown', async () => {
    const { inspector } = await opened()
    expect(host.snapshotQueries.at(-1)).toMatchObject({ frame: 70, blocks: false })
    expect(inspector.snapshot?.blocksLeftOut).toBe(true)
    // the pools' figures come without the blocks: the tab counts them
    expect(inspector.snapshot?.pools[0]).toMatchObject({ used: 8 * MiB, pending: 4 * MiB })
    expect(inspector.snapshot?.pools[0].offset).toHaveLength(0)
    inspector.tab = 'pools'
    await settle()
    expect(host.snapshotQueries.at(-1)).toMatchObject({ frame: 70, blocks: true })
    expect(inspector.snapshot?.blocksLeftOut).toBeUndefined()
    expect(inspector.snapshot?.pools[0].offset).toHaveLength(3)
    // while they are shown, another frame comes with its blocks; back on the table, without
    const asked = host.snapshotQueries.length
    await inspector.showFrame(71)
    expect(host.snapshotQueries.slice(asked)).toEqual([expect.objectContaining({ frame: 71, blocks: true })])
    inspector.tab = 'resources'
    await inspector.showFrame(72)
    expect(host.snapshotQueries.at(-1)).toMatchObject({ frame: 72, blocks: false })
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
    // the block maps it marks come with their blocks
    expect(host.snapshotQueries.at(-1)).toMatchObject({ frame: 45, blocks: true })
    expect(inspector.snapshot?.pools[0].offset).toHaveLength(3)
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
