/**
 * The staging ring (seed §5, §7.3: "staging上传走一个独立的ring buffer … 保留几个帧再复用，确保GPU读完了才能覆盖"):
 * one VkDeviceMemory written front to back and wrapped to the start; the bytes a frame took are reused only
 * after the GPU has finished that frame (its fence). A request that does not fit before the oldest in-flight
 * frame's bytes fails here; the model then gives it a temporary allocation.
 */
import { roundUp, type Bytes, type Frame } from '../../../shared/units'

export class StagingRing {
  readonly size: Bytes
  private head: Bytes = 0
  private tail: Bytes = 0
  /** Per frame with bytes in flight, oldest first: the frame and the head after its last request. */
  private frames: Frame[] = []
  private ends: Bytes[] = []
  private first = 0

  constructor(size: Bytes) {
    this.size = size
  }

  get isEmpty(): boolean {
    return this.first === this.frames.length
  }

  /** Bytes not reusable yet, the skipped end of the ring before a wrap included. */
  usedBytes(): Bytes {
    if (this.isEmpty) return 0
    return this.head > this.tail ? this.head - this.tail : this.size - this.tail + this.head
  }

  allocate(size: Bytes, alignment: Bytes, frame: Frame): Bytes {
    if (size <= 0 || size > this.size) return -1
    if (this.isEmpty) {
      this.head = 0
      this.tail = 0
    }
    let start: Bytes = -1
    // Unwrapped: the free bytes are [head, size) then [0, tail). Wrapped (or exactly full): [head, tail).
    const wrapped = !this.isEmpty && this.head <= this.tail
    if (!wrapped) {
      const s = roundUp(this.head, alignment)
      if (s + size <= this.size) start = s
      else if (size <= this.tail) start = 0
    } else {
      const s = roundUp(this.head, alignment)
      if (s + size <= this.tail) start = s
    }
    if (start < 0) return -1
    this.head = start + size
    const last = this.frames.length - 1
    if (last >= this.first && this.frames[last] === frame) this.ends[last] = this.head
    else {
      this.frames.push(frame)
      this.ends.push(this.head)
    }
    return start
  }

  /** Free what frames up to `completed` took; returns the bytes freed. */
  retire(completed: Frame): Bytes {
    const before = this.usedBytes()
    while (this.first < this.frames.length && this.frames[this.first] <= completed) {
      this.tail = this.ends[this.first]
      this.first++
    }
    if (this.first > 64 && this.first * 2 > this.frames.length) {
      this.frames.splice(0, this.first)
      this.ends.splice(0, this.first)
      this.first = 0
    }
    return before - this.usedBytes()
  }

  /** The in-flight bytes as [start, end) ranges in offset order: for views. */
  ranges(): [Bytes, Bytes][] {
    if (this.isEmpty) return []
    if (this.head > this.tail) return [[this.tail, this.head]]
    const out: [Bytes, Bytes][] = []
    if (this.head > 0) out.push([0, this.head])
    if (this.tail < this.size) out.push([this.tail, this.size])
    return out
  }

  clone(): StagingRing {
    const c = new StagingRing(this.size)
    c.head = this.head
    c.tail = this.tail
    c.frames = this.frames.slice(this.first)
    c.ends = this.ends.slice(this.first)
    return c
  }
}
