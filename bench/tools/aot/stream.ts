// AssemblyScript: the stream of operations the kernels of bench/tools/aot.ts run, choice for choice as its
// JavaScript Stream makes them (a fixed linear congruential generator).

export class Stream {
  seed: u32 = 0
  live: i32 = 0
  target: i32 = 0

  reset(start: u32, target: i32): void {
    this.seed = start
    this.live = 0
    this.target = target
  }

  next(n: u32): u32 {
    this.seed = this.seed * 1103515245 + 12345
    return (this.seed >> 8) % n
  }

  /** Whether the next operation allocates (else it frees a live block). */
  allocates(): bool {
    return this.live == 0 || this.next(64) < <u32>(this.live < this.target ? 40 : 24)
  }
}
