/**
 * A file read in chunks into two buffers taken in turn: every byte in order, two buffers whatever the file's size,
 * the file closed when the reader stops early; read on the calling thread, the same through one buffer; loads through chunks smaller than the format sniff (the head kept
 * across reads, an importer's file gathered whole) give the store a whole-file read gives; a pipelined load that
 * is stopped closes its file; a worker whose load ended takes the next, and ends when none comes.
 */
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterAll, describe, expect, it } from 'vitest'
import { fileChunks } from '../../../../src/main/ingest/fileChunks'
import { ingestWorker, SPARE_WORKER_MS, spareWorker, startPipedLoad, type PipedEnd } from '../../../../src/main/ingest/pipeline'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { dumpStore, generated } from './helpers'

const VMA = join(__dirname, '../../../fixtures/real/vma-dump-rx6600xt.json')
const dir = mkdtempSync(join(tmpdir(), 'heapscope-chunks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The files this process holds open, where the system lists them. */
const openFiles = (): number | undefined => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : undefined)

describe('a file read into two buffers', () => {
  const bytes = new Uint8Array(1000).map((_, i) => (i * 7 + 3) & 0xff)
  const path = join(dir, 'bytes.bin')
  writeFileSync(path, bytes)

  it('hands on every byte in order, in chunks of the size asked, through two buffers', async () => {
    const copies: Uint8Array[] = []
    const buffers = new Set<ArrayBufferLike>()
    for await (const chunk of fileChunks(path, 64)) {
      copies.push(chunk.slice())
      buffers.add(chunk.buffer)
    }
    expect(copies.map((c) => c.length)).toEqual([...Array<number>(15).fill(64), 40])
    expect(Buffer.concat(copies).equals(Buffer.from(bytes))).toBe(true)
    expect(buffers.size).toBe(2)
  })

  it('gives nothing for an empty file, and closes the file when its reader stops early', async () => {
    const empty = join(dir, 'empty.bin')
    writeFileSync(empty, '')
    const chunks: Uint8Array[] = []
    for await (const chunk of fileChunks(empty, 64)) chunks.push(chunk)
    expect(chunks).toEqual([])

    const before = openFiles()
    let seen = 0
    for await (const chunk of fileChunks(path, 100)) {
      seen += chunk.length
      if (seen >= 300) break
    }
    expect(seen).toBe(300)
    expect(openFiles()).toBe(before)
  })

  it('refuses a file that cannot be opened', async () => {
    await expect(fileChunks(join(dir, 'missing.bin'), 64).next()).rejects.toThrow(/ENOENT/)
    await expect(fileChunks(join(dir, 'missing.bin'), 64, true).next()).rejects.toThrow(/ENOENT/)
  })

  it('read on the calling thread: every byte in order through one buffer, the file closed when its reader stops', async () => {
    const copies: Uint8Array[] = []
    const buffers = new Set<ArrayBufferLike>()
    for await (const chunk of fileChunks(path, 64, true)) {
      copies.push(chunk.slice())
      buffers.add(chunk.buffer)
    }
    expect(copies.map((c) => c.length)).toEqual([...Array<number>(15).fill(64), 40])
    expect(Buffer.concat(copies).equals(Buffer.from(bytes))).toBe(true)
    expect(buffers.size).toBe(1)

    const before = openFiles()
    let seen = 0
    for await (const chunk of fileChunks(path, 100, true)) {
      seen += chunk.length
      if (seen >= 300) break
    }
    expect(seen).toBe(300)
    expect(openFiles()).toBe(before)
  })

  it('give a capture the same store as reads through the pool do', async () => {
    const capture = join(dir, 'leak-sync.hscap')
    writeFileSync(capture, await generated('leak', 40))
    const pooled = await loadCaptureFile(capture, { chunkSize: 997 })
    const sync = await loadCaptureFile(capture, { chunkSize: 997, syncReads: true })
    expect(sync.error).toBeUndefined()
    expect(sync.store.records.length).toBeGreaterThan(1000)
    expect(dumpStore(sync.store)).toEqual(dumpStore(pooled.store))
  })
})

describe('loads through chunks smaller than the format sniff', () => {
  it('give a capture the same store as one chunk does', async () => {
    const path = join(dir, 'leak.hscap')
    writeFileSync(path, await generated('leak', 40))
    const whole = await loadCaptureFile(path)
    const small = await loadCaptureFile(path, { chunkSize: 61 })
    expect(small.error).toBeUndefined()
    expect(dumpStore(small.store)).toEqual(dumpStore(whole.store))
  })

  it("give an importer's file the same store as one chunk does", async () => {
    const whole = await loadCaptureFile(VMA)
    const small = await loadCaptureFile(VMA, { chunkSize: 61 })
    expect(whole.format).toBe('vma-json')
    expect(small.format).toBe('vma-json')
    expect(dumpStore(small.store)).toEqual(dumpStore(whole.store))
    expect(readFileSync(VMA).length).toBe(small.store.sourceBytes)
  })
})

describe('a pipelined load that is stopped', () => {
  it('ends its worker with the file closed', async () => {
    const path = join(dir, 'stress.hscap')
    writeFileSync(path, await generated('stress', 200))
    const before = openFiles()
    let worker: Worker | undefined
    const load = startPipedLoad(path, { chunkSize: 4096, worker: () => (worker = ingestWorker()) })
    expect(load).toBeDefined()
    const grown = new Promise<void>((resolve) => {
      load!.onGrow = () => resolve()
    })
    await Promise.race([grown, load!.ended])
    const exited = once(worker!, 'exit')
    load!.stop()
    expect(await load!.ended).toEqual({ unpiped: 'stopped' })
    // exit code 0: the worker ended its load itself, closing the file (a terminated one exits with 1)
    expect(await exited).toEqual([0])
    expect(openFiles()).toBe(before)
  })
})

describe("a pipelined load's worker", () => {
  const storeOf = (end: PipedEnd) => {
    if (!('result' in end)) throw new Error(`not piped: ${JSON.stringify(end)}`)
    return dumpStore(end.result.store)
  }

  it('takes the next load once its own has ended, and gives it the store a one-thread load gives', async () => {
    const first = join(dir, 'first.hscap')
    const second = join(dir, 'second.hscap')
    writeFileSync(first, await generated('stress', 120))
    writeFileSync(second, await generated('leak', 60))
    const a = startPipedLoad(first, { chunkSize: 4096, eager: true })!
    expect(storeOf(await a.ended)).toEqual(dumpStore((await loadCaptureFile(first)).store))
    const waiting = spareWorker()
    expect(waiting).toBeDefined()
    const b = startPipedLoad(second, { chunkSize: 4096, eager: true })!
    // the waiting worker took it: none waits while it loads
    expect(spareWorker()).toBeUndefined()
    expect(storeOf(await b.ended)).toEqual(dumpStore((await loadCaptureFile(second)).store))
    expect(spareWorker()).toBe(waiting)
    // a stop once the load has ended tells the worker nothing: it waits on, and loads again
    b.stop()
    const c = startPipedLoad(first, { chunkSize: 4096 })!
    expect(storeOf(await c.ended)).toEqual(dumpStore((await loadCaptureFile(first)).store))
    expect(spareWorker()).toBe(waiting)
  })

  it('ends when no load comes in time, and a stopped one ends at once', async () => {
    const path = join(dir, 'leak.hscap')
    writeFileSync(path, await generated('leak', 40))
    try {
      spareWorker(50)
      const a = startPipedLoad(path, { chunkSize: 4096 })!
      expect('result' in (await a.ended)).toBe(true)
      const waiting = spareWorker()!
      expect(await once(waiting, 'exit')).toEqual([1])
      expect(spareWorker()).toBeUndefined()
      // stopped while it loads: it ends with its load and is not kept
      const b = startPipedLoad(join(dir, 'first.hscap'), { chunkSize: 4096 })!
      b.stop()
      expect(await b.ended).toEqual({ unpiped: 'stopped' })
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(spareWorker()).toBeUndefined()
    } finally {
      spareWorker(SPARE_WORKER_MS)
    }
  })
})
