/** Small hand-made RMV files: RDF and MINI containers around tokens written bit by bit. */

/** Writes `value` into bits [hi:lo] of `bytes` (little-endian bit order, as the RMT format numbers bits). */
export function setBits(bytes: Uint8Array, hi: number, lo: number, value: number | bigint): void {
  let v = BigInt(value)
  for (let bit = lo; bit <= hi; bit++) {
    if (v & 1n) bytes[bit >>> 3] |= 1 << (bit & 7)
    else bytes[bit >>> 3] &= ~(1 << (bit & 7))
    v >>= 1n
  }
}

export function token(size: number, type: number, fields: [number, number, number | bigint][] = [], delta = 0): Uint8Array {
  const t = new Uint8Array(size)
  setBits(t, 3, 0, type)
  setBits(t, 7, 4, delta)
  for (const [hi, lo, value] of fields) setBits(t, hi, lo, value)
  return t
}

/** A timestamp token whose clock is `counter` × 32 ticks, at `frequency` ticks per second. */
export const timestamp = (counter: number, frequency: number): Uint8Array =>
  token(12, 0, [
    [63, 4, counter],
    [95, 64, frequency],
  ])

export const timeDelta = (ticks: number): Uint8Array => {
  const units = ticks / 32
  const t = new Uint8Array(3)
  t[0] = 14 | (2 << 4)
  t[1] = units & 0xff
  t[2] = (units >> 8) & 0xff
  return t
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export interface RdfChunkSpec {
  id: string
  header?: Uint8Array
  data: Uint8Array
  /** Store as zstd-compressed (the bytes are written as given; the test's decoder undoes its own encoding). */
  compressed?: { stored: Uint8Array }
  version?: number
}

export function rdfFile(chunks: RdfChunkSpec[]): Uint8Array {
  const body: Uint8Array[] = []
  const index = new Uint8Array(64 * chunks.length)
  const iv = new DataView(index.buffer)
  let at = 32
  chunks.forEach((c, i) => {
    const header = c.header ?? new Uint8Array(0)
    const stored = c.compressed?.stored ?? c.data
    const e = i * 64
    for (let k = 0; k < c.id.length; k++) index[e + k] = c.id.charCodeAt(k)
    index[e + 16] = c.compressed ? 1 : 0
    iv.setUint32(e + 20, c.version ?? 1, true)
    iv.setBigInt64(e + 24, BigInt(at), true)
    iv.setBigInt64(e + 32, BigInt(header.length), true)
    iv.setBigInt64(e + 40, BigInt(at + header.length), true)
    iv.setBigInt64(e + 48, BigInt(stored.length), true)
    iv.setBigInt64(e + 56, BigInt(c.compressed ? c.data.length : 0), true)
    body.push(header, stored)
    at += header.length + stored.length
  })
  const head = new Uint8Array(32)
  const hv = new DataView(head.buffer)
  head.set([...'AMD_RDF '].map((ch) => ch.charCodeAt(0)))
  hv.setUint32(8, 3, true)
  hv.setBigInt64(16, BigInt(at), true)
  hv.setBigInt64(24, BigInt(index.length), true)
  return concat([head, ...body, index])
}

/** The 24-byte header of an RDF RmtData chunk. */
export function streamHeader(processId: number, index: number, major: number, minor: number, size: number): Uint8Array {
  const h = new Uint8Array(24)
  const v = new DataView(h.buffer)
  v.setUint32(0, processId, true)
  v.setBigUint64(8, BigInt(size), true)
  v.setUint32(16, index, true)
  v.setUint16(20, major, true)
  v.setUint16(22, minor, true)
  return h
}

export function adapterInfo(name: string): Uint8Array {
  const a = new Uint8Array(172)
  a.set([...name].map((ch) => ch.charCodeAt(0)))
  const v = new DataView(a.buffer)
  // family, revision, device, engine clock min/max, memory type (5 = GDDR6), ops/clock, bus width, bandwidth, mem clock
  ;[143, 199, 0x73ff, 500, 2044, 5, 16, 128, 213623, 96, 875].forEach((x, i) => v.setUint32(128 + 4 * i, x, true))
  return a
}

export function segments(list: [type: number, base: number, size: number][]): Uint8Array {
  const s = new Uint8Array(24 * list.length)
  const v = new DataView(s.buffer)
  list.forEach(([type, base, size], i) => {
    v.setInt32(24 * i, type, true)
    v.setBigUint64(24 * i + 8, BigInt(base), true)
    v.setBigUint64(24 * i + 16, BigInt(size), true)
  })
  return s
}

export interface MiniChunkSpec {
  type: number
  major?: number
  minor?: number
  data: Uint8Array
}

export function miniFile(chunks: MiniChunkSpec[]): Uint8Array {
  const head = new Uint8Array(56)
  const hv = new DataView(head.buffer)
  hv.setUint32(0, 0x494e494d, true)
  hv.setUint32(4, 1, true)
  hv.setInt32(16, 56, true)
  // 2024-03-05T06:07:08 as struct tm: seconds, minutes, hours, day, month from 0, years since 1900.
  ;[8, 7, 6, 5, 2, 124].forEach((x, i) => hv.setInt32(20 + 4 * i, x, true))
  const parts: Uint8Array[] = [head]
  for (const c of chunks) {
    const h = new Uint8Array(16)
    const v = new DataView(h.buffer)
    h[0] = c.type
    v.setInt16(4, c.minor ?? 0, true)
    v.setInt16(6, c.major ?? 0, true)
    v.setInt32(8, 16 + c.data.length, true)
    parts.push(h, c.data)
  }
  return concat(parts)
}
