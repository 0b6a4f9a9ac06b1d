/**
 * The string table as a load fills it: one id per distinct text, its arena grown to the size projected from the
 * load's share (as the store's columns grow, columns.ts) rather than by half again, and a trim that keeps a slack
 * no longer than what is held behind a view instead of copying the arena (src/main/ingest/strings.ts).
 */
import { describe, expect, it } from 'vitest'
import type { LoadShare } from '../../../../src/main/ingest/columns'
import { StringTable } from '../../../../src/main/ingest/strings'

const encoder = new TextEncoder()

/** `count` distinct names of 40 to 70 bytes, as a capture's asset paths. */
function names(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => encoder.encode(`/Game/Environment/Rocks/Asset_${i}/SM_Rock_${i}.VertexBuffer`))
}

/** Intern `texts` in order, the share moving from 0 to 1 as they go when given; returns their ids and how many times the arena moved. */
function fill(table: StringTable, texts: Uint8Array[], share?: { fraction: number }): { ids: number[]; moves: number } {
  const ids: number[] = []
  let moves = 0
  let arena: ArrayBufferLike | undefined
  texts.forEach((text, i) => {
    if (share) share.fraction = i / texts.length
    ids.push(table.internBytes(text, 0, text.length))
    const now = table.bytes(1).buffer
    if (arena !== undefined && now !== arena) moves++
    arena = now
  })
  return { ids, moves }
}

describe('StringTable', () => {
  it('gives each distinct text one id, and the same id when it comes again', () => {
    const table = new StringTable()
    const texts = names(3000)
    const { ids } = fill(table, texts)
    expect(new Set(ids).size).toBe(3000)
    expect(ids[0]).toBe(1)
    expect(table.size).toBe(3001)
    // again, in another order: the same ids, no new string
    for (let i = texts.length - 1; i >= 0; i--) expect(table.internBytes(texts[i], 0, texts[i].length)).toBe(ids[i])
    expect(table.size).toBe(3001)
    expect(table.get(ids[1234])).toBe('/Game/Environment/Rocks/Asset_1234/SM_Rock_1234.VertexBuffer')
    expect(table.byteLength(ids[7])).toBe(texts[7].length)
  })

  it('grows its arena to the projected size when the load tells its share: a few moves instead of many', () => {
    const texts = names(20_000)
    // by half again from 1 KiB to about 1.2 MB: 18 moves
    const unknown = fill(new StringTable(), texts)
    expect(unknown.moves).toBeGreaterThanOrEqual(16)
    const share: LoadShare & { fraction: number } = { fraction: 0 }
    const projected = new StringTable()
    projected.share = share
    const known = fill(projected, texts, share)
    // fourfold while under 2 % of the input (1 KiB to about 28 KB: three), then to the projection and a fifth
    expect(known.moves).toBeLessThanOrEqual(6)
    // the same strings either way
    expect(known.ids).toEqual(unknown.ids)
    for (const id of [1, 1000, 20_000]) expect(projected.get(id)).toBe(`/Game/Environment/Rocks/Asset_${id - 1}/SM_Rock_${id - 1}.VertexBuffer`)
  })

  it('trims a slack no longer than the strings behind a view of the same arena, and copies a longer one away', () => {
    const share = { fraction: 0 }
    const table = new StringTable()
    table.share = share
    const texts = names(20_000)
    fill(table, texts, share)
    const held = texts.reduce((n, t) => n + t.length, 0)
    const before = table.bytes(1).buffer
    table.trim()
    // the projection's fifth is under what is held: the arena stays where it was, cut to its strings and four bytes
    expect(table.bytes(1).buffer).toBe(before)
    expect(table.byteSize()).toBe(held + 4 + 4 * 20_002)
    expect(table.get(20_000)).toBe('/Game/Environment/Rocks/Asset_19999/SM_Rock_19999.VertexBuffer')

    // a table whose arena holds far less than it reserved (a share that projected too much) is copied to its length
    const early = new StringTable()
    early.share = { fraction: 0.02 }
    early.internBytes(texts[0], 0, texts[0].length)
    for (let i = 1; i < 40; i++) early.internBytes(texts[i], 0, texts[i].length)
    const reserved = early.bytes(1).buffer
    early.trim()
    expect(early.bytes(1).buffer).not.toBe(reserved)
    expect(early.bytes(1).buffer.byteLength).toBe(texts.slice(0, 40).reduce((n, t) => n + t.length, 0) + 4)
  })

  it('interns again after a trim: the old strings found, new ones added after them', () => {
    const table = new StringTable()
    const texts = names(500)
    const { ids } = fill(table, texts)
    table.trim()
    expect(table.internBytes(texts[321], 0, texts[321].length)).toBe(ids[321])
    const extra = encoder.encode('/Game/Characters/Hero/T_Hero_D')
    const id = table.internBytes(extra, 0, extra.length)
    expect(id).toBe(501)
    expect(table.get(id)).toBe('/Game/Characters/Hero/T_Hero_D')
    expect(table.get(ids[0])).toBe('/Game/Environment/Rocks/Asset_0/SM_Rock_0.VertexBuffer')
  })
})
