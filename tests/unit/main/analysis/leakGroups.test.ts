import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { labelsOf, leakGroups, namePattern, RangeTallies } from '../../../../src/main/analysis/leakGroups'
import { createdIdOf, frameOfRecord } from '../../../../src/main/analysis/records'
import type { ResourceTable } from '../../../../src/main/analysis/resourceTable'
import { replayCapture } from '../../../../src/main/analysis/run'
import { recordRange, RECORD_KIND, type CaptureStore } from '../../../../src/main/ingest/store'
import type { LeakGroup } from '../../../../src/shared/ipc'
import { LocalEngine } from '../../../../src/main/engine/engine'
import { loadCapture, loadCaptureFile } from '../../../../src/main/ingest/read'
import { chunksOf } from '../ingest/helpers'

const HEADER = '{"format":"heapscope-capture","version":1}'
const MiB = 1 << 20

async function runOf(lines: object[]) {
  const text = [HEADER, ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n'
  const result = await loadCapture(chunksOf(new TextEncoder().encode(text), 1 << 16), { file: 'leaks.hscap' })
  const engine = new LocalEngine()
  const run = await engine.addRun(result, {})
  return { engine, runId: run.id }
}

describe('leak candidates in groups', () => {
  it('folds runs of digits in names', () => {
    expect(namePattern('Emitter_12.Buffer3')).toBe('Emitter_#.Buffer#')
    expect(namePattern('SceneColor')).toBe('SceneColor')
  })

  it('puts the name created steadily and never freed first, whatever holds more bytes', async () => {
    // frames 0..9. "Dust_<n>" a 64 KiB buffer created in frames 1, 3, 5, 7, 9 and never freed (steady: 5 frames
    // over 8 of the 9); "Mesh_<n>" two 8 MiB buffers in frame 2 (a burst); "Ui_<n>" a 1 MiB buffer each frame from
    // 1, each released in the next frame but the last (some freed); "Old" made in frame 0, before A, released in 4.
    const lines: object[] = []
    let id = 1
    const ui: number[] = []
    for (let f = 0; f < 10; f++) {
      lines.push({ e: 'frame', n: f })
      if (f === 0) lines.push({ e: 'buffer', id: 999, size: 4096, usage: ['Static'], name: 'Old', tag: 'Ui' })
      if (f === 4) lines.push({ e: 'release', id: 999 })
      if (f % 2 === 1) lines.push({ e: 'buffer', id: id++, size: 64 * 1024, usage: ['Static', 'UnorderedAccess'], name: `Dust_${f}`, tag: 'Particles' })
      if (f === 2) for (let k = 0; k < 2; k++) lines.push({ e: 'buffer', id: id++, size: 8 * MiB, usage: ['Static'], name: `Mesh_${k}`, tag: 'Meshes' })
      if (ui.length) lines.push({ e: 'release', id: ui.pop() })
      if (f >= 1) {
        ui.push(id)
        lines.push({ e: 'buffer', id: id++, size: MiB, usage: ['Static'], name: `Ui_${f}`, tag: 'Ui' })
      }
    }
    const { engine, runId } = await runOf(lines)
    const answer = await engine.leaks({ runId, from: 0, to: 9, offset: 0, limit: 2 })
    const byName = answer.groups.filter((g) => g.by === 'name')
    expect(byName.map((g) => g.key)).toEqual(['Dust_#', 'Mesh_#', 'Ui_#'])
    expect(byName[0]).toMatchObject({ count: 5, created: 5, freed: 0, firstCreated: 1, lastCreated: 9, steady: true })
    const all = await engine.leaks({ runId, from: 0, to: 9, offset: 0, limit: 5000, groups: false })
    const dust = all.rows.filter((r) => r.name.startsWith('Dust_'))
    expect(byName[0].bytes).toBe(dust.reduce((s, r) => s + r.occupied, 0))
    expect(byName[0].bytesPerFrame).toBe(byName[0].bytes / 9)
    expect(byName[1]).toMatchObject({ count: 2, created: 2, freed: 0, steady: false })
    // Ui_9 alone is alive at B; eight were created and released in the range
    expect(byName[2]).toMatchObject({ count: 1, created: 9, freed: 8, steady: false })
    const byTag = answer.groups.filter((g) => g.by === 'tag')
    expect(byTag[0]).toMatchObject({ key: 'Particles', steady: true, count: 5 })
    // "Old", made before A and released in the range, counts against its tag
    expect(byTag.find((g) => g.key === 'Ui')).toMatchObject({ created: 9, freed: 9 })
    // every candidate is in one name group and one tag group, though only two rows were asked for
    expect(answer.rows.length).toBe(2)
    expect(byName.reduce((s, g) => s + g.count, 0)).toBe(answer.total)
    expect(byTag.reduce((s, g) => s + g.count, 0)).toBe(answer.total)
    // an export's pages skip the groups
    expect((await engine.leaks({ runId, from: 0, to: 9, offset: 2, limit: 2, groups: false })).groups).toEqual([])
    // the next page's groups are the first's, found once: each answer its own objects, whatever was done to the last
    const found = structuredClone(answer.groups)
    answer.groups[0].count = -1
    answer.groups.length = 0
    const next = await engine.leaks({ runId, from: 0, to: 9, offset: 2, limit: 2 })
    expect(next.groups).toEqual(found)
    expect(next.rows.length).toBe(2)
    // another range, its own groups
    const later = await engine.leaks({ runId, from: 4, to: 9, offset: 0, limit: 2 })
    expect(later.groups.find((g) => g.key === 'Dust_#')).toMatchObject({ count: 3, created: 3 })
    await engine.dispose()
  })
})

describe('leak groups against a plain reference', () => {
  // the reference walks the range as the rule says it; the tallies and their groups are the module's own
  /** The groups as the rule says them: every record in the range read with its strings, a Map of live ids. */
  function reference(store: CaptureStore, atA: ResourceTable, atB: ResourceTable, from: number, to: number): LeakGroup[] {
    const tallies = new RangeTallies(store, from, to)
    // what each live id belongs to, for the releases in the range
    const keysOf = new Map<number, [string, string]>()
    for (let i = 0; i < atA.length; i++) keysOf.set(atA.id[i], [namePattern(atA.text.name[i]), atA.text.tag[i]])
    const text = (id: number) => store.strings.get(id) ?? ''
    // a name's pattern and a tag's text by their string id: each string decoded and folded once, however often it is made
    const patterns = new Map<number, string>()
    const tags = new Map<number, string>()
    const patternOf = (id: number) => {
      let p = patterns.get(id)
      if (p === undefined) patterns.set(id, (p = namePattern(text(id))))
      return p
    }
    const tagOf = (id: number) => {
      let t = tags.get(id)
      if (t === undefined) tags.set(id, (t = text(id)))
      return t
    }
    const { start, end } = recordRange(store, from + 1, to + 1)
    const { kind, ref } = store.records
    for (let i = start; i < end; i++) {
      const k = kind[i]
      if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
        const [nameId, tagId] = labelsOf(store, i)
        const keys: [string, string] = [patternOf(nameId), tagOf(tagId)]
        const frame = store.frames.n[frameOfRecord(store.frames.firstRecord, i)]
        const name = tallies.name(keys[0])
        const tag = tallies.tag(keys[1])
        RangeTallies.created(name, frame)
        RangeTallies.created(tag, frame)
        // a transient lives within its graph: created and gone in its frame
        if (k === RECORD_KIND.transient) {
          name.freed++
          tag.freed++
        } else keysOf.set(createdIdOf(store, i), keys)
      } else if (k === RECORD_KIND.release) {
        const keys = keysOf.get(store.ops[ref[i]])
        if (!keys) continue
        tallies.name(keys[0]).freed++
        tallies.tag(keys[1]).freed++
      }
    }
    return tallies.groups(atB)
  }

  it.each([
    ['deferred-60', [[0, 59], [10, 40], [30, 31], [59, 59]]],
    ['streaming-150', [[0, 149], [20, 120], [100, 149]]],
    ['raytracing-60', [[0, 59], [5, 50]]],
    ['vulkan-hazards-120', [[0, 119], [30, 90]]],
  ] as const)('of %s give the reference\'s groups over every range', async (name, ranges) => {
    const result = await loadCaptureFile(join(__dirname, '__golden__', `${name}.hscap.gz`))
    const { replay } = await replayCapture(result, [], {})
    let seen = 0
    for (const [from, to] of ranges) {
      const atA: ResourceTable = replay.snapshots.table(from)
      const atB: ResourceTable = replay.snapshots.table(to)
      const groups = leakGroups(replay.store, atA, atB, from, to)
      expect(groups).toEqual(reference(replay.store, atA, atB, from, to))
      seen += groups.length
    }
    expect(seen).toBeGreaterThan(0)
  })

  it('group a candidate by the name its table shows where that is not its create record\'s (a Vulkan `name` record)', async () => {
    const result = await loadCaptureFile(join(__dirname, '__golden__', 'deferred-60.hscap.gz'))
    const { replay } = await replayCapture(result, [], {})
    const [from, to] = [10, 59]
    const atA: ResourceTable = replay.snapshots.table(from)
    const atB: ResourceTable = replay.snapshots.table(to)
    // every other row shown under a name of its own, as a name record gives it
    const name = atB.text.name.map((n, i) => (i % 2 === 1 ? `Renamed_${i % 6}.Buffer` : n))
    const renamed = Object.create(atB, { text: { value: { ...atB.text, name } } }) as ResourceTable
    const groups = leakGroups(replay.store, atA, renamed, from, to)
    expect(groups).toEqual(reference(replay.store, atA, renamed, from, to))
    expect(groups.find((g) => g.key === 'Renamed_#.Buffer')?.count).toBeGreaterThan(0)
  })
})
