import { describe, expect, it } from 'vitest'
import { vmaDumpDevice } from '../../../../../src/main/model/vulkan/vmaDump'
import { MemoryTypeSelector, propertyMask } from '../../../../../src/main/model/vulkan/memoryType'
import type { MemoryPropertyFlag } from '../../../../../src/main/model/vulkan/captureTypes'
import { readVmaDump } from './helpers'

// The RX 6600 XT's types as the dump lists them (heap 0 is system memory, heap 1 video memory there):
// 0 DL (h1) · 1 HV|HC (h0) · 2 DL|HV|HC (h1) · 3 HV|HC|HCACHED (h0) · 4 DL|AMD (h1) · 5 HV|HC|AMD (h0)
// · 6 DL|HV|HC|AMD (h1) · 7 HV|HC|HCACHED|AMD (h0), AMD = DEVICE_COHERENT_AMD|DEVICE_UNCACHED_AMD.
const device = vmaDumpDevice(readVmaDump())
const selector = new MemoryTypeSelector(device)
const m = (...flags: MemoryPropertyFlag[]) => propertyMask(flags)

describe('the real VMA dump as a device', () => {
  it('has the 2 heaps, 8 types and limits of General and MemoryInfo', () => {
    expect(device.memoryHeaps.map((h) => [h.size, h.flags, h.budget])).toEqual([
      [16862150656, [], 16325847040],
      [8573157376, ['DEVICE_LOCAL', 'MULTI_INSTANCE'], 7737008128],
    ])
    expect(device.memoryTypes.map((t) => t.heapIndex)).toEqual([1, 0, 1, 0, 1, 0, 1, 0])
    expect(device.memoryTypes[7].propertyFlags).toEqual([
      'HOST_VISIBLE',
      'HOST_COHERENT',
      'HOST_CACHED',
      'DEVICE_COHERENT_AMD',
      'DEVICE_UNCACHED_AMD',
    ])
    expect(device.maxMemoryAllocationCount).toBe(4096)
    expect(device.bufferImageGranularity).toBe(1)
    expect(device.nonCoherentAtomSize).toBe(128)
    expect(selector.allTypeBits).toBe(0xff)
  })
})

describe('memory type selection on the dump', () => {
  const cases: [string, number, number, number, number, string][] = [
    // name, memoryTypeBits, required, preferred → type, route
    ['GPU-only resource: the first DEVICE_LOCAL type', 0xff, 0, m('DEVICE_LOCAL'), 0, 'exact'],
    ['dynamic uniform data: HOST_VISIBLE|HOST_COHERENT', 0xff, m('HOST_VISIBLE', 'HOST_COHERENT'), 0, 1, 'exact'],
    ['readback: HOST_VISIBLE, HOST_CACHED preferred → type 3', 0xff, m('HOST_VISIBLE'), m('HOST_CACHED'), 3, 'exact'],
    ['ReBAR write target: DEVICE_LOCAL and HOST_VISIBLE → type 2', 0xff, m('HOST_VISIBLE'), m('DEVICE_LOCAL'), 2, 'exact'],
    // memoryTypeBits rules: with type 0 masked out, the first DEVICE_LOCAL type left is 2.
    ['type 0 not allowed', 0xfe, 0, m('DEVICE_LOCAL'), 2, 'exact'],
    // Types 1 and 3 only (0b1010), DEVICE_LOCAL preferred: neither has it, both meet "nothing required" → lower index.
    ['preferred flag missing everywhere', 0b1010, 0, m('DEVICE_LOCAL'), 1, 'required'],
    // Types 4 and 5 (0x30): 5 has HOST_VISIBLE and one of the two preferred flags (HOST_COHERENT).
    ['best partial match of the preferred flags', 0x30, m('HOST_VISIBLE'), m('HOST_CACHED', 'HOST_COHERENT'), 5, 'required'],
    // Types 0 and 2 (0b0101) cannot be HOST_CACHED: the seed's fallback takes the first DEVICE_LOCAL one.
    ['seed fallback to DEVICE_LOCAL', 0b0101, m('HOST_VISIBLE', 'HOST_CACHED'), 0, 0, 'fallback'],
    ['AMD types 5 and 7 only, cached wanted', 0b1010_0000, m('HOST_VISIBLE', 'HOST_COHERENT'), m('HOST_CACHED'), 7, 'exact'],
    // Types 1 and 3 (0b1010) are all host memory: no DEVICE_LOCAL type to fall back on.
    ['nothing allowed fits', 0b1010, m('DEVICE_LOCAL'), 0, -1, 'none'],
    ['no bits at all', 0, 0, m('DEVICE_LOCAL'), -1, 'none'],
  ]
  for (const [name, bits, required, preferred, type, route] of cases) {
    it(name, () => {
      expect(selector.select(bits, required, preferred)).toBe(type)
      expect(selector.route).toBe(route)
    })
  }
})
