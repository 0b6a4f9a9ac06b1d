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
