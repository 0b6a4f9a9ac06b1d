/** A byte count or byte offset. Always a double: sizes up to 2^53 must survive, never 32-bit arithmetic. */
export type Bytes = number
/** A frame number as the capture numbers it (`frame` record `n`). */
export type Frame = number
/** A frame index: the position of a frame in a loaded capture, 0-based and dense. */
export type FrameIndex = number
/** Milliseconds since the capture started. */
export type Milliseconds = number

export const KiB = 1024
export const MiB = 1024 * KiB
export const GiB = 1024 * MiB

/** Round up to a multiple of `align` (any positive integer, not only powers of two). Exact up to 2^53. */
export function roundUp(value: Bytes, align: Bytes): Bytes {
  if (align <= 1) return value
  const rest = value % align
  return rest === 0 ? value : value + (align - rest)
}

export function roundDown(value: Bytes, align: Bytes): Bytes {
  if (align <= 1) return value
  return value - (value % align)
}

/** Smallest power of two not below `value` (1 for 0). Exact up to 2^53. */
export function roundUpPow2(value: number): number {
  if (value <= 1) return 1
  let p = 1
  while (p < value) p *= 2
  return p
}

export function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b
    a = b
    b = t
  }
  return a
}

export function lcm(a: number, b: number): number {
  if (a === 0 || b === 0) return 0
  return (a / gcd(a, b)) * b
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']

/**
 * "1.50 MiB": binary units, three significant digits; a whole number of bytes below 1 KiB shown exactly, a fraction
 * of one (a rate, bytes a frame) to three significant digits too.
 */
export function formatBytes(bytes: Bytes): string {
  if (!Number.isFinite(bytes)) return String(bytes)
  const sign = bytes < 0 ? '-' : ''
  let v = Math.abs(bytes)
  // a rate (bytes a frame) is fractional: as many digits as a larger unit's
  if (v < 1024) return `${sign}${Number.isInteger(v) ? v : v.toFixed(significant(v))} B`
  let u = 0
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024
    u++
  }
  return `${sign}${v.toFixed(significant(v))} ${UNITS[u]}`
}

/** Digits after the point that give a value under 1024 three significant digits (two past 1000). */
function significant(v: number): number {
  return v >= 100 ? 0 : v >= 10 ? 1 : 2
}

/** "12,345,678": an integer with thousands separators, locale-independent so tests and CLI output are stable. */
export function formatCount(n: number): string {
  const s = Math.round(Math.abs(n)).toString()
  const out = s.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return n < 0 ? `-${out}` : out
}
