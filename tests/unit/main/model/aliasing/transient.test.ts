import { describe, expect, it } from 'vitest'
import { checkTransientLayout, synthesizeTransientRecords, type TransientRectangle } from '../../../../../src/main/model/aliasing/transient'
import { MiB } from '../../../../../src/shared/units'

const rect = (id: number, heap: number, offset: number, size: number, first: number, last: number, extra: Partial<TransientRectangle> = {}): TransientRectangle => ({
  id,
  execution: 0,
  heap,
  offset,
  size,
  first,
  last,
  cacheHit: false,
  ...extra,
})

// A hand-made graph execution in a 4 MiB heap, as a transient allocator lays it out: A and B share [0, 1 MiB) at
// passes 0–2 and 3–5, C holds [1 MiB, 2 MiB) throughout, SceneColor (a render target) reuses [0, 2 MiB) at 6–7
// after A, B and C, and a second heap holds a buffer.
const layout: TransientRectangle[] = [
  rect(1, 1, 0, 1 * MiB, 0, 2, { kind: 'texture' }),
  rect(2, 1, 0, 1 * MiB, 3, 5, { kind: 'buffer' }),
  rect(3, 1, 1 * MiB, 1 * MiB, 0, 5, { kind: 'texture', renderTarget: true }),
  rect(4, 1, 0, 2 * MiB, 6, 7, { kind: 'texture', renderTarget: true }),
  rect(5, 2, 0, 65536, 2, 4, { kind: 'buffer' }),
]

describe('the transient allocator\'s output through the aliasing checks', () => {
  it('issues placed, barrier and access records as the RHI does', () => {
    const records = synthesizeTransientRecords(layout)
    const text = records.map((r) => JSON.stringify(r))
    expect(text.slice(0, 9)).toEqual([
      '{"e":"frame","n":0}',
      '{"e":"heap","id":1,"size":2097152,"type":"default"}',
      '{"e":"heap","id":2,"size":65536,"type":"default"}',
      '{"e":"placed","id":1,"heap":1,"offset":0,"kind":"texture","size":1048576,"flags":["ShaderResource"]}',
      '{"e":"barrier","after":1}',
      '{"e":"placed","id":3,"heap":1,"offset":1048576,"kind":"texture","size":1048576,"flags":["RenderTargetable","ShaderResource"]}',
      '{"e":"barrier","after":3}',
      '{"e":"access","id":1,"op":"write"}',
      '{"e":"access","id":3,"op":"discard"}',
    ])
    // Pass 6: SceneColor names the last holder of its bytes: 2 and 3 both end at pass 5; 3 was acquired first.
    expect(text).toContain('{"e":"barrier","after":4,"before":3}')
    expect(text).toContain('{"e":"barrier","after":2,"before":1}')
    // Released in acquisition order after the last pass; the execution is one submit.
    expect(text.slice(-2)).toEqual(['{"e":"release","id":4}', '{"e":"submit"}'])
  })

  it('finds no hazard in a correct layout, in either model', () => {
    expect(checkTransientLayout(layout)).toEqual([])
  })

  it('finds none when the next executions reuse the same heaps', () => {
    const three = [0, 1, 2].flatMap((execution) => layout.map((r) => ({ ...r, execution })))
    expect(checkTransientLayout(three)).toEqual([])
  })

  it('catches two rectangles sharing bytes and passes', () => {
    // D [512 KiB, 1.5 MiB) at passes 2–4 overlaps A (passes 0–2) at pass 2 and C ([1 MiB, 2 MiB), 0–5).
    const broken = [...layout.slice(0, 3), rect(6, 1, 512 * 1024, 1 * MiB, 2, 4, { kind: 'texture' })]
    const hazards = checkTransientLayout(broken)
    // Simple model: activating D at pass 2 deactivates A and C, read in the same pass; B at pass 3 deactivates D.
    expect(hazards.filter((h) => h.rule === 'access-inactive').map((h) => [h.frame, h.resources, h.range, h.message])).toEqual([
      [0, [1, 6], [524288, 1048576], 'texture 1 read while inactive: 6 was activated on the same bytes at frame 0'],
      [0, [3, 6], [1048576, 1572864], 'texture 3 read while inactive: 6 was activated on the same bytes at frame 0'],
      [0, [6, 2], [524288, 1048576], 'texture 6 read while inactive: 2 was activated on the same bytes at frame 0'],
    ])
    // Advanced model: D's first write follows A's and C's reads of pass 2 with no barrier naming A or C.
    const missing = hazards.filter((h) => h.rule === 'barrier-missing')
    expect(missing.slice(0, 2).map((h) => [h.resources, h.message])).toEqual([
      [[6, 1], 'texture 6 written after texture 1 was read on the same bytes in the same submit at frame 0, without an aliasing barrier between them'],
      [[6, 3], 'texture 6 written after texture 3 was read on the same bytes in the same submit at frame 0, without an aliasing barrier between them'],
    ])
    // Every later pass interleaves C's and D's (then B's and D's) reads again: once per interleaving.
    expect(missing.length).toBe(9)
    // And C, a render target, had its bytes used by D: written at pass 2, read at passes 3 and 4, each time before
    // one of C's reads (each use of D is one the simple model would have activated D for).
    const reused = 'render target 3 read after 6 used the same bytes at frame 0 without a clear, discard or full copy first'
    expect(hazards.filter((h) => h.rule === 'rt-not-initialized').map((h) => h.message)).toEqual([reused, reused, reused])
  })
})
