/**
 * Per-frame series of a run, one column each, and the bucketed answer to a {frame range, resolution} query:
 * at most `resolution` buckets of min/max/mean, whatever the length of the capture.
 */
import type { SeriesAnswer, SeriesBuckets, SeriesName, SeriesQuery } from '../../shared/ipc'
import { SERIES } from '../../shared/ipc'
import { MiB } from '../../shared/units'
import { textureDesc } from '../ingest/records'
import { K, type CaptureStore } from '../ingest/store'
import {
  canBe4KAligned,
  estimateTextureSize,
  newGeometry,
  newVerdict,
  readGeometry,
  SMALL_ALIGNMENT,
} from '../model/d3d12/texture'
import { FourK } from '../model/d3d12/route'
import { IdSet } from '../ingest/idset'

export interface RunSeries {
  frames: number
  /** The capture's frame number of each frame index. */
  frameNumbers: Float64Array
  columns: Record<SeriesName, Float64Array>
}

const geometry = newGeometry()
const verdict = newVerdict()

/** Bytes a texture asks for: the driver's size, else the standard-swizzle estimate at its alignment. */
export function textureRequestedBytes(store: CaptureStore, row: number): number {
  const size = store.textures.size.data[row]
  if (!Number.isNaN(size)) return size
  readGeometry(textureDesc(store, row), geometry)
  const fourK = canBe4KAligned(geometry, verdict).verdict === FourK.Yes
  const alignment = fourK ? SMALL_ALIGNMENT : geometry.samples > 1 ? 4 * MiB : 64 * 1024
  return estimateTextureSize(geometry, alignment)
}

/** Live requested bytes and live resource count at the end of each frame, in one pass over the records. */
export function liveSeries(store: CaptureStore): RunSeries {
  const frames = store.frames.length
  const requested = new Float64Array(frames)
  const count = new Float64Array(frames)
  // id → requested bytes of live resources; ids are reused after release
  const sizes = new Map<number, number>()
  const live = new IdSet(1024)
  const { kind, ref } = store.records
  const ops = store.ops
  let bytes = 0
  let frame = 0
  let nextFrameStart = frames > 1 ? store.frames.firstRecord[1] : store.records.length
  for (let i = 0; i < store.records.length; i++) {
    while (i >= nextFrameStart) {
      requested[frame] = bytes
      count[frame] = live.size
      frame++
      nextFrameStart = frame + 1 < frames ? store.frames.firstRecord[frame + 1] : store.records.length
    }
    const k = kind[i]
    const r = ref[i]
    if (k === K.buffer || k === K.texture || k === K.placed) {
      let id: number
      let size: number
      if (k === K.buffer) {
        id = store.buffers.id.data[r]
        size = store.buffers.size.data[r]
      } else if (k === K.texture) {
        id = store.textures.id.data[r]
        size = textureRequestedBytes(store, r)
      } else {
        const desc = store.placed.desc.data[r]
        if (store.placed.kind.data[r] === 0) {
          id = store.buffers.id.data[desc]
          size = store.buffers.size.data[desc]
        } else {
          id = store.textures.id.data[desc]
          size = textureRequestedBytes(store, desc)
        }
      }
      live.add(id)
      sizes.set(id, size)
      bytes += size
    } else if (k === K.release) {
      const id = ops[r]
      if (live.delete(id)) {
        bytes -= sizes.get(id) ?? 0
        sizes.delete(id)
      }
    }
  }
  for (; frame < frames; frame++) {
    requested[frame] = bytes
    count[frame] = live.size
  }
  return {
    frames,
    frameNumbers: store.frames.n,
    columns: { [SERIES.liveRequested]: requested, [SERIES.liveCount]: count },
  }
}

/** Bucket a frame range of some series: min, max and mean per bucket, at most `resolution` buckets. */
export function querySeries(run: RunSeries, query: SeriesQuery): SeriesAnswer {
  const from = Math.max(0, Math.min(run.frames, Math.floor(query.from)))
  const to = Math.max(from, Math.min(run.frames, Math.ceil(query.to)))
  const span = to - from
  const resolution = Math.max(1, Math.min(Math.floor(query.resolution), 100_000))
  const width = Math.max(1, Math.ceil(span / resolution))
  const buckets = span === 0 ? 0 : Math.ceil(span / width)
  const start = new Float64Array(buckets)
  const frame = new Float64Array(buckets)
  for (let b = 0; b < buckets; b++) {
    start[b] = from + b * width
    frame[b] = run.frameNumbers[from + b * width]
  }
  const series: Partial<Record<SeriesName, SeriesBuckets>> = {}
  for (const name of query.series) {
    const column = run.columns[name]
    if (!column) continue
    const min = new Float64Array(buckets)
    const max = new Float64Array(buckets)
    const mean = new Float64Array(buckets)
    for (let b = 0; b < buckets; b++) {
      const s = from + b * width
      const e = Math.min(to, s + width)
      let lo = Infinity
      let hi = -Infinity
      let sum = 0
      for (let f = s; f < e; f++) {
        const v = column[f]
        if (v < lo) lo = v
        if (v > hi) hi = v
        sum += v
      }
      min[b] = lo
      max[b] = hi
      mean[b] = sum / (e - s)
    }
    series[name] = { min, max, mean }
  }
  return { runId: query.runId, start, frame, width, series }
}
