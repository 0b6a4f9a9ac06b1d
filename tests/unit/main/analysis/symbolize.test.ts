import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Symbolizer, type ToolRunner } from '../../../../src/main/analysis/symbolize'

/** A module file of a given ELF type (1 relocatable, 2 fixed-address executable, 3 PIE or shared object). */
function elf(type: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'heapscope-sym-')), `module-${type}`)
  const head = Buffer.alloc(64)
  head.writeUInt32BE(0x7f454c46, 0)
  head[4] = 2
  head[5] = 1
  head.writeUInt16LE(type, 16)
  writeFileSync(file, head)
  return file
}

function fakeTools(available: string[], answers: Record<string, string>): { run: ToolRunner; calls: string[][] } {
  const calls: string[][] = []
  const run: ToolRunner = (tool, args) => {
    calls.push([tool, ...args])
    if (!available.includes(tool)) return null
    if (args[0] === '--version') return `${tool} 1\n`
    return answers[tool] ?? null
  }
  return { run, calls }
}

describe('symbolizing recorded call stacks', () => {
  it('asks llvm-symbolizer once per module for the calls (return address less one), and caches', () => {
    const lib = elf(3)
    const { run, calls } = fakeTools(['llvm-symbolizer', 'addr2line'], {
      'llvm-symbolizer': 'createMeshes\n/src/mesh.c:42:7\n\nmain\n??:0:0\n\n',
    })
    const s = new Symbolizer(run)
    const frames = s.symbolize([
      { module: lib, offset: 0x100 },
      { module: lib, offset: 0x200 },
      { address: 77 },
    ])
    expect(frames).toEqual([
      { module: lib, offset: 0x100, symbol: 'createMeshes', location: '/src/mesh.c:42:7' },
      { module: lib, offset: 0x200, symbol: 'main' },
      { address: 77 },
    ])
    expect(calls.filter((c) => c[1] !== '--version')).toEqual([['llvm-symbolizer', `--obj=${lib}`, '--no-inlines', '--demangle', '0xff', '0x1ff']])
    s.symbolize([{ module: lib, offset: 0x100 }])
    expect(calls.filter((c) => c[1] !== '--version')).toHaveLength(1)
  })

  it('falls back to addr2line, and to module+offset without a symbolizer', () => {
    const lib = elf(3)
    const { run } = fakeTools(['addr2line'], { addr2line: 'draw\n/src/draw.c:9\n??\n??:?\n' })
    expect(new Symbolizer(run).symbolize([{ module: lib, offset: 16 }, { module: lib, offset: 32 }])).toEqual([
      { module: lib, offset: 16, symbol: 'draw', location: '/src/draw.c:9' },
      { module: lib, offset: 32 },
    ])
    const none = fakeTools([], {})
    expect(new Symbolizer(none.run).symbolize([{ module: lib, offset: 16 }])).toEqual([{ module: lib, offset: 16 }])
  })

  it('passes the tools only existing files by absolute path, and leaves fixed-address executables alone', () => {
    const { run, calls } = fakeTools(['llvm-symbolizer'], { 'llvm-symbolizer': 'f\n??:0:0\n\n' })
    const s = new Symbolizer(run)
    const fixed = elf(2)
    const frames = s.symbolize([
      { module: '--help', offset: 5 },
      { module: 'relative/lib.so', offset: 5 },
      { module: '/no/such/module.so', offset: 5 },
      { module: fixed, offset: 5 },
      { module: 42 as unknown as string, offset: -3 },
    ])
    expect(calls.filter((c) => c[1] !== '--version')).toEqual([])
    expect(frames.map((f) => f.symbol)).toEqual([undefined, undefined, undefined, undefined, undefined])
    expect(frames[4]).toEqual({})
  })
})
