/**
 * The per-frame linear allocator for dynamic uniform data (seed §4.2, §4.3, §7.3): a cursor bumped through a
 * block, reset as a whole. Each frame bumps through blocks of its own ("每帧专用"): a block is reset, and taken by a
 * later frame, only once the GPU has finished the last frame that wrote into it, so frames in flight never
 * overwrite each other's data. Blocks are kept for reuse, never freed.
 */
import { roundUp, type Bytes, type Frame } from '../../../shared/units'

export class LinearArena {
  readonly blockSize: Bytes
  /** Per block: its VkDeviceMemory id, its cursor, the last frame that bumped it. */
  readonly memory: number[] = []
  readonly cursor: Bytes[] = []
  readonly lastFrame: Frame[] = []
  /** Bytes bumped in blocks the GPU has not finished with. */
  inFlight: Bytes = 0
  private current = -1
  private currentFrame: Frame = Number.NEGATIVE_INFINITY

  constructor(blockSize: Bytes) {
    this.blockSize = blockSize
  }

  /** Bump in this frame's current block: the offset, or -1 when the frame has no block or it is full. */
  tryAllocate(size: Bytes, alignment: Bytes, frame: Frame): Bytes {
    if (frame !== this.currentFrame) {
      this.current = -1
      this.currentFrame = frame
    }
    const c = this.current
    if (c < 0) return -1
    const start = roundUp(this.cursor[c], alignment)
    if (start + size > this.blockSize) return -1
    this.inFlight += start + size - this.cursor[c]
    this.cursor[c] = start + size
    this.lastFrame[c] = frame
    return start
  }

  /** Make a reset block this frame's current one: its index, or -1 when every block is still in flight. */
  takeReset(frame: Frame, completed: Frame): number {
    for (let i = 0; i < this.memory.length; i++) {
      if (i !== this.current && this.cursor[i] === 0 && this.lastFrame[i] <= completed) {
        this.current = i
        this.currentFrame = frame
        this.lastFrame[i] = frame
        return i
      }
    }
    return -1
  }

  /**
   * Bump up to `count` pieces of `piece` bytes (a multiple of `alignment`) into this frame's current block;
   * returns how many fit. Aggregated traffic (`upload` records) goes through here in one step per block.
   */
  bumpMany(piece: Bytes, alignment: Bytes, count: number, frame: Frame): number {
    if (frame !== this.currentFrame) {
      this.current = -1
      this.currentFrame = frame
    }
    const c = this.current
    if (c < 0 || piece <= 0) return 0
    const start = roundUp(this.cursor[c], alignment)
    if (start >= this.blockSize) return 0
    const n = Math.min(count, Math.floor((this.blockSize - start) / piece))
    if (n <= 0) return 0
    this.inFlight += start + n * piece - this.cursor[c]
    this.cursor[c] = start + n * piece
    this.lastFrame[c] = frame
    return n
  }

  /** The VkDeviceMemory of this frame's current block, or -1. */
  currentMemory(frame: Frame): number {
    return frame === this.currentFrame && this.current >= 0 ? this.memory[this.current] : -1
  }

  addBlock(memory: number, frame: Frame): number {
    this.memory.push(memory)
    this.cursor.push(0)
    this.lastFrame.push(frame)
    this.current = this.memory.length - 1
    this.currentFrame = frame
    return this.current
  }

  memoryOf(block: number): number {
    return this.memory[block]
  }

  /** Reset every block whose last frame the GPU has finished; returns the bytes freed. */
  retire(completed: Frame): Bytes {
    let freed = 0
    for (let i = 0; i < this.memory.length; i++) {
      if (this.cursor[i] > 0 && this.lastFrame[i] <= completed) {
        freed += this.cursor[i]
        this.cursor[i] = 0
      }
    }
    this.inFlight -= freed
    return freed
  }

  clone(): LinearArena {
    const c = new LinearArena(this.blockSize)
    c.memory.push(...this.memory)
    c.cursor.push(...this.cursor)
    c.lastFrame.push(...this.lastFrame)
    c.inFlight = this.inFlight
    c.current = this.current
    c.currentFrame = this.currentFrame
    return c
  }
}
