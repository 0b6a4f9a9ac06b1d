import { describe, expect, it } from 'vitest'
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
})
