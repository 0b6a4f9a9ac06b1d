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

  it('D3D12: an application heap whose placed resources alias', async () => {
    const { store } = scan(
      lines(
        { e: 'frame', n: 0 },
        { e: 'heap', id: 60, size: 1048576, type: 'default', name: 'AliasedTargets' },
        { e: 'placed', id: 61, heap: 60, offset: 0, kind: 'buffer', size: 524288, name: 'Early' },
        { e: 'placed', id: 62, heap: 60, offset: 262144, kind: 'buffer', size: 393216, name: 'Late' },
        { e: 'texture', id: 2, dim: '2d', format: 'R8G8B8A8_UNORM', width: 256, height: 256, name: 'Pooled' },
      ),
    )
    const engine = new LocalEngine()
    const run = await engine.addRun({ store, format: 'heapscope-capture', notes: [] })
    const whole = await engine.snapshot({ runId: run.id, frame: 0 })
    const without = await engine.snapshot({ runId: run.id, frame: 0, blocks: false })
    expectBlocksLeftOut(whole, without)
    // the two overlap from 256 KiB to 512 KiB: 640 KiB of the heap's 1 MiB held
    expect(without.pools.find((p) => p.name === 'AliasedTargets')).toMatchObject({ bytes: 1048576, used: 655360, free: 393216 })
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
