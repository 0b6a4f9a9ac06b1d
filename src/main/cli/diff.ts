/**
 * `heapscope diff`: two runs' figures side by side with their deltas, and the resources alive at the end of each
 * that are only in A, only in B, or in both with another placement or size (matched by name, then by desc).
 */
import type { ResourceDiffEntry, RunReport } from '../../shared/ipc'
import { formatBytes, formatCount } from '../../shared/units'
import { resourceDiff, type ComparedRun } from '../analysis/compare'

/** Every numeric figure of a report, by its dotted path. */
export function figures(report: RunReport): Record<string, number> {
  const out: Record<string, number> = {}
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'number') out[path] = value
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k)
    }
  }
  const { file: _file, format: _format, api: _api, warnings: _warnings, ...rest } = report
  walk(rest, '')
  return out
}

export interface DiffResult {
  a: RunReport
  b: RunReport
  /** What each column is: its file, and the config overrides it was replayed with (none: "capture's config"). */
  labels: { a: string; b: string }
  /** B − A for every figure either report has. */
  delta: Record<string, number>
  /** Growth of the peak heap bytes, in percent of A's (Infinity when A's is 0 and B's is not). */
  peakGrowthPercent: number
  resources: {
    counts: { onlyA: number; onlyB: number; changed: number; same: number }
    onlyA: DiffRow[]
    onlyB: DiffRow[]
    changed: DiffRow[]
  }
}

export interface DiffRow {
  name: string
  match: 'name' | 'desc' | null
  a: { id: number; placement: string; heap: string; size: number } | null
  b: { id: number; placement: string; heap: string; size: number } | null
  changes: string[]
}

function row(entry: ResourceDiffEntry): DiffRow {
  const side = (r: ResourceDiffEntry['a']) =>
    r ? { id: r.id, placement: r.placement, heap: r.heap, size: r.occupied } : null
  return { name: entry.name, match: entry.match, a: side(entry.a), b: side(entry.b), changes: entry.changes }
}

/** A run's column name: its file, and its overrides (`--config`, `--config-a` or `--config-b` pairs) when it has some. */
export function runLabel(file: string, pairs: readonly string[]): string {
  return pairs.length ? `${file} (${pairs.join(', ')})` : `${file} (capture's config)`
}

export function buildDiff(
  a: { replay: ComparedRun; report: RunReport },
  b: { replay: ComparedRun; report: RunReport },
  labels: DiffResult['labels'] = { a: a.report.file, b: b.report.file },
): DiffResult {
  const fa = figures(a.report)
  const fb = figures(b.report)
  const delta: Record<string, number> = {}
  for (const key of new Set([...Object.keys(fa), ...Object.keys(fb)])) delta[key] = (fb[key] ?? 0) - (fa[key] ?? 0)
  const peakA = a.report.peak.bytes
  const peakB = b.report.peak.bytes
  const peakGrowthPercent = peakA === 0 ? (peakB === 0 ? 0 : Infinity) : ((peakB - peakA) / peakA) * 100
  const diff = resourceDiff(a.replay, b.replay, { runA: 'a', runB: 'b', offset: 0, limit: Number.MAX_SAFE_INTEGER })
  const pick = (status: ResourceDiffEntry['status']) => diff.entries.filter((e) => e.status === status).map(row)
  return {
    a: a.report,
    b: b.report,
    labels,
    delta,
    peakGrowthPercent,
    resources: { counts: diff.counts, onlyA: pick('onlyA'), onlyB: pick('onlyB'), changed: pick('changed') },
  }
}

const BYTE_FIGURE = /bytes$|Bytes$/i

function formatFigure(key: string, value: number): string {
  if (key.endsWith('HitRate')) return `${(value * 100).toFixed(1)}%`
  return BYTE_FIGURE.test(key) ? formatBytes(value) : formatCount(value)
}

function signed(key: string, value: number): string {
  if (value === 0) return '0'
  return (value > 0 ? '+' : '') + formatFigure(key, value)
}

/** Readable tables: the figures that differ (all with `all`), then the resource diff, at most `limit` rows each. */
export function formatDiff(diff: DiffResult, limit = 20): string {
  const fa = figures(diff.a)
  const fb = figures(diff.b)
  const rows = Object.keys(diff.delta)
    .filter((k) => diff.delta[k] !== 0 || k === 'peak.bytes')
    // a figure one report lacks (an observed trace has no model's placements, transients or alignment waste): '—'
    .map((k) => [k, k in fa ? formatFigure(k, fa[k]) : '—', k in fb ? formatFigure(k, fb[k]) : '—', signed(k, diff.delta[k])])
  const header = ['figure', `A: ${diff.labels.a}`, `B: ${diff.labels.b}`, 'B − A']
  const table = [header, ...rows]
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c].length)))
  const lines = table.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
  const growth = Number.isFinite(diff.peakGrowthPercent) ? `${diff.peakGrowthPercent.toFixed(2)}%` : 'from zero'
  const out = [`peak heap bytes: ${formatBytes(diff.a.peak.bytes)} → ${formatBytes(diff.b.peak.bytes)} (${growth})`, '', ...lines, '']
  const c = diff.resources.counts
  out.push(`resources alive at the end: ${c.onlyA} only in A, ${c.onlyB} only in B, ${c.changed} changed, ${c.same} the same`)
  const list = (title: string, items: DiffRow[], describe: (r: DiffRow) => string) => {
    if (!items.length) return
    out.push(`${title}:`)
    for (const r of items.slice(0, limit)) out.push(`  ${describe(r)}`)
    if (items.length > limit) out.push(`  … and ${items.length - limit} more (--json lists them all)`)
  }
  const where = (s: DiffRow['a']) => (s ? `${s.placement} ${formatBytes(s.size)}` : '')
  list('only in A', diff.resources.onlyA, (r) => `${r.name || `#${r.a?.id}`}  ${where(r.a)}`)
  list('only in B', diff.resources.onlyB, (r) => `${r.name || `#${r.b?.id}`}  ${where(r.b)}`)
  list('changed', diff.resources.changed, (r) => `${r.name || `#${r.a?.id}`}  ${where(r.a)} → ${where(r.b)} (${r.changes.join(', ')})`)
  return `${out.join('\n')}\n`
}
