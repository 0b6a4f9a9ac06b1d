/**
 * The generator's randomness: sfc32 (Chris Doty-Humphrey's small fast chaotic generator), seeded through
 * splitmix32 so nearby seeds give unrelated streams. Deterministic across platforms: only 32-bit integer
 * operations and one division by 2^32.
 */

const TWO_32 = 4294967296

function splitmix32(state: number): number {
  state = (state + 0x9e3779b9) | 0
  let z = state
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/** A 32-bit hash of a few integers: a stable per-entity seed (a world cell, a mesh) independent of call order. */
export function hash32(...values: number[]): number {
  let h = 0x811c9dc5
  for (const v of values) {
    const lo = v >>> 0
    const hi = Math.floor(v / TWO_32) >>> 0
    h = splitmix32(h ^ lo)
    h = splitmix32(h ^ hi)
  }
  return h
}

/** FNV-1a over a string's UTF-16 units: a stable number for a name. */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

export class Prng {
  private a: number
  private b: number
  private c: number
  private d: number

  /** Any safe integer seed; its high and low 32 bits both count. */
  constructor(seed: number) {
    const lo = seed >>> 0
    const hi = Math.floor(seed / TWO_32) >>> 0
    this.a = splitmix32(lo)
    this.b = splitmix32(hi ^ 0x6a09e667)
    this.c = splitmix32(lo ^ hi ^ 0xbb67ae85)
    this.d = 1
    // The first outputs of sfc32 still show the seed; the reference implementation discards a dozen.
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** Uniform in [0, 2^32). */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / TWO_32
  }

  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1))
  }

  range(lo: number, hi: number): number {
    return lo + this.float() * (hi - lo)
  }

  chance(p: number): boolean {
    return this.float() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]
  }

  /** Picks by weight: `weights[i]` is the relative chance of index i. */
  weighted(weights: readonly number[]): number {
    let total = 0
    for (const w of weights) total += w
    let x = this.float() * total
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]
      if (x < 0) return i
    }
    return weights.length - 1
  }

  /** Log-uniform in [lo, hi]: as many values between 64 KiB and 128 KiB as between 16 MiB and 32 MiB. */
  logRange(lo: number, hi: number): number {
    return lo * Math.pow(hi / lo, this.float())
  }

  /** Roughly normal around `mean` (sum of three uniforms), clamped to ±3 spreads. */
  around(mean: number, spread: number): number {
    return mean + (this.float() + this.float() + this.float() - 1.5) * 2 * spread
  }
}
