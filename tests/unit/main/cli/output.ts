import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, vi } from 'vitest'

/** What the in-process CLI writes to stdout and stderr in each test, and a fresh folder for its files. */
export interface CliOutput {
  out: string
  err: string
  dir: string
}

/** Catches stdout and stderr for every test of the enclosing describe, and makes it a temporary folder named PREFIX…. */
export function catchCliOutput(prefix: string): CliOutput {
  const io: CliOutput = { out: '', err: '', dir: '' }
  beforeEach(() => {
    io.out = ''
    io.err = ''
    io.dir = mkdtempSync(join(tmpdir(), prefix))
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((io.out += String(s)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((io.err += String(s)), true))
  })
  afterEach(() => vi.restoreAllMocks())
  return io
}
