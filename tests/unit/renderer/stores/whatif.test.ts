import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import { useCompareStore } from '../../../../src/renderer/src/stores/compare'
import { useUiStore } from '../../../../src/renderer/src/stores/ui'
import { parseEntryValue, useWhatIfStore } from '../../../../src/renderer/src/stores/whatif'
import { summary } from '../fakeHost'
import { host, opened, settle, useAppHost } from './appHost'

useAppHost()

describe('what-if, then compare', () => {
  it('checks the keys of a Vulkan run by what each entry says of itself', () => {
    const blockSize = { key: 'vulkan.blockSize', kind: 'bytes' as const }
    // 128 MiB = 128 × 1024 × 1024
    expect(parseEntryValue(blockSize, '128MiB')).toBe(134217728)
    expect(() => parseEntryValue(blockSize, 'big')).toThrow('is not a number')
    const allocator = { key: 'vulkan.textureAllocator', kind: 'enum' as const, values: [0, 1] }
    expect(parseEntryValue(allocator, '1')).toBe(1)
    expect(() => parseEntryValue(allocator, '2')).toThrow('must be one of 0, 1')
    // the D3D12 model's keys keep the shared parser's rules (its minimum of 1 byte)
    expect(() => parseEntryValue({ key: 'bufferPool.size', kind: 'bytes' }, '0')).toThrow('below 1')
  })

  it('checks edits as the CLI would, and refuses to re-run with a bad one', async () => {
    await opened()
    const whatif = useWhatIfStore()
    await whatif.load()
    expect(whatif.entries.map((e) => e.key)).toEqual(['bufferPool.size', 'defrag.enabled', 'resourceHeapTier'])
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(whatif.changed).toEqual(['bufferPool.size'])
    expect(whatif.overrides).toEqual({ 'bufferPool.size': '8MiB' })
    whatif.setEdit('defrag.enabled', 'maybe')
    expect(whatif.errors['defrag.enabled']).toContain('not a number')
    expect(await whatif.rerun()).toBe(false)
    // an edit equal to the run's value changes nothing
    whatif.setEdit('defrag.enabled', 'true')
    expect(whatif.changed).toEqual(['bufferPool.size'])
  })

  it('re-runs as run B, remembers the overrides, and compares', async () => {
    const { runs } = await opened()
    const whatif = useWhatIfStore()
    const ui = useUiStore()
    const compare = useCompareStore()
    await whatif.load()
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(await whatif.rerun()).toBe(true)
    await settle()
    expect(host.calls).toContain('rerun {"bufferPool.size":"8MiB"}')
    expect(host.saved).toContainEqual({ configOverrides: { 'bufferPool.size': '8MiB' } })
    expect(runs.other?.runId).toBe('run-B')
    expect(runs.otherOverrides).toEqual({ 'bufferPool.size': '8MiB' })
    expect(ui.view).toBe('compare')
    expect(whatif.otherValues?.['bufferPool.size']).toBe(8 * MiB)
    compare.setActive(true)
    await settle()
    expect(compare.lanes?.delta[0]).toBe(-8 * MiB)
    expect(compare.lanes?.a.layers.map((l) => l.key)).toEqual(['Committed', 'SharedBufferPool', 'TextureReadOnlyPool', 'UploadBigBlock'])
    expect(compare.deltas.find((r) => r.id === 'peak')?.delta).toBe(0)
    expect(compare.diff?.counts).toEqual({ onlyA: 1, onlyB: 0, changed: 1, same: 38 })
    await compare.setDiffStatus('onlyA')
    expect(compare.diff?.entries.map((e) => e.status)).toEqual(['onlyA'])
    await compare.setCursor(40)
    expect(host.calls[host.calls.length - 1]).toBe('diff 40 onlyA')
    // closing B goes back to the timeline
    await runs.closeOther()
    await settle()
    expect(ui.view).toBe('timeline')
    expect(host.closed).toContain('run-B')
  })
})

describe('what-if edits belong to one run', () => {
  it('starts another capture with no edits, and offers the last re-run’s overrides without applying them', async () => {
    const { runs } = await opened()
    const whatif = useWhatIfStore()
    await whatif.load()
    // resourceHeapTier: the capture says 1, the default is 2
    expect(whatif.fromDefaults).toEqual(['resourceHeapTier'])
    whatif.setEdit('bufferPool.size', '8MiB')
    expect(await whatif.rerun()).toBe(true)
    await settle()
    // a second capture, as run A: none of the first one's edits
    host.outcomes.push({ ok: true, summary: { ...summary('run-2'), file: 'second.hscap' } })
    await runs.open('demo')
    await settle()
    await whatif.load()
    expect(runs.current?.runId).toBe('run-2')
    expect(whatif.edits).toEqual({})
    expect(whatif.overrides).toEqual({})
    expect(whatif.remembered).toEqual({ 'bufferPool.size': '8MiB' })
    whatif.setEdit('defrag.enabled', 'false')
    expect(whatif.overrides).toEqual({ 'defrag.enabled': 'false' })
    expect(await whatif.rerun()).toBe(true)
    // run B of the second capture used its own edit alone
    expect(host.calls.filter((c) => c.startsWith('rerun'))).toEqual(['rerun {"bufferPool.size":"8MiB"}', 'rerun {"defrag.enabled":"false"}'])
    // asked for, the remembered overrides come in
    whatif.applyRemembered()
    expect(whatif.overrides).toEqual({ 'defrag.enabled': 'false' })
  })
})
