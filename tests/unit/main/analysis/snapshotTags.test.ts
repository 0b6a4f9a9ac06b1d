import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCaptureFile } from '../../../../src/main/ingest/read'
import { NO_TAG } from '../../../../src/shared/ipc'

describe('snapshot block tags', () => {
  it('names the tag of every used block as the resource table has it, and none for free blocks', async () => {
    const engine = new LocalEngine()
    const run = await engine.addRun(await loadCaptureFile('resources/demo/demo.hscap.gz'))
    const frame = 200
    const snapshot = await engine.snapshot({ runId: run.id, frame })
    const rows = (await engine.resources({ runId: run.id, frame, offset: 0, limit: 5000 })).rows
    const tagOf = new Map(rows.map((r) => [r.id, r.tag]))
    const tags = snapshot.tags!
    // distinct tags, each of a live resource
    expect(new Set(tags).size).toBe(tags.length)
    expect(new Set(tags)).toEqual(new Set(rows.map((r) => r.tag)))
    let checked = 0
    for (const pool of snapshot.pools) {
      expect(pool.tag!.length).toBe(pool.id.length)
      for (let b = 0; b < pool.id.length; b++) {
        const id = pool.id[b]
        if (Number.isNaN(id)) {
          expect(pool.tag![b]).toBe(NO_TAG)
          continue
        }
        // a block whose resource is live at the frame carries that resource's tag
        const expected = tagOf.get(id)
        if (expected === undefined) continue
        expect(tags[pool.tag![b]]).toBe(expected)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(100)
  })
})
