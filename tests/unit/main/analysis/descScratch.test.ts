import { describe, expect, it } from 'vitest'
import { DescScratch } from '../../../../src/main/analysis/descScratch'
import { bufferDesc, textureDesc } from '../../../../src/main/ingest/records'
import { lines, scan } from '../ingest/helpers'

const { store } = scan(
  lines(
    { e: 'frame', n: 0 },
    { e: 'buffer', id: 1, size: 1024, usage: ['Static', 'VertexBuffer'], name: 'SM_Rock.VB', tag: 'Meshes' },
    { e: 'buffer', id: 2, size: 64, usage: ['Uniform'] },
    { e: 'buffer', id: 3, size: 4096, usage: ['UnorderedAccess'], name: 'BLAS scratch', tag: 'RayTracing', heap: 'readback' },
    { e: 'texture', id: 4, format: 'BC7_UNORM', width: 512, height: 512, mips: 10, name: 'T_Rock_D', tag: 'Textures' },
    { e: 'texture', id: 5, dim: '3d', format: 'R16G16B16A16_FLOAT', width: 32, height: 32, depth: 32, flags: ['UAV'] },
  ),
)

describe('descs from the store', () => {
  it("the reused desc reads each row's name and tag when asked, as a desc filled whole does", () => {
    const descs = new DescScratch(store)
    expect([store.buffers.length, store.textures.length]).toEqual([3, 2])
    for (let row = 0; row < store.buffers.length; row++) {
      const lazy = descs.bufferAt(row)
      const whole = descs.bufferAt(row, {} as never)
      const plain = bufferDesc(store, row)
      expect(lazy.name).toBe(plain.name)
      expect(lazy.tag).toBe(plain.tag)
      expect(whole.name).toBe(plain.name)
      expect(whole.tag).toBe(plain.tag)
      expect(lazy.size).toBe(plain.size)
      expect(lazy.usage).toEqual(plain.usage)
      expect(lazy.heap).toBe(plain.heap ?? 'default')
    }
    for (let row = 0; row < store.textures.length; row++) {
      const lazy = descs.textureAt(row)
      const plain = textureDesc(store, row)
      expect([lazy.name, lazy.tag, lazy.format, lazy.dim, lazy.width, lazy.depth, lazy.mips]).toEqual([
        plain.name,
        plain.tag,
        plain.format,
        plain.dim,
        plain.width,
        plain.depth ?? 1,
        plain.mips ?? 1,
      ])
    }
  })

  it('the reused desc answers for the last row asked, its name included', () => {
    const descs = new DescScratch(store)
    const desc = descs.bufferAt(0)
    expect(desc.name).toBe('SM_Rock.VB')
    descs.bufferAt(2)
    expect([desc.name, desc.tag]).toEqual(['BLAS scratch', 'RayTracing'])
    descs.bufferAt(1)
    expect([desc.name, desc.tag]).toEqual([undefined, undefined])
  })

  it('usage lists are shared per mask and frozen', () => {
    const descs = new DescScratch(store)
    const first = descs.bufferAt(0, {} as never).usage
    expect(Object.isFrozen(first)).toBe(true)
    expect(descs.bufferAt(0, {} as never).usage).toBe(first)
  })
})
