/**
 * How many bytes of capture lines a file holds, known before it is read: its size, or for a gzip file the size its
 * trailer gives (ISIZE, the uncompressed length modulo 2^32, of the last member). Where a file cannot be read the
 * answer is -1, and so for a pipe or a device. The load's own read is what reports such errors; this only chooses
 * how the load runs (a worker thread for a large capture, analysis/run.ts) and the compiler's budget of a short
 * command (cli/shortRun.ts).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs'

/** The two bytes a gzip stream opens with. */
export const GZIP_0 = 0x1f
export const GZIP_1 = 0x8b

export function captureBytes(path: string): number {
  let size: number
  let fd: number
  try {
    // a pipe or a device is not opened here: opening a pipe waits for its writer
    const stat = statSync(path)
    if (!stat.isFile()) return -1
    size = stat.size
    fd = openSync(path, 'r')
  } catch {
    return -1
  }
  try {
    const head = Buffer.alloc(2)
    if (size < 18 || readSync(fd, head, 0, 2, 0) < 2 || head[0] !== GZIP_0 || head[1] !== GZIP_1) return size
    const tail = Buffer.alloc(4)
    if (readSync(fd, tail, 0, 4, size - 4) < 4) return size
    // ISIZE wraps at 4 GiB: a larger capture still holds at least its compressed size
    return Math.max(size, tail.readUInt32LE(0))
  } catch {
    return -1
  } finally {
    closeSync(fd)
  }
}
