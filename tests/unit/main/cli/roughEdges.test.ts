import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { main } from '../../../../src/main/cli'
import { catchCliOutput } from './output'

const FIXTURES = new URL('../../../fixtures/', import.meta.url)
const HEADER = '{"format":"heapscope-capture","version":1}'

describe('the command line’s rough edges', () => {
  const io = catchCliOutput('heapscope-edges-')

  it('route on a trace without requests says so, with exit 2', async () => {
    // a D3D12MA dump holds placements the allocator made, no requests
    expect(await main(['route', new URL('d3d12ma-dump-utf16.json', FIXTURES).pathname])).toBe(2)
    expect(io.out).toBe('')
    expect(io.err).toBe(
      'heapscope: d3d12ma-dump-utf16.json: no requests to route: no buffer, texture or transient records (the vma-json import records what the allocator did, not what was asked of it: try report)\n',
    )
    // a capture of frames alone
    const path = join(io.dir, 'frames.hscap')
    writeFileSync(path, `${HEADER}\n{"e":"frame","n":0}\n`)
    io.err = ''
    expect(await main(['route', path])).toBe(2)
    expect(io.err).toBe('heapscope: frames.hscap: no requests to route: no buffer, texture or transient records\n')
  })

  it('diff of one capture under two configs names each column by its config', async () => {
    const path = join(io.dir, 'a.hscap')
    writeFileSync(path, `${HEADER}\n{"e":"frame","n":0}\n{"e":"buffer","id":1,"size":20971520,"usage":["Static"],"name":"Big"}\n`)
    expect(await main(['diff', path, '--config-b', 'bufferPool.size=64MiB', '--config-b', 'bufferPool.maxAllocation=32MiB'])).toBe(0)
    const header = io.out.split('\n').find((l) => l.startsWith('figure'))!
    expect(header).toMatch(/^figure +A: a\.hscap \(capture's config\) +B: a\.hscap \(bufferPool\.size=64MiB, bufferPool\.maxAllocation=32MiB\) +B − A$/)
    io.out = ''
    expect(await main(['diff', path, '--config-b', 'bufferPool.size=64MiB', '--json'])).toBe(0)
    expect(JSON.parse(io.out).labels).toEqual({ a: "a.hscap (capture's config)", b: 'a.hscap (bufferPool.size=64MiB)' })
  })

  it('a truncated .hscap.gz gives the compressed file’s offset and the decompressed stream’s', async () => {
    const lines = [HEADER, '{"e":"frame","n":0}']
    for (let i = 1; i <= 4000; i++) lines.push(`{"e":"buffer","id":${i},"size":${4096 + i},"usage":["Static"],"name":"B${i}"}`)
    const whole = gzipSync(lines.join('\n') + '\n')
    const path = join(io.dir, 'cut.hscap.gz')
    const cut = Math.floor(whole.length / 2)
    writeFileSync(path, whole.subarray(0, cut))
    expect(await main(['report', path])).toBe(2)
    expect(io.err).toMatch(new RegExp(`^heapscope: cut\\.hscap\\.gz: the gzip stream breaks off \\(unexpected end of file\\) at byte ${cut} of the compressed file, byte \\d+ of the decompressed stream; expected a complete gzip stream\\n$`))
    // a bad line in a .gz capture: its offset is in the decompressed stream
    const bad = join(io.dir, 'bad.hscap.gz')
    writeFileSync(bad, gzipSync(`${HEADER}\n{"e":"frame","n":0}\n{"e":"buffer","id":1,"size":}\n`))
    io.err = ''
    expect(await main(['report', bad])).toBe(2)
    expect(io.err).toContain('bad.hscap.gz: line 3, byte offset ')
    expect(io.err).toContain(' of the decompressed stream: ')
  })
})
