/**
 * One temporary folder for a test run, removed when the run ends: every folder a test makes with mkdtemp (through
 * os.tmpdir(), which reads TMPDIR), and every program a test starts that makes its own (the CLI, the browser host,
 * Chromium's profile), lands inside it, whatever a test leaves behind when it fails or forgets. Set before the
 * test workers start, which take this process's environment.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const before = process.env.TMPDIR
  const root = mkdtempSync(join(tmpdir(), 'heapscope-tests-'))
  process.env.TMPDIR = root
  return () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
}
