/**
 * Reading a file as another process writes it: each byte handed on once and in order, whatever the pieces; a file
 * created late is waited for; a file that gets shorter is an error, not a read from the start again.
 */
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FileTail } from '../../../../src/main/ingest/tail'

const dir = mkdtempSync(join(tmpdir(), 'heapscope-tail-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Waits until `done` holds, or two seconds have passed (the assertions after it then say what is missing). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 2000; waited += 5) await sleep(5)
}

function collect(path: string, chunkSize = 7) {
  const chunks: Buffer[] = []
  const errors: Error[] = []
  let batches = 0
  const tail = new FileTail(
    path,
    { onBytes: (c) => chunks.push(Buffer.from(c)), onBatch: () => batches++, onError: (e) => errors.push(e) },
    { pollMs: 5, intervalMs: 1, chunkSize },
  )
  return { tail, chunks, errors, batches: () => batches, text: () => Buffer.concat(chunks).toString('utf8') }
}

describe('FileTail', () => {
  it('hands on every byte once, in order, as the file grows', async () => {
    const path = join(dir, 'grows.txt')
    writeFileSync(path, 'héllo ')
    const t = collect(path)
    t.tail.start()
    const words = ['wörld ', '纹理 ', 'and ', 'more '.repeat(20)]
    for (const word of words) {
      await sleep(15)
      appendFileSync(path, word)
    }
    await t.tail.stop()
    expect(t.text()).toBe(`héllo ${words.join('')}`)
    expect(t.batches()).toBeGreaterThanOrEqual(3)
    // small chunks: a read of more than chunkSize bytes comes in pieces, none longer
    expect(Math.max(...t.chunks.map((c) => c.length))).toBe(7)
    expect(t.errors).toEqual([])
  })

  it('waits for a file that is not there yet', async () => {
    const path = join(dir, 'later.txt')
    const t = collect(path)
    t.tail.start()
    await sleep(20)
    expect(t.chunks).toEqual([])
    writeFileSync(path, 'now')
    await until(() => t.text().length === 3)
    await t.tail.stop()
    expect(t.text()).toBe('now')
    expect(t.errors).toEqual([])
  })

  it('says so when the file gets shorter, and reads nothing again', async () => {
    const path = join(dir, 'shrinks.txt')
    writeFileSync(path, '0123456789')
    const t = collect(path)
    t.tail.start()
    // the whole file read before it shrinks, however busy the machine
    await until(() => t.text().length === 10)
    truncateSync(path, 4)
    appendFileSync(path, 'xy')
    await until(() => t.errors.length > 0)
    await t.tail.stop()
    expect(t.text()).toBe('0123456789')
    expect(t.errors.map((e) => e.message)).toEqual([`${path} got shorter (6 bytes after 10 were read): it was replaced or truncated`])
  })
})
