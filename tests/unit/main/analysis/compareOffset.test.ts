import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCapture } from '../../../../src/main/ingest/read'
import { chunksOf } from '../ingest/helpers'

const MiB = 1 << 20

/** Frames `first` to `first + 7`; a 24 MiB buffer (committed, over the pools' limit) made in the frame numbered `at`. */
async function load(engine: LocalEngine, name: string, first: number, at: number) {
  const lines: object[] = [{ format: 'heapscope-capture', version: 1 }]
  for (let n = first; n < first + 8; n++) {
    lines.push({ e: 'frame', n })
    if (n === at) lines.push({ e: 'buffer', id: 1, size: 24 * MiB, usage: ['Static'], name: 'Big' })
  }
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
  const result = await loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: name })
  return engine.addRun(result, {})
}

describe('compare on one axis, B shifted', () => {
  it('lines B up against A by an offset: the same work at the same frame numbers gives no delta', async () => {
    const engine = new LocalEngine()
    // A: frames 100–107, the buffer made at index 3; B: frames 0–7, the same buffer made at index 5 (B's recording
    // began 2 frames of the work earlier)
    const a = await load(engine, 'a.hscap', 100, 103)
    const b = await load(engine, 'b.hscap', 0, 5)
    const query = { runA: a.id, runB: b.id, series: ['total.heapBytes'], from: 0, to: 8, resolution: 8 }
    const plain = await engine.compareSeries(query)
    // by index: A holds the buffer from index 3, B from index 5: B − A is −24 MiB at indices 3 and 4
    expect(Array.from(plain.delta['total.heapBytes'])).toEqual([0, 0, 0, -24 * MiB, -24 * MiB, 0, 0, 0])
    const shifted = await engine.compareSeries({ ...query, offsetB: 2 })
    // A's index i beside B's i + 2: the buffer lines up; B's indices 8 and 9 do not exist (NaN)
    expect(Array.from(shifted.b.series['total.heapBytes'].max)).toEqual([0, 0, 0, 24 * MiB, 24 * MiB, 24 * MiB, NaN, NaN])
    expect(Array.from(shifted.delta['total.heapBytes'])).toEqual([0, 0, 0, 0, 0, 0, NaN, NaN])
    // a negative offset: B's index i − 1; B's index −1 before its start is NaN
    const back = await engine.compareSeries({ ...query, offsetB: -1 })
    expect(back.b.series['total.heapBytes'].max[0]).toBeNaN()
    expect(back.b.series['total.heapBytes'].max[6]).toBe(24 * MiB)
    await engine.dispose()
  })
})
