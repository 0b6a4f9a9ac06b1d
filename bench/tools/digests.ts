/**
 * Exactness digests: per capture, a hash of `report --json`'s figures, of every series, and of snapshots (the
 * snapshot and the first page of its table) at nine frames spread over the capture. A change meant to leave the
 * figures alone prints the same lines before and after. Without a file: the demo, the real Vulkan capture, the
 * golden captures and the bench's 250 000-record ones (`--big` adds those of 2 000 000; run `npm run bench` once to
 * make them). Usage: bash bench/tools/run.sh digests [--big | FILE…]
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { replayCapture } from '../../src/main/analysis/run'
import { loadCaptureFile } from '../../src/main/ingest/read'

const given = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const golden = 'tests/unit/main/analysis/__golden__'
const files =
  given.length > 0
    ? given
    : [
        'resources/demo/demo.hscap.gz',
        'tests/fixtures/real/h200-offscreen/h200-offscreen.hscap',
        `${golden}/deferred-60.hscap.gz`,
        `${golden}/raytracing-60.hscap.gz`,
        `${golden}/streaming-150.hscap.gz`,
        `${golden}/vulkan-120.hscap.gz`,
        `${golden}/vulkan-hazards-120.hscap.gz`,
        'bench/data/stress-250000.hscap',
        'bench/data/deferred-250000.hscap',
        ...(process.argv.includes('--big') ? ['bench/data/stress-2000000.hscap', 'bench/data/deferred-2000000.hscap'] : []),
      ]
const hex = (hash: ReturnType<typeof createHash>) => hash.digest('hex').slice(0, 16)
for (const file of files) {
  const path = resolve(file)
  if (!existsSync(path)) {
    console.log(`${basename(file)}: missing`)
    continue
  }
  const t0 = performance.now()
  const result = await loadCaptureFile(path)
  if (result.error) {
    console.log(`${basename(file)}: load error ${result.error.message}`)
    continue
  }
  const { replay, snapshots, report } = await replayCapture(result, [])
  const seconds = (performance.now() - t0) / 1000
  const series = createHash('sha256')
  for (const info of replay.series.list()) {
    const column = replay.series.get(info.name)
    if (!column) continue
    series.update(info.name)
    series.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength))
  }
  const frames = replay.store.frames.length
  const snaps = createHash('sha256')
  for (const k of [0, 1, 3, 7, 13, 29, 50, 71, 97]) {
    const frame = Math.min(frames - 1, Math.floor((k / 100) * frames))
    snaps.update(JSON.stringify(snapshots.snapshot('d', frame)))
    const page = snapshots.resources({ runId: 'd', frame, offset: 0, limit: 200, sort: 'occupied', descending: true })
    snaps.update(JSON.stringify(page))
  }
  const figures = createHash('sha256').update(JSON.stringify(report))
  console.log(
    `${basename(file)}: report ${hex(figures)} series ${hex(series)} snapshots ${hex(snaps)} (${seconds.toFixed(2)} s)`,
  )
}
