/**
 * The store's columns as a load grows them: the capacity each growth reaches, worked out by hand from the rule in
 * src/main/ingest/columns.ts (fourfold at most before 2 % of the input is parsed, then the projection and a fifth,
 * within 64 MiB past fourfold), and what a trim keeps: a view of the same buffer where the slack is no longer than
 * the length, an exact copy past that.
 */
import { describe, expect, it } from 'vitest'
import { Column, grownCapacity, uint8Column, type LoadShare } from '../../../../src/main/ingest/columns'

const at = (fraction: number): LoadShare => ({ fraction })

describe('grownCapacity', () => {
  it('grows by half again where the share is unknown, or the input is read', () => {
    expect(grownCapacity(4096, 4096, undefined)).toBe(6144)
    expect(grownCapacity(4096, 4096, at(0))).toBe(6144)
    expect(grownCapacity(4096, 4096, at(1))).toBe(6144)
    expect(grownCapacity(100, 100, undefined)).toBe(1024)
  })

  it('projects at most fourfold, 3 % over, before 2 % of the input is parsed', () => {
    // 4 000 values at 1 %: 400 000 projected, capped at 16 000
    expect(grownCapacity(4000, 4000, at(0.01))).toBe(16_000)
    // 4 000 values at 0.5 % would project 800 000: fourfold still
    expect(grownCapacity(4000, 4000, at(0.005))).toBe(16_000)
  })

  it('grows to the projection and a fifth from 2 % of the input on', () => {
    // 4 000 values at 2 %: 200 000 projected, 240 000 with a fifth
    expect(grownCapacity(4000, 4000, at(0.02))).toBe(240_000)
    // 50 000 at 6.25 %: 800 000 projected, 960 000
    expect(grownCapacity(50_000, 50_000, at(0.0625))).toBe(960_000)
    // late in the input the projection is under fourfold, and the fifth still applies: 700 000 at 90 %, 777 778
    // projected, 933 334 with a fifth (rounded up)
    expect(grownCapacity(700_000, 700_000, at(0.9))).toBe(933_334)
  })

  it('reserves at most 64 MiB past fourfold on a projection, by the element size', () => {
    // 1 000 000 doubles at 2 % would project 60 000 000: 4 000 000 and 8 388 608 more
    expect(grownCapacity(1_000_000, 1_000_000, at(0.02), 8)).toBe(4_000_000 + 8_388_608)
    // the same count of single bytes may take 67 108 864 more than 4 000 000: the projection, 60 000 000, stands
    expect(grownCapacity(1_000_000, 1_000_000, at(0.02), 1)).toBe(60_000_000)
  })

  it('grows at least an eighth', () => {
    // room made for 9 000 values in 10 000 at 99 %: 9 091 projected, 10 910 with a fifth, under 11 250
    expect(grownCapacity(10_000, 9000, at(0.99))).toBe(11_250)
  })
})

describe('Column', () => {
  it('grows once from a trusted projection, and keeps its values', () => {
    const share = { fraction: 0 }
    const c = uint8Column(1024)
    c.share = share
    for (let i = 0; i < 1024; i++) c.push(i & 255)
    share.fraction = 0.05
    c.push(7)
    // 1 025 values at 5 %: 20 500 projected, 24 600 with a fifth
    expect(c.data.length).toBe(24_600)
    expect(c.length).toBe(1025)
    expect(c.data[1000]).toBe(1000 & 255)
    expect(c.data[1024]).toBe(7)
  })

  it('keeps slack no longer than its length behind a view of the same buffer', () => {
    const c = new Column(Float64Array, 2000)
    for (let i = 0; i < 1000; i++) c.push(i * 1.5)
    const buffer = c.data.buffer
    const trimmed = c.trim()
    expect(trimmed.length).toBe(1000)
    expect(trimmed.buffer).toBe(buffer)
    expect(trimmed[999]).toBe(999 * 1.5)
  })

  it('copies a column with more slack than values to its length', () => {
    const c = new Column(Float64Array, 2001)
    for (let i = 0; i < 1000; i++) c.push(i)
    const buffer = c.data.buffer
    const trimmed = c.trim()
    expect(trimmed.length).toBe(1000)
    expect(trimmed.buffer).not.toBe(buffer)
    expect(trimmed.buffer.byteLength).toBe(8000)
    expect(trimmed[999]).toBe(999)
  })
})
