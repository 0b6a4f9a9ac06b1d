import { describe, expect, it } from 'vitest'
import { checkExitCode, formatCheck, runCheck } from '../../../../src/main/cli/check'
import type { CaptureHeader, CaptureRecord } from '../../../../src/shared/capture'
import type { VulkanCaptureHeader, VulkanCaptureRecord } from '../../../../src/main/model/vulkan/captureTypes'
import { recordsOf } from '../../../../src/main/ingest/records'
import { checkStore } from '../../../../src/main/analysis/checks'
import { scan } from '../ingest/helpers'

const d3d12: CaptureHeader = { format: 'heapscope-capture', version: 1, api: 'd3d12' }

const cliExample: CaptureRecord[] = [
  { e: 'frame', n: 12 },
  { e: 'heap', id: 50, size: 65536, type: 'default' },
  { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'], name: 'GBufferA' },
  { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'] },
  { e: 'barrier', after: 51 },
  { e: 'access', id: 51, op: 'write' },
  { e: 'barrier', after: 52, before: 51 },
  { e: 'access', id: 52, op: 'write' },
  { e: 'access', id: 51, op: 'read' },
]

describe('heapscope check', () => {
  it('prints exactly the JSON of docs/cli.md, each hazard’s resources named', async () => {
    const result = await runCheck(cliExample, d3d12)
    expect(formatCheck(result, true)).toBe(
      '{"hazards":[{"frame":12,"rule":"access-inactive","resources":[51,52],"heap":50,"range":[0,65536],' +
        '"message":"texture 51 read while inactive: 52 was activated on the same bytes at frame 12","names":["GBufferA",""]}],' +
        '"warnings":{},"warningList":[]}\n',
    )
    expect(checkExitCode(result)).toBe(4)
  })

  it('reads records from an async source too, and exits 0 on a clean capture', async () => {
    async function* source(): AsyncGenerator<CaptureRecord> {
      for (const r of cliExample.slice(0, -1)) yield r
    }
    const result = await runCheck(source(), d3d12)
    expect(result).toEqual({ hazards: [], warnings: {}, warningList: [] })
    expect(checkExitCode(result)).toBe(0)
    expect(formatCheck(result, false)).toBe('No aliasing hazard found.\n')
  })

  it('follows the header\'s aliasing model, or the caller\'s', async () => {
    const twoInOneSubmit: CaptureRecord[] = [
      ...cliExample.slice(0, 4),
      { e: 'access', id: 51, op: 'write' },
      { e: 'access', id: 52, op: 'write' },
    ]
    const advanced = await runCheck(twoInOneSubmit, { ...d3d12, aliasing: 'advanced' } as CaptureHeader)
    expect(advanced.hazards.map((h) => h.rule)).toEqual(['barrier-missing'])
    const simple = await runCheck(twoInOneSubmit, d3d12)
    expect(simple.hazards.map((h) => h.rule)).toEqual(['access-inactive', 'access-inactive'])
    const overridden = await runCheck(twoInOneSubmit, d3d12, { aliasing: 'advanced' })
    expect(overridden.hazards.map((h) => h.rule)).toEqual(['barrier-missing'])
  })

  it('counts the Vulkan rules of a Vulkan capture, and gives each message to whoever asks', async () => {
    const header: VulkanCaptureHeader = {
      format: 'heapscope-capture',
      version: 1,
      minor: 1,
      api: 'vulkan',
      vulkan: {
        memoryHeaps: [{ size: 1 << 30, flags: ['DEVICE_LOCAL'] }, { size: 1 << 30, flags: [] }],
        memoryTypes: [
          { heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] },
          { heapIndex: 1, propertyFlags: ['HOST_VISIBLE'] },
        ],
        maxMemoryAllocationCount: 2,
        bufferImageGranularity: 1024,
        nonCoherentAtomSize: 64,
      },
    }
    const records: VulkanCaptureRecord[] = [
      { e: 'frame', n: 3 },
      { e: 'heap', id: 50, size: 65536, memoryType: 0 },
      { e: 'heap', id: 60, size: 4096, memoryType: 1 },
      { e: 'heap', id: 70, size: 4096, memoryType: 1 }, // a third memory: over the limit of 2
      { e: 'placed', id: 7, heap: 50, offset: 100, kind: 'buffer', size: 1000, memoryRequirements: { size: 1000, alignment: 256, memoryTypeBits: 1 } },
      { e: 'placed', id: 8, heap: 50, offset: 65000, kind: 'buffer', size: 1000, memoryRequirements: { size: 1000, alignment: 8, memoryTypeBits: 1 } },
      { e: 'placed', id: 9, heap: 50, offset: 1536, kind: 'texture', memoryRequirements: { size: 512, alignment: 512, memoryTypeBits: 1 } },
      { e: 'write', memory: 60, offset: 0, size: 10 }, // never flushed: reported when the capture ends
    ]
    const messages: string[] = []
    const result = await runCheck(records, header, { onWarning: (rule, message) => messages.push(`${rule}: ${message}`) })
    expect(result.hazards).toEqual([])
    expect(result.warnings).toEqual({ 'alloc-count-exceeded': 1, 'bind-misaligned': 1, 'bind-out-of-range': 1, 'granularity-conflict': 1, 'flush-misaligned': 1 })
    // the same warnings one by one, each with its frame and message
    expect(result.warningList.map((w) => `${w.rule}: ${w.message}`)).toEqual(messages)
    expect(result.warningList.every((w) => w.frame === 3)).toBe(true)
    expect(messages).toEqual([
      'alloc-count-exceeded: vkAllocateMemory of 4096 bytes (app, type 1) at frame 3: 3 live allocations, over maxMemoryAllocationCount 2',
      'bind-misaligned: buffer 7 bound at offset 100 of memory 50 at frame 3: not a multiple of its alignment 256 (100 % 256 = 100)',
      "bind-out-of-range: buffer 8 bound at offset 65000 of memory 50 at frame 3: [65000, 66000) ends past the memory's 65536 bytes",
      // Buffer 7 [100, 1100) ends on page 1 (1099 / 1024), where texture 9 [1536, 2048) starts.
      'granularity-conflict: buffer 7 [100, 1100) and texture 9 [1536, 2048) on memory 50 share a 1024-byte page (bufferImageGranularity) at frame 3',
      'flush-misaligned: memory 60 (type 1: HOST_VISIBLE without HOST_COHERENT): bytes [0, 10) written at frame 3 and not ' +
        'flushed with a range aligned to nonCoherentAtomSize 64 before a submit',
    ])
    expect(checkExitCode(result)).toBe(0)
    expect(formatCheck(result, false)).toBe(
      [
        'No aliasing hazard found.',
        '5 Vulkan usage warnings:',
        ...result.warningList.map((w) => `  frame 3  ${w.rule.padEnd(20)}  ${w.message}`),
        'by rule:',
        '  alloc-count-exceeded  1',
        '  bind-misaligned       1',
        '  bind-out-of-range     1',
        '  granularity-conflict  1',
        '  flush-misaligned      1',
        '',
      ].join('\n'),
    )
  })

  it('does not run the Vulkan rules on a D3D12 capture', async () => {
    const records: VulkanCaptureRecord[] = [
      { e: 'heap', id: 50, size: 65536 },
      { e: 'placed', id: 7, heap: 50, offset: 100, kind: 'buffer', size: 1000, memoryRequirements: { size: 1000, alignment: 256, memoryTypeBits: 1 } },
    ]
    expect((await runCheck(records, d3d12)).warnings).toEqual({})
  })

  it('lists hazards one per line in the readable form', async () => {
    const result = await runCheck(cliExample, d3d12)
    expect(formatCheck(result, false)).toBe(
      [
        '1 aliasing hazard:',
        '  frame 12  access-inactive  heap 50 [0, 65536)  resources #51 GBufferA, #52: texture 51 read while inactive: 52 was ' +
          'activated on the same bytes at frame 12',
        '',
      ].join('\n'),
    )
  })
})

describe('heapscope check over what the reader keeps', () => {
  const header = (aliasing: 'simple' | 'advanced') =>
    JSON.stringify({ format: 'heapscope-capture', version: 1, api: 'd3d12', aliasing })
  const text = (aliasing: 'simple' | 'advanced', ...records: object[]) =>
    [header(aliasing), ...records.map((r) => JSON.stringify(r))].join('\n') + '\n'
  async function checkText(capture: string) {
    const { store } = scan(capture)
    return runCheck(recordsOf(store), store.header, { reading: store.warnings })
  }
  const two = [
    { e: 'frame', n: 1 },
    { e: 'heap', id: 50, size: 65536 },
    { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'] },
    { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'] },
  ]

  it('keeps a barrier naming nothing, or only `before`, so the advanced model sees it', async () => {
    // « La barrière d'alias peut définir NULL à la fois pour pResourceAfter et pResourceBefore »: both barriers
    // separate the two writes of one submit, so no barrier-missing.
    const result = await checkText(
      text(
        'advanced',
        ...two,
        { e: 'access', id: 51, op: 'write' },
        { e: 'barrier' },
        { e: 'access', id: 52, op: 'write' },
        { e: 'barrier', before: 52 },
        { e: 'access', id: 51, op: 'write' },
      ),
    )
    expect(result).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })

  it("gives the profiler's hazard list the same barriers", () => {
    // Without the first barrier, 52's write follows 51's in one submit: barrier-missing. With it, nothing.
    const records = (barrier: object[]) =>
      text('advanced', ...two, { e: 'access', id: 51, op: 'write' }, ...barrier, { e: 'access', id: 52, op: 'write' })
    expect(checkStore(scan(records([])).store).hazardRules).toEqual({ 'barrier-missing': 1 })
    expect(checkStore(scan(records([{ e: 'barrier' }])).store).hazardRules).toEqual({})
    expect(checkStore(scan(records([{ e: 'barrier', before: 51 }])).store).hazardRules).toEqual({})
  })

  it('frees what a freed heap holds, and a freed placed id, so the id can be placed again (inactive)', async () => {
    // « Les ressources placées sont créées à l'état inactif »: each new placement is inactive, and its first
    // read, with no barrier activating it, is access-inactive.
    const result = await checkText(
      text(
        'simple',
        ...two,
        { e: 'free', id: 50 }, // 51 and 52 go with their heap
        { e: 'heap', id: 60, size: 65536 },
        { e: 'placed', id: 51, heap: 60, offset: 0, kind: 'texture', size: 65536, flags: ['ShaderResource'] },
        { e: 'access', id: 51, op: 'read' },
        { e: 'placed', id: 53, heap: 60, offset: 0, kind: 'buffer', size: 4096 },
        { e: 'free', id: 53 }, // a placed resource: destroyed
        { e: 'placed', id: 53, heap: 60, offset: 0, kind: 'buffer', size: 4096 },
        { e: 'access', id: 53, op: 'write' },
      ),
    )
    expect(result.reading).toBeUndefined()
    expect(result.hazards.map((h) => [h.rule, h.resources, h.heap, h.range])).toEqual([
      ['access-inactive', [51], 60, [0, 65536]],
      ['access-inactive', [53], 60, [0, 4096]],
    ])
  })

  it('prints what reading the capture warned about: counts, and the first ones with their lines', async () => {
    const capture = text(
      'simple',
      ...two,
      { e: 'barrier', after: 'x' }, // line 6
      { e: 'access', id: 51, op: 'peek' }, // line 7
      { e: 'release', id: 99 }, // line 8
    )
    const result = await checkText(capture)
    const lineStarts = capture.split('\n').map((_, i, all) => all.slice(0, i).join('\n').length + (i > 0 ? 1 : 0))
    expect(result.reading).toEqual({
      counts: { badField: 2, releaseOfUnknownId: 1 },
      first: [
        { kind: 'badField', line: 6, offset: lineStarts[5], message: 'barrier: "after" must be an integer' },
        { kind: 'badField', line: 7, offset: lineStarts[6], message: 'access: "op" must be one of read, write, clear, discard, copy' },
        { kind: 'releaseOfUnknownId', line: 8, offset: lineStarts[7], message: 'release of id 99, which is not live' },
      ],
    })
    const lines = formatCheck(result, false).split('\n')
    expect(lines[0]).toBe('No aliasing hazard found.')
    expect(lines[1]).toBe('Reading the capture: 3 warnings (records skipped or corrected before the checks):')
    expect(lines).toContain(`  line 6 (byte ${lineStarts[5]}): badField: barrier: "after" must be an integer`)
    expect(lines).toContain(`  line 8 (byte ${lineStarts[7]}): releaseOfUnknownId: release of id 99, which is not live`)
    expect(JSON.parse(formatCheck(result, true)).reading.counts).toEqual({ badField: 2, releaseOfUnknownId: 1 })
  })
})
