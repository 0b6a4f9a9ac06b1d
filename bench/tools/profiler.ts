/** A CPU profile of part of a run, through the inspector of this process: start(), then stop() writes it. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Session } from 'node:inspector/promises'

export class Profiler {
  private readonly session = new Session()

  constructor(private readonly dir: string) {
    this.session.connect()
    mkdirSync(dir, { recursive: true })
  }

  /** Samples every `interval` µs from now on. */
  async start(interval = 200): Promise<void> {
    await this.session.post('Profiler.enable')
    await this.session.post('Profiler.setSamplingInterval', { interval })
    await this.session.post('Profiler.start')
  }

  /** Stops and writes the profile as `<dir>/<name>.cpuprofile` (Chrome's DevTools and `profile.ts` read it). */
  async stop(name: string): Promise<void> {
    const { profile } = await this.session.post('Profiler.stop')
    writeFileSync(join(this.dir, `${name}.cpuprofile`), JSON.stringify(profile))
  }
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number }
  selfSize: number
  children: HeapNode[]
}

/**
 * Where a part of a run allocates, through the inspector's sampling heap profiler: every object sampled, the ones
 * collected since included (what a collection had to clear, not what stays). start(), then stop() prints the
 * largest allocation sites by bytes (function and line of the bundle, an estimate from the samples).
 */
export class HeapSampler {
  private readonly session = new Session()

  constructor() {
    this.session.connect()
  }

  /** Samples an object about every `interval` bytes allocated from now on. */
  async start(interval = 16384): Promise<void> {
    await this.session.post('HeapProfiler.enable')
    await this.session.post('HeapProfiler.startSampling', {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    })
  }

  /** Stops and prints the `top` largest allocation sites, with what they come to per `per` (a snapshot, a run). */
  async stop(top: number, per: number, perName: string): Promise<void> {
    const { profile } = (await this.session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } }
    const sites = new Map<string, number>()
    let total = 0
    const walk = (n: HeapNode): void => {
      const f = n.callFrame
      const key = `${f.functionName || '(anonymous)'}:${f.lineNumber + 1} ${f.url.split('/').pop() ?? ''}`
      sites.set(key, (sites.get(key) ?? 0) + n.selfSize)
      total += n.selfSize
      for (const c of n.children) walk(c)
    }
    walk(profile.head)
    const kb = (b: number) => `${(b / per / 1024).toFixed(0).padStart(7)} KiB`
    console.log(`allocated, sampled: ${kb(total).trim()} per ${perName}, by site:`)
    for (const [key, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(bytes)}  ${key}`)
  }
}
