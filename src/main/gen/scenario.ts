/**
 * What every scenario shares: its interface, the header, the frame clock with its GPU fence, the adapters.
 * A scenario is a generator that writes the header and then one frame per step, so any number of frames
 * streams through in constant memory and the caller can wait for the output stream between frames.
 */
import { CAPTURE_FORMAT, CAPTURE_VERSION, type CaptureHeader } from '../../shared/capture'
import { GiB, MiB } from '../../shared/units'
import { hash32, Prng } from './prng'
import type { CaptureWriter } from './writer'

export interface ScenarioOptions {
  frames: number
  seed: number
}

export interface Scenario {
  name: string
  description: string
  defaultFrames: number
  /** Writes the header, then yields after each frame. */
  run(out: CaptureWriter, options: ScenarioOptions): Generator<void, void, void>
}

export interface Adapter {
  name: string
  /** DXGI_ADAPTER_DESC's DedicatedVideoMemory: a little under the marketing size. */
  vram: number
}

export const ADAPTERS = {
  rtx4080: { name: 'NVIDIA GeForce RTX 4080', vram: 17171480576 },
  rtx4070: { name: 'NVIDIA GeForce RTX 4070', vram: 12 * GiB - 160 * MiB },
  rtx3070: { name: 'NVIDIA GeForce RTX 3070', vram: 8 * GiB - 148 * MiB },
  rtx3060Laptop: { name: 'NVIDIA GeForce RTX 3060 Laptop GPU', vram: 6 * GiB - 148 * MiB },
  rtx3050Laptop: { name: 'NVIDIA GeForce RTX 3050 Laptop GPU', vram: 4 * GiB - 148 * MiB },
  rx7800xt: { name: 'AMD Radeon RX 7800 XT', vram: 16 * GiB - 16 * MiB },
} satisfies Record<string, Adapter>

/** The header of a native D3D12 capture; `captured` is derived from the seed so output stays deterministic. */
export function captureHeader(app: string, adapter: Adapter, budget: number, seed: number): CaptureHeader {
  const start = Date.UTC(2026, 10, 2, 9, 0, 0) + (Math.abs(seed) % 40000) * 60000
  return {
    format: CAPTURE_FORMAT,
    version: CAPTURE_VERSION,
    api: 'd3d12',
    app,
    captured: new Date(start).toISOString().replace('.000Z', 'Z'),
    adapter: { name: adapter.name, vram: adapter.vram, resourceHeapTier: 2, uma: false },
    budget: Math.round(budget),
  }
}

/**
 * Frame records with their time, and `gpu` records for a GPU that finishes frames 1 to 3 frames behind the CPU
 * (a fence value only moves forward, so a record is written only when it does).
 */
export class FrameClock {
  /** Milliseconds since the capture started. */
  t = 0
  private completed = 0

  constructor(
    private readonly rng: Prng,
    private readonly frameMs = 1000 / 60,
  ) {}

  /** Starts frame `n`; `hitchMs` is extra CPU time the previous frame took (loading, compiling). */
  frame(out: CaptureWriter, n: number, hitchMs = 0): void {
    if (n > 1) this.t += Math.max(4, this.rng.around(this.frameMs, this.frameMs / 12)) + hitchMs
    out.frame(n, Math.round(this.t * 1000) / 1000)
  }

  gpu(out: CaptureWriter, n: number, minLag = 1, maxLag = 3): void {
    const done = n - this.rng.int(minLag, maxLag)
    if (done > this.completed) {
      this.completed = done
      out.gpu(done)
    }
  }
}

/** An independent random stream of a scenario's seed: one per subsystem, so adding draws to one leaves the rest. */
export function scenarioRng(seed: number, salt: number): Prng {
  return new Prng(hash32(seed, salt))
}
