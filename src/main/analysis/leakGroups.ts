/**
 * Leak candidates in groups: a leak is rarely one resource but a name made again and again ("Emitter_12.Buffer",
 * "Emitter_13.Buffer", …) or a tag that only grows. Candidates (created after A, alive at B) are grouped by name
 * with runs of digits folded, and by tag; each group says how many, how many bytes, how fast it grew, and whether
 * its resources were created steadily over the range and never freed, which is what a leak looks like.
 */
import type { LeakGroup } from '../../shared/ipc'
import { recordRange, RECORD_KIND, type CaptureStore } from '../ingest/store'
import { IdTable } from '../model/idTable'
import { createdIdOf, descRowOf, descTableOf } from './records'
import type { ResourceTable } from './resourceTable'

/** Groups listed per kind, at most: a capture of a million names needs no million-row group table. */
export const LEAK_GROUPS_PER_KIND = 5000

/** "Mesh_012.LOD3" → "Mesh_#.LOD#". */
export function namePattern(name: string): string {
  return name.replace(/\d+/g, '#')
}

/** What a group counts while its range is read (exported for the tests' reference walk). */
export interface Tally {
  count: number
  bytes: number
  created: number
  freed: number
  firstCreated: number
  lastCreated: number
  /** Frames with a creation, counted once each. */
  frames: number
  lastFrame: number
}

export const tally = (): Tally => ({ count: 0, bytes: 0, created: 0, freed: 0, firstCreated: Infinity, lastCreated: -Infinity, frames: 0, lastFrame: -1 })

/** The name and tag string ids of what a create record makes (a buffer, texture, placed or transient resource). */
export function labelsOf(store: CaptureStore, record: number): [number, number] {
  const descs = descTableOf(store, record)
  const row = descRowOf(store, record)
  return [descs.name.data[row], descs.tag.data[row]]
}

/**
 * The groups of the candidates in `atB` (the live table at frame index `to`) created after frame index `from`;
 * `atA` (the live table at `from`) names what was alive before the range, so its releases count for its group.
 */
export function leakGroups(store: CaptureStore, atA: ResourceTable, atB: ResourceTable, from: number, to: number): LeakGroup[] {
  const after = store.frames.n[from]
  const span = Math.max(1, store.frames.n[to] - after)
  const byName = new Map<string, Tally>()
  const byTag = new Map<string, Tally>()
  const get = (map: Map<string, Tally>, key: string) => {
    let t = map.get(key)
    if (!t) map.set(key, (t = tally()))
    return t
  }
  const text = (id: number) => store.strings.get(id) ?? ''
  // a name's and a tag's tallies by their string id: each string decoded, folded and looked up once, however often
  // it is made
  const nameTallies = new Map<number, Tally>()
  const tagTallies = new Map<number, Tally>()
  const nameTally = (id: number) => {
    let t = nameTallies.get(id)
    if (t === undefined) nameTallies.set(id, (t = get(byName, namePattern(text(id)))))
    return t
  }
  const tagTally = (id: number) => {
    let t = tagTallies.get(id)
    if (t === undefined) tagTallies.set(id, (t = get(byTag, text(id))))
    return t
  }
  // What each live id belongs to, for the releases in the range: 2k for row k of `atA` (its name and tag as the
  // table reads them), 2r + 1 for create record r in the range. A flat table for densely numbered ids (IdTable).
  const keysOf = new IdTable()
  for (let i = 0; i < atA.length; i++) keysOf.set(atA.id[i], 2 * i)
  const { start, end } = recordRange(store, from + 1, to + 1)
  const { kind, ref } = store.records
  const { firstRecord, n: frameNumbers } = store.frames
  const created = (t: Tally, frame: number) => {
    t.created++
    t.firstCreated = Math.min(t.firstCreated, frame)
    t.lastCreated = Math.max(t.lastCreated, frame)
    if (t.lastFrame !== frame) {
      t.frames++
      t.lastFrame = frame
    }
  }
  let f = from + 1
  for (let i = start; i < end; i++) {
    const k = kind[i]
    if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
      while (f + 1 < firstRecord.length && firstRecord[f + 1] <= i) f++
      const frame = frameNumbers[f]
      const [nameId, tagId] = labelsOf(store, i)
      const name = nameTally(nameId)
      const tag = tagTally(tagId)
      created(name, frame)
      created(tag, frame)
      // a transient lives within its graph: created and gone in its frame
      if (k === RECORD_KIND.transient) {
        name.freed++
        tag.freed++
      } else keysOf.set(createdIdOf(store, i), 2 * i + 1)
    } else if (k === RECORD_KIND.release) {
      const owner = keysOf.get(store.ops[ref[i]])
      if (owner === undefined) continue
      if ((owner & 1) === 0) {
        get(byName, namePattern(atA.text.name[owner / 2])).freed++
        get(byTag, atA.text.tag[owner / 2]).freed++
      } else {
        const [nameId, tagId] = labelsOf(store, (owner - 1) / 2)
        nameTally(nameId).freed++
        tagTally(tagId).freed++
      }
    }
  }
  return candidateGroups(atB, after, span, byName, byTag, get)
}

/**
 * The candidates of `atB` (created after frame number `after`) counted into their name's and tag's tallies, and the
 * groups of both kinds (exported for the tests' reference walk).
 */
export function candidateGroups(
  atB: ResourceTable,
  after: number,
  span: number,
  byName: Map<string, Tally>,
  byTag: Map<string, Tally>,
  get: (map: Map<string, Tally>, key: string) => Tally,
): LeakGroup[] {
  for (let i = 0; i < atB.length; i++) {
    if (atB.created[i] <= after) continue
    const name = get(byName, namePattern(atB.text.name[i]))
    const tag = get(byTag, atB.text.tag[i])
    name.count++
    name.bytes += atB.occupied[i]
    tag.count++
    tag.bytes += atB.occupied[i]
  }
  return [...groupsOf('name', byName, span), ...groupsOf('tag', byTag, span)]
}

/** The groups of a kind's tallies, steady ones first, then by bytes: at most LEAK_GROUPS_PER_KIND. */
function groupsOf(by: LeakGroup['by'], map: Map<string, Tally>, span: number): LeakGroup[] {
  const out: LeakGroup[] = []
  for (const [key, t] of map) {
    if (t.count === 0) continue
    const steady = t.freed === 0 && t.frames >= 3 && t.lastCreated - t.firstCreated >= span / 2
    out.push({
      by,
      key,
      count: t.count,
      bytes: t.bytes,
      bytesPerFrame: t.bytes / span,
      created: t.created,
      freed: t.freed,
      firstCreated: Number.isFinite(t.firstCreated) ? t.firstCreated : 0,
      lastCreated: Number.isFinite(t.lastCreated) ? t.lastCreated : 0,
      steady,
    })
  }
  out.sort((a, b) => Number(b.steady) - Number(a.steady) || b.bytes - a.bytes || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return out.slice(0, LEAK_GROUPS_PER_KIND)
}
