import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../../src/main/cli/index'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { GiB } from '../../../../src/shared/units'

const DEMO = 'resources/demo/demo.hscap.gz'

describe('one size per resource, and the aliasing saving labelled', () => {
  let out = ''
  beforeEach(() => {
    out = ''
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
  })
  afterEach(() => vi.restoreAllMocks())

  it('gives a reserved resource its committed bytes in the table, report and details, and its virtual size apart', async () => {
    expect(await main(['report', '--json', DEMO])).toBe(0)
    const report = JSON.parse(out)
    // the demo reserves one 1 GiB buffer (Nanite.StreamingManager.ClusterPageData) and commits part of it
    expect(report.reserved).toEqual({ count: 1, virtualBytes: 1 * GiB, committedBytes: report.byPlacement.Reserved.endBytes })
    expect(report.reserved.committedBytes).toBeLessThan(1 * GiB)

    const engine = new LocalEngine()
    const run = await engine.addRun(await loadCaptureFile(DEMO), {})
    const last = run.summary.frames - 1
    const page = await engine.resources({ runId: run.id, frame: last, filter: { placement: ['Reserved'] }, offset: 0, limit: 10 })
    expect(page.rows).toHaveLength(1)
    const row = page.rows[0]
    expect(row.name).toBe('Nanite.StreamingManager.ClusterPageData')
    expect(row.occupied).toBe(report.reserved.committedBytes)
    expect(row.virtual).toBe(1 * GiB)
    expect(row.waste).toBe(row.occupied - row.requested)
    // the lanes' Reserved series at that frame counts the same bytes
    const series = await engine.series({ runId: run.id, series: ['placement.Reserved.heapBytes'], from: last, to: last + 1, resolution: 1 })
    expect(series.series['placement.Reserved.heapBytes']?.max[0]).toBe(row.occupied)
    const details = await engine.resource({ runId: run.id, frame: last, id: row.id })
    expect(details?.row).toMatchObject({ occupied: row.occupied, virtual: 1 * GiB })
    // any other resource has no virtual size
    const other = await engine.resources({ runId: run.id, frame: last, filter: { placement: ['Committed'] }, offset: 0, limit: 1 })
    expect(other.rows[0].virtual).toBeNull()
    await engine.dispose()
  })

  it('labels the aliasing saving as a sum over frames, with the peak frame’s saving beside it', async () => {
    expect(await main(['report', '--json', DEMO])).toBe(0)
    const report = JSON.parse(out)
    const engine = new LocalEngine()
    const run = await engine.addRun(await loadCaptureFile(DEMO), {})
    const frames = run.summary.frames
    const answer = await engine.series({ runId: run.id, series: ['transient.savingBytes'], from: 0, to: frames, resolution: frames })
    const perFrame = Array.from(answer.series['transient.savingBytes']!.max)
    expect(report.transient.aliasingSavingsBytes).toBe(perFrame.reduce((a, b) => a + b, 0))
    expect(report.transient.aliasingSavingsPeakBytes).toBe(Math.max(...perFrame))
    expect(report.transient.aliasingSavingsPeakBytes).toBeLessThan(report.transient.aliasingSavingsBytes)
    await engine.dispose()
    out = ''
    expect(await main(['report', DEMO])).toBe(0)
    expect(out).toMatch(/aliasing saving, summed over frames +[\d.]+ GiB/)
    expect(out).toMatch(new RegExp(`aliasing saving, peak frame \\(${report.transient.aliasingSavingsPeakFrame}\\) +[\\d.]+ MiB`))
    expect(out).toContain('Reserved (committed)')
    expect(out).toMatch(/virtual \(address space\) +1\.00 GiB/)
  })
})
