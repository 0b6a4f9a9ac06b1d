import { describe, expect, it } from 'vitest'
import { FIELDS_KEPT, VulkanFeed } from '../../../../../src/main/analysis/vulkan/replay'
import type { VulkanModel } from '../../../../../src/main/model/vulkan/model'
import type { VulkanResourceFields } from '../../../../../src/main/model/vulkan/captureTypes'
import { header, storeOf } from './helpers'

const KEYS = ['memoryRequirements', 'required', 'preferred', 'tiling', 'dedicated', 'explicit'] as const

/** What the feed hands the model for each buffer and texture, copied as it comes (the feed reuses its objects). */
function fieldsFed(records: object[]): Record<string, unknown>[] {
  const store = storeOf(header(), records)
  const feed = new VulkanFeed(store)
  const seen: Record<string, unknown>[] = []
  const keep = (r: VulkanResourceFields & { id: number }) => {
    const copy: Record<string, unknown> = { id: r.id }
    for (const key of KEYS) if (r[key] !== undefined) copy[key] = structuredClone(r[key])
    seen.push(copy)
  }
  const model = { onFrame() {}, onBuffer: keep, onTexture: keep } as unknown as VulkanModel
  for (let i = 0; i < store.records.length; i++) feed.apply(model, i)
  return seen
}

/** The Vulkan fields a record states itself, as JSON.parse reads its line. */
function stated(records: object[]): Record<string, unknown>[] {
  return records
    .filter((r) => 'id' in r)
    .map((r) => {
      const x = r as Record<string, unknown>
      const copy: Record<string, unknown> = { id: x.id }
      for (const key of KEYS) if (x[key] !== undefined) copy[key] = x[key]
      return copy
    })
}

describe('VulkanFeed: each resource gets its own Vulkan fields', () => {
  it('whether its extra keys repeat another resource’s, differ, or are absent', () => {
    const a = { memoryRequirements: { size: 65536, alignment: 256, memoryTypeBits: 6 }, explicit: true, required: ['HOST_VISIBLE'] }
    const b = { memoryRequirements: { size: 4096, alignment: 64, memoryTypeBits: 15 }, dedicated: 'preferred', tiling: 'linear' }
    const records = [
      { e: 'frame', n: 1 },
      { e: 'buffer', id: 1, size: 65536, usage: ['Uniform'], ...a },
      { e: 'buffer', id: 2, size: 4096, usage: ['Uniform'] },
      { e: 'texture', id: 3, dim: '2d', format: 'R8_UNORM', width: 64, height: 64, ...b },
      { e: 'buffer', id: 4, size: 65536, usage: ['Uniform'], ...a },
      { e: 'buffer', id: 5, size: 65536, usage: ['Uniform'], ...a, vkUsage: 130 },
      { e: 'texture', id: 6, dim: '2d', format: 'R8_UNORM', width: 64, height: 64, ...b, preferred: ['HOST_CACHED'] },
      { e: 'texture', id: 7, dim: '2d', format: 'R8_UNORM', width: 64, height: 64 },
      { e: 'texture', id: 8, dim: '2d', format: 'R8_UNORM', width: 64, height: 64, ...b },
    ]
    expect(fieldsFed(records)).toEqual(stated(records))
  })

  it('past the texts it keeps parsed, as before it', () => {
    // More distinct texts than kept, then the first ones again: each still reads its own.
    const records: object[] = [{ e: 'frame', n: 1 }]
    const n = FIELDS_KEPT + 10
    for (let i = 0; i < n + 20; i++) {
      const size = 256 * ((i % n) + 1)
      records.push({ e: 'buffer', id: i + 1, size, usage: ['Uniform'], memoryRequirements: { size, alignment: 256, memoryTypeBits: 6 } })
    }
    expect(fieldsFed(records)).toEqual(stated(records))
  })
})
