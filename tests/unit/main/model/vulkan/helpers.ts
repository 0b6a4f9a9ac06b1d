import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { VulkanDeviceInfo } from '../../../../../src/main/model/vulkan/captureTypes'
import { defaultVulkanConfig, type VulkanConfig } from '../../../../../src/main/model/vulkan/config'
import type { VulkanSink } from '../../../../../src/main/model/vulkan/events'
import { KiB, MiB, GiB } from '../../../../../src/shared/units'

export const VMA_DUMP_PATH = fileURLToPath(new URL('../../../../fixtures/real/vma-dump-rx6600xt.json', import.meta.url))

export function readVmaDump(): Record<string, unknown> {
  return JSON.parse(readFileSync(VMA_DUMP_PATH, 'utf8')) as Record<string, unknown>
}

/**
 * A small device for arithmetic by hand: heap 0 video memory, heap 1 system memory; type 0 DEVICE_LOCAL,
 * 1 HOST_VISIBLE|HOST_COHERENT, 2 HOST_VISIBLE|HOST_COHERENT|HOST_CACHED, 3 HOST_VISIBLE alone (non-coherent).
 */
export function testDevice(overrides: Partial<VulkanDeviceInfo> = {}): VulkanDeviceInfo {
  return {
    memoryHeaps: [
      { size: 1 * GiB, flags: ['DEVICE_LOCAL'] },
      { size: 1 * GiB, flags: [] },
    ],
    memoryTypes: [
      { heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] },
      { heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
      { heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT', 'HOST_CACHED'] },
      { heapIndex: 1, propertyFlags: ['HOST_VISIBLE'] },
    ],
    maxMemoryAllocationCount: 4096,
    bufferImageGranularity: 1024,
    nonCoherentAtomSize: 64,
    ...overrides,
  }
}

/** Blocks of 1 MiB, dedicated from 512 KiB, 64 KiB linear blocks and staging ring. */
export function testConfig(overrides: Partial<VulkanConfig> = {}): VulkanConfig {
  return {
    ...defaultVulkanConfig(),
    'vulkan.blockSize': 1 * MiB,
    'vulkan.dedicatedMinSize': 512 * KiB,
    'vulkan.linear.blockSize': 64 * KiB,
    'vulkan.staging.ringSize': 64 * KiB,
    ...overrides,
  }
}

export interface Recorded {
  warnings: { kind: string; message: string; frame: number }[]
  events: string[]
  sink: VulkanSink
}

/** A sink that keeps warnings and a readable line per event. */
export function recorder(): Recorded {
  const warnings: Recorded['warnings'] = []
  const events: string[] = []
  return {
    warnings,
    events,
    sink: {
      warning: (kind, message, frame) => warnings.push({ kind, message, frame }),
      memoryAllocated: (m, frame) => events.push(`f${frame} alloc #${m.memory} ${m.kind} type ${m.type} ${m.size}`),
      memoryFreed: (memory, frame) => events.push(`f${frame} free #${memory}`),
      vulkanPlaced: (p, frame) => events.push(`f${frame} place ${p.id} ${p.placement} #${p.memory} @${p.offset} +${p.size}`),
      releasePending: (id, frame) => events.push(`f${frame} pending ${id}`),
      freed: (id, frame) => events.push(`f${frame} freed ${id}`),
    },
  }
}
