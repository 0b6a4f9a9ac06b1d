import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../../../src/shared/model'
import { MiB, GiB } from '../../../../../src/shared/units'
import { resolveVulkanConfig, VULKAN_CONFIG_KEYS } from '../../../../../src/main/model/vulkan/config'
import { defaultVulkanDevice, deviceProblems, vulkanSetup } from '../../../../../src/main/model/vulkan/device'
import { MINOR_UPGRADERS } from '../../../../../src/main/ingest/versions'
import { estimateTextureBytes } from '../../../../../src/main/model/vulkan/requirements'
import type { CaptureHeader } from '../../../../../src/shared/capture'

describe('Vulkan config keys', () => {
  it('have the seed\'s defaults where it gives them', () => {
    expect(VULKAN_CONFIG_KEYS['vulkan.blockSize']).toMatchObject({ default: 256 * MiB, seed: '§4.3' })
    expect(VULKAN_CONFIG_KEYS['vulkan.linear.blockSize']).toMatchObject({ default: 256 * MiB, seed: '§4.3' })
    expect(VULKAN_CONFIG_KEYS.framesInFlight).toMatchObject({ default: 2, seed: '§7.2' })
  })

  it('resolve over the header and the user, skipping the D3D12 model\'s keys', () => {
    const config = resolveVulkanConfig({ 'bufferPool.size': 1, 'vulkan.blockSize': '64 MiB', framesInFlight: 3 }, { framesInFlight: '1' })
    expect(config['vulkan.blockSize']).toBe(64 * MiB)
    expect(config.framesInFlight).toBe(1)
    expect(config['vulkan.textureAllocator']).toBe(0)
  })

  it('refuse unknown keys and bad values with a message', () => {
    expect(() => resolveVulkanConfig({ 'vulkan.blokSize': 1 })).toThrow(ConfigError)
    expect(() => resolveVulkanConfig({ 'vulkan.blokSize': 1 })).toThrow(/unknown Vulkan config key "vulkan.blokSize"/)
    expect(() => resolveVulkanConfig({ 'vulkan.textureAllocator': 2 })).toThrow('config vulkan.textureAllocator: 2 must be one of 0, 1')
    expect(() => resolveVulkanConfig({ 'vulkan.blockSize': 'big' })).toThrow('config vulkan.blockSize: "big" is not a number')
  })
})

describe('the device of a capture', () => {
  const header: CaptureHeader = { format: 'heapscope-capture', version: 1, api: 'vulkan', adapter: { vram: 12 * GiB }, budget: 10 * GiB }

  it('is the default desktop device for a 1.0 header, sized from its adapter and budget', () => {
    const setup = vulkanSetup(header)
    expect(setup.defaulted).toBe(true)
    expect(setup.aliasing).toBe('simple')
    expect(setup.device.memoryHeaps).toEqual([
      { size: 12 * GiB, flags: ['DEVICE_LOCAL'], budget: 10 * GiB },
      { size: 16 * GiB, flags: [] },
    ])
    expect(setup.device.memoryTypes.map((t) => t.heapIndex)).toEqual([0, 1, 1, 0])
    expect(deviceProblems(defaultVulkanDevice({ uma: true }))).toEqual([])
  })

  it('stays the default device once the header is upgraded 1.0 → 1.1', () => {
    const upgraded = MINOR_UPGRADERS[0].header(header)
    expect((upgraded as { minor?: number }).minor).toBe(1)
    expect(vulkanSetup(upgraded)).toEqual(vulkanSetup(header))
  })

  it('reads the documented block, and the VMA-nested spelling (heap, flags, index) too', () => {
    const vulkan = {
      maxMemoryAllocationCount: 4096,
      bufferImageGranularity: 1,
      nonCoherentAtomSize: 128,
      memoryHeaps: [{ index: 0, name: 'Heap 0', flags: [], size: 100 }, { index: 1, name: 'Heap 1', flags: ['DEVICE_LOCAL'], size: 200, budget: 150 }],
      memoryTypes: [{ index: 1, heap: 0, flags: ['HOST_VISIBLE', 'HOST_COHERENT'] }, { index: 0, heap: 1, flags: ['DEVICE_LOCAL'] }],
    }
    const setup = vulkanSetup({ ...header, vulkan, aliasing: 'advanced' })
    expect(setup.problems).toEqual([])
    expect(setup.aliasing).toBe('advanced')
    expect(setup.device.memoryTypes).toEqual([
      { heapIndex: 1, propertyFlags: ['DEVICE_LOCAL'] },
      { heapIndex: 0, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
    ])
    expect(setup.device.memoryHeaps[1]).toEqual({ size: 200, flags: ['DEVICE_LOCAL'], budget: 150 })
  })

  it('names the problems of a broken block and replays on the default device', () => {
    const setup = vulkanSetup({ ...header, vulkan: { memoryHeaps: [{ size: 0, flags: [] }], memoryTypes: [{ heapIndex: 3, propertyFlags: ['FAST'] }] } })
    expect(setup.defaulted).toBe(true)
    expect(setup.problems).toEqual([
      'memoryHeaps[0].size must be a positive integer',
      'memoryTypes[0].heapIndex must name a heap',
      expect.stringMatching(/^memoryTypes\[0\]\.propertyFlags must list DEVICE_LOCAL, /),
      'maxMemoryAllocationCount must be a positive integer',
      'bufferImageGranularity must be a positive integer',
      'nonCoherentAtomSize must be a positive integer',
    ])
  })
})

describe('texture size estimate without memoryRequirements', () => {
  it('sums the mips of a linear layout', () => {
    // 256×256 RGBA8 with 3 mips: 256²·4 + 128²·4 + 64²·4 = 262144 + 65536 + 16384
    expect(estimateTextureBytes({ format: 'R8G8B8A8_UNORM', width: 256, height: 256, mips: 3 })).toBe(344064)
    // BC7 (128-bit 4×4 blocks) 10×6: 3×2 blocks × 16 bytes, ×6 faces of a cube
    expect(estimateTextureBytes({ format: 'BC7_UNORM', width: 10, height: 6, dim: 'cube' })).toBe(576)
    // 3D 8×8×8 R16F, 2 mips: 8·8·8·2 + 4·4·4·2
    expect(estimateTextureBytes({ format: 'R16_FLOAT', width: 8, height: 8, depth: 8, dim: '3d', mips: 2 })).toBe(1152)
  })
})
