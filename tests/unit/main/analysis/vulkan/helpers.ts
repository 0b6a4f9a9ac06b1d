/** Vulkan captures for the run tests: hand-made ones as stores, generated ones, and loads the engine takes. */
import { fileURLToPath } from 'node:url'
import type { LoadResult } from '../../../../../src/main/ingest/read'
import type { CaptureStore } from '../../../../../src/main/ingest/store'
import type { VulkanCaptureHeader, VulkanDeviceInfo } from '../../../../../src/main/model/vulkan/captureTypes'
import { GiB, KiB, MiB } from '../../../../../src/shared/units'
import { bytesOf, generated, scan } from '../../ingest/helpers'

export const VMA_DUMP = fileURLToPath(new URL('../../../../fixtures/real/vma-dump-rx6600xt.json', import.meta.url))

/**
 * Heap 0 video memory (1 GiB, budget 900 MiB), heap 1 system memory (1 GiB); type 0 DEVICE_LOCAL, type 1
 * HOST_VISIBLE|HOST_COHERENT, type 2 HOST_VISIBLE alone (not coherent); granularity 1024, atoms of 64 bytes.
 */
export const DEVICE: VulkanDeviceInfo = {
  memoryHeaps: [
    { size: 1 * GiB, flags: ['DEVICE_LOCAL'], budget: 900 * MiB },
    { size: 1 * GiB, flags: [] },
  ],
  memoryTypes: [
    { heapIndex: 0, propertyFlags: ['DEVICE_LOCAL'] },
    { heapIndex: 1, propertyFlags: ['HOST_VISIBLE', 'HOST_COHERENT'] },
    { heapIndex: 1, propertyFlags: ['HOST_VISIBLE'] },
  ],
  maxMemoryAllocationCount: 4096,
  bufferImageGranularity: 1024,
  nonCoherentAtomSize: 64,
}

/** Blocks of 1 MiB, dedicated from 512 KiB, linear blocks and staging ring of 64 KiB; 2 frames in flight. */
export const CONFIG = {
  'vulkan.blockSize': 1 * MiB,
  'vulkan.dedicatedMinSize': 512 * KiB,
  'vulkan.linear.blockSize': 64 * KiB,
  'vulkan.staging.ringSize': 64 * KiB,
}

export function header(extra: Partial<VulkanCaptureHeader> = {}): VulkanCaptureHeader {
  return {
    format: 'heapscope-capture',
    version: 1,
    minor: 1,
    api: 'vulkan',
    app: 'HandMade',
    config: CONFIG,
    vulkan: DEVICE,
    ...extra,
  }
}

/** A capture of a header and records, read by the scanner as a file would be. */
export function storeOf(head: object, records: object[]): CaptureStore {
  const text = [head, ...records].map((r) => JSON.stringify(r)).join('\n') + '\n'
  const { store, error } = scan(bytesOf(text))
  if (error) throw error
  return store
}

export function loaded(store: CaptureStore, format = 'heapscope-capture'): LoadResult {
  return { store, format, notes: [] }
}

export async function generatedStore(scenario: string, frames: number, seed = 1): Promise<CaptureStore> {
  const { store, error } = scan(bytesOf(await generated(scenario, frames, seed)))
  if (error) throw error
  return store
}

const mr = (size: number, alignment: number, memoryTypeBits: number) => ({ size, alignment, memoryTypeBits })

/**
 * Four frames (no gpu records: the GPU finishes frame n − 2 when frame n begins) whose every figure is worked out
 * by hand in the tests:
 * 1. a 100000-byte vertex buffer (type 0, the first 1 MiB block), a 614400-byte texture (≥ 512 KiB: dedicated),
 *    a uniform buffer (type 1, a 1 MiB block), 10 pieces of uniform data (the first 64 KiB linear block), an
 *    application memory of type 2 with a buffer placed in it, written and flushed by whole atoms;
 * 2. the vertex buffer released (pending), 10000 staging bytes (the 64 KiB ring), uniform data again (a second
 *    linear block: the first is still in flight);
 * 3. the budget of heap 0 down to 800 MiB, 100 bytes written to the application memory and never flushed before
 *    the submit (flush-misaligned);
 * 4. nothing: the GPU has finished frame 2, the release and the staging bytes with it.
 */
export const HAND_RECORDS: object[] = [
  { e: 'frame', n: 1 },
  { e: 'buffer', id: 1, size: 100000, usage: ['Static', 'VertexBuffer'], tag: 'Meshes', memoryRequirements: mr(100000, 256, 7) },
  {
    e: 'texture',
    id: 2,
    format: 'R8G8B8A8_UNORM',
    width: 512,
    height: 300,
    flags: ['ShaderResource'],
    name: 'T_Hand',
    tag: 'Textures',
    memoryRequirements: mr(614400, 65536, 1),
  },
  { e: 'buffer', id: 3, size: 4096, usage: ['Uniform', 'Dynamic'], name: 'View.UB', tag: 'UB', memoryRequirements: mr(4096, 256, 7) },
  { e: 'upload', via: 'fastConstant', bytes: 2560, count: 10 },
  { e: 'heap', id: 10, size: 65536, type: 'upload', memoryType: 2, name: 'MappedHeap' },
  {
    e: 'placed',
    id: 11,
    heap: 10,
    offset: 0,
    kind: 'buffer',
    size: 4096,
    usage: ['StructuredBuffer'],
    tag: 'Upload',
    memoryRequirements: mr(4096, 256, 4),
  },
  { e: 'write', memory: 10, offset: 0, size: 100 },
  { e: 'flush', memory: 10, offset: 0, size: 128 },
  { e: 'submit' },
  { e: 'frame', n: 2 },
  { e: 'release', id: 1 },
  { e: 'upload', via: 'staging', bytes: 10000, count: 1 },
  { e: 'upload', via: 'fastConstant', bytes: 2560, count: 10 },
  { e: 'submit' },
  { e: 'frame', n: 3 },
  { e: 'budget', bytes: 800 * MiB },
  { e: 'write', memory: 10, offset: 256, size: 100 },
  { e: 'submit' },
  { e: 'frame', n: 4 },
  { e: 'submit' },
]
