/**
 * The built command line in a pipe whose reader stops early (`route … | head -1`): it ends quietly, with no EPIPE
 * stack on stderr, and the reader gets its line.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { CLI, ROOT } from './browser'

const run = promisify(execFile)

describe('heapscope in a pipe', () => {
  it('route | head -1 ends quietly', async () => {
    const { stdout, stderr } = await run('bash', ['-c', `set -o pipefail; node ${JSON.stringify(CLI)} route resources/demo/demo.hscap.gz | head -1; echo "status \${PIPESTATUS[0]}" >&2`], {
      cwd: ROOT,
    })
    expect(JSON.parse(stdout.trim())).toMatchObject({ placement: expect.any(String), route: expect.any(Array) })
    // the demo routes thousands of requests: the writer met the closed pipe, and said nothing of it
    expect(stderr).toBe('status 0\n')
  })
})
