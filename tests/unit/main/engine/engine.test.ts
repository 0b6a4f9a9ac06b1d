import { describe, expect, it, vi } from 'vitest'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { defaultConfig } from '../../../../src/shared/model'
import type { PlaybackFrame } from '../../../../src/shared/ipc'
import { onFakeClock } from '../fakeClock'

const DEMO = 'resources/demo/demo.hscap.gz'

async function demoRun(engine: LocalEngine, config?: Record<string, string>) {
  const result = await loadCaptureFile(DEMO)
  return engine.addRun(result, { config })
}

describe('engine queries on the demo capture', () => {
  it('a snapshot from a checkpoint equals the model replayed from frame 0', async () => {
    const result = await loadCaptureFile(DEMO)
    // checkpoints every 2,000 records: the snapshot at frame 150 replays from the one before, not from 0
    const replay = await Replay.run(result.store, { config: defaultConfig(), checkpointRecords: 2000 })
    expect(replay.checkpointStats().count).toBeGreaterThan(3)
    const whole = await Replay.run(result.store, { config: defaultConfig(), checkpointRecords: Infinity })
    expect(whole.checkpointStats().count).toBe(1)
    for (const frame of [0, 37, 150, result.store.frames.length - 1]) {
      const fromCheckpoint = replay.modelAt(frame).model
      const fromStart = whole.modelAt(frame).model
      expect(fromCheckpoint.liveAllocations()).toEqual(fromStart.liveAllocations())
      expect(fromCheckpoint.pools()).toEqual(fromStart.pools())
      expect(Array.from(fromCheckpoint.totals.byRow)).toEqual(Array.from(fromStart.totals.byRow))
    }
  })

  it('pages the live resources, sorted and filtered, with facets', async () => {
    const engine = new LocalEngine()
    const run = await demoRun(engine)
    const frame = 200
    const all = await engine.resources({ runId: run.id, frame, offset: 0, limit: 5000 })
    expect(all.total).toBe(all.rows.length)
    const snapshot = await engine.snapshot({ runId: run.id, frame })
    expect(snapshot.liveCount).toBe(all.total)
    const bySize = await engine.resources({ runId: run.id, frame, sort: 'occupied', descending: true, offset: 0, limit: 10 })
    for (let i = 1; i < bySize.rows.length; i++) expect(bySize.rows[i - 1].occupied).toBeGreaterThanOrEqual(bySize.rows[i].occupied)
    const page2 = await engine.resources({ runId: run.id, frame, sort: 'occupied', descending: true, offset: 10, limit: 10 })
    expect(page2.rows[0].occupied).toBeLessThanOrEqual(bySize.rows[9].occupied)
    const tag = all.facets.tag[0]
    const tagged = await engine.resources({ runId: run.id, frame, filter: { tag: [tag] }, offset: 0, limit: 5000 })
    expect(tagged.total).toBe(all.rows.filter((r) => r.tag === tag).length)
    expect(tagged.rows.every((r) => r.tag === tag)).toBe(true)
    const named = await engine.resources({ runId: run.id, frame, filter: { name: all.rows[0].name.toUpperCase() }, offset: 0, limit: 50 })
    expect(named.rows.some((r) => r.id === all.rows[0].id)).toBe(true)
    // pool block maps: used + pending + free blocks tile each pool
    for (const pool of snapshot.pools) {
      let end = 0
      for (let b = 0; b < pool.offset.length; b++) end = Math.max(end, pool.offset[b] + pool.size[b])
      expect(end).toBeLessThanOrEqual(pool.bytes)
    }
  })

  it('explains a resource with its route and desc', async () => {
    const engine = new LocalEngine()
    const run = await demoRun(engine)
    const page = await engine.resources({ runId: run.id, frame: 100, sort: 'id', offset: 0, limit: 1 })
    const details = await engine.resource({ runId: run.id, frame: 100, id: page.rows[0].id })
    expect(details?.row.id).toBe(page.rows[0].id)
    expect(details?.route.length).toBeGreaterThan(2)
    expect(details?.route.at(-1)).toBeTypeOf('string')
    expect(details?.desc.id).toBe(page.rows[0].id)
  })

  it('lists residency events matching the report, and the frame’s transient layouts', async () => {
    const engine = new LocalEngine()
    const run = await demoRun(engine)
    const report = await engine.report(run.id)
    const events = await engine.residencyEvents({ runId: run.id, from: 0, to: run.store.frames.length, limit: 1_000_000 })
    expect(Array.from(events.kind).filter((k) => k === 1).length).toBe(report.residency.evictions)
    const transients = await engine.transients({ runId: run.id, frame: 120 })
    expect(transients.executions.length).toBeGreaterThan(0)
    const ex = transients.executions[0]
    // resources overlapping in bytes never overlap in passes
    for (let k = 0; k < ex.overlaps.length; k += 2) {
      const a = ex.overlaps[k]
      const b = ex.overlaps[k + 1]
      expect(ex.resources.last[a] < ex.resources.first[b] || ex.resources.last[b] < ex.resources.first[a]).toBe(true)
    }
  })

  it('compares a run with the same capture under another config: the what-if', async () => {
    const engine = new LocalEngine()
    const a = await demoRun(engine)
    const outcome = await engine.rerun('what-if', a.id, { 'texturePool.readOnly.size': '128MiB' })
    expect(outcome.ok).toBe(true)
    const b = outcome.ok ? outcome.summary.runId : ''
    const diff = await engine.resourceDiff({ runA: a.id, runB: b, offset: 0, limit: 100 })
    // same requests, another pool size: everything matches by name; textures in the read-only pool move pools
    expect(diff.counts.onlyA).toBe(0)
    expect(diff.counts.onlyB).toBe(0)
    const series = await engine.compareSeries({
      runA: a.id,
      runB: b,
      series: ['placement.TextureReadOnlyPool.heapBytes'],
      from: 0,
      to: a.store.frames.length,
      resolution: 50,
    })
    expect(series.delta['placement.TextureReadOnlyPool.heapBytes'].length).toBe(series.a.start.length)
    const config = await engine.runConfig(b)
    expect(config.find((c) => c.key === 'texturePool.readOnly.size')?.value).toBe(128 * 2 ** 20)
  })

  it('finds leak candidates: created after A, alive at B', async () => {
    const engine = new LocalEngine()
    const run = await demoRun(engine)
    const leaks = await engine.leaks({ runId: run.id, from: 100, to: 299, offset: 0, limit: 5000 })
    const after = run.store.frames.n[100]
    expect(leaks.rows.every((r) => r.created > after)).toBe(true)
    expect(leaks.total).toBe(leaks.rows.length)
    const at = await engine.resources({ runId: run.id, frame: 299, offset: 0, limit: 5000 })
    expect(leaks.total).toBe(at.rows.filter((r) => r.created > after).length)
  })

  it('plays back with backpressure: unacknowledged frames are skipped, not queued', async () => {
    const engine = new LocalEngine()
    const run = await demoRun(engine)
    const frames: PlaybackFrame[] = []
    await onFakeClock(async () => {
      await engine.startPlayback({ runId: run.id, playbackId: 'p', from: 0, to: 300, fps: 200 }, (f) => frames.push(f))
      vi.advanceTimersByTime(120)
      // nothing acknowledged: exactly one frame sent however long we wait
      expect(frames.length).toBe(1)
      await engine.ackPlayback('p', frames[0].frame)
      vi.advanceTimersByTime(60)
      await engine.stopPlayback('p')
    })
    expect(frames.length).toBe(2)
    // 5 ms a frame: the first at 5 ms, the second at the first tick after the ack, 125 ms in
    expect(frames.map((f) => [f.frame, f.skipped])).toEqual([[1, 0], [25, 23]])
  })
})
