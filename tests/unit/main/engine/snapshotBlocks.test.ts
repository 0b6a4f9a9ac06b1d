/**
 * A snapshot asked without its pools' blocks (SnapshotQuery.blocks false, as the inspector asks while its pool maps
 * are hidden): the same snapshot as with them, every pool and its figures in the same order, the block columns
 * empty. For each backend: D3D12 (memory pools, buddy pools, FastAllocator pages, application heaps), Vulkan, and
 * an observed trace.
 */
import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import type { Snapshot } from '../../../../src/shared/ipc'
import { lines, scan } from '../ingest/helpers'

const COLUMNS = ['offset', 'size', 'state', 'id'] as const

/** `without` is `whole` with each pool's block columns empty, and says so. */
function expectBlocksLeftOut(whole: Snapshot, without: Snapshot): void {
  expect(whole.blocksLeftOut).toBeUndefined()
  expect(without.blocksLeftOut).toBe(true)
  const strip = (s: Snapshot) => ({
    ...s,
    blocksLeftOut: undefined,
    pools: s.pools.map((p) => ({ ...p, offset: [], size: [], state: [], id: [] })),
  })
  expect(strip(without)).toEqual(strip(whole))
  for (const pool of without.pools) for (const c of COLUMNS) expect(pool[c], `${pool.name} ${c}`).toHaveLength(0)
}

async function compareAt(path: string, frames: (last: number) => number[]): Promise<number> {
  const engine = new LocalEngine()
  const run = await engine.addRun(await loadCaptureFile(path), {})
  let blocks = 0
  for (const frame of frames(run.store.frames.length - 1)) {
    const whole = await engine.snapshot({ runId: run.id, frame })
    const without = await engine.snapshot({ runId: run.id, frame, blocks: false })
    expectBlocksLeftOut(whole, without)
    blocks += whole.pools.reduce((n, p) => n + p.offset.length, 0)
  }
  await engine.dispose()
  return blocks
}

describe('a snapshot without its pools’ blocks', () => {
  it('D3D12: the demo’s memory pools, buddy pools and FastAllocator pages at several frames', async () => {
    const blocks = await compareAt('resources/demo/demo.hscap.gz', (last) => [0, 40, 225, last])
    expect(blocks).toBeGreaterThan(1000)
  })

  it('D3D12: an application heap and what is placed in it', async () => {
    const { store } = scan(
      lines(
        { e: 'frame', n: 0 },
        { e: 'heap', id: 50, size: 65536 * 4, type: 'upload', name: 'StagingHeap' },
        { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'buffer', size: 65536, name: 'A' },
        { e: 'placed', id: 52, heap: 50, offset: 131072, kind: 'buffer', size: 65536, name: 'B' },
        { e: 'buffer', id: 1, size: 1024, name: 'Pooled' },
      ),
    )
    const engine = new LocalEngine()
    const run = await engine.addRun({ store, format: 'heapscope-capture', notes: [] })
    const whole = await engine.snapshot({ runId: run.id, frame: 0 })
    const without = await engine.snapshot({ runId: run.id, frame: 0, blocks: false })
    expectBlocksLeftOut(whole, without)
    expect(without.pools.find((p) => p.heapId === 50)).toMatchObject({ name: 'StagingHeap', used: 131072, free: 131072 })
    await engine.dispose()
  })

  it('Vulkan: a capture recorded on an H200', async () => {
    const blocks = await compareAt('tests/fixtures/real/h200-offscreen/h200-offscreen.hscap', (last) => [0, last])
    expect(blocks).toBeGreaterThan(0)
  })

  it('an observed trace: the RMV sample', async () => {
    const blocks = await compareAt('tests/fixtures/real/rmv-sample-trace-rx6600.rmv', () => [365])
    expect(blocks).toBeGreaterThan(700)
  })
})
