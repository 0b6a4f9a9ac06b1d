/**
 * A Vulkan run through the engine hosts use: a worker thread behind WorkerEngine, the hazards call and the
 * Vulkan summary forwarded across the thread boundary like every other query.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { WorkerEngine } from '../../../../src/main/engine/workerEngine'
import { generated } from '../ingest/helpers'

const WORKER = fileURLToPath(new URL('../host/engineWorker.boot.mjs', import.meta.url))

describe('a Vulkan run in the engine worker', () => {
  const engine = new WorkerEngine(WORKER)
  afterAll(() => engine.dispose())

  it('loads, summarizes the device and answers the hazards list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heapscope-vulkan-worker-'))
    const path = join(dir, 'hazards.hscap')
    writeFileSync(path, await generated('vulkan-hazards', 40, 2))
    const outcome = await engine.load('l', { kind: 'file', path })
    if (!outcome.ok) throw new Error(outcome.error.message)
    const { summary } = outcome
    expect(summary.api).toBe('vulkan')
    expect(summary.vulkan?.types).toHaveLength(4)
    expect(summary.checks).toMatchObject({ hazards: 1, warnings: { 'bind-misaligned': 1, 'flush-misaligned': 1 } })
    const answer = await engine.hazards({ runId: summary.runId, offset: 0, limit: 10 })
    // 40 frames: mistakes at frames 10, 20 and 30.
    expect(answer.entries.map((e) => [e.frameNumber, e.rule])).toEqual([
      [10, 'bind-misaligned'],
      [20, 'flush-misaligned'],
      [30, 'access-inactive'],
    ])
  })
})
