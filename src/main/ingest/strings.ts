/**
 * Interned strings kept as UTF-8 bytes in one arena. Names and tags are interned straight from the capture's
 * bytes, so a load never decodes a string nobody looks at; `get` decodes (and caches) on demand.
 * Id 0 means "no string".
 */
import { Column, u32 } from './columns'

const decoder = new TextDecoder('utf-8')
const encoder = new TextEncoder()

/** FNV-1a. The scanner computes the same hash while it looks for a string's closing quote. */
export const HASH_SEED = 0x811c9dc5
export const HASH_PRIME = 0x01000193

export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = HASH_SEED
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], HASH_PRIME)
  return h >>> 0
}

export class StringTable {
  private arena = new Uint8Array(1 << 16)
  private arenaLength = 0
  private readonly starts: Column<Uint32Array> = u32()
  private readonly ends: Column<Uint32Array> = u32()
  private slots = new Int32Array(1 << 12)
  /** Decoded strings, only those asked for. */
  private readonly decoded = new Map<number, string>()
  private scratch = new Uint8Array(256)

  constructor() {
    this.starts.push(0)
    this.ends.push(0)
  }

  /** Number of ids in use, including the empty id 0. */
  get size(): number {
    return this.starts.length
  }

  internBytes(buf: Uint8Array, start: number, end: number): number {
    return this.internHashed(buf, start, end, hashBytes(buf, start, end))
  }

  /** Intern bytes whose hashBytes() the caller already has. */
  internHashed(buf: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1
    const len = end - start
    let slot = hash & mask
    for (;;) {
      const id = this.slots[slot]
      if (id === 0) break
      const s = this.starts.data[id]
      if (this.ends.data[id] - s === len) {
        let same = true
        for (let i = 0; i < len; i++) {
          if (this.arena[s + i] !== buf[start + i]) {
            same = false
            break
          }
        }
        if (same) return id
      }
      slot = (slot + 1) & mask
    }
    if (this.arenaLength + len > this.arena.length) {
      let cap = this.arena.length * 2
      while (cap < this.arenaLength + len) cap *= 2
      const next = new Uint8Array(cap)
      next.set(this.arena.subarray(0, this.arenaLength))
      this.arena = next
    }
    this.arena.set(buf.subarray(start, end), this.arenaLength)
    const id = this.starts.push(this.arenaLength)
    this.arenaLength += len
    this.ends.push(this.arenaLength)
    this.slots[slot] = id
    if (this.starts.length * 2 > this.slots.length) this.rehash()
    return id
  }

  intern(text: string | undefined): number {
    if (text === undefined) return 0
    const need = text.length * 3
    if (this.scratch.length < need) this.scratch = new Uint8Array(Math.max(need, this.scratch.length * 2))
    const { written } = encoder.encodeInto(text, this.scratch)
    const id = this.internBytes(this.scratch, 0, written)
    if (!this.decoded.has(id)) this.decoded.set(id, text)
    return id
  }

  get(id: number): string | undefined {
    if (id === 0) return undefined
    let s = this.decoded.get(id)
    if (s === undefined) {
      s = decoder.decode(this.arena.subarray(this.starts.data[id], this.ends.data[id]))
      this.decoded.set(id, s)
    }
    return s
  }

  /** Byte length of a string without decoding it. */
  byteLength(id: number): number {
    return this.ends.data[id] - this.starts.data[id]
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2)
    const mask = slots.length - 1
    for (let id = 1; id < this.starts.length; id++) {
      let slot = hashBytes(this.arena, this.starts.data[id], this.ends.data[id]) & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = id
    }
    this.slots = slots
  }

  /** Drop growth slack once a load is done. */
  trim(): void {
    this.arena = this.arena.slice(0, this.arenaLength)
    this.starts.trim()
    this.ends.trim()
  }

  /** Bytes held: arena, offsets, hash slots (decoded strings are on the JS heap, counted there). */
  byteSize(): number {
    return this.arena.byteLength + this.starts.byteLength() + this.ends.byteLength() + this.slots.byteLength
  }
}
