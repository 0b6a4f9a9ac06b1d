import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { checkpointBudget, CHECKPOINT_BYTES, Replay } from '../../../../src/main/analysis/d3d12/replay'
import { VulkanReplay, vulkanConfigOf } from '../../../../src/main/analysis/vulkan/replay'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import { generatedStore } from './vulkan/helpers'
import { Snapshots } from '../../../../src/main/analysis/d3d12/snapshot'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import type { ResourceTable } from '../../../../src/main/analysis/resourceTable'
import type { TransientExecution } from '../../../../src/shared/ipc'
import { resolveConfig } from '../../../../src/shared/model'

const CAPTURE = join(__dirname, '__golden__', 'deferred-60.hscap.gz')

async function replayOf(checkpointRecords: number) {
  const { store } = await loadCaptureFile(CAPTURE)
  const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
  return Replay.run(store, { config, checkpointRecords, checkpointBytes: Number.POSITIVE_INFINITY })
}

describe('snapshots started from a cached state', () => {
  it('modelAt advances the nearest earlier state given instead of the checkpoint, to the same model', async () => {
    // one checkpoint, at frame 0: without a state every snapshot replays from the start
    const replay = await replayOf(Number.POSITIVE_INFINITY)
    expect(replay.checkpointStats().count).toBe(1)
    const at20 = replay.modelAt(20)
    const at25 = replay.modelAt(25)
    // A marker id in the frame-25 state's creates: only a start from that state carries it into the answer.
    const marked = { frame: 25, model: at25.model, created: new Map([...at25.created, [-7, -7]]) }
    const layouts: TransientExecution[] = []
    const advanced = replay.modelAt(31, (layout) => layouts.push(layout), [{ frame: 20, ...at20 }, marked])
    expect(advanced.created.get(-7)).toBe(-7)
    const fresh = replay.modelAt(31)
    advanced.created.delete(-7)
    expect(advanced.created).toEqual(fresh.created)
    expect(advanced.model.liveTable()).toEqual(fresh.model.liveTable())
    expect(advanced.model.poolBlocks()).toEqual(fresh.model.poolBlocks())
    expect(Array.from(advanced.model.totals.byRow)).toEqual(Array.from(fresh.model.totals.byRow))
    expect(advanced.model.residencyManager().totals()).toEqual(fresh.model.residencyManager().totals())
    const freshLayouts: TransientExecution[] = []
    replay.modelAt(31, (layout) => freshLayouts.push(layout))
    expect(layouts).toEqual(freshLayouts)
    // the state the start came from is left as it was
    expect(at25.model.liveTable()).toEqual(replay.modelAt(25).model.liveTable())
  })

  it('a state at or after the frame asked, or before the checkpoint, is not a start', async () => {
    // checkpoints every 300 records: dozens over the 60 frames (19 779 records)
    const replay = await replayOf(300)
    const at10 = replay.modelAt(10)
    const at40 = replay.modelAt(40)
    const marker = (frame: number, state: typeof at10) => ({ frame, model: state.model, created: new Map([...state.created, [-1, -1]]) })
    // frame 40 is the frame asked, not before it; frame 10 is behind the checkpoint nearest frame 40
    expect(replay.modelAt(40, undefined, [marker(40, at40), marker(10, at10)]).created.has(-1)).toBe(false)
  })

  it('a cursor walking forward and back through the capture sees the same tables and pools as cold snapshots', async () => {
    const replay = await replayOf(2000)
    const cached = new Snapshots(replay)
    const frames = [3, 4, 9, 10, 30, 29, 31, 45, 46, 59, 12, 13]
    for (const frame of frames) {
      const cold = new Snapshots(replay)
      expect(cached.snapshot('run', frame)).toEqual(cold.snapshot('run', frame))
      const query = { runId: 'run', frame, sort: 'occupied' as const, descending: true, offset: 0, limit: 5000 }
      expect(cached.resources(query)).toEqual(cold.resources(query))
      expect(cached.transients(frame)).toEqual(cold.transients(frame))
    }
  })
})

describe('states the cache lets go', () => {
  it('give their tables to the next states, which answer as cold snapshots do', async () => {
    const replay = await replayOf(1500)
    const cached = new Snapshots(replay)
    // Back and forth over the capture, revisits included: the cache of four lets a state go at nearly every step.
    const frames = [5, 50, 12, 33, 58, 20, 41, 7, 50, 26, 59, 14, 37, 3, 45, 21, 30, 55, 10, 48]
    let given = 0
    for (const frame of frames) {
      const cold = new Snapshots(replay)
      expect(cached.snapshot('run', frame)).toEqual(cold.snapshot('run', frame))
      const query = { runId: 'run', frame, sort: 'offset' as const, descending: false, offset: 0, limit: 100_000 }
      const page = cached.resources(query)
      expect(page).toEqual(cold.resources(query))
      for (const row of page.rows.slice(0, 3)) expect(cached.details('run', frame, row.id)).toEqual(cold.details('run', frame, row.id))
      expect(cached.transients(frame)).toEqual(cold.transients(frame))
      const kept = replay.recycled.counts()
      given = Math.max(given, kept.f64 + kept.i32 + kept.u8)
    }
    // the states let go did give their tables back
    expect(given).toBeGreaterThan(0)
  })
})

describe('the checkpoint budget', () => {
  it('is 128 MiB up to 5.6 million records, then 24 bytes a record', () => {
    expect(checkpointBudget(2_000_000)).toBe(CHECKPOINT_BYTES)
    // 128 MiB = 134 217 728 bytes = 24 × 5 592 405.33 records
    expect(checkpointBudget(5_592_405)).toBe(CHECKPOINT_BYTES)
    expect(checkpointBudget(5_592_406)).toBe(134_217_744)
    // 10 million records: 240 000 000 bytes (229 MiB)
    expect(checkpointBudget(10_000_000)).toBe(240_000_000)
  })
})


describe('warming a snapshot', () => {
  it('rebuilds the frame, then forgets it: the next ask rebuilds it again, to the same answer', async () => {
    const replay = await replayOf(2000)
    const asked: number[] = []
    const stateAt = replay.stateAt.bind(replay)
    replay.stateAt = (frame, onLayout, states) => {
      asked.push(frame)
      return stateAt(frame, onLayout, states)
    }
    const snapshots = new Snapshots(replay)
    snapshots.snapshot('run', 12)
    snapshots.warm(30)
    expect(asked).toEqual([12, 30])
    // frame 12 is still cached, frame 30 is not
    snapshots.snapshot('run', 12)
    expect(asked).toEqual([12, 30])
    expect(snapshots.snapshot('run', 30)).toEqual(new Snapshots(replay).snapshot('run', 30))
    expect(asked).toEqual([12, 30, 30, 30])
  })

  it('of a Vulkan run rebuilds the frame and forgets it the same way', async () => {
    const store = await generatedStore('vulkan', 40, 2)
    const replay = await VulkanReplay.run(store, { config: vulkanConfigOf(store.header), checkpointRecords: 200 })
    const asked: number[] = []
    const modelAt = replay.modelAt.bind(replay)
    replay.modelAt = (frame) => {
      asked.push(frame)
      return modelAt(frame)
    }
    const snapshots = new VulkanSnapshots(replay)
    snapshots.snapshot('run', 12)
    snapshots.warm(30)
    expect(asked).toEqual([12, 30])
    snapshots.snapshot('run', 12)
    expect(asked).toEqual([12, 30])
    expect(snapshots.snapshot('run', 30)).toEqual(new VulkanSnapshots(replay).snapshot('run', 30))
    expect(asked).toEqual([12, 30, 30, 30])
  })
})

describe('a snapshot table read before its text is built', () => {
  it('gives the pages and facets that the whole text columns give', async () => {
    const replay = await replayOf(2000)
    const queries = [
      { sort: 'occupied' as const, descending: true, offset: 0, limit: 100 },
      { sort: 'waste' as const, descending: false, offset: 40, limit: 25 },
      { sort: 'created' as const, descending: true, offset: 0, limit: 50, filter: { tag: ['Shadows', 'Textures'], placement: ['Committed', 'PlacedBufferPool'] } },
      { sort: 'name' as const, descending: false, offset: 0, limit: 100 },
    ]
    for (const frame of [0, 13, 37, 59]) {
      for (const q of queries) {
        const query = { runId: 'r', frame, ...q }
        const fresh = new Snapshots(replay).resources(query)
        const whole = new Snapshots(replay)
        // Every row's text built first: the table's own columns answer.
        expect(whole.table(frame).text.name.length).toBe(whole.table(frame).length)
        expect(fresh).toEqual(whole.resources(query))
        expect(fresh.rows.length).toBeGreaterThan(0)
      }
    }
  })
})

describe("the last frame's table", () => {
  /** A table's columns and text, as plain arrays. */
  const rowsOf = (table: ResourceTable) => ({
    frameNumber: table.frameNumber,
    id: Array.from(table.id),
    occupied: Array.from(table.occupied),
    requested: Array.from(table.requested),
    offset: Array.from(table.offset),
    created: Array.from(table.created),
    createRecord: Array.from(table.createRecord),
    estimated: Array.from(table.estimated),
    virtual: table.virtual && Array.from(table.virtual),
    text: table.text,
  })
  it.each(['deferred-60', 'streaming-150', 'raytracing-60', 'demo'])('of %s is read from the model the replay ended with, as a state rebuilt from the first frame gives it', async (name) => {
    const { store } = await loadCaptureFile(join(__dirname, '__golden__', `${name}.hscap.gz`))
    const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
    // no checkpoint past the first, as the command line replays
    const replay = await Replay.run(store, { config, checkpointRecords: Number.POSITIVE_INFINITY, checkpointBytes: Number.POSITIVE_INFINITY })
    const last = store.frames.length - 1
    const snapshots = new Snapshots(replay)
    const rebuilds = vi.spyOn(replay, 'stateAt')
    // the state, its table, a page, a snapshot with its pools' blocks and a resource's details: nothing replayed
    const state = snapshots.state(last)
    expect(state.model).toBe(replay.finalState()!.model)
    const end = snapshots.table(last)
    expect(snapshots.table(last + 10)).toBe(end)
    const query = { runId: 'r', frame: last, sort: 'occupied' as const, descending: true, offset: 0, limit: 100_000 }
    const page = snapshots.resources(query)
    const snapshot = snapshots.snapshot('r', last)
    const ids = Array.from(end.id.subarray(0, 5))
    const details = ids.map((id) => snapshots.details('r', last, id))
    expect(rebuilds).not.toHaveBeenCalled()
    // the frame's transient layouts are rebuilt when first read, once
    const transients = snapshots.transients(last)
    expect(snapshots.transients(last)).toBe(transients)
    expect(rebuilds).toHaveBeenCalledTimes(1)
    rebuilds.mockRestore()

    // the same answers from a state rebuilt from the first frame
    const finalState = vi.spyOn(replay, 'finalState').mockReturnValue(undefined)
    const rebuilt = new Snapshots(replay)
    expect(end.length).toBeGreaterThan(0)
    expect(rowsOf(end)).toEqual(rowsOf(rebuilt.table(last)))
    expect(page).toEqual(rebuilt.resources(query))
    expect(snapshot).toEqual(rebuilt.snapshot('r', last))
    expect(snapshot.graphs).toBe(transients.length)
    expect(transients).toEqual(rebuilt.transients(last))
    expect(details).toEqual(ids.map((id) => rebuilt.details('r', last, id)))
    expect(replay.finalState()).toBeUndefined()
    finalState.mockRestore()
    // the live creates by id too, as a rebuilt state has them
    expect(replay.finalState()!.live.map).toEqual(replay.modelAt(last).created)

    // let go by the cache (it keeps four), the replay's model is not given back: later states are written into
    // tables of their own, and the last frame answers as before
    for (let f = 0; f < Math.min(last, 6); f++) snapshots.snapshot('r', f)
    expect(snapshots.snapshot('r', last)).toEqual(snapshot)
    expect(snapshots.resources(query)).toEqual(page)
  })

  it.each(['vulkan-120', 'vulkan-hazards-120'])('of %s (Vulkan) is read from the model the replay ended with, as a rebuilt state gives it', async (name) => {
    const { store } = await loadCaptureFile(join(__dirname, '__golden__', `${name}.hscap.gz`))
    const config = vulkanConfigOf(store.header)
    const replay = await VulkanReplay.run(store, { config, checkpointRecords: Number.POSITIVE_INFINITY })
    const last = store.frames.length - 1
    const snapshots = new VulkanSnapshots(replay)
    const rebuilds = vi.spyOn(replay, 'modelAt')
    const end = snapshots.table(last)
    expect(snapshots.state(last).model).toBe(replay.finalState()!.model)
    expect(snapshots.table(last + 10)).toBe(end)
    const query = { runId: 'r', frame: last, sort: 'name' as const, descending: false, offset: 0, limit: 100_000 }
    const page = snapshots.resources(query)
    const snapshot = snapshots.snapshot('r', last)
    expect(rebuilds).not.toHaveBeenCalled()
    rebuilds.mockRestore()
    // a report's replay keeps no live creates: its last frame is rebuilt, to the same answers
    const report = await VulkanReplay.run(store, { config, checkpointRecords: Number.POSITIVE_INFINITY, reportOnly: true })
    expect(report.finalState()).toBeUndefined()
    const rebuilt = new VulkanSnapshots(report)
    expect(end.length).toBeGreaterThan(0)
    expect(rowsOf(rebuilt.table(last))).toEqual(rowsOf(end))
    expect(rebuilt.resources(query)).toEqual(page)
    expect(rebuilt.snapshot('r', last)).toEqual(snapshot)
  })

  it('of a replay that kept no live rows (a report) is rebuilt, to the same table', async () => {
    const { store } = await loadCaptureFile(CAPTURE)
    const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
    const infinite = { checkpointRecords: Number.POSITIVE_INFINITY, checkpointBytes: Number.POSITIVE_INFINITY }
    const report = await Replay.run(store, { config, ...infinite, reportOnly: true })
    const whole = await Replay.run(store, { config, ...infinite })
    expect(report.finalState()).toBeUndefined()
    const last = store.frames.length - 1
    expect(rowsOf(new Snapshots(report).table(last))).toEqual(rowsOf(new Snapshots(whole).table(last)))
  })
})
