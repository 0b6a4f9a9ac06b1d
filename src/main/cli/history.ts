/**
 * `heapscope history query` and `history trend` as text: a query's rows as a table; a trend's last builds as a
 * table with one column per line, then one sparkline per line over the last builds; the growth gate's verdict.
 */
import { formatBytes, formatCount } from '../../shared/units'
import type { QueryAnswer, Trend } from '../history/db'
import type { GateLine, GateResult } from '../history/gate'

const BLOCKS = '▁▂▃▄▅▆▇█'

function align(table: string[][]): string {
  if (table.length === 0) return ''
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)))
  return table.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n')
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function formatQuery(answer: QueryAnswer): string {
  const body = align([answer.columns, ...answer.rows.map((r) => r.map(cell))])
  return `${body}\n(${formatCount(answer.rows.length)} row${answer.rows.length === 1 ? '' : 's'})\n`
}

/** One character per value, from the line's least to its largest; a space where a build has none. */
export function sparkline(values: readonly (number | null)[]): string {
  const present = values.filter((v): v is number => v !== null)
  if (present.length === 0) return ''
  const lo = Math.min(...present)
  const hi = Math.max(...present)
  return values
    .map((v) => {
      if (v === null) return ' '
      const k = hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (BLOCKS.length - 1))
      return BLOCKS[k]
    })
    .join('')
}

export function formatTrend(trend: Trend, options: { last: number; chart: number }): string {
  const value = (v: number | null) => (v === null ? '–' : trend.metric === 'peak' || trend.metric === 'end' ? formatBytes(v) : formatCount(v))
  const n = trend.builds.length
  if (n === 0) return 'no runs\n'
  const from = Math.max(0, n - options.last)
  const header = ['build', 'runs', ...trend.series.map((s) => s.name)]
  const rows = trend.builds.slice(from).map((b, i) => [b.build, String(b.runs), ...trend.series.map((s) => value(s.values[from + i]))])
  const title = `${trend.metric}${trend.by ? ` by ${trend.by}` : ''}, ${n} build${n === 1 ? '' : 's'}${from > 0 ? ` (the last ${n - from} shown)` : ''}`
  const chartFrom = Math.max(0, n - options.chart)
  const width = Math.max(...trend.series.map((s) => s.name.length))
  const chart = trend.series.map((s) => {
    const values = s.values.slice(chartFrom)
    const present = values.filter((v): v is number => v !== null)
    const range = present.length ? `${value(Math.min(...present))} … ${value(Math.max(...present))}` : ''
    return `${s.name.padEnd(width)}  ${sparkline(values)}  ${range}`
  })
  return `${title}\n${align([header, ...rows])}\n\nthe last ${n - chartFrom} builds, oldest first:\n${chart.join('\n')}\n`
}

export function formatGrowth(line: { growthPercent: number }): string {
  return Number.isFinite(line.growthPercent) ? `${line.growthPercent >= 0 ? '+' : ''}${line.growthPercent.toFixed(1)}%` : 'from zero'
}

/** Lines past the gate: each value against the median, in percent and in bytes (or counts). */
export function formatGateLines(lines: readonly GateLine[], metric: string): string {
  const bytes = metric === 'peak' || metric === 'end'
  const amount = (v: number) => (bytes ? formatBytes(v) : formatCount(v))
  return lines
    .map((l) => `${l.name} ${amount(l.value)} against a median of ${amount(l.median)} (${formatGrowth(l)}, ${l.growth >= 0 ? '+' : ''}${amount(l.growth)})`)
    .join('; ')
}

/** The gate's message: which lines of the newest build grew past it, by how much over the median. */
export function formatGate(gate: GateResult, metric: string, percent: number): string {
  const n = gate.window.length
  return `build ${gate.build}: ${metric} grew more than ${percent}% over the median of the ${n} build${n === 1 ? '' : 's'} before it: ${formatGateLines(gate.grew, metric)}`
}
