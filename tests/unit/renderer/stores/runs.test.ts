import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { AppInfo, LoadOutcome, LoadProgress, RecordRequest, RecordStatus, RunSummary, SeriesQuery } from '../../../../src/shared/ipc'
import { SERIES } from '../../../../src/shared/ipc'
import { setApi } from '../../../../src/renderer/src/api'
import { UPLOAD_CHUNK_BYTES, useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useUiStore } from '../../../../src/renderer/src/stores/ui'
import { FakeApiBase } from '../fakeApi'
import { host as appHost, opened, settle, useAppHost } from './appHost'

function summary(runId: string, frames: number, extra: Partial<RunSummary> = {}): RunSummary {
  return {
    runId,
    file: `${runId}.hscap`,
    format: 'heapscope-capture',
    api: 'd3d12',
    backend: 'd3d12',
    capabilities: { whatIf: true, residency: true, transients: true },
    frames,
    firstFrame: 0,
    lastFrame: frames - 1,
    records: frames * 10,
    sourceBytes: 1000,
    partial: false,
    warnings: {},
    warningSamples: [],
    notes: [],
    series: [],
    ...extra,
  }
}

/** A host that answers from scripted outcomes and records what it was asked. */
class FakeHost extends FakeApiBase {
  calls: string[] = []
  closed: string[] = []
  chunks: number[] = []
  outcomes: LoadOutcome[] = []
  progressListeners = new Set<(p: LoadProgress) => void>()
  info: AppInfo = {
    host: 'browser',
    version: 'test',
    nativeDialogs: false,
    captures: [{ fileId: 'demo', name: 'demo.hscap.gz', origin: 'demo' }],
    openAtStart: 'demo',
    formats: [],
  }
  override appInfo = async () => this.info
  override openCapture = async (request: { fileId: string; loadId: string }) => {
    this.calls.push(`open ${request.fileId}`)
    for (const l of this.progressListeners) {
      l({ loadId: request.loadId, phase: 'reading', bytesRead: 50, totalBytes: 100, records: 5, warnings: 0 })
    }
    return this.outcomes.shift()!
  }
  override openCaptureDialog = async () => null
  override beginUpload = async (begin: { name: string; bytes: number }) => {
    this.calls.push(`upload ${begin.name} ${begin.bytes}`)
  }
  override uploadChunk = async (chunk: { data: Uint8Array }) => {
    this.chunks.push(chunk.data.byteLength)
    return true
  }
  override endUpload = async () => this.outcomes.shift()!
  override cancelLoad = async () => undefined
  override closeRun = async (runId: string) => {
    this.closed.push(runId)
  }
  override series = async (query: SeriesQuery) => {
    const n = Math.min(query.to - query.from, query.resolution)
    const ramp = Float64Array.from({ length: n }, (_, i) => i * 100)
    return {
      runId: query.runId,
      start: Float64Array.from({ length: n }, (_, i) => i),
      frame: Float64Array.from({ length: n }, (_, i) => i),
      width: 1,
      series: {
        [SERIES.liveRequested]: { min: ramp, max: ramp, mean: ramp },
        [SERIES.liveCount]: { min: ramp, max: ramp, mean: ramp },
      },
    }
  }
  override onProgress = (listener: (p: LoadProgress) => void) => {
    this.progressListeners.add(listener)
    return () => {
      this.progressListeners.delete(listener)
    }
  }
  recordingListeners = new Set<(s: RecordStatus) => void>()
  override onRecording = (listener: (s: RecordStatus) => void) => {
    this.recordingListeners.add(listener)
    return () => {
      this.recordingListeners.delete(listener)
    }
  }
  override followCapture = async (request: { fileId: string; loadId: string }) => {
    this.calls.push(`follow ${request.fileId} ${request.loadId}`)
    return this.outcomes.shift()!
  }
  override startRecording = async (request: RecordRequest) => {
    this.calls.push(`record ${request.program} ${request.args.join(' ')} ${request.loadId}`)
    for (const l of this.recordingListeners) l({ loadId: request.loadId, program: request.program, output: '/tmp/vkcube.hscap', state: 'running', pid: 42 })
    return this.outcomes.shift()!
  }
  override stopRecording = async (loadId: string) => {
    this.calls.push(`stop recording ${loadId}`)
  }
  override stopFollowing = async (loadId: string) => {
    this.calls.push(`stop following ${loadId}`)
  }
  push(progress: LoadProgress): void {
    for (const l of this.progressListeners) l(progress)
  }
}

describe('runs store', () => {
  let host: FakeHost
  beforeEach(() => {
    setActivePinia(createPinia())
    host = new FakeHost()
    setApi(host)
  })

  it('opens the capture the host offers at start', async () => {
    host.outcomes.push({ ok: true, summary: summary('run-1', 300) })
    const runs = useRunsStore()
    await runs.init()
    expect(host.calls).toEqual(['open demo'])
    expect(runs.current?.frames).toBe(300)
    expect(runs.loading).toBeNull()
  })

  it('keeps the capture on screen when the next one fails, and offers the partial run', async () => {
    host.outcomes.push({ ok: true, summary: summary('run-1', 300) })
    const runs = useRunsStore()
    await runs.init()
    const error = { file: 'bad.hscap', message: 'bad.hscap: line 5, byte offset 150: expected a quoted key', line: 5, byteOffset: 150, expected: 'a quoted key' }
    host.outcomes.push({ ok: true, summary: summary('run-2', 1, { partial: true }), error })
    await runs.open('demo')
    expect(runs.current?.runId).toBe('run-1')
    expect(runs.error?.line).toBe(5)
    expect(runs.partial?.runId).toBe('run-2')
    await runs.dismissError()
    expect(host.closed).toEqual(['run-2'])
    expect(runs.error).toBeNull()
    expect(runs.current?.runId).toBe('run-1')
  })

  it('replaces the run on screen and closes the previous one in the engine', async () => {
    host.outcomes.push({ ok: true, summary: summary('run-1', 300) }, { ok: true, summary: summary('run-2', 40) })
    const runs = useRunsStore()
    await runs.init()
    await runs.open('demo')
    expect(runs.current?.runId).toBe('run-2')
    expect(host.closed).toEqual(['run-1'])
  })

  it('uploads a dropped file in chunks of at most UPLOAD_CHUNK_BYTES', async () => {
    host.info = { ...host.info, openAtStart: undefined }
    const runs = useRunsStore()
    await runs.init()
    host.outcomes.push({ ok: true, summary: summary('run-9', 10) })
    const size = UPLOAD_CHUNK_BYTES * 2 + 123
    await runs.upload(new File([new Uint8Array(size)], 'big.hscap'))
    expect(host.calls).toEqual([`upload big.hscap ${size}`])
    expect(host.chunks).toEqual([UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, 123])
    expect(runs.current?.runId).toBe('run-9')
  })

  it('follows the capture the host was asked to follow at start, and the run on screen grows with each event', async () => {
    host.info = { ...host.info, openAtStart: undefined, followAtStart: 'growing' }
    host.outcomes.push({ ok: true, summary: summary('run-3', 4, { live: true }) })
    const runs = useRunsStore()
    await runs.init()
    const loadId = runs.live!.loadId
    expect(host.calls).toEqual([`follow growing ${loadId}`])
    expect(runs.current?.frames).toBe(4)
    const following = (frames: number, live: boolean): LoadProgress => ({
      loadId,
      phase: 'following',
      bytesRead: 0,
      totalBytes: 0,
      records: 0,
      warnings: 0,
      summary: summary('run-3', frames, live ? { live: true } : {}),
    })
    host.push(following(9, true))
    expect(runs.current?.frames).toBe(9)
    // another load's event changes nothing
    host.push({ ...following(50, true), loadId: 'load-other' })
    expect(runs.current?.frames).toBe(9)
    await runs.stopLive()
    expect(host.calls.at(-1)).toBe(`stop following ${loadId}`)
    host.push(following(12, false))
    expect(runs.current?.frames).toBe(12)
    expect(runs.live?.ended).toBe(true)
    // ended: Stop has nothing more to do
    const calls = host.calls.length
    await runs.stopLive()
    expect(host.calls.length).toBe(calls)
  })

  it('a growth pushed before the answer that opens the run is not lost', async () => {
    host.info = { ...host.info, openAtStart: undefined }
    const runs = useRunsStore()
    await runs.init()
    host.followCapture = async (request) => {
      host.push({ loadId: request.loadId, phase: 'following', bytesRead: 0, totalBytes: 0, records: 0, warnings: 0, summary: summary('run-4', 30) })
      return { ok: true, summary: summary('run-4', 2, { live: true }) }
    }
    await runs.follow('growing')
    expect(runs.current?.frames).toBe(30)
    expect(runs.live?.ended).toBe(true)
  })

  it('Capture… starts the program on the host; Stop ends the program; closing its run ends it too', async () => {
    host.info = { ...host.info, openAtStart: undefined }
    const runs = useRunsStore()
    await runs.init()
    host.outcomes.push({ ok: true, summary: summary('run-5', 3, { live: true }) })
    await runs.record({ program: '/usr/bin/vkcube', args: ['--c', '400'], stacks: false })
    const loadId = runs.live!.loadId
    expect(host.calls).toEqual([`record /usr/bin/vkcube --c 400 ${loadId}`])
    expect(runs.live).toMatchObject({ name: 'vkcube', runId: 'run-5', ended: false, program: { state: 'running', pid: 42 } })
    await runs.stopLive()
    expect(host.calls.at(-1)).toBe(`stop recording ${loadId}`)
    host.calls.length = 0
    await runs.closeAll()
    expect(host.calls).toEqual([`stop recording ${loadId}`])
    expect(host.closed).toEqual(['run-5'])
    expect(runs.live).toBeNull()
  })
})

/** The runs store against the app's fake host: two runs, closing, the engine stopping, a second capture, export. */
describe('runs store on the app host', () => {
  useAppHost()

  describe('runs store', () => {
    it('swaps A and B, and closes both when leaving', async () => {
      const { runs } = await opened()
      await runs.rerun({ 'bufferPool.size': '8MiB' })
      runs.swap()
      expect([runs.current?.runId, runs.other?.runId]).toEqual(['run-B', 'run-1'])
      await runs.closeAll()
      expect(appHost.closed).toEqual(['run-B', 'run-1'])
      await settle()
      expect(useUiStore().view).toBe('start')
    })

    it('forgets its runs when the engine stops, and offers to open the file again', async () => {
      const runs = useRunsStore()
      let stopped!: (info: { message: string; reopen?: string }) => void
      appHost.onEngineStopped = (listener) => {
        stopped = listener
        return () => undefined
      }
      await runs.init()
      stopped({ message: 'worker exited', reopen: 'demo' })
      expect(runs.current).toBeNull()
      expect(runs.engineStopped?.reopen).toBe('demo')
      await runs.reopenAfterStop()
      expect(appHost.calls).toEqual(['open demo', 'open demo'])
      expect(runs.current?.runId).toBe('run-1')
    })
  })

  describe('a second capture, and export', () => {
    it('uploads a file picked for comparison as run B and shows the compare view', async () => {
      const { runs } = await opened()
      const got: number[] = []
      appHost.beginUpload = async () => undefined
      appHost.uploadChunk = async (chunk) => {
        got.push(chunk.data.byteLength)
        return true
      }
      appHost.endUpload = async () => ({ ok: true, summary: (await import('../fakeHost')).summary('run-9') })
      expect(await runs.upload(new File([new Uint8Array(10)], 'other.hscap'), 'B')).toBe(true)
      await settle()
      expect(got).toEqual([10])
      expect([runs.current?.runId, runs.other?.runId]).toEqual(['run-1', 'run-9'])
      expect(useUiStore().view).toBe('compare')
    })

    it('exports run A, the A/B range of it when one is set', async () => {
      const { runs, timeline } = await opened()
      const asked: unknown[] = []
      appHost.exportCapture = async (request) => {
        asked.push(request)
        return { kind: 'cancelled' }
      }
      await timeline.setRange(10, 20)
      // the range's last frame included: frames [10, 21)
      await runs.exportCapture({ from: timeline.range!.a, to: timeline.range!.b + 1 })
      expect(asked).toEqual([{ runId: 'run-1', from: 10, to: 21, gzip: true }])
    })
  })
})
