import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  beforeCapture,
  enableShortRunTuning,
  resetShortRunTuning,
  SHORT_RUN_BYTES,
  SHORT_RUN_FLAGS,
  shortRunFlags,
  TINY_RUN_BYTES,
  TINY_RUN_FLAGS,
  TINY_RUN_MAX_CORES,
} from '../../../../src/main/cli/shortRun'

describe('the compiler budget of a short run', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'heapscope-shortrun-'))
    resetShortRunTuning()
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
    resetShortRunTuning()
  })

  const file = (name: string, bytes: number) => {
    const path = join(dir, name)
    writeFileSync(path, Buffer.alloc(bytes, 0x20))
    return path
  }

  it('turns the compiler off under 2 MiB on two cores, quarters its inlining budget under 64 MiB, and leaves V8 alone from there on', () => {
    expect(SHORT_RUN_FLAGS).toEqual(['--max-inlined-bytecode-size-cumulative=230'])
    expect(TINY_RUN_FLAGS).toEqual(['--max-inlined-bytecode-size-cumulative=230', '--no-turbofan'])
    expect(TINY_RUN_BYTES).toBe(2_097_152)
    expect(TINY_RUN_MAX_CORES).toBe(2)
    expect(shortRunFlags(0, 2)).toEqual(TINY_RUN_FLAGS)
    expect(shortRunFlags(1_871_201, 1)).toEqual(TINY_RUN_FLAGS) // the demo capture's lines
    expect(shortRunFlags(TINY_RUN_BYTES - 1, 2)).toEqual(TINY_RUN_FLAGS)
    expect(shortRunFlags(TINY_RUN_BYTES, 2)).toEqual(SHORT_RUN_FLAGS)
    expect(shortRunFlags(SHORT_RUN_BYTES - 1, 2)).toEqual(SHORT_RUN_FLAGS)
    expect(shortRunFlags(SHORT_RUN_BYTES, 2)).toEqual([])
    expect(shortRunFlags(218_169_677, 2)).toEqual([])
    expect(shortRunFlags(-1, 2)).toEqual([])
  })

  it('keeps the compiler where its threads have cores of their own (three or more)', () => {
    expect(shortRunFlags(0, 3)).toEqual(SHORT_RUN_FLAGS)
    expect(shortRunFlags(1_871_201, 16)).toEqual(SHORT_RUN_FLAGS)
    expect(shortRunFlags(SHORT_RUN_BYTES, 16)).toEqual([])
    enableShortRunTuning()
    const set: string[] = []
    beforeCapture(file('tiny.hscap', 1000), (f) => set.push(f), 16)
    beforeCapture(file('larger.hscap', TINY_RUN_BYTES), (f) => set.push(f), 16)
    expect(set).toEqual([...SHORT_RUN_FLAGS])
  })

  it('sets nothing unless the process entry asked for it', () => {
    const set: string[] = []
    beforeCapture(file('a.hscap', 1000), (f) => set.push(f), 2)
    expect(set).toEqual([])
  })

  it('lets the first capture decide, once', () => {
    enableShortRunTuning()
    const set: string[] = []
    beforeCapture(file('small.hscap', TINY_RUN_BYTES), (f) => set.push(f), 2)
    beforeCapture(file('tiny.hscap', 10), (f) => set.push(f), 2)
    beforeCapture(file('other.hscap', TINY_RUN_BYTES + 1), (f) => set.push(f), 2)
    expect(set).toEqual([...SHORT_RUN_FLAGS])
  })

  it('turns the compiler on again for a later capture that is not tiny, once', () => {
    enableShortRunTuning()
    const set: string[] = []
    beforeCapture(file('tiny.hscap', 1000), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS])
    beforeCapture(file('larger.hscap', TINY_RUN_BYTES), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS, '--turbofan'])
    beforeCapture(file('larger2.hscap', TINY_RUN_BYTES), (f) => set.push(f), 2)
    beforeCapture(file('tiny2.hscap', 10), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS, '--turbofan'])
  })

  it('turns the compiler on again once small captures come to 2 MiB together', () => {
    enableShortRunTuning()
    const set: string[] = []
    const third = Math.floor(TINY_RUN_BYTES / 3)
    beforeCapture(file('a.hscap', third), (f) => set.push(f), 2)
    beforeCapture(join(dir, 'missing.hscap'), (f) => set.push(f), 2)
    beforeCapture(file('b.hscap', third), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS])
    // 3 * floor(2 MiB / 3) is 2 MiB - 2: two bytes short
    beforeCapture(file('c.hscap', third), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS])
    beforeCapture(file('d.hscap', 1), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS])
    beforeCapture(file('e.hscap', 1), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS, '--turbofan'])
    beforeCapture(file('f.hscap', third), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS, '--turbofan'])
  })

  it('counts a gzip capture by its lines, not its compressed bytes', () => {
    enableShortRunTuning()
    const set: string[] = []
    const path = join(dir, 'big.hscap.gz')
    // 64 MiB of one repeated line compresses to about 64 KiB
    writeFileSync(path, gzipSync(Buffer.alloc(SHORT_RUN_BYTES, 0x20), { level: 1 }))
    beforeCapture(path, (f) => set.push(f), 2)
    expect(set).toEqual([])
  })

  it('a missing file decides nothing: the next one does', () => {
    enableShortRunTuning()
    const set: string[] = []
    beforeCapture(join(dir, 'missing.hscap'), (f) => set.push(f), 2)
    expect(set).toEqual([])
    beforeCapture(file('small.hscap', 1000), (f) => set.push(f), 2)
    expect(set).toEqual([...TINY_RUN_FLAGS])
  })
})
