/**
 * `heapscope report --json` on the real observed traces: each gives the trace's own heaps, by the memory it names.
 *
 * - The RMV sample (RX 6600, 2028 frames of 16.6 ms: it has no present markers): 489 virtual allocations, by their
 *   first preferred heap 476 invisible (4 030 988 288 bytes, 468 of them freed, leaving 8 of 1 835 008 bytes),
 *   7 local (860 160 bytes) and 6 system (2 494 464 bytes), none of those 13 freed. Every invisible allocation is
 *   live in frame 365, so the peak there is 4 030 988 288 + 860 160 + 2 494 464 = 4 034 342 912 bytes and the end
 *   1 835 008 + 860 160 + 2 494 464 = 5 189 632. The test adds the importer's own list of allocations up frame by
 *   frame, apart from the replay, and finds the same.
 * - The VMA dump (RX 6600 XT): its blocks by memory type are the dump's own `Stats.BlockBytes`: type 0 (DEVICE_LOCAL)
 *   83 918 848, type 1 (HOST_VISIBLE HOST_COHERENT) 33 558 528, type 3 (… HOST_CACHED) 83 914 752, in all
 *   `Total.BlockBytes` 201 392 128; free in them `Total.BlockBytes − Total.AllocationBytes` = 127 990 628. With
 *   `--model vulkan` the Vulkan model replays the same dump instead: by memory heap, 33 558 528 + 83 914 752 =
 *   117 473 280 in heap 0 and 83 918 848 in heap 1.
 * - The VMA 2.x sample: one 32 MiB block of type 0 and one of type 1.
 * - The D3D12MA dump: DEFAULT blocks 64 + 32 + 16 MiB and a 16 MiB custom pool block, UPLOAD 8 MiB, READBACK 8 MiB
 *   and a CUSTOM 4 MiB staging pool: 148 MiB.
 * - The .utrace scene (scene.ts): three heaps (4 + 16 + 2 MiB) all along, and 8 MiB committed render targets made
 *   in frames 5, 20 and 40, the first freed in frame 30: 22 + 16 = 38 MiB first in frame 20, and 38 MiB at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../../../src/main/cli/index'
import { LocalEngine } from '../../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../../src/main/ingest/read'
import { parseRmv, rmvToObserved } from '../../../../../src/main/ingest/importers/rmv'
import { zstdDecompress } from '../../../../../src/main/ingest/importers/rmv/zstd'
import { MiB } from '../../../../../src/shared/units'
import { catchCliOutput } from '../../cli/output'
import { sceneTrace } from '../../ingest/importers/utrace/scene'

const fixture = (name: string) => new URL(`../../../../fixtures/${name}`, import.meta.url).pathname
const RMV = fixture('real/rmv-sample-trace-rx6600.rmv')

describe('heapscope report on observed traces', () => {
  const io = catchCliOutput('heapscope-observed-samples-')
  const report = async (file: string) => {
    io.out = ''
    expect(await main(['report', '--json', file])).toBe(0)
    return JSON.parse(io.out)
  }

  it('gives the RMV sample’s local, invisible and system memory as the trace has them', async () => {
    const r = await report(RMV)
    expect(r.frames).toBe(2028)
    expect(r.peak).toEqual({ frame: 365, bytes: 4_034_342_912 })
    expect(r.heaps).toEqual({
      system: { peakBytes: 2_494_464, endBytes: 2_494_464 },
      local: { peakBytes: 860_160, endBytes: 860_160 },
      invisible: { peakBytes: 4_030_988_288, endBytes: 1_835_008 },
    })
    expect(r.byPlacement).toBeUndefined()
    expect(r.transient).toBeUndefined()
    // the trace's residency requests: 476 make-resident, 468 evict (each of a whole allocation)
    expect(r.residency).toMatchObject({ makeResident: 476, evictions: 468 })

    // the importer's own list of virtual allocations, added up apart from the replay
    const observed = rmvToObserved(parseRmv(new Uint8Array(readFileSync(RMV)), { decompress: zstdDecompress }))
    const at = (frame: number) => {
      const sums: Record<string, number> = {}
      for (const h of observed.heaps) if (h.allocated <= frame && (h.freed === undefined || h.freed > frame)) sums[h.memory] = (sums[h.memory] ?? 0) + h.size
      return sums
    }
    const sum = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0)
    expect(sum(at(365))).toBe(r.peak.bytes)
    for (let f = 0; f < observed.frameCount; f += 97) expect(sum(at(f))).toBeLessThanOrEqual(r.peak.bytes)
    expect(at(observed.frameCount - 1)).toEqual({ system: 2_494_464, local: 860_160, invisible: 1_835_008 })
  })

  it('gives a VMA dump’s blocks by memory type, as its own statistics count them', async () => {
    const r = await report(fixture('real/vma-dump-rx6600xt.json'))
    expect(r.peak).toEqual({ frame: 0, bytes: 201_392_128 })
    expect(r.heaps).toEqual({
      'type 0 DEVICE_LOCAL': { peakBytes: 83_918_848, endBytes: 83_918_848 },
      'type 1 HOST_VISIBLE HOST_COHERENT': { peakBytes: 33_558_528, endBytes: 33_558_528 },
      'type 3 HOST_VISIBLE HOST_COHERENT HOST_CACHED': { peakBytes: 83_914_752, endBytes: 83_914_752 },
    })
    expect(r.waste.poolFreeBytes).toBe(201_392_128 - 73_401_500)
    expect(r.resources).toMatchObject({ created: 132, liveAtEnd: 132 })

    // --model vulkan: the explicit second run, the same blocks through the Vulkan model, by memory heap and type
    io.out = ''
    expect(await main(['report', '--json', '--model', 'vulkan', fixture('real/vma-dump-rx6600xt.json')])).toBe(0)
    const modelled = JSON.parse(io.out)
    expect(modelled.heaps).toEqual({
      // MemoryInfo "Heap 0" Stats.BlockBytes (types 1 and 3), "Heap 1" (type 0)
      'Heap 0': { peakBytes: 117_473_280, endBytes: 117_473_280 },
      'Heap 1': { peakBytes: 83_918_848, endBytes: 83_918_848 },
    })
    expect(Object.keys(modelled.byPlacement)).toEqual(['Type 0', 'Type 1', 'Type 3'])

    const v2 = await report(fixture('real/vma2-dump-sample.json'))
    expect(v2.heaps).toEqual({
      'type 0 DEVICE_LOCAL': { peakBytes: 32 * MiB, endBytes: 32 * MiB },
      'type 1 HOST_VISIBLE HOST_COHERENT': { peakBytes: 32 * MiB, endBytes: 32 * MiB },
    })

    const d3d12ma = await report(fixture('d3d12ma-dump-utf16.json'))
    expect(d3d12ma.heaps).toEqual({
      DEFAULT: { peakBytes: 128 * MiB, endBytes: 128 * MiB },
      UPLOAD: { peakBytes: 8 * MiB, endBytes: 8 * MiB },
      READBACK: { peakBytes: 8 * MiB, endBytes: 8 * MiB },
      CUSTOM: { peakBytes: 4 * MiB, endBytes: 4 * MiB },
    })
    expect(d3d12ma.peak).toEqual({ frame: 0, bytes: 148 * MiB })
  })

  it('gives a .utrace’s Video memory heaps and committed resources', async () => {
    const file = join(io.dir, 'scene.utrace')
    writeFileSync(file, sceneTrace())
    const r = await report(file)
    expect(r.frames).toBe(61)
    expect(r.peak).toEqual({ frame: 20, bytes: 38 * MiB })
    expect(r.heaps).toEqual({ video: { peakBytes: 38 * MiB, endBytes: 38 * MiB } })
  })

  it('opens in the engine as the observed backend’s run: its residency, no What-if and no transients', async () => {
    const engine = new LocalEngine()
    for (const file of [RMV, fixture('real/vma2-dump-sample.json'), fixture('real/gpgmm-dawn-queuewritebuffer.json')]) {
      const run = await engine.addRun(await loadCaptureFile(file))
      const summary = await engine.summary(run.id)
      expect([summary.backend, summary.capabilities]).toEqual(['observed', { residency: true }])
      // RMV and GPGMM traces record time, cut into frames the user may lengthen; a VMA dump is one moment
      expect(summary.timed).toBe(file.endsWith('.json') && file.includes('vma2') ? undefined : true)
      // no model placed anything: nothing for a comparison to say it was "modelled by"
      expect('modelName' in summary).toBe(false)
      expect(await engine.runConfig(run.id)).toEqual([])
    }
  })

  it('lists the RMV sample’s memory kinds by their peak, the largest first, as the timeline stacks its lanes', async () => {
    const engine = new LocalEngine()
    const run = await engine.addRun(await loadCaptureFile(RMV))
    const memory = (await engine.summary(run.id)).series.map((s) => s.name).filter((name) => name.startsWith('memory.'))
    // peaks: invisible 4 030 988 288, system 2 494 464, local 860 160 (the report above)
    expect(memory).toEqual([
      'memory.invisible.heapBytes',
      'memory.invisible.placedBytes',
      'memory.system.heapBytes',
      'memory.system.placedBytes',
      'memory.local.heapBytes',
      'memory.local.placedBytes',
    ])
  })

  it('refuses --config on an observed trace: no model replays it', async () => {
    expect(await main(['report', '--config', 'bufferPool.size=1048576', fixture('real/vma2-dump-sample.json')])).not.toBe(0)
    expect(io.err).toContain('--config does not apply: the observed backend runs no model')
  })
})
