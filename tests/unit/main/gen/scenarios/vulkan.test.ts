/**
 * The `vulkan` and `vulkan-hazards` scenarios as captures: format 1.1 that reads without a warning, deterministic
 * per seed, every resource with its name, tag and VkMemoryRequirements as a driver reports them, ids created once
 * while live and reused after their release; and the hazards variant is the correct one with three mistakes.
 */
import { describe, expect, it } from 'vitest'
import { VULKAN_SCENARIO_DEVICE } from '../../../../../src/main/gen/scenarios/vulkan'
import { bytesOf, generated, scan } from '../../ingest/helpers'

interface Line {
  e: string
  n?: number
  t?: number
  id?: number
  name?: string
  tag?: string
  size?: number
  offset?: number
  usage?: string[]
  explicit?: boolean
  memoryRequirements?: { size: number; alignment: number; memoryTypeBits: number }
}

const FRAMES = 80

function parse(text: string): { header: Record<string, unknown>; lines: Line[] } {
  const [head, ...rest] = text.trimEnd().split('\n')
  return { header: JSON.parse(head) as Record<string, unknown>, lines: rest.map((l) => JSON.parse(l) as Line) }
}

describe('gen vulkan', () => {
  it('writes a 1.1 Vulkan capture on its device that the store reads without a warning', async () => {
    const text = await generated('vulkan', FRAMES, 7)
    const { header } = parse(text)
    expect(header).toMatchObject({ format: 'heapscope-capture', version: 1, minor: 1, api: 'vulkan', aliasing: 'simple' })
    expect(header.vulkan).toEqual(VULKAN_SCENARIO_DEVICE)
    const { store, error } = scan(bytesOf(text))
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({})
    expect(store.frames.length).toBe(FRAMES)
  })

  it('is deterministic for a seed, frames 1..N about 60 a second', async () => {
    const text = await generated('vulkan', FRAMES, 7)
    expect(await generated('vulkan', FRAMES, 7)).toBe(text)
    expect(await generated('vulkan', FRAMES, 8)).not.toBe(text)
    const frames = parse(text).lines.filter((l) => l.e === 'frame')
    expect(frames.map((f) => f.n)).toEqual(Array.from({ length: FRAMES }, (_, i) => i + 1))
    const mean = ((frames[FRAMES - 1].t as number) - (frames[0].t as number)) / (FRAMES - 1)
    // 1000 / 60 = 16.7 ms, give or take the clock's jitter.
    expect(mean).toBeGreaterThan(15)
    expect(mean).toBeLessThan(19)
  })

  it('names and tags every resource and gives each its memory requirements, as a driver would', async () => {
    const { lines } = parse(await generated('vulkan', FRAMES, 7))
    const creates = lines.filter((l) => l.e === 'buffer' || l.e === 'texture' || l.e === 'placed')
    expect(creates.length).toBeGreaterThan(300)
    for (const c of creates) {
      expect(c.name, JSON.stringify(c)).toBeTruthy()
      expect(c.tag, JSON.stringify(c)).toBeTruthy()
      const mr = c.memoryRequirements!
      expect(mr, JSON.stringify(c)).toBeDefined()
      // A power-of-two alignment the size is a multiple of, at least the buffer's bytes, types of the device.
      expect(mr.alignment & (mr.alignment - 1)).toBe(0)
      expect(mr.size % mr.alignment).toBe(0)
      if (c.size !== undefined) expect(mr.size).toBeGreaterThanOrEqual(c.size)
      expect(mr.memoryTypeBits).toBeGreaterThan(0)
      expect(mr.memoryTypeBits & ~0b1111).toBe(0)
    }
  })

  it('creates ids once while live, releases live ids, and reuses released ones', async () => {
    const { lines } = parse(await generated('vulkan', FRAMES, 7))
    const live = new Set<number>()
    const released = new Set<number>()
    let reused = 0
    for (const l of lines) {
      if (l.e === 'buffer' || l.e === 'texture' || l.e === 'placed' || l.e === 'heap') {
        expect(live.has(l.id!), JSON.stringify(l)).toBe(false)
        if (released.has(l.id!)) reused++
        live.add(l.id!)
      } else if (l.e === 'release') {
        expect(live.delete(l.id!), JSON.stringify(l)).toBe(true)
        released.add(l.id!)
      }
    }
    expect(reused).toBeGreaterThan(0)
  })

  it('vulkan-hazards is the same capture with three mistakes: a bind, a write and its flush, one more read', async () => {
    const correct = parse(await generated('vulkan', FRAMES, 4)).lines
    const faulty = parse(await generated('vulkan-hazards', FRAMES, 4)).lines
    // One line more: the read of the inactive target.
    expect(faulty.length).toBe(correct.length + 1)
    const differing: [Line, Line | undefined][] = []
    let i = 0
    let j = 0
    while (i < correct.length) {
      if (JSON.stringify(correct[i]) === JSON.stringify(faulty[j])) {
        i++
        j++
      } else if (faulty[j].e === 'access' && correct[i].e !== 'access') differing.push([faulty[j++], undefined])
      else differing.push([faulty[j++], correct[i++]])
    }
    expect(differing.map(([f, c]) => [f.e, c?.e])).toEqual([
      ['bind', 'bind'],
      ['write', 'write'],
      ['flush', 'flush'],
      ['access', undefined],
    ])
    const [bind, write, flush] = differing
    // 128 bytes past the stats buffer's aligned offset; a write 36 bytes past whole atoms, flushed as written.
    expect(bind[0].offset! - bind[1]!.offset!).toBe(128)
    expect(write[0].size! % 64).toBe(36)
    expect(flush[0].size).toBe(write[0].size)
    expect(flush[1]!.size! % 64).toBe(0)
  })
})
