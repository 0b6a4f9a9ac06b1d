/**
 * The Engine as hosts use it: every call goes to a worker thread, so a 10 GB capture never blocks the
 * Electron main process or the browser host's event loop. If the worker dies, pending calls fail with a
 * message and `onExit` tells the host, which can start a new engine.
 */
import { Worker } from 'node:worker_threads'
import type { LoadOutcome, LoadProgress, RunSummary, SeriesAnswer, SeriesQuery } from '../../shared/ipc'
import type { Engine, LoadSource } from './engine'
import { transferables, type EngineCall, type EngineMethod, type EngineReply } from './protocol'

export class WorkerEngine implements Engine {
  private readonly worker: Worker
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  private readonly progress = new Map<string, (p: LoadProgress) => void>()
  private exited: Error | undefined
  onExit: ((error: Error) => void) | undefined

  /** `script`: the built worker entry (engineWorker.js next to the host's entry). */
  constructor(script: string | URL) {
    this.worker = new Worker(script)
    this.worker.on('message', (reply: EngineReply) => this.receive(reply))
    this.worker.on('error', (err) => this.fail(err))
    this.worker.on('exit', (code) => this.fail(new Error(`the engine stopped (exit code ${code})`)))
  }

  private receive(reply: EngineReply): void {
    if ('event' in reply) {
      this.progress.get(reply.progress.loadId)?.(reply.progress)
      return
    }
    const call = this.pending.get(reply.id)
    if (!call) return
    this.pending.delete(reply.id)
    if (reply.ok) call.resolve(reply.value)
    else call.reject(new Error(reply.error))
  }

  private fail(err: Error): void {
    if (this.exited) return
    this.exited = err
    for (const call of this.pending.values()) call.reject(err)
    this.pending.clear()
    this.onExit?.(err)
  }

  private call<T>(method: EngineMethod, args: unknown[], transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.exited) return Promise.reject(this.exited)
    const id = this.nextId++
    const message: EngineCall = { id, method, args }
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.worker.postMessage(message, transfer)
    })
  }

  async load(loadId: string, source: LoadSource, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    if (onProgress) this.progress.set(loadId, onProgress)
    try {
      return await this.call<LoadOutcome>('load', [loadId, source])
    } finally {
      this.progress.delete(loadId)
    }
  }

  feed(loadId: string, chunk: Uint8Array | null): Promise<boolean> {
    return this.call('feed', [loadId, chunk], chunk ? transferables(chunk) : [])
  }

  cancel(loadId: string): Promise<void> {
    return this.call('cancel', [loadId])
  }

  close(runId: string): Promise<void> {
    return this.call('close', [runId])
  }

  summary(runId: string): Promise<RunSummary> {
    return this.call('summary', [runId])
  }

  series(query: SeriesQuery): Promise<SeriesAnswer> {
    return this.call('series', [query])
  }

  async dispose(): Promise<void> {
    if (!this.exited) await this.call('dispose', []).catch(() => undefined)
    await this.worker.terminate()
  }
}
