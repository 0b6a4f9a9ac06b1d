/**
 * Reading a file another process is writing: the bytes past those read so far, as they come, never the file again
 * from its start. `fs.watch` says when the file changed; a poll catches what it misses (network drives, file
 * systems without change events) and waits for a file not created yet (a program writes its capture once it has
 * started Vulkan). A file that gets shorter was replaced or truncated, and is an error.
 */
import { watch, type FSWatcher } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'

export const TAIL_POLL_MS = 250
/** Reads after a change wait this long after the previous read: a program flushing each frame is read in batches. */
export const TAIL_INTERVAL_MS = 100

export interface TailOptions {
  pollMs?: number
  intervalMs?: number
  chunkSize?: number
}

export class FileTail {
  /** Bytes read so far: the offset of the next read. */
  position = 0
  private handle: FileHandle | undefined
  private watcher: FSWatcher | undefined
  private poll: ReturnType<typeof setInterval> | undefined
  private delay: ReturnType<typeof setTimeout> | undefined
  /** The read under way; reads never overlap. */
  private reading: Promise<void> = Promise.resolve()
  private lastRead = 0
  private stopped = false
  private failed = false
  private readonly pollMs: number
  private readonly intervalMs: number
  private readonly chunkSize: number

  /**
   * `onBytes`: the next bytes, in order. `onBatch`: a read has ended (after one or more `onBytes`). `onError`: the
   * file cannot be read any more (the tail has stopped).
   */
  constructor(
    readonly path: string,
    private readonly sink: { onBytes: (chunk: Uint8Array) => void; onBatch: () => void; onError: (err: Error) => void },
    options: TailOptions = {},
  ) {
    this.pollMs = options.pollMs ?? TAIL_POLL_MS
    this.intervalMs = options.intervalMs ?? TAIL_INTERVAL_MS
    this.chunkSize = options.chunkSize ?? 1 << 20
  }

  start(): void {
    this.poll = setInterval(() => this.soon(), this.pollMs)
    this.soon()
  }

  /** Read what the file holds now, then stop. */
  async stop(): Promise<void> {
    if (this.stopped) return this.reading
    this.stopped = true
    this.quiet()
    this.reading = this.reading.then(() => this.read())
    await this.reading
    await this.handle?.close().catch(() => undefined)
    this.handle = undefined
  }

  /** Stop without reading more. */
  async cancel(): Promise<void> {
    this.stopped = true
    this.quiet()
    await this.reading
    await this.handle?.close().catch(() => undefined)
    this.handle = undefined
  }

  private quiet(): void {
    clearInterval(this.poll)
    clearTimeout(this.delay)
    this.delay = undefined
    this.watcher?.close()
    this.watcher = undefined
  }

  /** A read soon: at once when the last one was long enough ago, else after the interval. */
  private soon(): void {
    if (this.stopped || this.delay !== undefined) return
    const wait = Math.max(0, this.lastRead + this.intervalMs - performance.now())
    this.delay = setTimeout(() => {
      this.delay = undefined
      if (this.stopped) return
      this.reading = this.reading.then(() => this.read())
    }, wait)
  }

  private async read(): Promise<void> {
    if (this.failed) return
    this.lastRead = performance.now()
    try {
      if (!this.handle) {
        try {
          this.handle = await open(this.path, 'r')
        } catch (err) {
          // not created yet: the poll tries again
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
          throw err
        }
        if (!this.stopped) this.watchFile()
      }
      const { size } = await this.handle.stat()
      if (size < this.position) {
        throw new Error(`${this.path} got shorter (${size} bytes after ${this.position} were read): it was replaced or truncated`)
      }
      let read = false
      while (this.position < size) {
        const length = Math.min(this.chunkSize, size - this.position)
        const chunk = new Uint8Array(length)
        const { bytesRead } = await this.handle.read(chunk, 0, length, this.position)
        if (bytesRead === 0) break
        this.position += bytesRead
        read = true
        this.sink.onBytes(bytesRead === length ? chunk : chunk.subarray(0, bytesRead))
      }
      if (read) this.sink.onBatch()
    } catch (err) {
      this.failed = true
      this.stopped = true
      this.quiet()
      this.sink.onError(err instanceof Error ? err : new Error(String(err)))
    }
  }

  private watchFile(): void {
    try {
      this.watcher = watch(this.path, { persistent: false }, () => this.soon())
      this.watcher.on('error', () => {
        // the poll goes on alone
        this.watcher?.close()
        this.watcher = undefined
      })
    } catch {
      // no change events here: the poll reads alone
    }
  }
}
