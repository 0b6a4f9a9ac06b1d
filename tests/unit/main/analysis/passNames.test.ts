import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCapture } from '../../../../src/main/ingest/read'
import { upgradeMinor } from '../../../../src/main/ingest/versions'
import { chunksOf } from '../ingest/helpers'

const transient = (id: number, first: number, last: number, name: string) => ({
  e: 'transient',
  id,
  kind: 'buffer',
  size: 1 << 20,
  usage: ['UnorderedAccess'],
  first,
  last,
  name,
})

async function transientsOf(endgraph: object) {
  const lines = [
    { format: 'heapscope-capture', version: 1, minor: 4 },
    { e: 'frame', n: 0 },
    { e: 'graph', name: 'SceneRenderer' },
    transient(1, 0, 1, 'DepthA'),
    transient(2, 2, 3, 'LightsB'),
    endgraph,
  ]
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
  const result = await loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: 'passes.hscap' })
  const engine = new LocalEngine()
  const run = await engine.addRun(result, {})
  const answer = await engine.transients({ runId: run.id, frame: 0 })
  await engine.dispose()
  return answer.executions
}

describe('pass names (capture format 1.4)', () => {
  it('come with the graph execution, one per pass', async () => {
    const [execution] = await transientsOf({ e: 'endgraph', passes: 4, passNames: ['DepthPrepass', 'BasePass', 'Lights', 'Tonemap'] })
    expect(execution.passes).toBe(4)
    expect(execution.passNames).toEqual(['DepthPrepass', 'BasePass', 'Lights', 'Tonemap'])
  })

  it('drop names past the passes and leave the passes past the names unnamed', async () => {
    expect((await transientsOf({ e: 'endgraph', passes: 4, passNames: ['A', 'B', 'C', 'D', 'E'] }))[0].passNames).toEqual(['A', 'B', 'C', 'D'])
    expect((await transientsOf({ e: 'endgraph', passes: 4, passNames: ['A'] }))[0].passNames).toEqual(['A', '', '', ''])
  })

  it('are absent when the capture gives none, or not as strings', async () => {
    expect((await transientsOf({ e: 'endgraph', passes: 4 }))[0].passNames).toBeUndefined()
    expect((await transientsOf({ e: 'endgraph', passes: 4, passNames: [1, 2] }))[0].passNames).toBeUndefined()
  })

  it('come with minor 4, which a 1.2 or 1.3 capture is upgraded to with nothing else changed', () => {
    const header = { format: 'heapscope-capture' as const, version: 1, minor: 2, api: 'd3d12' as const }
    expect(upgradeMinor(header, 4)).toEqual({ ...header, minor: 4 })
    expect(upgradeMinor({ ...header, minor: 3 }, 4)).toEqual({ ...header, minor: 4 })
  })
})
