/**
 * Buffer and texture kinds as Unreal Engine creates them: usage flags and strides of FRDGBufferDesc's
 * factories (structured, byte-address, typed, indirect-args), static mesh buffers, uniform buffers, and the
 * texture flags of render targets, UAVs and streamed assets.
 */
import type { TextureDim, TextureFlag } from '../../shared/capture'
import { BufferClass, TextureClass } from './writer'

// FRDGBufferDesc::CreateStructuredDesc: SRV + UAV, element-indexed views, so the stride sets the alignment.
const structuredCache = new Map<string, BufferClass>()
export function structured(stride: number, tag?: string): BufferClass {
  const key = stride + '|' + tag
  let cls = structuredCache.get(key)
  if (!cls) {
    cls = new BufferClass({ usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'StructuredBuffer'], stride, tag })
    structuredCache.set(key, cls)
  }
  return cls
}

/** FRDGBufferDesc::CreateByteAddressDesc: 4-byte elements, raw views (alignment 16). */
export const BYTE_ADDRESS = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'ByteAddressBuffer'], stride: 4 },
)
/** FRDGBufferDesc::CreateBufferDesc(4, n): a typed R32_UINT buffer. */
export const TYPED_UINT = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 4 },
)
/** FRDGBufferDesc::CreateIndirectDesc: indirect dispatch or draw arguments. */
export const INDIRECT_ARGS = new BufferClass(
  { usage: ['Static', 'DrawIndirect', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 4 },
)
/** A structured buffer only uploaded to and read: per-frame instance or light data. */
const uploadedCache = new Map<number, BufferClass>()
export function uploadedStructured(stride: number): BufferClass {
  let cls = uploadedCache.get(stride)
  if (!cls) {
    cls = new BufferClass({ usage: ['Static', 'ShaderResource', 'StructuredBuffer'], stride })
    uploadedCache.set(stride, cls)
  }
  return cls
}

export const MESH_VERTEX = new BufferClass({ usage: ['Static', 'VertexBuffer'], init: true, tag: 'Meshes' })
export const MESH_VERTEX_SRV = new BufferClass(
  { usage: ['Static', 'VertexBuffer', 'ShaderResource'], init: true, tag: 'Meshes' },
)
export const MESH_INDEX16 = new BufferClass({ usage: ['Static', 'IndexBuffer'], stride: 2, init: true, tag: 'Meshes' })
export const MESH_INDEX32 = new BufferClass(
  { usage: ['Static', 'IndexBuffer', 'ShaderResource'], stride: 4, init: true, tag: 'Meshes' },
)
/** The GPU skin cache's output: written by compute each frame. */
export const SKIN_CACHE = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 4, tag: 'Meshes' },
)

/** Multi-frame uniform buffers: the upload allocator, 256-byte aligned. */
export const UNIFORM = new BufferClass({ usage: ['Uniform', 'Dynamic'], tag: 'UniformBuffers' })
/** A CPU-written vertex buffer renamed every lock (particles, debug lines, UI). */
export const DYNAMIC_VERTEX = new BufferClass({ usage: ['Dynamic', 'VertexBuffer'], tag: 'Particles' })
/** FRHIGPUBufferReadback's staging buffer. */
export const READBACK = new BufferClass({ usage: [], heap: 'readback', tag: 'RHIMisc' })

export const RT: TextureFlag[] = ['RenderTargetable', 'ShaderResource']
export const RT_UAV: TextureFlag[] = ['RenderTargetable', 'ShaderResource', 'UAV']
export const UAV: TextureFlag[] = ['ShaderResource', 'UAV']
export const DS: TextureFlag[] = ['DepthStencilTargetable', 'ShaderResource']

const textureCache = new Map<string, TextureClass>()
export function textureClass(
  format: string,
  flags: readonly TextureFlag[],
  tag?: string,
  dim: TextureDim = '2d',
  samples = 1,
): TextureClass {
  const key = format + '|' + flags.join() + '|' + tag + '|' + dim + '|' + samples
  let cls = textureCache.get(key)
  if (!cls) {
    cls = new TextureClass({ dim, format, flags, tag, samples })
    textureCache.set(key, cls)
  }
  return cls
}
