import { describe, expect, it } from 'vitest'
import { CONFIG_KEY_NAMES, ConfigError, defaultConfig, parseConfigPairs, resolveConfig } from '../../../src/shared/model'

describe('model config', () => {
  it('has the defaults of MODEL.md', () => {
    const c = defaultConfig()
    expect(c['bufferPool.size']).toBe(32 * 2 ** 20)
    expect(c['bufferPool.maxAllocation']).toBe(16 * 2 ** 20)
    expect(c['placedBufferPool.alignment']).toBe(65536)
    expect(c['texturePool.rtuav.size']).toBe(0)
    expect(c['transient.minimumHeapSize']).toBe(128 * 2 ** 20)
    expect(c['transient.gcLatency']).toBe(16)
    expect(c['pool.emptyFramesBeforeRelease']).toBe(20)
    expect(c.framesInFlight).toBe(2)
    expect(c.allowPoolAllocateIndirectArgBuffers).toBe(1)
    expect(CONFIG_KEY_NAMES).toHaveLength(31)
  })

  it('layers the capture config under the user overrides, with units', () => {
    const c = resolveConfig({ 'bufferPool.size': 1 << 20 }, parseConfigPairs(['bufferPool.size=64MiB', 'defrag.enabled=false']))
    expect(c['bufferPool.size']).toBe(64 * 2 ** 20)
    expect(c['defrag.enabled']).toBe(0)
  })

  it('refuses an unknown key, listing the valid ones, and bad values', () => {
    expect(() => parseConfigPairs(['bufferPool.sise=1'])).toThrow(ConfigError)
    expect(() => parseConfigPairs(['bufferPool.sise=1'])).toThrow(/valid keys:[\s\S]*bufferPool\.size/)
    expect(() => parseConfigPairs(['framesInFlight=-1'])).toThrow(/below 0/)
    expect(() => parseConfigPairs(['resourceHeapTier=3'])).toThrow(/one of 1, 2/)
    expect(() => parseConfigPairs(['defrag.enabled=2'])).toThrow(/0 or 1/)
    expect(() => parseConfigPairs(['bufferPool.size=lots'])).toThrow(/not a number/)
    expect(() => parseConfigPairs(['nokey'])).toThrow(/KEY=VALUE/)
  })
})
