/**
 * Niagara GPU particle systems: each active system holds its simulation buffers (float, int and half data,
 * typed UAV buffers) until it finishes. A leaking emitter, when set, is spawned every few frames and its buffers
 * are never released, as with a pooled component that forgets to free its GPU data: a slow, steady growth
 * under one name that a diff between two points of the capture finds.
 */
import { roundUp } from '../../shared/units'
import type { Prng } from './prng'
import { BufferClass, type CaptureWriter } from './writer'

const FLOAT_DATA = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 4, tag: 'Particles' },
)
const HALF_DATA = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'VertexBuffer'], stride: 2, tag: 'Particles' },
)

const SYSTEMS = [
  'NS_Impact_Sparks', 'NS_Muzzle_Flash', 'NS_Smoke_Plume', 'NS_Fire_Small', 'NS_Dust_Burst', 'NS_Rain_Splash',
  'NS_Leaves_Falling', 'NS_Blood_Hit',
]

interface ActiveSystem {
  ids: number[]
  endFrame: number
}

export interface LeakOptions {
  /** The leaking system's name. */
  system: string
  /** Particles of one spawn, at least and at most. */
  particles: [number, number]
  /** Frames between two spawns, at least and at most. */
  every: [number, number]
}

export class ParticleSystems {
  private readonly active: ActiveSystem[] = []
  private nextLeak = 0
  /** Buffers leaked so far, and their bytes. */
  leakedBuffers = 0
  leakedBytes = 0

  constructor(
    private readonly rng: Prng,
    /** Systems spawned per second on average. */
    private readonly spawnRate: number,
    private readonly leak?: LeakOptions,
  ) {}

  private spawn(out: CaptureWriter, system: string, [lo, hi]: [number, number]): { ids: number[]; bytes: number } {
    const rng = this.rng
    const particles = Math.round(rng.logRange(lo, hi))
    const floats = rng.int(8, 20)
    const ids: number[] = []
    let bytes = 0
    const add = (cls: BufferClass, size: number, name: string): void => {
      ids.push(out.buffer(cls, size, name))
      bytes += size
    }
    add(FLOAT_DATA, roundUp(particles * floats * 4, 16), system + '.GPUBuffer.Float')
    add(FLOAT_DATA, roundUp(particles * rng.int(1, 4) * 4, 16), system + '.GPUBuffer.Int')
    if (rng.chance(0.5)) add(HALF_DATA, roundUp(particles * rng.int(2, 6) * 2, 16), system + '.GPUBuffer.Half')
    return { ids, bytes }
  }

  frame(out: CaptureWriter, frame: number): void {
    const rng = this.rng
    for (let i = this.active.length - 1; i >= 0; i--) {
      const system = this.active[i]
      if (system.endFrame > frame) continue
      for (const id of system.ids) out.release(id)
      this.active[i] = this.active[this.active.length - 1]
      this.active.pop()
    }
    if (rng.chance(this.spawnRate / 60)) {
      const { ids } = this.spawn(out, rng.pick(SYSTEMS), [256, 32768])
      this.active.push({ ids, endFrame: frame + rng.int(30, 360) })
    }
    if (this.leak && frame >= this.nextLeak) {
      const { ids, bytes } = this.spawn(out, this.leak.system, this.leak.particles)
      this.leakedBuffers += ids.length
      this.leakedBytes += bytes
      this.nextLeak = frame + rng.int(this.leak.every[0], this.leak.every[1])
    }
  }

  /** Buffers of the live systems (leaked ones are not drawn any more). */
  usedIds(into: Float64Array, at: number): number {
    let n = at
    for (const s of this.active) for (const id of s.ids) if (n < into.length) into[n++] = id
    return n
  }
}
