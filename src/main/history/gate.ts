/**
 * The growth gate of `heapscope history trend --fail-on-growth P --window N`: the newest build's value of each line
 * against the median of the N builds before it (those that have a value). A line grows past the gate when it is
 * more than P% above that median, or above a median of zero.
 */
import type { Trend } from './db'

export interface GateLine {
  name: string
  value: number
  median: number
  /** Percent over the median; Infinity over a median of zero. */
  growthPercent: number
  /** Bytes (or counts) over the median. */
  growth: number
}

export interface GateResult {
  build: string
  /** Builds the median was taken over. */
  window: string[]
  /** Lines past the gate, the largest growth first. */
  grew: GateLine[]
  lines: GateLine[]
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function growthPercent(value: number, base: number): number {
  if (base === 0) return value === 0 ? 0 : value > 0 ? Infinity : -Infinity
  return ((value - base) / base) * 100
}

/** Null when there are fewer than two builds: nothing to compare the newest with. */
export function growthGate(trend: Trend, percent: number, window: number): GateResult | null {
  const n = trend.builds.length
  if (n < 2) return null
  const newest = n - 1
  const from = Math.max(0, newest - window)
  const lines: GateLine[] = []
  for (const line of trend.series) {
    const value = line.values[newest]
    if (value === null) continue
    const before = line.values.slice(from, newest).filter((v): v is number => v !== null)
    // a line new in this build grew from nothing
    const base = before.length ? median(before) : 0
    lines.push({ name: line.name, value, median: base, growthPercent: growthPercent(value, base), growth: value - base })
  }
  const grew = lines.filter((l) => l.growthPercent > percent).sort((a, b) => b.growth - a.growth)
  return { build: trend.builds[newest].build, window: trend.builds.slice(from, newest).map((b) => b.build), grew, lines }
}
