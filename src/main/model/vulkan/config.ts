/**
 * The Vulkan model's config keys, in the shape of src/shared/model.ts CONFIG_KEYS: default, the section of
 * seeds/vulkan-memory-management.zh.txt the value comes from (absent where the seed is silent), kind and help.
 */
import { KiB, MiB } from '../../../shared/units'
import { CONFIG_KEYS, ConfigError, type ConfigKeyInfo } from '../../../shared/model'

export const TEXTURE_ALLOCATOR_FREE_LIST = 0
export const TEXTURE_ALLOCATOR_BUDDY = 1

export const VULKAN_CONFIG_KEYS = {
  'vulkan.blockSize': {
    default: 256 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 1,
    help: 'size of each VkDeviceMemory block the sub-allocators carve',
  },
  'vulkan.dedicatedMinSize': {
    default: 128 * MiB,
    kind: 'bytes',
    min: 1,
    help:
      'smallest request given its own VkDeviceMemory (the seed is silent: half a block, so any sub-allocated ' +
      'request fits a new block)',
  },
  'vulkan.textureAllocator': {
    default: TEXTURE_ALLOCATOR_FREE_LIST,
    seed: '§4.2',
    kind: 'enum',
    values: [TEXTURE_ALLOCATOR_FREE_LIST, TEXTURE_ALLOCATOR_BUDDY],
    help: 'textures in free-list blocks (0) or buddy blocks (1)',
  },
  'vulkan.buddy.minBlock': {
    default: 4 * KiB,
    kind: 'bytes',
    min: 1,
    help: 'smallest buddy block (the seed is silent; raised to bufferImageGranularity)',
  },
  'vulkan.linear.blockSize': {
    default: 256 * MiB,
    seed: '§4.3',
    kind: 'bytes',
    min: 1,
    help: 'block size of the per-frame linear allocator for dynamic uniform data',
  },
  'vulkan.staging.ringSize': {
    default: 64 * MiB,
    kind: 'bytes',
    min: 1,
    help: 'staging ring size (the seed is silent)',
  },
  'vulkan.emptyBlocksKept': {
    default: 1,
    kind: 'count',
    min: 0,
    help: 'empty blocks kept per memory type instead of freed (the seed is silent)',
  },
  framesInFlight: {
    default: 2,
    seed: '§7.2',
    kind: 'count',
    min: 0,
    help: 'frames the GPU lags the CPU when the capture has no gpu records',
  },
} as const satisfies Record<string, ConfigKeyInfo>

export type VulkanConfigKey = keyof typeof VULKAN_CONFIG_KEYS
export type VulkanConfig = { [K in VulkanConfigKey]: number }

export const VULKAN_CONFIG_KEY_NAMES = Object.keys(VULKAN_CONFIG_KEYS) as VulkanConfigKey[]

export function defaultVulkanConfig(): VulkanConfig {
  const out = {} as VulkanConfig
  for (const key of VULKAN_CONFIG_KEY_NAMES) out[key] = VULKAN_CONFIG_KEYS[key].default
  return out
}

function isVulkanKey(key: string): key is VulkanConfigKey {
  return Object.hasOwn(VULKAN_CONFIG_KEYS, key)
}

function validKeysText(): string {
  return VULKAN_CONFIG_KEY_NAMES.map((k) => `  ${k} (default ${VULKAN_CONFIG_KEYS[k].default})`).join('\n')
}

const UNIT = { B: 1, K: KiB, M: MiB, G: 1024 * MiB } as const

/** One value for a Vulkan key, as src/shared/model.ts parseConfigValue reads D3D12 keys. */
export function parseVulkanConfigValue(key: string, raw: string | number | boolean): number {
  if (!isVulkanKey(key)) throw new ConfigError(`unknown Vulkan config key "${key}"; valid keys:\n${validKeysText()}`)
  const info: ConfigKeyInfo = VULKAN_CONFIG_KEYS[key]
  let value: number
  if (typeof raw === 'boolean') value = raw ? 1 : 0
  else if (typeof raw === 'number') value = raw
  else {
    const m = /^(-?\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|K|M|G)?$/i.exec(raw.trim())
    if (!m) throw new ConfigError(`config ${key}: "${raw}" is not a number`)
    value = Number(m[1]) * UNIT[(m[2] ?? 'B')[0].toUpperCase() as keyof typeof UNIT]
  }
  if (!Number.isSafeInteger(value)) throw new ConfigError(`config ${key}: ${raw} is not an integer`)
  if (info.values && !info.values.includes(value)) {
    throw new ConfigError(`config ${key}: ${raw} must be one of ${info.values.join(', ')}`)
  }
  if (info.min !== undefined && value < info.min) throw new ConfigError(`config ${key}: ${raw} is below ${info.min}`)
  return value
}

/**
 * Defaults, overridden layer by layer (the capture header's config, then the user's). Keys of the D3D12 model
 * (src/shared/model.ts) are skipped, since a header's config may carry both; any other key throws ConfigError.
 */
export function resolveVulkanConfig(...layers: (Record<string, string | number | boolean> | undefined)[]): VulkanConfig {
  const out = defaultVulkanConfig()
  for (const layer of layers) {
    if (!layer) continue
    for (const [key, raw] of Object.entries(layer)) {
      if (isVulkanKey(key)) out[key] = parseVulkanConfigValue(key, raw)
      else if (!Object.hasOwn(CONFIG_KEYS, key)) parseVulkanConfigValue(key, raw)
    }
  }
  return out
}
