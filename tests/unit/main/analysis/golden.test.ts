/**
 * Golden outputs: `report --json` byte for byte, and digests of `route`, of every per-frame series, of the graph
 * and residency event tables, and of snapshots at a few frames, for the demo and three generated captures. They
 * were taken before the replay was made fast; the fast replay must give the same bytes. Two generated Vulkan
 * captures (`vulkan`, `vulkan-hazards`) pin the Vulkan replay the same way: the report, every series, the checks'
 * list and the model's warnings, and snapshots. The captures are kept under __golden__ (not generated at test
 * time) so a change of the generator does not move them.
 *
 * `HEAPSCOPE_UPDATE_GOLDEN=1 npx vitest run --project main tests/unit/main/analysis/golden` rewrites the files:
 * only when an output is meant to change, saying why in the commit.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Replay } from '../../../../src/main/analysis/d3d12/replay'
import { buildRunReport } from '../../../../src/main/analysis/d3d12/report'
import { Snapshots } from '../../../../src/main/analysis/d3d12/snapshot'
import { vulkanConfigOf, VulkanReplay } from '../../../../src/main/analysis/vulkan/replay'
import { buildVulkanRunReport } from '../../../../src/main/analysis/vulkan/report'
import { VulkanSnapshots } from '../../../../src/main/analysis/vulkan/snapshot'
import { runRoute } from '../../../../src/main/cli/route'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { recordsOf } from '../../../../src/main/ingest/records'
import { parseConfigPairs, resolveConfig } from '../../../../src/shared/model'

const DIR = join(__dirname, '__golden__')
const UPDATE = process.env.HEAPSCOPE_UPDATE_GOLDEN === '1'

interface Case {
  name: string
  file: string
  config: string[]
  /** Frame indices to take snapshots at. */
  frames: number[]
}

const CASES: Case[] = [
  { name: 'demo', file: 'demo.hscap.gz', config: [], frames: [0, 45, 150, 299] },
  { name: 'deferred', file: 'deferred-60.hscap.gz', config: [], frames: [0, 9, 33, 59] },
  // Small transient heaps collected after one idle execution: many heaps created, reused, destroyed.
  {
    name: 'deferred-small-heaps',
    file: 'deferred-60.hscap.gz',
    config: ['transient.minimumHeapSize=4194304', 'transient.gcLatency=1'],
    frames: [3, 40],
  },
  { name: 'raytracing', file: 'raytracing-60.hscap.gz', config: [], frames: [1, 21, 59] },
  { name: 'streaming', file: 'streaming-150.hscap.gz', config: [], frames: [0, 47, 100, 149] },
]

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex')

/** JSON with typed arrays as plain arrays, so a digest covers their values. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v))

function columnsDigest(columns: Record<string, { data: ArrayLike<number>; length: number }>): string {
  const h = createHash('sha256')
  for (const [name, column] of Object.entries(columns)) {
    h.update(name)
    h.update(new Float64Array(Array.from({ length: column.length }, (_, i) => column.data[i])))
  }
  return h.digest('hex')
}

async function outputs(c: Case) {
  const path = join(DIR, c.file)
  const result = await loadCaptureFile(path)
  const config = resolveConfig(result.store.header.config as Record<string, number> | undefined, parseConfigPairs(c.config))
  const replay = await Replay.run(result.store, { config })
  const report = `${JSON.stringify(buildRunReport(result, replay))}\n`

  // `route` reads with the header optional and writes one line per placement.
  const routed = await loadCaptureFile(path, { headerOptional: true })
  const lines: string[] = []
  await runRoute(
    recordsOf(routed.store),
    { config, header: routed.store.header, gpuRecords: routed.store.hasGpuRecords },
    (line) => lines.push(line),
  )

  const series = createHash('sha256')
  for (const info of replay.series.list()) {
    series.update(`${canonical(info)}\n`)
    const column = replay.series.get(info.name)!
    series.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength))
  }
  const g = replay.graphs
  const e = replay.residencyEvents

  const snapshots: Record<string, string> = {}
  for (const frame of c.frames) {
    // A fresh Snapshots for each frame: every state is rebuilt from a checkpoint, none comes from the cache.
    const snaps = new Snapshots(replay)
    const snapshot = snaps.snapshot('run', frame)
    const page = snaps.resources({ runId: 'run', frame, sort: 'id', offset: 0, limit: 5000 })
    const largest = snaps.resources({ runId: 'run', frame, sort: 'occupied', descending: true, offset: 0, limit: 20 })
    const details = page.rows.length > 0 ? snaps.details('run', frame, page.rows[page.rows.length >> 1].id) : null
    snapshots[frame] = sha(canonical({ snapshot, page, largest, details, transients: snaps.transients(frame) }))
  }

  return {
    report,
    digests: {
      routeLines: lines.length,
      route: sha(lines.join('\n')),
      series: series.digest('hex'),
      graphs: columnsDigest({
        frame: g.frame,
        passes: g.passes,
        resources: g.resources,
        heaps: g.heaps,
        heapBytes: g.heapBytes,
        requestedBytes: g.requestedBytes,
        occupiedBytes: g.occupiedBytes,
        highWaterBytes: g.highWaterBytes,
        savingBytes: g.savingBytes,
        overlaps: g.overlaps,
        cacheHits: g.cacheHits,
        cacheMisses: g.cacheMisses,
      }),
      residencyEvents: columnsDigest({ frame: e.frame, kind: e.kind, object: e.object, bytes: e.bytes }),
      snapshots,
    },
    replay,
  }
}

/** A case's report and digests against the files kept for it (written anew under HEAPSCOPE_UPDATE_GOLDEN). */
function expectGolden(name: string, report: string, digests: object): void {
  const reportFile = join(DIR, `${name}.report.json`)
  const digestFile = join(DIR, `${name}.digests.json`)
  const text = `${JSON.stringify(digests, null, 2)}\n`
  if (UPDATE) {
    writeFileSync(reportFile, report)
    writeFileSync(digestFile, text)
  }
  expect(report).toBe(readFileSync(reportFile, 'utf8'))
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(digestFile, 'utf8')))
}

describe('golden outputs: the fast replay gives the bytes the first one gave', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const out = await outputs(c)
      expectGolden(c.name, out.report, out.digests)

      // Snapshots do not depend on where the checkpoints are: one every 500 records gives the same states.
      const dense = await Replay.run(out.replay.store, { config: out.replay.config, checkpointRecords: 500 })
      expect(dense.checkpointStats().count).toBeGreaterThan(out.replay.checkpointStats().count)
      for (const frame of c.frames) {
        const a = new Snapshots(out.replay)
        const b = new Snapshots(dense)
        expect(canonical(b.snapshot('run', frame))).toBe(canonical(a.snapshot('run', frame)))
        expect(canonical(b.transients(frame))).toBe(canonical(a.transients(frame)))
      }
    }, 120_000)
  }
})

/** Vulkan cases replay with the capture's own config. */
const VULKAN_CASES: Omit<Case, 'config'>[] = [
  { name: 'vulkan', file: 'vulkan-120.hscap.gz', frames: [0, 30, 77, 119] },
  // A misaligned bind at frame 30, a misaligned flush at 60, and an aliasing hazard at 90.
  { name: 'vulkan-hazards', file: 'vulkan-hazards-120.hscap.gz', frames: [29, 30, 90, 119] },
]

async function vulkanOutputs(c: Omit<Case, 'config'>) {
  const result = await loadCaptureFile(join(DIR, c.file))
  const config = vulkanConfigOf(result.store.header)
  const replay = await VulkanReplay.run(result.store, { config })
  const report = `${JSON.stringify(buildVulkanRunReport(result, replay))}\n`

  const series = createHash('sha256')
  for (const info of replay.series.list()) {
    series.update(`${canonical(info)}\n`)
    const column = replay.series.get(info.name)!
    series.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength))
  }

  const snapshots: Record<string, string> = {}
  for (const frame of c.frames) {
    // A fresh VulkanSnapshots for each frame: every state is rebuilt from a checkpoint, none comes from the cache.
    const snaps = new VulkanSnapshots(replay)
    const snapshot = snaps.snapshot('run', frame)
    const page = snaps.resources({ runId: 'run', frame, sort: 'id', offset: 0, limit: 5000 })
    const largest = snaps.resources({ runId: 'run', frame, sort: 'occupied', descending: true, offset: 0, limit: 20 })
    const details = page.rows.length > 0 ? snaps.details('run', frame, page.rows[page.rows.length >> 1].id) : null
    snapshots[frame] = sha(canonical({ snapshot, page, largest, details }))
  }

  const checks = replay.checks
  return {
    report,
    digests: {
      series: series.digest('hex'),
      hazards: checks.hazardCount,
      warnings: checks.warningCount,
      checks: sha(canonical({ entries: checks.entries, hazardRules: checks.hazardRules, warnings: checks.warnings })),
      diagnostics: replay.diagnostics,
      snapshots,
    },
    replay,
  }
}

describe('golden outputs: a Vulkan replay gives the bytes it gave when they were taken', () => {
  for (const c of VULKAN_CASES) {
    it(c.name, async () => {
      const out = await vulkanOutputs(c)
      expectGolden(c.name, out.report, out.digests)

      // Snapshots do not depend on where the checkpoints are: one every 500 records gives the same states.
      const dense = await VulkanReplay.run(out.replay.store, { config: out.replay.config, checkpointRecords: 500 })
      expect(dense.checkpointStats().count).toBeGreaterThan(out.replay.checkpointStats().count)
      for (const frame of c.frames) {
        const a = new VulkanSnapshots(out.replay)
        const b = new VulkanSnapshots(dense)
        expect(canonical(b.snapshot('run', frame))).toBe(canonical(a.snapshot('run', frame)))
      }
    }, 120_000)
  }
})
