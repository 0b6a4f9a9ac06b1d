/**
 * Interned strings kept as UTF-8 bytes in one arena. Names and tags are interned straight from the capture's
 * bytes, so a load never decodes a string nobody looks at; `get` decodes (and caches) on demand.
 * Id 0 means "no string".
 *
 * The hash table exists only while strings are interned: a loaded capture's names are unique per resource in
 * real captures, so the table would cost as much as the names; `trim` drops it and the next `intern` rebuilds it.
 */
import { capacityFor, type LoadShare, trimmed } from './columns'

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

/**
 * MurmurHash3 (x86, 32 bits, seed 0) of the bytes [start, end), read four at a time through `view`, which must have
 * room for a word past `end` (a scanner's buffer and the arena keep it): a third of hashBytes' time on a text of
 * a hundred bytes, whose bytes hashBytes chains one multiply at a time.
 */
export function hashWords(view: DataView, start: number, end: number): number {
  let h = 0
  let i = start
  for (; i + 4 <= end; i += 4) {
    let k = Math.imul(view.getInt32(i, true), 0xcc9e2d51)
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593)
    h ^= k
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0
  }
  if (i < end) {
    let k = view.getInt32(i, true) & ((1 << (8 * (end - i))) - 1)
    k = Math.imul(k, 0xcc9e2d51)
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593)
    h ^= k
  }
  h ^= end - start
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

const QUOTE = 0x22
/** Bytes the arena keeps free after its last string (see add). */
const ARENA_SLACK = 4

export class StringTable {
  // The tables start small so that they first grow within a load's first records, while the engine still
  // interprets the interning code: a growth first met in optimised code throws that code away, and the
  // scanner's with it, mid-load (ingest/README.md, "Cold start").
  private arena = new Uint8Array(1 << 10)
  private arenaView = new DataView(this.arena.buffer)
  private arenaLength = 0
  /** String `id` is arena[offsets[id], offsets[id + 1]). */
  private offsets = new Uint32Array(1 << 6)
  private count = 1
  /** Whether the strings are hashed with hashWords (internWords) rather than hashBytes. */
  private words = false
  /**
   * The open-addressed slots, each a pair: a string's id and its hash (as an int32), so that a probe past other
   * strings reads no more than the slots' own cache lines; absent once trimmed.
   */
  private slots: Int32Array | undefined = new Int32Array(2 << 7)
  /** Decoded strings, only those asked for. */
  private readonly decoded = new Map<number, string>()
  private scratch = new Uint8Array(256)
  /**
   * How far the load that interns the strings is (the builder's): the arrays then grow to the size projected from
   * it, as the store's columns do (columns.ts), instead of by half again. A capture whose names are unique per
   * resource fills megabytes of arena, and every growth copies the arena into fresh memory, whose pages fault in
   * one by one: by half again, the copies wrote about twice the final arena (ingest/README.md, "Unique names").
   */
  share: LoadShare | undefined

  constructor() {
    // The arrays are replaced as they grow. Each is stored twice here so that the engine takes it for a field
    // that changes from the start: its first replacement would otherwise throw away the optimised scanner and
    // interning code that relied on it staying the same, in the middle of a load.
    this.arena = new Uint8Array(this.arena.length)
    this.arenaView = new DataView(this.arena.buffer)
    this.offsets = new Uint32Array(this.offsets.length)
    this.slots = new Int32Array(this.slots!.length)
  }

  /** Number of ids in use, including the empty id 0. */
  get size(): number {
    return this.count
  }

  internBytes(buf: Uint8Array, start: number, end: number): number {
    return this.internHashed(buf, start, end, hashBytes(buf, start, end))
  }

  /**
   * Intern bytes that `view` (over `buf`) may read a word past their end, hashed with hashWords and compared a word
   * at a time: for long texts (ExtrasText's). A table interns its strings either this way or by hashBytes.
   */
  internWords(buf: Uint8Array, view: DataView, start: number, end: number): number {
    if (!this.words) {
      if (this.count > 1) throw new Error('string table: internWords on a table of hashBytes strings')
      this.words = true
    }
    return this.probe(buf, view, start, end, hashWords(view, start, end))
  }

  /** Intern bytes whose hashBytes() the caller already has. */
  internHashed(buf: Uint8Array, start: number, end: number, hash: number): number {
    return this.probe(buf, undefined, start, end, hash)
  }

  /**
   * The string's id, added where it is new: the hash's slots probed in turn, a string of the same hash and length
   * compared a byte at a time, or a word at a time through `view` where one is given (internWords).
   */
  private probe(buf: Uint8Array, view: DataView | undefined, start: number, end: number, hash: number): number {
    if (this.slots === undefined) this.rehash(1 << 12)
    const slots = this.slots!
    const offsets = this.offsets
    const mask = (slots.length >> 1) - 1
    const length = end - start
    const h = hash | 0
    let slot = h & mask
    for (;;) {
      const id = slots[slot << 1]
      if (id === 0) break
      if (slots[(slot << 1) + 1] === h) {
        const s = offsets[id]
        if (offsets[id + 1] - s === length) {
          if (view === undefined ? this.sameBytes(s, buf, start, length) : this.sameWords(s, view, start, length)) return id
        }
      }
      slot = (slot + 1) & mask
    }
    return this.add(buf, start, end, h, slot)
  }

  /** Whether the arena's `length` bytes at `s` are `buf`'s at `start`. */
  private sameBytes(s: number, buf: Uint8Array, start: number, length: number): boolean {
    const arena = this.arena
    let i = 0
    while (i < length && arena[s + i] === buf[start + i]) i++
    return i === length
  }

  /** sameBytes a word at a time, `view` readable a word past the bytes (the arena keeps ARENA_SLACK after its last). */
  private sameWords(s: number, view: DataView, start: number, length: number): boolean {
    const arena = this.arenaView
    let i = 0
    for (; i + 4 <= length; i += 4) if (arena.getInt32(s + i, true) !== view.getInt32(start + i, true)) return false
    if (i === length) return true
    const mask = (1 << (8 * (length - i))) - 1
    return ((arena.getInt32(s + i, true) ^ view.getInt32(start + i, true)) & mask) === 0
  }

  private add(buf: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const length = end - start
    // ARENA_SLACK bytes stay free after the last string, so matchesQuoted reads four bytes at a time to its end
    if (this.arenaLength + length + ARENA_SLACK > this.arena.length) {
      // to the projected size (by half again where the load's share is unknown); the pages of the slack are written
      // only as strings come
      const capacity = capacityFor(this.arena.length, this.arenaLength + length + ARENA_SLACK, this.share, 1)
      const next = new Uint8Array(capacity)
      next.set(this.arena.subarray(0, this.arenaLength))
      this.arena = next
      this.arenaView = new DataView(next.buffer)
    }
    const arena = this.arena
    let at = this.arenaLength
    if (length < 64) for (let i = start; i < end; i++) arena[at++] = buf[i]
    else {
      arena.set(buf.subarray(start, end), at)
      at += length
    }
    this.arenaLength = at
    const id = this.count++
    if (id + 1 >= this.offsets.length) {
      const capacity = capacityFor(this.offsets.length, id + 2, this.share, 4)
      const offsets = new Uint32Array(capacity)
      offsets.set(this.offsets)
      this.offsets = offsets
    }
    this.offsets[id + 1] = at
    const slots = this.slots!
    slots[slot << 1] = id
    slots[(slot << 1) + 1] = hash
    const pairs = slots.length >> 1
    if (this.count * 2 > pairs) {
      // twice the slots, or twice the strings projected (a rehash inserts every string again, into fresh memory)
      this.rehash(Math.max(2 * pairs, 2 * capacityFor(this.count, this.count + 1, this.share, 4)))
    }
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

  /**
   * Whether the bytes at `start` are string `id` followed by a closing quote, for a scanner whose line ends
   * before `end` and whose `view` (over `buf`) has a few bytes of room after `end`. Compares four bytes at a
   * time; false as soon as the string could not end before `end`.
   */
  matchesQuoted(id: number, buf: Uint8Array, view: DataView, start: number, end: number): boolean {
    const s = this.offsets[id]
    const length = this.offsets[id + 1] - s
    if (start + length >= end) return false
    const arena = this.arenaView
    if (s + length + 4 > arena.byteLength) {
      for (let i = 0; i < length; i++) if (this.arena[s + i] !== buf[start + i]) return false
      return buf[start + length] === QUOTE
    }
    let i = 0
    for (; i + 4 <= length; i += 4) if (arena.getInt32(s + i, true) !== view.getInt32(start + i, true)) return false
    if (i < length) {
      const mask = (1 << (8 * (length - i))) - 1
      if (((arena.getInt32(s + i, true) ^ view.getInt32(start + i, true)) & mask) !== 0) return false
    }
    return buf[start + length] === QUOTE
  }

  get(id: number): string | undefined {
    if (id === 0) return undefined
    let s = this.decoded.get(id)
    if (s === undefined) {
      s = decoder.decode(this.arena.subarray(this.offsets[id], this.offsets[id + 1]))
      this.decoded.set(id, s)
    }
    return s
  }

  /** Byte length of a string without decoding it. */
  byteLength(id: number): number {
    return this.offsets[id + 1] - this.offsets[id]
  }

  /** The UTF-8 bytes of a string, without copying. */
  bytes(id: number): Uint8Array {
    return this.arena.subarray(this.offsets[id], this.offsets[id + 1])
  }

  /**
   * Slots for at least `size` strings, at most half full: every string inserted again, with the hash its old slot
   * kept, or, after a trim dropped the slots, hashed again from the arena.
   */
  private rehash(size: number): void {
    // a power of two, for the mask
    size = 2 ** Math.ceil(Math.log2(Math.max(size, this.count * 2, 2)))
    const slots = new Int32Array(2 * size)
    const mask = size - 1
    const insert = (id: number, hash: number) => {
      let slot = hash & mask
      while (slots[slot << 1] !== 0) slot = (slot + 1) & mask
      slots[slot << 1] = id
      slots[(slot << 1) + 1] = hash
    }
    const old = this.slots
    if (old !== undefined) {
      for (let at = 0; at < old.length; at += 2) if (old[at] !== 0) insert(old[at], old[at + 1])
    } else {
      for (let id = 1; id < this.count; id++) {
        const start = this.offsets[id]
        const end = this.offsets[id + 1]
        insert(id, (this.words ? hashWords(this.arenaView, start, end) : hashBytes(this.arena, start, end)) | 0)
      }
    }
    this.slots = slots
  }

  /**
   * Drop growth slack and the hash table once a load is done. Slack no longer than what is held stays behind an
   * exact-length view, as a column's does (Column.trim): its pages were never written, and a copy would write the
   * whole arena into fresh memory again.
   */
  trim(): void {
    const arena = trimmed(this.arena, this.arenaLength + ARENA_SLACK)
    // a view keeps the buffer, and the DataView over it, as they were
    if (arena.buffer !== this.arena.buffer) this.arenaView = new DataView(arena.buffer)
    this.arena = arena
    this.offsets = trimmed(this.offsets, this.count + 1)
    this.slots = undefined
  }

  /** Bytes held: arena, offsets and slots (decoded strings are on the JS heap, counted there). */
  byteSize(): number {
    return this.arena.byteLength + this.offsets.byteLength + (this.slots?.byteLength ?? 0)
  }
}
