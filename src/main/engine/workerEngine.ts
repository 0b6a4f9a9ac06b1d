/**
 * The Engine as hosts use it: every call goes to a worker thread, so a 10 GB capture never blocks the
 * Electron main process or the browser host's event loop. If the worker dies, pending calls fail with a
 * message and `onExit` tells the host, which can start a new engine.
 */
import { Worker } from 'node:worker_threads'
import type { LoadOutcome, LoadProgress, PlaybackFrame, PlaybackRequest } from '../../shared/ipc'
import type { Engine, ExportOptions, ExportResult, ExportTarget, FollowSource, LoadSource } from './engine'
import { transferables, type EngineCall, type EngineMethod, type EngineReply } from './protocol'

type Forwarded = Omit<Engine, 'load' | 'follow' | 'rerun' | 'feed' | 'startPlayback' | 'dispose'>

export class WorkerEngine implements Engine {
  private readonly worker: Worker
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  private readonly progress = new Map<string, (p: LoadProgress) => void>()
  private readonly playback = new Map<string, (f: PlaybackFrame) => void>()
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
      if (reply.event === 'progress') this.progress.get(reply.progress.loadId)?.(reply.progress)
      else this.playback.get(reply.frame.playbackId)?.(reply.frame)
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

  private forward<M extends keyof Forwarded>(method: M) {
    return ((...args: unknown[]) => this.call(method, args)) as unknown as Forwarded[M]
  }

  async load(loadId: string, source: LoadSource, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    if (onProgress) this.progress.set(loadId, onProgress)
    try {
      return await this.call<LoadOutcome>('load', [loadId, source])
    } finally {
      this.progress.delete(loadId)
    }
  }

  /** Progress of a followed capture goes on after the call has answered, until the run is no longer live. */
  async follow(loadId: string, source: FollowSource, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    this.progress.set(loadId, (p) => {
      if (p.phase === 'following' && p.summary && !p.summary.live) this.progress.delete(loadId)
      onProgress?.(p)
    })
    const outcome = await this.call<LoadOutcome>('follow', [loadId, source]).catch((err: Error) => {
      this.progress.delete(loadId)
      throw err
    })
    if (!outcome.ok || !outcome.summary.live) this.progress.delete(loadId)
    return outcome
  }

  async rerun(
    loadId: string,
    runId: string,
    config: Record<string, string | number | boolean>,
    onProgress?: (p: LoadProgress) => void,
  ): Promise<LoadOutcome> {
    if (onProgress) this.progress.set(loadId, onProgress)
    try {
      return await this.call<LoadOutcome>('rerun', [loadId, runId, config])
    } finally {
      this.progress.delete(loadId)
    }
  }

  feed(loadId: string, chunk: Uint8Array | null): Promise<boolean> {
    return this.call('feed', [loadId, chunk], chunk ? transferables(chunk) : [])
  }

  async startPlayback(request: PlaybackRequest, onFrame: (frame: PlaybackFrame) => void): Promise<void> {
    this.playback.set(request.playbackId, onFrame)
    await this.call('startPlayback', [request])
  }

  readonly cancel = this.forward('cancel')
  readonly endFollow = this.forward('endFollow')
  readonly close = this.forward('close')
  readonly summary = this.forward('summary')
  readonly runConfig = this.forward('runConfig')
  readonly report = this.forward('report')
  readonly series = this.forward('series')
  readonly snapshot = this.forward('snapshot')
  readonly resources = this.forward('resources')
  readonly resource = this.forward('resource')
  readonly transients = this.forward('transients')
  readonly residencyEvents = this.forward('residencyEvents')
  readonly compareSeries = this.forward('compareSeries')
  readonly resourceDiff = this.forward('resourceDiff')
  readonly leaks = this.forward('leaks')
  readonly ackPlayback = this.forward('ackPlayback')
  readonly hazards = this.forward('hazards')
  readonly placements = this.forward('placements')
  readonly search = this.forward('search')
  readonly openHistory = this.forward('openHistory')
  readonly historyTrend = this.forward('historyTrend')
  readonly historyRunPath = this.forward('historyRunPath')
  readonly closeHistory = this.forward('closeHistory')

  exportCapture(runId: string, options: ExportOptions, target: ExportTarget): Promise<ExportResult> {
    return this.call('exportCapture', [runId, options, target])
  }

  async stopPlayback(playbackId: string): Promise<void> {
    this.playback.delete(playbackId)
    await this.call('stopPlayback', [playbackId])
  }

  async dispose(): Promise<void> {
    if (!this.exited) await this.call('dispose', []).catch(() => undefined)
    await this.worker.terminate()
  }
}
