/** History databases: runs per build and their trends. */
/** What a history database follows per build (docs/history.md). */
export const HISTORY_METRICS = ['peak', 'end', 'evictions', 'hazards'] as const

export type HistoryMetric = (typeof HISTORY_METRICS)[number]

/** The groupings a byte metric can be split by; evictions and hazards are counted per run. */
export const HISTORY_GROUPS = ['heap', 'placement', 'tag'] as const

export type HistoryGroup = (typeof HISTORY_GROUPS)[number]

/** A history database the engine holds open, read-only. */
export interface HistoryInfo {
  historyId: string
  name: string
  runs: number
  builds: number
  /** The labels runs were added with (`--label K=V`), each key with its values, for narrowing the trends. */
  labels: { key: string; values: string[] }[]
}

export interface HistoryTrendQuery {
  historyId: string
  metric: HistoryMetric
  by?: HistoryGroup
  /** Only runs carrying all these labels. */
  labels?: Record<string, string>
}

export interface HistoryBuild {
  build: string
  runs: number
  /** The build's latest run: the one opened for it. */
  runId: number
}

/** A metric per build, builds in the order their first run was added. */
export interface HistoryTrend {
  metric: HistoryMetric
  by: HistoryGroup | null
  builds: HistoryBuild[]
  /** One line per heap, placement or tag (`all` without a grouping), null where a build has no value. */
  series: { name: string; values: (number | null)[] }[]
}
