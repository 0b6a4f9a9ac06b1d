/**
 * A GPGMM trace on the command line: by default the run is what GPGMM did, its own heaps; `--model d3d12` replays
 * the trace's requests through the UE 5.8 D3D12 model, without GPGMM's heaps.
 *
 * The sample's figures, read from the JSON: four `Heap` objects, each `Heap.CreateHeap` SizeInBytes 4194304, made
 * at ts 71874…73976 and deleted at ts 83863…85015; the first event is at ts 46, so with 16666 µs frames all four are
 * live in frame 4 ((71874 − 46) / 16666 = 4.31 … (73976 − 46) / 16666 = 4.44) and all are freed in frame 5
 * ((83863 − 46) / 16666 = 5.03). Its four requests are buffers: 4000000 bytes DEFAULT, 4194304 UPLOAD twice and
 * 250000 READBACK. Each heap's snapshot gives "HeapSegment": 0 (DXGI_MEMORY_SEGMENT_GROUP_LOCAL).
 */
import { describe, expect, it } from 'vitest'
import { main } from '../../../../src/main/cli/index'
import { catchCliOutput } from './output'

const GPGMM = new URL('../../../fixtures/real/gpgmm-dawn-queuewritebuffer.json', import.meta.url).pathname
const HEAP = 4194304

describe('heapscope report on a GPGMM trace', () => {
  const io = catchCliOutput('heapscope-observed-')

  const report = async (...args: string[]) => {
    io.out = ''
    expect(await main(['report', '--json', ...args, GPGMM])).toBe(0)
    return JSON.parse(io.out)
  }
  const endBytes = (r: { heaps: Record<string, { endBytes: number }> }) => Object.values(r.heaps).reduce((sum, h) => sum + h.endBytes, 0)

  it('reports GPGMM’s own heaps: their sum at the peak, nothing at the end, and no model placement', async () => {
    const observed = await report()
    expect(observed.peak).toEqual({ frame: 4, bytes: 4 * HEAP })
    expect(endBytes(observed)).toBe(0)
    // by the memory GPGMM counts each heap against: every heap's snapshot says "HeapSegment": 0, the local segment
    // (the adapter is UMA: GPGMM makes every heap CUSTOM write-back L0)
    expect(observed.heaps).toEqual({ local: { peakBytes: 4 * HEAP, endBytes: 0 } })
    expect(observed.byPlacement).toBeUndefined()
    expect(observed.transient).toBeUndefined()
    expect(observed.waste).toEqual({ poolFreeBytes: 0 })
    expect(observed.resources).toMatchObject({ created: 4, released: 4, liveAtEnd: 0 })
  })

  it('prints no placement, transients, alignment or pending frees in its tables: no model ran', async () => {
    io.out = ''
    expect(await main(['report', GPGMM])).toBe(0)
    expect(io.out).not.toContain('by placement')
    expect(io.out).not.toContain('transients')
    expect(io.out).not.toContain('alignment')
    expect(io.out).not.toContain('pending free')
    expect(io.out).toMatch(/waste at end\n {2}free in heaps {2}0 B\n/)
    io.out = ''
    expect(await main(['report', '--model', 'd3d12', GPGMM])).toBe(0)
    expect(io.out).toContain('by placement')
    expect(io.out).toMatch(/transients\n {2}graph executions +0\n/)
    expect(io.out).toMatch(/ {2}alignment +\S+/)
  })

  it('prints a Vulkan run’s own counts, not the residency and transient figures its model has not', async () => {
    io.out = ''
    const vulkan = new URL('../../../fixtures/real/h200-offscreen/h200-offscreen.hscap', import.meta.url).pathname
    expect(await main(['report', vulkan])).toBe(0)
    // the H200 capture (its README): three vkAllocateMemory, the render target's dedicated, all three live from
    // frame 40 to 80; five binds, two at offsets 65536 and 81920 of the shared 128 KiB allocation; a map and a
    // submit each of the 120 frames; seven names, six stacks, no driver report
    expect(io.out).toMatch(/residency\n {2}budget at end +\S+ GiB\n {2}over-budget frames +0\n/)
    expect(io.out).not.toContain('evictions')
    expect(io.out).not.toContain('transients')
    const counts = io.out.slice(io.out.indexOf('\nvulkan\n'))
    for (const [label, n] of [
      ['allocations \\(vkAllocateMemory\\)', 3],
      ['dedicated', 1],
      ['most live at once', 3],
      ['shared by two or more resources', 1],
      ['binds', 5],
      ['at a non-zero offset', 2],
      ['maps', 120],
      ['flushes', 0],
      ['submits', 120],
      ['names', 7],
      ['stacks', 6],
      ['driver memory reports', 0],
    ] as const) {
      expect(counts).toMatch(new RegExp(`\\n {2,4}${label} +${n}\\n`))
    }
  })

  it('diffs an observed run against a modelled one with — where the observed report has no figure', async () => {
    io.out = ''
    const modelled = new URL('../../../fixtures/real/h200-offscreen/h200-offscreen.hscap', import.meta.url).pathname
    expect(await main(['diff', GPGMM, modelled])).toBe(0)
    // B's placements by memory type are the Vulkan model's; A, what GPGMM did, has none
    expect(io.out).toMatch(/^byPlacement\.Type \d+\.peakBytes +— +[\d.]+ [KMG]iB +\+/m)
    expect(io.out).not.toMatch(/^byPlacement\.\S+ +0 B/m)
  })

  it('replays the requests through the model with --model d3d12, without GPGMM’s heaps', async () => {
    const modelled = await report('--model', 'd3d12')
    // the model's placements: the DEFAULT buffer in a 64 MiB shared buffer pool, the two UPLOAD buffers in one
    // 64 MiB upload block, the 250000-byte READBACK buffer committed at 64 KiB granularity (262144); the pools are
    // kept at the end
    expect(modelled.byPlacement).toEqual({
      Committed: { peakBytes: 262144, endBytes: 262144, count: 0 },
      SharedBufferPool: { peakBytes: 64 * 2 ** 20, endBytes: 64 * 2 ** 20, count: 0 },
      UploadBigBlock: { peakBytes: 64 * 2 ** 20, endBytes: 64 * 2 ** 20, count: 0 },
    })
    expect(modelled.peak).toEqual({ frame: 4, bytes: 2 * 64 * 2 ** 20 + 262144 })
    expect(modelled.resources).toMatchObject({ created: 4, released: 4, liveAtEnd: 0 })
  })

  it('takes --model in diff: both runs are the model’s', async () => {
    for (const [args, peak] of [
      [[], 4 * HEAP],
      [['--model', 'd3d12'], 2 * 64 * 2 ** 20 + 262144],
    ] as const) {
      io.out = ''
      expect(await main(['diff', '--json', ...args, GPGMM, GPGMM])).toBe(0)
      const diff = JSON.parse(io.out)
      expect([diff.a.peak.bytes, diff.b.peak.bytes]).toEqual([peak, peak])
    }
  })

  it('refuses a model it does not have, and one that does not replay a GPGMM trace', async () => {
    expect(await main(['report', '--model', 'metal', GPGMM])).toBe(1)
    expect(io.err).toContain('--model expects d3d12 or vulkan, got "metal"')
    io.err = ''
    expect(await main(['report', '--model', 'vulkan', GPGMM])).not.toBe(0)
    expect(io.err).toContain("a GPGMM trace's requests replay through the d3d12 model, not vulkan")
  })
})
