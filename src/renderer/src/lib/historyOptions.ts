/**
 * The History view's charts: one ECharts line per heap, placement or tag (or the run total), builds along the
 * x axis in the order they came, the picked build marked. Colours are the timeline's (placements, tags); heaps
 * take the colours of their usual tenants.
 */
import type { EChartsOption } from 'echarts'
import type { HistoryTrend } from '../../../shared/ipc'
import { formatBytes, formatCount } from '../../../shared/units'
import { placementColor, PLACEMENT_COLORS, tagColor, type ChartTheme } from './palette'
import { byteAxis, formatAxisBytes, formatAxisCount } from './ticks'
import { tooltipElement, tooltipFrame, type TipLine } from './tooltip'

const HEAP_COLORS: Record<string, string> = {
  DEFAULT: PLACEMENT_COLORS.TextureReadOnlyPool,
  UPLOAD: PLACEMENT_COLORS.UploadSmallBlock,
  READBACK: PLACEMENT_COLORS.ReadbackPool,
}

export function lineColor(trend: Pick<HistoryTrend, 'by'>, name: string, theme: ChartTheme): string {
  if (trend.by === 'placement') return placementColor(name)
  if (trend.by === 'heap') return HEAP_COLORS[name] ?? tagColor(name)
  if (trend.by === 'tag') return tagColor(name)
  return theme.runA
}

export const isBytes = (trend: Pick<HistoryTrend, 'metric'>) => trend.metric === 'peak' || trend.metric === 'end'

interface TipParam {
  dataIndex: number
  seriesName: string
  value: number | null
  color: string
}

/** The build under the pointer: each line's value there, the largest first (a DOM node: the CSP allows no inline styles). */
function buildTip(trend: HistoryTrend, params: TipParam[], bytes: boolean, total: string): HTMLElement {
  const build = trend.builds[params[0]?.dataIndex ?? 0]
  const rows: TipLine[] = params
    .filter((p) => typeof p.value === 'number')
    .sort((a, b) => (b.value as number) - (a.value as number))
    .map((p) => ({
      label: trend.by ? p.seriesName : total,
      value: bytes ? formatBytes(p.value as number) : formatCount(p.value as number),
      color: p.color,
    }))
  return tooltipElement(build?.build ?? '', rows)
}

/** `total`: what the run total's line is called in the tooltip, in the page's language. */
export function historyOption(trend: HistoryTrend, theme: ChartTheme, selected: number | null, total = 'all'): EChartsOption {
  const bytes = isBytes(trend)
  const many = trend.builds.length > 60
  let top = 0
  for (const line of trend.series) for (const v of line.values) if (v !== null && v > top) top = v
  // bytes step in round binary sizes, as the timeline's lanes do
  const axis = bytes ? byteAxis(top, 5) : null
  return {
    animation: false,
    backgroundColor: 'transparent',
    grid: { left: 72, right: 18, top: trend.by ? 34 : 14, bottom: 28 },
    legend: trend.by
      ? { type: 'scroll', top: 2, left: 8, right: 8, textStyle: { color: theme.text, fontSize: 11 }, itemWidth: 14, itemHeight: 8 }
      : undefined,
    tooltip: {
      ...tooltipFrame(theme),
      formatter: ((params: TipParam[]) => buildTip(trend, params, bytes, total)) as never,
    },
    xAxis: {
      type: 'category',
      data: trend.builds.map((b) => b.build),
      boundaryGap: false,
      axisLine: { lineStyle: { color: theme.axis } },
      axisLabel: { color: theme.muted, fontSize: 11, hideOverlap: true },
      axisTick: { show: false },
    },
    yAxis: {
      type: 'value',
      min: 0,
      ...(axis ? { max: axis.max, interval: axis.interval } : {}),
      axisLabel: { color: theme.muted, fontSize: 11, formatter: (v: number) => (bytes ? formatAxisBytes(v) : formatAxisCount(v)) },
      splitLine: { lineStyle: { color: theme.grid } },
    },
    series: trend.series.map((line, i) => ({
      id: line.name,
      name: line.name,
      type: 'line',
      data: line.values,
      showSymbol: !many,
      symbolSize: 5,
      connectNulls: false,
      lineStyle: { width: 1.6 },
      color: lineColor(trend, line.name, theme),
      emphasis: { focus: 'series' },
      markLine:
        i === 0 && selected !== null && selected < trend.builds.length
          ? {
              silent: true,
              symbol: 'none',
              label: { show: false },
              lineStyle: { color: theme.cursor, type: 'dashed', width: 1 },
              data: [{ xAxis: selected }],
            }
          : undefined,
    })),
  }
}
