import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { eventAt, parseRmv, rmvToObserved, TOKEN, type RmvTrace } from '../../../../../../src/main/ingest/importers/rmv'
import { formatBytes } from '../../../../../../src/shared/units'

// Expected numbers below come from a separate token dump of the sample (a throwaway Python script that walks the
// RDF index and both RmtData streams bit by bit), not from this reader.
const bytes = new Uint8Array(readFileSync(new URL('../../../../../fixtures/real/rmv-sample-trace-rx6600.rmv', import.meta.url)))
const trace = parseRmv(bytes)

describe('the RX 6600 sample trace', () => {
  it('reads the adapter and the heaps', () => {
    expect(trace.container).toBe('rdf')
    expect(trace.adapter.name).toBe('AMD Radeon RX 6600')
    // AdapterInfo chunk, u32 fields after the 128-byte name: family 0x8f, revision 0xc7, device 0x73ff, clocks in MHz.
    expect(trace.adapter).toMatchObject({ familyId: 143, revisionId: 199, deviceId: 0x73ff, memoryType: 'GDDR6', memoryBusWidth: 128 })
    expect(trace.adapter.engineClockMhz).toEqual({ min: 500, max: 2044 })
    expect(trace.adapter.memoryClockMhz).toEqual({ min: 96, max: 875 })
    // GpuMemSegment chunk, three 24-byte entries: local 0x10000000 at 0, invisible 0x1ef000000 at 0x10000000,
    // system 0xffa49a000.
    expect(trace.heapSizes).toEqual({ local: 268_435_456, invisible: 8_304_721_920, system: 68_623_638_528 })
    expect(trace.adapter.heapSizes).toEqual(trace.heapSizes)
    expect(trace.segments[1]).toEqual({ heap: 'invisible', physicalAddress: 268_435_456, size: 8_304_721_920 })
  })

  it('reads both streams: the kernel driver stream (format 0.1) and the application stream (format 1.8)', () => {
    // RmtData chunk headers: pid 0 / index 0 / version 0.1 / 344817 bytes, pid 53892 / index 1 / version 1.8 / 86036 bytes.
    expect(trace.streams.map((s) => [s.index, s.processId, s.versionMajor, s.versionMinor, s.bytes])).toEqual([
      [0, 0, 0, 1, 344_817],
      [1, 53_892, 1, 8, 86_036],
    ])
    // Stream 0: 1 timestamp + 18805 page table updates + 3086 time deltas = 21892 tokens.
    // Stream 1: 1 + 1188 + 502 + 1216 + 936 + 944 + 1197 + 468 + 489 + 468 = 7409 tokens.
    expect(trace.streams.map((s) => s.tokens)).toEqual([21_892, 7_409])
  })

  it('counts every token type', () => {
    expect(trace.tokenCounts).toMatchObject({
      timestamp: 2,
      pageTableUpdate: 18_805,
      userdata: 468,
      resourceReference: 944,
      resourceBind: 1_188,
      cpuMap: 502,
      virtualFree: 468,
      virtualAllocate: 489,
      resourceCreate: 1_216,
      timeDelta: 3_086 + 1_197,
      resourceDestroy: 936,
      misc: 0,
    })
    // Rows are tokens minus time deltas: 21892 + 7409 − 4283 = 25018.
    expect(trace.events.length).toBe(25_018)
  })

  it('orders events by clock across streams', () => {
    let backwards = 0
    for (let i = 1; i < trace.events.length; i++) if (trace.events.clock[i] < trace.events.clock[i - 1]) backwards++
    expect(backwards).toBe(0)
    // First timestamp of stream 0: counter 0x106f... × 32 = 18070784055296 ticks at 10 MHz; the last token of the
    // trace is at 18071120643872, so the trace lasts 336588576 ticks = 33658.8576 ms.
    expect(trace.startClock).toBe(18_070_784_055_296)
    expect(trace.frequency).toBe(10_000_000)
    expect(trace.duration).toBeCloseTo(33_658.8576, 6)
  })

  it('names resources from the name userdata tokens', () => {
    const names = trace.userdata.filter((u) => u.type === 'name').map((u) => u.name)
    // 468 name tokens: 250 indexBuffer, 100 vertexBuffer, 50 ui_texture, 30 gameplay_texture_1k, 20 ColorRT_4k,
    // 8 Buffer, 6 DepthStencil_4k, 4 gameplay_texture_2k.
    expect(names).toHaveLength(468)
    expect(names[0]).toBe('Buffer[0]')
    expect(names.at(-1)).toBe('gameplay_texture_2k[3]')
    const families = new Map<string, number>()
    for (const n of names) families.set(n!.split('[')[0], (families.get(n!.split('[')[0]) ?? 0) + 1)
    expect(Object.fromEntries(families)).toEqual({
      Buffer: 8,
      vertexBuffer: 100,
      indexBuffer: 250,
      ui_texture: 50,
      gameplay_texture_1k: 30,
      ColorRT_4k: 20,
      DepthStencil_4k: 6,
      gameplay_texture_2k: 4,
    })
  })

  it('decodes resource descriptions', () => {
    const types = new Map<string, number>()
    for (const c of trace.creates) types.set(c.description.type, (types.get(c.description.type) ?? 0) + 1)
    // RESOURCE_CREATE type field [53:48]: 468 heaps, 358 buffers, 238 pipelines, 110 images, 30 GPU events,
    // 7 command allocators, 3 misc internal, 2 timestamps = 1216.
    expect(Object.fromEntries(types)).toEqual({
      heap: 468,
      buffer: 358,
      pipeline: 238,
      image: 110,
      gpuEvent: 30,
      commandAllocator: 7,
      miscInternal: 3,
      timestamp: 2,
    })
    // Image payload (format 1.8, the 39-byte layout): 6 depth targets of 3840×2160, format 85 (D32_FLOAT_S8_UINT).
    const depth = trace.creates.filter((c) => c.description.type === 'image' && c.description.format === 85)
    expect(depth).toHaveLength(6)
    expect(depth[0].description).toMatchObject({ width: 3840, height: 2160, depth: 1, slices: 1, mips: 1, usageFlags: 32 })
  })

  it('maps the trace into observed records', () => {
    const observed = rmvToObserved(trace)
    expect(observed.header).toEqual({
      format: 'heapscope-capture',
      version: 1,
      // 1.5: an observed trace with each heap's memory (1.2: its residency requests are `resident` and `evict` records)
      minor: 5,
      observed: 'rmv',
      source: 'rmv',
      // local + invisible = 268435456 + 8304721920
      adapter: { name: 'AMD Radeon RX 6600', vram: 8_573_157_376 },
    })
    const byKind = new Map<string, number>()
    for (const r of observed.records) byKind.set(r.e, (byKind.get(r.e) ?? 0) + 1)
    // heap = 489 virtual allocations; free = 468 virtual frees; placed = 1188 binds − 468 binds of heap resources
    // (the allocation itself) = 720; release = 468 destroys of placed resources + 2 rebinds of command allocators.
    // resident / evict = the 476 adds and 468 removes of RESOURCE_REFERENCE (below).
    // No present markers, so frames are 16.6 ms buckets: floor(33658.8576 / 16.6) + 1 = 2028.
    expect(Object.fromEntries(byKind)).toEqual({
      frame: 2028,
      heap: 489,
      placed: 720,
      release: 470,
      free: 468,
      resident: 476,
      evict: 468,
    })
    expect(observed.framesFrom).toBe('buckets')
    const last = observed.frameCount - 1
    // 21 allocations live at the end. First preference invisible: 2×128 KiB + 6×256 KiB = 1835008 (default);
    // local (CPU-visible VRAM) or system: 256 KiB + 8 KiB + 3×64 KiB + 128 KiB + 256 KiB + 4 KiB + 2×64 KiB
    // + 2×128 KiB + 2 MiB = 3354624, of which local 860160 (upload: the 210 pages the page table maps in local
    // memory, below) and system write-combined 2494464 (readback: each lane one kind of memory).
    expect([observed.usage.default[last], observed.usage.upload[last], observed.usage.readback[last]]).toEqual([
      1_835_008, 860_160, 2_494_464,
    ])
    // Page table at the end, 4 KiB pages of regular updates replayed: local 210 pages, invisible 957735 pages,
    // system 594 pages.
    expect([observed.pageTable.local[last], observed.pageTable.invisible[last], observed.pageTable.system[last]]).toEqual([
      860_160, 3_922_882_560, 2_433_024,
    ])
    // RESOURCE_REFERENCE: 476 adds and 468 removes, each inside a live allocation.
    expect(observed.residency.filter((r) => r.kind === 'makeResident')).toHaveLength(476)
    expect(observed.residency.filter((r) => r.kind === 'evict')).toHaveLength(468)
    expect(observed.resources.filter((r) => r.name !== undefined)).toHaveLength(468)
    const rt = observed.records.find((r) => r.e === 'placed' && r.name === 'ColorRT_4k[0]')
    expect(rt).toMatchObject({ kind: 'texture', width: 3840, height: 2160, format: 'R8G8B8A8_UNORM', tag: 'RenderTarget', offset: 0 })
  })

  it('cuts frames at the bucket the user chooses', () => {
    const observed = rmvToObserved(trace, { bucketMs: 1000 })
    // floor(33658.8576 / 1000) + 1 = 34 one-second frames; snapshot 0 at 6650.17 ms falls in frame 6.
    expect(observed.frameCount).toBe(34)
    expect(observed.markers.find((m) => m.name === 'Snapshot 0')?.frame).toBe(6)
  })

  it('matches the golden summary', async () => {
    await expect(summary(trace)).toMatchFileSnapshot('__snapshots__/rmv-sample-summary.txt')
  })
})

function summary(t: RmvTrace): string {
  const lines: string[] = []
  lines.push(`adapter: ${t.adapter.name} (family ${t.adapter.familyId}, device 0x${t.adapter.deviceId?.toString(16)})`)
  for (const s of t.segments) lines.push(`heap ${s.heap}: ${formatBytes(s.size)} at 0x${s.physicalAddress.toString(16)}`)
  for (const s of t.streams) {
    lines.push(`stream ${s.index}: pid ${s.processId}, format ${s.versionMajor}.${s.versionMinor}, ${s.tokens} tokens, ${s.bytes} bytes`)
  }
  lines.push(`duration: ${t.duration.toFixed(3)} ms at ${t.frequency} Hz`)
  lines.push(`tokens: ${Object.entries(t.tokenCounts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`)
  for (const s of t.snapshots) lines.push(`snapshot "${s.name}" at ${s.time.toFixed(3)} ms`)
  lines.push('first 50 events:')
  for (let i = 0; i < Math.min(50, t.events.length); i++) {
    const { time, clock: _clock, stream, offset, kind, ...rest } = eventAt(t, i)
    const fields = Object.entries(rest)
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : k.toLowerCase().includes('address') ? `0x${(v as number).toString(16)}` : v}`)
      .join(' ')
    lines.push(`  ${time.toFixed(4).padStart(11)} ms  s${stream} @${offset}  ${kind} ${fields}`)
  }
  const observed = rmvToObserved(t)
  const last = observed.frameCount - 1
  lines.push(`frames: ${observed.frameCount} (${observed.framesFrom})`)
  lines.push(`records: ${observed.records.length}`)
  lines.push(`usage at end: default ${observed.usage.default[last]}, upload ${observed.usage.upload[last]}, readback ${observed.usage.readback[last]}`)
  let peak = 0
  for (let f = 0; f <= last; f++) peak = Math.max(peak, observed.usage.default[f] + observed.usage.upload[f] + observed.usage.readback[f])
  lines.push(`peak virtual bytes: ${peak} (${formatBytes(peak)})`)
  lines.push(`page table at end: local ${observed.pageTable.local[last]}, invisible ${observed.pageTable.invisible[last]}, system ${observed.pageTable.system[last]}`)
  lines.push(`residency events: ${observed.residency.length}; warnings: ${JSON.stringify(observed.warnings)}`)
  lines.push(`kinds of first event rows: ${[...t.events.kind.subarray(0, 8)].map((k) => (k === TOKEN.timestamp ? 'T' : k)).join(' ')}`)
  return lines.join('\n') + '\n'
}
