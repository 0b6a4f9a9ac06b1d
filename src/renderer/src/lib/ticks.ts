/**
 * Axis ticks. Byte axes step in powers of two (256 MiB, 512 MiB, 1 GiB …) so every label is a round binary
 * size; frame axes step in 1, 2, 5 × 10^k frames.
 */
import { KiB, roundUpPow2, type Bytes } from '../../../shared/units'

export interface ByteAxis {
  max: Bytes
  interval: Bytes
}

/** A power-of-two interval giving at most `maxTicks` intervals up to `value`, and the axis top it rounds to. */
export function byteAxis(value: Bytes, maxTicks: number): ByteAxis {
  const ticks = Math.max(1, Math.floor(maxTicks))
  if (!(value > 0)) return { max: KiB, interval: KiB }
  const interval = Math.max(1, roundUpPow2(value / ticks))
  return { max: Math.ceil(value / interval) * interval, interval }
}

const UNITS: [number, string][] = [
  [1024 ** 4, 'TiB'],
  [1024 ** 3, 'GiB'],
  [1024 ** 2, 'MiB'],
  [1024, 'KiB'],
]

/** "1.5 GiB", "768 MiB", "0": an axis label, with no trailing zeros (the ticks are round binary sizes). */
export function formatAxisBytes(bytes: Bytes): string {
  if (bytes === 0) return '0'
  const sign = bytes < 0 ? '-' : ''
  const v = Math.abs(bytes)
  for (const [size, unit] of UNITS) {
    if (v >= size) return `${sign}${trim(v / size)} ${unit}`
  }
  return `${sign}${trim(v)} B`
}

function trim(v: number): string {
  return String(Number(v.toFixed(3)))
}

/** "1.2k", "35", "2.5M": counts on a small axis. */
export function formatAxisCount(n: number): string {
  const v = Math.abs(n)
  if (v >= 1e6) return `${trim(n / 1e6)}M`
  if (v >= 1e4) return `${trim(n / 1e3)}k`
  return String(Math.round(n))
}

/** The smallest 1, 2, 5 × 10^k step at least `min`. */
export function niceStep(min: number): number {
  if (!(min > 0)) return 1
  const power = 10 ** Math.floor(Math.log10(min))
  for (const m of [1, 2, 5, 10]) if (m * power >= min) return Math.max(1, m * power)
  return 10 * power
}

/**
 * Frame ticks over [from, to] for an axis `pixels` wide: multiples of a 1-2-5 step, at least `spacing` pixels
 * apart. Values are in the unit given (frame numbers or frame indices).
 */
export function frameTicks(from: number, to: number, pixels: number, spacing = 80): number[] {
  if (!(to > from) || pixels <= 0) return []
  const step = niceStep(((to - from) * spacing) / pixels)
  const out: number[] = []
  for (let v = Math.ceil(from / step) * step; v <= to; v += step) out.push(v)
  return out
}
