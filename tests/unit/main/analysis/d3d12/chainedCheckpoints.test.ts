/**
 * Checkpoints chained to the one before them (only the rows of the model's big tables that changed since) restore the
 * model a replay from the start reaches: at frames drawn at random, with checkpoints close together, thinned under a
 * small budget (a dropped one taken in by the next), on the golden captures and a generated stress capture.
 */
import { join } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { Replay } from '../../../../../src/main/analysis/d3d12/replay'
import { loadCaptureFile } from '../../../../../src/main/ingest/read'
import type { CaptureStore } from '../../../../../src/main/ingest/store'
import type { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import { resolveConfig, type ModelConfig } from '../../../../../src/shared/model'
import { runs, scaled } from '../../../../properties'
import { generated, scan } from '../../ingest/helpers'

const GOLDEN = join(__dirname, '..', '__golden__')

type Column = Float64Array | Int32Array | Uint8Array
interface Internals {
  allocs: Record<string, Column> & { count: number; freeSlots: number[] }
  blocks: Record<string, Column> & { count: number; freeSlots: number[] }
  live: { direct: Int32Array; far: Map<number, number>; size: number }
  pending: { cells: Float64Array; head: number; tail: number }
}

const ALLOCATION_COLUMNS = [
  'id', 'kind', 'state', 'loc', 'placement', 'heap', 'flags', 'pool', 'block', 'base', 'offset', 'size', 'requested',
  'alignment', 'poolAlignment', 'committed', 'commitRequested', 'created', 'lockFrame', 'object',
]
const BLOCK_COLUMNS = ['offset', 'size', 'prev', 'next', 'state', 'owner']

/** A table's columns at the rows `used` says are in use (free rows are written whole before they are read). */
function usedRows(table: Record<string, Column> & { count: number }, columns: string[], used: (row: number) => boolean) {
  const rows: number[] = []
  for (let r = 0; r < table.count; r++) if (used(r)) rows.push(r)
  return Object.fromEntries(columns.map((name) => [name, rows.map((r) => table[name][r])]))
}

/** The model's tables (every row in use, the free lists, the ids) and what a snapshot reads of it, equal. */
function expectSameModel(actual: D3D12Model, expected: D3D12Model, at: string): void {
  const a = actual as unknown as Internals
  const e = expected as unknown as Internals
  expect(a.allocs.count, at).toBe(e.allocs.count)
  expect(a.allocs.freeSlots, at).toEqual(e.allocs.freeSlots)
  const slotUsed = (r: number) => e.allocs.state[r] !== 0 || a.allocs.state[r] !== 0
  expect(usedRows(a.allocs, ALLOCATION_COLUMNS, slotUsed), at).toEqual(usedRows(e.allocs, ALLOCATION_COLUMNS, slotUsed))
  expect(a.blocks.count, at).toBe(e.blocks.count)
  expect(a.blocks.freeSlots, at).toEqual(e.blocks.freeSlots)
  const released = new Set(e.blocks.freeSlots)
  const blockUsed = (r: number) => !released.has(r)
  expect(usedRows(a.blocks, BLOCK_COLUMNS, blockUsed), at).toEqual(usedRows(e.blocks, BLOCK_COLUMNS, blockUsed))
  const ids = (m: Internals) => [...m.live.direct.entries()].filter(([, slot]) => slot !== 0)
  expect(ids(a), at).toEqual(ids(e))
  expect([...a.live.far], at).toEqual([...e.live.far])
  expect(a.live.size, at).toBe(e.live.size)
  const pending = (m: Internals) => Array.from(m.pending.cells.subarray(m.pending.head, m.pending.tail))
  expect(pending(a), at).toEqual(pending(e))
  expect(actual.liveTable(), at).toEqual(expected.liveTable())
  expect(actual.poolBlocks(), at).toEqual(expected.poolBlocks())
  expect(Array.from(actual.totals.byRow), at).toEqual(Array.from(expected.totals.byRow))
  expect(Array.from(actual.totals.byHeap), at).toEqual(Array.from(expected.totals.byHeap))
  expect(actual.residencyManager().totals(), at).toEqual(expected.residencyManager().totals())
}

function configOf(store: CaptureStore): ModelConfig {
  return resolveConfig(store.header.config as Record<string, number> | undefined, {})
}

interface Case {
  name: string
  store: () => Promise<CaptureStore>
}

const CASES: Case[] = [
  ...['deferred-60', 'demo', 'streaming-150', 'raytracing-60'].map((name) => ({
    name,
    store: async () => (await loadCaptureFile(join(GOLDEN, `${name}.hscap.gz`))).store,
  })),
  { name: 'stress (generated, 160 frames)', store: async () => scan(await generated('stress', 160)).store },
]

describe.each(CASES)('chained checkpoints of $name', ({ store: load }) => {
  let store: CaptureStore
  let reference: Replay
  let config: ModelConfig
  beforeAll(async () => {
    store = await load()
    config = configOf(store)
    // One checkpoint, at the first frame: every state is replayed from the start.
    reference = await Replay.run(store, { config, checkpointRecords: Number.POSITIVE_INFINITY })
  }, scaled(60_000))

  it('restore the model and the live creates a replay from the start reaches, at any frame', async () => {
    const records = store.records.length
    // Close together: a chain of many checkpoints, made whole again now and then.
    const dense = await Replay.run(store, { config, checkpointRecords: Math.max(50, Math.floor(records / 120)), checkpointBytes: Infinity })
    const stats = dense.checkpointStats()
    expect(stats.count).toBeGreaterThan(40)
    // Under a budget of a quarter of what they hold: thinned, each dropped one taken in by the next.
    const thin = await Replay.run(store, {
      config,
      checkpointRecords: Math.max(50, Math.floor(records / 120)),
      checkpointBytes: stats.bytes / 4,
    })
    expect(thin.checkpointStats().count).toBeLessThan(stats.count / 2)
    expect(thin.checkpointStats().bytes).toBeLessThanOrEqual(stats.bytes / 4)
    const frames = store.frames.length
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(frames - 1), { minLength: 1, maxLength: 3 }), (drawn) => {
        for (const frame of drawn) {
          const expected = reference.modelAt(frame)
          for (const [label, replay] of [['dense', dense], ['thinned', thin]] as const) {
            const actual = replay.modelAt(frame)
            expectSameModel(actual.model, expected.model, `${label}, frame ${frame}`)
            // The same live creates (their order in the map is the checkpoint's, and nothing reads it).
            const sorted = (m: Map<number, number>) => [...m].sort((x, y) => x[0] - y[0])
            expect(sorted(actual.created), `${label}, frame ${frame}`).toEqual(sorted(expected.created))
          }
        }
      }),
      { numRuns: runs(4) },
    )
    // The last frame too: the longest chain.
    expectSameModel(dense.modelAt(frames - 1).model, reference.modelAt(frames - 1).model, 'last frame')
  }, scaled(120_000))

  it('measure a checkpoint by its parts as byteSize measures it whole, a whole copy and chained ones', () => {
    const frames = store.frames.length
    const sum = (parts: Record<string, number>) => Object.values(parts).reduce((a, b) => a + b, 0)
    let shadow: ReturnType<D3D12Model['checkpoint']>['shadow'] | undefined
    const copies: D3D12Model[] = []
    let whole: D3D12Model | undefined
    reference.walk(0, frames - 1, (frame, model) => {
      if (frame % Math.max(1, Math.floor(frames / 6)) !== 0 && frame !== frames - 1) return
      // At the last frame, a whole copy beside the chained one, which holds only the rows changed since.
      if (frame === frames - 1) whole = model.checkpoint({}).copy
      const made = model.checkpoint({}, shadow)
      shadow = made.shadow
      copies.push(made.copy)
    })
    expect(copies.length).toBeGreaterThan(3)
    for (const copy of [...copies, whole!]) {
      const parts = copy.byteSizeByPart()
      expect(sum(parts)).toBe(copy.byteSize())
      expect(parts.allocs).toBeGreaterThan(0)
    }
    expect(copies[copies.length - 1].byteSizeByPart().allocs).toBeLessThan(whole!.byteSizeByPart().allocs)
  })
})
