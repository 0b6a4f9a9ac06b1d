/**
 * The reader against broken captures: generated captures truncated, with bytes flipped, inserted or deleted,
 * and with their lines shuffled. Whatever the bytes, a load ends in time, throws nothing but a CaptureError,
 * and a fatal fault names a line and a byte offset on that line. Chunk sizes from one byte up give the same store.
 */
import fc from 'fast-check'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CaptureError } from '../../../../src/main/ingest/errors'
import { loadCapture } from '../../../../src/main/ingest/read'
import { bytesOf, chunksOf, dumpStore, generated, lineSpans } from './helpers'
import type { FaultInfo, LoadCase, LoadOutcome } from './loadWorker'
import { runs, scaled } from '../../../properties'

/** A load of a few tens of KiB takes milliseconds; this much means it would never end. */
const CASE_MS = 10_000
const WORKER = fileURLToPath(new URL('./loadWorker.ts', import.meta.url))

/** One worker thread that loads cases one at a time, replaced when a case runs out of time. */
class Loader {
  private worker!: Worker
  /** Settles once the worker has loaded the reader (which may take a while on a busy machine). */
  ready!: Promise<void>

  constructor() {
    this.spawn()
  }

  private spawn(): void {
    const entry = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(import.meta.url)}))`
    const worker = new Worker(entry, { eval: true })
    this.worker = worker
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', () => resolve())
      worker.once('error', reject)
    })
  }

  async load(c: LoadCase): Promise<LoadOutcome> {
    await this.ready
    const worker = this.worker
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.removeAllListeners('message')
        worker.removeAllListeners('error')
        void worker.terminate()
        this.spawn()
        reject(new Error(`a load of ${c.bytes.length} bytes did not end within ${CASE_MS} ms`))
      }, CASE_MS)
      worker.once('message', (outcome: LoadOutcome) => {
        clearTimeout(timer)
        worker.removeAllListeners('error')
        resolve(outcome)
      })
      worker.once('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
      worker.postMessage(c)
    })
  }

  stop(): Promise<number> {
    return this.worker.terminate()
  }
}

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'shuffle'; seed: number; header: boolean }

// The bytes JSON gives a meaning to, and those of the gzip magic, more often than the others.
const special = fc.constantFrom(0x22, 0x5c, 0x0a, 0x0d, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x30, 0x39, 0x65, 0x2d, 0x2e, 0x20, 0x00, 0x1f, 0x8b, 0x75, 0xff)
const byte = fc.oneof(special, fc.integer({ min: 0, max: 255 }))
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: byte }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.array(byte, { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 24 }) }),
  fc.record({ kind: fc.constant('shuffle' as const), seed: fc.nat(), header: fc.boolean() }),
)

/** A small deterministic generator for the shuffle. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = items.slice()
  let state = seed | 1
  for (let i = out.length - 1; i > 0; i--) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    const j = (state >>> 0) % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const length = bytes.length
  switch (m.kind) {
    case 'truncate':
      return bytes.slice(0, m.at % (length + 1))
    case 'flip': {
      if (length === 0) return bytes
      const out = bytes.slice()
      out[m.at % length] = m.value
      return out
    }
    case 'insert': {
      const at = m.at % (length + 1)
      return Uint8Array.from([...bytes.subarray(0, at), ...m.bytes, ...bytes.subarray(at)])
    }
    case 'delete': {
      const at = m.at % (length + 1)
      return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + m.length)])
    }
    case 'shuffle': {
      const text = new TextDecoder().decode(bytes)
      const ends = text.endsWith('\n')
      const lines = (ends ? text.slice(0, -1) : text).split('\n')
      const out = m.header ? shuffled(lines, m.seed) : [lines[0], ...shuffled(lines.slice(1), m.seed)]
      return bytesOf(out.join('\n') + (ends ? '\n' : ''))
    }
  }
}

/**
 * A fault that stops a load names a line and an offset on it; only a broken gzip stream, no data at all, or a JSON
 * document of other keys (a header mutated into one) has none.
 */
function expectPlaced(bytes: Uint8Array, fault: FaultInfo): void {
  if (fault.line === 0) {
    expect(['a complete gzip stream', 'a capture header line', 'a format HeapScope reads']).toContain(fault.expected)
    return
  }
  const span = lineSpans(bytes)[fault.line - 1]
  expect(span, `line ${fault.line} of ${lineSpans(bytes).length}: ${fault.message}`).toBeDefined()
  expect(fault.byteOffset, fault.message).toBeGreaterThanOrEqual(span.start)
  expect(fault.byteOffset, fault.message).toBeLessThanOrEqual(span.end)
}

const SCENARIOS = ['demo', 'streaming', 'deferred', 'raytracing', 'leak', 'budget-drop']

describe('reading broken captures', () => {
  /** Lines of one generated capture per scenario, the header first. */
  const bases: string[][] = []
  let loader: Loader

  beforeAll(async () => {
    loader = new Loader()
    for (const scenario of SCENARIOS) bases.push((await generated(scenario, 2, 7)).split('\n').filter((l) => l !== ''))
    await loader.ready
  }, scaled(120_000))

  afterAll(async () => {
    await loader?.stop()
  })

  /** The first `count` lines of a base capture, each with its line feed. */
  const prefix = (base: number, count: number) => bytesOf(bases[base].slice(0, count).join('\n') + '\n')
  const capture = fc.record({
    base: fc.integer({ min: 0, max: SCENARIOS.length - 1 }),
    lines: fc.integer({ min: 1, max: 160 }),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
    chunkSizes: fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }),
  })

  it('ends in time, throws only CaptureError, and places every fatal fault on its line', async () => {
    await fc.assert(
      fc.asyncProperty(capture, async ({ base, lines, mutations, chunkSizes }) => {
        const bytes = mutations.reduce(mutate, prefix(base, lines))
        const outcome = await loader.load({ bytes, chunkSizes })
        if (outcome.kind === 'thrown') {
          expect(outcome.error.isCaptureError, `${outcome.error.name}: ${outcome.error.message}`).toBe(true)
          expectPlaced(bytes, outcome.error)
        } else {
          expect(outcome.partial).toBe(outcome.error !== undefined)
          if (outcome.error) expectPlaced(bytes, outcome.error)
          expect(outcome.lines).toBeLessThanOrEqual(lineSpans(bytes).length)
        }
      }),
      { numRuns: runs(400) },
    )
  }, scaled(300_000))

  it('gives the same store and the same fault for any chunk sizes', async () => {
    const load = async (bytes: Uint8Array, sizes: number[]) => {
      try {
        const { store, error } = await loadCapture(chunksOf(bytes, sizes), { file: 'chunks.hscap' })
        return { store: dumpStore(store), error: error?.message }
      } catch (err) {
        if (!(err instanceof CaptureError)) throw err
        return { thrown: err.message }
      }
    }
    await fc.assert(
      fc.asyncProperty(
        capture,
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 }),
        async ({ base, lines, mutations }, broken, sizes) => {
          const clean = prefix(base, Math.min(lines, 60))
          const bytes = broken ? mutations.reduce(mutate, clean) : clean
          expect(await load(bytes, sizes)).toEqual(await load(bytes, [bytes.length || 1]))
        },
      ),
      { numRuns: runs(60) },
    )
  }, scaled(300_000))

  it('gives the same store for every chunk size from one byte to a hundred', async () => {
    const bytes = prefix(1, 40)
    const whole = dumpStore((await loadCapture(chunksOf(bytes, bytes.length), { file: 'chunks.hscap' })).store)
    expect((whole.records as unknown[]).length).toBe(39)
    for (let size = 1; size <= 100; size++) {
      const { store, error } = await loadCapture(chunksOf(bytes, size), { file: 'chunks.hscap' })
      expect(error).toBeUndefined()
      expect(dumpStore(store)).toEqual(whole)
    }
  }, scaled(120_000))
})
