/**
 * `heapscope report`: the figures of a whole capture. This form counts what the capture holds (frames,
 * records, warnings, resources); the replay's heap figures join it as the analysis provides them.
 */
import { formatBytes, formatCount } from '../../shared/units'
import { K } from '../ingest/store'
import type { LoadResult } from '../ingest/read'
import { liveSeries } from '../analysis/series'
import { SERIES } from '../../shared/ipc'

export interface Report {
  file: string
  format: string
  frames: number
  records: number
  partial: boolean
  error?: string
  warnings: Record<string, number>
  resources: { created: number; released: number; named: number; liveAtEnd: number }
  requested: { peakFrame: number; peakBytes: number; endBytes: number }
}

export function buildReport(result: LoadResult): Report {
  const { store } = result
  let created = 0
  let released = 0
  let named = 0
  const { kind, ref } = store.records
  for (let i = 0; i < store.records.length; i++) {
    const k = kind[i]
    const r = ref[i]
    if (k === K.buffer) {
      created++
      if (store.buffers.name.data[r] !== 0) named++
    } else if (k === K.texture) {
      created++
      if (store.textures.name.data[r] !== 0) named++
    } else if (k === K.transient || k === K.placed) {
      const table = k === K.transient ? store.transients : store.placed
      const desc = table.desc.data[r]
      created++
      const nameId = table.kind.data[r] === 0 ? store.buffers.name.data[desc] : store.textures.name.data[desc]
      if (nameId !== 0) named++
      // transients are gone after their graph
      if (k === K.transient) released++
    } else if (k === K.release) released++
  }
  const series = liveSeries(store)
  const live = series.columns[SERIES.liveRequested]
  let peakFrame = 0
  for (let f = 1; f < live.length; f++) if (live[f] > live[peakFrame]) peakFrame = f
  return {
    file: store.file,
    format: result.format,
    frames: store.frames.length,
    records: store.records.length,
    partial: store.partial,
    ...(result.error ? { error: result.error.message } : {}),
    warnings: { ...store.warnings.counts } as Record<string, number>,
    resources: { created, released, named, liveAtEnd: series.columns[SERIES.liveCount].at(-1) ?? 0 },
    requested: {
      peakFrame: store.frames.length ? store.frames.n[peakFrame] : 0,
      peakBytes: live.length ? live[peakFrame] : 0,
      endBytes: live.at(-1) ?? 0,
    },
  }
}

export function formatReport(report: Report): string {
  const rows: [string, string][] = [
    ['file', report.file],
    ['format', report.format],
    ['frames', formatCount(report.frames)],
    ['records', formatCount(report.records)],
    ['partial', report.partial ? `yes (${report.error})` : 'no'],
    ['resources created', formatCount(report.resources.created)],
    ['resources released', formatCount(report.resources.released)],
    ['resources named', formatCount(report.resources.named)],
    ['resources live at end', formatCount(report.resources.liveAtEnd)],
    ['peak requested', `${formatBytes(report.requested.peakBytes)} at frame ${report.requested.peakFrame}`],
    ['requested at end', formatBytes(report.requested.endBytes)],
  ]
  const warnings = Object.entries(report.warnings)
  if (warnings.length) for (const [k, n] of warnings) rows.push([`warning ${k}`, formatCount(n)])
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n'
}
