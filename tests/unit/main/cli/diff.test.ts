import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../../src/main/cli/index'
import { MiB } from '../../../../src/shared/units'
import { catchCliOutput } from './output'

const HEADER = '{"format":"heapscope-capture","version":1}'

function capture(dir: string, name: string, records: object[]): string {
  const path = join(dir, name)
  writeFileSync(path, [HEADER, ...records.map((r) => JSON.stringify(r))].join('\n') + '\n')
  return path
}

describe('heapscope diff', () => {
  const io = catchCliOutput('heapscope-diff-')

  const base = [
    { e: 'frame', n: 0 },
    { e: 'buffer', id: 1, size: 1024, usage: ['Static'], name: 'Mesh.VB' },
    { e: 'buffer', id: 2, size: 20 * MiB, usage: ['Static'], name: 'Big' },
  ]

  it('reports resources only in A, only in B, and changed, matched by name', async () => {
    const a = capture(io.dir, 'a.hscap', base)
    const b = capture(io.dir, 'b.hscap', [
      { e: 'frame', n: 0 },
      { e: 'buffer', id: 7, size: 1024, usage: ['Static'], name: 'Mesh.VB' }, // same: another id, same name
      { e: 'buffer', id: 2, size: 8 * MiB, usage: ['Static'], name: 'Big' }, // 8 MiB fits the pool: changed
      { e: 'buffer', id: 3, size: 4096, usage: ['Static'], name: 'New' },
    ])
    expect(await main(['diff', a, b, '--json'])).toBe(0)
    const diff = JSON.parse(io.out)
    expect(diff.resources.counts).toEqual({ onlyA: 0, onlyB: 1, changed: 1, same: 1 })
    expect(diff.resources.changed[0]).toMatchObject({
      name: 'Big',
      match: 'name',
      a: { placement: 'Committed', size: 20 * MiB },
      b: { placement: 'SharedBufferPool' },
      changes: ['placement', 'size', 'requested'],
    })
    expect(diff.resources.onlyB[0].name).toBe('New')
    // A: two 32 MiB buffer pools (one a spare) + 20 MiB committed = 84 MiB; B: the pools only = 64 MiB
    expect(diff.a.peak.bytes).toBe(84 * MiB)
    expect(diff.b.peak.bytes).toBe(64 * MiB)
    expect(diff.delta['peak.bytes']).toBe(-20 * MiB)
  })

  it('compares one capture under two configs, and fails on growth past the threshold with exit 3', async () => {
    const a = capture(io.dir, 'a.hscap', base)
    // a 64 MiB pool (and its spare) instead of 32 MiB: 128 + 20 = 148 MiB against 84 MiB, +76.19%
    expect(await main(['diff', a, '--config-b', 'bufferPool.size=64MiB', '--json'])).toBe(0)
    expect(JSON.parse(io.out).peakGrowthPercent).toBeCloseTo(((148 - 84) / 84) * 100, 6)
    io.out = ''
    expect(await main(['diff', a, '--config-b', 'bufferPool.size=64MiB', '--fail-on-growth', '80'])).toBe(0)
    expect(await main(['diff', a, '--config-b', 'bufferPool.size=64MiB', '--fail-on-growth', '50'])).toBe(3)
    expect(io.err).toMatch(/grew 76\.19%, more than 50%/)
  })

  it('exits 1 on bad usage and 2 on unreadable input', async () => {
    const a = capture(io.dir, 'a.hscap', base)
    expect(await main(['diff', a, '--config-b', 'nope=1'])).toBe(1)
    expect(io.err).toMatch(/unknown config key "nope"/)
    const bad = join(io.dir, 'bad.hscap')
    writeFileSync(bad, `${HEADER}\n{"e":"frame","n":0}\nnot json\n`)
    expect(await main(['diff', a, bad])).toBe(2)
    // the header line is 42 bytes + newline, the frame line 19 + newline: line 3 starts at byte 63
    expect(io.err).toMatch(/bad\.hscap: line 3, byte offset 63/)
  })
})
