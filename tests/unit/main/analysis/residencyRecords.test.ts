/**
 * Observed residency in the replay: `resident` and `evict` records (format 1.2) of application heaps become the run's
 * residency series and events, worked out by hand on small captures, and checked against a plain reference
 * over random ones.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { integerMember } from '../../../../src/main/analysis/residencyRecords'
import { RESIDENCY_EVENT, RESIDENCY_SERIES, Replay } from '../../../../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../../../../src/main/analysis/d3d12/report'
import { loadCapture, type LoadResult } from '../../../../src/main/ingest/read'
import { resolveConfig } from '../../../../src/shared/model'
import { KiB, MiB } from '../../../../src/shared/units'
import { runs } from '../../../properties'

const HEADER = { format: 'heapscope-capture', version: 1, minor: 2 }

async function* chunks(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text)
}

async function replayOf(records: object[]): Promise<{ result: LoadResult; replay: Replay }> {
  const text = [HEADER, ...records].map((r) => JSON.stringify(r)).join('\n') + '\n'
  const result = await loadCapture(chunks(text), { file: 'observed.hscap' })
  const replay = await Replay.run(result.store, { config: resolveConfig(undefined, {}) })
  return { result, replay }
}

describe('observed residency records in the replay', () => {
  it('folds resident, partial, evict and free into resident bytes and per-frame events', async () => {
    const { result, replay } = await replayOf([
      { e: 'frame', n: 0 },
      { e: 'heap', id: 1, size: MiB, type: 'default' },
      { e: 'heap', id: 2, size: 4 * MiB, type: 'upload' },
      { e: 'resident', heap: 1 },
      { e: 'resident', heap: 2, bytes: MiB },
      { e: 'frame', n: 1 },
      { e: 'resident', heap: 2, bytes: 8 * MiB },
      { e: 'evict', heap: 1 },
      { e: 'frame', n: 2 },
      { e: 'free', id: 2 },
      { e: 'resident', heap: 1 },
      { e: 'resident', heap: 99 },
      { e: 'frame', n: 3 },
      { e: 'evict', heap: 1, bytes: 256 * KiB },
    ])
    expect(result.store.warnings.counts).toEqual({})
    const s = (name: string) => [...replay.series.get(name)!]
    expect(s(RESIDENCY_SERIES.resident)).toEqual([
      // heap 1 whole (1 MiB) + 1 MiB of heap 2
      2 * MiB,
      // heap 2: 1 + 8 MiB capped at its 4 MiB; heap 1 evicted whole
      4 * MiB,
      // heap 2 freed (resident no more, no event); heap 1 whole again; heap 99 is no live heap: nothing resident
      MiB,
      // 1 MiB − 256 KiB
      768 * KiB,
    ])
    expect(s(RESIDENCY_SERIES.makeResident)).toEqual([2, 1, 2, 0])
    // each event's bytes: the record's, else the heap's size (0 for a heap that is not live)
    expect(s(RESIDENCY_SERIES.madeResidentBytes)).toEqual([MiB + MiB, 8 * MiB, MiB + 0, 0])
    expect(s(RESIDENCY_SERIES.evictions)).toEqual([0, 1, 0, 1])
    expect(s(RESIDENCY_SERIES.evictedBytes)).toEqual([0, MiB, 0, 256 * KiB])

    const e = replay.residencyEvents
    const M = RESIDENCY_EVENT.makeResident
    const E = RESIDENCY_EVENT.evict
    expect([...e.frame.data.subarray(0, e.length)]).toEqual([0, 0, 1, 1, 2, 2, 3])
    expect([...e.kind.data.subarray(0, e.length)]).toEqual([M, M, M, E, M, M, E])
    expect([...e.object.data.subarray(0, e.length)]).toEqual([1, 2, 2, 1, 1, 99, 1])
    expect([...e.bytes.data.subarray(0, e.length)]).toEqual([MiB, MiB, 8 * MiB, MiB, MiB, 0, 256 * KiB])

    const report = buildRunReport(result, replay)
    expect(report.residency).toMatchObject({ evictions: 2, evictedBytes: MiB + 256 * KiB, makeResident: 5 })
  })

  it('keeps the model’s own residency beside the observed one', async () => {
    // a committed buffer is a residency object of the model, resident from its first frame; heap 5 is observed
    const { replay } = await replayOf([
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 1, size: 64 * MiB, usage: ['Static'] },
      { e: 'heap', id: 5, size: 2 * MiB },
      { e: 'resident', heap: 5 },
      { e: 'frame', n: 1 },
      { e: 'evict', heap: 5 },
    ])
    const resident = replay.series.get(RESIDENCY_SERIES.resident)!
    // the model's resident bytes for the buffer (whatever its placement rounds it to), plus 2 MiB then 0
    expect(resident[0] - resident[1]).toBe(2 * MiB)
    expect(resident[1]).toBeGreaterThanOrEqual(64 * MiB)
  })

  it('matches a plain reference on random heaps and residency records (property)', async () => {
    type Op =
      | { op: 'heap'; size: number }
      | { op: 'free'; pick: number }
      | { op: 'resident' | 'evict'; pick: number; bytes?: number }
      | { op: 'frame' }
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('heap' as const), size: fc.integer({ min: 1, max: 64 }).map((n) => n * 64 * KiB) }),
      fc.record({ op: fc.constant('free' as const), pick: fc.nat(20) }),
      fc.record(
        { op: fc.constantFrom('resident' as const, 'evict' as const), pick: fc.nat(20), bytes: fc.integer({ min: 0, max: 8 * MiB }) },
        { requiredKeys: ['op', 'pick'] },
      ),
      fc.record({ op: fc.constant('frame' as const) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const records: object[] = [{ e: 'frame', n: 0 }]
        // the reference: live heap sizes, resident bytes per heap, what each frame ends with
        const live = new Map<number, number>()
        const resident = new Map<number, number>()
        const expected: number[] = []
        let made = 0
        let evicted = 0
        let nextId = 1
        let frame = 0
        const total = () => [...resident.values()].reduce((a, b) => a + b, 0)
        for (const o of ops) {
          const ids = [...live.keys()]
          if (o.op === 'frame') {
            expected.push(total())
            records.push({ e: 'frame', n: ++frame })
          } else if (o.op === 'heap') {
            live.set(nextId, o.size)
            records.push({ e: 'heap', id: nextId++, size: o.size })
          } else if (o.op === 'free') {
            if (ids.length === 0) continue
            const id = ids[o.pick % ids.length]
            live.delete(id)
            resident.delete(id)
            records.push({ e: 'free', id })
          } else {
            // mostly live heaps, sometimes one that is gone or never was
            const id = ids.length > 0 && o.pick < 18 ? ids[o.pick % ids.length] : 100 + o.pick
            const size = live.get(id)
            const before = resident.get(id) ?? 0
            if (o.op === 'resident') {
              made++
              if (size !== undefined) resident.set(id, o.bytes === undefined ? size : Math.min(size, before + o.bytes))
            } else {
              evicted++
              resident.set(id, o.bytes === undefined ? 0 : Math.max(0, before - o.bytes))
            }
            records.push(o.bytes === undefined ? { e: o.op, heap: id } : { e: o.op, heap: id, bytes: o.bytes })
          }
        }
        expected.push(total())
        const { replay } = await replayOf(records)
        expect([...replay.series.get(RESIDENCY_SERIES.resident)!]).toEqual(expected)
        const sum = (name: string) => replay.series.get(name)!.reduce((a, v) => a + v, 0)
        expect(sum(RESIDENCY_SERIES.makeResident)).toBe(made)
        expect(sum(RESIDENCY_SERIES.evictions)).toBe(evicted)
        expect(replay.residencyEvents.length).toBe(made + evicted)
      }),
      { numRuns: runs(60) },
    )
  })
})

describe('integerMember', () => {
  it('reads a record’s integer members in place', () => {
    expect(integerMember('{"e":"resident","heap":50}', 'heap')).toBe(50)
    expect(integerMember('{"e":"evict","heap":50,"bytes":65536}', 'bytes')).toBe(65536)
    // beyond 2^32: sizes are never 32-bit
    expect(integerMember('{"e":"evict","heap":1,"bytes":8589934592}', 'bytes')).toBe(2 ** 33)
    expect(integerMember('{"e":"evict","heap": 7}', 'heap')).toBe(7)
  })

  it('finds nothing where there is no plain integer member of that name', () => {
    expect(integerMember('{"e":"resident","heap":50}', 'bytes')).toBeNaN()
    // inside a string value the quotes are escaped, so the key cannot match there
    expect(integerMember(`{"e":"resident","heap":1,"name":${JSON.stringify('"bytes":5')}}`, 'bytes')).toBeNaN()
    expect(integerMember('{"e":"evict","heap":1,"bytes":"12"}', 'bytes')).toBeNaN()
    expect(integerMember('{"e":"evict","heap":1,"bytes":1.5}', 'bytes')).toBeNaN()
    expect(integerMember('{"e":"evict","heap":1,"bytes":1e3}', 'bytes')).toBeNaN()
    expect(integerMember('{"e":"evict","heap":-1}', 'heap')).toBeNaN()
  })
})
