/**
 * The allocator model's vocabulary, shared by the engine and the renderer: placement names, heap types and
 * the config keys with their defaults (docs/model.md restates the seed's rules behind each).
 */
import { KiB, MiB } from './units'

export const PLACEMENTS = [
  'Committed',
  'SharedBufferPool',
  'PlacedBufferPool',
  'AccelerationStructurePool',
  'TextureReadOnlyPool',
  'TextureReadOnly4KPool',
  'TextureRTPool',
  'TextureUAVPool',
  'Reserved',
  'UploadSmallBlock',
  'UploadBigBlock',
  'ReadbackPool',
  'Transient',
] as const
export type Placement = (typeof PLACEMENTS)[number]

export const HEAP_TYPES = ['DEFAULT', 'UPLOAD', 'READBACK'] as const
export type HeapType = (typeof HEAP_TYPES)[number]

export interface ConfigKeyInfo {
  default: number
  /** Where the seed gives the value; absent where the seed is silent and the default is a choice. */
  seed?: string
  kind: 'bytes' | 'count' | 'bool' | 'enum'
  /** Allowed values for `enum` keys. */
  values?: readonly number[]
  /** Lower bound; sizes and counts are never negative. */
  min?: number
  help: string
}

export const CONFIG_KEYS = {
  'bufferPool.size': { default: 32 * MiB, seed: '§3.3', kind: 'bytes', min: 1, help: 'DEFAULT buffer pool size' },
  'bufferPool.maxAllocation': {
    default: 16 * MiB,
    seed: '§3.3',
    kind: 'bytes',
    min: 0,
    help: 'largest request a DEFAULT buffer pool takes',
  },
  'bufferPool.alignment': { default: 256, seed: '§3.4', kind: 'bytes', min: 1, help: 'shared buffer pool alignment' },
  'placedBufferPool.alignment': {
    default: 64 * KiB,
    seed: '§3.5',
    kind: 'bytes',
    min: 1,
    help: 'placed buffer pool alignment',
  },
  'readbackPool.maxAllocation': {
    default: 64 * KiB,
    seed: '§3.2',
    kind: 'bytes',
    min: 0,
    help: 'largest readback staging buffer the READBACK pool takes',
  },
  'asPool.size': { default: 32 * MiB, seed: '§3.7', kind: 'bytes', min: 1, help: 'acceleration-structure pool size' },
  'asPool.maxAllocation': {
    default: 16 * MiB,
    seed: '§3.7',
    kind: 'bytes',
    min: 0,
    help: 'largest acceleration structure the pool takes',
  },
  'texturePool.readOnly.size': {
    default: 64 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 1,
    help: 'read-only texture pool heap size',
  },
  'texturePool.readOnly.maxAllocation': {
    default: 64 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 0,
    help: 'largest texture the read-only pool takes',
  },
  'texturePool.readOnly4K.size': {
    default: 4 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 1,
    help: '4 KiB-aligned texture pool heap size',
  },
  'texturePool.readOnly4K.maxAllocation': {
    default: 4 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 0,
    help: 'largest texture the 4 KiB pool takes',
  },
  'texturePool.rtuav.size': {
    default: 0,
    seed: '§4.4',
    kind: 'bytes',
    min: 0,
    help: 'render-target and UAV texture pool heap size (0: not pooled)',
  },
  'texturePool.rtuav.maxAllocation': {
    default: 0,
    seed: '§4.4',
    kind: 'bytes',
    min: 0,
    help: 'largest render-target or UAV texture the pools take',
  },
  'upload.smallBlock.maxAllocation': {
    default: 64 * KiB,
    seed: '§5.1',
    kind: 'bytes',
    min: 0,
    help: 'largest upload request the buddy allocator takes',
  },
  'upload.smallBlock.minBlock': {
    default: 512,
    seed: '§5.1',
    kind: 'bytes',
    min: 1,
    help: 'smallest buddy block',
  },
  'upload.smallBlock.poolSize': {
    default: 4 * MiB,
    kind: 'bytes',
    min: 1,
    help: 'buddy allocator pool size (the seed is silent)',
  },
  'upload.bigBlock.poolSize': {
    default: 32 * MiB,
    seed: '§3.3, §5.1',
    kind: 'bytes',
    min: 1,
    help: 'big-block upload pool size',
  },
  'upload.bigBlock.maxAllocation': {
    default: 64 * MiB,
    seed: '§3.3, §5.1',
    kind: 'bytes',
    min: 0,
    help: 'largest upload request before a committed UPLOAD buffer',
  },
  'fastAllocator.pageSize': { default: 4 * MiB, seed: '§5.3', kind: 'bytes', min: 1, help: 'FastAllocator page size' },
  'fastConstant.pageSize': {
    default: 64 * KiB,
    seed: '§5.4',
    kind: 'bytes',
    min: 1,
    help: 'FastConstantAllocator page size',
  },
  'transient.minimumHeapSize': {
    default: 128 * MiB,
    seed: '§6.1',
    kind: 'bytes',
    min: 1,
    help: 'smallest render-graph transient heap',
  },
  'transient.gcLatency': {
    default: 16,
    seed: '§6.1',
    kind: 'count',
    min: 0,
    help: 'graph executions a transient heap may stay unused before it is destroyed',
  },
  'defrag.enabled': { default: 1, seed: '§8.2', kind: 'bool', help: 'defragment DEFAULT buffer and read-only texture pools' },
  'defrag.maxCopyPerFrame': {
    default: 32 * MiB,
    seed: '§8.2',
    kind: 'bytes',
    min: 0,
    help: 'defrag copy budget per frame, for buffers and for textures each',
  },
  'defrag.maxPoolsPerFrame': {
    default: 1,
    seed: '§8.2',
    kind: 'count',
    min: 0,
    help: 'pools defragmented per frame',
  },
  'pool.emptyFramesBeforeRelease': {
    default: 20,
    seed: '§8.2',
    kind: 'count',
    min: 0,
    help: 'frames a pool stays empty before it is destroyed',
  },
  framesInFlight: {
    default: 2,
    seed: '§8.1',
    kind: 'count',
    min: 0,
    help: 'frames the GPU lags the CPU when the capture has no gpu records (the seed is silent)',
  },
  allowPoolAllocateIndirectArgBuffers: {
    default: 1,
    seed: '§3.2',
    kind: 'bool',
    help: 'pool DrawIndirect buffers (d3d12.AllowPoolAllocateIndirectArgBuffers)',
  },
  'residency.enabled': { default: 1, seed: '§9.1', kind: 'bool', help: 'model the residency manager' },
  'residency.startResident': {
    default: 0,
    seed: '§9.1',
    kind: 'bool',
    help: 'objects are resident at creation (D3D12.ResourcesStartResident)',
  },
  resourceHeapTier: {
    default: 2,
    seed: '§6.1',
    kind: 'enum',
    values: [1, 2],
    help: 'resource heap tier: 2 mixes buffers and textures in one heap',
  },
} as const satisfies Record<string, ConfigKeyInfo>

export type ConfigKey = keyof typeof CONFIG_KEYS
export type ModelConfig = { [K in ConfigKey]: number }

export const CONFIG_KEY_NAMES = Object.keys(CONFIG_KEYS) as ConfigKey[]

export function defaultConfig(): ModelConfig {
  const out = {} as ModelConfig
  for (const key of CONFIG_KEY_NAMES) out[key] = CONFIG_KEYS[key].default
  return out
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

function validKeysText(): string {
  return CONFIG_KEY_NAMES.map((k) => `  ${k} (default ${CONFIG_KEYS[k].default})`).join('\n')
}

/** Parse one value for a key: integers (with optional KiB/MiB/GiB suffix), true/false for bool keys. */
export function parseConfigValue(key: string, raw: string | number | boolean): number {
  if (!(key in CONFIG_KEYS)) {
    throw new ConfigError(`unknown config key "${key}"; valid keys:\n${validKeysText()}`)
  }
  const info: ConfigKeyInfo = CONFIG_KEYS[key as ConfigKey]
  let value: number
  if (typeof raw === 'boolean') value = raw ? 1 : 0
  else if (typeof raw === 'number') value = raw
  else {
    const text = raw.trim()
    const m = /^(-?\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|K|M|G)?$/i.exec(text)
    if (info.kind === 'bool' && /^(true|false|on|off|yes|no)$/i.test(text)) {
      value = /^(true|on|yes)$/i.test(text) ? 1 : 0
    } else if (m) {
      const unit = (m[2] ?? 'B').toUpperCase()
      const mult = unit.startsWith('K') ? 1024 : unit.startsWith('M') ? 1024 ** 2 : unit.startsWith('G') ? 1024 ** 3 : 1
      value = Number(m[1]) * mult
    } else {
      throw new ConfigError(`config ${key}: "${raw}" is not a number`)
    }
  }
  if (!Number.isSafeInteger(value)) throw new ConfigError(`config ${key}: ${raw} is not an integer`)
  if (info.kind === 'bool' && value !== 0 && value !== 1) {
    throw new ConfigError(`config ${key}: ${raw} must be 0 or 1 (or true/false)`)
  }
  if (info.values && !info.values.includes(value)) {
    throw new ConfigError(`config ${key}: ${raw} must be one of ${info.values.join(', ')}`)
  }
  if (info.min !== undefined && value < info.min) {
    throw new ConfigError(`config ${key}: ${raw} is below ${info.min}`)
  }
  return value
}

/** Defaults, overridden by the capture's header config, overridden by the user's. Throws ConfigError. */
export function resolveConfig(...layers: (Record<string, string | number | boolean> | undefined)[]): ModelConfig {
  const out = defaultConfig()
  for (const layer of layers) {
    if (!layer) continue
    for (const [key, raw] of Object.entries(layer)) out[key as ConfigKey] = parseConfigValue(key, raw)
  }
  return out
}

/** `key=value` pairs as the CLI's `--config` takes them. */
export function parseConfigPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new ConfigError(`--config expects KEY=VALUE, got "${pair}"; valid keys:\n${validKeysText()}`)
    const key = pair.slice(0, eq).trim()
    parseConfigValue(key, pair.slice(eq + 1))
    out[key] = pair.slice(eq + 1)
  }
  return out
}
