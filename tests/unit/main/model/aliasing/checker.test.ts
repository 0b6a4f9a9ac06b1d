import { describe, expect, it } from 'vitest'
import { AliasingChecker } from '../../../../../src/main/model/aliasing/checker'
import type { CaptureRecord } from '../../../../../src/shared/capture'
import type { AliasingModel } from '../../../../../src/main/model/vulkan/captureTypes'

function check(model: AliasingModel, records: CaptureRecord[], api: 'd3d12' | 'vulkan' = 'd3d12') {
  const checker = new AliasingChecker({ model, api })
  for (const r of records) checker.apply(r)
  return checker.hazards
}

// Heap 50 of 128 KiB: 51 and 52 are 64 KiB textures sharing [0, 65536); 54 is a buffer at [65536, 131072);
// 53 is a render target over the whole heap; 55 a depth-stencil over [32768, 98304).
const K64 = 65536
const setup: CaptureRecord[] = [
  { e: 'frame', n: 11 },
  { e: 'heap', id: 50, size: 2 * K64, type: 'default' },
  { e: 'placed', id: 51, heap: 50, offset: 0, kind: 'texture', size: K64, flags: ['ShaderResource'] },
  { e: 'placed', id: 52, heap: 50, offset: 0, kind: 'texture', size: K64, flags: ['ShaderResource'] },
  { e: 'placed', id: 54, heap: 50, offset: K64, kind: 'buffer', size: K64 },
  { e: 'frame', n: 12 },
]

describe('simple model: access-inactive', () => {
  it('is the CLI example: 51 read after 52 was activated on the same bytes', () => {
    const hazards = check('simple', [
      ...setup,
      { e: 'barrier', after: 51 },
      { e: 'access', id: 51, op: 'write' },
      { e: 'barrier', after: 52, before: 51 },
      { e: 'access', id: 52, op: 'write' },
      { e: 'access', id: 51, op: 'read' },
    ])
    expect(hazards).toEqual([
      {
        frame: 12,
        rule: 'access-inactive',
        resources: [51, 52],
        heap: 50,
        range: [0, 65536],
        message: 'texture 51 read while inactive: 52 was activated on the same bytes at frame 12',
      },
    ])
  })

  it('is an access before any activation: placed resources are created inactive', () => {
    const hazards = check('simple', [...setup, { e: 'access', id: 54, op: 'write' }])
    expect(hazards).toEqual([
      {
        frame: 12,
        rule: 'access-inactive',
        resources: [54],
        heap: 50,
        range: [65536, 131072],
        message:
          'buffer 54 written while inactive: no aliasing barrier has activated it since it was placed at frame 11 ' +
          '(placed resources are created inactive)',
      },
    ])
  })

  it('is reported once per inactive spell, and again after a new activation of another resource', () => {
    const hazards = check('simple', [
      ...setup,
      { e: 'barrier', after: 52 },
      { e: 'access', id: 51, op: 'read' },
      { e: 'access', id: 51, op: 'read' },
      { e: 'frame', n: 13 },
      { e: 'barrier', after: 51 },
      { e: 'access', id: 51, op: 'read' },
      { e: 'barrier', after: 52 },
      { e: 'access', id: 51, op: 'read' },
    ])
    expect(hazards.map((h) => [h.frame, h.resources])).toEqual([
      [12, [51, 52]],
      [13, [51, 52]],
    ])
  })

  it('leaves resources that share no byte alone, and accepts each activated resource in turn', () => {
    expect(
      check('simple', [
        ...setup,
        { e: 'barrier', after: 54 },
        { e: 'barrier', after: 51 },
        { e: 'access', id: 51, op: 'write' },
        { e: 'access', id: 54, op: 'write' }, // 54 [64K, 128K) does not share bytes with 51
        { e: 'submit' },
        { e: 'barrier', after: 52, before: 51 },
        { e: 'access', id: 52, op: 'read' },
        { e: 'access', id: 54, op: 'read' },
        { e: 'barrier', after: 51, before: 52 },
        { e: 'access', id: 51, op: 'copy' },
      ]),
    ).toEqual([])
  })

  it('forgets a freed heap and a released resource', () => {
    expect(
      check('simple', [
        ...setup,
        { e: 'free', id: 50 },
        { e: 'access', id: 51, op: 'read' },
        { e: 'heap', id: 60, size: K64 },
        { e: 'placed', id: 61, heap: 60, offset: 0, kind: 'buffer', size: K64 },
        { e: 'release', id: 61 },
        { e: 'access', id: 61, op: 'read' },
      ]),
    ).toEqual([])
  })
})

describe('simple model: rt-not-initialized', () => {
  const targets: CaptureRecord[] = [
    ...setup,
    { e: 'placed', id: 53, heap: 50, offset: 0, kind: 'texture', size: 2 * K64, flags: ['RenderTargetable', 'ShaderResource'] },
    { e: 'placed', id: 55, heap: 50, offset: 32768, kind: 'texture', size: K64, flags: ['DepthStencilTargetable'] },
  ]

  it('is a render target written after its activation without a clear, discard or full copy', () => {
    expect(check('simple', [...targets, { e: 'barrier', after: 53 }, { e: 'access', id: 53, op: 'write' }])).toEqual([
      {
        frame: 12,
        rule: 'rt-not-initialized',
        resources: [53],
        heap: 50,
        range: [0, 131072],
        message: 'render target 53 written after its activation at frame 12 without a clear, discard or full copy first',
      },
    ])
  })

  it('is a depth-stencil cleared before its activation barrier, since initialization must follow it', () => {
    const hazards = check('simple', [
      ...targets,
      { e: 'barrier', after: 55 },
      { e: 'access', id: 55, op: 'clear' },
      { e: 'barrier', after: 51 }, // 51 [0, 64K) shares [32K, 64K) with 55: 55 inactive
      { e: 'access', id: 55, op: 'clear' }, // inactive: access-inactive, not an initialization
      { e: 'frame', n: 13 },
      { e: 'barrier', after: 55, before: 51 },
      { e: 'access', id: 55, op: 'read' },
    ])
    expect(hazards.map((h) => [h.rule, h.message])).toEqual([
      ['access-inactive', 'texture 55 cleared while inactive: 51 was activated on the same bytes at frame 12'],
      ['rt-not-initialized', 'depth-stencil 55 read after its activation at frame 13 without a clear, discard or full copy first'],
    ])
    expect(hazards[0].range).toEqual([32768, 65536])
  })

  it('is satisfied by a clear, a discard or a full copy after each activation; buffers and plain textures need none', () => {
    expect(
      check('simple', [
        ...targets,
        { e: 'barrier', after: 53 },
        { e: 'access', id: 53, op: 'discard' },
        { e: 'access', id: 53, op: 'write' },
        { e: 'barrier', after: 55 },
        { e: 'access', id: 55, op: 'clear' },
        { e: 'access', id: 55, op: 'read' },
        { e: 'barrier', after: 53 },
        { e: 'access', id: 53, op: 'copy' },
        { e: 'access', id: 53, op: 'read' },
        { e: 'barrier', after: 51 },
        { e: 'access', id: 51, op: 'read' }, // not a render target: its content is undefined, not a hazard
        { e: 'barrier', after: 54 },
        { e: 'access', id: 54, op: 'read' },
      ]),
    ).toEqual([])
  })
})

describe('advanced model: barrier-missing', () => {
  it('is two different resources sharing bytes accessed in one submit with no aliasing barrier between', () => {
    const hazards = check('advanced', [...setup, { e: 'access', id: 51, op: 'write' }, { e: 'access', id: 52, op: 'write' }])
    expect(hazards).toEqual([
      {
        frame: 12,
        rule: 'barrier-missing',
        resources: [52, 51],
        heap: 50,
        range: [0, 65536],
        message:
          'texture 52 written after texture 51 was written on the same bytes in the same submit at frame 12, ' +
          'without an aliasing barrier between them',
      },
    ])
  })

  it('counts only a barrier naming one of the two, or one naming none', () => {
    const hazards = check('advanced', [
      ...setup,
      { e: 'access', id: 51, op: 'read' },
      { e: 'barrier', after: 54 }, // another resource: does not separate 51 from 52
      { e: 'access', id: 52, op: 'read' },
    ])
    expect(hazards.map((h) => h.rule)).toEqual(['barrier-missing'])
    const global = { e: 'barrier' } as unknown as CaptureRecord // pResourceAfter and pResourceBefore both NULL
    expect(
      check('advanced', [
        ...setup,
        { e: 'access', id: 51, op: 'write' },
        { e: 'barrier', after: 52, before: 51 },
        { e: 'access', id: 52, op: 'write' },
        { e: 'barrier', after: 54, before: 52 }, // names 52 as before: separates 52 from 51
        { e: 'access', id: 51, op: 'read' },
        global,
        { e: 'access', id: 52, op: 'read' },
      ]),
    ).toEqual([])
  })

  it('needs no barrier across submits or frames, for one resource, or for resources sharing no byte', () => {
    expect(
      check('advanced', [
        ...setup,
        { e: 'access', id: 51, op: 'write' },
        { e: 'submit' },
        { e: 'access', id: 52, op: 'write' },
        { e: 'frame', n: 13 },
        { e: 'access', id: 51, op: 'read' },
        { e: 'access', id: 51, op: 'write' },
        { e: 'access', id: 54, op: 'write' },
      ]),
    ).toEqual([])
  })

  it('reports once per interleaving', () => {
    const hazards = check('advanced', [
      ...setup,
      { e: 'access', id: 51, op: 'write' },
      { e: 'access', id: 52, op: 'read' },
      { e: 'access', id: 52, op: 'read' },
      { e: 'access', id: 51, op: 'read' },
    ])
    expect(hazards.map((h) => h.resources)).toEqual([
      [52, 51],
      [51, 52],
    ])
  })
})

describe('advanced model: rt-not-initialized', () => {
  it('is a render target whose first access since it was placed, or since another resource used its bytes, is no initialization', () => {
    const hazards = check('advanced', [
      ...setup,
      { e: 'placed', id: 53, heap: 50, offset: 0, kind: 'texture', size: 2 * K64, flags: ['RenderTargetable'] },
      { e: 'access', id: 53, op: 'read' },
      { e: 'submit' },
      { e: 'access', id: 54, op: 'write' },
      { e: 'submit' },
      { e: 'access', id: 53, op: 'write' },
      { e: 'submit' },
      { e: 'access', id: 51, op: 'read' }, // in the simple model 51 would have been activated over 53's bytes
      { e: 'submit' },
      { e: 'access', id: 53, op: 'read' },
    ])
    expect(hazards.map((h) => h.message)).toEqual([
      'render target 53 read since it was placed at frame 12 without a clear, discard or full copy first',
      'render target 53 written after 54 used the same bytes at frame 12 without a clear, discard or full copy first',
      'render target 53 read after 51 used the same bytes at frame 12 without a clear, discard or full copy first',
    ])
  })

  it("re-arms initialization after another resource's read, as the simple model's activation does", () => {
    // « Cette initialisation reste requise chaque fois qu'une ressource aurait été activée dans le modèle
    // simple »: 52 read on 53's bytes implies, in the simple model, 52 activated there (and 53 again after).
    const rt: CaptureRecord = { e: 'placed', id: 53, heap: 50, offset: 0, kind: 'texture', size: K64, flags: ['RenderTargetable'] }
    const advanced = check('advanced', [
      ...setup,
      rt,
      { e: 'access', id: 53, op: 'clear' },
      { e: 'submit' },
      { e: 'access', id: 52, op: 'read' },
      { e: 'submit' },
      { e: 'access', id: 53, op: 'write' },
    ])
    const simple = check('simple', [
      ...setup,
      rt,
      { e: 'barrier', after: 53 },
      { e: 'access', id: 53, op: 'clear' },
      { e: 'barrier', after: 52, before: 53 },
      { e: 'access', id: 52, op: 'read' },
      { e: 'barrier', after: 53, before: 52 },
      { e: 'access', id: 53, op: 'write' },
    ])
    expect(simple.map((h) => [h.rule, h.resources, h.range])).toEqual([['rt-not-initialized', [53], [0, K64]]])
    expect(advanced.map((h) => [h.rule, h.resources, h.range])).toEqual([['rt-not-initialized', [53], [0, K64]]])
    expect(advanced[0].message).toBe(
      'render target 53 written after 52 used the same bytes at frame 12 without a clear, discard or full copy first',
    )
  })

  it('never reports access-inactive: the advanced model has no active state', () => {
    expect(check('advanced', [...setup, { e: 'access', id: 51, op: 'read' }, { e: 'frame', n: 13 }, { e: 'access', id: 52, op: 'read' }])).toEqual([])
  })
})

describe('the bytes of a placed texture without a size', () => {
  // 100×100 RGBA8: D3D12 can align it to 4 KiB (32×32-texel tiles, 4 × 4 = 16 tiles ≤ 16), so it covers
  // 16 × 4096 = 65536 bytes; Vulkan's linear estimate is 100 × 100 × 4 = 40000 bytes.
  const records: CaptureRecord[] = [
    { e: 'heap', id: 1, size: 131072 },
    { e: 'placed', id: 2, heap: 1, offset: 0, kind: 'texture', format: 'R8G8B8A8_UNORM', width: 100, height: 100 },
    { e: 'placed', id: 3, heap: 1, offset: 40960, kind: 'buffer', size: 4096 },
    { e: 'barrier', after: 3 },
    { e: 'barrier', after: 2 },
    { e: 'access', id: 3, op: 'read' },
  ]

  it('is the D3D12 model\'s estimate in a D3D12 capture', () => {
    expect(check('simple', records).map((h) => [h.resources, h.range])).toEqual([[[3, 2], [40960, 45056]]])
  })

  it('is the linear estimate in a Vulkan capture', () => {
    expect(check('simple', records, 'vulkan')).toEqual([])
  })
})
