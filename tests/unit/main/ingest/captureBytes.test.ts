import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { captureBytes } from '../../../../src/main/ingest/captureBytes'

describe('the bytes of capture lines a file holds, before it is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-bytes-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const line = '{"e":"frame","n":1,"t":0}\n'

  it('is a plain file\'s size', () => {
    const path = join(dir, 'plain.hscap')
    writeFileSync(path, line.repeat(1000))
    expect(captureBytes(path)).toBe(line.length * 1000)
  })

  it('is a gzip file\'s uncompressed size, from its trailer', () => {
    const path = join(dir, 'lines.hscap.gz')
    const body = gzipSync(Buffer.from(line.repeat(100_000)))
    writeFileSync(path, body)
    expect(body.length).toBeLessThan(10_000)
    expect(captureBytes(path)).toBe(line.length * 100_000)
  })

  it('is never less than the file itself (a trailer that wrapped at 4 GiB, a damaged one)', () => {
    const path = join(dir, 'damaged.gz')
    const body = gzipSync(Buffer.from(line.repeat(1000)))
    body.writeUInt32LE(3, body.length - 4)
    writeFileSync(path, body)
    expect(captureBytes(path)).toBe(body.length)
  })

  it('is -1 for what is not a file, or is not there', () => {
    expect(captureBytes(dir)).toBe(-1)
    expect(captureBytes(join(dir, 'missing.hscap'))).toBe(-1)
  })
})
