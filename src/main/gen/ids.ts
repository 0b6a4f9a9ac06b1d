/**
 * Resource ids as an engine hands them out: a released id comes back, oldest first, once `delay` frames have
 * passed (the way a resource's address is reused after its deferred delete ran), so captures exercise id reuse
 * without reusing an id while the model may still hold the released block as pending.
 */
export class IdPool {
  private ids = new Float64Array(1024)
  private frames = new Float64Array(1024)
  private head = 0
  private count = 0
  private next: number
  private live = 0

  constructor(
    first = 1,
    private readonly delay = 3,
  ) {
    this.next = first
  }

  get liveCount(): number {
    return this.live
  }

  take(frame: number): number {
    this.live++
    if (this.count > 0 && this.frames[this.head] + this.delay <= frame) {
      const id = this.ids[this.head]
      if (++this.head === this.ids.length) this.head = 0
      this.count--
      return id
    }
    return this.next++
  }

  give(id: number, frame: number): void {
    this.live--
    if (this.count === this.ids.length) this.grow()
    let at = this.head + this.count
    if (at >= this.ids.length) at -= this.ids.length
    this.ids[at] = id
    this.frames[at] = frame
    this.count++
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2)
    const frames = new Float64Array(this.ids.length * 2)
    for (let i = 0; i < this.count; i++) {
      ids[i] = this.ids[(this.head + i) % this.ids.length]
      frames[i] = this.frames[(this.head + i) % this.ids.length]
    }
    this.ids = ids
    this.frames = frames
    this.head = 0
  }
}
