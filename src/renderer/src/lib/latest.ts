/**
 * A query that only the latest request matters for (zooming, scrubbing): while one is in flight, new requests
 * replace each other and the last one runs when it returns; answers to superseded requests are dropped. A burst
 * of wheel events or cursor moves costs at most two round trips, and the first one starts at once.
 */
export class Latest<Request, Answer> {
  private running = false
  private queued: { request: Request; generation: number } | null = null
  private generation = 0
  private waiters: (() => void)[] = []

  constructor(
    private readonly run: (request: Request) => Promise<Answer>,
    private readonly apply: (answer: Answer, request: Request) => void,
    private readonly fail: (error: unknown) => void = () => undefined,
  ) {}

  /** Ask for `request`; resolves once the queue is empty (this request applied, replaced or dropped). */
  async request(request: Request): Promise<void> {
    this.queued = { request, generation: this.generation }
    if (this.running) return new Promise((resolve) => this.waiters.push(resolve))
    this.running = true
    try {
      while (this.queued) {
        const item = this.queued
        this.queued = null
        try {
          const answer = await this.run(item.request)
          // a newer request is waiting, or the owner reset: this answer is stale
          if (this.queued === null && item.generation === this.generation) this.apply(answer, item.request)
        } catch (error) {
          if (this.queued === null && item.generation === this.generation) this.fail(error)
        }
      }
    } finally {
      this.running = false
      for (const resolve of this.waiters.splice(0)) resolve()
    }
  }

  /** Forget what is queued and drop the answer in flight (the run closed, the view went away). */
  reset(): void {
    this.generation++
    this.queued = null
  }

  get busy(): boolean {
    return this.running
  }
}
