import { describe, expect, it, vi } from 'vitest'
import { primerText } from '../../../../src/main/ingest/prime'
import { useIdsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { scan } from './helpers'

describe('the primer capture', () => {
  const text = primerText()

  it('is the same every time', () => {
    expect(primerText()).toBe(text)
  })

  it('loads whole, without a warning, and holds every kind of record it is made to prime', () => {
    const { store, error } = scan(text, 1 << 14)
    expect(error).toBeUndefined()
    expect(store.warnings.counts).toEqual({})
    expect(store.records.length).toBe(text.split('\n').length - 2)
    const kinds = new Set(Array.from(store.records.kind.subarray(0, store.records.length)))
    for (const kind of ['frame', 'gpu', 'buffer', 'texture', 'budget', 'graph', 'transient', 'endgraph', 'use', 'upload', 'commit', 'lock', 'release'] as const) {
      expect(kinds.has(RECORD_KIND[kind]), kind).toBe(true)
    }
  })

  it('repeats its render graph byte for byte after each id, and codes use ids of every length', () => {
    const tails = text
      .split('\n')
      .filter((line) => line.startsWith('{"e":"transient"'))
      .map((line) => line.slice(line.indexOf(',', '{"e":"transient","id":'.length)))
    expect(tails.length).toBe(30)
    expect(tails.slice(6, 12)).toEqual(tails.slice(0, 6))
    const { store } = scan(text)
    const ids: number[] = []
    for (let i = 0; i < store.records.length; i++) {
      if (store.records.kind[i] === RECORD_KIND.use) ids.push(...useIdsOf(store, store.records.ref[i]))
    }
    // a run of 150 (a run's varint of two bytes), ids past 2^28 and 2^30 (coded differences of five bytes)
    expect(ids.join(',')).toContain(Array.from({ length: 150 }, (_, k) => k + 1).join(','))
    expect(ids.some((id) => id >= 2 ** 30)).toBe(true)
  })

  it('is read before the first load unless the load says prime: false', async () => {
    // a fresh copy of the modules: this process's primer may have been read by another test
    vi.resetModules()
    const prime = await import('../../../../src/main/ingest/prime')
    const { loadCapture } = await import('../../../../src/main/ingest/read')
    const capture = new TextEncoder().encode('{"format":"heapscope-capture","version":1}\n{"e":"frame","n":1}\n')
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield capture
    }
    const load = (prime?: boolean) => loadCapture(chunks(), { file: 'two-lines', prime })
    expect((await load(false)).store.records.length).toBe(1)
    expect(prime.primerRead()).toBe(false)
    expect((await load()).store.records.length).toBe(1)
    expect(prime.primerRead()).toBe(true)
  })
})
