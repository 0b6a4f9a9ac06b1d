import { describe, expect, it } from 'vitest'
import { matcherOf } from '../../../../src/main/analysis/search'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCapture } from '../../../../src/main/ingest/read'
import { chunksOf } from '../ingest/helpers'

const HEADER = '{"format":"heapscope-capture","version":1}'

async function runOf(lines: object[]) {
  const text = [HEADER, ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n'
  const result = await loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: 'search.hscap' })
  const engine = new LocalEngine()
  const run = await engine.addRun(result, {})
  return { engine, runId: run.id }
}

describe('capture-wide search', () => {
  it('reads the text as a part of a name, a glob, a regex or an id', () => {
    expect(matcherOf('scene').mode).toBe('text')
    expect(matcherOf('scene').name!('FSceneColor')).toBe(true)
    expect(matcherOf('Mesh_*.VB').name!('Mesh_12.VB')).toBe(true)
    expect(matcherOf('Mesh_*.VB').name!('Mesh_12.VBx')).toBe(false)
    expect(matcherOf('T_?_N').name!('T_1_N')).toBe(true)
    expect(matcherOf('/^t_.*_n$/i').name!('T_Rock_N')).toBe(true)
    expect(matcherOf('/[/').error).toMatch(/Invalid regular expression/)
    expect(matcherOf('#42')).toMatchObject({ mode: 'id', id: 42 })
    expect(matcherOf('42')).toMatchObject({ mode: 'id', id: 42 })
    expect(matcherOf('42').name!('Mesh_42')).toBe(true)
  })

  it('finds every resource ever made, released or alive, with its creation and release frames', async () => {
    // frames 10..14 (indices 0..4). id 1 "Mesh_1.VB" made in 10, released in 12; id 1 again "Mesh_2.VB" made in 13
    // (an id used again); id 2 "Rock" made in 11, alive at the end.
    const { engine, runId } = await runOf([
      { e: 'frame', n: 10 },
      { e: 'buffer', id: 1, size: 4096, usage: ['Static'], name: 'Mesh_1.VB', tag: 'Meshes' },
      { e: 'frame', n: 11 },
      { e: 'buffer', id: 2, size: 1 << 20, usage: ['Static'], name: 'Rock' },
      { e: 'frame', n: 12 },
      { e: 'release', id: 1 },
      { e: 'frame', n: 13 },
      { e: 'buffer', id: 1, size: 8192, usage: ['Static'], name: 'Mesh_2.VB', tag: 'Meshes' },
      { e: 'frame', n: 14 },
    ])
    const meshes = await engine.search({ runId, text: 'Mesh_*.VB', offset: 0, limit: 10, historyOf: 0 })
    expect(meshes.mode).toBe('glob')
    expect(meshes.total).toBe(2)
    expect(meshes.rows.map((r) => [r.index, r.id, r.name, r.tag, r.kind, r.created, r.released, r.requested])).toEqual([
      [0, 1, 'Mesh_1.VB', 'Meshes', 'buffer', 0, 2, 4096],
      [1, 1, 'Mesh_2.VB', 'Meshes', 'buffer', 3, null, 8192],
    ])
    // Mesh_1.VB lived in frames 10 and 11: the same place at its creation and at its last frame, one line
    expect(meshes.history?.index).toBe(0)
    expect(meshes.history?.entries).toHaveLength(1)
    expect(meshes.history?.entries[0]).toMatchObject({ frame: 0, requested: 4096 })
    // "Filter by name" sees only the live resources; the search sees both lives of id 1
    const byId = await engine.search({ runId, text: '#1', offset: 0, limit: 10 })
    expect(byId.rows.map((r) => r.name)).toEqual(['Mesh_1.VB', 'Mesh_2.VB'])
    const page = await engine.search({ runId, text: 'e', offset: 1, limit: 1 })
    expect(page.total).toBe(2)
    expect(page.rows.map((r) => r.name)).toEqual(['Mesh_2.VB'])
    expect((await engine.search({ runId, text: '/(/', offset: 0, limit: 10 })).error).toMatch(/Invalid regular expression/)
    await engine.dispose()
  })
})
