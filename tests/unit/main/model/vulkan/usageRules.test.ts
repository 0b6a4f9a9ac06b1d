import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { addRange, BoundRanges, checkGranularity, RangeList, removeRange, UnflushedWrites } from '../../../../../src/main/model/vulkan/usageRules'
import { runs } from '../../../../properties'
import { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanCaptureRecord } from '../../../../../src/main/model/vulkan/captureTypes'
import { recorder, testConfig, testDevice } from './helpers'

const req = (size: number, alignment: number, memoryTypeBits = 0xf) => ({ size, alignment, memoryTypeBits })

function warningsOf(records: VulkanCaptureRecord[]) {
  const rec = recorder()
  const model = new VulkanModel(testDevice(), testConfig(), rec.sink)
  for (const r of records) model.apply(r)
  model.onSubmit()
  return rec.warnings
}

// Application memory: 50 is 64 KiB of type 0 (DEVICE_LOCAL); 60 is 4 KiB of type 3 (HOST_VISIBLE, not coherent).
const memories: VulkanCaptureRecord[] = [
  { e: 'frame', n: 7 },
  { e: 'heap', id: 50, size: 65536, memoryType: 0 },
  { e: 'heap', id: 60, size: 4096, memoryType: 3 },
  { e: 'heap', id: 61, size: 4096, memoryType: 1 },
]

describe('bind-misaligned', () => {
  it('is an offset that is not a multiple of the resource\'s alignment', () => {
    const w = warningsOf([
      ...memories,
      { e: 'buffer', id: 7, size: 1000, memoryRequirements: req(1000, 256), explicit: true },
      { e: 'bind', id: 7, memory: 50, offset: 100 },
    ])
    expect(w).toEqual([
      {
        kind: 'bind-misaligned',
        message: 'buffer 7 bound at offset 100 of memory 50 at frame 7: not a multiple of its alignment 256 (100 % 256 = 100)',
        frame: 7,
      },
    ])
  })

  it('is silent for an aligned bind, and for an estimated alignment', () => {
    expect(
      warningsOf([
        ...memories,
        { e: 'buffer', id: 7, size: 1000, memoryRequirements: req(1000, 256), explicit: true },
        { e: 'bind', id: 7, memory: 50, offset: 512 },
        // No memoryRequirements: the 16-byte alignment is a guess, 8 is not reported.
        { e: 'placed', id: 8, heap: 50, offset: 8, kind: 'buffer', size: 64 },
      ]),
    ).toEqual([])
  })
})

describe('bind-memory-type', () => {
  it('is a bind to memory whose type memoryTypeBits does not allow (§3.3)', () => {
    // §3.3: 「只有这个位掩码中标记的Memory Type，才能跟这个资源绑定」. Bits 0b0110 allow types 1 and 2; memory 50 is
    // type 0, memory 61 type 1.
    const w = warningsOf([
      ...memories,
      { e: 'buffer', id: 7, size: 1000, memoryRequirements: req(1000, 256, 0b0110), explicit: true },
      { e: 'bind', id: 7, memory: 50, offset: 0 },
      { e: 'placed', id: 8, heap: 61, offset: 0, kind: 'buffer', size: 1000, memoryRequirements: req(1000, 256, 0b0110) },
    ])
    expect(w).toEqual([
      {
        kind: 'bind-memory-type',
        message: 'buffer 7 bound at offset 0 of memory 50 at frame 7: memory type 0 is not in its memoryTypeBits 0x6',
        frame: 7,
      },
    ])
  })

  it('is silent without memoryRequirements: the bits are unknown', () => {
    expect(warningsOf([...memories, { e: 'placed', id: 8, heap: 60, offset: 0, kind: 'buffer', size: 64 }])).toEqual([])
  })
})

describe('bind-out-of-range', () => {
  it('is a binding whose end passes the end of its memory', () => {
    // [61440, 61440 + 8192) = [61440, 69632), past 65536.
    const w = warningsOf([...memories, { e: 'placed', id: 8, heap: 50, offset: 61440, kind: 'texture', memoryRequirements: req(8192, 4096) }])
    expect(w.map((x) => [x.kind, x.message])).toEqual([
      ['bind-out-of-range', "texture 8 bound at offset 61440 of memory 50 at frame 7: [61440, 69632) ends past the memory's 65536 bytes"],
    ])
  })

  it('is silent for a binding that ends exactly at the end', () => {
    expect(warningsOf([...memories, { e: 'placed', id: 8, heap: 50, offset: 57344, kind: 'texture', memoryRequirements: req(8192, 4096) }])).toEqual([])
  })
})

describe('granularity-conflict', () => {
  // bufferImageGranularity 1024: pages [0, 1024), [1024, 2048), …
  it('is a linear and an optimal resource on one page of the same memory', () => {
    const w = warningsOf([
      ...memories,
      { e: 'placed', id: 9, heap: 50, offset: 0, kind: 'buffer', size: 100, memoryRequirements: req(100, 4) },
      // [512, 1536) starts on page 0, where the buffer [0, 100) ends.
      { e: 'placed', id: 10, heap: 50, offset: 512, kind: 'texture', memoryRequirements: req(1024, 256) },
    ])
    expect(w.map((x) => [x.kind, x.message])).toEqual([
      [
        'granularity-conflict',
        'buffer 9 [0, 100) and texture 10 [512, 1536) on memory 50 share a 1024-byte page (bufferImageGranularity) at frame 7',
      ],
    ])
  })

  it('sees a linear image as linear and an optimal image before a buffer', () => {
    const w = warningsOf([
      ...memories,
      { e: 'placed', id: 10, heap: 50, offset: 0, kind: 'texture', memoryRequirements: req(1500, 256) }, // pages 0–1
      { e: 'placed', id: 11, heap: 50, offset: 1536, kind: 'texture', tiling: 'linear', memoryRequirements: req(256, 256) }, // page 1
      { e: 'placed', id: 12, heap: 50, offset: 4096, kind: 'texture', tiling: 'linear', memoryRequirements: req(256, 256) }, // page 4
    ])
    expect(w.map((x) => x.message)).toEqual([
      'texture 10 [0, 1500) and texture 11 [1536, 1792) on memory 50 share a 1024-byte page (bufferImageGranularity) at frame 7',
    ])
  })

  it('is silent a page apart, between two linear resources, for aliasing on purpose, and on another memory', () => {
    expect(
      warningsOf([
        ...memories,
        { e: 'placed', id: 9, heap: 50, offset: 0, kind: 'buffer', size: 100, memoryRequirements: req(100, 4) },
        { e: 'placed', id: 10, heap: 50, offset: 1024, kind: 'texture', memoryRequirements: req(1024, 256) },
        { e: 'placed', id: 11, heap: 50, offset: 200, kind: 'buffer', size: 100, memoryRequirements: req(100, 4) },
        { e: 'placed', id: 12, heap: 50, offset: 1024, kind: 'buffer', size: 64, memoryRequirements: req(64, 4) }, // shares bytes with 10
        { e: 'heap', id: 51, size: 4096, memoryType: 0 },
        { e: 'placed', id: 13, heap: 51, offset: 512, kind: 'texture', memoryRequirements: req(256, 256) },
      ]),
    ).toEqual([])
  })

  it('forgets a resource once it is released', () => {
    expect(
      warningsOf([
        ...memories,
        { e: 'placed', id: 9, heap: 50, offset: 0, kind: 'buffer', size: 100, memoryRequirements: req(100, 4) },
        { e: 'release', id: 9 },
        { e: 'placed', id: 10, heap: 50, offset: 512, kind: 'texture', memoryRequirements: req(1024, 256) },
      ]),
    ).toEqual([])
  })
})

describe('flush-misaligned', () => {
  it('is a flush range not aligned to nonCoherentAtomSize on non-coherent memory', () => {
    const w = warningsOf([
      ...memories,
      { e: 'map', memory: 60 },
      { e: 'write', memory: 60, offset: 0, size: 100 },
      // 100 is not a multiple of 64, and 100 is not the end of the memory (4096).
      { e: 'flush', memory: 60, offset: 0, size: 100 },
    ])
    expect(w.map((x) => [x.kind, x.message])).toEqual([
      ['flush-misaligned', 'flush of memory 60 at frame 7: memory range [0, 100) is not aligned to nonCoherentAtomSize 64'],
    ])
  })

  it('is a write the GPU may read before any flush covered it', () => {
    const w = warningsOf([
      ...memories,
      { e: 'map', memory: 60 },
      { e: 'write', memory: 60, offset: 200, size: 100 },
      { e: 'write', memory: 60, offset: 1000, size: 24 },
      { e: 'flush', memory: 60, offset: 960, size: 64 }, // covers [960, 1024): the second write
      { e: 'submit' },
    ])
    expect(w.map((x) => [x.kind, x.message])).toEqual([
      [
        'flush-misaligned',
        'memory 60 (type 3: HOST_VISIBLE without HOST_COHERENT): bytes [200, 300) written at frame 7 and not flushed ' +
          'with a range aligned to nonCoherentAtomSize 64 before a submit',
      ],
    ])
  })

  it('is followed apart in a checkpoint copy, which reports to its own sink', () => {
    const rec = recorder()
    const model = new VulkanModel(testDevice(), testConfig(), rec.sink)
    for (const r of [...memories, { e: 'map', memory: 60 }, { e: 'write', memory: 60, offset: 200, size: 100 }] as VulkanCaptureRecord[]) {
      model.apply(r)
    }
    const copyRec = recorder()
    const copy = model.clone(copyRec.sink)
    // the original flushes [192, 320), which covers its write; the copy does not
    model.apply({ e: 'flush', memory: 60, offset: 192, size: 128 })
    model.onSubmit()
    copy.onSubmit()
    expect(rec.warnings).toEqual([])
    expect(copyRec.warnings.map((x) => [x.kind, x.message, x.frame])).toEqual([
      [
        'flush-misaligned',
        'memory 60 (type 3: HOST_VISIBLE without HOST_COHERENT): bytes [200, 300) written at frame 7 and not flushed ' +
          'with a range aligned to nonCoherentAtomSize 64 before a submit',
        7,
      ],
    ])
    // and a bind on the copy reports there too: offset 100 is not a multiple of 256
    copy.apply({ e: 'buffer', id: 7, size: 1000, memoryRequirements: req(1000, 256), explicit: true })
    copy.apply({ e: 'bind', id: 7, memory: 50, offset: 100 })
    expect(copyRec.warnings.map((x) => x.kind)).toEqual(['flush-misaligned', 'bind-misaligned'])
    expect(rec.warnings).toEqual([])
  })

  it('is silent for aligned flushes, whole-size flushes, coherent memory, and flushed resource writes', () => {
    expect(
      warningsOf([
        ...memories,
        { e: 'map', memory: 60 },
        { e: 'write', memory: 60, offset: 0, size: 100 },
        { e: 'flush', memory: 60, offset: 0, size: 128 },
        { e: 'write', memory: 60, offset: 3000, size: 1000 },
        { e: 'flush', memory: 60, offset: 2944 }, // VK_WHOLE_SIZE: to the end of the mapping, the memory's end
        { e: 'write', memory: 61, offset: 3, size: 5 }, // type 1 is HOST_COHERENT
        // A resource in non-coherent memory: its offset 256 is aligned, and its 64-byte flush too.
        { e: 'placed', id: 20, heap: 60, offset: 256, kind: 'buffer', size: 64, memoryRequirements: req(64, 64) },
        { e: 'write', id: 20, offset: 0, size: 10 },
        { e: 'flush', id: 20, offset: 0 },
        { e: 'submit' },
        { e: 'frame', n: 8 },
      ]),
    ).toEqual([])
  })

  it('reports a resource flush by its memory offset', () => {
    const w = warningsOf([
      ...memories,
      { e: 'placed', id: 20, heap: 60, offset: 256, kind: 'buffer', size: 64, memoryRequirements: req(64, 16) },
      { e: 'write', id: 20, offset: 0, size: 10 },
      { e: 'flush', id: 20, offset: 16, size: 48 }, // memory [272, 320): 272 is not a multiple of 64
    ])
    expect(w.map((x) => x.message)).toEqual([
      'flush of buffer 20 at frame 7: memory range [272, 320) is not aligned to nonCoherentAtomSize 64',
      'memory 60 (type 3: HOST_VISIBLE without HOST_COHERENT): bytes [256, 266) written at frame 7 and not flushed ' +
        'with a range aligned to nonCoherentAtomSize 64 before a submit',
    ])
  })

  it('checks the frame end when the capture has no submit records', () => {
    const w = warningsOf([...memories, { e: 'write', memory: 60, offset: 0, size: 64 }, { e: 'frame', n: 8 }])
    expect(w.map((x) => [x.kind, x.frame])).toEqual([['flush-misaligned', 7]])
    expect(w[0].message).toMatch(/written at frame 7 and not flushed .* before the end of frame 7$/)
  })
})

describe('diagnostics that are not check rules', () => {
  it('names a bind of an unknown resource or memory, a second bind, and a write to memory the CPU cannot see', () => {
    const w = warningsOf([
      ...memories,
      { e: 'bind', id: 99, memory: 50, offset: 0 },
      { e: 'buffer', id: 7, size: 64, explicit: true },
      { e: 'bind', id: 7, memory: 98, offset: 0 },
      { e: 'bind', id: 7, memory: 50, offset: 0 },
      { e: 'bind', id: 7, memory: 50, offset: 64 },
      { e: 'write', memory: 50, offset: 0, size: 4 },
    ])
    expect(w.map((x) => [x.kind, x.message])).toEqual([
      ['unknown-id', 'bind of resource 99 at frame 7: no such resource'],
      ['unknown-id', 'bind of buffer 7 at frame 7: no memory 98'],
      ['bind-twice', 'buffer 7 bound again at frame 7: it already has memory'],
      ['map-not-host-visible', 'write to memory 50 at frame 7: memory type 0 is not HOST_VISIBLE'],
    ])
  })
})

describe('written ranges', () => {
  /** The ranges a byte map holds: its runs of set bytes, in order. */
  const runsOf = (bytes: boolean[]) => {
    const out: number[] = []
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] && (i === 0 || !bytes[i - 1])) out.push(i)
      if (bytes[i] && (i === bytes.length - 1 || !bytes[i + 1])) out.push(i + 1)
    }
    return out
  }

  it('are the runs of the bytes written and not flushed, after any mix of writes and flushes', () => {
    const op = fc.record({ add: fc.boolean(), start: fc.integer({ min: 0, max: 63 }), size: fc.integer({ min: -2, max: 24 }) })
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const pairs = new RangeList()
        const bytes = new Array<boolean>(96).fill(false)
        for (const { add, start, size } of ops) {
          const end = start + size
          if (add) addRange(pairs, start, end)
          else removeRange(pairs, start, end)
          for (let b = start; b < end; b++) bytes[b] = add
          expect(pairs.toArray()).toEqual(runsOf(bytes))
        }
      }),
      { numRuns: runs(300), seed: 14 },
    )
  })

  it('merge what touches and split what a flush cuts through', () => {
    const pairs = new RangeList()
    addRange(pairs, 10, 20)
    addRange(pairs, 30, 40)
    addRange(pairs, 20, 30) // touches both: one range
    expect(pairs.toArray()).toEqual([10, 40])
    removeRange(pairs, 15, 25)
    expect(pairs.toArray()).toEqual([10, 15, 25, 40])
    addRange(pairs, 0, 5)
    addRange(pairs, 50, 60)
    removeRange(pairs, 12, 55) // the middle pair goes, the outer two are cut
    expect(pairs.toArray()).toEqual([0, 5, 10, 12, 55, 60])
  })

  it('date an unflushed write by the first write since its memory was last clean', () => {
    const w = warningsOf([
      ...memories,
      { e: 'write', memory: 60, offset: 0, size: 64 },
      { e: 'flush', memory: 60, offset: 0, size: 64 },
      { e: 'frame', n: 8 },
      { e: 'write', memory: 60, offset: 128, size: 10 },
      { e: 'write', memory: 60, offset: 0, size: 64 },
      { e: 'flush', memory: 60, offset: 0, size: 64 },
      { e: 'submit' },
    ])
    expect(w.map((x) => [x.kind, x.frame])).toEqual([['flush-misaligned', 8]])
    expect(w[0].message).toMatch(/bytes \[128, 138\) written at frame 8 and not flushed .* before a submit$/)
  })
})

describe('granularity-conflict through the bound ranges (a bind looks at its pages\' neighbours only)', () => {
  /** The rule as a walk over every resource bound, in bind order: what checkGranularity must find. */
  function walk(g: number, bound: { slot: number; offset: number; size: number; linear: number }[], me: { offset: number; size: number; linear: number }): number[] {
    const end = me.offset + me.size
    const out: number[] = []
    for (const other of bound) {
      if (other.linear === me.linear) continue
      const o = other.offset
      const e = o + other.size
      if (o < end && me.offset < e) continue
      const shared = e <= me.offset ? Math.floor((e - 1) / g) === Math.floor(me.offset / g) : Math.floor((end - 1) / g) === Math.floor(o / g)
      if (shared) out.push(other.slot)
    }
    return out
  }

  it('warns of exactly the resources a walk over all of them finds, in bind order (zero-size ones too)', () => {
    const op = fc.record({ unbind: fc.boolean(), pick: fc.nat(), offset: fc.integer({ min: 0, max: 5000 }), size: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 })), linear: fc.integer({ min: 0, max: 1 }) })
    fc.assert(
      fc.property(fc.constantFrom(1, 256, 1024), fc.array(op, { maxLength: 60 }), (g, ops) => {
        const columns = { offset: new Float64Array(64), size: new Float64Array(64), linear: new Uint8Array(64) }
        const ranges = new BoundRanges()
        let bound: { slot: number; offset: number; size: number; linear: number }[] = []
        let next = 0
        for (const o of ops) {
          if (o.unbind && bound.length > 0) {
            const gone = bound[o.pick % bound.length]
            bound = bound.filter((b) => b !== gone)
            ranges.delete(gone.slot)
            continue
          }
          const slot = next++
          columns.offset[slot] = o.offset
          columns.size[slot] = o.size
          columns.linear[slot] = o.linear
          const warned: string[] = []
          checkGranularity(g, columns, ranges, slot, o.offset, o.size, 9, 1, (s) => `r${s}`, (_kind, message) => warned.push(message))
          const expected = walk(g, bound, o)
          expect(warned.length).toBe(expected.length)
          expected.forEach((other, i) => expect(warned[i]).toContain(`r${other} [`))
          ranges.add(slot, o.offset, o.size)
          bound.push({ slot, offset: o.offset, size: o.size, linear: o.linear })
          expect(ranges.slots()).toEqual(bound.map((b) => b.slot))
        }
        expect(ranges.clone().slots()).toEqual(ranges.slots())
      }),
      { numRuns: runs(300) },
    )
  })
})

describe('unflushed writes (a check reads the memories written since, not every one ever written)', () => {
  const checked = (u: UnflushedWrites) => {
    const out: string[] = []
    u.check('the submit', 256, (m) => `memory ${m}`, (_kind, message) => out.push(message.split(':')[0]))
    return out
  }

  it('warns in the order the memories were first written, and once', () => {
    const u = new UnflushedWrites()
    for (const m of [7, 3, 9]) u.written(m, 0, 100, 1)
    u.flushed(3, 0, 100)
    expect(u.size).toBe(2)
    expect(checked(u)).toEqual(['memory 7', 'memory 9'])
    expect(checked(u)).toEqual([])
    // written again in the other order: still first-written order
    u.written(9, 0, 10, 2)
    u.written(3, 0, 10, 2)
    u.written(7, 0, 10, 2)
    const copy = u.clone()
    expect(checked(u)).toEqual(['memory 7', 'memory 3', 'memory 9'])
    expect(checked(copy)).toEqual(['memory 7', 'memory 3', 'memory 9'])
    // a memory freed and made again is written anew: last
    u.written(7, 0, 10, 3)
    u.forget(7)
    u.written(3, 0, 10, 3)
    u.written(7, 0, 10, 3)
    expect(u.size).toBe(2)
    expect(checked(u)).toEqual(['memory 3', 'memory 7'])
  })
})
