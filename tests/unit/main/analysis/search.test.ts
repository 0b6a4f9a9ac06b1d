import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { replayCapture } from '../../../../src/main/analysis/run'
import { matcherOf, matches, ResourceIndex, walkHistory } from '../../../../src/main/analysis/search'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { LifeEnds, Lifetimes } from '../../../../src/main/analysis/records'
import { loadCapture, loadCaptureFile } from '../../../../src/main/ingest/read'
import { RECORD_KIND, type CaptureStore } from '../../../../src/main/ingest/store'
import { chunksOf, scan } from '../ingest/helpers'

const HEADER = '{"format":"heapscope-capture","version":1}'
const MiB = 1 << 20

/**
 * Frames 1..7 (indices 0..6) under the default config (32 MiB SingleState buffer pools, defrag on, two frames in
 * flight). Frame 1 fills DEFAULT/SingleState/0 with A and B (16 MiB each) and /1 with C and D, puts E (1 MiB) alone
 * in /2, and makes R, a 64 MiB reserved buffer with nothing committed. Frame 2 releases B (pending until frame 2
 * completes) and commits 1 MiB of R; frame 4 commits 3,000,000 bytes of it.
 */
const MOVES = [
  { e: 'frame', n: 1 },
  { e: 'buffer', id: 1, size: 16 * MiB, usage: ['Static'], name: 'A' },
  { e: 'buffer', id: 2, size: 16 * MiB, usage: ['Static'], name: 'B' },
  { e: 'buffer', id: 3, size: 16 * MiB, usage: ['Static'], name: 'C' },
  { e: 'buffer', id: 4, size: 16 * MiB, usage: ['Static'], name: 'D' },
  { e: 'buffer', id: 5, size: MiB, usage: ['Static'], name: 'E' },
  { e: 'buffer', id: 6, size: 64 * MiB, usage: ['ReservedResource'], name: 'R' },
  { e: 'frame', n: 2 },
  { e: 'release', id: 2 },
  { e: 'commit', id: 6, bytes: MiB },
  { e: 'frame', n: 3 },
  { e: 'frame', n: 4 },
  { e: 'commit', id: 6, bytes: 3_000_000 },
  { e: 'frame', n: 5 },
  { e: 'frame', n: 6 },
  { e: 'frame', n: 7 },
]

function loadOf(lines: object[]) {
  const text = [HEADER, ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n'
  return loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: 'search.hscap' })
}

async function runOf(lines: object[]) {
  const result = await loadOf(lines)
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

  it('finds each transient of a graph declared again under its own id, though they share one desc', async () => {
    // frames 1..3 (indices 0..2), each a graph of two transients: the texture GBufferA, the same desc each frame under
    // ids 100, 101, 102 (the load keeps one texture row for the three), and a buffer of another name
    const frames = [0, 1, 2].flatMap((f) => [
      { e: 'frame', n: f + 1 },
      { e: 'graph', name: 'Frame' },
      { e: 'transient', id: 100 + f, kind: 'texture', format: 'R8G8B8A8_UNORM', width: 256, height: 256, flags: ['RenderTarget'], first: 0, last: 1, name: 'GBufferA' },
      { e: 'transient', id: 200 + f, kind: 'buffer', size: 4096, usage: ['UnorderedAccess'], first: 1, last: 2, name: 'Scratch' },
      { e: 'endgraph', passes: 3 },
    ])
    const { engine, runId } = await runOf(frames)
    const found = await engine.search({ runId, text: 'GBufferA', offset: 0, limit: 10, historyOf: -1 })
    expect(found.total).toBe(3)
    expect(found.rows.map((r) => [r.id, r.name, r.kind, r.created])).toEqual([
      [100, 'GBufferA', 'transient', 0],
      [101, 'GBufferA', 'transient', 1],
      [102, 'GBufferA', 'transient', 2],
    ])
    const byId = await engine.search({ runId, text: '#201', offset: 0, limit: 10, historyOf: -1 })
    expect(byId.rows.map((r) => [r.id, r.name, r.created])).toEqual([[201, 'Scratch', 1]])
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
    // the next page of a search kept, and one made again after four others: the same answers
    expect((await engine.search({ runId, text: 'e', offset: 0, limit: 1 })).rows.map((r) => r.name)).toEqual(['Mesh_1.VB'])
    for (const text of ['Rock', 'VB', '#2', 'o']) await engine.search({ runId, text, offset: 0, limit: 10 })
    expect(await engine.search({ runId, text: 'Mesh_*.VB', offset: 1, limit: 10 })).toMatchObject({ total: 2, rows: [{ name: 'Mesh_2.VB' }] })
    await engine.dispose()
  })

  it("gives a texture whose desc has no size the bytes the model estimates, as the inspector's table does", async () => {
    // T_Est: 1024 × 1024 BC7 with its mips and no size; T_Given: the driver's size; a transient texture without one
    const { engine, runId } = await runOf([
      { e: 'frame', n: 1 },
      { e: 'texture', id: 1, dim: '2d', format: 'BC7_UNORM', width: 1024, height: 1024, mips: 11, flags: ['ShaderResource'], name: 'T_Est' },
      { e: 'texture', id: 2, dim: '2d', format: 'BC7_UNORM', width: 1024, height: 1024, mips: 11, flags: ['ShaderResource'], name: 'T_Given', size: 1_400_000 },
      { e: 'texture', id: 3, dim: '2d', format: 'R8G8B8A8_UNORM', width: 300, height: 200, flags: ['RenderTargetable'], name: 'T_Odd' },
      { e: 'buffer', id: 4, size: 4096, usage: ['Static'], name: 'T_Buffer' },
      { e: 'frame', n: 2 },
    ])
    const found = await engine.search({ runId, text: 'T_', offset: 0, limit: 10 })
    const table = await engine.resources({ runId, frame: 0, offset: 0, limit: 10, sort: 'id' })
    const inTable = (id: number) => table.rows.find((r) => r.id === id)!
    expect(found.rows.map((r) => [r.name, r.requested, r.estimated])).toEqual([
      ['T_Est', inTable(1).requested, true],
      ['T_Given', 1_400_000, false],
      ['T_Odd', inTable(3).requested, true],
      ['T_Buffer', 4096, false],
    ])
    // the table's rows say so too, and the estimates are real sizes: a 1024² BC7 chain is over its top mip's 1 MiB
    expect([inTable(1).estimated, inTable(2).estimated, inTable(3).estimated]).toEqual([true, false, true])
    expect(inTable(1).requested).toBeGreaterThan(MiB)
    expect(inTable(3).requested).toBeGreaterThanOrEqual(300 * 200 * 4)
    await engine.dispose()
  })

  it('keeps the hits of the last four searches: a next page tests no name again', () => {
    const index = new ResourceIndex(scan([HEADER, '{"e":"frame","n":1}', '{"e":"buffer","id":1,"size":4096,"usage":["Static"],"name":"A"}'].join('\n') + '\n').store)
    const found: string[] = []
    const hitsOf = (text: string) => index.hitsOf(text, () => (found.push(text), Uint32Array.of(text.length)))
    expect(Array.from(hitsOf('one'))).toEqual([3])
    expect(Array.from(hitsOf('one'))).toEqual([3])
    for (const text of ['two', 'three', 'four', 'five']) hitsOf(text)
    // 'one' was the least recent of five: found again; 'five', the most recent, is kept
    hitsOf('one')
    hitsOf('five')
    expect(found).toEqual(['one', 'two', 'three', 'four', 'five', 'one'])
  })

  it('gives every change of a resource over its life: a defrag move, a reserved resource’s commits', async () => {
    const { engine, runId } = await runOf(MOVES)
    const history = async (text: string, historyFrom?: number) =>
      (await engine.search({ runId, text, offset: 0, limit: 1, historyOf: 0, historyFrom })).history
    // A never moves: one entry, where frame 1 put it
    expect((await history('A'))?.entries).toEqual([
      { frame: 0, placement: 'SharedBufferPool', heap: 'DEFAULT', pool: 'DEFAULT/SingleState/0', offset: 0, occupied: 16 * MiB, requested: 16 * MiB, virtual: 0, changed: [] },
    ])
    // beginFrame(4) ends frame 3 (its defrag finds /0 still holding B's pending block) and completes frame 2, so
    // B's 16 MiB at offset 16 MiB are free; the end of frame 4 (index 3) defragments: /0 and /2 are not full, /0
    // (16 MiB used) ranks above /2 (1 MiB) and has a free block of 1 MiB, so E moves to /0 at 16 MiB
    const e = await history('E')
    expect(e?.entries.map((h) => [h.frame, h.pool, h.offset, h.changed])).toEqual([
      [0, 'DEFAULT/SingleState/2', 0, []],
      [3, 'DEFAULT/SingleState/0', 16 * MiB, ['pool', 'offset']],
    ])
    expect(e?.next).toBeNull()
    // R: nothing committed at first; 1 MiB (16 tiles of 64 KiB) in frame 2; 3,000,000 bytes in frame 4, rounded
    // up to 46 tiles = 3,014,656 bytes; its virtual size 64 MiB throughout
    const r = await history('R')
    expect(r?.entries.map((h) => [h.frame, h.placement, h.occupied, h.requested, h.virtual, h.changed])).toEqual([
      [0, 'Reserved', 0, 0, 64 * MiB, []],
      [1, 'Reserved', MiB, MiB, 64 * MiB, ['occupied', 'requested']],
      [3, 'Reserved', 46 * 65536, 3_000_000, 64 * MiB, ['occupied', 'requested']],
    ])
    // a later page starts where the first stopped and still says what changed
    expect((await history('R', 2))?.entries.map((h) => [h.frame, h.occupied, h.changed])).toEqual([[3, 46 * 65536, ['occupied', 'requested']]])
    await engine.dispose()
  })

  it('pages a long history: at most the limit, then the frame the rest starts at', async () => {
    const result = await loadOf(MOVES)
    const { replay } = await replayCapture(result, [])
    // the model walk is an optional capability: the D3D12 backend's run has it
    if (!replay.walk) throw new Error('a D3D12 capture replays through the D3D12 model')
    const walk = replay.walk.bind(replay)
    // R (id 6, the sixth create record after the first frame record: record index 6) from frame 0 to the end
    const first = walkHistory(walk, 6, 6, 0, 6, 0, 2)
    expect(first.entries.map((h) => h.frame)).toEqual([0, 1])
    expect(first.next).toBe(3)
    const rest = walkHistory(walk, 6, 6, 0, 6, first.next!, 2)
    expect(rest.entries.map((h) => [h.frame, h.occupied])).toEqual([[3, 46 * 65536]])
    expect(rest.next).toBeNull()
  })
})

describe('the index of every resource a run made, and the lifetimes a resource\'s details read', () => {
  /** The index as the rule says it: every create a row, its release frame from the record that ends its life. */
  function reference(store: CaptureStore) {
    const rows: number[][] = []
    const live = new Map<number, number>()
    const ends = new LifeEnds()
    let frame = 0
    for (let i = 0; i < store.records.length; i++) {
      while (frame + 1 < store.frames.length && store.frames.firstRecord[frame + 1] <= i) frame++
      const k = store.records.kind[i]
      const r = store.records.ref[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
        const made = k === RECORD_KIND.buffer || k === RECORD_KIND.texture
        const table = k === RECORD_KIND.transient ? store.transients : store.placed
        const buffer = made ? k === RECORD_KIND.buffer : table.kind.data[r] === 0
        const desc = made ? r : table.desc.data[r]
        const id = made ? (buffer ? store.buffers : store.textures).id.data[desc] : table.id.data[r]
        const descs = buffer ? store.buffers : store.textures
        const size = descs.size.data[desc]
        const kind = k === RECORD_KIND.transient ? 2 : buffer ? 0 : 1
        rows.push([kind, id, descs.name.data[desc], descs.tag.data[desc], frame, k === RECORD_KIND.transient ? frame : -1, Number.isNaN(size) ? 0 : size, i])
        if (k !== RECORD_KIND.transient) live.set(id, rows.length - 1)
      }
      for (const id of ends.read(store, i)) {
        const row = live.get(id)
        if (row === undefined) continue
        rows[row][5] = frame
        live.delete(id)
      }
    }
    return rows
  }
  /** A resource's details read its release (Lifetimes): the frame number of the reference's release, or null. */
  const expectLifetimes = (store: CaptureStore) => {
    const lifetimes = new Lifetimes(store)
    const rows = reference(store).filter((r) => r[0] !== 2)
    expect(rows.map((r) => lifetimes.releasedFrame(r[7]))).toEqual(rows.map((r) => (r[5] < 0 ? null : store.frames.n[r[5]])))
  }
  const rowsOf = (index: ResourceIndex) =>
    Array.from({ length: index.length }, (_, i) => [
      index.descOf(i).kind,
      index.id[i],
      index.name[i],
      index.descOf(i).tag,
      index.createdOf(i),
      index.released[i],
      index.descOf(i).requested,
      index.record[i],
    ])

  it.each(['deferred-60', 'raytracing-60', 'streaming-150', 'demo', 'vulkan-hazards-120'])('of %s has the rows the reference gives', async (name) => {
    const { store } = await loadCaptureFile(join(__dirname, '__golden__', `${name}.hscap.gz`))
    const index = new ResourceIndex(store)
    expect(index.length).toBeGreaterThan(100)
    expect(rowsOf(index)).toEqual(reference(store))
    expectLifetimes(store)
  })

  it.each(['deferred-60', 'streaming-150', 'demo', 'vulkan-hazards-120'])('of %s finds the rows a test of every name and id finds', async (name) => {
    const { store } = await loadCaptureFile(join(__dirname, '__golden__', `${name}.hscap.gz`))
    const index = new ResourceIndex(store)
    const texts = ['a', 'Tex', 'T_*_N', '/^(Scene|GBuffer)/', '/x{40}/', '#12', '12', '0', 'no such name', '/[/']
    for (const text of texts) {
      const m = matcherOf(text)
      const plain: number[] = []
      if (!m.error) {
        for (let i = 0; i < index.length; i++) {
          if ((m.id !== undefined && index.id[i] === m.id) || (m.name !== undefined && m.name(store.strings.get(index.name[i]) ?? ''))) plain.push(i)
        }
      }
      expect(Array.from(matches(index, m)), text).toEqual(plain)
    }
    // the texts above find something, in every capture
    expect(matches(index, matcherOf('a')).length).toBeGreaterThan(10)
  })

  it('has the rows the reference gives for ids far apart, heaps freed with what is placed in them, and an id made again', () => {
    const lines = [
      HEADER,
      { e: 'frame', n: 1 },
      { e: 'buffer', id: -5, size: 4096, usage: ['Static'], name: 'Negative' },
      { e: 'buffer', id: 2 ** 40, size: 4096, usage: ['Static'], name: 'Far' },
      { e: 'buffer', id: 7, size: 4096, usage: ['Static'], name: 'Small' },
      { e: 'heap', id: 100, size: 1 << 20, type: 'default' },
      { e: 'placed', id: 101, heap: 100, offset: 0, kind: 'buffer', size: 4096, name: 'InHeap' },
      { e: 'placed', id: 102, heap: 100, offset: 4096, kind: 'buffer', size: 4096, name: 'InHeapToo' },
      { e: 'frame', n: 2 },
      { e: 'release', id: -5 },
      { e: 'release', id: 2 ** 40 },
      { e: 'free', id: 100 },
      { e: 'release', id: 7 },
      { e: 'buffer', id: 7, size: 8192, usage: ['Static'], name: 'SmallAgain' },
      { e: 'frame', n: 3 },
      { e: 'release', id: 7 },
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))
    const { store } = scan(lines.join('\n') + '\n')
    const index = new ResourceIndex(store)
    expect(rowsOf(index)).toEqual(reference(store))
    expectLifetimes(store)
    // Negative, Far, Small and both placed ones (with their heap) end in frame index 1; id 7's second life in 2
    expect(Array.from(index.name, (n) => store.strings.get(n))).toEqual(['Negative', 'Far', 'Small', 'InHeap', 'InHeapToo', 'SmallAgain'])
    expect(Array.from(index.released)).toEqual([1, 1, 1, 1, 1, 2])
  })
})
