import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../../src/main/cli/index'
import { catchCliOutput } from './output'

const FIXTURES = new URL('../../../fixtures/', import.meta.url)

describe('heapscope on input it cannot read', () => {
  const io = catchCliOutput('heapscope-input-')

  const file = (name: string, text: string) => {
    const path = join(io.dir, name)
    writeFileSync(path, text)
    return path
  }

  it('reads a VMA 2.x dump as it reads a 3.x one', async () => {
    expect(await main(['report', '--json', new URL('real/vma2-dump-sample.json', FIXTURES).pathname])).toBe(0)
    const report = JSON.parse(io.out)
    expect(report.format).toBe('vma-json')
    // the two 32 MiB blocks of the dump
    expect(report.peak.bytes).toBe(2 * 33554432)
  })

  it('says which formats a JSON document was tried as and why each refused, with no report', async () => {
    const path = file('settings.json', '{\n  "window": {"width": 800},\n  "recent": ["a.hscap"]\n}\n')
    for (const command of ['report', 'check']) {
      io.err = ''
      expect(await main([command, path])).toBe(2)
      expect(io.out).toBe('')
      expect(io.err).not.toMatch(/line 1, byte offset 1/)
      expect(io.err).toContain('settings.json: a JSON document that no importer reads; tried heapscope-capture (its first line is not a capture header')
      expect(io.err).toContain('vma-json (it has neither a "General" object with "API" (VMA 3.x, D3D12MA) nor a top-level "Total" and "Heap N" objects (VMA 2.x))')
      expect(io.err).toContain('gpgmm-trace (it is neither an array of trace events nor an object with a "traceEvents" array)')
      expect(io.err).toContain('rmv (it does not start with the RDF magic')
    }
  })

  it('says a trace-event file is not GPGMM’s, after looking through it', async () => {
    const path = file('chrome.json', '[\n{"name":"Paint","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}\n]\n')
    expect(await main(['report', path])).toBe(2)
    expect(io.out).toBe('')
    expect(io.err).toContain('gpgmm-trace (it is a trace-event file, but none of its events is a GPGMM allocator, heap or allocation event)')
  })

  it('prints no empty report beside exit 2 for a file that fails on its first line', async () => {
    const path = file('notes.txt', 'hello\n')
    expect(await main(['report', path])).toBe(2)
    expect(io.out).toBe('')
    expect(io.err).toContain('notes.txt: line 1, byte offset 0')
  })

  it('keeps reading a capture whose first line is a broken header as lines', async () => {
    const path = file('broken.hscap', '{"format":"heapscope-capture","version":}\n')
    expect(await main(['report', path])).toBe(2)
    expect(io.err).toContain('broken.hscap: line 1')
    expect(io.err).not.toContain('no importer')
  })
})
