/**
 * A file's bytes as chunks read into two buffers taken in turn, the next chunk read while the caller works on the
 * current one. A stream that allocates a buffer per chunk touches fresh memory for every chunk, and on a virtual
 * machine whose memory the host hands out on first touch each page of it costs a fault (bench/README.md, "Fresh
 * memory: chunks read into two buffers"): reading 28 MB so took 7 000 faults and 120 ms, into two buffers 300
 * faults and 8 ms.
 *
 * A chunk is valid until the next one is asked for: a reader that keeps a chunk past that copies it.
 *
 * Through node:fs's callbacks rather than node:fs/promises, which a process that loads it starts by compiling
 * (about 2 ms, with the readline interface it loads): a report of a plain capture needs no other part of it.
 *
 * `sync`: each chunk read on the calling thread, for a thread that has nothing else to do meanwhile (a pipelined
 * load's worker, a command's load before its replay). A read through libuv's pool waits for one of the pool's
 * threads to get a core, and on a machine whose cores the replay and the engine's own threads keep busy that wait
 * outlasts the copy: the worker of a one-shot stress-2000000 report spent 138 ms in its reads, and a report of
 * deferred-2000000 took 1.18 s against 1.08 s with the reads on the worker's own thread (bench/README.md, "Two
 * cores pipeline large captures"). A one-thread report of `gen streaming` waited 16 ms in such reads while the
 * engine compiled its load (bench/README.md, "A command's one-thread load reads on its own thread").
 */
import { close, open, read, readSync } from 'node:fs'

function openToRead(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, 'r', (err, fd) => (err ? reject(err) : resolve(fd))))
}

function readInto(fd: number, buffer: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, buffer.length, null, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead))),
  )
}

function closeFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (err) => (err ? reject(err) : resolve())))
}

export async function* fileChunks(path: string, chunkSize: number, sync = false): AsyncGenerator<Uint8Array> {
  const fd = await openToRead(path)
  // plain arrays, not Buffers: a reader's slice() of a chunk is then a copy
  if (sync) {
    // one buffer: nothing is read ahead
    const buffer = new Uint8Array(chunkSize)
    try {
      for (;;) {
        // a turn of the event loop between chunks, as an awaited read gives: a message asking to stop is heard
        await new Promise(setImmediate)
        const bytesRead = readSync(fd, buffer, 0, chunkSize, null)
        if (bytesRead === 0) return
        yield buffer.subarray(0, bytesRead)
      }
    } finally {
      await closeFile(fd)
    }
  }
  const buffers = [new Uint8Array(chunkSize), new Uint8Array(chunkSize)]
  let turn = 0
  let pending: Promise<number> | undefined = readInto(fd, buffers[0])
  try {
    for (;;) {
      const bytesRead = await pending
      pending = undefined
      if (bytesRead === 0) return
      const current = buffers[turn]
      turn ^= 1
      // the buffer read into now is the one handed out before this chunk: its reader has asked for the next
      pending = readInto(fd, buffers[turn])
      yield current.subarray(0, bytesRead)
    }
  } finally {
    // a reader that stops early leaves a read under way: it ends before the file closes
    await pending?.catch(() => undefined)
    await closeFile(fd)
  }
}
