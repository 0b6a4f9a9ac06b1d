/**
 * `heapscope report` and `diff` on Vulkan captures: the run report of the hand-made capture worked out by hand,
 * in the shape of a D3D12 run's (heaps by memory heap, byPlacement by memory type), the Vulkan config keys on the
 * command line, and a diff of two allocator configs of one capture.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../../../src/main/cli'
import { MiB } from '../../../../../src/shared/units'
import { DEVICE, HAND_RECORDS, header } from './helpers'

describe('heapscope report and diff on a Vulkan capture', () => {
  let out = ''
  let err = ''
  let file = ''
  beforeEach(() => {
    out = ''
    err = ''
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-vulkan-report-'))
    file = join(dir, 'hand.hscap')
    writeFileSync(file, [header(), ...HAND_RECORDS].map((r) => JSON.stringify(r)).join('\n') + '\n')
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true))
  })
  afterEach(() => vi.restoreAllMocks())

  it('reports the run by memory heap and memory type', async () => {
    expect(await main(['report', file, '--json'])).toBe(0)
    expect(JSON.parse(out)).toEqual({
      file: 'hand.hscap',
      format: 'heapscope-capture',
      api: 'vulkan',
      frames: 4,
      records: 21,
      partial: false,
      warnings: {},
      // buffer 1, texture 2, buffer 3, placed 11; buffer 1 released; T_Hand and View.UB named
      resources: { created: 4, released: 1, named: 2, liveAtEnd: 3 },
      // 1662976 + 1310720 from frame 2 on (frame 1: 1662976 + 1179648)
      peak: { frame: 2, bytes: 2973696 },
      heaps: {
        'Heap 0': { peakBytes: 1662976, endBytes: 1662976 },
        'Heap 1': { peakBytes: 1310720, endBytes: 1310720 },
      },
      byPlacement: {
        // The block and the dedicated texture; only the texture is alive at the end.
        'Type 0': { peakBytes: 1662976, endBytes: 1662976, count: 1 },
        // The uniform buffer's 1 MiB block, two 64 KiB linear blocks and the 64 KiB ring: 1048576 + 3 × 65536.
        'Type 1': { peakBytes: 1245184, endBytes: 1245184, count: 1 },
        'Type 2': { peakBytes: 65536, endBytes: 65536, count: 1 },
      },
      // Free at the end: heap 0's empty block 1048576, heap 1's 1310720 − 8192 = 1302528: 2351104.
      waste: { alignmentBytes: 0, poolFreeBytes: 2351104, pendingFreeBytes: 0 },
      // Heap 0 is the DEVICE_LOCAL one; frame 3 set its budget to 800 MiB.
      residency: { budgetBytes: 800 * MiB, evictions: 0, evictedBytes: 0, makeResident: 0, overBudgetFrames: 0 },
      transient: { graphs: 0, heaps: 0, aliasingSavingsBytes: 0, aliasingSavingsPeakBytes: 0, aliasingSavingsPeakFrame: 0, placedCacheHitRate: 0 },
      // the application's heap 10 with buffer 11 placed at its offset 0, one flush, a submit per frame
      vulkan: {
        allocations: 1,
        dedicatedAllocations: 0,
        peakLiveAllocations: 1,
        binds: 1,
        bindsAtOffset: 0,
        sharedAllocations: 0,
        maps: 0,
        flushes: 1,
        submits: 4,
        names: 0,
        stacks: 0,
        driverReports: 0,
      },
    })
  })

  it('prints the same as tables, and takes Vulkan config keys', async () => {
    expect(await main(['report', file])).toBe(0)
    expect(out).toContain('(vulkan)')
    expect(out).toMatch(/Heap 0\s+1\.59 MiB\s+1\.59 MiB/)
    expect(out).toMatch(/Type 2\s+64\.0 KiB\s+64\.0 KiB\s+1/)
    out = ''
    // With dedicated allocations from 1 MiB, the 614400-byte texture joins the buffer in the 1 MiB block.
    expect(await main(['report', file, '--json', '--config', 'vulkan.dedicatedMinSize=1MiB', '--config', 'bufferPool.size=64MiB'])).toBe(0)
    expect(JSON.parse(out).heaps['Heap 0']).toEqual({ peakBytes: 1048576, endBytes: 1048576 })
    out = ''
    expect(await main(['report', file, '--config', 'vulkan.nope=1'])).toBe(1)
    expect(err).toMatch(/unknown Vulkan config key "vulkan.nope"/)
  })

  it('diffs one capture under two allocator configs, and fails on the growth', async () => {
    const b = ['--config-b', 'vulkan.dedicatedMinSize=1MiB', '--config-b', 'vulkan.textureAllocator=1']
    expect(await main(['diff', file, ...b, '--json'])).toBe(0)
    const diff = JSON.parse(out)
    // B: the texture in a 1 MiB buddy block of its own next to the buffers' 1 MiB block: heap 0 2 MiB.
    expect(diff.b.heaps['Heap 0']).toEqual({ peakBytes: 2 * MiB, endBytes: 2 * MiB })
    expect(diff.delta['heaps.Heap 0.peakBytes']).toBe(2 * MiB - 1662976)
    // 2097152 + 1310720 = 3407872 against 2973696: 14.6 % more.
    expect(diff.b.peak.bytes).toBe(3407872)
    expect(diff.peakGrowthPercent).toBeCloseTo(((3407872 - 2973696) / 2973696) * 100, 10)
    // The texture is matched by name; its buddy block is the power of two above 614400.
    expect(diff.resources.counts).toEqual({ onlyA: 0, onlyB: 0, changed: 1, same: 2 })
    expect(diff.resources.changed[0]).toEqual({
      name: 'T_Hand',
      match: 'name',
      a: { id: 2, placement: 'Type 0', heap: 'Heap 0', size: 614400 },
      b: { id: 2, placement: 'Type 0', heap: 'Heap 0', size: 1048576 },
      changes: ['size'],
    })
    out = ''
    expect(await main(['diff', file, ...b, '--fail-on-growth', '10'])).toBe(3)
    expect(err).toMatch(/peak heap bytes grew 14\.60%, more than 10%/)
  })
  it('takes the header budget when the heaps carry none, and counts the frames a heap holds more than it', async () => {
    // Heap 0 (DEVICE_LOCAL) has no budget of its own: the header's 1 MiB applies to it. Frame 0: buffer 1's
    // 1 MiB block (1 MiB, not over). Frames 1–3: plus buffer 2's dedicated 600 KiB (≥ 512 KiB) → over. Buffer 2,
    // released in frame 2, is freed when frame 4 begins (2 frames in flight): frame 4 is not over.
    const device = { ...DEVICE, memoryHeaps: DEVICE.memoryHeaps.map(({ size, flags }) => ({ size, flags })) }
    const bits = (size: number) => ({ size, alignment: 256, memoryTypeBits: 1 })
    const records = [
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 100 * 1024, memoryRequirements: bits(100 * 1024) },
      { e: 'frame', n: 1 },
      { e: 'buffer', id: 2, size: 600 * 1024, memoryRequirements: bits(600 * 1024) },
      { e: 'frame', n: 2 },
      { e: 'release', id: 2 },
      { e: 'frame', n: 3 },
      { e: 'frame', n: 4 },
    ]
    const budgeted = join(mkdtempSync(join(tmpdir(), 'heapscope-vulkan-budget-')), 'budget.hscap')
    writeFileSync(budgeted, [header({ vulkan: device, budget: 1 * MiB }), ...records].map((r) => JSON.stringify(r)).join('\n') + '\n')
    expect(await main(['report', budgeted, '--json'])).toBe(0)
    expect(JSON.parse(out).residency).toEqual({
      budgetBytes: 1 * MiB,
      evictions: 0,
      evictedBytes: 0,
      makeResident: 0,
      overBudgetFrames: 3,
    })
  })

  it('refuses to route a Vulkan capture, with exit 1 and a message saying why', async () => {
    expect(await main(['route', file])).toBe(1)
    expect(out).toBe('')
    expect(err).toMatch(/hand\.hscap is a Vulkan capture \(header "api": "vulkan"\); route explains D3D12 placements only/)
  })
})
