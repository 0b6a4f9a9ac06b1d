/**
 * Whether what a load keeps for its repeats comes back: the scanner's transient tails (scanner.ts) and the texts of
 * unknown members (extras.ts). Keeping one that never repeats (a render graph new every frame, a callstack id on
 * every resource) costs its hashing, probing and copying for nothing. A score counts the kept ones not found again
 * against those found (a miss +1, a find −8, within [0, 2 COLD]); past COLD the keeper is cold and keeps only one
 * in SAMPLE, each counting for SAMPLE (a miss +SAMPLE, a find −8 SAMPLE), so that what starts to repeat is found
 * among the sampled ones and warms it again.
 */
export const COLD = 4096
/** One in SAMPLE kept while cold: the top SAMPLE_BITS bits of a hash, or a count. */
export const SAMPLE_BITS = 4
export const SAMPLE = 1 << SAMPLE_BITS

export class RepeatScore {
  private value = 0

  get cold(): boolean {
    return this.value > COLD
  }

  /** One kept was not found again. */
  missed(): void {
    const value = this.value + (this.value > COLD ? SAMPLE : 1)
    this.value = value < 2 * COLD ? value : 2 * COLD
  }

  /** One kept was found again. */
  found(): void {
    const value = this.value - (this.value > COLD ? 8 * SAMPLE : 8)
    this.value = value > 0 ? value : 0
  }
}
