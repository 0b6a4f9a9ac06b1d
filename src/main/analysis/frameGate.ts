/**
 * The gate a replay that follows a growing store waits at (FrameGate, backend.ts): a followed capture's in the app
 * (engine/engine.ts) and a pipelined load's (run.ts). `offer` says how many complete frames the store holds, `end`
 * that it holds all of them; `caughtUp`, when given, is told each time the replay has replayed all it was offered.
 */
import type { FrameGate } from './backend'

export class GrowingStoreGate implements FrameGate {
  ended = false
  /** The frames offered so far. */
  offered = 0
  private waiting: { done: number; resolve: (frames: number) => void } | undefined

  constructor(private readonly caughtUp?: (done: number) => void) {}

  wait(done: number): Promise<number> {
    if (this.offered > done || this.ended) return Promise.resolve(this.offered)
    this.caughtUp?.(done)
    return new Promise((resolve) => (this.waiting = { done, resolve }))
  }

  /** The frames replayed when the replay is waiting for more, else undefined. */
  waitingAt(): number | undefined {
    return this.waiting?.done
  }

  offer(frames: number): void {
    this.offered = frames
    const w = this.waiting
    if (w && frames > w.done) {
      this.waiting = undefined
      w.resolve(frames)
    }
  }

  end(frames: number): void {
    this.ended = true
    this.offered = frames
    const w = this.waiting
    this.waiting = undefined
    w?.resolve(frames)
  }
}
