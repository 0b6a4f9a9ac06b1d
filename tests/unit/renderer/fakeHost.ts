/**
 * A host with a small, hand-checkable run behind it: per-frame series from simple formulas, a table of live
 * resources, pools, residency events, one graph execution, reports, config, diff, leaks and playback. It records
 * what it was asked, so tests can check the renderer asks for what it shows and no more.
 */
import type {
  CaptureEntry,
  SnapshotQuery,
  PlacementsAnswer,
  AppInfo,
  CompareSeriesQuery,
  ConfigEntry,
  LeakQuery,
  LoadOutcome,
  LoadProgress,
  MenuCommand,
  PlaybackFrame,
  PlaybackRequest,
  ResidencyEventsQuery,
  ResourceDiffQuery,
  ResourceQuery,
  ResourceRow,
  RunReport,
  RunSummary,
  SeriesAnswer,
  SeriesInfo,
  SeriesQuery,
  Settings,
  Snapshot,
  TransientExecution,
} from '../../../src/shared/ipc'
import { MiB } from '../../../src/shared/units'
import { FakeApiBase } from './fakeApi'

/**
 * The series of the fake run, per frame index f:
 * - DEFAULT: TextureReadOnlyPool 64 MiB, SharedBufferPool 32 MiB, and a heap total of 100 MiB + f KiB, so the
 *   Committed layer the lanes derive is 100 MiB + f KiB − 96 MiB = 4 MiB + f KiB;
 * - DEFAULT requested 80 MiB (waste = heap − requested = 20 MiB + f KiB);
 * - UPLOAD: UploadBigBlock 32 MiB = the heap; READBACK empty;
 * - residency: resident 90 MiB, budget 128 MiB, over budget on frames 40 to 49;
 * - transients: heap 16 MiB, requests 48 MiB;
 * - total.heapBytes: 132 MiB + f KiB, with a spike of 1 GiB at frame 70 (the peak).
 */
export function seriesValue(name: string, f: number): number {
  const KiB = 1024
  switch (name) {
    case 'placement.TextureReadOnlyPool.heapBytes':
    case 'placement.TextureReadOnlyPool.occupiedBytes':
      return 64 * MiB
    case 'placement.TextureReadOnlyPool.requestedBytes':
      return 60 * MiB
    case 'placement.SharedBufferPool.heapBytes':
    case 'placement.SharedBufferPool.occupiedBytes':
    case 'placement.SharedBufferPool.requestedBytes':
      return 32 * MiB
    case 'placement.Committed.heapBytes':
      return 4 * MiB + f * KiB
    case 'heap.DEFAULT.heapBytes':
    case 'heap.DEFAULT.occupiedBytes':
      return 100 * MiB + f * KiB
    case 'heap.DEFAULT.requestedBytes':
      return 80 * MiB
    case 'heap.DEFAULT.poolFreeBytes':
      return 20 * MiB + f * KiB
    case 'placement.UploadBigBlock.heapBytes':
    case 'heap.UPLOAD.heapBytes':
    case 'heap.UPLOAD.occupiedBytes':
    case 'heap.UPLOAD.requestedBytes':
      return 32 * MiB
    case 'residency.residentBytes':
      return 90 * MiB
    case 'residency.budgetBytes':
      return 128 * MiB
    case 'residency.overBudget':
      return f >= 40 && f < 50 ? 1 : 0
    case 'transient.heapBytes':
      return 16 * MiB
    case 'transient.requestedBytes':
      return 48 * MiB
    case 'transient.savingBytes':
      return 32 * MiB
    case 'total.heapBytes':
      return f === 70 ? 1024 * MiB : 132 * MiB + f * KiB
    case 'resources.live':
      return 10 + f
    default:
      return 0
  }
}

const SERIES_NAMES = [
  'placement.TextureReadOnlyPool.heapBytes',
  'placement.TextureReadOnlyPool.occupiedBytes',
  'placement.TextureReadOnlyPool.requestedBytes',
  'placement.SharedBufferPool.heapBytes',
  'placement.SharedBufferPool.occupiedBytes',
  'placement.SharedBufferPool.requestedBytes',
  'placement.Committed.heapBytes',
  'placement.UploadBigBlock.heapBytes',
  'heap.DEFAULT.heapBytes',
  'heap.DEFAULT.occupiedBytes',
  'heap.DEFAULT.requestedBytes',
  'heap.DEFAULT.alignmentWasteBytes',
  'heap.DEFAULT.poolFreeBytes',
  'heap.DEFAULT.pendingFreeBytes',
  'heap.UPLOAD.heapBytes',
  'heap.UPLOAD.occupiedBytes',
  'heap.UPLOAD.requestedBytes',
  'heap.READBACK.heapBytes',
  'residency.residentBytes',
  'residency.budgetBytes',
  'residency.overBudget',
  'transient.heapBytes',
  'transient.requestedBytes',
  'transient.savingBytes',
  'total.heapBytes',
  'total.requestedBytes',
  'resources.live',
]

export function summary(runId: string, frames = 100, extra: Partial<RunSummary> = {}): RunSummary {
  return {
    runId,
    file: `${runId}.hscap`,
    format: 'heapscope-capture',
    api: 'd3d12',
    backend: 'd3d12',
    capabilities: { whatIf: true, residency: true, transients: true },
    frames,
    firstFrame: 1,
    lastFrame: frames,
    records: frames * 10,
    sourceBytes: 1000,
    partial: false,
    warnings: {},
    warningSamples: [],
    notes: [],
    series: SERIES_NAMES.map((name): SeriesInfo => ({ name, label: name, unit: 'bytes', group: name.split('.')[0] })),
    ...extra,
  }
}

/** Live resource i (0-based) of the fake table: id 1000 + i, 1 MiB × (i mod 7 + 1). */
export function row(i: number, frame = 0): ResourceRow {
  const occupied = ((i % 7) + 1) * MiB
  return {
    id: 1000 + i,
    name: `Res_${i}`,
    tag: i % 2 ? 'Textures' : 'Meshes',
    kind: i % 2 ? 'texture' : 'buffer',
    placement: i % 3 ? 'TextureReadOnlyPool' : 'Committed',
    heap: 'DEFAULT',
    pool: i % 3 ? 'DEFAULT/ReadOnly/0' : null,
    offset: i * MiB,
    occupied,
    requested: occupied - 256,
    waste: 256,
    created: 1,
    age: frame,
    estimated: false,
  }
}

export function report(extra: Partial<RunReport> = {}): RunReport {
  return {
    file: 'a.hscap',
    format: 'heapscope-capture',
    api: 'd3d12',
    frames: 100,
    records: 1000,
    partial: false,
    warnings: {},
    resources: { created: 50, released: 10, named: 50, liveAtEnd: 40 },
    peak: { frame: 70, bytes: 1024 * MiB },
    heaps: {
      DEFAULT: { peakBytes: 200 * MiB, endBytes: 199 * MiB },
      UPLOAD: { peakBytes: 32 * MiB, endBytes: 32 * MiB },
      READBACK: { peakBytes: 0, endBytes: 0 },
    },
    byPlacement: { TextureReadOnlyPool: { peakBytes: 64 * MiB, endBytes: 64 * MiB, count: 20 } },
    waste: { alignmentBytes: 1 * MiB, poolFreeBytes: 20 * MiB, pendingFreeBytes: 0 },
    residency: { budgetBytes: 128 * MiB, evictions: 3, evictedBytes: 30 * MiB, makeResident: 5, overBudgetFrames: 10 },
    transient: { graphs: 100, heaps: 1, aliasingSavingsBytes: 3200 * MiB, aliasingSavingsPeakBytes: 32 * MiB, aliasingSavingsPeakFrame: 7, placedCacheHitRate: 0.75 },
    ...extra,
  }
}

export function execution(): TransientExecution {
  // three resources on heap 7: A [0, 4 MiB) passes 0–2, B [2, 6 MiB) passes 3–5 (shares 2 MiB with A),
  // C [8, 10 MiB) passes 0–5 (shares nothing)
  return {
    execution: 1,
    name: 'SceneRenderer',
    passes: 6,
    heaps: { id: Float64Array.of(7), size: Float64Array.of(16 * MiB), highWater: Float64Array.of(10 * MiB) },
    resources: {
      id: Float64Array.of(1, 2, 3),
      heap: Float64Array.of(7, 7, 7),
      offset: Float64Array.of(0, 2 * MiB, 8 * MiB),
      size: Float64Array.of(4 * MiB, 4 * MiB, 2 * MiB),
      first: Int32Array.of(0, 3, 0),
      last: Int32Array.of(2, 5, 5),
      texture: Uint8Array.of(1, 1, 0),
      cacheHit: Uint8Array.of(1, 0, 1),
      name: ['GBufferA', 'Bloom', 'Counters'],
    },
    overlaps: Int32Array.of(0, 1),
    requestedBytes: 10 * MiB,
    highWaterBytes: 10 * MiB,
    savingBytes: 0,
    cacheHits: 2,
    cacheMisses: 1,
  }
}

/**
 * A frame of one application heap, as the engine lays out an access-inactive hazard: heap 50 "Aliased" of 256 KiB;
 * A (51, texture) [0, 128 KiB) and B (52, buffer) [64 KiB, 192 KiB) share [64 KiB, 128 KiB); C (53) [192 KiB,
 * 256 KiB) shares nothing. Steps: 0 barrier(A), 1 write A, 2 barrier(B, before A), 3 write B, 4 read A (the
 * hazard), 5 submit; B released before the submit. A active [0, 2), B active [2, 5).
 */
export function placementsAnswer(runId: string, frame: number): PlacementsAnswer {
  const KiB = 1024
  return {
    runId,
    frame,
    aliasing: 'simple',
    steps: 6,
    stepKind: Uint8Array.of(0, 1, 0, 1, 1, 2),
    heaps: [
      {
        id: 50,
        name: 'Aliased',
        size: 256 * KiB,
        type: 'default',
        from: 0,
        to: 6,
        resources: {
          id: Float64Array.of(51, 52, 53),
          offset: Float64Array.of(0, 64 * KiB, 192 * KiB),
          size: Float64Array.of(128 * KiB, 128 * KiB, 64 * KiB),
          from: Int32Array.of(0, 0, 0),
          to: Int32Array.of(6, 5, 6),
          texture: Uint8Array.of(1, 0, 0),
          target: Uint8Array.of(0, 0, 0),
          name: ['A', 'B', 'C'],
        },
        active: Int32Array.of(0, 0, 2, 1, 2, 5),
        overlaps: Int32Array.of(0, 1),
      },
    ],
    accesses: { heap: Int32Array.of(0, 0, 0), resource: Int32Array.of(0, 1, 0), step: Int32Array.of(1, 3, 4), op: Uint8Array.of(1, 1, 0) },
    barriers: { step: Int32Array.of(0, 2), afterHeap: Int32Array.of(0, 0), after: Int32Array.of(0, 1), beforeHeap: Int32Array.of(-1, 0), before: Int32Array.of(-1, 0) },
    hazards: [
      {
        rule: 'access-inactive',
        resources: [51, 52],
        heapIndex: 0,
        indices: [0, 1],
        heap: 50,
        range: [64 * KiB, 128 * KiB],
        step: 4,
        message: 'texture 51 read while inactive: 52 was activated on the same bytes at frame 46',
      },
    ],
    truncated: false,
  }
}

export class FakeHost extends FakeApiBase {
  calls: string[] = []
  seriesQueries: SeriesQuery[] = []
  resourceQueries: ResourceQuery[] = []
  outcomes: LoadOutcome[] = []
  closed: string[] = []
  acked: [string, number][] = []
  stopped: string[] = []
  playbacks: PlaybackRequest[] = []
  rows = 450
  saved: Partial<Settings>[] = []
  progressListeners = new Set<(p: LoadProgress) => void>()
  playbackListeners = new Set<(f: PlaybackFrame) => void>()
  menuListeners = new Set<(c: MenuCommand, arg?: string) => void>()
  /** Answers wait for this before resolving, when set (tests of requests in flight). */
  gate: Promise<void> | null = null
  info: AppInfo = {
    host: 'browser',
    version: 'test',
    nativeDialogs: false,
    captures: [{ fileId: 'demo', name: 'demo.hscap.gz', origin: 'demo', description: 'the demo' }],
    openAtStart: 'demo',
    formats: [{ name: 'HeapScope capture', description: 'NDJSON' }],
  }
  settingsValue: Settings = { version: 1, theme: 'dark', language: 'en', configOverrides: {} }

  private async wait(): Promise<void> {
    if (this.gate) await this.gate
  }

  override appInfo = async () => this.info
  override openCapture = async (request: { fileId: string; loadId: string }) => {
    this.calls.push(`open ${request.fileId}`)
    return this.outcomes.shift() ?? { ok: true, summary: summary('run-1') }
  }
  override closeRun = async (runId: string) => {
    this.closed.push(runId)
  }
  override recentFiles = async (): Promise<CaptureEntry[]> => []
  override series = async (query: SeriesQuery): Promise<SeriesAnswer> => {
    this.seriesQueries.push(query)
    await this.wait()
    const span = query.to - query.from
    const width = Math.max(1, Math.ceil(span / query.resolution))
    const n = Math.ceil(span / width)
    const start = Float64Array.from({ length: n }, (_, b) => query.from + b * width)
    const series: SeriesAnswer['series'] = {}
    for (const name of query.series) {
      const min = new Float64Array(n)
      const max = new Float64Array(n)
      const mean = new Float64Array(n)
      for (let b = 0; b < n; b++) {
        let lo = Infinity
        let hi = -Infinity
        let sum = 0
        const s = start[b]
        const e = Math.min(query.to, s + width)
        for (let f = s; f < e; f++) {
          const v = seriesValue(name, f)
          lo = Math.min(lo, v)
          hi = Math.max(hi, v)
          sum += v
        }
        min[b] = lo
        max[b] = hi
        mean[b] = sum / (e - s)
      }
      series[name] = { min, max, mean }
    }
    return { runId: query.runId, start, frame: Float64Array.from(start, (s) => s + 1), width, series }
  }
  override residencyEvents = async (query: ResidencyEventsQuery) => {
    this.calls.push('residencyEvents')
    // evictions at frames 10, 41 and 42 (10, 8 and 12 MiB), make-resident at 5 and 60
    return {
      runId: query.runId,
      frame: Float64Array.of(5, 10, 41, 42, 60),
      kind: Uint8Array.of(0, 1, 1, 1, 0),
      object: Float64Array.of(1, 2, 3, 4, 5),
      bytes: Float64Array.of(4 * MiB, 10 * MiB, 8 * MiB, 12 * MiB, 6 * MiB),
      truncated: false,
    }
  }
  override resources = async (query: ResourceQuery) => {
    this.resourceQueries.push(query)
    await this.wait()
    const all = Array.from({ length: this.rows }, (_, i) => row(i, query.frame))
    const filtered = all.filter((r) => !query.filter?.tag?.length || query.filter.tag.includes(r.tag))
    if (query.sort === 'occupied') filtered.sort((a, b) => (query.descending ? -1 : 1) * (a.occupied - b.occupied) || a.id - b.id)
    return {
      runId: query.runId,
      frame: query.frame,
      total: filtered.length,
      offset: query.offset,
      rows: filtered.slice(query.offset, query.offset + query.limit),
      facets: { placement: ['Committed', 'TextureReadOnlyPool'], heap: ['DEFAULT'], tag: ['Meshes', 'Textures'] },
    }
  }
  /** The snapshot queries asked, in order. */
  snapshotQueries: SnapshotQuery[] = []
  override snapshot = async (query: SnapshotQuery): Promise<Snapshot> => {
    this.snapshotQueries.push(query)
    // as the engine answers: the pools' figures, and their blocks unless they are left out
    const blocks = query.blocks !== false
    return {
      runId: query.runId,
      frame: query.frame,
      frameNumber: query.frame + 1,
      liveCount: this.rows,
      pools: [
        {
          pool: 1,
          name: 'DEFAULT/ReadOnly/0',
          placement: 'TextureReadOnlyPool',
          heap: 'DEFAULT',
          bytes: 64 * MiB,
          used: 8 * MiB,
          pending: 4 * MiB,
          free: 52 * MiB,
          spare: false,
          offset: blocks ? Float64Array.of(0, 8 * MiB, 12 * MiB) : new Float64Array(0),
          size: blocks ? Float64Array.of(8 * MiB, 4 * MiB, 52 * MiB) : new Float64Array(0),
          state: blocks ? Uint8Array.of(1, 2, 0) : new Uint8Array(0),
          id: blocks ? Float64Array.of(1001, 1002, NaN) : new Float64Array(0),
        },
      ],
      residency: { residentBytes: 90 * MiB, budgetBytes: 128 * MiB, objects: 10, residentObjects: 9 },
      graphs: 1,
      ...(blocks ? {} : { blocksLeftOut: true }),
    }
  }
  override resource = async (query: { runId: string; frame: number; id: number }) => ({
    runId: query.runId,
    frame: query.frame,
    row: row(query.id - 1000, query.frame),
    desc: { e: 'texture', id: query.id, width: 1024, height: 1024, format: 'BC7_UNORM' },
    releasedFrame: null,
    route: ['transient? no', 'size 1 MiB → TextureReadOnlyPool'],
    residency: null,
  })
  override transients = async (query: { runId: string; frame: number }) => ({ runId: query.runId, frame: query.frame, executions: [execution()] })
  override placements = async (query: { runId: string; frame: number }) => placementsAnswer(query.runId, query.frame)
  override report = async () => report()
  override runConfig = async (runId: string): Promise<ConfigEntry[]> => [
    { key: 'bufferPool.size', default: 32 * MiB, value: runId === 'run-B' ? 8 * MiB : 32 * MiB, kind: 'bytes', seed: '§3.3', help: 'DEFAULT buffer pool size' },
    { key: 'defrag.enabled', default: 1, value: 1, kind: 'bool', seed: '§8.2', help: 'defragment' },
    { key: 'resourceHeapTier', default: 2, capture: 1, value: 1, kind: 'enum', values: [1, 2], help: 'tier' },
  ]
  override rerun = async (request: { runId: string; loadId: string; config: Record<string, string | number | boolean> }) => {
    this.calls.push(`rerun ${JSON.stringify(request.config)}`)
    return { ok: true as const, summary: summary('run-B') }
  }
  override compareSeries = async (query: CompareSeriesQuery) => {
    const a = await this.series({ runId: query.runA, series: query.series, from: query.from, to: query.to, resolution: query.resolution })
    const b = await this.series({ runId: query.runB, series: query.series, from: query.from, to: query.to, resolution: query.resolution })
    const delta: Record<string, Float64Array> = {}
    // B holds 8 MiB less than A in every series
    for (const name of query.series) delta[name] = new Float64Array(a.start.length).fill(-8 * MiB)
    return { a, b, delta }
  }
  override resourceDiff = async (query: ResourceDiffQuery) => {
    this.calls.push(`diff ${query.frameA ?? 'end'} ${query.status?.join(',') ?? 'all'}`)
    const entries = [
      { status: 'onlyA' as const, match: null, name: 'Res_1', a: row(1), b: null, changes: [] },
      { status: 'changed' as const, match: 'name' as const, name: 'Res_2', a: row(2), b: { ...row(2), placement: 'Committed' }, changes: ['placement'] },
    ].filter((e) => !query.status || query.status.includes(e.status))
    return { total: entries.length, counts: { onlyA: 1, onlyB: 0, changed: 1, same: 38 }, entries }
  }
  override leaks = async (query: LeakQuery) => {
    this.calls.push(`leaks ${query.from} ${query.to}`)
    return { total: 2, totalBytes: 3 * MiB, growthBytes: 5 * MiB, rows: [row(1), row(2)], groups: [] }
  }
  override startPlayback = async (request: PlaybackRequest) => {
    this.playbacks.push(request)
  }
  override ackPlayback = async (playbackId: string, frame: number) => {
    this.acked.push([playbackId, frame])
  }
  override stopPlayback = async (playbackId: string) => {
    this.stopped.push(playbackId)
  }
  override settings = async () => this.settingsValue
  override updateSettings = async (patch: Partial<Omit<Settings, 'version'>>) => {
    this.saved.push(patch)
    this.settingsValue = { ...this.settingsValue, ...patch }
    return this.settingsValue
  }
  override onProgress = (listener: (p: LoadProgress) => void) => {
    this.progressListeners.add(listener)
    return () => void this.progressListeners.delete(listener)
  }
  override onPlayback = (listener: (f: PlaybackFrame) => void) => {
    this.playbackListeners.add(listener)
    return () => void this.playbackListeners.delete(listener)
  }
  override onMenu = (listener: (c: MenuCommand, arg?: string) => void) => {
    this.menuListeners.add(listener)
    return () => void this.menuListeners.delete(listener)
  }

  sendPlayback(frame: PlaybackFrame): void {
    for (const l of this.playbackListeners) l(frame)
  }

  sendMenu(command: MenuCommand, arg?: string): void {
    for (const l of this.menuListeners) l(command, arg)
  }
}
