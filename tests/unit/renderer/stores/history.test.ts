/**
 * The History view's store and charts against a fake host: a history opened by path asks the trends of its metric
 * (total, per heap, per placement for bytes; total alone for counts), a build's run opens from the file the host
 * hands out, "compare with previous" opens the previous build as run A and this one as B; the chart option draws
 * one line per series with the timeline's colours and a binary byte axis.
 */
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { HistoryTrend, HistoryTrendQuery, LoadOutcome, OpenRequest } from '../../../../src/shared/ipc'
import { GiB, MiB } from '../../../../src/shared/units'
import { setApi } from '../../../../src/renderer/src/api'
import { historyOption } from '../../../../src/renderer/src/lib/historyOptions'
import { PLACEMENT_COLORS, THEMES } from '../../../../src/renderer/src/lib/palette'
import { groupsOf, useHistoryStore } from '../../../../src/renderer/src/stores/history'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { FakeApiBase } from '../fakeApi'

const BUILDS = [
  { build: '100', runs: 1, runId: 1 },
  { build: '101', runs: 2, runId: 3 },
  { build: '102', runs: 1, runId: 4 },
]

class HistoryHost extends FakeApiBase {
  trendQueries: HistoryTrendQuery[] = []
  opens: OpenRequest[] = []
  closed: string[] = []
  override openHistory = async (path: string) => ({
    historyId: `h-${path.length}`,
    name: 'runs.duckdb',
    runs: 4,
    builds: 3,
    labels: [{ key: 'map', values: ['City', 'Forest'] }],
  })
  override closeHistory = async (id: string) => {
    this.closed.push(id)
  }
  override historyTrend = async (query: HistoryTrendQuery): Promise<HistoryTrend> => {
    this.trendQueries.push(query)
    const names = query.by === 'heap' ? ['DEFAULT', 'UPLOAD'] : query.by === 'placement' ? ['Committed'] : ['all']
    return { metric: query.metric, by: query.by ?? null, builds: BUILDS, series: names.map((name, i) => ({ name, values: [1 * GiB + i, 2 * GiB, null] })) }
  }
  override historyRun = async ({ runId }: { historyId: string; runId: number }) => ({ fileId: `f-${runId}`, name: `run-${runId}.hscap`, origin: 'history' as const })
  override openCapture = async (request: OpenRequest): Promise<LoadOutcome> => {
    this.opens.push(request)
    const n = this.opens.length
    return { ok: true, summary: { runId: `run-${n}`, file: `${request.fileId}.hscap` } as never }
  }
  override recentFiles = async () => []
  override closeRun = async () => undefined
}

let host: HistoryHost

beforeEach(() => {
  setActivePinia(createPinia())
  host = new HistoryHost()
  setApi(host)
})

describe('history store', () => {
  it('asks the metric’s trends: bytes in total, per heap and per placement; counts in total', async () => {
    const history = useHistoryStore()
    await history.openPath('/ci/runs.duckdb')
    expect(history.info?.builds).toBe(3)
    expect(host.trendQueries).toEqual([
      { historyId: 'h-15', metric: 'peak' },
      { historyId: 'h-15', metric: 'peak', by: 'heap' },
      { historyId: 'h-15', metric: 'peak', by: 'placement' },
    ])
    expect(history.trends.map((t) => t.by)).toEqual([null, 'heap', 'placement'])
    await history.setMetric('evictions')
    expect(host.trendQueries.at(-1)).toEqual({ historyId: 'h-15', metric: 'evictions' })
    expect(history.trends.map((t) => t.by)).toEqual([null])
    expect(groupsOf('hazards')).toEqual([null])
    // another history closes the first
    await history.openPath('/ci/other.duckdb')
    expect(host.closed).toEqual(['h-15'])
  })

  it('narrows the runs to a label: every trend asked again with it, the picked build dropped', async () => {
    const history = useHistoryStore()
    await history.openPath('/ci/runs.duckdb')
    history.select(2)
    host.trendQueries = []
    await history.setFilter('map', 'Forest')
    expect(host.trendQueries).toEqual([
      { historyId: 'h-15', metric: 'peak', labels: { map: 'Forest' } },
      { historyId: 'h-15', metric: 'peak', by: 'heap', labels: { map: 'Forest' } },
      { historyId: 'h-15', metric: 'peak', by: 'placement', labels: { map: 'Forest' } },
    ])
    expect(history.selected).toBeNull()
    host.trendQueries = []
    await history.setFilter('map', '')
    expect(host.trendQueries[0]).toEqual({ historyId: 'h-15', metric: 'peak' })
  })

  it('opens a build’s latest run, and compares a build with the previous one as B against A', async () => {
    const history = useHistoryStore()
    const runs = useRunsStore()
    await history.openPath('/ci/runs.duckdb')
    await history.openRun(1)
    expect(host.opens.map((o) => o.fileId)).toEqual(['f-3'])
    expect(runs.current?.file).toBe('f-3.hscap')
    await history.compareWithPrevious(2)
    expect(host.opens.map((o) => o.fileId)).toEqual(['f-3', 'f-3', 'f-4'])
    expect(runs.current?.file).toBe('f-3.hscap')
    expect(runs.other?.file).toBe('f-4.hscap')
    // the first build has none before it
    await history.compareWithPrevious(0)
    expect(host.opens).toHaveLength(3)
  })
})

describe('historyOption', () => {
  it('draws a line per series in the placement colours, nulls left as gaps, the byte axis in binary steps', () => {
    const trend: HistoryTrend = {
      metric: 'peak',
      by: 'placement',
      builds: BUILDS,
      series: [
        { name: 'Committed', values: [300 * MiB, 900 * MiB, null] },
        { name: 'SharedBufferPool', values: [64 * MiB, 64 * MiB, 96 * MiB] },
      ],
    }
    const option = historyOption(trend, THEMES.dark, 1) as {
      series: { name: string; color: string; data: (number | null)[]; markLine?: { data: { xAxis: number }[] } }[]
      yAxis: { max: number; interval: number }
      xAxis: { data: string[] }
    }
    expect(option.xAxis.data).toEqual(['100', '101', '102'])
    expect(option.series.map((s) => [s.name, s.color])).toEqual([
      ['Committed', PLACEMENT_COLORS.Committed],
      ['SharedBufferPool', PLACEMENT_COLORS.SharedBufferPool],
    ])
    expect(option.series[0].data).toEqual([300 * MiB, 900 * MiB, null])
    // 900 MiB over at most 5 steps: 256 MiB steps up to 1 GiB
    expect(option.yAxis).toMatchObject({ max: 1024 * MiB, interval: 256 * MiB })
    expect(option.series[0].markLine?.data).toEqual([{ xAxis: 1 }])
  })
})
