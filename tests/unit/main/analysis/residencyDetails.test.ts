import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { Snapshots } from '../../../../src/main/analysis/d3d12/snapshot'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { resolveConfig } from '../../../../src/shared/model'

const MiB = 1024 * 1024

// A 1 MiB acceleration structure lands in the 32 MiB AccelerationStructurePool, whose heap has HIGH residency
// priority (§3.7); a 20 MiB vertex buffer is over bufferPool.maxAllocation (16 MiB), so Committed, its own object.
// Budget 40 MiB. Frame 0 uses both: 52 MiB resident, all in use, one over-budget frame. Frames 1 and 2 use the
// buffer only: over budget, the least recently used object not in use is the pool (last used at frame 0), evicted
// in spite of its priority (§9 「按最近最少使用的顺序驱逐其他对象」).
const CAPTURE = [
  { format: 'heapscope-capture', version: 1 },
  { e: 'frame', n: 0 },
  { e: 'budget', bytes: 40 * MiB },
  { e: 'buffer', id: 1, size: MiB, usage: ['Static', 'AccelerationStructure'], name: 'BLAS.Rock' },
  { e: 'buffer', id: 2, size: 20 * MiB, usage: ['Static', 'VertexBuffer'], name: 'Big.VB' },
  { e: 'use', ids: [1, 2] },
  { e: 'frame', n: 1 },
  { e: 'use', ids: [2] },
  { e: 'frame', n: 2 },
  { e: 'use', ids: [2] },
]

async function snapshots(): Promise<Snapshots> {
  const file = join(mkdtempSync(join(tmpdir(), 'heapscope-residency-')), 'capture.hscap')
  writeFileSync(file, CAPTURE.map((r) => JSON.stringify(r)).join('\n') + '\n')
  const { store } = await loadCaptureFile(file)
  return new Snapshots(await Replay.run(store, { config: resolveConfig(undefined, {}) }))
}

describe("a resource's details name the residency object holding its memory", () => {
  it('gives the pool’s object for a pooled resource and its own for a committed one, with size, state, last use and priority', async () => {
    const snaps = await snapshots()
    expect(snaps.details('r', 0, 1)?.residency).toEqual({
      object: 0,
      label: 'DEFAULT/AccelerationStructure/0',
      bytes: 32 * MiB,
      priority: 'high',
      resident: true,
      lastUsedFrame: 0,
    })
    expect(snaps.details('r', 0, 2)?.residency).toEqual({
      object: 1,
      label: 'Committed Big.VB',
      bytes: 20 * MiB,
      priority: 'normal',
      resident: true,
      lastUsedFrame: 0,
    })
    // evicted at frame 1 by recency, its priority notwithstanding; the buffer stays, used at frame 2
    expect(snaps.details('r', 2, 1)?.residency).toMatchObject({ object: 0, priority: 'high', resident: false, lastUsedFrame: 0 })
    expect(snaps.details('r', 2, 2)?.residency).toMatchObject({ object: 1, resident: true, lastUsedFrame: 2 })
  })

  it('gives none where the model manages no residency object (residency off)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'heapscope-residency-')), 'capture.hscap')
    writeFileSync(file, CAPTURE.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const { store } = await loadCaptureFile(file)
    const replay = await Replay.run(store, { config: resolveConfig(undefined, { 'residency.enabled': 0 }) })
    expect(new Snapshots(replay).details('r', 2, 2)?.residency).toBeNull()
  })
})
