/**
 * A store sent in increments (a pipelined load) against the store one load builds: generated captures with bad
 * lines (warnings), a fatal fault part way, extras, a `use` id past the byte coding (every use record recoded), read
 * in random chunks, with an increment taken after random chunks. The appended store must equal the builder's, and
 * what it showed after each increment (its complete frames) must be what the whole store holds for them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { builderView, IncrementTaker, StoreAppender, StoreLayoutError, type StoreIncrement } from '../../../../src/main/ingest/increments'
import { loadCapture } from '../../../../src/main/ingest/read'
import { recordsOf } from '../../../../src/main/ingest/records'
import { RECORD_KIND } from '../../../../src/main/ingest/store'
import { bytesOf, chunksOf, dumpStore, generated } from './helpers'

/** Stores compared with the numbers of their extra-keys texts, which a pipelined load carries too. */
const NUMBERS = { numbers: true }
import { runs, scaled } from '../../../properties'

/** Lines spliced into a capture, after its header. */
const EXTRA_LINES = [
  // warnings: a release of an id never created, an unknown kind, a bad size
  '{"e":"release","id":987654321}',
  '{"e":"bogus","id":1}',
  '{"e":"buffer","id":555555,"size":-4}',
  // extras: an unknown key is kept raw with its record
  '{"e":"submit","note":"kept"}',
  // a use id past 2^51: from here on every use record's ids are plain numbers
  '{"e":"use","ids":[3,4000000000000000]}',
  // an extension record, kept whole
  '{"e":"resident","heap":7}',
]
/** A line that is not JSON: the load stops there, keeping what came before. */
const FATAL = '{"e":"buffer","id":'

const SCENARIOS = ['deferred', 'streaming', 'stress', 'vulkan'] as const

const texts = new Map<string, Promise<string>>()

async function captureOf(scenario: string, frames: number, seed: number, spliced: { at: number; line: string }[]): Promise<Uint8Array> {
  const key = `${scenario} ${frames} ${seed}`
  if (!texts.has(key)) texts.set(key, generated(scenario, frames, seed))
  const lines = (await texts.get(key)!).trimEnd().split('\n')
  for (const { at, line } of [...spliced].sort((a, b) => b.at - a.at)) lines.splice(1 + (at % lines.length), 0, line)
  return bytesOf(`${lines.join('\n')}\n`)
}

type Sent = StoreIncrement['tables'][number][number]

/** Each array an increment shares, with the length of it that is final. */
function finalParts(inc: StoreIncrement): [Sent, number][] {
  return [
    [inc.kind, inc.records],
    [inc.ref, inc.records],
    [inc.frameN, inc.frames],
    [inc.frameT, inc.frames],
    [inc.frameFirst, inc.frames],
    ...inc.tables.flatMap((columns, t) => columns.map((c): [Sent, number] => [c, inc.tableRows[t]])),
    [inc.ops, inc.opsLength],
    [inc.useIds, inc.useLength],
  ]
}

/**
 * Copies of what each increment said was final, to check at the end against the shared arrays themselves: the
 * builder writes into the memory the replaying side reads, and must never write those values again.
 */
class SentCopies {
  private readonly copies: { array: Sent; copy: Sent }[] = []
  keep(inc: StoreIncrement): void {
    for (const [array, length] of finalParts(inc)) {
      expect(array.buffer).toBeInstanceOf(SharedArrayBuffer)
      this.copies.push({ array, copy: array.slice(0, length) })
    }
  }
  /** How many of the kept values differ now. */
  changed(): number {
    let n = 0
    for (const { array, copy } of this.copies) for (let i = 0; i < copy.length; i++) if (!Object.is(array[i], copy[i])) n++
    return n
  }
}

/** The records a store shows, as objects (their use ids decoded from the store's own coding). */
const recordList = (store: Parameters<typeof recordsOf>[0]) => [...recordsOf(store)].map((r) => JSON.stringify(r))

describe('a store sent in increments', () => {
  it('is the store one load builds, and shows only final records after each increment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SCENARIOS),
        fc.constantFrom(5, 12),
        fc.array(fc.record({ at: fc.nat(), line: fc.constantFrom(...EXTRA_LINES, FATAL) }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 200, max: 40_000 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        async (scenario, frames, spliced, sizes, takes) => {
          const bytes = await captureOf(scenario, frames, 3, spliced)
          const whole = await loadCapture(chunksOf(bytes, 1 << 20), { file: 'c.hscap' })
          const taker = new IncrementTaker()
          const appender = new StoreAppender('c.hscap')
          const shown: { records: string[]; frames: number[] }[] = []
          const sent = new SentCopies()
          let chunk = 0
          const piped = await loadCapture(chunksOf(bytes, sizes), {
            file: 'c.hscap',
            sharedColumns: true,
            onScanned: (builder) => {
              if (!takes[chunk++ % takes.length]) return
              const { increment } = taker.take(builderView(builder), builder.share.fraction)
              sent.keep(increment)
              const complete = appender.append(increment)
              const store = appender.store
              expect(store.frames.length).toBe(complete)
              shown.push({ records: recordList(store), frames: Array.from(store.frames.firstRecord) })
            },
          })
          expect(dumpStore(piped.store, NUMBERS)).toEqual(dumpStore(whole.store, NUMBERS))
          const { increment } = taker.take(piped.store, 1, true)
          sent.keep(increment)
          appender.finish(increment, piped.store.sourceBytes, piped.store.lines, piped.store.partial)
          expect(sent.changed()).toBe(0)
          const store = appender.store
          expect(dumpStore(store, NUMBERS)).toEqual(dumpStore(whole.store, NUMBERS))
          expect(store.useIds.constructor).toBe(whole.store.useIds.constructor)
          expect(store.records.kind.length).toBe(whole.store.records.length)
          const all = recordList(whole.store)
          for (const s of shown) {
            // a shown frame is complete: its records are the whole store's, and so is where each frame starts
            expect(s.records).toEqual(all.slice(0, s.records.length))
            expect(s.frames).toEqual(Array.from(whole.store.frames.firstRecord.subarray(0, s.frames.length)))
            if (s.frames.length > 0) expect(s.records.length).toBe(whole.store.frames.firstRecord[s.frames.length])
          }
        },
      ),
      { numRuns: runs(20), seed: 1401, endOnFailure: true },
    )
  }, scaled(120_000))

  it('recodes use ids sent before: a use id past the byte coding after some were sent', async () => {
    const bytes = await captureOf('streaming', 12, 2, [{ at: 4000, line: EXTRA_LINES[4] }])
    const taker = new IncrementTaker()
    const appender = new StoreAppender('c.hscap')
    const recoded: boolean[] = []
    const sent = new SentCopies()
    const piped = await loadCapture(chunksOf(bytes, 2048), {
      file: 'c.hscap',
      sharedColumns: true,
      onScanned: (builder) => {
        const { increment } = taker.take(builderView(builder), 0)
        recoded.push(increment.recoded)
        sent.keep(increment)
        appender.append(increment)
      },
    })
    appender.finish(taker.take(piped.store, 1, true).increment, piped.store.sourceBytes, piped.store.lines, false)
    // the operands recoded are new arrays: those sent before hold the byte coding's offsets still
    expect(sent.changed()).toBe(0)
    // once, after byte-coded ids were sent
    expect(recoded.filter(Boolean)).toHaveLength(1)
    expect(recoded.indexOf(true)).toBeGreaterThan(0)
    expect(piped.store.useIds).toBeInstanceOf(Float64Array)
    expect(dumpStore(appender.store, NUMBERS)).toEqual(dumpStore(piped.store, NUMBERS))
  })

  it('sends texts the load did not number as their bytes, each with its record', async () => {
    // 6 000 buffers with a callstack of their own: past 4 096 texts that never repeat the load's table goes cold and
    // keeps one in sixteen; the others are loose, bytes end to end, spread over the increments
    const lines = ['{"format":"heapscope-capture","version":1}', '{"e":"frame","n":1}']
    for (let i = 1; i <= 6000; i++) {
      const module = i % 5 === 0 ? 'Rendu€' : 'Engine'
      lines.push(`{"e":"buffer","id":${i},"size":4096,"usage":["Static"],"callstack":${0x7ff600000000 + i * 977},"module":"${module}"}`)
      if (i % 1000 === 0) lines.push(`{"e":"frame","n":${i / 1000 + 1}}`)
    }
    const bytes = bytesOf(`${lines.join('\n')}\n`)
    const whole = await loadCapture(chunksOf(bytes, 1 << 20), { file: 'c.hscap' })
    const ids = [...whole.store.extras].map((_, i) => whole.store.extras.idAt(i))
    expect(ids).toHaveLength(6000)
    const loose = ids.filter((id) => id === 0).length
    expect(loose).toBeGreaterThan(1500)
    expect(loose).toBeLessThan(1904 - 1904 / 16 + 2)
    const taker = new IncrementTaker()
    const appender = new StoreAppender('c.hscap')
    let increments = 0
    const piped = await loadCapture(chunksOf(bytes, 40_000), {
      file: 'c.hscap',
      sharedColumns: true,
      onScanned: (builder) => {
        appender.append(taker.take(builderView(builder), builder.share.fraction).increment)
        increments++
      },
    })
    appender.finish(taker.take(piped.store, 1, true).increment, piped.store.sourceBytes, piped.store.lines, false)
    expect(increments).toBeGreaterThan(10)
    expect(dumpStore(appender.store, NUMBERS)).toEqual(dumpStore(whole.store, NUMBERS))
    // buffer 5005, the fifth after frame 6 begins
    expect(appender.store.extras.get(whole.store.frames.firstRecord[5] + 5)).toBe(`"callstack":${0x7ff600000000 + 5005 * 977},"module":"Rendu€"`)
  })

  it('refuses a store whose operands do not follow the layout', async () => {
    const bytes = await captureOf('deferred', 6, 1, [])
    const piped = await loadCapture(chunksOf(bytes, 1 << 20), { file: 'c.hscap', sharedColumns: true })
    const store = piped.store
    expect(() => new IncrementTaker().take(store, 1, true)).not.toThrow()
    const first = Array.from(store.records.kind).findIndex((k) => k === RECORD_KIND.release)
    expect(first).toBeGreaterThan(0)
    // a release whose operand sits one further on than the record before it ended
    const ref = new Uint32Array(new SharedArrayBuffer(store.records.ref.byteLength))
    ref.set(store.records.ref)
    ref[first] += 1
    expect(() => new IncrementTaker().take({ ...store, records: { ...store.records, ref } }, 1, true)).toThrow(
      /record \d+'s operands start at/,
    )
  })

  it('refuses a store whose columns are not in shared memory', async () => {
    const bytes = await captureOf('deferred', 6, 1, [])
    const { store } = await loadCapture(chunksOf(bytes, 1 << 20), { file: 'c.hscap' })
    expect(() => new IncrementTaker().take(store, 1, true)).toThrow(StoreLayoutError)
    expect(() => new IncrementTaker().take(store, 1, true)).toThrow(/not in shared memory/)
  })
})
