/**
 * A real capture, when one is at hand: HEAPSCOPE_UTRACE_SAMPLE names a .utrace recorded by UE 5 with the memory
 * channel on (-trace=default,memory). No public one with memory events is known, so without it this is skipped.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { importUtrace, PROTOCOL_VERSIONS, readUtrace, utraceToObserved } from '../../../../../../src/main/ingest/importers/utrace'
import { loadCaptureFile } from '../../../../../../src/main/ingest/read'

const SAMPLE = process.env.HEAPSCOPE_UTRACE_SAMPLE

describe.skipIf(!SAMPLE)('a real capture (HEAPSCOPE_UTRACE_SAMPLE)', () => {
  const path = SAMPLE ?? ''

  it('reads every packet and event of it, the same in small chunks as whole', () => {
    const bytes = new Uint8Array(readFileSync(path))
    const whole = readUtrace(bytes)
    expect(PROTOCOL_VERSIONS).toContain(whole.stream.protocol)
    expect(whole.stream.events).toBeGreaterThan(0)
    expect(whole.stream.unfinishedThreads.length).toBeLessThanOrEqual(whole.stream.threads)
    const chunked = readUtrace(bytes, { chunkSize: 4093 })
    expect(chunked.stream.events).toBe(whole.stream.events)
    expect(utraceToObserved(chunked).records).toEqual(utraceToObserved(whole).records)
    const imported = importUtrace({ name: path, bytes })
    console.log(imported?.notes.join('\n'))
  })

  it('loads as a run', async () => {
    const result = await loadCaptureFile(path, { chunkSize: 1 << 16 })
    expect(result.format).toBe('utrace')
    expect(result.error).toBeUndefined()
    expect(result.store.frames.length).toBeGreaterThan(0)
  }, 120_000)
})
